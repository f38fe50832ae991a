"""What standard-library classes read through `self`: attributes a package's subclass sets for its base.

`class Quiet(logging.StreamHandler)` writing `self.terminator = ""` is read by `StreamHandler.emit`, outside
the package. The standard library's source ships with Python, so what its classes read is known and the same
on every run with the same Python: each module is summarised once, by the `ast` pre-pass, when first needed
(through the analyzer's cache, so a warm run parses none). Other libraries are not followed: which version
is installed, if any, varies from one machine to the next.
"""

from __future__ import annotations

import sys
import sysconfig
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from flake8_stale_state.facts import FileFacts
from flake8_stale_state.summary import summarize

STDLIB = Path(sysconfig.get_paths()["stdlib"])
MAX_CLASSES = 64  # bases and re-exports followed from one class; the standard library needs a handful


def qualified_name(name: str, imports: dict[str, str], package: str = "") -> str | None:
    """`random.Random` -> "random.Random" in a file that imports `random`; None for a name not imported.

    `package` is the package of the importing module, for relative imports (followed within the
    standard library only: in the package being checked they name its own modules)."""
    head, _, rest = name.partition(".")
    target = imports.get(head)
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


def stdlib_source(module: str) -> Path | None:
    parts = module.split(".")
    if parts[0] not in sys.stdlib_module_names:
        return None
    path = STDLIB.joinpath(*parts)
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None  # written in C, or not a module


def qualified_bases(facts: FileFacts) -> Iterator[tuple[str, str]]:
    """(class, base) for each base of the file's classes named through an import: `logging.StreamHandler`."""
    for cls, info in facts.classes.items():
        for base in info.bases:
            qualified = qualified_name(base, facts.imports)
            if qualified:
                yield cls, qualified


def base_modules(files: Iterable[FileFacts]) -> set[Path]:
    """The standard-library modules the classes of `files` name as their bases: to summarise ahead, all at once,
    rather than one by one as they are asked for."""
    modules = {base.rpartition(".")[0] for facts in files for _, base in qualified_bases(facts)}
    return {path for path in map(stdlib_source, modules - {""}) if path is not None}


def summarize_file(path: Path) -> FileFacts | None:
    try:
        return summarize(str(path), path.read_bytes())
    except OSError:
        return None


class StdlibClasses:
    """What standard-library classes read, each module summarised at most once by `summarize_file`."""

    def __init__(self, summarize_file: Callable[[Path], FileFacts | None] = summarize_file) -> None:
        self.summarize_file = summarize_file
        self.modules: dict[str, tuple[FileFacts, str] | None] = {}
        self.reads: dict[str, frozenset[str]] = {}

    def module_summary(self, module: str) -> tuple[FileFacts, str] | None:
        """The module's facts and the package its relative imports start from."""
        if module not in self.modules:
            path = stdlib_source(module)
            facts = self.summarize_file(path) if path is not None else None
            self.modules[module] = None if facts is None or facts.error else (
                facts, module if path.name == "__init__.py" else module.rpartition(".")[0])
        return self.modules[module]

    def class_reads(self, qualified: str) -> frozenset[str]:
        """Names the standard-library class `qualified` ("logging.StreamHandler") and its bases read through
        `self`; empty for anything else."""
        if qualified not in self.reads:
            self.reads[qualified] = self._class_reads(qualified)
        return self.reads[qualified]

    def _class_reads(self, qualified: str) -> frozenset[str]:
        reads: set[str] = set()
        pending, seen = [qualified], {qualified}
        while pending and len(seen) <= MAX_CLASSES:
            module, _, name = pending.pop().rpartition(".")
            summary = self.module_summary(module) if module else None
            if summary is None:
                continue
            facts, package = summary
            info = facts.classes.get(name)
            if info is None:  # re-exported: `from .case import TestCase` in unittest/__init__.py
                found = [qualified_name(name, facts.imports, package)]
            else:
                reads |= facts.receiver_reads.get(name, set())
                found = [qualified_name(base, facts.imports, package)
                         or (f"{module}.{base}" if base in facts.classes else None) for base in info.bases]
            for base in found:
                if base and base not in seen:
                    seen.add(base)
                    pending.append(base)
        return frozenset(reads)
