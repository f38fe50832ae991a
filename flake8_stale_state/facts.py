"""Facts of one file: everything the checks need, and the rules that make them.

Facts are plain data (JSON-compatible once `to_data` is applied), so they can be cached
and shipped between processes. Two traversals feed `FactsBuilder`: the `ast` summary (summary.py) the index
is built from, and libcst's (cst_facts.py), for a file Python's parser rejects. This module imports neither.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from sys import intern
from typing import Any, NamedTuple

from flake8_stale_state.codec import decode, encode
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
    constructor: str | None  # the class the value is made by, when it is a call of a capitalised name: "Linear"
    shared: bool  # the value may be an object held elsewhere too (a name, an attribute, an item), not a new one
    function: bool = False  # the value is a function: a lambda, or an attribute of the receiver (a bound method)
    block: int = 0  # the list of statements the write stands in (`summary.block_key`); 0 where not known
    of_receiver: bool = False  # the value is a call given the receiver itself: `self.cat = CatClient(self)`
    empty: bool = False  # the value is `None`: no object, whatever class the attribute's other values are of
    versioned: bool = False  # under a test of Python's version: for another Python than the one reading it, maybe


class ClassInfo(NamedTuple):
    """What a class statement says of its class. Its sequences are lists while the module is read, tuples once it
    is (`kept_class`)."""

    bases: Sequence[str]  # dotted names
    decorators: Sequence[str]
    body_names: Sequence[str]  # names bound in the class body by assignment (fields of framework classes)
    reads_all: bool  # behaviour depends on every attribute: `self.__dict__` compared, serialised, returned, ...
    methods: Sequence[str]  # names bound in the class body by `def`
    registers: bool  # defines `__setattr__`, which may register the values assigned (as torch.nn.Module does)
    body_calls: dict[str, str]  # name bound in the class body to a call -> the callee's dotted name (`x = Typed()`)
    metaclass: str | None = None  # dotted name of `metaclass=M`, whose methods' `cls.x = v` set the class's `x`
    assigns_unnamed: bool = False  # `setattr(self, key, v)`, `self.__dict__.update(d)`: names its code never spells
    reads_public: bool = False  # behaviour depends on every public attribute: a walk of `self.__dict__` skipping `_x`
    # names given as strings to calls in the class body (`fields_desc = [ByteField("tfv", 0)]`): attributes a
    # `__setattr__` of the hierarchy may manage
    declared: tuple[str, ...] = ()
    # the methods of other classes it runs on its own objects, "SffIterator._check_eof" for
    # `SffIterator._check_eof(self, handle)`: what that class reads through its receiver is read on its objects
    # too, unless the method is a static one, which has no receiver
    runs_methods_of: Sequence[str] = ()
    static_methods: Sequence[str] = ()  # names bound in the class body by a `@staticmethod` `def`
    # (function's short name, position) of each call handing the receiver to a function: `sstruct.pack(fmt,
    # self)` is ("pack", 1), which reads the object's whole `__dict__` where `whole_parameters` says so
    lends_receiver: Sequence[tuple[str, int]] = ()
    # attributes whose objects its `__getattr__` hands the names it is asked for (`getattr(self._wrapped,
    # name)`): what is read on its objects and is not theirs is read on those
    forwards_to: Sequence[str] = ()
    # (attribute, import, method) where a method stores a value in the attribute and hands it to a call too:
    # ("_arrays", "", "SetData") for a method of the object's own (`self.SetData(arrays)`), ("_handle",
    # "._cffi.lib", "set_user_data") for `lib.set_user_data(handle)` after `from ._cffi import lib`: code the
    # package cannot see may hold on to the value, for as long as the attribute does
    hands_to: Sequence[tuple[str, str, str]] = ()
    # the parameters of its `__init__`: the names code reading back what an object was made with looks up
    # (`for name in inspect.signature(obj.__init__).parameters: getattr(obj, name)`)
    init_parameters: Sequence[str] = ()
    # names a bare annotation in the class body declares (`base_dist: Distribution`), for type checkers: a field
    # where a framework makes fields of annotations (a dataclass's), else assigned by nothing
    annotated: tuple[str, ...] = ()
    # parameters of its `__init__` holding names its code looks up on its objects (`self.fields = fields`, then
    # `for name in self.fields: getattr(self, name)`): what a subclass passes there names attributes it reads
    looked_up_parameters: tuple[str, ...] = ()
    # the lists of strings it passes its base's `__init__` (`super().__init__(fields=["url", "title"])`), by the
    # parameter's name, or by position ("0", "1", ...) where given in order
    base_init_lists: tuple[tuple[str, tuple[str, ...]], ...] = ()


class MadeClass(NamedTuple):
    """A call making a class where its callee is `type` or a metaclass: `Node = NodeMeta("Node", (_Node,), {})`."""
    callee: str  # dotted name
    bases: list[str]  # dotted names


@dataclass(frozen=True)
class Signals:
    """Cheap shapes the `ast` pre-pass sees (summary.py), for the checks' verdicts on a file's summary."""

    guarded_loop: bool = False  # an `if` testing `!=` on what its block assigns, appending in a loop (SS102)
    rebuild_method: bool = False  # a method appends to a list the class creates empty, resets it nowhere (SS102)
    rebuild_spans: tuple[tuple[int, int], ...] = ()  # first and last lines of what SS102 must see: the classes a
    # rebuild method may be in and the classes of the same names, whole; a guarded rebuild's `if`, and the
    # statements of the classes of its class's name that name the lists it appends to
    seeded: frozenset[str] = frozenset()  # keys K a class copies from a config into attribute K and reads again
    seeding_methods: tuple[tuple[int, int], ...] = ()  # first and last lines of those classes' methods that may
    # see the copy (SS103)


NO_SIGNALS = Signals()


def spanned_lines(spans: Iterable[tuple[int, int]]) -> set[int]:
    """The lines of (first, last) spans."""
    return {line for first, last in spans for line in range(first, last + 1)}


@dataclass(frozen=True)
class Collecting:
    """A check's own facts of a file, beyond the summary: its collector, loaded only when a file is parsed, and the
    frozen dataclass it returns, for the cache's codec. A collector is a function of Python's syntax tree and the
    source's lines (`summary.SourceLines`), which turn `ast`'s columns into libcst's and flake8's."""

    code: str
    collector: Callable[[], Any]  # a module-level function, so that worker processes can be sent it
    facts: type


@dataclass(frozen=True)
class FactsKind:
    """Which facts to make of a file: the `ast` summary alone, or in `full` with the checks' own facts, those the
    collectors of `collecting` make of the excerpt holding `lines` (none: of the whole file). A summary falls
    back to libcst's tree where `ast` cannot parse the file (newer syntax than this Python's); the checks' own
    facts are then empty."""

    full: bool
    collecting: tuple[Collecting, ...] = ()
    lines: tuple[int, ...] = ()
    documentation: bool = False  # a page of the project's documentation: the attributes it documents

    @cached_property  # asked for each file of a run
    def key(self) -> str:
        """Its part of the cache key."""
        if self.documentation:
            return "documentation"
        lines = ",".join(map(str, self.lines))
        return f"{'full' if self.full else 'summary'}:{self.codes}@{lines}"

    @cached_property
    def codes(self) -> str:
        """The codes of the collectors, in order."""
        return ",".join(sorted(c.code for c in self.collecting))

    @cached_property
    def facts_types(self) -> dict[str, type]:
        return {c.code: c.facts for c in self.collecting}

    def collectors(self) -> dict[str, Any]:
        """The collectors, by code."""
        return {c.code: c.collector() for c in self.collecting}


@dataclass
class FileFacts:
    path: str
    writes: list[Write] = field(default_factory=list)
    reads: set[str] = field(default_factory=set)  # names read on objects of unknown class: reach every class
    class_reads: dict[str, set[str]] = field(default_factory=dict)  # class -> names read on objects known to be
    # of that class (through self, cls, super(), or a name whose class is known), short class names
    attribute_reads: dict[str, dict[str, set[str]]] = field(default_factory=dict)  # class -> attribute A ->
    # names read on `self.A`: on the classes A is assigned objects of (index.py), else on any class
    fed: dict[str, set[str]] = field(default_factory=dict)  # class -> names whose reads through self only feed
    # the attribute itself (`self.n += 1`, `self.items.append(x)`): a read only if the object is held elsewhere
    patterns: dict[str, set[str]] = field(default_factory=dict)  # class ("" for any) -> glob patterns of
    # computed names read: `getattr(self, f"_{name}")` reads `_*`
    returns: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # class -> "m()" for a method, "p"
    # for a property -> the classes its return annotation names (empty: it names none)
    aliases: dict[str, set[str]] = field(default_factory=dict)  # class -> prefixes its `__getattribute__` or
    # `__getattr__` strips to look up the rest: `obj._sa_x` reads `x`
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    checks: dict[str, Any] = field(default_factory=dict)  # code -> the frozen dataclass its collector made
    signals: Signals = NO_SIGNALS
    documented: set[str] = field(default_factory=set)  # attributes given API docs where assigned (Sphinx `#:`)
    imports: dict[str, str] = field(default_factory=dict)  # name an import binds -> what it names
    star_imports: list[str] = field(default_factory=list)  # modules `from M import *` takes every name of
    # classes made by a call, by name: classes of the package where the callee is `type` or a metaclass of the
    # package's (index.py)
    made_classes: dict[str, MadeClass] = field(default_factory=dict)
    # `HtmlBase = HtmlCloth` at a module's top level: the name -> the dotted name it is bound to, another name of
    # a class where the index knows a class by that name
    name_aliases: dict[str, str] = field(default_factory=dict)
    # name an import binds -> what the import in an `except ImportError:` beneath it binds the name to instead
    # (`try: from http.server import HTTPServer` / `except ImportError: from BaseHTTPServer import HTTPServer`):
    # the one that runs where the first cannot
    import_fallbacks: dict[str, str] = field(default_factory=dict)
    # class -> name bound in its body to a literal of strings -> those strings (`_GUTS = (("name", eq), ...)`):
    # the names a base's loop over `self._GUTS` takes, in whichever module the base is
    body_lists: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    # function's short name -> positions of the parameters whose whole `__dict__` it reads (`def pack(fmt, obj):
    # ... obj.__dict__[name]`): every attribute of the objects its callers pass there
    whole_parameters: dict[str, list[int]] = field(default_factory=dict)
    # descriptor class -> patterns of the names it reads on the objects of the classes that bind it, BOUND_NAME
    # standing for the name it is bound to (`"_" + BOUND_NAME`)
    bound_patterns: dict[str, set[str]] = field(default_factory=dict)
    # function's short name -> the short names of the callees whose results it returns (`return Field(...)`)
    returned_calls: dict[str, set[str]] = field(default_factory=dict)
    # functions decorated with `@dataclass_transform()` (PEP 681): class decorators making dataclass-like classes,
    # whose fields the decorator's code reads (flet's `@value`, `@control`)
    dataclass_makers: list[str] = field(default_factory=list)
    error: str | None = None
    digest: str = ""  # content key of the source these facts were collected from; not stored

    def to_data(self) -> dict[str, Any]:
        return {
            "writes": [list(w) for w in self.writes],
            "reads": sorted(self.reads),
            "class_reads": {k: sorted(v) for k, v in self.class_reads.items()},
            "attribute_reads": {k: {a: sorted(n) for a, n in v.items()} for k, v in self.attribute_reads.items()},
            "fed": {k: sorted(v) for k, v in self.fed.items()},
            "patterns": {k: sorted(v) for k, v in self.patterns.items()},
            "returns": self.returns,
            "aliases": {k: sorted(v) for k, v in self.aliases.items()},
            "classes": {k: list(v) for k, v in self.classes.items()},
            "checks": self.checks_to_data(self.checks),
            "signals": encode(self.signals),
            "documented": sorted(self.documented),
            "imports": self.imports,
            "star_imports": self.star_imports,
            "made_classes": {k: list(v) for k, v in self.made_classes.items()},
            "name_aliases": self.name_aliases,
            "import_fallbacks": self.import_fallbacks,
            "body_lists": self.body_lists,
            "whole_parameters": self.whole_parameters,
            "bound_patterns": {k: sorted(v) for k, v in self.bound_patterns.items()},
            "returned_calls": {k: sorted(v) for k, v in self.returned_calls.items()},
            "dataclass_makers": self.dataclass_makers,
            "error": self.error,
        }

    @staticmethod
    def checks_to_data(checks: Mapping[str, Any]) -> dict[str, Any]:
        return {code: encode(value) for code, value in checks.items()}

    @staticmethod
    def checks_from_data(data: Mapping[str, Any], facts_types: Mapping[str, type]) -> dict[str, Any]:
        return {code: decode(facts_types[code], value) for code, value in data.items()}

    @classmethod
    def from_data(cls, path: str, data: dict[str, Any], facts_types: Mapping[str, type]) -> FileFacts:
        """`facts_types`: the type of each check's own facts, by code. The names are interned: the same few
        thousand of them recur in every file's facts, which a package's index holds all at once."""
        return cls(
            path=path,
            # a write's names: its attribute, class, method, owner and constructor
            writes=[Write(intern(w[0]), w[1], w[2], w[3] and intern(w[3]), w[4] and intern(w[4]), intern(w[5]), w[6],
                          w[7] and intern(w[7]), *w[8:]) for w in data["writes"]],
            reads=set(map(intern, data["reads"])),
            class_reads={intern(k): set(map(intern, v)) for k, v in data["class_reads"].items()},
            attribute_reads={intern(k): {intern(a): set(map(intern, n)) for a, n in v.items()}
                             for k, v in data["attribute_reads"].items()},
            fed={k: set(map(intern, v)) for k, v in data["fed"].items()},
            patterns={k: set(v) for k, v in data["patterns"].items()},
            returns={intern(k): {intern(m): list(map(intern, names)) for m, names in v.items()}
                     for k, v in data["returns"].items()},
            aliases={k: set(v) for k, v in data["aliases"].items()},
            classes={intern(k): kept_class(v) for k, v in data["classes"].items()},
            checks=cls.checks_from_data(data["checks"], facts_types),
            signals=decode(Signals, data["signals"]) if data["signals"] else NO_SIGNALS,
            documented=set(data["documented"]),
            imports={intern(k): intern(v) for k, v in data["imports"].items()},
            star_imports=data["star_imports"],
            made_classes={k: MadeClass._make(v) for k, v in data["made_classes"].items()},
            name_aliases=data["name_aliases"],
            import_fallbacks=data["import_fallbacks"],
            body_lists=data["body_lists"],
            whole_parameters=data["whole_parameters"],
            bound_patterns={k: set(v) for k, v in data["bound_patterns"].items()},
            returned_calls={intern(k): set(map(intern, v)) for k, v in data["returned_calls"].items()},
            dataclass_makers=data["dataclass_makers"],
            error=data["error"],
        )


def kept_class(fields: Iterable[Any]) -> ClassInfo:
    """A class's facts as they are kept once its module is read, made there or decoded: each list a tuple (the
    empty ones all one), each name interned. A package's index holds every class's facts at once, most of
    their lists empty and most of their names the same few thousand."""
    return ClassInfo._make(map(_kept, fields))


def _kept(value: Any) -> Any:
    kind = type(value)
    if kind is str:
        return intern(value)
    if kind is list or kind is tuple:
        if not value:
            return ()
        if type(value[0]) is str and type(value[-1]) is str:  # names (a record's other fields are not all names)
            return tuple(map(intern, value))
        return tuple(map(_kept, value))
    if kind is dict:
        return {intern(key): _kept(item) for key, item in value.items()}
    return value


def placeless(facts: FileFacts) -> FileFacts:
    """The facts but for where things stand: what an edit that only moves code leaves as it was (lines added
    above, spacing, comments, a literal's value). The writes keep their order, and which of them share a list of
    statements; the checks' own facts, made of the lines, go."""
    blocks: dict[int, int] = {}  # a list of statements by its position -> by its order of appearance
    writes = [write._replace(line=0, col=0, block=write.block and blocks.setdefault(write.block, len(blocks) + 1))
              for write in facts.writes]
    return replace(facts, writes=writes, checks={}, signals=NO_SIGNALS, digest="")


def structure(facts: FileFacts) -> FileFacts:
    """What the file defines and imports, without what its code reads and writes: what an edit inside a
    function's body leaves as it was, unless it adds or drops a shape its class's facts keep (a `__dict__`
    walk, a call handing `self` on)."""
    return replace(facts, writes=[], reads=set(), class_reads={}, attribute_reads={}, fed={}, patterns={}, checks={},
                   signals=NO_SIGNALS, digest="", bound_patterns={}, returned_calls={})


PROPERTIES = {"property", "cached_property"}
# what an `if` tests to run code on some versions of Python only (`if sys.version_info < (3, 11):`)
PYTHON_VERSION_NAMES = {"sys.version_info", "sys.version", "sys.hexversion", "version_info"}
IMPORT_ERRORS = {"ImportError", "ModuleNotFoundError"}
# a placeholder pattern: the names a loop over `self.NAME` takes, known once the class bodies binding NAME are
# seen (those of the module, then, in the index, those of the class's relatives); its "." begins no name
LISTED_MARK = "\0.listed\0"
# a placeholder pattern: the name of the class of the receiver, `getattr(obj, self.__class__.__name__)` in class C
# (C's, or a subclass's: its descendants are known to the index); "." begins no name
CLASS_NAME_MARK = "\0.classname\0"
# in a computed name, the name a descriptor is bound to in a class body (`getattr(obj, "_" + self.name)` after
# `self.name = name` in `__set_name__`): the index spells it for each class that binds the descriptor
BOUND_NAME = "\0.bound\0"
# read on an object whose whole `__dict__` is walked (`self.aio.__dict__.values()`): every attribute of its class
WHOLE_MARK = "\0whole"
# read on an object whose class's `__init__` parameters are looked up by name: those of its class (index.py)
INIT_PARAMETERS_MARK = "\0.init\0*"
# builtins whose instances in a class body take over `self.x = v` (a `property` without a setter raises)
BUILTIN_DATA_DESCRIPTORS = {"property", "builtins.property"}
# decorators whose result the class's other facts already tell (a property's setter, a static method)
PLAIN_WRAPPERS = {"property", "staticmethod", "classmethod", "abstractmethod", "abc.abstractmethod"}
# an interface's attribute, declared for users with its documentation: `monitor = Attribute("The monitor.")`
INTERFACE_ATTRIBUTES = {"zope.interface.Attribute", "zope.interface.interface.Attribute"}
STRING_READERS = {"getattr", "hasattr", "delattr", "object.__getattribute__"}
# "{0.name}", "{self.name!r:>10}": attribute references inside str.format fields
FORMAT_FIELD = re.compile(r"\{([^{}!:]*)")
FIELD_ATTRIBUTE = re.compile(r"\.([A-Za-z_]\w*)")
INTROSPECTORS = {"vars", "asdict", "dataclasses.asdict", "attr.asdict", "attrs.asdict"}
# methods that answer the names normal lookup did not find: what they look up is no attribute they read
LOOKUP_METHODS = {"__getattr__", "__getattribute__"}
LISTED_NAMES = ("__slots__", "__match_args__")
# "_Session__token": a private name spelt as Python stores it, which only code naming that attribute writes
MANGLED_NAME = re.compile(r"_[A-Za-z0-9]\w*?__\w*[A-Za-z0-9]_?")
# a computed name read on an object of unknown class needs this much constant text to say which names it reads
UNTYPED_PATTERN_TEXT = 3


def is_constructor(callee: str | None) -> bool:
    """`nn.Linear`, `Parameter`: a call of a capitalised name builds an object (a submodule, say)."""
    return bool(callee) and callee.rsplit(".", 1)[-1][:1].isupper()


def constructor_of(callee: str | None) -> str | None:
    """The class a call of `callee` makes, by its short name, if the callee is a capitalised name."""
    return callee.rsplit(".", 1)[-1] if callee and is_constructor(callee) else None


def qualified_name(name: str, imports: dict[str, str], package: str = "",
                   fallback: Callable[[str], str | None] = lambda head: None) -> str | None:
    """`random.Random` -> "random.Random" in a file that imports `random`; None for a name not imported.

    `package` is the package of the importing module, for relative imports (followed within libraries
    only: in the package being checked they name its own modules). `fallback`: what the name's head is bound
    to instead where its import fails (`ModuleFinder.fallback_of`)."""
    head, _, rest = name.partition(".")
    target = fallback(head) or imports.get(head)
    if target is None:
        return None
    if target.startswith("."):
        if not package:
            return None
        level = len(target) - len(target.lstrip("."))
        parts = package.split(".")
        if level > len(parts):
            return None
        target = ".".join([*parts[: len(parts) - level + 1], *filter(None, [target[level:]])])
    return f"{target}.{rest}" if rest else target


def is_with_metaclass(callee: str | None) -> bool:
    """`with_metaclass(Meta, Base)` (six, future, or a copy of theirs): a base made to give `Base` a metaclass
    on Python 2 and 3 alike; the class derives from `Base`."""
    return bool(callee) and callee.rpartition(".")[2] == "with_metaclass"


# the index's key of a class defined in several modules of a package under one name: the name, this, and the
# module's path (`BatchNorm@flax/nnx/nn/normalization`); no dot, as the index takes a dotted name's last part
CLASS_KEY_SEPARATOR = "@"


def class_name(cls: str) -> str:
    """A class's name as its `class` statement spells it, from its key in the index."""
    return cls.partition(CLASS_KEY_SEPARATOR)[0]


def mangled(name: str, cls: str | None) -> str:
    """`__token` as Python stores it when written or read inside class `_Mangled`: `_Mangled__token`."""
    if cls and name.startswith("__") and not name.endswith("__"):
        spelt = class_name(cls).lstrip("_")
        if spelt:
            return f"_{spelt}{name}"
    return name


def unmangled(name: str) -> str:
    """`_Session__token` -> `__token`: a private name as its class spells it; any other name as it is."""
    return name[name.index("__", 2):] if name[:1] == "_" and MANGLED_NAME.fullmatch(name) else name


class FactsBuilder:
    """The rules that turn what a traversal meets into facts, whichever library parsed the file.

    The `ast` summary (summary.py) makes the index's facts; the libcst collector (cst_facts.py) reports to the
    same builder, its reads all of unknown class, for a file only libcst can parse.
    """

    def __init__(self, scope: Scope) -> None:
        self.scope = scope
        self.facts = FileFacts(path="")
        self.class_stack: list[str] = []
        self.import_fallback_depth = 0  # inside `except ImportError:` handlers
        self.entries: dict[int, set[Any]] = {}  # id() of a list `append_new` extends -> its entries, to look up

    def finished(self) -> FileFacts:
        """The facts, once the module is read: each class's as `kept_class` keeps them."""
        self.facts.classes = {name: kept_class(info) for name, info in self.facts.classes.items()}
        return self.facts

    def store(self, name: str, line: int, col: int, owner: str | None, constructor: str | None,
              shared: bool, function: bool = False, block: int = 0, given: Collection[str] = (),
              empty: bool = False, versioned: bool = False) -> None:
        """`owner.name = value`: `constructor`, the class a call of a capitalised name makes; `shared`, the value
        may be an object held elsewhere too; `function`, it is a lambda or an attribute of the receiver; `block`,
        the statement list it stands in; `given`, the names the call making the value is given; `empty`, the
        value is `None`; `versioned`, it stands under a test of Python's version."""
        receiver = self.scope.receiver
        on_receiver = receiver is not None and owner == receiver
        self.facts.writes.append(
            Write(name, line, col, self.scope.owner_class, self.scope.method, owner or "", on_receiver, constructor,
                  shared, function, block, on_receiver and constructor is not None and receiver in given, empty,
                  versioned)
        )

    def read(self, name: str, on: str | None, as_written: bool = True) -> None:
        """A read of attribute `name` of an object of class `on` (None: of any class). Names as written in the
        source are mangled as Python does; those given as strings (`getattr`) are not."""
        if as_written:
            name = mangled(name, self.scope.owner_class)
        if on is None:
            self.facts.reads.add(name)
        else:
            self.facts.class_reads.setdefault(on, set()).add(name)

    def read_on_attribute(self, name: str, attribute: str, as_written: bool = True) -> None:
        """A read of `name` on `self.attribute`: of the classes the attribute is assigned objects of."""
        cls = self.scope.owner_class
        if cls is None:
            return self.read(name, None, as_written)
        names = self.facts.attribute_reads.setdefault(cls, {}).setdefault(mangled(attribute, cls), set())
        names.add(mangled(name, cls) if as_written else name)

    def feed(self, name: str) -> None:
        """A read of `self.name` whose value only goes back into the attribute itself."""
        cls = self.scope.owner_class
        if cls:
            self.facts.fed.setdefault(cls, set()).add(mangled(name, cls))

    def read_pattern(self, pattern: str, on: str | None) -> None:
        """A computed name, as a glob pattern of its constant parts: `_*_ema`."""
        if BOUND_NAME in pattern:  # on the objects of the classes binding the descriptor, not on itself
            if self.scope.owner_class and on != self.scope.owner_class:
                self.facts.bound_patterns.setdefault(self.scope.owner_class, set()).add(pattern)
        elif "*" not in pattern:
            self.read(pattern, on, as_written=False)
        elif on is not None or len(pattern.replace("*", "")) >= UNTYPED_PATTERN_TEXT:
            self.facts.patterns.setdefault(on or "", set()).add(pattern)

    def makes_dataclasses(self, function: str) -> None:
        self.append_new(self.facts.dataclass_makers, function)

    def returns_call(self, function: str, callee: str) -> None:
        self.facts.returned_calls.setdefault(function, set()).add(callee.rsplit(".", 1)[-1])

    def returns(self, method: str, decorators: list[str], classes: set[str] | None) -> None:
        """A method of the class returning objects of `classes` (None: of any class); a property's value."""
        cls = self.scope.owner_class
        if cls:
            key = mangled(method if {d.rsplit(".", 1)[-1] for d in decorators} & PROPERTIES else f"{method}()", cls)
            known = self.facts.returns.setdefault(cls, {})
            known[key] = sorted(classes or ()) if key not in known or known[key] else []

    def alias(self, prefix: str) -> None:
        """The class's attribute lookup hook reads `X` for `PREFIX + X`."""
        cls = self.scope.owner_class
        if cls and prefix:
            self.facts.aliases.setdefault(cls, set()).add(prefix)

    def call(self, callee: str | None, names: list[list[str] | None], on: str | None) -> None:
        """A call, with the names each positional argument can spell (constant strings, or glob patterns of
        computed ones; None where unknown) and the class of the first argument (None: unknown)."""
        callee = callee or ""
        if callee in STRING_READERS and len(names) >= 2 and names[1]:
            for pattern in names[1]:
                self.read_pattern(pattern, on)
        elif callee.rsplit(".", 1)[-1] == "attrgetter":
            for patterns in names:
                for pattern in patterns or ():
                    if "*" not in pattern:
                        self.facts.reads.update(pattern.split("."))

    def reads_all(self, public: bool = False) -> None:
        """The class's behaviour depends on every attribute (it compares, hashes, serialises or returns them), or
        on every public one (`public`: the use skips the names that begin with `_`)."""
        info = self._owner_info()
        if info is not None and not info.reads_all and not (public and info.reads_public):
            flag = "reads_public" if public else "reads_all"
            self.facts.classes[self.scope.owner_class] = info._replace(**{flag: True})

    def assigns_unnamed(self) -> None:
        """The class assigns attributes by names its code does not spell: which it has cannot be read off it."""
        info = self._owner_info()
        if info is not None and not info.assigns_unnamed:
            self.facts.classes[self.scope.owner_class] = info._replace(assigns_unnamed=True)

    def runs_methods_of(self, other: str, method: str) -> None:
        """The receiver is passed to a method of the class `other`, called on the class: `Other.method(self)`."""
        info = self._owner_info()
        if info is not None and other != self.scope.owner_class:
            self.append_new(info.runs_methods_of, f"{other}.{method}")

    def lends_receiver(self, function: str, position: int) -> None:
        """The receiver is passed to a function at `position`: `sstruct.pack(fmt, self)`."""
        info = self._owner_info()
        if info is not None:
            self.append_new(info.lends_receiver, (function, position))

    def forwards_lookups(self, attribute: str) -> None:
        """The class's `__getattr__` looks the names it is asked for up on `self.attribute`."""
        info = self._owner_info()
        if info is not None:
            self.append_new(info.forwards_to, attribute)

    def hands(self, attribute: str, imported: str, method: str) -> None:
        """A method stores a value in `attribute` and passes it to a call too (`ClassInfo.hands_to`)."""
        info = self._owner_info()
        if info is not None:
            self.append_new(info.hands_to, (mangled(attribute, self.scope.owner_class), imported, method))

    def whole_parameter(self, function: str, position: int) -> None:
        """The function reads every attribute of what its callers pass at `position`."""
        self.append_new(self.facts.whole_parameters.setdefault(function, []), position)

    def append_new(self, into: list[Any], item: Any) -> None:
        """Append `item` to a list of the facts unless it holds it already, looked up in a set kept beside the
        list: a module giving one list many entries costs no more than as many appends."""
        seen = self.entries.get(id(into))  # the list lives in the facts as long as the builder does
        if seen is None:
            seen = self.entries[id(into)] = set(into)
        if item not in seen:
            seen.add(item)
            into.append(item)

    def documented(self, name: str, sphinx: bool = False) -> None:
        """An attribute documented as API where it is assigned (Sphinx `#:` comments, a string after the
        assignment) or in its class's docstring (`Attributes:` sections, `:ivar name:`). A private name only by
        Sphinx markup naming it for readers (`sphinx`: `.. attribute:: _pyroLocalSocket`, `:ivar _x:`, an
        `:attr:` role): Sphinx leaves out the others' private members, written for whoever maintains the class."""
        if sphinx or not name.startswith("_"):
            self.facts.documented.add(name)

    def documented_store(self, name: str, owner: str | None) -> None:
        """`owner.name = ...` with Sphinx attribute documentation: a `#:` comment on the line above (at the
        statement's indentation) or at the end of its line, or a string statement right after it."""
        if owner is not None and owner == self.scope.receiver:
            self.documented(name)

    def import_module(self, module: str, alias: str | None) -> None:
        """`import a.b` binds `a`; `import a.b as c` binds `c` to `a.b`."""
        if alias:
            self._bind_import(alias, module)
        else:
            head = module.split(".")[0]
            self._bind_import(head, head)

    def _bind_import(self, name: str, target: str) -> None:
        """Under `except ImportError:`, a name an import bound already keeps that binding, this one its fallback."""
        if self.import_fallback_depth and name in self.facts.imports:
            self.facts.import_fallbacks.setdefault(name, target)
        else:
            self.facts.imports[name] = target

    def import_from(self, level: int, module: str | None, name: str, alias: str | None) -> None:
        """`from a import b as c` binds `c` to `a.b`; relative imports keep their dots: `.m.b`."""
        source = "." * level + (module or "")
        if name == "*":
            self.facts.star_imports.append(source)
        else:
            self._bind_import(alias or name, f"{source}.{name}" if module else source + name)

    def string(self, value: str) -> None:
        if value[:1] == "_" and MANGLED_NAME.fullmatch(value):
            self.facts.reads.add(value)  # `getattr(obj, "_Session__token")`, `run_on(executor="_Pool__executor")`
        if "{" in value and "." in value:
            for fmt_field in FORMAT_FIELD.findall(value):
                self.facts.reads.update(FIELD_ATTRIBUTE.findall(fmt_field))

    def looks_up_parameters(self, names: list[str]) -> None:
        """The class being left looks up on its objects the names these `__init__` parameters hold."""
        if names:
            self.facts.classes[self.class_stack[-1]] = self._current_class()._replace(looked_up_parameters=tuple(names))

    def passes_base_lists(self, lists: dict[str, list[str]]) -> None:
        """A method of the class calls its base's `__init__` with these lists of strings (`ClassInfo`)."""
        info = self._owner_info()
        if info is not None:
            passed = (*info.base_init_lists, *((key, tuple(strings)) for key, strings in lists.items()))
            self.facts.classes[self.scope.owner_class] = info._replace(base_init_lists=passed)

    def init_parameters(self, names: list[str]) -> None:
        """The class's `__init__` takes these parameters."""
        info = self._owner_info()
        if info is not None:
            info.init_parameters.extend(names)  # a list while the module is read

    def enter_class(self, name: str, bases: list[str | None], decorators: list[str],
                    metaclass: str | None = None) -> None:
        listed = [b for b in bases if b]
        known = self.facts.classes.get(name)
        if known is None:
            self.facts.classes[name] = ClassInfo(listed, decorators, [], False, [], False, {}, metaclass,
                                                 runs_methods_of=[], static_methods=[], lends_receiver=[],
                                                 forwards_to=[], hands_to=[], init_parameters=[])
        else:  # defined again in the module (an old name kept, deriving from the class that took its place):
            # one class of that name, as across modules, with the bases of both; extended in place, so that a
            # module defining one name many times costs no more than as many names
            for base in listed:
                self.append_new(known.bases, base)
            known.decorators.extend(decorators)
            if metaclass and not known.metaclass:
                self.facts.classes[name] = known._replace(metaclass=metaclass)
        self.class_stack.append(name)

    def made_class(self, callee: str | None, name: str | None, bases: list[str | None]) -> None:
        """A call that makes a class if its callee is `type` or a metaclass, `type("Parser", (Loose, Mixin), {})`:
        the callee, a string and a tuple of bases, and a third argument. One `type` makes under a computed name
        (`type("Test_" + name, (Mixin, unittest.TestCase), {})`) relates its bases as a `class` statement would:
        it is known by them (`<type Mixin TestCase>`, a name no `class` statement can take), which is all that
        tells such classes apart."""
        listed = [b for b in bases if b]
        if callee == "type" and name is None and listed:
            name = f"<type {' '.join(b.rpartition('.')[2] for b in listed)}>"
        if callee and name and name not in self.facts.made_classes:
            self.facts.made_classes[name] = MadeClass(callee, listed)

    def leave_class(self) -> None:
        self.class_stack.pop()

    def method(self, name: str, decorators: list[str], wrapper: str | None = None) -> None:
        """A function defined directly in a class body (called once the scope has entered it); `wrapper`: its
        outermost decorator, where that is no call, which binds the name to what it returns (`@setter def
        generation_time` binds `generation_time = setter(generation_time)`, a data descriptor where `setter`'s
        class defines `__set__`)."""
        cls = self._current_class()
        if wrapper and wrapper not in PLAIN_WRAPPERS and not wrapper.endswith((".setter", ".getter", ".deleter")):
            cls.body_calls[name] = wrapper
        if name == "__setattr__" and not cls.registers:
            self.facts.classes[self.class_stack[-1]] = cls = cls._replace(registers=True)
        if "staticmethod" in decorators:
            cls.static_methods.append(name)
        for decorator in decorators:
            # `@x.setter` turns `self.x = v` into a call of the setter, in subclasses too: those outside the
            # package see it as what the class reads through self (library_bases.py). The property is bound to
            # the function's name, which is `x` but for a slip (`@size.setter def cellSize`)
            if decorator.endswith((".setter", ".deleter")):
                self._property_set({decorator.split(".")[0], name})
        cls.methods.append(name)

    def _property_set(self, names: Collection[str]) -> None:
        for prop in names:
            self.facts.reads.add(prop)
            self.facts.class_reads.setdefault(self.class_stack[-1], set()).add(prop)

    def module_binding(self, targets: list[str], value: str | None) -> None:
        """`HtmlBase = HtmlCloth`: at a module's top level, a name bound to what another name names."""
        if value and self.scope.current is None:
            for target in targets:
                if target != value:
                    self.facts.name_aliases.setdefault(target, value)

    def class_binding(self, targets: list[str], listed: list[str], callee: str | None = None,
                      declared: Collection[str] = (), annotated: bool = False) -> None:
        """Names bound in a class body; `listed`: the strings of the value, for `__slots__` and `__match_args__`;
        `callee`: the dotted name called where the value is a call; `declared`: the names the value's calls are
        given as strings; `annotated`: a bare annotation, with no value."""
        if not self.class_stack or not self.scope.in_class_body:
            return
        cls = self._current_class()
        cls.body_names.extend(targets)
        if listed:
            self.facts.body_lists.setdefault(self.class_stack[-1], {}).update(dict.fromkeys(targets, listed))
        if declared or annotated:  # tuples, replaced whole
            self.facts.classes[self.class_stack[-1]] = cls._replace(
                declared=(*cls.declared, *declared), annotated=(*cls.annotated, *(targets if annotated else ())))
        if callee:
            cls.body_calls.update(dict.fromkeys(targets, callee))
            if qualified_name(callee, self.facts.imports) in INTERFACE_ATTRIBUTES:  # `name = Attribute("doc")`
                for target in targets:
                    self.documented(target)
        if callee in BUILTIN_DATA_DESCRIPTORS:  # `x = property(get, set)`: as `@x.setter`
            self._property_set(targets)
        if any(target in LISTED_NAMES for target in targets):
            self.facts.reads.update(listed)

    def _owner_info(self) -> ClassInfo | None:
        """The facts of the class whose method or body is being read; None outside any class."""
        cls = self.scope.owner_class
        return self.facts.classes.get(cls) if cls else None

    def _current_class(self) -> ClassInfo:
        return self.facts.classes[self.class_stack[-1]]


def python_syntax_error(error: SyntaxError) -> str:
    # a NUL byte is rejected before any line is read: Python gives no line number
    where = f" at line {error.lineno}" if error.lineno else ""
    return f"syntax error{where}: {error.msg}"
