"""An editor's change to one file: the index keeps what the change leaves true, and only that.

The index's tables are many and made of every file; remaking them all after each pause in typing would cost
most of an editor's wait. `PackageIndex.with_file` keeps those the edited file's new facts leave as they were:
all of them where only positions moved, those made of the files' structure where the file still defines and
imports what it did. Each test checks every table, and every lookup asked so far, against a new index's.
"""

from __future__ import annotations

import ast
import random
from functools import cached_property
from pathlib import Path

import pytest

from conftest import CASES, FIXTURES
from flake8_stale_state.engine import Analyzer
from flake8_stale_state.homonyms import References
from flake8_stale_state.index import PackageIndex
from flake8_stale_state.package import python_files
from flake8_stale_state.settings import Settings

TABLES = [name for name, value in vars(PackageIndex).items() if isinstance(value, cached_property)]


def every_table(index: PackageIndex) -> dict[str, object]:
    return {name: getattr(index, name) for name in TABLES}


def comparable(result: object) -> object:
    return result.keyed_facts() if isinstance(result, References) else result


def assert_as_made_afresh(index: PackageIndex) -> None:
    """Every table of `index`, and every lookup it was asked (`per_argument`), is what a new index of the same
    files gives."""
    fresh = PackageIndex(index.name, index.root, index.files, index.framework_bases, index.libraries,
                         index.documentation, index.read_by_users)
    assert every_table(index) == every_table(fresh)
    for name, results in list(index.__dict__.items()):
        lookup = name[1:].removesuffix("_by_argument") if name.endswith("_by_argument") else ""
        for argument, result in list(results.items()) if hasattr(PackageIndex, lookup) else ():
            assert comparable(result) == comparable(getattr(fresh, lookup)(argument)), (name, argument)


def test_an_edit_keeps_the_lookups_it_leaves_true_and_only_those(tmp_path: Path):
    """Lines added above, or between two writes, move the file's facts but name what they named: the lookups
    made of names are kept, and only what depends on where writes stand (side by side or apart) is made again.
    An edit inside a method keeps what is made of what the file defines and imports (the class hierarchy);
    one defining a class keeps nothing. Every lookup and every finding is then what an index made afresh
    gives."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "b.py").write_text("def use(grammar):\n    return grammar.other\n")
    module = package / "a.py"
    source = (
        "import logging\n"
        "\n"
        "class Grammar(logging.Handler):\n"
        "    def build(self):\n"
        "        self.sr_conflict = 0\n"
        "        self.sr_conflicts = []\n"
        "        self.dead = 1\n"
        "        self.level = 0\n"
        "\n"
        "    def report(self):\n"
        "        return self.sr_conflicts\n"
    )
    module.write_text(source)
    analyzer = Analyzer(Settings(use_cache=False))
    before = analyzer.index_for(module)

    def found(source: str) -> list[tuple[int, str, str]]:
        return [(f.line, f.symbol, f.suggestion) for f in analyzer.check(module, source)]

    def afresh(source: str) -> list[tuple[int, str, str]]:
        return [(f.line, f.symbol, f.suggestion) for f in Analyzer(Settings(use_cache=False)).check(module, source)]

    def edited_as_made_afresh(source: str) -> PackageIndex:
        assert analyzer.update(module, source)
        edited = analyzer.index_for(module)
        assert_as_made_afresh(edited)
        return edited

    # side by side, `sr_conflicts` is another attribute, not what `sr_conflict` drifted from: no hint
    assert found(source) == afresh(source) == [(5, "sr_conflict", ""), (7, "dead", "")]
    every_table(before)  # all made, so that any kept wrongly would show
    made = before.read_names, before.traits, before.names_read_on("Grammar"), before.library_reads

    moved = "# a comment\n" * 3 + source
    after = edited_as_made_afresh(moved)
    assert after.read_names is made[0] and after.names_read_on("Grammar") is made[2]  # kept, not made again
    assert found(moved) == afresh(moved) == [(8, "sr_conflict", ""), (10, "dead", "")]

    apart = source.replace("        self.sr_conflicts", "        # a comment\n" * 5 + "        self.sr_conflicts", 1)
    assert edited_as_made_afresh(apart).read_names is made[0]
    assert found(apart) == afresh(apart) == [(5, "sr_conflict", "sr_conflicts"), (12, "dead", "")]

    renamed = apart.replace("self.dead = 1", "self.alive = 1")  # names read and written change, classes do not
    within = edited_as_made_afresh(renamed)
    assert within.traits is made[1] and within.library_reads is made[3]  # the hierarchy's, kept
    assert within.read_names is not made[0]  # the reads', made again
    assert found(renamed) == afresh(renamed) == [(5, "sr_conflict", "sr_conflicts"), (12, "alive", "")]

    defining = renamed + "\n\nclass Rule(Grammar):\n    def fire(self):\n        return self.alive\n"
    assert edited_as_made_afresh(defining).traits is not made[1]
    assert found(defining) == afresh(defining) == [(5, "sr_conflict", "sr_conflicts")]


def method_statements(source: str) -> list[ast.stmt]:
    """The statements of the file's methods that begin their lines, nested ones too."""
    lines = source.splitlines()
    return [statement for cls in ast.walk(ast.parse(source)) if isinstance(cls, ast.ClassDef)
            for method in cls.body if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef))
            for statement in ast.walk(method) if isinstance(statement, ast.stmt) and statement is not method
            and not getattr(statement, "decorator_list", None) and statement.lineno > method.lineno
            and not lines[statement.lineno - 1][:statement.col_offset].strip()]


def replaced_by_pass(source: str, statement: ast.stmt) -> str:
    lines = source.splitlines(keepends=True)
    first, last = statement.lineno - 1, statement.end_lineno or statement.lineno
    return "".join([*lines[:first], " " * statement.col_offset + "pass\n", *lines[last:]])


@pytest.mark.parametrize("case", CASES, ids=lambda case: str(case.relative_to(FIXTURES)))
def test_an_edit_of_any_fixture_file_keeps_only_what_it_leaves_true(case: Path):
    """In every fixture package, each file edited in turn: lines added above it; statements of its methods
    replaced by `pass` one at a time (a seeded sample of three), which change what is read and written and
    mostly leave the structure; a class added, which keeps nothing. The lookups are checked after each."""
    for path in python_files(case):
        source = path.read_text(encoding="utf-8")
        analyzer = Analyzer(Settings(use_cache=False))
        analyzer.check(path)
        every_table(analyzer.index_for(path))
        statements = method_statements(source)
        sample = random.Random(path.name).sample(statements, min(3, len(statements)))
        edits = ["# a comment\n" * 2 + source, *(replaced_by_pass(source, statement) for statement in sample),
                 source + "\n\nclass Added:\n    pass\n"]
        for edited in edits:
            if analyzer.update(path, edited):
                analyzer.check(path, edited)
                assert_as_made_afresh(analyzer.index_for(path))
