"""The ast pre-pass and the libcst pass agree: same facts for the index, same findings."""

from __future__ import annotations

import pytest

from conftest import FIXTURES, REPO
from flake8_stale_state.engine import Analyzer
from flake8_stale_state.index import full_facts
from flake8_stale_state.package import python_files
from flake8_stale_state.settings import Settings
from flake8_stale_state.summary import GUARDED_LOOP, SEEDED, SEEDING_METHOD, summarize

SOURCES = sorted([*python_files(FIXTURES), *python_files(REPO / "flake8_stale_state"), *python_files(REPO / "tests")])


def attributes_read(source):
    """Every attribute read by attribute syntax (`obj.name`), as Python stores the name."""
    import ast

    return {node.attr for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Store)
            and not (node.attr.startswith("__") and not node.attr.endswith("__"))}


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(REPO)) for p in SOURCES])
def test_libcst_facts_of_a_file_python_cannot_parse_are_the_summarys_and_read_more(path, monkeypatch):
    """Where Python parses a file, libcst's facts take the index's from its summary. Where it cannot (newer
    syntax than the running Python's), libcst's own walk stands in: the same writes at the same places, and
    every name the summary reads read for every class, so that it can only report less."""
    from flake8_stale_state import cst_facts

    source = path.read_bytes()
    summary = summarize(str(path), source)
    assert full_facts(str(path), source).writes == summary.writes
    monkeypatch.setattr(cst_facts, "python_tree", lambda source: None)
    fallback = full_facts(str(path), source)
    unshared = [write._replace(shared=True) for write in summary.writes]
    assert fallback.writes == unshared
    assert (fallback.classes.keys(), fallback.documented <= summary.documented, fallback.imports) == (
        summary.classes.keys(), True, summary.imports)
    assert attributes_read(source) <= fallback.reads


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


SEED_SHAPES = {
    # (the seeding method's decorators, its body, a later read, whether the pre-pass lets libcst look)
    "seed and read by key": ("", "self.k = self.cfg['k']", "self.cfg['k']", True),
    "through a local alias": ("", "pipe = self.cfg.pipe\n        self.k = pipe['k']", "self.cfg.pipe['k']", True),
    "through a bound parameter": ("", "self.cfg = cfg\n        self.k = cfg.get('k')", "self.cfg.get('k')", True),
    "on an attribute of the receiver": ("", "self.mod.k = getattr(self.cfg, 'k')", "self.cfg['k']", True),
    "copied off the receiver itself": ("", "args.k = self.k", "args.k", False),
    "owner is a loop variable": ("", "for p in self.ps:\n            p.k = self.cfg['k']", "self.cfg['k']", False),
    "config is a loop variable": ("", "for c in self.cs:\n            self.k = c['k']", "self.cfg['k']", False),
    "owner is a call": ("", "make().k = self.cfg['k']", "self.cfg['k']", False),
    "in a static method": ("@staticmethod\n    ", "self.k = self.cfg['k']", "self.cfg['k']", False),
}


@pytest.mark.parametrize("decorators, seed, read, signalled", SEED_SHAPES.values(), ids=SEED_SHAPES)
def test_the_seed_prepass_clears_only_what_libcst_finds_nothing_in(decorators, seed, read, signalled):
    source = (
        f"class A:\n    {decorators}def setup(self, cfg):\n        {seed}\n\n"
        f"    def use(self):\n        return {read}\n\n"
        "    def move(self):\n        self.k = 2\n        self.mod.k = 3\n"
    )
    assert (SEEDED + "k" in summarize("m.py", source).signals) == signalled
    assert bool(full_facts("m.py", source).checks["SS103"]["reads"]) == signalled  # a finding, or none


SEEDING_CLASS = """\
class Engine:
    def __init__(self, module, config):
        self.module = module
        self._config = config
        pipe = self._config.pipeline
        self.module.interval = pipe.interval

    def load(self):
        return self._config.pipeline.interval > 0

    def describe(self):
        return self._config.pipeline.stages

    def unrelated(self):
        self.total = sum(self.sizes)
        return self.total


class Module:
    def set_interval(self, interval):
        self.interval = interval
"""


def test_libcst_sees_the_methods_that_name_a_seed_and_finds_there_what_it_finds_in_the_whole_file():
    """`describe` names no key but the config's first step: it reads a second value of the config, which
    tells a config from one attribute of a live object. `unrelated` names neither, and is left out."""
    summary = summarize("m.py", SEEDING_CLASS)
    methods = {signal.removeprefix(SEEDING_METHOD) for signal in summary.signals if signal.startswith(SEEDING_METHOD)}
    assert methods == {"2-6", "8-9", "11-12"}
    whole = full_facts("m.py", SEEDING_CLASS).checks["SS103"]
    lines = {*range(2, 7), *range(8, 10), *range(11, 13), 21}  # with the other assignment of the key
    assert full_facts("m.py", SEEDING_CLASS, ["SS103"], lines).checks["SS103"] == whole
    assert [read["line"] for read in whole["reads"]] == [9]
    # without `describe`, the pipeline would be read for one value only: no config, and no finding
    assert not full_facts("m.py", SEEDING_CLASS, ["SS103"], lines - {11, 12}).checks["SS103"]["reads"]


CONFIG_CHAINS = {
    "on the receiver": "self.interval = self._config['interval']",
    "through a local name": "pipe = self._config.pipe\n        self.interval = pipe['interval']",
    "through a chain of local names": "a = self._config\n        b = a.pipe\n        self.interval = b['interval']",
    "through a bound parameter": "self._config = cfg\n        self.interval = cfg.get('interval')",
    "through a name for the receiver": "me = self\n        self.interval = me._config['interval']",
}


@pytest.mark.parametrize("seed", CONFIG_CHAINS.values(), ids=CONFIG_CHAINS)
def test_a_method_naming_the_first_step_of_a_seeds_config_is_seen(seed):
    source = (
        f"class A:\n    def setup(self, cfg):\n        {seed}\n\n"
        "    def use(self):\n        return self._config.get('interval')\n\n"
        "    def other(self):\n        return self._config['stages']\n\n"
        "    def unrelated(self):\n        return self.pipe\n"
    )
    seeded = {signal.removeprefix(SEEDING_METHOD) for signal in summarize("m.py", source).signals
              if signal.startswith(SEEDING_METHOD)}
    lines = len(seed.splitlines())
    assert seeded == {f"2-{2 + lines}", f"{4 + lines}-{5 + lines}", f"{7 + lines}-{8 + lines}"}


REBUILD_SHAPES = {
    "guarded rebuild": ("self.key != key", "self.key = key", "self.rows.append(x)", True),
    "key on the right, in an and": ("ready and key != self.key", "self.key = key", "self.rows += [x]", True),
    "block does not assign the key": ("self.key != key", "other = key", "self.rows.append(x)", False),
    "no append in the loop": ("self.key != key", "self.key = key", "print(x)", False),
    "appends to a local list": ("self.key != key", "self.key = key", "rows.append(x)", False),
    "equality, not inequality": ("self.key == key", "self.key = key", "self.rows.append(x)", False),
}


@pytest.mark.parametrize("test, update, append, signalled", REBUILD_SHAPES.values(), ids=REBUILD_SHAPES)
def test_the_rebuild_prepass_clears_only_what_libcst_finds_nothing_in(test, update, append, signalled):
    source = (
        "class A:\n    def __init__(self):\n        self.rows = []\n\n"
        "    def load(self, key, ready, rows):\n"
        f"        if {test}:\n            for x in key:\n                {append}\n            {update}\n"
    )
    assert (GUARDED_LOOP in summarize("m.py", source).signals) == signalled
    assert bool(full_facts("m.py", source).checks["SS102"]) == signalled


def test_libcst_is_told_the_methods_of_each_collector_as_its_own_lookup_would_find_them():
    import libcst as cst

    from flake8_stale_state.checks import collectors
    from flake8_stale_state.cst_facts import AttributeCollector, ScopeCloser, ScopeOpener
    from flake8_stale_state.scope import Scope

    for visitor_class in (ScopeOpener, ScopeCloser, AttributeCollector, *collectors().values()):
        visitor = visitor_class(Scope())
        own = visitor.get_visitors()
        assert own and own == cst.BatchableCSTVisitor.get_visitors(visitor)
