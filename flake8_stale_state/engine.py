"""One way through for every front end: package → index → checks → findings."""

from __future__ import annotations

import gc
import os
import sys
import time
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from flake8_stale_state import memo
from flake8_stale_state.cache import FactsCache, default_cache_dir, disabled, project_root, source_digest
from flake8_stale_state.checks import RULES, UNANALYSED
from flake8_stale_state.environment import find_environment
from flake8_stale_state.facts import FactsKind, FileFacts
from flake8_stale_state.findings import Finding
from flake8_stale_state.homonyms import merged
from flake8_stale_state.index import (
    DOCUMENTATION, SUMMARY, PackageIndex, Workers, cached_facts, collector_paused, file_status, gather_facts,
    package_facts, read_source, summary_through,
)
from flake8_stale_state.library_bases import LibraryClasses, MissingBase, ModuleFinder, base_modules
from flake8_stale_state.package import (
    documentation_pages, holds_init, is_package, listed_names, package_root, real_path,
)
from flake8_stale_state.rule import Rule
from flake8_stale_state.settings import Settings


def summary_kind() -> FactsKind:
    """The package index's facts: the `ast` summary, or libcst's where `ast` cannot parse the file (with every
    rule's collector's facts, empty, as full facts have them)."""
    return FactsKind(full=False, collecting=tuple(rule.collecting for rule in RULES if rule.collecting))


def checks_kind(rules: Iterable[Rule] = (), lines: Iterable[int] = ()) -> FactsKind:
    """The summary with the checks' own facts, made by the collectors of `rules` of the excerpt holding `lines`
    (none: the whole file)."""
    return FactsKind(full=True, collecting=tuple(rule.collecting for rule in rules if rule.collecting),
                     lines=tuple(sorted(lines)))


class Analyzer:
    """Builds each package's index once and checks files against it.

    With the pre-pass (the default) the index holds `ast` summaries and the checks' collectors read only the
    files some check may report on; without it, full facts serve as both. Findings are the same.
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.roots = tuple(root.resolve() for root in settings.roots)
        self.index_kind = summary_kind() if settings.prepass else checks_kind(RULES)
        self._indexes: dict[tuple[Path, ...], PackageIndex] = {}
        self._caches: dict[Path, FactsCache] = {}
        self._full: dict[str, FileFacts] = {}  # full facts made ahead by `prepare`, by resolved path
        self._from_disk: set[str] = set()  # resolved paths whose index facts were made or checked from the disk
        self._kinds: dict[str, tuple[FileFacts, PackageIndex, FactsKind | None]] = {}  # `_needed_kind`'s, by path
        self._packages: dict[Path, tuple[tuple[Path, ...], str]] = {}  # by resolved folder
        self._package_of: dict[Path, tuple[tuple[Path, ...], str]] = {}  # `_packages`' by path as given
        self._inits: dict[str, bool] = {}  # folder -> it holds `__init__.py`
        self._resolved: dict[Path, Path] = {}
        self._listed: dict[tuple[Path, bool], list[Path]] = {}  # python files by resolved folder
        self._named: dict[tuple[Path, bool], list[tuple[str, str]]] = {}  # `_listed`'s as text, with real paths
        self.environment = find_environment(settings.python)  # NotAnEnvironment: the option names none
        self._reported: set[str] = set()  # missing bases named so far
        self._recalled: set[str] = set()  # missing bases the remembered findings were made with
        # packages whose findings were remembered whole (`prepare(recall=True)`): their files, and each one's
        # findings by resolved path; and for the others, what this run finds, to remember once every file is checked
        self._remembered: dict[tuple[Path, ...], tuple[frozenset[str], dict[str, list[Finding]]]] = {}
        self._gathering: dict[tuple[Path, ...], Gathering] = {}
        self._documentation: dict[Path, list[Path]] = {}  # by package root

    def _real(self, path: Path) -> Path:
        """`real_path`, once per path (each file's is needed at every step of a run), through its folder's,
        once per folder, unless the file is a link itself."""
        resolved = self._resolved.get(path)
        if resolved is None:
            if path.is_symlink() or path.name in ("", "..") or path.parent == path:
                resolved = real_path(path)
            else:
                folder = self._resolved.get(path.parent)
                if folder is None:
                    folder = self._resolved[path.parent] = real_path(path.parent)
                resolved = folder / path.name
            self._resolved[path] = resolved
        return resolved

    def _package(self, path: Path) -> tuple[tuple[Path, ...], str]:
        known = self._package_of.get(path)
        if known is None:
            folder = self._real(path).parent
            known = self._packages.get(folder)
            if known is None:
                if any(folder.is_relative_to(root) for root in self.roots):
                    known = self.roots, "+".join(root.name for root in self.roots)
                else:
                    root = package_root(str(folder), self._holds_init)
                    known = (root,), root.name
                self._packages[folder] = known
            self._package_of[path] = known
        return known

    def _holds_init(self, folder: str) -> bool:
        """`package.holds_init`, once per folder: the files of a folder and of its subfolders ask it again."""
        held = self._inits.get(folder)
        if held is None:
            held = self._inits[folder] = holds_init(folder)
        return held

    def python_files(self, folder: Path, recursive: bool = True) -> list[Path]:
        """`package.python_files`, once per folder: a front end lists the files it was given, and the index of
        their package lists the same files again."""
        key = (self._real(folder), recursive)
        if key not in self._listed:
            listed = [(Path(path), Path(real)) for path, real in self._names(folder, recursive)]
            self._resolved.update(listed)
            self._listed[key] = [path for path, _ in listed]
        return self._listed[key]

    def _names(self, folder: Path, recursive: bool) -> list[tuple[str, str]]:
        """`package.listed_names`, once per folder."""
        key = (self._real(folder), recursive)
        if key not in self._named:
            self._named[key] = listed_names(folder, recursive)
        return self._named[key]

    def _package_folders(self, roots: tuple[Path, ...]) -> list[tuple[Path, bool]]:
        """The folders the package's files are listed from, each with whether its subfolders are."""
        if roots == self.roots:
            return [(root, True) for root in roots]
        # a package is read whole; a loose folder (no `__init__.py`) only for its own files
        return [(roots[0], is_package(roots[0]))]

    def _package_listing(self, roots: tuple[Path, ...]) -> list[tuple[str, str]]:
        """The package's files as text, each with its real path."""
        return [named for folder, recursive in self._package_folders(roots) for named in self._names(folder, recursive)]

    def _package_names(self, roots: tuple[Path, ...]) -> list[str]:
        return [name for name, _ in self._package_listing(roots)]

    def _package_files(self, roots: tuple[Path, ...]) -> list[Path]:
        return [file for folder, recursive in self._package_folders(roots)
                for file in self.python_files(folder, recursive)]

    def _pages(self, root: Path) -> list[Path]:
        """The documentation pages of the project holding the package `root`, once per run."""
        if root not in self._documentation:
            self._documentation[root] = documentation_pages(project_root(root))
        return self._documentation[root]

    def package_key(self, path: Path) -> tuple[Path, ...]:
        """The roots of the package `path` belongs to: files with equal keys share one index."""
        return self._package(path)[0]

    def _cache(self, root: Path) -> FactsCache:
        if root not in self._caches:
            if self.settings.use_cache and not disabled():
                folder = self.settings.cache_dir or default_cache_dir(root)
            else:
                folder = self.settings.run_cache_dir
            self._caches[root] = FactsCache(folder, self.settings.package_entries)
        return self._caches[root]

    def index_for(self, path: Path, workers: Workers | None = None) -> PackageIndex:
        roots, name = self._package(path)
        index = self._indexes.get(roots)
        if index is None:
            files = self._package_files(roots)
            cache = self._cache(roots[0])
            entry = "+".join(map(str, roots))  # one package entry for the package's files, one for their bases'
            facts = package_facts(entry, files, self.index_kind, cache, self._real, workers)
            finder = ModuleFinder(self.environment, own_modules(roots, self._package_names(roots)),
                                  modules_of(roots, facts))
            bases = sorted(base_modules(facts.values(), finder))
            ahead = package_facts(f"bases of {entry}", bases, SUMMARY, cache, Path, workers)
            libraries = LibraryClasses(summary_through(cache, ahead), finder)
            pages = self._pages(roots[0])
            documentation = package_facts(f"documentation of {entry}", pages, DOCUMENTATION, cache, Path,
                                          workers) if pages else {}
            documented = frozenset().union(*(page.documented for page in documentation.values()))
            read_by_users = merged(item for page in documentation.values() for item in page.class_reads.items())
            index = PackageIndex(name, roots[0], facts, self.settings.framework_bases, libraries, documented,
                                 read_by_users)
            self._indexes[roots] = index
            self._from_disk.update(facts)
            # The facts stay for the whole run (an editor's changes replace a few of them): left out of the
            # garbage collector's passes, each of which would otherwise walk all of them again, slowing all
            # the code after, flake8's own checks included (a tenth of the LSP's analysis after a change).
            gc.freeze()
        return index

    def new_missing_bases(self) -> list[MissingBase]:
        """The bases of the packages' classes not found in the environment, those not returned before: for the
        front ends to name each once per run."""
        found = {base: missing for index in self._indexes.values() for base, missing in index.libraries.missing.items()}
        found.update((base, MissingBase(base, self.environment.location)) for base in self._recalled - found.keys())
        new = [missing for base, missing in sorted(found.items()) if base not in self._reported]
        self._reported.update(missing.base for missing in new)
        return new

    def _indexed_facts(self, index: PackageIndex, key: str, source: str | bytes) -> FileFacts:
        """The index's facts of the file if they were made from this very source, else fresh ones."""
        digest = source_digest(source)
        known = index.files.get(key)
        if known is not None and known.digest == digest:
            return known
        return cached_facts(self.index_kind, key, source, digest, self._cache(index.root))

    def _full_kind(self, summary: FileFacts, index: PackageIndex) -> FactsKind | None:
        """The full facts a file needs, by its summary: with the collectors of the rules that may report on
        it (of every rule where the summary failed), of only the lines those collectors ask for where each of
        them can tell (the facts hold the summary of the whole file, all the other rules read); the summary's
        own kind where those rules collect nothing of their own; None where no rule can report."""
        if summary.error is not None:
            return checks_kind(RULES)
        rules = [rule for rule in RULES if rule.may_report is None or rule.may_report(summary, index, self.settings)]
        if not rules:
            return None
        collecting = [rule for rule in rules if rule.collecting]
        if not collecting:
            return self.index_kind
        lines: set[int] = set()
        if all(rule.lines_needed is not None for rule in collecting):
            lines = set().union(*(rule.lines_needed(summary, index, self.settings) for rule in collecting))
        return checks_kind(rules, lines)

    def _needed_kind(self, key: str, facts: FileFacts, index: PackageIndex) -> FactsKind | None:
        """`_full_kind`, once per file of a run: `prepare` asks it of every file, and `check` again."""
        known = self._kinds.get(key)
        if known is None or known[0] is not facts or known[1] is not index:
            with collector_paused():  # the first asks make the index's tables
                known = self._kinds[key] = (facts, index, self._full_kind(facts, index))
        return known[2]

    def prepare(self, paths: Iterable[Path], recall: bool = False) -> None:
        """Build the indexes of `paths`' packages, then the full facts of those files a check may report on,
        all at once and in parallel, rather than one by one as `check` would. `recall`: the files will be
        checked as the disk holds them, so a package whose findings are remembered needs no index."""
        if recall:
            paths = list(paths)
            for roots in dict.fromkeys(map(self.package_key, paths)):
                self._recall_package(roots)
            paths = [path for path in paths if self.package_key(path) not in self._remembered]
        with Workers() as workers:  # one pool for every batch of the run
            if self.index_kind.full:
                for path in paths:
                    self.index_for(path, workers)
                return
            paths = list(paths)
            for path in paths:
                self.index_for(path, workers)
            wanted: dict[Path, dict[Path, FactsKind]] = {}  # package root -> file -> kind of facts
            summaries: dict[str, FileFacts] = {}  # of the wanted files, by resolved path
            for path in paths:
                index = self.index_for(path)
                key = str(self._real(path))
                facts = index.files.get(key)
                kind = self._needed_kind(key, facts, index) if facts is not None else None
                if kind not in (None, self.index_kind):
                    wanted.setdefault(index.root, {})[path] = kind
                    summaries[key] = facts
            for root, kinds in wanted.items():
                self._full.update(gather_facts(kinds, self._cache(root), self._real, workers, summaries))
            gc.freeze()  # as `index_for` does: these facts serve the whole run

    def _recall_package(self, roots: tuple[Path, ...]) -> None:
        """The package's findings, where remembered whole; else the start of their gathering, to remember."""
        cache = self._memo_cache(roots)
        if cache is None:
            return
        inputs, since, files = self._package_inputs(roots)
        if inputs is None:  # a file changed a moment ago: nothing is recalled, or remembered
            return
        remembered = memo.recall(cache, inputs, self._finder(roots))
        if remembered is None:
            self._gathering[roots] = Gathering(inputs, since, files)
            return
        self._recalled.update(remembered.missing)
        by_file: dict[str, list[Finding]] = {}
        for finding in remembered.findings:
            by_file.setdefault(finding.path, []).append(finding)
        self._remembered[roots] = files, by_file

    def _gathered(self, roots: tuple[Path, ...], key: str, found: list[Finding]) -> None:
        """Remember the package's findings once this run has checked every file of it from the disk."""
        gathering = self._gathering.get(roots)
        if gathering is None or key not in gathering.files:
            return
        gathering.found[key] = found
        if gathering.found.keys() == gathering.files:
            del self._gathering[roots]
            index, cache = self._indexes.get(roots), self._memo_cache(roots)
            if index is not None and cache is not None:  # made by this run's index, not recalled file by file
                every = tuple(finding for file_findings in gathering.found.values() for finding in file_findings)
                memo.remember(cache, gathering.inputs, memo.Remembered(every, tuple(index.libraries.missing)),
                              index.libraries.finder, gathering.since)

    def check(self, path: Path, source: str | bytes | None = None, display: str | None = None) -> list[Finding]:
        """Findings for one file; `source` stands for the file's content when it is not the disk's (stdin, editor)."""
        display = display or str(path)
        key = str(self._real(path))
        from_disk = source is None
        if from_disk:
            files, remembered = self._remembered.get(self.package_key(path), (frozenset(), {}))
            if key in files:
                return sorted(displayed(finding, key, display) for finding in remembered.get(key, ()))
        found: Iterable[Finding] | None = None
        inputs, since = None, 0  # the key of the findings remembered, where they are, and its statuses' time
        remembering = self._remembering(path)
        if remembering is not None:
            source = read_source(path) if source is None else source
            if source is None:
                return unreadable(display)
            inputs, since = self._inputs_key(path, key, source)
            if inputs is not None:
                remembered = memo.recall(remembering, inputs, self._finder(self.package_key(path)))
                if remembered is not None:
                    self._recalled.update(remembered.missing)
                    found = remembered.findings
        if found is None:
            found = self._found(path, key, source)
            if found is None:
                return unreadable(display)
            if remembering is not None and inputs is not None:  # `remembering` tells the type checker
                index = self._indexes[self.package_key(path)]
                memo.remember(remembering, inputs, memo.Remembered(tuple(found), tuple(index.libraries.missing)),
                              index.libraries.finder, since)
            if from_disk:
                self._gathered(self.package_key(path), key, found)
        return sorted(displayed(finding, key, display) for finding in found)

    def _found(self, path: Path, key: str, source: str | bytes | None) -> list[Finding] | None:
        """`check`'s findings under the file's resolved path; None where the file cannot be read."""
        index = self.index_for(path)
        # the disk's file, whose facts this run's index was made from (or checked against) moments ago, is not
        # read again unless a rule needs more than those facts
        facts = index.files.get(key) if source is None and key in self._from_disk else None
        if facts is None:
            if source is None:
                source = read_source(path)
                if source is None:
                    return None
            facts = self._indexed_facts(index, key, source)
            if facts is not index.files.get(key):
                index = index.with_file(facts)
        if not self.index_kind.full:
            kind = self._needed_kind(key, facts, index)
            if kind is None:
                return []
            ready = self._full.get(key)  # made from the same source, hence for the same rules
            if kind == self.index_kind:
                pass  # the summary is all the rules that may report here read
            elif ready is not None and ready.digest == facts.digest:
                facts = ready
            else:
                source = read_source(path) if source is None else source
                if source is None:
                    return None
                facts = cached_facts(kind, key, source, facts.digest, self._cache(index.root), facts)
        if facts.error:
            return [Finding(key, 1, 0, UNANALYSED, f"stale-state could not analyse this file: {facts.error}")]
        with collector_paused():  # the index's tables a rule makes on the way are many objects and no cycle
            return [finding for rule in RULES for finding in rule.check(facts, index, self.settings)]

    def _remembering(self, path: Path) -> FactsCache | None:
        """The cache to remember the file's findings in (`memo`), where this run checks a file whose package's
        index it has not built: flake8 given one file on stdin. A run that built the index (a whole package's,
        an editor's) checks against it, edits included."""
        roots = self.package_key(path)
        return None if roots in self._indexes else self._memo_cache(roots)

    def _memo_cache(self, roots: tuple[Path, ...]) -> FactsCache | None:
        """The cache findings are remembered in, where the settings let the cache be used."""
        if not (self.settings.use_cache and self.settings.package_entries) or disabled():
            return None
        cache = self._cache(roots[0])
        return cache if cache.folder is not None else None

    def _statuses(self, roots: tuple[Path, ...]) -> list[tuple[str, list[int] | None]]:
        """The statuses of the package's files and of the project's documentation pages, by path."""
        statuses = [(real, file_status(name)) for name, real in self._package_listing(roots)]
        return statuses + [(str(page), file_status(page)) for page in self._pages(roots[0])]

    def _inputs_key(self, path: Path, key: str, source: str | bytes) -> tuple[str | None, int]:
        """`memo.inputs_key` of the file's content, in its package and project as they are on the disk; and
        when their statuses were taken."""
        since = time.time_ns()
        statuses = self._statuses(self.package_key(path))
        return memo.inputs_key(self.settings, self.environment, key, source_digest(source), statuses, since), since

    def _package_inputs(self, roots: tuple[Path, ...]) -> tuple[str | None, int, frozenset[str]]:
        """`memo.package_key` of the package as the disk holds it, when its statuses were taken, and its files."""
        since = time.time_ns()
        files = frozenset(real for _, real in self._package_listing(roots))
        key = memo.package_key(self.settings, self.environment, map(str, roots), self._statuses(roots), since)
        return key, since, files

    def _finder(self, roots: tuple[Path, ...]) -> ModuleFinder:
        """A finder of the package's bases in the environment, to ask again what the findings were made from."""
        return ModuleFinder(self.environment, own_modules(roots, self._package_names(roots)))

    def update(self, path: Path, source: str | bytes | None = None) -> bool:
        """Take one file's new content into its package's index, if that index is built; True if it changed.

        `source` is the content an editor holds; None means the disk's (saved, reverted, created or deleted).
        Content that does not parse leaves the file's last facts in place, so a half-typed line in one file
        does not make its reads vanish from the checks of the others.
        """
        roots = self.package_key(path)
        # the disk's content changed, or an editor's differs: what was remembered, or gathered, of it no longer holds
        self._remembered.pop(roots, None)
        self._gathering.pop(roots, None)
        index = self._indexes.get(roots)
        if index is None:
            return False  # built from the disk when first needed
        key = str(real_path(path))
        if source is None:
            source = read_source(path)
        if source is None:
            if key not in index.files:
                return False
            self._indexes[roots] = index.without_file(key)
            self._kinds.clear()  # they hold the index they were found for
            return True
        self._from_disk.discard(key)  # the editor's content, or the disk's read again, from now on
        facts = self._indexed_facts(index, key, source)
        if facts is index.files.get(key) or (facts.error and key in index.files):
            return False
        self._indexes[roots] = index.with_file(facts)
        self._kinds.clear()
        return True


@dataclass
class Gathering:
    """A package's findings as this run checks its files from the disk, to remember once all are checked."""

    inputs: str  # `memo.package_key`
    since: int  # when the statuses it was made of were taken
    files: frozenset[str]  # resolved paths
    found: dict[str, list[Finding]] = field(default_factory=dict)


def unreadable(display: str) -> list[Finding]:
    return [Finding(display, 1, 0, UNANALYSED, "stale-state could not read this file")]


def own_modules(roots: tuple[Path, ...], files: Collection[str]) -> set[str]:
    """The top-level module names the package's files are imported by: a package's own name; in a folder
    without `__init__.py`, its modules' and subfolders' names, but for a subfolder without `__init__.py`
    named like a module of the standard library (a `tests/logging/` of test files): Python finds such a
    namespace folder only where no module of that name exists."""
    names = set()
    for root in roots:
        if is_package(root):
            names.add(root.name)
            continue
        inside = os.path.join(root, "")
        entries = {path[len(inside):].split(os.sep)[0] for path in files if path.startswith(inside)}
        names.update(entry.removesuffix(".py") for entry in entries
                     if entry.endswith(".py") or entry not in sys.stdlib_module_names or is_package(root / entry))
    return names


def modules_of(roots: tuple[Path, ...], facts: Mapping[str, FileFacts]) -> dict[str, tuple[FileFacts, str]]:
    """The package's files by module name (`pkg.sub.mod`), each with the package its relative imports start
    from; a package's name is its `__init__.py`'s. By the paths' text: every path is resolved, and a package's
    files are many."""
    modules = {}
    folders = [(os.path.normcase(os.path.join(root, "")),
                len(os.path.join(root.parent if is_package(root) else root, ""))) for root in roots]
    for path, file_facts in facts.items():
        under = os.path.normcase(path)
        named_from = next((start for folder, start in folders if under.startswith(folder)), None)
        if named_from is None:
            continue  # a link to a file outside the package's folders: no module name to import it by
        parts = os.path.splitext(path[named_from:])[0].split(os.sep)
        if parts[-1] == "__init__":
            parts.pop()
            package = ".".join(parts)
        else:
            package = ".".join(parts[:-1])
        if parts:
            modules[".".join(parts)] = (file_facts, package)
    return modules


def displayed(finding: Finding, path: str, display: str) -> Finding:
    """The finding, and its related places in the same file, under the name the front end gave the file."""
    related = tuple(place._replace(path=display) if place.path == path else place for place in finding.related)
    return replace(finding, path=display, related=related)
