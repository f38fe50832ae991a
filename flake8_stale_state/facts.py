"""Facts of one file: everything the checks need, gathered in one libcst traversal.

Facts are plain data (JSON-compatible once `to_data` is applied), so they can be cached
and shipped between processes; syntax trees never leave this module.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from flake8_stale_state.scope import Scope, ScopeCloser, ScopeOpener, decorator_names, dotted_name


class Write(NamedTuple):
    """An attribute store `owner.name = ...`."""

    name: str
    line: int
    col: int  # 0-based, at the start of `owner.name`
    cls: str | None
    method: str | None
    owner: str  # dotted text of the owner, e.g. "self" or "self.module"
    on_receiver: bool  # owner is the method's first parameter
    constructed: bool  # value is a call of a capitalised name, e.g. nn.Linear(...)


class ClassInfo(NamedTuple):
    bases: list[str]
    decorators: list[str]
    body_names: list[str]  # names bound in the class body (fields of framework classes)
    reads_all: bool  # vars(self), self.__dict__, __setattr__, asdict(self): every attribute is consumed


@dataclass
class FileFacts:
    path: str
    writes: list[Write] = field(default_factory=list)
    reads: set[str] = field(default_factory=set)
    receiver_reads: dict[str, set[str]] = field(default_factory=dict)  # class -> names read via self
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    checks: dict[str, Any] = field(default_factory=dict)  # each check's own collected data
    error: str | None = None
    digest: str = ""  # content key of the source these facts were collected from; not stored

    def to_data(self) -> dict[str, Any]:
        return {
            "writes": [list(w) for w in self.writes],
            "reads": sorted(self.reads),
            "receiver_reads": {k: sorted(v) for k, v in self.receiver_reads.items()},
            "classes": {k: list(v) for k, v in self.classes.items()},
            "checks": self.checks,
            "error": self.error,
        }

    @classmethod
    def from_data(cls, path: str, data: dict[str, Any]) -> FileFacts:
        return cls(
            path=path,
            writes=[Write(*w) for w in data["writes"]],
            reads=set(data["reads"]),
            receiver_reads={k: set(v) for k, v in data["receiver_reads"].items()},
            classes={k: ClassInfo(*v) for k, v in data["classes"].items()},
            checks=data["checks"],
            error=data["error"],
        )


class Collector(cst.BatchableCSTVisitor):
    """Base of every fact collector: shares the scope and reports positions."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, scope: Scope) -> None:
        super().__init__()
        self.scope = scope

    def position(self, node: cst.CSTNode) -> tuple[int, int]:
        start = self.get_metadata(PositionProvider, node).start
        return start.line, start.column

    def result(self) -> Any:
        raise NotImplementedError


STRING_READERS = {"getattr", "hasattr", "delattr"}
# "{0.name}", "{self.name!r:>10}": attribute references inside str.format fields
FORMAT_FIELD = re.compile(r"\{([^{}!:]*)")
FIELD_ATTRIBUTE = re.compile(r"\.([A-Za-z_]\w*)")
INTROSPECTORS = {"vars", "asdict", "dataclasses.asdict", "attr.asdict", "attrs.asdict"}


def string_value(node: cst.BaseExpression) -> str | None:
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def target_attributes(target: cst.BaseExpression) -> list[cst.Attribute]:
    """Attributes stored to by an assignment target, through tuples, lists and stars."""
    if isinstance(target, cst.Attribute):
        return [target]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [a for element in target.elements for a in target_attributes(element.value)]
    if isinstance(target, cst.StarredElement):
        return target_attributes(target.value)
    return []


def is_constructed(value: cst.BaseExpression | None) -> bool:
    if not isinstance(value, cst.Call):
        return False
    name = dotted_name(value.func)
    return bool(name) and name.rsplit(".", 1)[-1][:1].isupper()


class AttributeCollector(Collector):
    """Attribute stores and every form of attribute read, by name."""

    def __init__(self, scope: Scope) -> None:
        super().__init__(scope)
        self.stores: dict[int, cst.BaseExpression | None] = {}  # id(Attribute) -> assigned value
        self.facts = FileFacts(path="")
        self.class_stack: list[ClassInfo] = []

    def result(self) -> FileFacts:
        return self.facts

    # stores -----------------------------------------------------------------------------
    def _mark_stores(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        single = isinstance(target, cst.Attribute)
        for attribute in target_attributes(target):
            self.stores[id(attribute)] = value if single else None

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._mark_stores(target.target, node.value)
        self._class_body_binding([t.target for t in node.targets], node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._mark_stores(node.target, node.value)
        self._class_body_binding([node.target], node.value)

    def visit_For(self, node: cst.For) -> None:
        self._mark_stores(node.target, None)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._mark_stores(node.target, None)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._mark_stores(node.asname.name, None)

    # AugAssign and Del targets are reads: they need the attribute to exist and use it.

    def visit_Attribute(self, node: cst.Attribute) -> None:
        name = node.attr.value
        if id(node) in self.stores:
            value = self.stores.pop(id(node))
            line, col = self.position(node)
            owner = dotted_name(node.value) or ""
            receiver = self.scope.receiver
            self.facts.writes.append(
                Write(
                    name, line, col, self.scope.owner_class, self.scope.method, owner,
                    receiver is not None and owner == receiver, is_constructed(value),
                )
            )
            return
        self.facts.reads.add(name)
        receiver = self.scope.receiver
        if receiver and isinstance(node.value, cst.Name) and node.value.value == receiver:
            self.facts.receiver_reads.setdefault(self.scope.owner_class, set()).add(name)
            if name == "__dict__":
                self._class_reads_all()

    # reads by string ------------------------------------------------------------------------
    def visit_Call(self, node: cst.Call) -> None:
        name = dotted_name(node.func) or ""
        short = name.rsplit(".", 1)[-1]
        if name in STRING_READERS and len(node.args) >= 2:
            value = string_value(node.args[1].value)
            if value:
                self.facts.reads.add(value)
        elif short == "attrgetter":
            for arg in node.args:
                value = string_value(arg.value)
                if value:
                    self.facts.reads.update(value.split("."))
        elif name in INTROSPECTORS and node.args:
            receiver = self.scope.receiver
            arg = node.args[0].value
            if receiver and isinstance(arg, cst.Name) and arg.value == receiver:
                self._class_reads_all()

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        if "{" not in node.value or "." not in node.value:
            return
        value = node.evaluated_value
        if isinstance(value, str):
            for fmt_field in FORMAT_FIELD.findall(value):
                self.facts.reads.update(FIELD_ATTRIBUTE.findall(fmt_field))

    # classes ---------------------------------------------------------------------------------
    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        bases = [dotted_name(arg.value) for arg in node.bases if arg.keyword is None]
        info = ClassInfo([b for b in bases if b], decorator_names(node), [], False)
        self.facts.classes[node.name.value] = info
        self.class_stack.append(info)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.class_stack.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if not self.class_stack or not self.scope.is_method:
            return
        info = self.class_stack[-1]
        if node.name.value == "__setattr__":
            self._class_reads_all()
        for decorator in decorator_names(node):
            # `@x.setter` turns `self.x = v` into a call of the setter
            if decorator.endswith((".setter", ".deleter")):
                self.facts.reads.add(decorator.split(".")[0])
        info.body_names.append(node.name.value)

    def _class_body_binding(self, targets: list[cst.BaseExpression], value: cst.BaseExpression | None) -> None:
        if not self.class_stack or not self.scope.in_class_body:
            return
        for target in targets:
            if not isinstance(target, cst.Name):
                continue
            self.class_stack[-1].body_names.append(target.value)
            if target.value in ("__slots__", "__match_args__") and value is not None:
                self.facts.reads.update(_strings_in(value))

    def _class_reads_all(self) -> None:
        cls = self.scope.owner_class
        info = self.facts.classes.get(cls) if cls else None
        if info is not None and not info.reads_all:
            self.facts.classes[cls] = info._replace(reads_all=True)
            if self.class_stack and self.class_stack[-1] is info:
                self.class_stack[-1] = self.facts.classes[cls]


def _strings_in(node: cst.BaseExpression) -> list[str]:
    value = string_value(node)
    if value is not None:
        return [value]
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        return [s for element in node.elements for s in _strings_in(element.value)]
    return []


def parse(source: str | bytes) -> cst.Module:
    return cst.parse_module(source)


def syntax_error_message(source: str | bytes, error: cst.ParserSyntaxError) -> str:
    """Python's own wording where Python also rejects the file; libcst's where only libcst does."""
    try:
        ast.parse(source)
    except SyntaxError as python_error:
        return f"syntax error at line {python_error.lineno}: {python_error.msg}"
    except Exception:  # noqa: S110 - fall back to libcst's wording below
        pass
    return f"libcst cannot parse line {error.raw_line}: {error.message.splitlines()[0]}"


def collect_facts(path: str, source: str | bytes, check_collectors: dict[str, type[Collector]]) -> FileFacts:
    """One parse and one batched traversal; a file that cannot be parsed yields facts with `error`."""
    try:
        module = parse(source)
        scope = Scope()
        core = AttributeCollector(scope)
        own = {code: collector(scope) for code, collector in check_collectors.items()}
        visitors = [ScopeOpener(scope), core, *own.values(), ScopeCloser(scope)]
        MetadataWrapper(module, unsafe_skip_copy=True).visit_batched(visitors)
    except cst.ParserSyntaxError as error:
        return FileFacts(path=path, error=syntax_error_message(source, error))
    except SyntaxError as error:  # from the encoding declaration, before parsing starts
        return FileFacts(path=path, error=f"cannot decode: {error.msg}")
    except UnicodeDecodeError as error:
        return FileFacts(path=path, error=f"cannot decode: {error.reason} at byte {error.start}")
    except RecursionError:
        return FileFacts(path=path, error="nested too deeply to analyse")
    except Exception as error:  # one file's failure must not cost the package its other files
        return FileFacts(path=path, error=f"internal error: {type(error).__name__}: {error}")
    facts = core.result()
    facts.path = path
    facts.checks = {code: collector.result() for code, collector in own.items()}
    return facts
