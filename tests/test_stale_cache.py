"""SS102 messages, its fix (`stale-state --diff` / `--fix`), and the DeepSpeed 0.19.3 -> 0.19.4 ground truth."""

from __future__ import annotations

import difflib
import re
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import FIXTURES, fixed_source
from flake8_stale_state.checks import RULES, stale_cache
from flake8_stale_state.cli import main
from flake8_stale_state.engine import Analyzer
from flake8_stale_state.settings import Settings

CACHE = textwrap.dedent(
    """\
    class Table:
        def __init__(self):
            self.rows = []
            self.source = None

        def load(self, source):
            if self.source != source:
                size = len(source)

                # one row per record
                for record in source:  # in order
                    self.rows.append(
                        record,   # kept as is
                    )
                self.source = source
            return self.rows
    """
)
RESET = "            self.rows = []\n"


def findings(path: Path, source: str | None = None) -> list:
    return [f for f in Analyzer(Settings(use_cache=False)).check(path, source) if f.code == "SS102"]


def fixed(path: Path, source: str) -> str:
    path.write_text(source)
    return fixed_source(path, source)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_message_names_list_key_and_guard_line_at_the_append():
    (finding,) = findings(FIXTURES / "ss102" / "interval_cache" / "pkg" / "module.py")
    assert (finding.line, finding.col) == (16, 16)
    assert finding.message == (
        "'is_checkpointable_results' is rebuilt when 'is_checkpointable_results_interval' changes (line 12) "
        "but is appended to without being cleared first"
    )
    assert finding.symbol == "is_checkpointable_results"
    assert finding.context == "PipelineModule._precompute_checkpointable_values"


def test_fix_inserts_the_reset_before_the_loop_keeping_comments_and_layout(tmp_path):
    path = tmp_path / "table.py"
    result = fixed(path, CACHE)
    lines = CACHE.splitlines(keepends=True)
    loop = next(i for i, line in enumerate(lines) if line.lstrip().startswith("for record"))
    # the blank line and the comment above the loop stay above the reset, which goes right before the loop
    assert result == "".join(lines[:loop]) + RESET + "".join(lines[loop:])
    assert findings(path, result) == []


def test_fix_is_idempotent(tmp_path):
    path = tmp_path / "table.py"
    once = fixed(path, CACHE)
    assert fixed(path, once) == once


def test_fix_keeps_tabs_and_crlf(tmp_path):
    source = CACHE.replace("    ", "\t").replace("\n", "\r\n")
    result = fixed(tmp_path / "table.py", source)
    assert "\t\t\t# one row per record\r\n\t\t\tself.rows = []\r\n\t\t\tfor record" in result
    assert result.count("\r\n") == source.count("\r\n") + 1 and "\n" not in result.replace("\r\n", "")


@pytest.mark.parametrize(
    ("initial", "view", "reset"),
    [
        ("[]", "None", "self.rows = []"),  # only ever a fresh list of its own: rebind, as upstream did
        ("rows", "None", "self.rows.clear()"),  # a list passed in is shared with the caller
        ("collections.deque()", "None", "self.rows.clear()"),  # another type: keep it
        ("[]", "self.rows", "self.rows.clear()"),  # another attribute holds the same list
    ],
)
def test_fix_rebinds_an_owned_list_and_clears_a_shared_one(tmp_path, initial, view, reset):
    source = textwrap.dedent(
        f"""\
        class Table:
            def __init__(self, rows):
                self.rows = {initial}
                self.view = {view}
                self.source = None

            def load(self, source):
                if self.source != source:
                    for record in source:
                        self.rows.append(record)
                    self.source = source
                return self.rows, self.view
        """
    )
    result = fixed(tmp_path / "table.py", source)
    assert f"            {reset}\n            for record" in result


def test_one_reset_per_list_and_loop(tmp_path):
    source = textwrap.dedent(
        """\
        class Grid:
            def __init__(self):
                self.cells, self.rows, self.size = [], [], 0

            def resize(self, size):
                if self.size != size:
                    for row in range(size):
                        for column in range(size):
                            self.cells.append(column)
                            self.cells.append(-column)
                        self.rows.append(row)
                    self.size = size
                return self.cells, self.rows
        """
    )
    result = fixed(tmp_path / "grid.py", source)
    assert "            self.cells.clear()\n            self.rows.clear()\n            for row in" in result
    assert result.count(".clear()") == 2


@pytest.fixture
def module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "table.py"
    path.write_text(CACHE)
    return path


def test_diff_prints_a_unified_diff_and_changes_nothing(module, capsys):
    code, out, err = run(capsys, "--no-cache", "--diff", "table.py")
    fixed_text = fixed_source(module, CACHE)
    assert (code, err) == (1, "")
    assert out == "".join(difflib.unified_diff(
        CACHE.splitlines(True), fixed_text.splitlines(True), "a/table.py", "b/table.py"))
    assert "+" + RESET in out.splitlines(True)
    assert module.read_text() == CACHE


def test_diff_of_a_clean_file_is_empty(module, capsys):
    module.write_text(fixed(module, CACHE))
    assert run(capsys, "--no-cache", "--diff", "table.py") == (0, "", "")


NOTHING_FIXED = "stale-state: fixed 0 findings in 0 files\n"


def test_fix_writes_then_reports_what_remains_and_a_second_fix_changes_nothing(module, capsys):
    code, out, err = run(capsys, "--no-cache", "--fix", "table.py")
    assert (code, out, err) == (0, "", f"stale-state: fixed {len(findings(module, CACHE))} finding in 1 file\n")
    once = module.read_text()
    assert RESET in once
    assert run(capsys, "--no-cache", "--fix", "table.py") == (0, "", NOTHING_FIXED)
    assert module.read_text() == once


def test_fix_leaves_silenced_findings_alone(module, capsys):
    module.write_text(CACHE.replace("self.rows.append(", "self.rows.append(  # noqa: SS102"))
    before = module.read_text()
    assert run(capsys, "--no-cache", "--fix", "table.py") == (0, "", NOTHING_FIXED)
    assert module.read_text() == before


def test_fix_refuses_a_file_changed_since_it_was_analysed(module, capsys):
    edited = CACHE + "\n# edited meanwhile\n"
    original_fix = stale_cache.fix

    def fix_while_someone_edits(source, found):
        module.write_text(edited)
        return original_fix(source, found)

    at = RULES.index(stale_cache.RULE)
    RULES[at] = replace(stale_cache.RULE, fix=fix_while_someone_edits)
    try:
        code, _, err = run(capsys, "--no-cache", "--fix", "table.py")
    finally:
        RULES[at] = stale_cache.RULE
    assert code == 2
    assert err == "stale-state: table.py: changed on disk since it was analysed; not fixed\n" + NOTHING_FIXED
    assert module.read_text() == edited


# ground truth -----------------------------------------------------------------------------------------------
MODULE = "deepspeed/runtime/pipe/module.py"


@pytest.mark.e2e
@pytest.mark.parametrize(("version", "expected"), [("0.19.3", [(229, "is_checkpointable_results")]), ("0.19.4", [])])
def test_deepspeed_cache_bug_found_in_0_19_3_and_gone_in_0_19_4(version, expected, monkeypatch, capsys):
    from corpora import sdist

    monkeypatch.chdir(sdist("deepspeed", version))
    code, out, err = run(capsys, "--select", "SS102", "deepspeed/")
    assert err == ""
    found = [re.match(r"(.*?):(\d+):\d+: SS102 '(\w+)'", line).groups() for line in out.splitlines()]
    assert [(int(line), name) for path, line, name in found if path == MODULE] == expected
    assert code == (1 if out else 0)


@pytest.mark.e2e
def test_fix_of_0_19_3_adds_the_statement_upstream_added_at_the_same_place(tmp_path, monkeypatch, capsys):
    from corpora import sdist

    buggy = (sdist("deepspeed", "0.19.3") / MODULE).read_text().splitlines(keepends=True)
    upstream = (sdist("deepspeed", "0.19.4") / MODULE).read_text().splitlines(keepends=True)
    copy = tmp_path / "module.py"
    copy.write_text("".join(buggy))
    monkeypatch.chdir(tmp_path)
    run(capsys, "--no-cache", "--select", "SS102", "--fix", "module.py")
    assert run(capsys, "--no-cache", "--select", "SS102", "module.py") == (0, "", "")

    result = copy.read_text().splitlines(keepends=True)
    opcodes = difflib.SequenceMatcher(None, buggy, result, autojunk=False).get_opcodes()
    changes = [op for op in opcodes if op[0] != "equal"]
    (tag, before, _, added, end), = changes
    assert (tag, end) == ("insert", added + 1)  # one line added, every other line unchanged
    upstream_loop = next(i for i, text in enumerate(upstream) if "for start_idx in range(0, num_layers" in text)
    assert result[added] == upstream[upstream_loop - 1] == "            self.is_checkpointable_results = []\n"
    assert buggy[before] == upstream[upstream_loop]  # right before the loop, where upstream put it
    assert buggy[before - 1] == "            self.interval_was_zero = False\n"


# rebuild methods ------------------------------------------------------------------------------------------
ENSEMBLE = textwrap.dedent(
    """\
    class Ensemble:
        def __init__(self, n):
            self.n = n
            self.members = []
            self.weights = []

        def fit(self, X):
            \"\"\"Fit one member per seed.\"\"\"
            size = len(X)
            for seed in range(self.n):
                self.members.append((seed, size))
                self.weights.append(1.0)
            return self
    """
)


def test_rebuild_method_message_names_the_method_the_list_and_where_it_is_emptied():
    path = FIXTURES / "ss102" / "method_emptied_elsewhere" / "pkg" / "scaler.py"
    (finding,) = findings(path)
    assert finding.message == (
        "'scales' is appended to by fit() each time it runs, but is only emptied in __init__ (line 3) and "
        "reset() (line 6): a second call keeps the first call's entries"
    )
    assert (finding.symbol, finding.context) == ("scales", "Scaler.fit")
    (helper,) = findings(FIXTURES / "ss102" / "method_private_helper" / "pkg" / "model.py")
    assert helper.message.startswith("'trees' is appended to by _grow() (run by fit()) each time it runs")


def test_fix_of_one_parallel_list_resets_every_list_the_method_rebuilds(tmp_path):
    path = tmp_path / "ensemble.py"
    path.write_text(ENSEMBLE)
    first, second = findings(path)
    assert (first.symbol, second.symbol) == ("members", "weights")
    result = stale_cache.fix(ENSEMBLE, [first])  # the editor's quick fix: one finding at a time
    resets = "        self.members = []\n        self.weights = []\n"
    assert result == ENSEMBLE.replace("        for seed in", resets + "        for seed in")
    assert findings(path, result) == []
    assert fixed(path, result) == result


@pytest.mark.parametrize(("body", "expected"), [
    # the header appended before the loop must be emptied too: the reset goes before both
    ("self.rows.append('header')\n        for x in X:\n            self.rows.append(x)",
     "self.rows = []\n        self.rows.append('header')"),
    # every append is in the `if`: the reset goes there, right before the loop, not before the `if`
    ("if X:\n            size = len(X)\n            for x in X:\n                self.rows.append(x)",
     "size = len(X)\n            self.rows = []\n            for x in X:"),
    # appends in both branches: before the `if` that holds them
    ("if X:\n            self.rows.extend(X)\n        else:\n            self.rows.extend([0])",
     "self.rows = []\n        if X:"),
])
def test_fix_of_a_rebuild_method_goes_before_every_append_once_per_run(tmp_path, body, expected):
    source = (
        "class Table:\n    def __init__(self):\n        self.rows = []\n\n"
        f"    def load(self, X):\n        {body}\n"
    )
    result = fixed(tmp_path / "table.py", source)
    assert expected in result and result.count("self.rows = []") == 2
    assert findings(tmp_path / "table.py", result) == []


def test_fix_of_a_rebuild_method_clears_a_list_another_attribute_holds(tmp_path):
    alias = "        self.weights = []\n        self.view = self.members\n"
    source = ENSEMBLE.replace("        self.weights = []\n", alias)
    result = fixed(tmp_path / "ensemble.py", source)
    assert "        self.members.clear()\n        self.weights = []\n        for seed in" in result


@pytest.mark.e2e
def test_reset_removal_benchmark_flags_nine_deletions_in_ten_and_changes_no_other_finding():
    """benchmarks/rebuilds.py: real resets deleted, one at a time, in released packages."""
    import sys

    sys.path.insert(0, str(FIXTURES.parent / "benchmarks"))
    import rebuilds

    counts = {spec: rebuilds.measure(spec, show=False) for spec in rebuilds.PACKAGES}
    deleted, flagged, changed, skipped = (sum(column) for column in zip(*counts.values()))
    assert sum(1 for row in counts.values() if row[0]) >= 4
    assert flagged >= 0.9 * deleted
    assert (changed, skipped) == (0, 0)


# Python's tree: columns in characters, and the layout its nodes do not keep ----------------------------------
def test_an_append_after_non_ascii_text_is_reported_at_its_character_column_and_fixed(tmp_path):
    loop = "            for record in ['é→', *source]: self.rows.append(record)\n"
    source = CACHE.replace(CACHE[CACHE.index("            for record"):CACHE.index("            self.source =")], loop)
    path = tmp_path / "table.py"
    path.write_text(source, encoding="utf-8")
    (found,) = findings(path, source)
    assert (found.line, found.col) == (source.splitlines().index(loop.rstrip("\n")) + 1, loop.index("self.rows"))
    result = fixed(path, source)
    assert RESET + loop in result
    assert findings(path, result) == []


def test_a_method_on_its_headers_line_is_reported_but_offers_no_fix(tmp_path):
    """A body written on the header's line has no block a reset could be put in."""
    source = ("class Ensemble:\n    def __init__(self):\n        self.members = []\n\n"
              "    def fit(self, data): self.members.extend(data)\n")
    path = tmp_path / "ensemble.py"
    path.write_text(source)
    (found,) = findings(path, source)
    assert (found.line, found.fix) == (5, "")
    assert fixed(path, source) == source
    indented = source.replace("def fit(self, data): ", "def fit(self, data):\n        ")
    path.write_text(indented)
    (found,) = findings(path, indented)
    assert found.fix == "Insert 'self.members = []'"
    assert "        self.members = []\n        self.members.extend(data)" in fixed(path, indented)


CHAIN = '''\
class Index:
    def __init__(self):
        self.keys = []

    def build(self, rows, fresh):
        if fresh:
            self.keys = []
{branch}
            for row in rows:
                self.keys.append(row)
'''


@pytest.mark.parametrize(
    ("branch", "fixed_at"),
    [
        # `elif` is another branch of the chain: the reset in the `if` branch does not run before its appends;
        # the fix goes in the `elif` block, which runs once per call
        ("        elif rows:", "        elif rows:\n            self.keys = []\n            for row"),
        # `else:` holding an `if` is the same chain's other branch, its `if` a block of its own
        ("        else:\n          if rows:", "          if rows:\n            self.keys = []\n            for row"),
    ],
)
def test_a_reset_in_another_branch_of_the_chain_is_no_reset(tmp_path, branch, fixed_at):
    source = CHAIN.format(branch=branch)
    path = tmp_path / "index.py"
    path.write_text(source)
    (found,) = findings(path, source)
    assert found.line == source.splitlines().index("                self.keys.append(row)") + 1
    assert fixed_at in fixed(path, source)


def test_a_reset_before_the_chain_reaches_every_branch(tmp_path):
    reset_first = "        self.keys = []\n        if fresh:\n"
    source = CHAIN.format(branch="        elif rows:").replace("        if fresh:\n", reset_first)
    path = tmp_path / "index.py"
    path.write_text(source)
    assert findings(path, source) == []
