"""One way through for every front end: package → index → checks → findings."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from flake8_stale_state.cache import FactsCache, content_key, default_cache_dir, disabled
from flake8_stale_state.checks import CHECKS
from flake8_stale_state.findings import Finding
from flake8_stale_state.index import PackageIndex, facts_of_source, gather_facts, read_source
from flake8_stale_state.package import package_files, package_root, python_files
from flake8_stale_state.settings import Settings

UNANALYSED = "SS000"


class Analyzer:
    """Builds each package's index once and checks files against it."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.roots = tuple(root.resolve() for root in settings.roots)
        self._indexes: dict[tuple[Path, ...], PackageIndex] = {}

    def _package(self, path: Path) -> tuple[tuple[Path, ...], str]:
        resolved = path.resolve()
        if any(resolved.is_relative_to(root) for root in self.roots):
            return self.roots, "+".join(root.name for root in self.roots)
        root = package_root(path)
        return (root,), root.name

    def _cache(self, root: Path) -> FactsCache:
        if not self.settings.use_cache or disabled():
            return FactsCache(None)
        return FactsCache(self.settings.cache_dir or default_cache_dir(root))

    def index_for(self, path: Path) -> PackageIndex:
        roots, name = self._package(path)
        index = self._indexes.get(roots)
        if index is None:
            if roots == self.roots:
                files = [f for root in roots for f in python_files(root)]
            else:
                files = package_files(roots[0])
            index = PackageIndex(name, roots[0], gather_facts(files, self._cache(roots[0])))
            self._indexes[roots] = index
        return index

    def check(self, path: Path, source: str | bytes | None = None, display: str | None = None) -> list[Finding]:
        """Findings for one file; `source` stands for the file's content when it is not the disk's (stdin, editor)."""
        display = display or str(path)
        index = self.index_for(path)
        key = str(path.resolve())
        if source is None:
            source = read_source(path)
            if source is None:
                return [Finding(display, 1, 0, UNANALYSED, "stale-state could not read this file")]
        data = source.encode("utf-8", "surrogateescape") if isinstance(source, str) else source
        facts = index.files.get(key)
        if facts is None or facts.digest != content_key(data):
            facts = facts_of_source(key, source)
            facts.digest = content_key(data)
            index = index.with_file(facts)
        if facts.error:
            return [Finding(display, 1, 0, UNANALYSED, f"stale-state could not analyse this file: {facts.error}")]
        findings = [replace(f, path=display) for check in CHECKS for f in check.check(facts, index, self.settings)]
        return sorted(findings)
