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
    """What the package index is built from, and the positions of the writes."""
    return (
        facts.writes,
        facts.reads,
        facts.receiver_reads,
        facts.classes,
        facts.documented,
        facts.imports,
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


NOT_ASCII = 'class A:\n    def f(self):\n        x = "é€"; self.y = 1\n        """é\n        é"""; self.z = 2\n'


@pytest.mark.parametrize("source, first_line", [
    (NOT_ASCII, 3), (NOT_ASCII.encode(), 3), (b"# coding: latin-1\n" + NOT_ASCII.encode("cp1252"), 4),
])
def test_write_columns_count_characters_as_libcst_does(source, first_line):
    writes = summarize("m.py", source).writes
    assert [(w.line, w.col) for w in writes] == [(first_line, 18), (first_line + 2, 14)]
    assert writes == full_facts("m.py", source).writes  # positions resolved by libcst
    assert writes == full_facts("m.py", source, codes=()).writes  # positions taken from ast


def test_libcst_writes_take_positions_from_ast_only_when_both_saw_the_same_writes():
    from flake8_stale_state.cst_facts import same_writes_placed

    located = summarize("m.py", NOT_ASCII).writes
    unplaced = [w._replace(line=0, col=0) for w in located]
    assert same_writes_placed(unplaced, located) == located
    assert same_writes_placed(unplaced[:1], located) is None  # ast saw a write libcst did not
    assert same_writes_placed(unplaced, located[:1]) is None
    assert same_writes_placed([unplaced[0]._replace(name="other"), unplaced[1]], located) is None
