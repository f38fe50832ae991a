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
from collections.abc import Mapping
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

    def _entry(self, key: str) -> Path:
        assert self.folder is not None
        return self.folder / key[:2] / f"{key}.json"

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
        if not self.writable:
            return
        import tempfile  # a run that writes nothing (a warm one) does without it

        path = self._entry(key)
        try:
            self._prepare(path.parent)
            fd, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as stream:
                # dumps, not dump: only the former uses the C encoder
                stream.write(json.dumps({"key": key, **entry}, separators=(",", ":")))
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

    def load_package(self, name: str, kind: str) -> dict[str, list]:
        """The package entry of `name` for facts of `kind`: resolved path -> [status, digest, facts data]; empty
        where there is none or it is unreadable (each record is checked where it is used)."""
        data = self._read(entry_key(PACKAGE + name, kind)) if self.packages else None
        files = data.get("files") if data is not None else None
        return files if isinstance(files, dict) else {}

    def store_package(self, name: str, kind: str, files: dict[str, list]) -> None:
        if self.packages:
            self._write(entry_key(PACKAGE + name, kind), {"files": files})

    def _prepare(self, folder: Path) -> None:
        if folder.is_dir():
            return
        folder.mkdir(parents=True, exist_ok=True)
        ignore = self.folder / ".gitignore"
        if not ignore.exists():
            ignore.write_text("*\n")


def disabled() -> bool:
    return os.environ.get("STALE_STATE_NO_CACHE", "") not in ("", "0")
