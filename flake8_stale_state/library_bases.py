"""What classes outside the package read through `self`: attributes a package's subclass sets for its base.

`class Quiet(logging.StreamHandler)` writing `self.terminator = ""` is read by `StreamHandler.emit`, and
`class Echo(twisted.internet.protocol.Protocol)` writing `self.transport` is read by Twisted: code outside the
package. A base is looked up in the standard library, then in the libraries installed in the environment
being checked (`environment.py`), and followed through its own bases, across libraries. Their source is only
ever summarised by the `ast` pre-pass, never imported: each module once, when first needed, through the
analyzer's cache (a warm run parses none). Only a compiled class of the standard library, which has no source,
is asked what it declares, from the running Python's own module.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import sys
import sysconfig
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from flake8_stale_state.environment import Environment, running_environment
from flake8_stale_state.facts import INIT_PARAMETERS_MARK, FileFacts, qualified_name

STDLIB = Path(sysconfig.get_paths()["stdlib"])
SIX_MOVES = "six.moves."  # a module six fills as it runs with the modules of the running Python
MAX_CLASSES = 64  # bases and re-exports followed from one class; the standard library needs a handful
COMPILED_SUFFIXES = (".so", ".pyd")


@functools.lru_cache(maxsize=1 << 16)  # the package's modules import the same modules, relative to few packages
def absolute_module(module: str, package: str) -> str | None:
    """A module as an import names it (`.case`, relative to `package`, or `unittest.case`), named absolutely;
    None for a relative name beyond the top of `package`."""
    return qualified_name("m", {"m": module}, package)


def star_modules(facts: FileFacts, package: str) -> list[str]:
    """The modules a module's `from M import *` statements import, in order."""
    return [star for star in (absolute_module(source, package) for source in facts.star_imports) if star]


def source_in(folders: Iterable[Path], module: str) -> Path | None:
    """The source file of `module` in the first folder that holds it (a package's `__init__.py` first)."""
    parts = module.split(".")
    for folder in folders:
        path = folder.joinpath(*parts)
        for candidate in (path / "__init__.py", path.with_suffix(".py")):
            if candidate.is_file():
                return candidate
    return None  # compiled only, or not there


def is_installed(folders: Iterable[Path], top: str) -> bool:
    """Some form of the top-level module `top` is in one of the folders: a package, a module, compiled code."""
    for folder in folders:
        if (folder / top).is_dir() or (folder / f"{top}.py").is_file():
            return True
        if any(path.name.endswith(COMPILED_SUFFIXES) for path in folder.glob(f"{top}.*")):
            return True
    return False


@dataclass(frozen=True)
class MissingBase:
    """A base class the package imports from a library the environment does not hold."""

    base: str  # "twisted.internet.protocol.Protocol"
    environment: Path  # where it was looked for

    def message(self) -> str:
        return f"base class {self.base} not found in {self.environment}; attributes it reads count as unread"


class PackageClass(NamedTuple):
    """A class of the package, where it is defined."""

    module: str  # "pkg.layers"
    name: str  # "BatchNorm"


class ModuleFinder:
    """Module name -> source: in the environment's standard library (else in that of the Python running the
    check), then in its libraries. The package's own modules (`own`, by top-level name) are not looked up:
    the package's index holds them, whether or not a copy of the package is installed. `modules`: the facts
    of the package's modules by name, with the package each one's relative imports start from."""

    def __init__(self, environment: Environment, own: Collection[str] = (),
                 modules: Mapping[str, tuple[FileFacts, str]] | None = None) -> None:
        self.environment = environment
        self.own = frozenset(own)
        self.modules = modules or {}
        self.packages = {facts.path: package for facts, package in self.modules.values()}
        # what the environment answered, each asked once: a folder listing, a file looked for
        self.installed: dict[str, bool] = {}  # top-level module of a library -> installed
        self.sources: dict[str, Path | None] = {}  # module of a library or of the standard library -> its source
        self._six_moves: dict[str, str] | None = None

    def outside(self, qualified: str) -> str | None:
        """A base as the library that defines it names it: one the package names through a module of its own
        (`from ._compat import xmlrpclib`, then `xmlrpclib.Transport`) is followed through that module's
        imports. None for a class of the package, or one not to be told."""
        found = self._follow(qualified)
        return self._moved(found) if isinstance(found, str) else None

    def _moved(self, qualified: str) -> str:
        """A name under `six.moves`, a module six makes as it runs, as the module it stands for names it
        (`six.moves.http_client.HTTPConnection` is `http.client.HTTPConnection`), by six's own table."""
        if not qualified.startswith(SIX_MOVES):
            return qualified
        module, _, rest = qualified[len(SIX_MOVES):].partition(".")
        if self._six_moves is None:
            source = self.source("six")
            self._six_moves = moved_modules(source) if source is not None else {}
        moved = self._six_moves.get(module)
        return f"{moved}.{rest}" if moved else qualified

    def package_class(self, qualified: str) -> PackageClass | None:
        """The module of the package defining the class `qualified` names (`pkg.layers.BatchNorm`, or a
        re-export of it, `pkg.BatchNorm`), and its name there; None for a class outside the package, or one not
        to be told."""
        found = self._follow(qualified)
        return found if isinstance(found, PackageClass) else None

    def _follow(self, qualified: str) -> str | PackageClass | None:
        """`qualified` followed through the package's modules' imports to the module defining it: a name
        outside the package, or a class of the package's own."""
        for _ in range(MAX_CLASSES):
            parts = qualified.split(".")
            if parts[0] not in self.own:
                return qualified
            prefixes = (".".join(parts[:i]) for i in range(len(parts) - 1, 0, -1))  # the longest first
            module = next((prefix for prefix in prefixes if prefix in self.modules), None)
            if module is None:
                return None
            facts, package = self.modules[module]
            rest = qualified[len(module) + 1:]
            head = rest.split(".")[0]
            if head in facts.classes:
                return PackageClass(module, head) if rest == head else None
            if head in facts.name_aliases:  # `Transport = xmlrpclib.Transport`
                rest = facts.name_aliases[head] + rest[len(head):]
            found = qualified_name(rest, facts.imports, package, self.fallback_of(facts))
            if found is None and facts.star_imports:
                found = self._through_stars(facts, package, head, rest)
                if found == "":  # from a library's star import: followed as a library's re-export is
                    return qualified
            if found is None or found == qualified:
                return None
            qualified = found
        return None

    def _through_stars(self, facts: FileFacts, package: str, head: str, rest: str) -> str | None:
        """A name a module of the package binds by `from M import *` only: where a module of the package that
        it star-imports binds it, the name there; "" where a library's module may (which one, only the
        library's source tells: `LibraryClasses` reads it); None where neither."""
        stars = star_modules(facts, package)
        for star in reversed(stars):  # a later star import rebinds the names of an earlier one
            bound = self.modules.get(star)
            if bound and (head in bound[0].classes or head in bound[0].imports or head in bound[0].name_aliases):
                return f"{star}.{rest}"
        return "" if any(star.split(".")[0] not in self.own for star in stars) else None

    def compiled(self, qualified: str, package: str) -> bool:
        """`qualified`, as a module's imports name it (relative to `package`), is code with no source to read:
        of the package's own (`from ._chipmunk import lib`, built when it is installed; followed through the
        package's re-exports) or an installed library's; not the standard library's, whose compiled functions
        keep nothing they are given."""
        for _ in range(MAX_CLASSES):
            absolute = absolute_module(qualified, package)
            top = (absolute or "").split(".")[0]
            if not absolute or top in sys.stdlib_module_names or not self.has(top):
                return False
            module, _, name = absolute.rpartition(".")  # `import cv2`, or a name imported from a module
            if top not in self.own:
                return not self.source(absolute) and not (module and self.source(module))
            if absolute in self.modules:
                return False
            if module not in self.modules:
                return True
            facts, package = self.modules[module]
            qualified = facts.imports.get(name, "")  # re-exported: `from ._chipmunk import ffi, lib`
            if not qualified:
                return False  # defined there
        return False

    def source(self, module: str) -> Path | None:
        top = module.split(".")[0]
        if top in self.own:
            return None
        if module not in self.sources:
            stdlib = top in sys.stdlib_module_names
            folders = [self.environment.stdlib or STDLIB] if stdlib else self.environment.library_folders
            self.sources[module] = source_in(folders, module)
        return self.sources[module]

    def has(self, module: str) -> bool:
        """Some form of the top-level module of `module` is in the package, the standard library or the
        environment."""
        top = module.lstrip(".").split(".")[0]
        if not top or module.startswith(".") or top in self.own or top in sys.stdlib_module_names:
            return bool(top)
        if top not in self.installed:
            self.installed[top] = is_installed(self.environment.library_folders, top)
        return self.installed[top]

    def fallback_of(self, facts: FileFacts) -> Callable[[str], str | None]:
        """For `qualified_name`: the fallback binding of a name whose import cannot succeed here and whose
        fallback's can (`BaseHTTPServer` on Python 3)."""
        def fallback(head: str) -> str | None:
            other = facts.import_fallbacks.get(head)
            if other is None or self.has(facts.imports.get(head, "")) or not self.has(other):
                return None
            return other
        return fallback

    def missing(self, qualified: str) -> MissingBase | None:
        """The base `qualified` as missing, if its top-level module is in neither the package, the standard
        library nor the environment."""
        return None if self.has(qualified) else MissingBase(qualified, self.environment.location)


@functools.lru_cache(maxsize=256)
def compiled_stdlib_members(qualified: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """The data descriptors and the methods of a compiled class of the standard library and of its bases
    (`_collections.defaultdict`'s `default_factory`, `_ssl._SSLContext`'s `check_hostname`): a subclass's `self.x
    = v` sets what the class's C code reads. Read from the class itself, the running Python's: importing the
    standard library runs no code of the package or of a library. None where `qualified` is no such class."""
    module, _, name = qualified.rpartition(".")
    if not module or module.split(".")[0] not in sys.stdlib_module_names:
        return None
    try:
        cls = getattr(importlib.import_module(module), name, None)
    except Exception:  # another platform's module (`winreg`), or one this Python lacks
        return None
    if not isinstance(cls, type):
        return None
    members: set[str] = set()
    methods: set[str] = set()
    for klass in cls.__mro__[:-1]:  # not `object`
        for attribute, value in vars(klass).items():
            if attribute.startswith("__") and attribute.endswith("__"):
                continue
            if inspect.isdatadescriptor(value):
                members.add(attribute)
            elif callable(value):
                methods.add(attribute)
    return frozenset(members), frozenset(methods)


def _bound_class(bound: str, facts: FileFacts, module: str, package: str,
                 fallback: Callable[[str], str | None]) -> str | None:
    """The class a module's top-level name is bound to (`Flag = _flag.Flag`): one it imports, or its own."""
    return qualified_name(bound, facts.imports, package, fallback) or (
        f"{module}.{bound}" if bound in facts.classes else None)


def moved_modules(six: Path) -> dict[str, str]:
    """six's table of the modules it moves, read from its source: `MovedModule("http_client", "httplib",
    "http.client")` -> {"http_client": "http.client"} (Python 3's name, the first where it gives one)."""
    try:
        tree = ast.parse(six.read_bytes())
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    moved: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "MovedModule" and node.args:
            names = [arg.value for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]
            if len(names) == len(node.args):
                moved.setdefault(names[0], names[2] if len(names) > 2 else names[0])
    return moved


def qualified_bases(facts: FileFacts, finder: ModuleFinder) -> Iterator[tuple[str, str]]:
    """(class, base) for each base of the file's classes named through an import and defined outside the
    package: `logging.StreamHandler`. A class standing in for an optional import of its name (`try: from
    sklearn.base import BaseEstimator as ModelBase`, `except ImportError: class ModelBase: ...`) is the
    imported class where that is installed: the import is its base. So are the bases `type` gives a class it
    makes, `type(name, (Mixin, unittest.TestCase), {})`."""
    stated = [(cls, (*info.bases, cls) if cls in facts.imports else info.bases) for cls, info in facts.classes.items()]
    made = [(cls, made.bases) for cls, made in facts.made_classes.items() if made.callee == "type"]
    for cls, bases in stated + made:
        for base in bases:
            qualified = outside_name(base, facts, finder)
            if qualified:
                yield cls, qualified


def outside_name(dotted: str, facts: FileFacts, finder: ModuleFinder) -> str | None:
    """A name the file uses (`protocol.Factory`), as the library outside the package that defines it names it
    (`twisted.internet.protocol.Factory`); None for a name of the package, or one not to be told."""
    package = finder.packages.get(facts.path, "")
    head, _, rest = dotted.partition(".")
    if head not in facts.imports and head not in facts.classes and "." in facts.name_aliases.get(head, ""):
        # `_DummyThread_ = threading._DummyThread` at the module's top, then `class _DummyThread(_DummyThread_)`
        dotted = ".".join(filter(None, [facts.name_aliases[head], rest]))
        head = dotted.split(".")[0]
    qualified = qualified_name(dotted, facts.imports, package, finder.fallback_of(facts))
    if qualified is None and head not in facts.classes and head not in facts.name_aliases:
        stars = star_modules(facts, package)  # `from antlr4 import *`, then `class OverrideLexer(Lexer)`
        if len(stars) == 1 and stars[0].split(".")[0] not in finder.own:
            qualified = f"{stars[0]}.{dotted}"
    return qualified and finder.outside(qualified)


def base_modules(files: Iterable[FileFacts], finder: ModuleFinder) -> set[Path]:
    """The modules outside the package that the classes of `files` name as their bases: to summarise ahead,
    all at once, rather than one by one as they are asked for."""
    modules = {base.rpartition(".")[0] for facts in files for _, base in qualified_bases(facts, finder)}
    return {path for path in map(finder.source, modules - {""}) if path is not None}


def summarize_file(path: Path) -> FileFacts | None:
    from flake8_stale_state.summary import summarize  # a warm run summarises none

    try:
        return summarize(str(path), path.read_bytes())
    except OSError:
        return None


class LibraryClasses:
    """What classes outside the package read, each module summarised at most once by `summarize_file`;
    and the bases named by the package that could not be found (`missing`, by qualified name)."""

    def __init__(self, summarize_file: Callable[[Path], FileFacts | None] = summarize_file,
                 finder: ModuleFinder | None = None) -> None:
        self.summarize_file = summarize_file
        self.finder = finder or ModuleFinder(running_environment())
        self.modules: dict[str, tuple[FileFacts, str] | None] = {}
        # class -> what it reads, its traits, its methods
        self.reads: dict[str, tuple[frozenset[str], frozenset[str], frozenset[str]]] = {}
        self.missing: dict[str, MissingBase] = {}

    def module_summary(self, module: str) -> tuple[FileFacts, str] | None:
        """The module's facts and the package its relative imports start from."""
        if module in self.finder.modules:  # a module of the package re-exporting a library's names
            return self.finder.modules[module]
        if module not in self.modules:
            path = self.finder.source(module)
            facts = self.summarize_file(path) if path is not None else None
            self.modules[module] = None if facts is None or facts.error else (
                facts, module if path.name == "__init__.py" else module.rpartition(".")[0])
        return self.modules[module]

    def class_reads(self, qualified: str) -> frozenset[str]:
        """Names the class `qualified` ("logging.StreamHandler"), a base of a class of the package, and its
        bases read through `self` or declare in their bodies; empty for a class that cannot be found."""
        return self._class_facts(qualified)[0]

    def class_traits(self, qualified: str) -> frozenset[str]:
        """What the class and its bases do with every attribute at once: "registers" where one defines
        `__setattr__` (as `torch.nn.Module` does, registering submodules and parameters), "reads_all" where one
        compares, hashes, serialises or returns `self.__dict__`, "reads_public" where one does so with the names
        not beginning with `_` (the package's own classes' rules); "reads_parameters" where one looks up the
        parameters of the object's `__init__` by name (scikit-learn's `get_params`); "opaque" where one has no
        source to read (not installed, or compiled: a .NET class reached through pythonnet)."""
        return self._class_facts(qualified)[1]

    def class_methods(self, qualified: str) -> frozenset[str]:
        """The methods of the class and its bases: hooks the library may call on any of its objects, which an
        instance may replace (`self.endElementNS = self._end_record` for a SAX parser)."""
        return self._class_facts(qualified)[2]

    def _class_facts(self, qualified: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
        if qualified not in self.reads:
            self.reads[qualified] = self._follow(qualified)
            missing = self.finder.missing(qualified)
            if missing is not None:
                self.missing[qualified] = missing
        return self.reads[qualified]

    def _through_imported_name(self, module: str, name: str) -> str | None:
        """`xmlrpc.xmlrpc_server.SimpleXMLRPCServer` where no module is `xmlrpc.xmlrpc_server` but the module
        `xmlrpc` (defusedxml's) binds `xmlrpc_server` by an import (`from xmlrpc import server as
        xmlrpc_server`): the class as that import names it, `xmlrpc.server.SimpleXMLRPCServer`."""
        parts = module.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            summary = self.module_summary(".".join(parts[:cut]))
            if summary is not None:
                facts, package = summary
                target = qualified_name(".".join(parts[cut:]), facts.imports, package, self.finder.fallback_of(facts))
                return f"{target}.{name}" if target else None
        return None

    def _follow(self, qualified: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
        reads: set[str] = set()
        traits: set[str] = set()
        methods: set[str] = set()
        pending, seen = [qualified], {qualified}
        while pending and len(seen) <= MAX_CLASSES:
            module, _, name = pending.pop().rpartition(".")
            summary = self.module_summary(module) if module else None
            if summary is None and (imported := self._through_imported_name(module, name)) is not None:
                found: list[str | None] = [imported]
            elif summary is None:
                if (members := compiled_stdlib_members(f"{module}.{name}")) is not None:
                    reads |= members[0]
                    methods |= members[1]
                elif module:  # not installed, or compiled: what it reads is unknown
                    traits.add("opaque")
                continue
            else:
                facts, package = summary
                info = facts.classes.get(name)
                fallback = self.finder.fallback_of(facts)
                if info is None:  # re-exported: `from .case import TestCase`, `from .modules import *`, or
                    # bound to another name at the module's top (`Flag = _flag.Flag`, `Handler = _Handler`)
                    bound = facts.name_aliases.get(name)
                    found = [qualified_name(name, facts.imports, package, fallback)
                             or (bound and _bound_class(bound, facts, module, package, fallback))]
                    if not found[0]:
                        found = [f"{star}.{name}" for star in star_modules(facts, package)]
                else:
                    # what it reads through `self`, and what its body declares (`delimiter = None` in `csv.Dialect`,
                    # which compiled code reads): the attributes it offers its subclasses to set
                    reads |= facts.class_reads.get(name, set())
                    reads.update(info.body_names)
                    methods.update(info.methods)
                    traits.update(trait for trait, has in (("registers", info.registers), ("reads_all", info.reads_all),
                                                           ("reads_public", info.reads_public)) if has)
                    if INIT_PARAMETERS_MARK in facts.patterns.get(name, ()):
                        traits.add("reads_parameters")
                    found = [qualified_name(base, facts.imports, package, fallback)
                             or (f"{module}.{base}" if base in facts.classes else None) for base in info.bases]
            for base in found:
                if base and base not in seen:
                    seen.add(base)
                    pending.append(base)
        return frozenset(reads), frozenset(traits), frozenset(methods)
