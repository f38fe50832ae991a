"""Baselines: today's findings accepted, only new ones reported, stale entries told."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_cli
from flake8_stale_state import baseline
from flake8_stale_state.findings import Finding


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_written_baseline_is_sorted_keyed_without_lines_and_silences_everything(project, capsys):
    code, out, err = run_cli(capsys, "--write-baseline", "baseline.json", "pipe")
    assert code == 0 and out == [] and "2 entries written" in err
    data = json.loads((project / "baseline.json").read_text())
    assert data == {"version": 1, "findings": [
        {"path": "pipe/module.py", "context": "PipelineModule._precompute_checkpointable_values",
         "symbol": "interval_was_zero", "code": "SS101"},
        {"path": "pipe/module.py", "context": "PipelineModule.set_checkpoint_interval",
         "symbol": "checkpoint_interval", "code": "SS101"},
    ]}
    assert run_cli(capsys, "--baseline", "baseline.json", "pipe") == (0, [], "")


def test_configured_baseline_is_written_then_used(project, capsys):
    (project / "pyproject.toml").write_text('[tool.stale-state]\nbaseline = "baseline.json"\n')
    assert run_cli(capsys, "--write-baseline", "baseline.json", "pipe")[0] == 0
    assert run_cli(capsys, "pipe") == (0, [], "")


def test_line_shift_survives(project, capsys):
    run_cli(capsys, "--write-baseline", "baseline.json", "pipe")
    edit(project / "pipe" / "module.py", '"""The shape', 'import os\n\n\n"""The shape')
    assert run_cli(capsys, "--baseline", "baseline.json", "pipe") == (0, [], "")


def test_new_finding_reported_and_stale_entry_told(project, capsys):
    run_cli(capsys, "--write-baseline", "baseline.json", "pipe")
    edit(project / "pipe" / "module.py", "self.interval_was_zero = False", "self.interval_was_reset = False")
    code, out, err = run_cli(capsys, "--baseline", "baseline.json", "pipe")
    assert code == 1
    assert [line.split(" is ")[0] for line in out] == ["pipe/module.py:13:13: SS101 'interval_was_reset'"]
    assert err == ("stale-state: baseline baseline.json: 1 entry no longer matches anything; "
                   "rewrite it with --write-baseline\n")


def test_entries_of_files_not_checked_are_not_stale_but_of_deleted_files_are(project, capsys):
    (project / "pipe" / "other.py").write_text("class Other:\n    def f(self):\n        self.unused = 1\n")
    run_cli(capsys, "--write-baseline", "baseline.json", "pipe")
    assert run_cli(capsys, "--baseline", "baseline.json", "pipe/module.py") == (0, [], "")
    (project / "pipe" / "other.py").unlink()
    _, _, err = run_cli(capsys, "--baseline", "baseline.json", "pipe/module.py")
    assert "1 entry no longer matches anything" in err


def test_identical_duplicates_are_counted(project, capsys):
    module = project / "pipe" / "module.py"
    edit(module, "self.checkpoint_interval = interval", "self.checkpoint_interval = interval\n"
         "        self.checkpoint_interval = interval")
    run_cli(capsys, "--write-baseline", "baseline.json", "pipe")
    entries = json.loads((project / "baseline.json").read_text())["findings"]
    assert [e.get("count", 1) for e in entries if e["symbol"] == "checkpoint_interval"] == [2]
    assert run_cli(capsys, "--baseline", "baseline.json", "pipe")[0] == 0
    edit(module, "self.checkpoint_interval = interval\n", "self.checkpoint_interval = interval\n"
         "        self.checkpoint_interval = interval\n", )
    code, out, _ = run_cli(capsys, "--baseline", "baseline.json", "pipe")
    assert code == 1 and len(out) == 1 and "'checkpoint_interval'" in out[0]  # the third is new


def test_baseline_file_is_stable_and_one_entry_a_line(tmp_path):
    findings = [Finding(str(tmp_path / "b.py"), 9, 0, "SS102", "m", "cache", "B.f"),
                Finding(str(tmp_path / "a.py"), 3, 4, "SS101", "m", "x", "A.g"),
                Finding(str(tmp_path / "a.py"), 7, 4, "SS101", "m", "x", "A.g")]
    first, second = tmp_path / "one.json", tmp_path / "two.json"
    baseline.write(first, findings)
    baseline.write(second, reversed(findings))
    assert first.read_text() == second.read_text()
    assert first.read_text().splitlines()[3:5] == [
        '    {"path": "a.py", "context": "A.g", "symbol": "x", "code": "SS101", "count": 2},',
        '    {"path": "b.py", "context": "B.f", "symbol": "cache", "code": "SS102"}',
    ]
    assert baseline.load(first).counts == baseline.load(second).counts


@pytest.mark.parametrize(("content", "problem"), [
    (None, "no such file"),
    ("{", "not JSON"),
    ('{"version": 7, "findings": []}', "not a stale-state baseline"),
    ('{"version": 1, "findings": [{"path": "a.py"}]}', "entry 1 needs path, context, symbol, code"),
    ('{"version": 1, "findings": [{"path": "a.py", "context": "", "symbol": "x", "code": "SS101", "count": 0}]}',
     "entry 1 is malformed"),
])
def test_unusable_baseline_is_one_line_error(project, capsys, content, problem):
    if content is not None:
        (project / "baseline.json").write_text(content)
    code, out, err = run_cli(capsys, "--baseline", "baseline.json", "pipe")
    assert code == 2 and out == []
    assert err.startswith(f"stale-state: error: baseline baseline.json: {problem}") and err.count("\n") == 1


def flake8(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flake8", "--select", "SS", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=120)


def test_flake8_option_reports_only_new_findings(project, capsys):
    run_cli(capsys, "--write-baseline", "baseline.json", "pipe")
    edit(project / "pipe" / "module.py", '"""The shape', 'import os\n\n\n"""The shape')
    # flake8 resolves a path against its config file's folder only when it has a slash
    (project / "setup.cfg").write_text("[flake8]\nstale-state-baseline = ./baseline.json\n")
    assert flake8(project, "pipe").stdout == ""
    edit(project / "pipe" / "module.py", "self.interval_was_zero = False", "self.interval_was_reset = False")
    result = flake8(project / "pipe", "module.py")  # from another folder: the path in setup.cfg is its own
    assert [line.split(" is ")[0] for line in result.stdout.splitlines()] == [
        "module.py:16:13: SS101 'interval_was_reset'"]


def test_flake8_with_a_missing_baseline_stops_with_the_commands_line(project, capsys):
    result = flake8(project, "--stale-state-baseline", "missing.json", "pipe")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "stale-state: error: baseline missing.json: no such file\n"
    assert run_cli(capsys, "--baseline", "missing.json", "pipe")[2] == result.stderr
