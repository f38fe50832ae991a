"""Every fixture case: the findings are exactly the `# expect: CODE` comments, no more, no fewer."""

from __future__ import annotations

import os

import pytest

from conftest import FIXTURES, expected_findings
from flake8_stale_state.engine import Analyzer
from flake8_stale_state.package import python_files
from flake8_stale_state.settings import Settings

CASES = sorted(case for case in FIXTURES.glob("*/*") if case.is_dir())


def findings_in(case):
    analyzer = Analyzer(Settings(use_cache=False))
    return {
        (os.path.relpath(finding.path, case), finding.line, finding.code)
        for path in python_files(case)
        for finding in analyzer.check(path)
    }


@pytest.mark.parametrize("case", CASES, ids=[os.path.relpath(c, FIXTURES) for c in CASES])
def test_fixture_case(case):
    assert findings_in(case) == expected_findings(case)


def test_fixtures_cover_every_check():
    from flake8_stale_state.checks import RULES

    expected_codes = {code for case in CASES for _, _, code in expected_findings(case)}
    assert {rule.code for rule in RULES} <= expected_codes
