"""Facts of one file: everything the checks need, and the rules that make them.

Facts are plain data (JSON-compatible once `to_data` is applied), so they can be cached
and shipped between processes. Two traversals feed `FactsBuilder`: libcst's (cst_facts.py),
which findings and fixes come from, and the cheap `ast` summary (summary.py) the index is built from.
This module imports neither, so a run served from the cache never loads libcst.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from flake8_stale_state.scope import Scope


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
    documented: set[str] = field(default_factory=set)  # attributes given API docs where assigned (Sphinx `#:`)
    imports: dict[str, str] = field(default_factory=dict)  # name an import binds -> what it names
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
            "documented": sorted(self.documented),
            "imports": self.imports,
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
            documented=set(data["documented"]),
            imports=data["imports"],
            error=data["error"],
        )


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

    def store(self, name: str, line: int, col: int, owner: str | None, constructed: bool) -> None:
        """`owner.name = value`; `constructed`: the value is a call of a capitalised name."""
        receiver = self.scope.receiver
        self.facts.writes.append(
            Write(name, line, col, self.scope.owner_class, self.scope.method, owner or "",
                  receiver is not None and owner == receiver, constructed)
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

    def documented_store(self, name: str, owner: str | None) -> None:
        """`owner.name = ...` with Sphinx attribute documentation: a `#:` comment on the line above (at the
        statement's indentation) or at the end of its line, or a string statement right after it."""
        if owner is not None and owner == self.scope.receiver:
            self.facts.documented.add(name)

    def import_module(self, module: str, alias: str | None) -> None:
        """`import a.b` binds `a`; `import a.b as c` binds `c` to `a.b`."""
        if alias:
            self.facts.imports[alias] = module
        else:
            head = module.split(".")[0]
            self.facts.imports[head] = head

    def import_from(self, level: int, module: str | None, name: str, alias: str | None) -> None:
        """`from a import b as c` binds `c` to `a.b`; relative imports keep their dots: `.m.b`."""
        if name != "*":
            source = "." * level + (module or "")
            self.facts.imports[alias or name] = f"{source}.{name}" if module else source + name

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


def python_syntax_error(error: SyntaxError) -> str:
    # a NUL byte is rejected before any line is read: Python gives no line number
    where = f" at line {error.lineno}" if error.lineno else ""
    return f"syntax error{where}: {error.msg}"
