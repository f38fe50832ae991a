"""The pre-pass and the checks' collectors agree: same facts for the index, same findings; and libcst's walk
stands in for a file Python rejects."""

from __future__ import annotations

import textwrap

import pytest

from conftest import CASES, FIXTURES, REPO, case_findings, full_facts
from flake8_stale_state.package import python_files
from flake8_stale_state.settings import Settings
from flake8_stale_state.summary import summarize

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
    every name the summary reads read for every class, so that it can only report less. It does not number
    the lists of statements, so it names no write as set beside another (hints are then only less picky)."""
    from flake8_stale_state import cst_facts, summary as summariser
    from flake8_stale_state.facts import FileFacts

    source = path.read_bytes()
    summary = summarize(str(path), source)
    assert full_facts(str(path), source).writes == summary.writes
    monkeypatch.setattr(cst_facts, "python_tree", lambda source: None)
    monkeypatch.setattr(summariser, "parsed_summary",
                        lambda path, source: (FileFacts(path, error="newer syntax"), None))
    fallback = full_facts(str(path), source)
    unshared = [write._replace(shared=True, block=0) for write in summary.writes]
    assert fallback.writes == unshared
    assert (fallback.classes.keys(), fallback.documented <= summary.documented, fallback.imports) == (
        summary.classes.keys(), True, summary.imports)
    assert attributes_read(source) <= fallback.reads


@pytest.mark.parametrize("case", CASES, ids=[str(case.relative_to(FIXTURES)) for case in CASES])
def test_findings_are_the_same_with_and_without_the_prepass(case):
    """Positions and messages too: the pre-pass decides only which files the collectors read."""
    with_prepass = case_findings(case, Settings(use_cache=False, prepass=True))
    assert with_prepass == case_findings(case, Settings(use_cache=False, prepass=False))


NOT_ASCII = 'class A:\n    def f(self):\n        x = "é€"; self.y = 1\n        """é\n        é"""; self.z = 2\n'


@pytest.mark.parametrize("source, first_line", [
    (NOT_ASCII, 3), (NOT_ASCII.encode(), 3), (b"# coding: latin-1\n" + NOT_ASCII.encode("cp1252"), 4),
])
def test_write_columns_count_characters_as_libcst_does(source, first_line):
    writes = summarize("m.py", source).writes
    assert [(w.line, w.col) for w in writes] == [(first_line, 18), (first_line + 2, 14)]
    assert writes == full_facts("m.py", source).writes


SEED_SHAPES = {
    # (the seeding method's decorators, its body, a later read, whether the pre-pass lets the collector look)
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
def test_the_seed_prepass_clears_only_what_the_collector_finds_nothing_in(decorators, seed, read, signalled):
    source = (
        f"class A:\n    {decorators}def setup(self, cfg):\n        {seed}\n\n"
        f"    def use(self):\n        return {read}\n\n"
        "    def move(self):\n        self.k = 2\n        self.mod.k = 3\n"
    )
    assert ("k" in summarize("m.py", source).signals.seeded) == signalled
    assert bool(full_facts("m.py", source).checks["SS103"].reads) == signalled  # a finding, or none


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


def test_the_collector_sees_the_methods_that_name_a_seed_and_finds_there_what_it_finds_in_the_whole_file():
    """`describe` names no key but the config's first step: it reads a second value of the config, which
    tells a config from one attribute of a live object. `unrelated` names neither, and is left out."""
    summary = summarize("m.py", SEEDING_CLASS)
    assert summary.signals.seeding_methods == ((2, 6), (8, 9), (11, 12))
    whole = full_facts("m.py", SEEDING_CLASS).checks["SS103"]
    lines = {*range(2, 7), *range(8, 10), *range(11, 13), 21}  # with the other assignment of the key
    assert full_facts("m.py", SEEDING_CLASS, ["SS103"], lines).checks["SS103"] == whole
    assert [read.line for read in whole.reads] == [9]
    # without `describe`, the pipeline would be read for one value only: no config, and no finding
    assert not full_facts("m.py", SEEDING_CLASS, ["SS103"], lines - {11, 12}).checks["SS103"].reads


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
    seeded = set(summarize("m.py", source).signals.seeding_methods)
    lines = len(seed.splitlines())
    assert seeded == {(2, 2 + lines), (4 + lines, 5 + lines), (7 + lines, 8 + lines)}


REBUILD_SHAPES = {
    "guarded rebuild": ("self.key != key", "self.key = key", "self.rows.append(x)", True),
    "key on the right, in an and": ("ready and key != self.key", "self.key = key", "self.rows += [x]", True),
    "block does not assign the key": ("self.key != key", "other = key", "self.rows.append(x)", False),
    "no append in the loop": ("self.key != key", "self.key = key", "print(x)", False),
    "appends to a local list": ("self.key != key", "self.key = key", "rows.append(x)", False),
    "equality, not inequality": ("self.key == key", "self.key = key", "self.rows.append(x)", False),
}


@pytest.mark.parametrize("test, update, append, signalled", REBUILD_SHAPES.values(), ids=REBUILD_SHAPES)
def test_the_rebuild_prepass_clears_only_what_the_collector_finds_nothing_in(test, update, append, signalled):
    source = (
        "class A:\n    def __init__(self):\n        self.rows = []\n\n"
        "    def load(self, key, ready, rows):\n"
        f"        if {test}:\n            for x in key:\n                {append}\n            {update}\n"
    )
    assert summarize("m.py", source).signals.guarded_loop == signalled
    assert bool(rebuilds(source, "guard")) == signalled


def rebuilds(source: str, shape: str) -> list:
    return [r for r in full_facts("m.py", source).checks["SS102"].found if r.shape == shape]


METHOD_SHAPES = {
    # (what __init__ binds, the method, whether the pre-pass lets the collector look, whether it finds a rebuild)
    "appends in a loop": ("[]", "def fit(self, X):\n        for x in X:\n            self.rows.append(x)", True, True),
    "extends": ("list()", "def load(self, X):\n        self.rows.extend(X)", True, True),
    "adds in place": ("[]", "def build(self):\n        self.rows += [1, 2]", True, True),
    "in parallel": ("[]", "def fit(self, X):\n        for x in X:\n            self.rows.append(x)\n"
                          "            self.other.append(x)", True, True),
    "reset at the top": ("[]", "def fit(self, X):\n        self.rows = []\n        self.rows.extend(X)", False, False),
    "cleared at the top": ("[]", "def fit(self, X):\n        self.rows.clear()\n        self.rows.extend(X)",
                           False, False),
    "reset in a branch before": ("[]", "def fit(self, X):\n        if X:\n            self.rows = []\n"
                                       "        self.rows.extend(X)", True, False),
    "reset in another branch": ("[]", "def fit(self, X):\n        if X:\n            self.rows = [0]\n"
                                      "        else:\n            self.rows.extend(X)", True, True),
    "reset after, in a loop": ("[]", "def fit(self, X):\n        for x in X:\n            self.rows.append(x)\n"
                                     "            self.rows = []", True, False),
    "reset by a helper": ("[]", "def fit(self, X):\n        self.clear_rows()\n        self.rows.extend(X)\n\n"
                                "    def clear_rows(self):\n        self.rows = []", True, False),
    "one append per call": ("[]", "def build(self, x):\n        self.rows.append(x)", False, False),
    "a list of the caller": ("rows", "def fit(self, X):\n        self.rows.extend(X)", False, False),
    "not empty": ("[0]", "def fit(self, X):\n        self.rows.extend(X)", False, False),
    "accumulates by name": ("[]", "def add_rows(self, X):\n        self.rows.extend(X)", False, False),
    "a generator": ("[]", "def load(self, X):\n        self.rows.extend(X)\n        yield X", False, False),
    "a queue": ("[]", "def load(self, X):\n        self.rows.extend(X)\n\n    def next(self):\n"
                      "        return self.rows.pop()", False, False),
    "bound elsewhere to another list": ("[]", "def load(self, X):\n        self.rows.extend(X)\n\n"
                                              "    def use(self, rows):\n        self.rows = rows", False, False),
    "bound to another list by itself": ("[]", "def load(self, X):\n        self.rows.extend(X)\n"
                                              "        if not X:\n            self.rows = [0]", True, True),
    "popped in a lambda": ("[]", "def load(self, X):\n        self.rows.extend(X)\n        return lambda: "
                                 "self.rows.pop()", True, True),
    "public, from the caller": ("[]", "def process(self, X):\n        self.rows.extend(X)", True, False),
    "public, from its own state": ("[]", "def render(self):\n        self.rows.extend(self.other)", True, True),
    "in a constructor only": ("[]", "def __new__(cls):\n        cls.rows.extend([1])", False, False),
    "in a closure": ("[]", "def fit(self, X):\n        def later():\n            self.rows.extend(X)\n"
                           "        return later", False, False),
    "a static method": ("[]", "@staticmethod\n    def fit(self):\n        self.rows.extend([1])", False, False),
}


@pytest.mark.parametrize("initial, method, signalled, found", METHOD_SHAPES.values(), ids=METHOD_SHAPES)
def test_the_rebuild_method_prepass_clears_only_what_the_collector_finds_nothing_in(initial, method, signalled, found):
    source = (
        "class A:\n    def __init__(self, rows):\n"
        f"        self.rows = {initial}\n        self.other = []\n\n    {method}\n"
    )
    assert summarize("m.py", source).signals.rebuild_method == signalled
    assert bool(rebuilds(source, "method")) == found


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(REPO)) for p in SOURCES])
def test_the_prepass_signals_every_file_where_the_collector_finds_a_rebuild(path):
    source = path.read_bytes()
    found = {r.shape for r in full_facts(str(path), source).checks["SS102"].found}
    signals = summarize(str(path), source).signals
    assert ("guard" in found) <= signals.guarded_loop
    assert ("method" in found) <= signals.rebuild_method


def test_libcst_is_told_the_methods_of_each_collector_as_its_own_lookup_would_find_them():
    import libcst as cst

    from flake8_stale_state.cst_facts import AttributeCollector, ScopeCloser, ScopeOpener
    from flake8_stale_state.scope import Scope

    for visitor_class in (ScopeOpener, ScopeCloser, AttributeCollector):
        visitor = visitor_class(Scope())
        own = visitor.get_visitors()
        assert own and own == cst.BatchableCSTVisitor.get_visitors(visitor)


PRIVATE_METHODS = {
    # (how the class runs `_load`, whether the pre-pass lets the collector look, whether the collector finds a rebuild)
    "only from the constructor": ("def __init__(self):\n        self.rows = []\n        self._load()", False, False),
    "a hook nobody in the class calls": ("def __init__(self):\n        self.rows = []", True, True),
    "from a public method": ("def __init__(self):\n        self.rows = []\n\n    def again(self):\n"
                             "        self._load()", True, True),
    "handed out as a callback": ("def __init__(self, bus):\n        self.rows = []\n        bus.on(self._load)",
                                 True, True),
    "from a closure of the constructor": ("def __init__(self):\n        self.rows = []\n        def later():\n"
                                          "            other._load()\n        self.later = later", True, True),
}


@pytest.mark.parametrize("calls, signalled, found", PRIVATE_METHODS.values(), ids=PRIVATE_METHODS)
def test_the_prepass_lets_libcst_look_at_a_private_method_that_may_run_again(calls, signalled, found):
    source = f"class A:\n    {calls}\n\n    def _load(self):\n        self.rows.extend([1, 2])\n"
    assert summarize("m.py", source).signals.rebuild_method == signalled
    assert bool(rebuilds(source, "method")) == found


PUBLIC_METHODS = {
    "only from the constructor": ("self.load()", "", False, False),
    "from the constructor and again": ("self.load()", "def again(self):\n        self.load()", True, True),
    "from the constructor and a dunder": ("self.load()", "def __enter__(self):\n        if not self.rows:\n"
                                                         "            self.load()\n        return self", True, True),
    "from a closure of the constructor": ("def later():\n            self.load()\n        self.later = later", "",
                                          True, True),
}


@pytest.mark.parametrize("init, other, signalled, found", PUBLIC_METHODS.values(), ids=PUBLIC_METHODS)
def test_the_prepass_clears_a_public_method_run_only_from_the_constructor(init, other, signalled, found):
    source = (f"class A:\n    def __init__(self):\n        self.rows = []\n        {init}\n\n    {other}\n\n"
              "    def load(self):\n        self.rows.extend([1, 2])\n")
    assert summarize("m.py", source).signals.rebuild_method == signalled
    assert bool(rebuilds(source, "method")) == found


MIRRORED_RULES = {
    # (the class, whether the pre-pass lets the collector look, whether the collector finds a rebuild)
    "reset earlier in the block around the loop": (
        "    def refresh(self, X):\n        if X:\n            self.rows.clear()\n            for x in X:\n"
        "                self.rows.append(x)\n", False, False),
    "reset in a branch beside the loop": (
        "    def refresh(self, X):\n        if X:\n            self.rows.clear()\n        else:\n"
        "            for x in self.other:\n                self.rows.append(x)\n", True, True),
    "reset in the loop's own block after it": (
        "    def refresh(self, X):\n        if X:\n            for x in self.other:\n"
        "                self.rows.append(x)\n        self.rows = []\n", True, False),
    "helper of a helper of the constructor": (
        "    def _setup(self):\n        self.load()\n\n", False, False),
    "helper of the constructor run again": (
        "    def _setup(self):\n        self.load()\n\n    def again(self):\n        self._setup()\n", True, True),
    "private, called in a loop": (
        "    def refresh(self):\n        for _ in range(2):\n            self._load()\n", False, False),
    "private, called once": (
        "    def refresh(self):\n        self._load()\n", True, True),
    "private, under a test of state another method sets": (
        "    def offload(self):\n        self.offloaded = True\n\n    def refresh(self):\n        if self.offloaded:\n"
        "            self._load()\n", False, False),
    "private, under a test of an argument": (
        "    def offload(self):\n        self.offloaded = True\n\n    def refresh(self, force):\n"
        "        if self.offloaded or force:\n            self._load()\n", True, True),
    "private, under a test of state set only at construction": (
        "    def refresh(self):\n        if self.offloaded:\n            self._load()\n", True, True),
    "private, under a test of what emptying the list changes": (
        "    def offload(self):\n        self.rows = []\n        self.marks.add(1)\n\n    def refresh(self):\n"
        "        if 1 in self.marks:\n            self._load()\n", False, False),
    "private, under a test of what another method changes": (
        "    def offload(self):\n        self.marks.add(1)\n\n    def refresh(self):\n"
        "        if 1 in self.marks:\n            self._load()\n", True, True),
}


@pytest.mark.parametrize("methods, signalled, found", MIRRORED_RULES.values(), ids=MIRRORED_RULES)
def test_the_rebuild_method_prepass_mirrors_what_decides_libcst_quiet(methods, signalled, found):
    setup = "        self._setup()\n" if "def _setup" in methods else ""
    source = (
        "class A:\n    def __init__(self):\n        self.rows = []\n        self.other = []\n"
        f"        self.marks = set()\n        self.offloaded = False\n{setup}\n{methods}\n"
    )
    for helper in ("load", "_load"):  # appended to from `self.other` each time it runs
        if f"self.{helper}()" in methods:
            source += f"\n    def {helper}(self):\n        for x in self.other:\n            self.rows.append(x)\n"
    assert summarize("m.py", source).signals.rebuild_method == signalled
    assert bool(rebuilds(source, "method")) == found


@pytest.mark.parametrize("where, signalled", [("class A:\n    def load(self, key):\n", True),
                                              ("def load(self, key):\n    if True:\n", False)])
def test_a_guarded_loop_is_signalled_only_in_a_method(where, signalled):
    source = (f"{where}        if self.key != key:\n            for x in key:\n                self.rows.append(x)\n"
              "            self.key = key\n")
    assert summarize("m.py", source).signals.guarded_loop == signalled
    assert bool(rebuilds(source, "guard")) == signalled


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(REPO)) for p in SOURCES])
def test_libcst_finds_in_the_signalled_classes_what_it_finds_in_the_whole_file(path):
    from flake8_stale_state.checks import stale_cache

    source = path.read_bytes()
    summary = summarize(str(path), source)
    whole = full_facts(str(path), source, ["SS102"]).checks["SS102"]
    if not stale_cache.may_report(summary, None, None):
        assert whole.found == ()
        return
    lines = stale_cache.lines_needed(summary, None, None)
    assert lines and all(rebuild.line in lines for rebuild in whole.found)
    assert full_facts(str(path), source, ["SS102"], lines).checks["SS102"] == whole


def test_libcst_is_told_a_guarded_rebuild_and_what_names_its_lists_not_the_whole_class():
    from flake8_stale_state.checks import RULES

    source = textwrap.dedent("""\
        class Module:
            rows = None

            def __init__(self, funcs):
                self.funcs = funcs
                self.rows = list(funcs)
                self.key = None

            def forward(self, x):
                for func in self.funcs:
                    x = func(x)
                return x

            def build(self, key):
                if self.key != key:
                    for x in key:
                        self.rows.append(x)
                    self.key = key
        """)
    (rule,) = [rule for rule in RULES if rule.code == "SS102"]
    summary = summarize("m.py", source)
    lines = rule.lines_needed(summary, None, None)
    assert lines == {2, 6, 15, 16, 17, 18}  # the class attribute, the binding in `__init__`, the `if`
    whole = full_facts("m.py", source, ["SS102"]).checks["SS102"]
    assert [rebuild.line for rebuild in whole.found] == [17]
    assert full_facts("m.py", source, ["SS102"], lines).checks["SS102"] == whole
