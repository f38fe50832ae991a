"""A file's findings remembered with what they were made from, for a front end that checks one file of a
package in a process of its own (flake8 reading stdin, as editors run it on opening and saving a file); and a
whole package's, for a run that checks every file of it as the disk holds them (the command, run again on an
unchanged tree): where nothing the findings were made from has changed, they are the findings, and the
package's index is not built.

Findings are made from the tool's code and settings, the checked content, the package's files and the
project's documentation pages, the Python running the check and the environment being checked: these key the
entry, files by their status (size, times, inode; one changed within `RACY_NANOSECONDS` of being looked at is
not trusted, and nothing is remembered). They are made too from what the environment answered: which
top-level modules are installed, and where each module the package's bases come from is (`ModuleFinder`), with
that file's status. Those answers are stored in the entry and asked again when it is read.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterable
from dataclasses import replace
from typing import NamedTuple

from flake8_stale_state.cache import FactsCache, entry_key
from flake8_stale_state.codec import decode, encode
from flake8_stale_state.environment import Environment
from flake8_stale_state.findings import Finding
from flake8_stale_state.index import file_status, trusted
from flake8_stale_state.library_bases import ModuleFinder
from flake8_stale_state.settings import Settings

KIND = "findings"


class Remembered(NamedTuple):
    findings: tuple[Finding, ...]  # as the check made them, under the file's resolved path
    missing: tuple[str, ...]  # the bases the check found missing from the environment


def inputs_key(settings: Settings, environment: Environment, path: str, digest: str,
               statuses: Iterable[tuple[str, list[int] | None]], since: int) -> str | None:
    """The key of the findings of the content `digest` of the file `path`, given the statuses of the package's
    files and pages; None where a status cannot be trusted (a file gone, or changed a moment ago)."""
    statuses = list(statuses)
    if not all(trusted(status, since) for _, status in statuses):
        return None
    # where the cache lives, and whether it is used, change no finding
    settings = replace(settings, cache_dir=None, run_cache_dir=None, use_cache=True, package_entries=True)
    inputs = [repr(settings), repr(environment), sys.version, path, digest, statuses]
    return hashlib.sha256(json.dumps(inputs, default=str).encode()).hexdigest()


def package_key(settings: Settings, environment: Environment, roots: Iterable[str],
                statuses: Iterable[tuple[str, list[int] | None]], since: int) -> str | None:
    """The key of the findings of a whole package, every file as the disk holds it (`inputs_key`: the files'
    statuses stand for their contents)."""
    return inputs_key(settings, environment, "+".join(roots), "", statuses, since)


def recall(cache: FactsCache, key: str, finder: ModuleFinder) -> Remembered | None:
    """The findings remembered under `key`, if the environment answers as it did when they were made."""
    data = cache.load_entry(entry_key(key, KIND))
    try:
        if data is None or any(finder.has(top) is not installed for top, installed in data["installed"].items()):
            return None
        for module, found in data["sources"].items():
            path = finder.source(module)
            if (None if path is None else [str(path), file_status(path)]) != found:
                return None
        return Remembered(decode(tuple[Finding, ...], data["findings"]), tuple(map(str, data["missing"])))
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def remember(cache: FactsCache, key: str, remembered: Remembered, finder: ModuleFinder, since: int) -> None:
    """Keep the findings under `key` with the answers `finder` gave while they were made, unless a file it
    found changed a moment ago."""
    sources = {module: None if path is None else [str(path), file_status(path)]
               for module, path in finder.sources.items()}
    if all(found is None or trusted(found[1], since) for found in sources.values()):
        cache.store_entry(entry_key(key, KIND), {
            "findings": encode(remembered.findings), "missing": list(remembered.missing),
            "installed": dict(finder.installed), "sources": sources,
        })
