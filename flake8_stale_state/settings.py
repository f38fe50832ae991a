"""Options shared by every front end, with one meaning each."""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    roots: tuple[Path, ...] = ()  # folders forming one package, overriding discovery
    ignore_names: tuple[str, ...] = ()  # attribute names (glob patterns) never reported
    cache_dir: Path | None = None  # None: the default location
    use_cache: bool = True
    framework_bases: tuple[str, ...] = ()  # base class or decorator names whose attribute writes count as read
    python: Path | None = None  # the interpreter or virtual environment whose libraries bases come from
    prepass: bool = True  # the pre-pass decides which files the collectors read; findings are the same without
    # where the cache is off, a folder the processes of one run share their facts through (flake8's workers
    # under spawn or forkserver); None: no cache at all
    run_cache_dir: Path | None = None
    package_entries: bool = True  # False for a tree seen once (a temporary checkout): its entry would never be read

    def ignores(self, name: str) -> bool:
        return any(fnmatch.fnmatchcase(name, pattern) for pattern in self.ignore_names)


def split_list(value: str | list[str] | None) -> list[str]:
    """`a, b` or `a\\n b` or an already-split list, as flake8 accepts comma-separated options."""
    if value is None:
        return []
    items = value if isinstance(value, list) else [value]
    return [part.strip() for item in items for part in item.replace("\n", ",").split(",") if part.strip()]
