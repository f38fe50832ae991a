"""Memory stays proportional to the facts, not to the syntax trees: each file's tree is freed once its facts are made.

Measured in this process with tracemalloc, so the numbers do not depend on the machine's load or on other processes.
The cache is off (every file is parsed) and facts are made here, not in worker processes tracemalloc cannot see.
"""

from __future__ import annotations

import ast
import gc
import json
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import libcst as cst
import pytest

from conftest import full_facts, summary_facts
from flake8_stale_state import index
from flake8_stale_state.engine import Analyzer
from flake8_stale_state.facts import FileFacts
from flake8_stale_state.settings import Settings

MODULES = 3  # the small package; the large one has four times as many
# Facts as Python objects take several times the bytes of their JSON, each name being a string object of 50 bytes
# or more, each set and tuple an object too: 5 to 8 times here, with the tables the index derives from them. The
# trees of one generated module take hundreds of times the JSON of its facts.
OBJECTS_PER_JSON_BYTE = 16


def module_source(number: int) -> str:
    """A class with one SS101 and one SS102 finding (so every file goes through libcst and the checks), and methods
    whose bodies make a large tree but few facts, as most real code does."""
    head = f"""\
class Worker{number}:
    def __init__(self, config):
        self.config = config
        self.interval = self.config["interval"]
        self.results = []
        self.results_key = None
        self.unused_{number} = 0

    def rebuild(self, key):
        if key != self.results_key:
            self.results_key = key
            for item in range(key):
                self.results.append(item)
        return self.results, self.interval
"""
    methods = "".join(f"""
    def compute_{m}(self, values, scale={m}):
        total = 0
        for value in values:
            if value % 3 == 0 and value > scale:
                total += value * 2 - (value // 4) + len(str(value))
            else:
                total -= value + 1 if value else scale
        return [total, scale, {{"a": total, "b": (total, scale)}}]
""" for m in range(4))
    return head + methods


def make_package(root: Path, count: int) -> list[Path]:
    root.mkdir()
    (root / "__init__.py").write_text("")
    for number in range(count):
        (root / f"worker{number}.py").write_text(module_source(number))
    return sorted(root.glob("*.py"))


def facts_json_size(facts: list[FileFacts]) -> int:
    return len(json.dumps([f.to_data() for f in facts]))


def traced(run: Callable[[], object]) -> tuple[int, int, object]:
    """(peak, retained, result) of `run()`, in bytes above the memory in use when it started."""
    gc.collect()
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        result = run()
        gc.collect()  # what is still alive, not garbage the collector has not reached yet
        current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - start, current - start, result


def live_nodes() -> int:
    """Syntax tree nodes alive in this process, of libcst or of `ast` (libcst facts may use both).

    By the classes' MRO rather than `isinstance`: libcst's nodes are ABCs, whose `isinstance` fills caches
    (one per node class) that tracemalloc would count as memory kept."""
    node_types = {cst.CSTNode, ast.AST}
    return sum(not node_types.isdisjoint(type(o).__mro__) for o in gc.get_objects())


@pytest.fixture(autouse=True)
def sequential(monkeypatch: pytest.MonkeyPatch) -> None:
    """Facts made in worker processes would hide their trees from tracemalloc, whatever the package size."""
    monkeypatch.setattr(index, "_can_fork_workers", lambda: False)


def index_only(analyzer: Analyzer, paths: list[Path]) -> int:
    analyzer.index_for(paths[0])
    return 0


def index_and_checks(analyzer: Analyzer, paths: list[Path]) -> int:
    """The number of findings, as flake8 runs: prepare every file, then check them one by one."""
    analyzer.prepare(paths)
    return sum(len(analyzer.check(path)) for path in paths)


RUNS = {
    # the ast pre-pass alone: the index of summaries
    "ast summary index": (True, index_only),
    # libcst for the index, then the checks of every file
    "libcst full index and checks": (False, index_and_checks),
    # the default: ast for the index, then libcst for the files a check may report on (here, all)
    "summary then libcst, and checks": (True, index_and_checks),
}


@pytest.mark.parametrize("name", RUNS)
def test_memory_grows_with_the_facts_not_with_the_trees(name, tmp_path):
    prepass, run = RUNS[name]

    def measure(count: int) -> tuple[int, int, int]:
        paths = make_package(tmp_path / f"package_of_{count}", count)
        analyzer = Analyzer(Settings(use_cache=False, prepass=prepass))
        peak, retained, findings = traced(lambda: run(analyzer, paths))
        assert findings == (2 * count if run is index_and_checks else 0)  # SS101 and SS102 in each file
        # the analyzer is still alive: what it holds is the index and, after `prepare`, the libcst facts (made
        # here with every check's collector, at least what `prepare` made)
        held = list(analyzer.index_for(paths[0]).files.values())
        if run is index_and_checks and prepass:
            held += [full_facts(str(path), path.read_bytes()) for path in paths]
        return peak, retained, facts_json_size(held)

    measure(1)  # imports, compiled patterns and the like, allocated once per process
    small_peak, small_retained, small_facts = measure(MODULES)
    large_peak, large_retained, large_facts = measure(4 * MODULES)

    # one tree at a time: the peak is about one tree plus the facts so far, not one tree per file
    assert large_peak < 2 * small_peak, (small_peak, large_peak)
    # What a run retains besides the facts does not depend on the package's size (the analyzer itself, and
    # Python's caches of attribute names, which libcst's visitors fill anew for each file), so the sizes are
    # compared between the two packages: the extra files may keep their facts, not their trees.
    extra_retained, extra_facts = large_retained - small_retained, large_facts - small_facts
    assert extra_retained < OBJECTS_PER_JSON_BYTE * extra_facts, (extra_retained, extra_facts)


@pytest.mark.parametrize("make", [full_facts, summary_facts], ids=["full", "summary"])
def test_a_files_tree_is_freed_as_soon_as_its_facts_are_made(make):
    make("warm_up.py", module_source(0))
    gc.collect()
    # With the collector off, only reference counting frees: a tree caught in a reference cycle would stay
    # until some later collection, so it would be counted below.
    gc.disable()
    try:
        before = live_nodes()
        tracemalloc.start()
        start = tracemalloc.get_traced_memory()[0]
        facts = make("worker.py", module_source(1))
        peak = tracemalloc.get_traced_memory()[1] - start
        after = live_nodes()
        gc.collect()  # the garbage of the standard library's own cycles (ast.literal_eval's closures)
        retained = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
        gc.enable()

    assert facts.error is None
    assert after == before, "syntax tree nodes outlive the facts of their file"
    # the memory the tree took is given back: what remains is the facts and Python's caches of attribute names
    assert retained < peak / 10, (retained, peak)
