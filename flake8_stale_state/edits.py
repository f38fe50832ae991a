"""A finding's fix as the lines it changes: what editors apply (LSP quick fixes) and SARIF `fixes` carry."""

from __future__ import annotations

from typing import NamedTuple

from flake8_stale_state.checks import rule_of
from flake8_stale_state.findings import Finding


class LineEdit(NamedTuple):
    first: int  # 0-based: the first line replaced
    end: int  # 0-based: the line after the last one replaced (== first: an insertion)
    text: str  # the lines put there, with their line ends


def line_edits(old: str, new: str) -> list[LineEdit]:
    """The changed lines between two versions of a text, as edits of the old one."""
    import difflib  # where a fix is made: most runs make none

    old_lines, new_lines = old.splitlines(keepends=True), new.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False)
    return [LineEdit(first, end, "".join(new_lines[start:stop]))
            for tag, first, end, start, stop in matcher.get_opcodes() if tag != "equal"]


def fix_edits(source: str, finding: Finding) -> list[LineEdit]:
    """The edits of `source` that fix `finding` alone (with what its rule fixes together with it); none where
    its rule has no fix for it."""
    rule = rule_of(finding.code)
    if rule is None or rule.fix is None or not finding.fix:
        return []
    return line_edits(source, rule.fix(source, [finding]))
