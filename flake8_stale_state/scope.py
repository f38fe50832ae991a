"""Where a node sits: enclosing class, method, and the name its first parameter binds.

`Scope` knows no syntax tree library: the libcst collectors and the `ast` summary feed it alike.
libcst collectors run in one batched traversal. The tracker is split into an opening
visitor placed first in the batch and a closing one placed last, so every collector
sees the scope of the node it visits, on the way in and on the way out.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst


@dataclass(frozen=True)
class Frame:
    kind: str  # "class" or "function"
    name: str
    owner_class: str | None  # class whose instance the receiver is, for methods and their closures
    method: str | None
    receiver: str | None  # name bound to the instance (self/cls), None outside methods


def dotted_name(node: cst.BaseExpression) -> str | None:
    """`a.b.c` as a string, None for anything that is not a plain dotted name."""
    parts = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if isinstance(node, cst.Name):
        parts.append(node.value)
        return ".".join(reversed(parts))
    return None


def decorator_names(node: cst.FunctionDef | cst.ClassDef) -> list[str]:
    names = []
    for decorator in node.decorators:
        expr = decorator.decorator
        if isinstance(expr, cst.Call):
            expr = expr.func
        name = dotted_name(expr)
        if name:
            names.append(name)
    return names


def _parameter_names(params: cst.Parameters) -> list[str]:
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            every.append(star)
    return [p.name.value for p in every]


def _first_positional(params: cst.Parameters) -> str | None:
    first = params.posonly_params or params.params
    return first[0].name.value if first else None


class Scope:
    """The stack of classes and functions around the node being visited."""

    def __init__(self) -> None:
        self.frames: list[Frame] = []

    @property
    def current(self) -> Frame | None:
        return self.frames[-1] if self.frames else None

    @property
    def receiver(self) -> str | None:
        frame = self.current
        return frame.receiver if frame and frame.kind == "function" else None

    @property
    def owner_class(self) -> str | None:
        frame = self.current
        return frame.owner_class if frame else None

    @property
    def method(self) -> str | None:
        frame = self.current
        return frame.method if frame else None

    @property
    def in_class_body(self) -> bool:
        frame = self.current
        return frame is not None and frame.kind == "class"

    @property
    def is_method(self) -> bool:
        """The current frame is a function defined directly in a class body."""
        return len(self.frames) >= 2 and self.frames[-1].kind == "function" and self.frames[-2].kind == "class"

    def enter_class(self, name: str) -> None:
        self.frames.append(Frame("class", name, name, None, None))

    def enter_function(self, name: str, parameters: list[str], first: str | None, decorators: list[str]) -> None:
        """`first` is the first positional parameter, the receiver of a method."""
        parent = self.current
        if parent is not None and parent.kind == "class":
            receiver = first if "staticmethod" not in decorators else None
            frame = Frame("function", name, parent.name, name, receiver)
        elif parent is not None and parent.kind == "function":
            # A closure inside a method still sees the method's receiver unless it rebinds the name.
            receiver = parent.receiver if parent.receiver not in parameters else None
            frame = Frame("function", name, parent.owner_class, parent.method, receiver)
        else:
            frame = Frame("function", name, None, None, None)
        self.frames.append(frame)

    def leave(self) -> None:
        self.frames.pop()


class ScopeOpener(cst.BatchableCSTVisitor):
    def __init__(self, scope: Scope) -> None:
        super().__init__()
        self.scope = scope

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.scope.enter_class(node.name.value)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.scope.enter_function(
            node.name.value, _parameter_names(node.params), _first_positional(node.params), decorator_names(node)
        )


class ScopeCloser(cst.BatchableCSTVisitor):
    def __init__(self, scope: Scope) -> None:
        super().__init__()
        self.scope = scope

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.scope.leave()

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.scope.leave()
