"""Where a node sits: enclosing class, method, and the name its first parameter binds.

`Scope` knows no syntax tree library: the `ast` walks (summary.py, the checks' collectors) and libcst's
(cst_facts.py) feed it alike.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Frame:
    kind: str  # "class" or "function"
    name: str
    owner_class: str | None  # class whose instance the receiver is, for methods and their closures
    method: str | None
    receiver: str | None  # name bound to the instance (self/cls), None outside methods


class Scope:
    """The stack of classes and functions around the node being visited. The innermost frame and its receiver
    are kept as plain attributes, set as frames come and go: the walks ask for them at almost every node."""

    def __init__(self) -> None:
        self.frames: list[Frame] = []
        self.current: Frame | None = None
        self.receiver: str | None = None  # name bound to the instance (self/cls), None outside methods

    def _entered(self, frame: Frame) -> None:
        self.frames.append(frame)
        self._settled()

    def _settled(self) -> None:
        frame = self.current = self.frames[-1] if self.frames else None
        self.receiver = frame.receiver if frame and frame.kind == "function" else None

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
        self._entered(Frame("class", name, name, None, None))

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
        self._entered(frame)

    def leave(self) -> None:
        self.frames.pop()
        self._settled()
