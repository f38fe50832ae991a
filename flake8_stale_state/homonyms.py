"""Classes of one name in several modules of a package, told apart by the module defining each.

The index relates classes by name. Where two modules define a class of one name (flax's `linen.BatchNorm` and
`nnx.BatchNorm`, mlflow's two `Dataset`s), the name alone would make one hierarchy of both, and a read in one
would excuse a dead write in the other. Each is known instead by a key naming its module
(`BatchNorm@flax/nnx/nn/normalization`) in the facts the index works from. A name that refers to one (a base,
an annotation, a constructor) is followed through the file's imports to the module defining it; where that
cannot be told, it stands for each class it may be, as the name alone did for all: a name neither defined in
the file nor imported from the package, or the last part of a dotted name, which is all the facts keep of a
constructor or an annotation (`shortcuts.Shortcuts(...)` in a module defining a `Shortcuts` too).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from itertools import chain
from dataclasses import replace
from functools import cached_property
from typing import TypeVar

from flake8_stale_state.facts import CLASS_KEY_SEPARATOR, ClassInfo, FileFacts, MadeClass, Write, qualified_name
from flake8_stale_state.library_bases import ModuleFinder, absolute_module, star_modules

V = TypeVar("V")


def homonym_keys(files: Mapping[str, FileFacts], root: str) -> dict[str, dict[str, str]]:
    """Class name defined in more than one module -> the path of each such module -> the class's key there,
    by the module's path under `root`. Not a name a module both defines and imports: the class stands in for
    the import where it fails (`try: from ._speedups import Parser` / `except ImportError: class Parser: ...`),
    and is that class."""
    defined: dict[str, list[str]] = {}
    imported: set[str] = set()
    for path, facts in files.items():
        for cls in facts.classes:
            defined.setdefault(cls, []).append(path)
            if cls in facts.imports:
                imported.add(cls)
    modules: dict[str, str] = {}
    return {name: {path: f"{name}{CLASS_KEY_SEPARATOR}{module_key(path, root, modules)}" for path in paths}
            for name, paths in defined.items() if len(paths) > 1 and name not in imported}


def module_key(path: str, root: str, known: dict[str, str]) -> str:
    """`/src/flax/nnx/nn/normalization.py` under `/src` -> `flax/nnx/nn/normalization`: no dot, as a key may
    hold none (`known`: those worked out, by path)."""
    if path not in known:
        under = path[len(root):].lstrip(os.sep) if path.startswith(root) else path
        known[path] = os.path.splitext(under)[0].replace(os.sep, "/").replace(".", "_")
    return known[path]


class References:
    """The classes the names a file uses refer to, by their keys in the index."""

    def __init__(self, facts: FileFacts, homonyms: Mapping[str, Mapping[str, str]], finder: ModuleFinder,
                 paths: Mapping[str, str]) -> None:
        """`paths`: module name -> the path of its file, of the package's modules."""
        self.facts = facts
        self.homonyms = homonyms
        self.finder = finder
        self.paths = paths
        self.package = finder.packages.get(facts.path, "")  # where the file's relative imports start
        self._known: dict[tuple[str, bool], tuple[str, ...]] = {}  # its keys by name, as names repeat in a file

    def keys(self, name: str, shortened: bool = False) -> tuple[str, ...]:
        """The keys of the classes a name may refer to: the name itself where it is no homonym's. `shortened`:
        the last part of a dotted name, as the facts keep a constructor's or an annotation's (`Shortcuts` of
        `shortcuts.Shortcuts`), which may be the class of that name in any module the file imports."""
        known = self._known.get((name, shortened))
        if known is None:
            spelt = self._class_named(name)
            keys = self.homonyms.get(spelt)
            known = self._known[name, shortened] = (name,) if keys is None else self._keys(name, spelt, keys, shortened)
        return known

    def _class_named(self, name: str) -> str:
        """The name of the class a name refers to as its module spells it: the imported one's for a name an
        import binds (`from .base import Server as _Server`)."""
        if "." not in name and name not in self.facts.classes:
            imported = self.facts.imports.get(name)
            if imported:
                return imported.rpartition(".")[2]
        return name.rpartition(".")[2]

    def _keys(self, name: str, spelt: str, keys: Mapping[str, str], shortened: bool) -> tuple[str, ...]:
        own = keys.get(self.facts.path)
        if own is not None and name == spelt and not shortened:
            return (own,)  # defined in the file: a class statement binds the name where it runs
        found = {own} if own is not None and name == spelt else set()
        named = [name, *(f"{alias}.{name}" for alias in self._module_aliases if shortened and alias != name)]
        for candidate in named:
            defining = self._defining(candidate)
            if defining is not None and defining[1] == spelt and defining[0] in keys:
                found.add(keys[defining[0]])
        return tuple(sorted(found)) if found else tuple(keys.values())

    @cached_property
    def _module_aliases(self) -> list[str]:
        """The names the file's imports bind to modules of the package (`from pkg.nnx import norm`): where a
        dotted name was shortened, its first part may be one of them."""
        return [alias for alias, imported in self.facts.imports.items()
                if absolute_module(imported, self.package) in self.paths]

    def key(self, name: str | None, shortened: bool = False) -> str | None:
        """The key of the class a name refers to where it can be told; the name as it is where not."""
        if name is None:
            return None
        keys = self.keys(name, shortened)
        return keys[0] if len(keys) == 1 else name

    def _defining(self, name: str) -> tuple[str, str] | None:
        """(path, name there) of the module of the package defining the class `name` refers to, through the
        file's imports, or a module it imports every name of."""
        qualified = qualified_name(name, self.facts.imports, self.package, self.finder.fallback_of(self.facts))
        stars = reversed(star_modules(self.facts, self.package))  # a later star import rebinds an earlier one's names
        candidates = [qualified] if qualified else [f"{star}.{name}" for star in stars]
        for candidate in candidates:
            found = self.finder.package_class(candidate)
            if found is not None and found.module in self.paths:
                return self.paths[found.module], found.name
        return None

    def keyed_facts(self) -> FileFacts:
        """The file's facts with each class named by its key; a table naming no homonym is the facts' own (a
        package's keyed facts are many, and most of their tables name none)."""
        facts, key, keys = self.facts, self.key, self.keys
        writes = [self.keyed_write(w) for w in facts.writes]
        return replace(
            facts,
            writes=facts.writes if all(new is old for new, old in zip(writes, facts.writes)) else writes,
            # by the class a read is on: its own, or one an annotation or a constructor names (shortened)
            class_reads=kept(merged((k, names) for cls, names in facts.class_reads.items() for k in keys(cls, True)),
                             facts.class_reads),
            attribute_reads=kept({key(cls): reads for cls, reads in facts.attribute_reads.items()},
                                 facts.attribute_reads),
            fed=kept({key(cls): names for cls, names in facts.fed.items()}, facts.fed),
            patterns=kept(merged((k, found) for cls, found in facts.patterns.items()
                                 for k in (keys(cls, True) if cls else [cls])), facts.patterns),
            returns=kept({key(cls): self._keyed_returns(methods) for cls, methods in facts.returns.items()},
                         facts.returns),
            aliases=kept({key(cls): prefixes for cls, prefixes in facts.aliases.items()}, facts.aliases),
            classes=kept({key(cls): self._keyed_class(info) for cls, info in facts.classes.items()}, facts.classes),
            made_classes={key(cls): MadeClass(made.callee, [k for base in made.bases for k in keys(base)])
                          for cls, made in facts.made_classes.items()},
            name_aliases=kept({alias: key(named) for alias, named in facts.name_aliases.items()}, facts.name_aliases),
            body_lists=kept({key(cls): lists for cls, lists in facts.body_lists.items()}, facts.body_lists),
        )

    def keyed_write(self, write: Write) -> Write:
        if write.cls not in self.homonyms and write.constructor is None:
            return write  # the class is the file's own, named as its statement spells it
        cls, constructor = self.key(write.cls), self.key(write.constructor, shortened=True)
        if cls is write.cls and constructor is write.constructor:
            return write
        return write._replace(cls=cls, constructor=constructor)

    def _keyed_returns(self, methods: dict[str, list[str]]) -> dict[str, list[str]]:
        """The classes a class's methods return, by key; the facts' own table where that names no homonym."""
        keyed = {method: [k for made in classes for k in self.keys(made, True)] for method, classes in methods.items()}
        return methods if keyed == methods else keyed

    def _keyed_class(self, info: ClassInfo) -> ClassInfo:
        runs = tuple(f"{k}.{method}" for run in info.runs_methods_of
                     for other, _, method in [run.rpartition(".")] for k in self.keys(other, shortened=True))
        bases, metaclass = tuple(k for base in info.bases for k in self.keys(base)), self.key(info.metaclass)
        if bases == info.bases and metaclass == info.metaclass and runs == info.runs_methods_of:
            return info
        return info._replace(bases=bases, metaclass=metaclass, runs_methods_of=runs)

    def touches(self) -> bool:
        """Whether the file names any homonym: else its facts are keyed as they are."""
        facts, homonyms = self.facts, self.homonyms
        named = chain(facts.classes, facts.class_reads, (w.constructor for w in facts.writes if w.constructor),
                      (base for info in facts.classes.values() for base in info.bases),
                      (run.rpartition(".")[0] for info in facts.classes.values() for run in info.runs_methods_of),
                      (info.metaclass for info in facts.classes.values() if info.metaclass),
                      (made for methods in facts.returns.values() for classes in methods.values() for made in classes),
                      (base for made in facts.made_classes.values() for base in made.bases),
                      facts.name_aliases.values())
        aliases = {alias for alias, imported in facts.imports.items() if imported.rpartition(".")[2] in homonyms}
        return any(name.rpartition(".")[2] in homonyms or name in aliases for name in named)


def kept(new: dict[str, V], old: dict[str, V]) -> dict[str, V]:
    """`old` where `new` holds the very same values under the same keys: a table that named no homonym."""
    return old if new.keys() == old.keys() and all(new[key] is value for key, value in old.items()) else new


def merged(pairs: Iterable[tuple[str, set[V]]]) -> dict[str, set[V]]:
    """Sets by key, those of one key joined into a new set: a set alone under its key is the facts' own, not
    copied (a package's keyed facts are many), and never changed."""
    joined: dict[str, set[V]] = {}
    for key, values in pairs:
        joined[key] = joined[key] | values if key in joined else values
    return joined
