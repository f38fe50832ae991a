"""Every fixture case: its findings are its snapshot, which agrees with the `# expect: CODE` comments, and its
fixed sources are its `.py.fixed` files."""

from __future__ import annotations

import os

import pytest

from conftest import (
    CASES, FIXED, FIXTURES, SNAPSHOT, UPDATE, Analyzer, Settings, case_findings, case_fixes, expected_findings,
    fixed_path, snapshot_text,
)

IDS = [os.path.relpath(case, FIXTURES) for case in CASES]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_findings_are_the_snapshot(case):
    snapshot = case / SNAPSHOT
    assert snapshot.is_file(), f"{snapshot} is missing: {UPDATE}"
    assert snapshot_text(case_findings(case)) == snapshot.read_text(encoding="utf-8"), f"findings changed: {UPDATE}"


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_snapshot_agrees_with_the_expect_comments(case):
    """A snapshot is written by a script; the comments are what a person reads: they must say the same."""
    recorded = []
    for line in (case / SNAPSHOT).read_text(encoding="utf-8").splitlines():
        path, number, _, rest = line.split(":", 3)
        recorded.append((path, int(number), rest.split()[0]))
    assert sorted(recorded) == expected_findings(case), f"the `# expect:` comments and {SNAPSHOT} disagree"


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_fixed_sources_are_the_fixed_files(case):
    for path, (source, fixed) in case_fixes(case).items():
        expected = fixed_path(path)
        if expected.exists():
            assert fixed == expected.read_bytes().decode("utf-8"), f"{expected} is stale: {UPDATE}"
        else:
            assert fixed == source, f"{expected} is missing: {UPDATE}"
    for expected in case.rglob("*" + FIXED):
        original = expected.with_name(expected.name.removesuffix(FIXED))
        assert original.is_file(), f"{expected} fixes no file: {UPDATE}"


@pytest.mark.parametrize("case", [case for case in CASES if any(fixed_path(p).exists() for p in case.rglob("*.py"))],
                         ids=lambda case: os.path.relpath(case, FIXTURES))
def test_a_fix_leaves_none_of_the_findings_it_fixes(case):
    """The same finding, as a baseline tells it: the same code, method and attribute (a fix moves lines)."""
    analyzer = Analyzer(Settings(use_cache=False))

    def fixable(findings):
        return {(f.code, f.context, f.symbol) for f in findings if f.fix}

    for path, (source, fixed) in case_fixes(case).items():
        if fixed != source:
            before, after = fixable(analyzer.check(path, source)), fixable(analyzer.check(path, fixed))
            assert before and not before & after


def test_fixed_files_are_no_part_of_the_package_they_sit_in():
    analyzer = Analyzer(Settings(use_cache=False))
    for expected in FIXTURES.rglob("*" + FIXED):
        index = analyzer.index_for(expected.with_name(expected.name.removesuffix(FIXED)))
        assert str(expected.resolve()) not in index.files and all(key.endswith(".py") for key in index.files)


def test_fixtures_cover_every_check():
    from flake8_stale_state.checks import RULES

    expected_codes = {code for case in CASES for _, _, code in expected_findings(case)}
    assert {rule.code for rule in RULES} <= expected_codes
