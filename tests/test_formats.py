"""The machine formats: every finding and every path that could not be analysed, in the shape each reader needs."""

from __future__ import annotations

import hashlib
import json

import pytest

from conftest import run_cli
from flake8_stale_state import __version__
from flake8_stale_state.cli import build_parser

FLAG = ("pipe/module.py", 13, 13, "SS101", "'interval_was_zero' is assigned but never read in package 'pipe'",
        "interval_was_zero", "PipelineModule._precompute_checkpointable_values", "", "", [])
SETTER = ("pipe/module.py", 19, 9, "SS101", "'checkpoint_interval' is assigned but never read in package 'pipe'; "
          "did you mean 'activation_checkpoint_interval'?", "checkpoint_interval",
          "PipelineModule.set_checkpoint_interval", "activation_checkpoint_interval", "", [])
BROKEN = ("pipe/broken.py", "could not analyse this file: syntax error at line 1: invalid syntax")


@pytest.fixture
def broken(project):
    """The pipeline package with one file no parser accepts."""
    (project / "pipe" / "broken.py").write_text("def broken(:\n")
    return project


def output(capsys, *args: str) -> tuple[int, str, str]:
    from flake8_stale_state.cli import main

    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_envelope_holds_the_findings_and_the_errors(broken, capsys):
    code, out, err = output(capsys, "--format", "json", "pipe")
    assert code == 2 and err == f"stale-state: {BROKEN[0]}: {BROKEN[1]}\n"
    keys = ("path", "line", "column", "code", "message", "symbol", "context", "suggestion", "fix", "related")
    assert json.loads(out) == {
        "version": 1,
        "tool": {"name": "stale-state", "version": __version__},
        "findings": [dict(zip(keys, FLAG)), dict(zip(keys, SETTER))],
        "errors": [{"path": BROKEN[0], "message": BROKEN[1]}],
    }


def test_json_envelope_of_a_clean_run_has_empty_lists(tmp_path, monkeypatch, capsys):
    (tmp_path / "clean.py").write_text("x = 1\n")
    monkeypatch.chdir(tmp_path)
    code, out, _ = output(capsys, "--format", "json", "clean.py")
    assert code == 0 and json.loads(out)["findings"] == [] and json.loads(out)["errors"] == []


def test_sarif_carries_the_unanalysed_file_as_a_notification_of_a_failed_invocation(broken, capsys):
    code, out, _ = output(capsys, "--format", "sarif", "pipe", "nowhere.py")
    (invocation,) = json.loads(out)["runs"][0]["invocations"]
    assert code == 2
    assert invocation == {"executionSuccessful": False, "toolExecutionNotifications": [
        {"level": "error", "message": {"text": message}, "descriptor": {"id": "SS000"},
         "locations": [{"physicalLocation": {"artifactLocation": {"uri": path, "uriBaseId": "%SRCROOT%"}}}]}
        for path, message in [BROKEN, ("nowhere.py", "no such file or folder")]
    ]}
    assert len(json.loads(out)["runs"][0]["results"]) == 2


def test_sarif_of_a_clean_run_succeeded(project, capsys):
    _, out, _ = output(capsys, "--format", "sarif", "--ignore", "SS101", "pipe")
    assert json.loads(out)["runs"][0]["invocations"] == [
        {"executionSuccessful": True, "toolExecutionNotifications": []}]


def test_github_annotations(broken, capsys):
    code, out, _ = output(capsys, "--format", "github", "pipe")
    assert code == 2
    assert out.splitlines() == [
        f"::warning file={path},line={line},col={col},title={code}::{message}"
        for path, line, col, code, message, *_ in (FLAG, SETTER)
    ] + [f"::error file={BROKEN[0]},title=SS000::{BROKEN[1]}"]


def test_github_annotations_escape_what_the_workflow_command_syntax_reserves(project, capsys):
    odd = project / "pipe" / "odd,name:1.py"
    odd.write_text("class Odd:\n    def f(self):\n        self.percent_100 = 1\n")
    _, out, _ = output(capsys, "--format", "github", "pipe/odd,name:1.py")
    assert out == ("::warning file=pipe/odd%2Cname%3A1.py,line=3,col=9,title=SS101::"
                   "'percent_100' is assigned but never read in package 'pipe'\n")


def fingerprint(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def test_gitlab_code_quality(broken, capsys):
    code, out, _ = output(capsys, "--format", "gitlab", "pipe")
    assert code == 2
    expected = [
        {"type": "issue", "check_name": code, "description": f"{code} {message}", "categories": ["Bug Risk"],
         "severity": "minor", "fingerprint": fingerprint(path, context, symbol, code, "1"),
         "location": {"path": path, "lines": {"begin": line}}}
        for path, line, _, code, message, symbol, context, *_ in (FLAG, SETTER)
    ] + [{"type": "issue", "check_name": "SS000", "description": f"SS000 {BROKEN[1]}", "categories": ["Bug Risk"],
          "severity": "major", "fingerprint": fingerprint(BROKEN[0], "SS000", BROKEN[1]),
          "location": {"path": BROKEN[0], "lines": {"begin": 1}}}]
    assert json.loads(out) == expected


def test_gitlab_fingerprints_survive_moved_lines_and_tell_identical_findings_apart(project, capsys):
    module = project / "pipe" / "module.py"
    before = [issue["fingerprint"] for issue in json.loads(output(capsys, "--format", "gitlab", "pipe")[1])]
    module.write_text("\n\n" + module.read_text())
    after = json.loads(output(capsys, "--format", "gitlab", "pipe")[1])
    assert [issue["fingerprint"] for issue in after] == before
    assert [issue["location"]["lines"]["begin"] for issue in after] == [15, 21]
    twice = project / "pipe" / "twice.py"
    twice.write_text("class T:\n    def f(self):\n        self.same = 1\n        self.same = 2\n")
    issues = json.loads(output(capsys, "--format", "gitlab", "pipe/twice.py")[1])
    assert len({issue["fingerprint"] for issue in issues}) == len(issues) == 2


def test_help_lists_every_command_option_and_exit_code(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--help"])
    text = capsys.readouterr().out
    options = [name for action in build_parser()._actions for name in action.option_strings]
    assert options and all(name in text for name in options)
    assert "stale-state lsp" in text
    for name in ("text", "json", "sarif", "github", "gitlab"):
        assert name in text
    codes = text.split("exit codes:")[1]
    assert [line.split()[0] for line in codes.splitlines() if line[:3].strip().isdigit()] == ["0", "1", "2"]
    assert "--diff" in codes and "--fix" in codes


def test_a_text_run_says_nothing_of_the_other_formats(project, capsys):
    code, out, err = run_cli(capsys, "pipe")
    assert code == 1 and err == "" and not any(line.startswith(("::", "{", "[")) for line in out)
