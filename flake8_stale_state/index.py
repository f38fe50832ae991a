"""The package index: the facts of every file of a package, and what they add up to."""

from __future__ import annotations

import ast
import builtins
import dataclasses
import functools
import gc
import json
import os
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence, Set as AbstractSet
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from flake8_stale_state.cache import FactsCache, entry_key, source_digest
from flake8_stale_state.excerpt import excerpt
from flake8_stale_state.facts import (
    BOUND_NAME, CLASS_NAME_MARK, LISTED_MARK, LOOKUP_METHODS, PROPERTIES, WHOLE_MARK, ClassInfo, FactsKind, FileFacts,
    Write, mangled, placeless, structure,
)
from flake8_stale_state.homonyms import References, homonym_keys, merged
from flake8_stale_state.package import real_path
from flake8_stale_state.library_bases import LibraryClasses, outside_name, qualified_bases

# Class decorators and bases whose class-body names a framework reads (repr, eq, validation, ORM).
FRAMEWORK_DECORATORS = {"dataclass", "s", "attrs", "define", "frozen", "mutable", "dataclass_transform"}
FRAMEWORK_BASES = {
    "NamedTuple", "TypedDict", "BaseModel", "BaseSettings", "SQLModel", "Struct", "Model",
    "DeclarativeBase", "Enum", "IntEnum", "StrEnum", "Flag", "IntFlag",
}
# ctypes structures: every attribute written is the memory of a C struct, which foreign code reads.
STRUCTURE_BASES = {"Structure", "Union", "BigEndianStructure", "LittleEndianStructure"}
# torch.nn.Module registers submodules and parameters assigned to it and reads them back.
MODULE_BASES = {"Module", "ModuleList", "ModuleDict", "Sequential", "ParameterList", "ParameterDict"}
# Exception bases from outside the package: Python's own, and any named as PEP 8 asks (`...Error`).
BUILTIN_EXCEPTIONS = {name for name, value in vars(builtins).items()
                      if isinstance(value, type) and issubclass(value, BaseException)}
EXCEPTION_SUFFIXES = ("Error", "Exception", "Warning")

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

T = TypeVar("T")

# bases that give their subclasses no instance attributes
NEUTRAL_BASES = {"object", "ABC", "Generic", "Protocol", "type"}
NAMES_NO_CLASS: frozenset[str] = frozenset()  # a return annotation naming no class: one for the thousands of them
BESIDE_LINES = 5  # writes this many lines apart in one list of statements stand side by side

PARALLEL_THRESHOLD = 32  # below this, starting processes costs more than it saves
# A file changed again within this long of being read can keep its size and times (timestamps are coarse):
# its status is not recorded, so the next run reads it and compares contents, as git does with "racy" files.
RACY_NANOSECONDS = 2_000_000_000


def short(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def is_exception_name(name: str) -> bool:
    return name in BUILTIN_EXCEPTIONS or name.endswith(EXCEPTION_SUFFIXES)


def per_argument(method: Callable) -> Callable:
    """A method of one argument whose results are kept on the instance, by argument: an index does not change
    once built (a changed file makes a new one), and is asked the same question for each write of a class."""
    name = method.__name__

    @functools.wraps(method)
    def remembered(self, argument):
        return self.kept(name, argument, lambda: method(self, argument))

    return remembered


# what the index works out from what its files define and import alone (`facts.structure`), by attribute name:
# an edit that leaves that as it was (most edits inside a function) leaves these as they were
STRUCTURAL: set[str] = set()


def of_structure(member: Any) -> Any:
    """Marks a table (a cached property, or a `per_argument` lookup) as made of the files' structure alone."""
    name = member.func.__name__ if isinstance(member, cached_property) else f"_{member.__name__}_by_argument"
    STRUCTURAL.add(name)
    return member


def inherited_along(own: dict[str, set[str]], bases: dict[str, set[str]],
                    children: Mapping[str, set[str]]) -> dict[str, set[str]]:
    """Each class's own set joined with those of its bases, transitively (bases by short name): each class that
    has a set of its own hands it down to all its descendants (`children`: `bases` the other way round). A class
    whose set is empty has no entry: most classes of a package have none, and thousands of empty sets weigh."""
    result: dict[str, set[str]] = {}
    for cls, values in own.items():
        if values:
            for descendant in closure(cls, children):
                result.setdefault(descendant, set()).update(values)
    return result


def is_private_module(path: str) -> bool:
    """A module users are not meant to import: one of its folders or itself named with a leading underscore
    (`textblob/_text.py`), `__init__.py` and `__main__.py` aside."""
    return any(part.startswith("_") and not part.startswith("__") for part in Path(path).with_suffix("").parts)


def closure(start: str, step: Mapping[str, Collection[str]]) -> set[str]:
    """`start` and every name reached from it by `step`."""
    found, pending = {start}, [start]
    while pending:
        for following in step.get(pending.pop(), ()):
            if following not in found:
                found.add(following)
                pending.append(following)
    return found


PLACEHOLDERS = (LISTED_MARK, CLASS_NAME_MARK)  # patterns that stand for names `_reads` works out, never matched
JOINED_PARTS = 16  # beyond this many sets, a union answers faster made than asked of each


class Joined(AbstractSet[str]):
    """The union of a few sets, read through rather than made: whether it holds a name is asked of each set.
    Iterating it, or a set operation, makes the union."""

    __slots__ = ("parts",)

    def __init__(self, parts: list[AbstractSet[str]]) -> None:
        self.parts = parts

    def __contains__(self, name: object) -> bool:
        return any(name in part for part in self.parts)

    def __iter__(self) -> Iterator[str]:
        return iter(frozenset().union(*self.parts))

    def __len__(self) -> int:
        return len(frozenset().union(*self.parts))

    @classmethod
    def _from_iterable(cls, iterable: Iterable[str]) -> frozenset[str]:
        return frozenset(iterable)


@dataclass
class PackageIndex:
    name: str
    root: Path
    files: dict[str, FileFacts] = field(default_factory=dict)  # resolved path -> facts
    framework_bases: tuple[str, ...] = ()  # configured bases and decorators whose attribute writes count as read
    libraries: LibraryClasses = field(default_factory=LibraryClasses)  # what the bases outside the package read
    documentation: frozenset[str] = frozenset()  # attributes the project's documentation describes
    # class -> the attributes the code the documentation shows reads on objects it makes of that class
    read_by_users: Mapping[str, AbstractSet[str]] = field(default_factory=dict)

    def with_file(self, facts: FileFacts) -> PackageIndex:
        """The same package with one file's facts replaced (an unsaved buffer, stdin). What the index worked out
        and the change leaves true is kept: where the file's facts are those the index holds but for where
        things stand (lines added above, a comment, spacing), all that was worked out from names; where the
        file defines and imports what it did (an edit inside a function), all that was worked out from that."""
        index = replace(self, files={**self.files, facts.path: facts})
        known = self.files.get(facts.path)
        if known is not None and placeless(known) == placeless(facts):
            kept = [name for name in self.__dict__ if name not in FIELDS and name not in PLACED]
        elif known is not None and structure(known) == structure(facts):
            kept = [name for name in self.__dict__ if name in STRUCTURAL]
        else:
            kept = []
        index.__dict__.update((name, self.__dict__[name]) for name in kept)
        if kept:
            for name in PER_FILE:  # the other files' own
                if name in self.__dict__:
                    index.__dict__[name] = {path: value for path, value in self.__dict__[name].items()
                                            if path != facts.path}
        if "keyed_files" in self.__dict__ and index._homonyms == self._homonyms:
            # the other files' classes keep their keys (they depend on which modules define which names): only
            # this file's facts are keyed anew, where a package copying classes between modules keys hundreds
            index.__dict__["keyed_files"] = {**self.keyed_files, facts.path: index.keyed(facts.path)}
        return index

    def kept(self, name: str, argument: str, compute: Callable[[], T]) -> T:
        """What `compute` derives from the index for one argument (a class), made once and kept with the index,
        as a changed file makes a new one: for the index's own lookups (`per_argument`) and a rule's."""
        results = self.__dict__.setdefault(f"_{name}_by_argument", {})
        if argument not in results:
            results[argument] = compute()
        return results[argument]

    def without_file(self, path: str) -> PackageIndex:
        """The same package without one file (deleted)."""
        return replace(self, files={k: v for k, v in self.files.items() if k != path})

    @cached_property
    def keyed_files(self) -> dict[str, FileFacts]:
        """The facts of every file with each class named by its key: its name, but for a class whose name
        another module's class has too (`homonyms.py`). The tables below are made of these."""
        if not self._homonyms:
            return self.files
        return {path: self.keyed(path) for path in self.files}

    def keyed(self, path: str) -> FileFacts:
        """One file's facts with each class named by its key."""
        references = self.references(path)
        return references.keyed_facts() if references.touches() else self.files[path]

    @of_structure
    @cached_property
    def _homonyms(self) -> dict[str, dict[str, str]]:
        return homonym_keys(self.files, str(self.root.parent))

    @of_structure
    @cached_property
    def _module_paths(self) -> dict[str, str]:
        return {module: facts.path for module, (facts, _) in self.libraries.finder.modules.items()}

    def own_key(self, path: str, cls: str) -> str:
        """The key of a class the file defines."""
        keys = self._homonyms.get(cls)
        return keys.get(path, cls) if keys else cls

    @per_argument
    def references(self, path: str) -> References:
        """What the names a file of the package uses refer to, by the keys of the tables."""
        return References(self.files[path], self._homonyms, self.libraries.finder, self._module_paths)

    def keyed_write(self, path: str, write: Write) -> Write:
        """A write of a file of the package with its class named by its key, for the tables."""
        if not self._homonyms or path not in self.files:
            return write
        return self.references(path).keyed_write(write)

    @of_structure
    @cached_property
    def declared_bases(self) -> dict[str, set[str]]:
        """Class name -> the short names of the bases its `class` statement lists."""
        bases: dict[str, set[str]] = {}
        for facts in self.keyed_files.values():
            for cls, info in facts.classes.items():
                bases.setdefault(cls, set()).update(short(b) for b in info.bases)
        return bases

    @of_structure
    @cached_property
    def class_bases(self) -> dict[str, set[str]]:
        """Class name -> the short names of its bases, and of its metaclass where that is the package's own: what
        the metaclass sets on the class (`cls._latest = obj` in its `__call__`) the class's code reads."""
        bases = {cls: set(names) for cls, names in self.declared_bases.items()}
        for facts in self.keyed_files.values():
            for cls, info in facts.classes.items():
                metaclass = short(info.metaclass) if info.metaclass else None
                if metaclass in bases and metaclass != cls:
                    bases[cls].add(metaclass)
            for alias, named in facts.name_aliases.items():  # `HtmlBase = HtmlCloth`: its subclasses are Cloth's
                if short(named) in self.declared_bases and alias not in self.declared_bases:
                    bases.setdefault(alias, set()).add(short(named))
            for alias, named in facts.imports.items():  # `from .base import Base as _Base`: the same class
                if short(named) != alias and short(named) in self.declared_bases and alias not in self.declared_bases \
                        and outside_name(alias, facts, self.libraries.finder) is None:
                    bases.setdefault(alias, set()).add(short(named))
            for cls, made in facts.made_classes.items():  # `Node = NodeMeta("Node", (_Node,), {})`
                maker = short(made.callee)
                if maker == "type" or maker in self.metaclasses:
                    bases.setdefault(cls, set()).update({short(base) for base in made.bases} - {cls})
                    if maker != "type":
                        bases[cls].add(maker)
        return bases

    @of_structure
    @cached_property
    def class_children(self) -> dict[str, set[str]]:
        """Class name (or the short name of a base from outside the package) -> the package's classes deriving
        from it directly."""
        children: dict[str, set[str]] = {}
        for cls, bases in self.class_bases.items():
            for base in bases:
                children.setdefault(base, set()).add(cls)
        return children

    @of_structure
    @per_argument
    def related(self, cls: str) -> frozenset[str]:
        """The classes a read on an object of class `cls` can reach, and a write on one can be read from: `cls`,
        its ancestors, its descendants, and the classes sharing a descendant with it (mixins). Bases from
        outside the package are named but not followed: two classes sharing only such a base are siblings."""
        return frozenset(ancestor for descendant in closure(cls, self.class_children)
                         for ancestor in closure(descendant, self.class_bases))

    @of_structure
    @cached_property
    def protocols(self) -> set[str]:
        """Classes matched by shape, not by inheritance: a read on one can be a read on any class."""
        return {cls for cls, bases in self.class_bases.items() if "Protocol" in bases}

    def _is_known_class(self, cls: str) -> bool:
        return (cls in self.class_bases or cls in self.class_children) and cls not in self.protocols

    @of_structure
    @cached_property
    def _dataclass_makers(self) -> frozenset[str]:
        """The package's functions that make dataclass-like classes of those they decorate (`dataclass_makers`)."""
        return frozenset(name for facts in self.files.values() for name in facts.dataclass_makers)

    @of_structure
    @cached_property
    def traits(self) -> dict[str, set[str]]:
        """Class name -> {"framework", "module", "registers", "reads_all", "reads_public", "exception"}, inherited
        along bases within the package."""
        configured = {short(name) for name in self.framework_bases}
        making_fields = FRAMEWORK_DECORATORS | self._dataclass_makers
        traits: dict[str, set[str]] = {}
        for path, facts in self.files.items():  # bases by the names they are spelt with
            for cls, info in facts.classes.items():
                own = traits.setdefault(self.own_key(path, cls), set())
                if {short(d) for d in info.decorators} & making_fields:
                    own.add("framework")
                if {short(b) for b in info.bases} & FRAMEWORK_BASES:
                    own.add("framework")
                if any(short(b) in MODULE_BASES and (b == short(b) or "nn" in b.split(".")) for b in info.bases):
                    own.add("module")
                if info.registers:
                    own.add("registers")
                if {short(n) for n in (*info.bases, *info.decorators)} & configured:
                    own.update(("framework", "reads_all"))  # fields and every attribute written count as read
                if any(short(b) in STRUCTURE_BASES and (b == short(b) or "ctypes" in b.split(".")) for b in info.bases):
                    own.add("reads_all")
                if any(is_exception_name(short(b)) for b in info.bases):
                    own.add("exception")
        for cls, base in self.outside_bases:  # what its `__setattr__`, `__eq__` do
            traits.setdefault(cls, set()).update(self.libraries.class_traits(base))
        return inherited_along(traits, self.class_bases, self.class_children)

    @of_structure
    @cached_property
    def outside_bases(self) -> list[tuple[str, str]]:
        """(class, base) for each base of the package's classes defined outside it (`qualified_bases`): found
        once, for the traits, the reads and the methods those bases give."""
        return [(self.own_key(path, cls), base) for path, facts in self.files.items()
                for cls, base in qualified_bases(facts, self.libraries.finder)]

    @of_structure
    @cached_property
    def from_outside(self) -> set[str]:
        """The package's classes with a base from outside it, themselves or through a base of the package."""
        own = merged((cls, {base}) for cls, base in self.outside_bases)
        return set(inherited_along(own, self.class_bases, self.class_children))

    def traits_of(self, cls: str | None) -> set[str]:
        return self.traits.get(cls, set()) if cls else set()

    @cached_property
    def whole_object_readers(self) -> tuple[set[str], set[str]]:
        """Classes whose own methods use every attribute at once (compare, hash, serialise or return them), or
        whose objects' whole `__dict__` other code walks where it knows their class; and those that use every
        public one (a walk of `self.__dict__` skipping the names that begin with `_`). Not
        a metaclass: its `cls.__dict__` is the namespace of a class it makes, not an instance's attributes."""
        every: set[str] = set()
        public: set[str] = set()
        for facts in self.keyed_files.values():
            for cls, info in facts.classes.items():
                if cls not in self.metaclasses:
                    if info.reads_all:
                        every.add(cls)
                    if info.reads_public:
                        public.add(cls)
        # a walk of the whole `__dict__` of an object known to be of this class, by other code
        every.update(cls for cls, names in self._reads[1].items()
                     if WHOLE_MARK in names and cls not in self.metaclasses)
        # or of the objects handed to a function that walks its parameter's: `sstruct.pack(fmt, self)`
        walking = {(function, position) for facts in self.keyed_files.values()
                   for function, positions in facts.whole_parameters.items() for position in positions}
        if walking:
            every.update(cls for facts in self.keyed_files.values() for cls, info in facts.classes.items()
                         if cls not in self.metaclasses and any(tuple(lent) in walking for lent in info.lends_receiver))
        return every, public

    @of_structure
    @cached_property
    def metaclasses(self) -> set[str]:
        """The package's classes deriving from `type`, through the package's own classes or directly (a class
        made by a metaclass is not one)."""
        return {cls for cls in self.declared_bases if "type" in closure(cls, self.declared_bases)}

    def reads_every_attribute(self, cls: str | None, name: str = "") -> bool:
        """A class related to `cls` uses every attribute at once, or a configured framework base reads them; or,
        for a public `name`, a class related to `cls` uses every public attribute."""
        if not cls:
            return False
        every, public = self.whole_object_readers
        traits = self.traits_of(cls)
        if "reads_all" in traits or self.related(cls) & every:
            return True
        public_name = bool(name) and not name.startswith("_")
        return public_name and ("reads_public" in traits or bool(self.related(cls) & public))

    @cached_property
    def _reads(self) -> tuple[set[str], dict[str, set[str]], dict[str, set[str]], dict[str, set[str]]]:
        """Names read on objects of any class; by class, names read on its objects, names whose reads only feed
        the attribute itself, and glob patterns of computed names (under "" those of any class)."""
        anywhere: set[str] = set()
        by_class: dict[str, set[str]] = {}
        fed: dict[str, set[str]] = {}
        patterns: dict[str, set[str]] = {}
        borrowing: list[tuple[str, str]] = []  # (class, another whose methods it runs on its own objects)
        looping: list[tuple[str, str]] = []  # (class, NAME): `getattr(self, name)` for each name in `self.NAME`
        forwarding: list[tuple[str, str]] = []  # (class, A): `getattr(self.A, name)` in its `__getattr__`
        class_named: list[tuple[str, str]] = []  # (class read on, C): `getattr(obj, type(self).__name__)` in C
        setters = self.data_descriptors | {"property"}  # what a class body may bind that `self.x = v` calls
        for facts in self.keyed_files.values():
            anywhere |= facts.reads
            for cls, names in facts.class_reads.items():
                (by_class.setdefault(cls, set()) if self._is_known_class(cls) else anywhere).update(names)
            for cls, attributes in facts.attribute_reads.items():
                for attribute, names in attributes.items():
                    made = self.classes_assigned(cls, attribute)
                    for target in made or [None]:
                        known = target is not None and self._is_known_class(target)
                        (by_class.setdefault(target, set()) if known else anywhere).update(names)
            for cls, names in facts.fed.items():
                fed.setdefault(cls, set()).update(names)
            for cls, found in facts.patterns.items():
                known = cls if cls and self._is_known_class(cls) else ""
                patterns.setdefault(known, set()).update(p for p in found if not p.startswith(PLACEHOLDERS))
                looping.extend((known, p[len(LISTED_MARK):-1]) for p in found if p.startswith(LISTED_MARK))
                class_named.extend((known, p[len(CLASS_NAME_MARK):-1]) for p in found if p.startswith(CLASS_NAME_MARK))
            for cls, info in facts.classes.items():
                if "framework" in self.traits_of(cls):
                    by_class.setdefault(cls, set()).update(info.body_names)  # fields the framework reads
                # `self.x = v` calls the `__set__` of a data descriptor bound to `x` in the class body, made there
                # or by a factory (`x = Instrument.control(...)`, which returns `property(...)`)
                managed = [name for name, callee in info.body_calls.items() if self.made_by(callee) & setters]
                if managed:
                    by_class.setdefault(cls, set()).update(managed)
                # `size = Field()`: what Field reads under the name it is bound to (`"_" + self.name`)
                for name, callee in info.body_calls.items():
                    for made in self.made_by(callee):
                        patterns.setdefault(cls, set()).update(
                            pattern.replace(BOUND_NAME, name) for pattern in self._bound_patterns.get(made, ()))
                # `user = Permission("_user")`: a descriptor given an attribute's name looks that attribute up
                if info.declared and any(short(callee) in self.descriptors for callee in info.body_calls.values()):
                    by_class.setdefault(cls, set()).update(info.declared)
                for run in info.runs_methods_of:
                    other, _, method = run.rpartition(".")
                    if method not in self.static_methods_of(other):
                        borrowing.append((cls, other))
                forwarding.extend((cls, attribute) for attribute in info.forwards_to)
        if looping:  # a base's loop over the names each subclass lists in its body, in any module
            listed = {(cls, name): strings for facts in self.keyed_files.values()
                      for cls, lists in facts.body_lists.items() for name, strings in lists.items()}
            for cls, name in looping:
                if cls:
                    by_class.setdefault(cls, set()).update(
                        *(listed.get((related, name), ()) for related in self.related(cls)))
            # a loop over `obj.NAME` on an object of any class: the names each class lists under NAME, on it
            anyone = {name for cls, name in looping if not cls}
            for (cls, name), strings in listed.items() if anyone else ():
                if name in anyone:
                    by_class.setdefault(cls, set()).update(strings)
        for cls, names in self._base_init_names().items():  # `super().__init__(fields=["url"])`, looked up
            by_class.setdefault(cls, set()).update(names)
        for cls, owner in class_named:  # the names of the class and of its subclasses, whichever the object is
            patterns.setdefault(cls, set()).update(short(named) for named in closure(owner, self.class_children))
        for cls, other in borrowing:  # `Other.method(self)`: Other's reads through its receiver read ours
            by_class.setdefault(cls, set()).update(by_class.get(other, ()))
        for cls, attribute in forwarding:  # the names read on its objects that they lack are looked up there
            lacking = self._over_related(by_class, cls) - self.names_assigned_on(cls)
            for target in self.classes_assigned(cls, attribute) or [None]:
                known = target is not None and self._is_known_class(target)
                (by_class.setdefault(target, set()) if known else anywhere).update(lacking)
        return anywhere, by_class, fed, patterns

    def _base_init_names(self) -> dict[str, set[str]]:
        """Class -> the names it hands a base's `__init__` in a list the base looks each name of up on the object:
        `super().__init__(simple_properties=["url", "title"])` where the base's `__init__` keeps
        `simple_properties` and its `to_dict` does `getattr(self, name)` for each."""
        looking: dict[str, tuple[list[str], frozenset[str]]] = {}  # class -> its parameters, those looked up
        passing: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {}
        for facts in self.keyed_files.values():
            for cls, info in facts.classes.items():
                if info.looked_up_parameters:
                    looking[cls] = (list(info.init_parameters), frozenset(info.looked_up_parameters))
                if info.base_init_lists:
                    passing[cls] = info.base_init_lists
        found: dict[str, set[str]] = {}
        for cls, lists in passing.items() if looking else ():
            for base in closure(cls, self.class_bases) - {cls}:
                if base not in looking:
                    continue
                parameters, looked_up = looking[base]
                for key, strings in lists:
                    name = parameters[int(key)] if key.isdigit() and int(key) < len(parameters) else key
                    if name in looked_up:
                        found.setdefault(cls, set()).update(strings)
        return found

    @cached_property
    def _bound_patterns(self) -> dict[str, set[str]]:
        """Descriptor class -> the patterns of the names it reads under the name it is bound to (`BOUND_NAME`),
        its bases' included."""
        own = merged(item for facts in self.keyed_files.values() for item in facts.bound_patterns.items())
        return inherited_along(own, self.class_bases, self.class_children)

    @cached_property
    def _returned_calls(self) -> dict[str, set[str]]:
        return merged(item for facts in self.keyed_files.values() for item in facts.returned_calls.items())

    def made_by(self, callee: str) -> set[str]:
        """What a call may make, by short name: the callee itself, and what the functions of that name return
        calls of, transitively (`Instrument.control` -> `control`, `DynamicProperty`, `property`)."""
        return self.kept("made_by", callee, lambda: closure(short(callee), self._returned_calls))

    @of_structure
    @cached_property
    def _static_methods(self) -> dict[str, set[str]]:
        """Class name -> its static methods, and those of its bases in the package."""
        own = {cls: set(info.static_methods) for facts in self.keyed_files.values()
               for cls, info in facts.classes.items() if info.static_methods}
        return inherited_along(own, self.class_bases, self.class_children)

    def static_methods_of(self, cls: str) -> set[str]:
        return self._static_methods.get(cls, set())

    @of_structure
    @cached_property
    def data_descriptors(self) -> set[str]:
        """The package's classes whose instances define `__set__`, by themselves or through a base: bound to a
        name in a class body, they take over every assignment of that attribute (typed fields, validators)."""
        return self._defining({"__set__"})

    @of_structure
    @cached_property
    def descriptors(self) -> set[str]:
        """The package's classes whose instances define `__get__` or `__set__`."""
        return self._defining({"__get__", "__set__"})

    def _defining(self, wanted: set[str]) -> set[str]:
        own = {cls: wanted & set(info.methods) for facts in self.keyed_files.values()
               for cls, info in facts.classes.items()}
        return {cls for cls, methods in inherited_along(own, self.class_bases, self.class_children).items() if methods}

    @cached_property
    def _constructed(self) -> tuple[dict[tuple[str, str], set[str] | None], set[str]]:
        """(class, attribute) -> the classes its writes through self make objects of, None where some write
        assigns anything else but `None`; and the attributes assigned on other objects than self (`obj.a =
        ...`)."""
        made: dict[tuple[str, str], set[str] | None] = {}
        elsewhere: set[str] = set()
        for facts in self.keyed_files.values():
            for write in facts.writes:
                if not write.on_receiver or not write.cls:
                    elsewhere.add(mangled(write.name, write.cls))
                    continue
                if write.empty:
                    continue  # `None` is no object whose attributes are read
                key = (write.cls, mangled(write.name, write.cls))
                if write.constructor is None:
                    made[key] = None
                elif made.get(key, set()) is not None:  # a name left as it is may be any class of that name
                    made.setdefault(key, set()).update(self._homonyms.get(write.constructor, {}).values()
                                                       or [write.constructor])
        return made, elsewhere

    def classes_assigned(self, cls: str, attribute: str) -> set[str] | None:
        """The classes of the objects `self.attribute` holds in `cls`'s hierarchy, where every write of it there
        is a call of a class and nothing else assigns it, or of those a property of that name or a method
        (`attribute` "m()") returns by its annotation; None where that cannot be told."""
        made, elsewhere = self._constructed
        if attribute in elsewhere:
            return None
        classes: set[str] = set()
        for related in self.related(cls):
            found = made.get((related, attribute), set())
            returned = self._returns.get((related, attribute))
            if found is None or returned == NAMES_NO_CLASS:
                return None
            classes |= found | (returned or set())
        return classes or None

    def holds_package_objects(self, cls: str, attribute: str) -> bool:
        """`self.attribute` holds objects of the package's own classes only, in `cls`'s hierarchy."""
        classes = self.classes_assigned(cls, attribute)
        return bool(classes) and all(made in self.package_classes for made in classes)

    @of_structure
    @cached_property
    def _returns(self) -> dict[tuple[str, str], AbstractSet[str]]:
        """(class, "m()" or a property's name) -> the classes the return annotation names, empty where it names
        none: `def engine(self) -> Engine`, `@property def conn(self) -> Connection`."""
        returns: dict[tuple[str, str], AbstractSet[str]] = {}
        for facts in self.keyed_files.values():
            for cls, methods in facts.returns.items():
                for key, classes in methods.items():
                    known = returns.get((cls, key))
                    returns[(cls, key)] = NAMES_NO_CLASS if known == NAMES_NO_CLASS or not classes \
                        else {*(known or ()), *classes}
        return returns

    @property
    def read_names(self) -> set[str]:
        """Names read on objects of any class: such a read reaches every attribute of that name."""
        return self._reads[0]

    def _over_related(self, by_class: Mapping[str, AbstractSet[str]], cls: str) -> AbstractSet[str]:
        """What `by_class` holds for the classes related to `cls`, together: joined as asked (`Joined`) where it is
        a few sets, as a deep hierarchy's leaves have (their own, and their bases', which each leaf would
        otherwise hold a copy of), else made once."""
        parts = [part for related in self.related(cls) if (part := by_class.get(related))]
        return Joined(parts) if len(parts) <= JOINED_PARTS else frozenset().union(*parts)

    @per_argument
    def names_read_on(self, cls: str) -> AbstractSet[str]:
        """Names read on objects of classes related to `cls` (through self, or a name of known class)."""
        return self._over_related(self._reads[1], cls)

    def names_read_on_class(self, cls: str) -> frozenset[str]:
        """Names read on objects of exactly `cls`."""
        return frozenset(self._reads[1].get(cls, ()))

    @per_argument
    def names_fed_on(self, cls: str) -> AbstractSet[str]:
        return self._over_related(self._reads[2], cls)

    @cached_property
    def _shared(self) -> dict[str, set[str]]:
        """Class -> the attributes some write of which through self may assign an object held elsewhere too."""
        shared: dict[str, set[str]] = {}
        for facts in self.keyed_files.values():
            for write in facts.writes:
                if write.shared and write.on_receiver and write.cls:
                    shared.setdefault(write.cls, set()).add(mangled(write.name, write.cls))
        return shared

    @per_argument
    def names_shared_on(self, cls: str) -> AbstractSet[str]:
        """Attributes that may hold an object held elsewhere too, in classes related to `cls`: changing what
        such an attribute holds is a use, whichever write the code at hand stored."""
        return self._over_related(self._shared, cls)

    def _by_class(self, names_of: Callable[[ClassInfo], Collection[str]]) -> dict[str, set[str]]:
        """Class name -> the names `names_of` gives of its facts, over every module defining a class of it."""
        by_class: dict[str, set[str]] = {}
        for facts in self.keyed_files.values():
            for cls, info in facts.classes.items():
                if names := names_of(info):
                    by_class.setdefault(cls, set()).update(names)
        return by_class

    @of_structure
    @cached_property
    def _declared(self) -> dict[str, set[str]]:
        return self._by_class(lambda info: info.declared)

    @of_structure
    @per_argument
    def names_declared_on(self, cls: str) -> AbstractSet[str]:
        """Names the class bodies of classes related to `cls` give their calls as strings (`ByteField("tfv")`)."""
        return self._over_related(self._declared, cls)

    @of_structure
    @cached_property
    def _init_parameters(self) -> dict[str, set[str]]:
        return self._by_class(lambda info: info.init_parameters)

    @of_structure
    @per_argument
    def init_parameters_on(self, cls: str) -> AbstractSet[str]:
        """The parameters of the `__init__` methods of classes related to `cls`."""
        return self._over_related(self._init_parameters, cls)

    @of_structure
    @cached_property
    def _aliases(self) -> dict[str, set[str]]:
        return merged(item for facts in self.keyed_files.values() for item in facts.aliases.items())

    @of_structure
    @per_argument
    def alias_prefixes(self, cls: str) -> AbstractSet[str]:
        """Prefixes the attribute lookup hooks of classes related to `cls` strip: `obj._sa_x` reads `x`."""
        return self._over_related(self._aliases, cls)

    @per_argument
    def patterns_read_on(self, cls: str | None) -> tuple[str, ...]:
        """Glob patterns of the computed names read on objects of classes related to `cls`, or of any class."""
        patterns = self._reads[3]
        classes = self.related(cls) if cls else frozenset()
        return tuple(sorted(set().union(patterns.get("", ()), *(patterns.get(c, ()) for c in classes))))

    @cached_property
    def _assigned(self) -> dict[str, set[str]]:
        """Class name -> the names assigned on its objects (through self) or bound in its body."""
        assigned: dict[str, set[str]] = {}
        for facts in self.keyed_files.values():
            for write in facts.writes:
                if write.cls and write.on_receiver:
                    assigned.setdefault(write.cls, set()).add(mangled(write.name, write.cls))
            for cls, info in facts.classes.items():
                assigned.setdefault(cls, set()).update(self._bound_in_body(cls, info), info.methods)
        return assigned

    @of_structure
    @cached_property
    def _methods(self) -> dict[str, set[str]]:
        """Class name -> the names of its methods and properties, those a class body binds to a descriptor of
        the package or to `property(...)` included (`when_changed = event()`): looked up on the class, as a
        method is, whatever the objects hold."""
        descriptors = self.descriptors | PROPERTIES
        return self._by_class(lambda info: [*info.methods, *(name for name, callee in info.body_calls.items()
                                                             if short(callee) in descriptors)])

    @per_argument
    def writes_in_blocks(self, path: str) -> dict[int, list[Write]]:
        """A file's statement lists -> the writes through self standing in each."""
        blocks: dict[int, list[Write]] = {}
        facts = self.keyed_files.get(path)
        for write in facts.writes if facts else ():
            if write.cls and write.on_receiver and write.block:
                blocks.setdefault(write.block, []).append(write)
        return blocks

    def _bound_in_body(self, cls: str, info: ClassInfo) -> Collection[str]:
        """The names a class body binds, but those only a bare annotation declares (`base_dist: Distribution`)
        where nothing can make them fields: the hierarchy is the package's own, with no framework making fields
        of annotations (a dataclass) and no protocol that other classes fill in."""
        if not info.annotated or "framework" in self.traits_of(cls) or not self.is_closed_hierarchy(cls) \
                or self.related(cls) & self.protocols:
            return info.body_names
        return list((Counter(info.body_names) - Counter(info.annotated)).elements())

    def names_assigned_beside(self, write: Write) -> set[str]:
        """The names assigned through the receiver in the statements around any write of the attribute in its
        class, in their own list of statements and a few lines away: `self.sr_conflict = 0` beside
        `self.sr_conflicts = []`, attributes set side by side on purpose, two things wherever else either is set
        (`self._modes = set(modes)` alone in a handler). Not those of a sibling branch (an `except:` or `elif`
        setting the name the `try:` or `if` misspells)."""
        beside: set[str] = set()
        for path, same in self.writes_by_name.get(write.name, ()):
            same = self.keyed_write(path, same)
            if same.cls == write.cls and same.on_receiver:
                block = self.writes_in_blocks(path).get(same.block, ())
                beside.update(mangled(other.name, other.cls) for other in block
                              if other.cls == same.cls and abs(other.line - same.line) <= BESIDE_LINES)
        return beside

    @per_argument
    def names_assigned_on(self, cls: str) -> AbstractSet[str]:
        """Names assigned on objects of classes related to `cls`, or bound in their bodies."""
        return self._over_related(self._assigned, cls)

    @of_structure
    @per_argument
    def is_closed_hierarchy(self, cls: str) -> bool:
        """Every attribute the classes related to `cls` have is assigned by name in the package: every base is
        the package's own (or `object`, `ABC`, ...) and none derives from a library's class or stands in for one
        (an optional import's), none assigns names its code does not spell (`setattr(self, key, v)`) and none
        answers them in `__getattr__`."""
        known = self.package_classes
        related = self.related(cls)
        return (all(base in known or base in NEUTRAL_BASES for other in related
                    for base in self.class_bases.get(other, ()))
                and not related & self.unnamed_attribute_classes
                and not related & self.outside_derived)

    @of_structure
    @cached_property
    def outside_derived(self) -> set[str]:
        """Classes deriving from a class outside the package beyond the neutral ones, a class standing in for an
        optional import of its name among them (`except ImportError: class ModelBase: ...`)."""
        return {cls for cls, base in self.outside_bases if short(base) not in NEUTRAL_BASES}

    @of_structure
    @cached_property
    def unnamed_attribute_classes(self) -> set[str]:
        """Classes with attributes their code never names: assigned by computed names, or answered by a lookup
        hook (`__getattr__`)."""
        return {cls for facts in self.keyed_files.values() for cls, info in facts.classes.items()
                if info.assigns_unnamed or not LOOKUP_METHODS.isdisjoint(info.methods)}

    @of_structure
    @per_argument
    def methods_of(self, cls: str) -> AbstractSet[str]:
        """Methods and properties of the classes related to `cls`."""
        return self._over_related(self._methods, cls)

    @cached_property
    def _bound_on_classes(self) -> dict[str, set[str]]:
        """Class name -> the names a module's top level binds on the class to an object named there, a function
        defined elsewhere above all (`Plotter.timer_callback = timer_callback`): methods, no state of objects."""
        bound: dict[str, set[str]] = {}
        for facts in self.keyed_files.values():
            for write in facts.writes:
                if write.method is None and write.cls is None and write.shared and write.owner in self.class_bases:
                    bound.setdefault(write.owner, set()).add(write.name)
        return bound

    def bound_on_class(self, cls: str) -> AbstractSet[str]:
        """What a module's top level binds on the classes related to `cls`, as `_bound_on_classes` tells."""
        return self._over_related(self._bound_on_classes, cls)

    @property
    def package_classes(self) -> Collection[str]:
        return self.class_bases.keys()  # every class of the package has an entry, bases or not

    @of_structure
    @cached_property
    def documented_names(self) -> set[str]:
        """Attributes documented as API where they are assigned, in their class's docstring or in the
        project's documentation."""
        return set(self.documentation).union(*(facts.documented for facts in self.files.values()))

    @cached_property
    def records_for_users(self) -> dict[str, set[str]]:
        """Class -> the public attributes its `__init__` assigns, where the code the documentation shows makes
        objects of it and reads two or more of the attributes its objects are assigned (`article =
        Article(url)`, then `article.authors`, `article.text`): a record handed to users, whose fields are
        theirs to read, those the pages show and the others alike."""
        if not self.read_by_users:
            return {}
        assigned: dict[str, set[str]] = {}
        fields: dict[str, set[str]] = {}
        for facts in self.keyed_files.values():
            for write in facts.writes:
                if write.cls and write.on_receiver:
                    assigned.setdefault(write.cls, set()).add(write.name)
                    if write.method == "__init__" and not write.name.startswith("_"):
                        fields.setdefault(write.cls, set()).add(write.name)
        return {cls: names for cls, names in fields.items()
                if len(assigned[cls] & self.read_by_users.get(short(cls), set())) >= 2}

    def _from_library_bases(self, of_base: Callable[[str], frozenset[str]]) -> dict[str, set[str]]:
        """Class name -> what `of_base` gives for its bases from outside the package (the standard library,
        installed libraries), inherited within the package."""
        own: dict[str, set[str]] = {}
        for cls, base in self.outside_bases:
            own.setdefault(cls, set()).update(of_base(base))
        return inherited_along(own, self.class_bases, self.class_children)

    @of_structure
    @cached_property
    def library_reads(self) -> dict[str, set[str]]:
        """Class name -> the names its bases from outside the package read through `self`."""
        return self._from_library_bases(self.libraries.class_reads)

    @of_structure
    @cached_property
    def held_for_unseen_code(self) -> dict[str, set[str]]:
        """Class -> attributes holding a value one of its methods hands to code with no source to read too: a
        method of a base with none (`self.SetData(arrays)` in a subclass of a compiled class) or a function of a
        compiled module (`lib.set_user_data(handle)`). Such code may keep a pointer to the value and no
        reference: the attribute is the reference."""
        finder = self.libraries.finder
        held: dict[str, set[str]] = {}
        for facts in self.keyed_files.values():
            package = finder.packages.get(facts.path, "")
            for cls, info in facts.classes.items():
                for attribute, imported, method in info.hands_to:
                    unseen = finder.compiled(imported, package) if imported else self._from_opaque_base(cls, method)
                    if unseen:
                        held.setdefault(cls, set()).add(attribute)
        return held

    @of_structure
    @cached_property
    def _library_body_calls(self) -> dict[str, list[tuple[str, str]]]:
        """Name -> (class, library class) where a class body binds the name to a call of a class from outside
        the package: `_selections = traitlets.Dict().tag(sync=True)`."""
        bound: dict[str, list[tuple[str, str]]] = {}
        for facts in self.keyed_files.values():
            for cls, info in facts.classes.items():
                for name, callee in info.body_calls.items():
                    if short(callee) not in self.class_bases:
                        qualified = outside_name(callee, facts, self.libraries.finder)
                        if qualified and self.libraries.finder.has(qualified):
                            bound.setdefault(name, []).append((cls, qualified))
        return bound

    def binds_library_descriptor(self, cls: str, name: str) -> bool:
        """A class body of `cls`'s hierarchy binds `name` to an object of an installed library's class whose
        instances define `__set__` (traitlets' `Dict()`, param's `Number()`): `self.name = v` calls it."""
        related = self.related(cls)
        return any(other in related and "__set__" in self.libraries.class_methods(made)
                   for other, made in self._library_body_calls.get(name, ()))

    @cached_property
    def interface_members(self) -> dict[str, set[str]]:
        """Class -> public attributes holding its views: objects of package classes made from the object itself
        (`self.cat = CatClient(self)`, `self.worktrees = WorkTreeContainer(self)`), through which users reach the
        views' methods. They are the class's interface where code holding the object reads one of them (on an
        object of any class) or one is documented, and, in a public module, where nothing reads any of them:
        then they are there for users only. Where only the class's own code (or code knowing the class) reads
        some, they are its machinery, and one nothing reads is read nowhere; so are those of a class in a
        private module (`textblob/_text.py`), which users do not reach."""
        views: dict[str, set[str]] = {}
        public: set[str] = set()  # classes with views made in a public module
        for path, facts in self.keyed_files.items():
            for write in facts.writes:
                if write.of_receiver and write.cls and write.constructor in self.class_bases:
                    views.setdefault(write.cls, set()).add(write.name)
                    if not is_private_module(self.relative(path)):
                        public.add(write.cls)
        members: dict[str, set[str]] = {}
        read, documented = self.read_names, self.documented_names
        for cls, names in views.items():
            if any(name in read or name in documented for name in names) or (
                    cls in public and not any(mangled(name, cls) in self.names_read_on(cls) for name in names)):
                members[cls] = {name for name in names if not name.startswith("_")}
        return members

    def _from_opaque_base(self, cls: str, method: str) -> bool:
        """`method`, called on an object of `cls`, is one of a base with no source to read: neither the
        package's nor a readable library base's."""
        return ("opaque" in self.traits_of(cls) and method not in self.methods_of(cls)
                and method not in self.library_methods_of(cls))

    def library_reads_of(self, cls: str | None) -> AbstractSet[str]:
        """Names the outside bases of classes related to `cls` read through `self`: a mixin's methods run on
        objects of the classes it is mixed into, whose library bases read what those methods write."""
        return self._over_related(self.library_reads, cls) if cls else frozenset()

    @of_structure
    @cached_property
    def library_methods(self) -> dict[str, set[str]]:
        """Class name -> the methods of its bases from outside the package."""
        return self._from_library_bases(self.libraries.class_methods)

    def library_methods_of(self, cls: str | None) -> set[str]:
        return self.library_methods.get(cls, set()) if cls else set()

    @cached_property
    def writes_by_name(self) -> dict[str, list[tuple[str, Write]]]:
        by_name: dict[str, list[tuple[str, Write]]] = {}
        for path, facts in self.files.items():
            for write in facts.writes:
                by_name.setdefault(write.name, []).append((path, write))
        return by_name

    def relative(self, path: str) -> str:
        """A file's path as the package knows it: `deepspeed/runtime/pipe/module.py`."""
        try:
            return str(Path(path).relative_to(self.root.parent))
        except ValueError:
            return path


FIELDS = {field.name for field in dataclasses.fields(PackageIndex)}  # the rest of its __dict__: worked out
# what it works out per file (`per_argument` of a path), and all it works out that depends on where things stand
# in a file; the rest it works out from names
PER_FILE = tuple(f"_{method.__name__}_by_argument"
                 for method in (PackageIndex.references, PackageIndex.writes_in_blocks))
PLACED = {"keyed_files", "writes_by_name", *PER_FILE}


def read_source(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def facts_of(kind: FactsKind, path: str, source: bytes | str, summary: FileFacts | None = None,
             cache: FactsCache | None = None) -> FileFacts:
    """Facts of a kind, made anew (from `summary`, the source's, where it is made already). In full, what
    findings and fixes are made of, they are the `ast` summary of the whole file with the checks' own facts, of
    the excerpt holding the kind's lines where it names some (an excerpt that does not parse says nothing of the
    file: then of the whole file), else of the whole file; the checks' facts of an excerpt `cache` knows are
    taken from it (`ExcerptChecks`). Where `ast` cannot summarise the file, libcst's tree makes the summary
    too, a summary's kind included, and the collectors of Python's tree find nothing."""
    from flake8_stale_state.summary import documentation_summary, parsed_summary  # a warm run summarises none

    if kind.documentation:
        return documentation_summary(path, source)
    tree = None
    if summary is None:
        summary, tree = parsed_summary(path, source)
    if not kind.full and summary.error is None:
        return summary
    part = excerpt_of(source, tree, kind.lines) if kind.lines and summary.error is None else None
    del tree  # the whole file's tree is let go before the excerpt's is made
    checks = ExcerptChecks(cache, kind, part) if part is not None else None
    known = checks.load() if checks is not None else None
    if known is not None:
        return replace(summary, path=path, checks=known)
    facts, of_part = _collected(kind, path, source, part, summary)
    if checks is not None and of_part and facts.error is None:
        checks.store(facts.checks)
    return facts


def _collected(kind: FactsKind, path: str, source: bytes | str, part: bytes | str | None,
               summary: FileFacts) -> tuple[FileFacts, bool]:
    """`facts_of`'s facts made: the checks' own, of `part` where it parses, else of `source`; and whether every
    collector's were made of `part` (only those may be kept by the excerpt's content)."""
    from flake8_stale_state.summary import collected  # noqa: PLC0415 - as in `facts_of`

    if summary.error is not None:
        from flake8_stale_state.cst_facts import collect_facts  # libcst loads only for a file Python rejects

        facts = collect_facts(path, source)
        facts.checks = {c.code: c.facts() for c in kind.collecting}
        return facts, False
    collectors = kind.collectors()
    if not collectors:
        return replace(summary, path=path, checks={}), part is not None
    of_part = part is not None
    made = collected(part, collectors) if of_part else None
    if made is None:  # no excerpt, or one Python rejects
        of_part, made = False, collected(source, collectors)
    if made is None:
        return FileFacts(path=path, error="nested too deeply to analyse"), False
    return replace(summary, path=path, checks=made), of_part


class ExcerptChecks:
    """The checks' own facts of an excerpt, in the cache by the excerpt's content and the collectors that made
    them. An excerpt keeps its lines' numbers and text, and the collectors see nothing else of the file: where
    an edit leaves the excerpt as it was (a line changed elsewhere, lines added below it), the collectors have
    nothing new to read."""

    def __init__(self, cache: FactsCache | None, kind: FactsKind, part: bytes | str) -> None:
        self.cache = cache
        self.kind = kind
        self.key = entry_key(source_digest(part), f"excerpt:{kind.codes}")

    def load(self) -> dict[str, Any] | None:
        """The facts stored, if there are some of every collector's."""
        data = self.cache.load_entry(self.key) if self.cache is not None else None
        try:
            checks = None if data is None else FileFacts.checks_from_data(data["checks"], self.kind.facts_types)
        except (KeyError, TypeError, ValueError, AttributeError):
            return None
        return checks if checks is not None and checks.keys() == self.kind.facts_types.keys() else None

    def store(self, checks: dict[str, Any]) -> None:
        if self.cache is not None:
            self.cache.store_entry(self.key, {"checks": FileFacts.checks_to_data(checks)})


def excerpt_of(source: bytes | str, tree: ast.Module | None, lines: Collection[int]) -> bytes | str | None:
    """The part of the source that holds `lines` (by its `ast` tree, parsed here if not given); None where it
    cannot be told."""
    try:
        return excerpt(source, tree or ast.parse(source), lines)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


SUMMARY = FactsKind(full=False)  # of files outside any package, whose checks' facts are never wanted
DOCUMENTATION = FactsKind(full=False, documentation=True)


def summary_through(cache: FactsCache, known: Mapping[str, FileFacts] | None = None
                    ) -> Callable[[Path], FileFacts | None]:
    """Summaries of files outside any package (of the standard library, of installed libraries): those
    `known` by path, the others kept in `cache` like the package's."""
    def summary(path: Path) -> FileFacts | None:
        if known and str(path) in known:
            return known[str(path)]
        source = read_source(path)
        return None if source is None else cached_facts(SUMMARY, str(path), source, source_digest(source), cache)

    return summary


def _cached(cache: FactsCache, kind: FactsKind, path: str, digest: str) -> FileFacts | None:
    facts = cache.load(path, entry_key(digest, kind.key), kind.facts_types)
    if facts is not None:
        facts.digest = digest
    return facts


def _made(cache: FactsCache, kind: FactsKind, digest: str, facts: FileFacts) -> FileFacts:
    """Newly made facts, kept in the cache unless they record a failure (retried next run)."""
    facts.digest = digest
    if facts.error is None:
        cache.store(entry_key(digest, kind.key), facts)
    return facts


def cached_facts(kind: FactsKind, path: str, source: bytes | str, digest: str, cache: FactsCache,
                 summary: FileFacts | None = None) -> FileFacts:
    """Facts of one source, from the cache when it knows them (`summary`: the source's, where made already)."""
    known = _cached(cache, kind, path, digest)
    return known or _made(cache, kind, digest, facts_of(kind, path, source, summary, cache))


def read_and_make(kind: FactsKind, path: str, key_path: str, cache: FactsCache, summary: FileFacts | None = None
                  ) -> FileFacts | None:
    """Facts of a kind of the file as it is now, kept in `cache` by the content they were made from; None if
    the file cannot be read. `summary`: the file's, made already, if the content is still the one it was made
    of."""
    source = read_source(Path(path))
    if source is None:
        return None
    digest = source_digest(source)
    if summary is not None and summary.digest != digest:
        summary = None
    return _made(cache, kind, digest, facts_of(kind, key_path, source, summary, cache))


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off while facts, or an index's tables, are made, on again after (if it was):
    they are some hundred thousand objects and no cycle, and the collector's passes over them while they are
    made cost a fifteenth of a syntax tree's summary and a fifth of a package entry's decoding. Not around
    libcst's work in the main process, whose trees hold cycles that would wait for the next pass there (a
    worker makes one file's facts at a time, and its next pass collects them)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _read_and_make(item: tuple[FactsKind, str, str, FileFacts | None, FactsCache]
                   ) -> tuple[str, dict, bool] | None:
    """`read_and_make` in a worker, with the cycle collector paused: the facts' digest, their data, and whether
    that data is the checks' own alone, where the rest is the summary the main process sent (it holds that
    summary already: a copy would double it in its memory)."""
    kind, path, key_path, summary, cache = item
    with collector_paused():
        facts = read_and_make(kind, path, key_path, cache, summary)
    if facts is None:
        return None
    if summary is not None and facts.error is None and summary.error is None and facts.digest == summary.digest:
        return facts.digest, FileFacts.checks_to_data(facts.checks), True
    return facts.digest, facts.to_data(), False


def _received(result: tuple[str, dict, bool], key_path: str, kind: FactsKind, summary: FileFacts | None
              ) -> FileFacts:
    """The facts `_read_and_make` sent."""
    digest, data, checks_alone = result
    if checks_alone:
        assert summary is not None
        return replace(summary, path=key_path, checks=FileFacts.checks_from_data(data, kind.facts_types))
    facts = FileFacts.from_data(key_path, data, kind.facts_types)
    facts.digest = digest
    return facts


def _can_fork_workers() -> bool:
    # flake8's -j workers are daemonic, and daemonic processes may not have children
    import multiprocessing  # here, as the pool: a run whose facts are all cached never starts one

    return not multiprocessing.current_process().daemon and (os.cpu_count() or 1) > 1


class Workers:
    """Processes that make facts: started by the first batch big enough to be worth them, kept for the batches
    after it. Forked at the first, while the main process is still small, they are not copies of the index
    the main process builds afterwards; they read the files and write the cache themselves."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self.count = os.cpu_count() or 1

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def make_all(self, items: list[tuple[FactsKind, str, str, FileFacts | None]], cache: FactsCache
                 ) -> list[FileFacts | None]:
        """`read_and_make` of each (kind, path, resolved path, summary made already)."""
        if self._pool is None and len(items) >= PARALLEL_THRESHOLD and _can_fork_workers():
            from concurrent.futures import ProcessPoolExecutor

            self._pool = ProcessPoolExecutor(self.count)
        if self._pool is None or len(items) < 2:
            return [read_and_make(kind, path, key_path, cache, summary) for kind, path, key_path, summary in items]
        results = self._pool.map(_read_and_make, [(*item, cache) for item in items],
                                 chunksize=max(1, len(items) // 64))
        return [None if result is None else _received(result, key_path, kind, summary)
                for (kind, _, key_path, summary), result in zip(items, results)]


def gather_facts(wanted: Mapping[Path, FactsKind], cache: FactsCache, resolve: Callable[[Path], Path] = real_path,
                 workers: Workers | None = None, summaries: Mapping[str, FileFacts] | None = None
                 ) -> dict[str, FileFacts]:
    """Facts of the wanted kind of every readable file, by resolved path: from the cache where the content is
    known, else made, in parallel (by `workers` where given), from the file's summary in `summaries` where
    there is one (the index's: a worker would otherwise summarise the file again)."""
    files: dict[str, FileFacts | None] = {}  # in the order wanted, whatever order they are made in
    missing: list[tuple[int, tuple[FactsKind, str, str, FileFacts | None]]] = []  # size, read_and_make's
    for path, kind in wanted.items():
        source = read_source(path)
        if source is None:
            continue  # unreadable or gone since discovery: the rest of the package still counts
        key_path = str(resolve(path))
        digest = source_digest(source)
        files[key_path] = _cached(cache, kind, key_path, digest)
        if files[key_path] is None:  # `read_and_make` takes the summary if the file is still what it was made of
            missing.append((len(source), (kind, str(path), key_path, summaries.get(key_path) if summaries else None)))
    # the largest first, so that no long file is left to run alone at the end
    items = [item for _, item in sorted(missing, key=lambda entry: -entry[0])]
    with Workers() if workers is None else nullcontext(workers) as pool:
        made = pool.make_all(items, cache)
    files.update((key_path, facts) for (_, _, key_path, _), facts in zip(items, made))
    return {path: facts for path, facts in files.items() if facts is not None}  # None: gone since it was read


def file_status(path: Path) -> list[int] | None:
    """What changes whenever a file's content does: size, modification and change times, inode. The change
    time cannot be set back (an archive extracted with its files' times keeps `mtime`, never `ctime`)."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return [status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino]


def trusted(status: list[int] | None, since: int) -> bool:
    """A file's status says whether its content changed since: it is there, and it changed at least
    `RACY_NANOSECONDS` before `since` (nanoseconds of `time.time_ns()`), so a later change will show."""
    return status is not None and max(status[1], status[2]) < since - RACY_NANOSECONDS


def _recorded(record: str | None, status: list[int] | None, path: str, kind: FactsKind) -> FileFacts | None:
    """The facts a package entry recorded of a file, if its status is the one recorded."""
    if status is None or record is None:
        return None
    try:
        recorded_status, digest, data = json.loads(record)
        if recorded_status != status:
            return None
        facts = FileFacts.from_data(path, data, kind.facts_types)
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None
    facts.digest = str(digest)
    return facts


def package_facts(name: str, files: Sequence[Path], kind: FactsKind, cache: FactsCache,
                  resolve: Callable[[Path], Path] = real_path, workers: Workers | None = None) -> dict[str, FileFacts]:
    """`gather_facts` of a package's files through one entry holding them all: a file whose status (size,
    times, inode) is the one recorded takes the facts recorded, unread; the others are read, and their facts
    found by content or made, as `gather_facts` does. The entry is written again when any of it changed."""
    started = time.time_ns()
    statuses = {str(resolve(path)): file_status(path) for path in files}  # taken before any file is read
    known = {}
    with collector_paused():
        recorded = cache.load_package(name, kind.key)
        for path, status in statuses.items():
            facts = _recorded(recorded.get(path), status, path, kind)
            if facts is not None:
                known[path] = facts
    made = gather_facts({path: kind for path in files if str(resolve(path)) not in known}, cache, resolve, workers)
    gathered = {path: known.get(path) or made[path] for path in statuses if path in known or path in made}
    entry = {}
    for path, facts in gathered.items():
        if path in known:
            entry[path] = recorded[path]
        elif facts.error is None:  # a failure is retried next run
            status = statuses[path]
            entry[path] = json.dumps([status if trusted(status, started) else None, facts.digest, facts.to_data()],
                                     separators=(",", ":"))
    if entry.keys() != recorded.keys() or len(known) < len(entry):
        cache.store_package(name, kind.key, entry)
    return gathered
