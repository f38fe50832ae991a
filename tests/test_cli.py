"""The `stale-state` command: formats, selection, noqa, exit codes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_cli

SETTER_LINE = "pipe/module.py:19:9: SS101"
FLAG_LINE = "pipe/module.py:13:13: SS101"


def test_text_format_matches_flake8(project, capsys):
    code, out, err = run_cli(capsys, "pipe")
    assert code == 1 and err == ""
    assert [line.split(" '")[0] for line in out] == [FLAG_LINE, SETTER_LINE]
    flake8 = subprocess.run([sys.executable, "-m", "flake8", "--select", "SS", "pipe"], capture_output=True, text=True)
    assert flake8.stdout.splitlines() == out


def test_json_format(project, capsys):
    code, out, _ = run_cli(capsys, "--format", "json", "pipe")
    rows = json.loads("\n".join(out))["findings"]
    assert code == 1
    assert rows[1] == {
        "path": "pipe/module.py", "line": 19, "column": 9, "code": "SS101",
        "message": "'checkpoint_interval' is assigned but never read in package 'pipe'; "
        "did you mean 'activation_checkpoint_interval'?",
        "symbol": "checkpoint_interval", "context": "PipelineModule.set_checkpoint_interval",
        "suggestion": "activation_checkpoint_interval", "fix": "", "related": [],
    }


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (["--select", "SS101"], 2),
        (["--select", "ss1"], 2),
        (["--select", "SS102"], 0),
        (["--ignore", "SS1"], 0),
        (["--select", "SS", "--ignore", "SS101"], 0),
        (["--select", "SS101", "--ignore", "SS"], 2),  # the longer prefix decides, as in flake8
    ],
)
def test_select_and_ignore_by_prefix(project, capsys, options, expected):
    code, out, _ = run_cli(capsys, *options, "pipe")
    assert len(out) == expected
    assert code == (1 if expected else 0)


@pytest.mark.parametrize(
    ("comment", "silenced"),
    [("  # noqa", True), ("  # noqa: SS101", True), ("  # NOQA:SS1", True), ("  # noqa: E501,SS101", True),
     ("  # noqa: E501", False), ("  # noqa: SS102", False)],
)
def test_noqa_like_flake8(project, capsys, comment, silenced):
    module = project / "pipe" / "module.py"
    module.write_text(module.read_text().replace("= interval  # expect: SS101", "= interval" + comment))
    _, out, _ = run_cli(capsys, "pipe")
    assert any(line.startswith(SETTER_LINE) for line in out) is not silenced
    assert any(line.startswith(FLAG_LINE) for line in out)


@pytest.mark.parametrize("comment, silenced", [
    ("# flake8: noqa\n", True), ("    # FLAKE8=NOQA\n", True), ("# flake8:\tnoqa: SS101\n", True),
    ("x = 1  # flake8: noqa\n", False), ("#flake8: noqa\n", False), ("# flake8:\nnoqa = 1\n", False),
    ('"""\n# flake8 noqa\n"""\n', False),
])
def test_file_level_noqa(project, capsys, comment, silenced):
    """A comment line of its own silences the file, as flake8's does; the same words elsewhere on a line, or
    split over two lines, do not."""
    module = project / "pipe" / "module.py"
    module.write_text(comment + module.read_text())
    _, out, _ = run_cli(capsys, "pipe")
    assert out == [] if silenced else any("module.py:" in line for line in out)


def test_missing_path_is_an_input_error_but_other_paths_are_checked(project, capsys):
    code, out, err = run_cli(capsys, "nowhere.py", "pipe")
    assert code == 2
    assert len(out) == 2
    assert err == "stale-state: nowhere.py: no such file or folder\n"


def test_unparsable_file_gets_one_line_and_the_rest_is_reported(project, capsys):
    (project / "pipe" / "broken.py").write_text("class Broken(:\n    pass\n")
    code, out, err = run_cli(capsys, "pipe")
    assert code == 2
    assert len(out) == 2
    assert err.count("\n") == 1
    assert err.startswith("stale-state: pipe/broken.py: could not analyse this file: syntax error at line 1")


@pytest.mark.parametrize(("options", "problem"), [
    (["--select", "XX"], "--select: unknown code 'XX'"),
    (["--select", "SS,E9"], "--select: unknown code 'E9'"),
    (["--ignore", "SS2"], "--ignore: unknown code 'SS2'"),
])
def test_unknown_codes_are_a_usage_error(project, capsys, options, problem):
    code, out, err = run_cli(capsys, *options, "pipe")
    assert (code, out) == (2, [])
    assert err == f"stale-state: error: {problem} (codes: SS000, SS101, SS102, SS103)\n"


@pytest.mark.parametrize("prefix", ["S", "ss", "SS0", "SS000", "ss103"])
def test_prefixes_of_known_codes_are_accepted(project, capsys, prefix):
    assert run_cli(capsys, "--ignore", prefix, "pipe")[0] in (0, 1)


def test_usage_error_is_one_line(capsys):
    code, out, err = run_cli(capsys, "--format", "yaml")
    assert code == 2 and out == []
    assert err.count("\n") == 1 and err.startswith("stale-state: error: argument --format")


def test_clean_package_exits_zero(tmp_path, capsys):
    (tmp_path / "clean.py").write_text("class A:\n    def f(self):\n        self.x = 1\n        return self.x\n")
    assert run_cli(capsys, str(tmp_path)) == (0, [], "")


@pytest.mark.parametrize("command", [["stale-state"], [sys.executable, "-m", "flake8_stale_state"]])
def test_entry_points(project, command):
    executable = shutil.which(command[0]) or str(Path(sys.executable).parent / command[0])
    result = subprocess.run([executable, *command[1:], "pipe"], capture_output=True, text=True)
    assert result.returncode == 1
    assert result.stdout.splitlines()[1].startswith(SETTER_LINE)
