"""A baseline: the findings a project accepts for now, so that only new ones are reported.

Entries are keyed by file (relative to the baseline's folder), enclosing `Class.method`, attribute or key, and
code, never by line, so that editing around a finding keeps it matched. Identical keys are counted: a file
with two identical findings needs both entries, and a third such finding is new.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from flake8_stale_state.findings import Finding

FORMAT_VERSION = 1


class BaselineError(Exception):
    pass


class Key(NamedTuple):
    path: str  # posix, relative to the baseline's folder
    context: str
    symbol: str
    code: str


class Baseline:
    def __init__(self, root: Path, counts: Counter[Key] | None = None) -> None:
        self.root = root.resolve()
        self.counts: Counter[Key] = counts if counts is not None else Counter()
        self.matched: Counter[Key] = Counter()
        self.checked_paths: set[str] = set()

    def key(self, finding: Finding) -> Key:
        path = Path(os.path.relpath(Path(finding.path).resolve(), self.root)).as_posix()
        return Key(path, finding.context, finding.symbol, finding.code)

    def new_findings(self, findings: Iterable[Finding]) -> list[Finding]:
        """The findings the baseline does not account for; give each file's findings in one call."""
        remaining = Counter(self.counts)
        used: Counter[Key] = Counter()
        new = []
        for finding in sorted(findings):
            key = self.key(finding)
            self.checked_paths.add(key.path)
            if remaining[key] > 0:
                remaining[key] -= 1
                used[key] += 1
            else:
                new.append(finding)
        for key, count in used.items():  # max, not sum: a file checked twice matches its entries once
            self.matched[key] = max(self.matched[key], count)
        return new

    def mark_checked(self, path: Path) -> None:
        """A file was checked, with or without findings: its entries can be told stale."""
        self.checked_paths.add(Path(os.path.relpath(path.resolve(), self.root)).as_posix())

    def unmatched(self) -> int:
        """Entries of checked or deleted files that no finding matched."""
        return sum(
            count - self.matched[key]
            for key, count in self.counts.items()
            if count > self.matched[key] and (key.path in self.checked_paths or not (self.root / key.path).exists())
        )


def load(path: Path) -> Baseline:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BaselineError(f"baseline {path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise BaselineError(f"baseline {path}: cannot read it: {error}") from None
    except json.JSONDecodeError as error:
        raise BaselineError(f"baseline {path}: not JSON: {error}") from None
    entries = data.get("findings") if isinstance(data, dict) else None
    if not isinstance(entries, list) or data.get("version") != FORMAT_VERSION:
        raise BaselineError(f"baseline {path}: not a stale-state baseline (version {FORMAT_VERSION})")
    counts: Counter[Key] = Counter()
    for number, entry in enumerate(entries, 1):
        try:
            key = Key(*(entry[field] for field in Key._fields))
            count = entry.get("count", 1)
        except (TypeError, KeyError, AttributeError):
            raise BaselineError(f"baseline {path}: entry {number} needs {', '.join(Key._fields)}") from None
        if not all(isinstance(part, str) for part in key) or not isinstance(count, int) or count < 1:
            raise BaselineError(f"baseline {path}: entry {number} is malformed")
        counts[key] += count
    return Baseline(path.parent, counts)


def dumps(baseline: Baseline) -> str:
    """Sorted, one entry a line, so that a change of baseline reads as a plain diff."""
    lines = []
    for key, count in sorted(baseline.counts.items()):
        entry = {**key._asdict(), **({"count": count} if count > 1 else {})}
        lines.append("    " + json.dumps(entry, ensure_ascii=False))
    body = ",\n".join(lines)
    return f'{{\n  "version": {FORMAT_VERSION},\n  "findings": [\n{body}\n  ]\n}}\n' if lines else (
        f'{{\n  "version": {FORMAT_VERSION},\n  "findings": []\n}}\n')


def write(path: Path, findings: Iterable[Finding]) -> int:
    """Record `findings` as the baseline at `path`; the number of entries written."""
    baseline = Baseline(path.parent)
    baseline.counts.update(baseline.key(finding) for finding in findings)
    path.write_text(dumps(baseline), encoding="utf-8")
    return sum(baseline.counts.values())
