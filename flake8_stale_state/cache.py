"""On-disk cache of file facts, keyed by content hash and tool version.

Entries are JSON, written atomically (temporary file + rename), so concurrent processes
never see half an entry; anything unreadable is treated as a miss and rebuilt. Beside each file's entry, a
package entry holds the facts of every file of a package, so that a warm run reads one file, not hundreds.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from itertools import chain
from pathlib import Path

from flake8_stale_state import __version__
from flake8_stale_state.facts import FileFacts

FORMAT = 2  # typed facts: signals and each check's own facts as their dataclasses encode them
PROJECT_MARKERS = ("setup.cfg", "pyproject.toml", "tox.ini", ".flake8", ".git")
PACKAGE = "package:"  # keys package entries apart from the content digests that key each file's


def source_digest(source: str | bytes) -> str:
    """The content key of a source: its bytes, or an editor's text as the file would hold it."""
    return hashlib.sha256(source.encode("utf-8", "surrogateescape") if isinstance(source, str) else source).hexdigest()


@functools.cache
def code_fingerprint() -> str:
    """The tool's own source: facts made by other code, even of the same version number, are not trusted."""
    digest = hashlib.sha256()
    for module in sorted(Path(__file__).parent.rglob("*.py")):
        digest.update(module.read_bytes())
    return digest.hexdigest()


def entry_key(digest: str, kind: str) -> str:
    """Facts depend on the source, on which collector made them, and on the code that collected them."""
    return hashlib.sha256(f"{__version__}:{FORMAT}:{code_fingerprint()}:{kind}:{digest}".encode()).hexdigest()


def project_root(start: Path) -> Path:
    """The nearest folder at or above `start` holding a project marker, else `start`."""
    for folder in (start, *start.parents):
        if any((folder / marker).exists() for marker in PROJECT_MARKERS):
            return folder
    return start


def default_cache_dir(package_root: Path) -> Path:
    configured = os.environ.get("STALE_STATE_CACHE_DIR")
    if configured:
        return Path(configured)
    return project_root(package_root) / ".stale_state_cache"


class FactsCache:
    def __init__(self, folder: Path | None, packages: bool = True) -> None:
        self.folder = folder
        self.writable = folder is not None
        self.packages = packages  # whether package entries are read and written

    def _entry(self, key: str, suffix: str = ".json") -> Path:
        assert self.folder is not None
        return self.folder / key[:2] / f"{key}{suffix}"

    def _read(self, key: str) -> dict | None:
        """The entry stored under `key`; None if there is none, or it is unreadable or stored under another."""
        if self.folder is None:
            return None
        try:
            with open(self._entry(key), encoding="utf-8") as stream:
                data = json.load(stream)
        except (OSError, ValueError, RecursionError):
            return None
        return data if isinstance(data, dict) and data.get("key") == key else None

    def _write(self, key: str, entry: dict) -> None:
        # dumps, not dump: only the former uses the C encoder
        self._write_lines(key, ".json", [json.dumps({"key": key, **entry}, separators=(",", ":"))])

    def _write_lines(self, key: str, suffix: str, lines: Iterable[str]) -> None:
        if not self.writable:
            return
        import tempfile  # a run that writes nothing (a warm one) does without it

        path = self._entry(key, suffix)
        try:
            self._prepare(path.parent)
            fd, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as stream:
                stream.writelines(f"{line}\n" for line in lines)
            os.replace(temporary, path)
        except OSError:
            # a read-only or full cache folder costs speed, never findings
            self.writable = False

    def load(self, path: str, key: str, facts_types: Mapping[str, type]) -> FileFacts | None:
        """The facts stored under `key`, with each check's own facts of the type `facts_types` gives its code."""
        data = self._read(key)
        try:
            return None if data is None else FileFacts.from_data(path, data["facts"], facts_types)
        except (ValueError, KeyError, TypeError, AttributeError):
            return None

    def store(self, key: str, facts: FileFacts) -> None:
        self._write(key, {"facts": facts.to_data()})

    def load_entry(self, key: str) -> dict | None:
        """An entry of another kind than facts, stored by `store_entry` (each part checked where it is used)."""
        return self._read(key)

    def store_entry(self, key: str, entry: dict) -> None:
        self._write(key, entry)

    def load_package(self, name: str, kind: str) -> dict[str, str]:
        """The package entry of `name` for facts of `kind`: resolved path -> the file's record, the JSON text of
        [status, digest, facts data]; empty where there is none or it is unreadable (each record is parsed and
        checked where it is used). A line per file, each parsed as its facts are taken: a package's facts
        decoded whole at once would stand in memory beside the facts made of them, twice their size."""
        if self.folder is None or not self.packages:
            return {}
        key = entry_key(PACKAGE + name, kind)
        records = {}
        try:
            with open(self._entry(key, ".jsonl"), encoding="utf-8") as stream:
                if json.loads(stream.readline()) != {"key": key}:
                    return {}
                for line in stream:
                    path, tab, record = line.rstrip("\n").partition("\t")
                    if not tab:
                        return {}
                    records[json.loads(path)] = record
        except (OSError, ValueError, RecursionError):
            return {}
        return records

    def store_package(self, name: str, kind: str, files: Mapping[str, str]) -> None:
        """`files`: resolved path -> the file's record as `load_package` gives it. JSON text holds no tab or
        line break but within its strings, where they are escaped."""
        if self.packages:
            key = entry_key(PACKAGE + name, kind)
            records = (f"{json.dumps(path)}\t{record}" for path, record in files.items())
            self._write_lines(key, ".jsonl", chain([json.dumps({"key": key})], records))

    def _prepare(self, folder: Path) -> None:
        if folder.is_dir():
            return
        folder.mkdir(parents=True, exist_ok=True)
        ignore = self.folder / ".gitignore"
        if not ignore.exists():
            ignore.write_text("*\n")


def disabled() -> bool:
    return os.environ.get("STALE_STATE_NO_CACHE", "") not in ("", "0")
