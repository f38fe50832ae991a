"""The drift benchmark (benchmarks/drift.py) as a test: renamed writes in real packages must be reported, with
the old name as the hint, and nothing else may change. A precision rule that silences real writes fails here."""

from __future__ import annotations

import sys

import pytest

from conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
import drift  # noqa: E402

pytestmark = pytest.mark.e2e

MIN_FLAGGED = 95.0  # percent of renamed writes reported as SS101
MIN_HINT = 90.0  # percent whose hint names the attribute before the rename
MAX_OTHER_CHANGES = 0  # findings away from the renamed writes that may differ


@pytest.fixture(scope="module")
def results():
    return {(r.tree, r.mode): r for r in drift.run()}


@pytest.mark.parametrize("mode", drift.MODES)
@pytest.mark.parametrize("tree", drift.TREES)
def test_renamed_writes_are_reported_with_their_old_name(results, tree, mode):
    result = results[tree, mode]
    assert drift.shortfalls([result], drift.WRITES, MIN_FLAGGED, MIN_HINT, MAX_OTHER_CHANGES) == [], (
        drift.table([result]) + "\n" + "\n".join(result.other_changes))
