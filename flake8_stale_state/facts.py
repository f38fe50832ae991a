"""Facts of one file: everything the checks need, gathered in one libcst traversal.

Facts are plain data (JSON-compatible once `to_data` is applied), so they can be cached
and shipped between processes; syntax trees never leave this module.
"""

from __future__ import annotations

import ast
import re
import threading
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
    same_name: bool  # value mentions `name`, e.g. cfg['name']: a possible seed from a config


class ClassInfo(NamedTuple):
    bases: list[str]  # dotted names
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
    signals: set[str] = field(default_factory=set)  # cheap shapes seen by the ast pre-pass (summary.py)
    error: str | None = None
    digest: str = ""  # content key of the source these facts were collected from; not stored

    def to_data(self) -> dict[str, Any]:
        return {
            "writes": [list(w) for w in self.writes],
            "reads": sorted(self.reads),
            "receiver_reads": {k: sorted(v) for k, v in self.receiver_reads.items()},
            "classes": {k: list(v) for k, v in self.classes.items()},
            "checks": self.checks,
            "signals": sorted(self.signals),
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
            signals=set(data["signals"]),
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
LISTED_NAMES = ("__slots__", "__match_args__")


def is_constructor(callee: str | None) -> bool:
    """`nn.Linear`, `Parameter`: a call of a capitalised name builds an object (a submodule, say)."""
    return bool(callee) and callee.rsplit(".", 1)[-1][:1].isupper()


class FactsBuilder:
    """The rules that turn what a traversal meets into facts, whichever library parsed the file.

    The libcst collector below and the `ast` summary (summary.py) both report to it, so both
    produce the same facts from the same source.
    """

    def __init__(self, scope: Scope) -> None:
        self.scope = scope
        self.facts = FileFacts(path="")
        self.class_stack: list[str] = []

    def store(self, name: str, line: int, col: int, owner: str | None, constructed: bool, same_name: bool) -> None:
        """`owner.name = value`; `same_name`: the value mentions `name` (a seed such as `cfg['name']`)."""
        receiver = self.scope.receiver
        self.facts.writes.append(
            Write(name, line, col, self.scope.owner_class, self.scope.method, owner or "",
                  receiver is not None and owner == receiver, constructed, same_name)
        )

    def read(self, name: str, owner: str | None) -> None:
        self.facts.reads.add(name)
        receiver = self.scope.receiver
        if receiver and owner == receiver:
            self.facts.receiver_reads.setdefault(self.scope.owner_class, set()).add(name)
            if name == "__dict__":
                self._class_reads_all()

    def call(self, callee: str | None, strings: list[str | None], first_argument: str | None) -> None:
        """A call, with the string value of each positional argument and the name of the first one."""
        callee = callee or ""
        if callee in STRING_READERS and len(strings) >= 2 and strings[1]:
            self.facts.reads.add(strings[1])
        elif callee.rsplit(".", 1)[-1] == "attrgetter":
            for value in strings:
                if value:
                    self.facts.reads.update(value.split("."))
        elif callee in INTROSPECTORS and first_argument and first_argument == self.scope.receiver:
            self._class_reads_all()

    def string(self, value: str) -> None:
        if "{" in value and "." in value:
            for fmt_field in FORMAT_FIELD.findall(value):
                self.facts.reads.update(FIELD_ATTRIBUTE.findall(fmt_field))

    def enter_class(self, name: str, bases: list[str | None], decorators: list[str]) -> None:
        self.facts.classes[name] = ClassInfo([b for b in bases if b], decorators, [], False)
        self.class_stack.append(name)

    def leave_class(self) -> None:
        self.class_stack.pop()

    def method(self, name: str, decorators: list[str]) -> None:
        """A function defined directly in a class body (called once the scope has entered it)."""
        if name == "__setattr__":
            self._class_reads_all()
        for decorator in decorators:
            # `@x.setter` turns `self.x = v` into a call of the setter
            if decorator.endswith((".setter", ".deleter")):
                self.facts.reads.add(decorator.split(".")[0])
        self._current_class().body_names.append(name)

    def class_binding(self, targets: list[str], listed: list[str]) -> None:
        """Names bound in a class body; `listed`: the strings of the value, for `__slots__` and `__match_args__`."""
        if not self.class_stack or not self.scope.in_class_body:
            return
        self._current_class().body_names.extend(targets)
        if any(target in LISTED_NAMES for target in targets):
            self.facts.reads.update(listed)

    def _current_class(self) -> ClassInfo:
        return self.facts.classes[self.class_stack[-1]]

    def _class_reads_all(self) -> None:
        cls = self.scope.owner_class
        info = self.facts.classes.get(cls) if cls else None
        if info is not None and not info.reads_all:
            self.facts.classes[cls] = info._replace(reads_all=True)


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


def mentions(value: cst.CSTNode, name: str) -> bool:
    """The expression holds `name` as an attribute or a string: `cfg.name`, `cfg['name']`, `getattr(c, 'name')`."""
    if isinstance(value, cst.Attribute) and value.attr.value == name:
        return True
    if isinstance(value, cst.SimpleString) and string_value(value) == name:
        return True
    return any(mentions(child, name) for child in value.children)


def listed_strings(node: cst.BaseExpression | None) -> list[str]:
    if node is None:
        return []
    value = string_value(node)
    if value is not None:
        return [value]
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        return [s for element in node.elements for s in listed_strings(element.value)]
    return []


class AttributeCollector(Collector):
    """Attribute stores and every form of attribute read, from the libcst tree."""

    def __init__(self, scope: Scope) -> None:
        super().__init__(scope)
        self.stores: dict[int, cst.BaseExpression | None] = {}  # id(Attribute) -> the value it is assigned
        self.builder = FactsBuilder(scope)
        self.in_import = False  # `import a.b` names a module: no attribute is read

    def result(self) -> FileFacts:
        return self.builder.facts

    def _mark_stores(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        single = isinstance(target, cst.Attribute)
        for attribute in target_attributes(target):
            self.stores[id(attribute)] = value if single else None

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._mark_stores(target.target, node.value)
        self._class_binding([t.target for t in node.targets], node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._mark_stores(node.target, node.value)
        self._class_binding([node.target], node.value)

    def _class_binding(self, targets: list[cst.BaseExpression], value: cst.BaseExpression | None) -> None:
        names = [t.value for t in targets if isinstance(t, cst.Name)]
        if names:
            self.builder.class_binding(names, listed_strings(value))

    def visit_For(self, node: cst.For) -> None:
        self._mark_stores(node.target, None)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._mark_stores(node.target, None)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._mark_stores(node.asname.name, None)

    # AugAssign and Del targets are reads: they need the attribute to exist and use it.

    def visit_Import(self, node: cst.Import) -> None:
        self.in_import = True

    def leave_Import(self, original_node: cst.Import) -> None:
        self.in_import = False

    visit_ImportFrom = visit_Import

    def leave_ImportFrom(self, original_node: cst.ImportFrom) -> None:
        self.in_import = False

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if self.in_import:
            return
        name = node.attr.value
        owner = dotted_name(node.value)
        if id(node) not in self.stores:
            self.builder.read(name, owner)
            return
        value = self.stores.pop(id(node))
        line, col = self.position(node)
        constructed = isinstance(value, cst.Call) and is_constructor(dotted_name(value.func))
        self.builder.store(name, line, col, owner, constructed, value is not None and mentions(value, name))

    def visit_Call(self, node: cst.Call) -> None:
        positional = [arg.value for arg in node.args if arg.keyword is None and not arg.star]
        first = positional[0] if positional else None
        self.builder.call(
            dotted_name(node.func), [string_value(arg) for arg in positional],
            first.value if isinstance(first, cst.Name) else None,
        )

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        if "{" in node.value:
            value = node.evaluated_value
            if isinstance(value, str):
                self.builder.string(value)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        bases = [dotted_name(arg.value) for arg in node.bases if arg.keyword is None and not arg.star]
        self.builder.enter_class(node.name.value, bases, decorator_names(node))

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.builder.leave_class()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if self.scope.is_method:
            self.builder.method(node.name.value, decorator_names(node))


# libcst's native parser recurses on the C stack and crashes the process (no exception) on deep nesting
# that Python's own parser rejects cleanly, so such files are refused before libcst sees them, and libcst
# runs on a thread with a large stack for the nesting Python's parser accepts (`x and x and ...`).
NESTING_ERRORS = (RecursionError, MemoryError)
TOO_NESTED = "too many nested parentheses"
PARSER_STACK_BYTES = 256 * 1024 * 1024  # reserved, not committed: only the pages used cost memory


class TooDeeplyNested(Exception):
    pass


def refuse_deep_nesting(source: str | bytes) -> None:
    try:
        ast.parse(source)
    except NESTING_ERRORS:
        raise TooDeeplyNested from None
    except SyntaxError as error:
        if error.msg == TOO_NESTED:
            raise TooDeeplyNested from None
    except ValueError:  # NUL bytes: libcst reports those itself
        pass


def on_large_stack(function, *args):
    """`function(*args)` on a thread with a stack of PARSER_STACK_BYTES; its exception is raised here."""
    outcome: list = []

    def run() -> None:
        try:
            outcome.append((True, function(*args)))
        except BaseException as error:  # noqa: B036 - handed back to the calling thread
            outcome.append((False, error))

    previous = threading.stack_size(PARSER_STACK_BYTES)
    try:
        thread = threading.Thread(target=run, name="stale-state-parser")
        thread.start()
    finally:
        threading.stack_size(previous)
    thread.join()
    succeeded, value = outcome[0]
    if not succeeded:
        raise value
    return value


def parse(source: str | bytes) -> cst.Module:
    refuse_deep_nesting(source)
    return on_large_stack(cst.parse_module, source)


def python_syntax_error(error: SyntaxError) -> str:
    # a NUL byte is rejected before any line is read: Python gives no line number
    where = f" at line {error.lineno}" if error.lineno else ""
    return f"syntax error{where}: {error.msg}"


def syntax_error_message(source: str | bytes, error: cst.ParserSyntaxError) -> str:
    """Python's own wording where Python also rejects the file; libcst's where only libcst does."""
    try:
        ast.parse(source)
    except SyntaxError as python_error:
        return python_syntax_error(python_error)
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
    except (RecursionError, TooDeeplyNested):
        return FileFacts(path=path, error="nested too deeply to analyse")
    except Exception as error:  # one file's failure must not cost the package its other files
        return FileFacts(path=path, error=f"internal error: {type(error).__name__}: {error}")
    facts = core.result()
    facts.path = path
    facts.checks = {code: collector.result() for code, collector in own.items()}
    return facts
