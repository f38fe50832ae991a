"""The ast pre-pass and the libcst pass agree: same facts for the index, same findings."""

from __future__ import annotations

import pytest

from conftest import FIXTURES, REPO
from flake8_stale_state.engine import Analyzer
from flake8_stale_state.index import full_facts
from flake8_stale_state.package import python_files
from flake8_stale_state.settings import Settings
from flake8_stale_state.summary import summarize

SOURCES = sorted([*python_files(FIXTURES), *python_files(REPO / "flake8_stale_state"), *python_files(REPO / "tests")])


def index_facts(facts):
    """What the package index is built from (positions excepted: ast counts columns in bytes)."""
    return (
        sorted(w._replace(col=0) for w in facts.writes),
        facts.reads,
        facts.receiver_reads,
        facts.classes,
        facts.error is None,
    )


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(REPO)) for p in SOURCES])
def test_summary_has_the_facts_libcst_finds(path):
    source = path.read_bytes()
    assert index_facts(summarize(str(path), source)) == index_facts(full_facts(str(path), source))


def test_findings_are_the_same_with_and_without_the_prepass():
    def findings(prepass):
        analyzer = Analyzer(Settings(use_cache=False, prepass=prepass))
        return [f for case in FIXTURES.glob("*/*") for path in python_files(case) for f in analyzer.check(path)]

    with_prepass = findings(True)
    assert with_prepass and with_prepass == findings(False)
