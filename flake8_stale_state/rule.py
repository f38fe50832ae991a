"""What a check declares: the one shape through which the engine, the cache, the front ends and the docs see it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from flake8_stale_state.facts import Collecting, FileFacts
    from flake8_stale_state.findings import Finding
    from flake8_stale_state.index import PackageIndex
    from flake8_stale_state.settings import Settings

    Verdict = Callable[[FileFacts, PackageIndex, Settings], bool]
    Lines = Callable[[FileFacts, PackageIndex, Settings], set[int]]
    Check = Callable[[FileFacts, PackageIndex, Settings], Iterable[Finding]]
    Fix = Callable[[str, Iterable[Finding]], str]


class Example(NamedTuple):
    """One module as a package of its own: the rule reports exactly the lines whose comment starts with its code
    (`# SS101`), and nothing where there is none. Tests run every example; SARIF help and the README show them."""

    title: str
    source: str

    def marked_lines(self, code: str) -> set[int]:
        marker = re.compile(rf"#\s*{re.escape(code)}\b")
        return {number for number, line in enumerate(self.source.splitlines(), 1) if marker.search(line)}


@dataclass(frozen=True)
class Rule:
    code: str  # "SS101"
    name: str  # "dead-attribute", SARIF's rule name
    title: str  # the README heading after the code: "attribute written, never read"
    summary: str  # one line: what is reported
    reported_at: str  # where a finding points: "`self.X`"
    description: str  # the definition, as the README gives it
    examples: tuple[Example, ...]  # reported ones (marked) and near misses that stay quiet
    check: Check  # findings of one file, from its facts and its package's index
    may_report: Verdict | None = None  # the pre-pass verdict on a file's summary; False: `check` finds nothing
    lines_needed: Lines | None = None  # the lines its collector must see, where the summary can tell
    collecting: Collecting | None = None  # facts of its own, beyond the shared attribute facts
    fix: Fix | None = None  # the source with the given findings of this rule fixed
    names_missing_bases: bool = False  # its findings depend on what library bases read: name those not found

    @property
    def anchor(self) -> str:
        """The README heading's anchor, as GitHub makes it."""
        heading = f"{self.code}: {self.title}".lower()
        return re.sub(r"[^\w\- ]", "", heading).replace(" ", "-")
