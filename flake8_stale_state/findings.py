"""A finding, and the `# noqa` rules flake8 applies to it."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple
from pathlib import Path

# flake8's own pattern (flake8.defaults.NOQA_INLINE_REGEXP), so both front ends agree
NOQA = re.compile(r"# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?", re.IGNORECASE)
# a line of its own, searched for in the file's lines joined by "\n" at once rather than line by line
NOQA_FILE = re.compile(r"^[^\S\n]*# flake8[:=][^\S\n]*noqa", re.IGNORECASE | re.MULTILINE)
CODE = re.compile(r"[A-Z]+[0-9]+", re.IGNORECASE)


class Location(NamedTuple):
    """A place a finding refers to beside its own: SS103's seed and other assignments, SS102's guard."""

    path: str
    line: int  # 1-based
    col: int  # 0-based
    message: str  # what is there


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    line: int  # 1-based
    col: int  # 0-based, as flake8 plugins report it
    code: str
    message: str
    symbol: str = ""  # the attribute or key the finding is about
    context: str = ""  # enclosing Class.method
    suggestion: str = ""  # the name to write instead of `symbol` (SS101's hint): an editor's rename
    related: tuple[Location, ...] = ()
    fix: str = ""  # what the rule's fix does for this finding, where it has one: "Insert 'self.results = []'"

    def text(self) -> str:
        return f"{self.path}:{self.line}:{self.col + 1}: {self.code} {self.message}"


def is_silenced(finding: Finding, lines: Sequence[str]) -> bool:
    if not 1 <= finding.line <= len(lines):
        return False
    match = NOQA.search(lines[finding.line - 1])
    if match is None:
        return False
    codes = match.group("codes")
    if not codes:
        return True
    return any(finding.code.upper().startswith(code.upper()) for code in CODE.findall(codes))


def without_silenced(findings: Iterable[Finding], lines: Sequence[str]) -> list[Finding]:
    if NOQA_FILE.search("\n".join(lines)):
        return []
    return [f for f in findings if not is_silenced(f, lines)]


def selected(code: str, select: Sequence[str], ignore: Sequence[str]) -> bool:
    """flake8's rule: the longest matching prefix decides, select wins a tie."""
    chosen = max((len(p) for p in select if code.startswith(p)), default=-1) if select else 0
    dropped = max((len(p) for p in ignore if code.startswith(p)), default=-1)
    return chosen >= 0 and chosen >= dropped


def relative_path(path: str) -> str:
    """Relative to the folder the command ran in where the path is below it, as CI systems and code scanning
    match paths to the repository; otherwise as given."""
    file = Path(path)
    if file.is_absolute():
        try:
            return file.relative_to(Path.cwd()).as_posix()
        except ValueError:
            return path
    return file.as_posix()


@dataclass(frozen=True, order=True)
class Problem:
    """A path the run could not analyse (unparseable, unreadable, missing): reported beside the findings."""

    path: str
    message: str
