"""`--format sarif`: a SARIF 2.1.0 log, checked against the properties the 2.1.0 schema requires.

No copy of the schema ships in a Python package (sarif-om, sarif-tools and jschema-to-python hold none), so
the required properties and value constraints of sarif-schema-2.1.0.json are checked one by one.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from conftest import FIXTURES, REPO
from flake8_stale_state import sarif
from flake8_stale_state.cli import main

LEVELS = {"none", "note", "warning", "error"}  # result.level
COLUMN_KINDS = {"utf16CodeUnits", "unicodeCodePoints"}  # run.columnKind


@pytest.fixture
def log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> dict:
    shutil.copytree(FIXTURES / "ss101" / "pipeline" / "pipe", tmp_path / "pipe")
    monkeypatch.chdir(tmp_path)
    assert main(["--format", "sarif", "pipe"]) == 1
    return json.loads(capsys.readouterr().out)


def message_string(value: dict) -> None:
    """multiformatMessageString and message: `text` is required (message may use `id` instead; ours do not)."""
    assert isinstance(value["text"], str) and value["text"]


def test_log_run_and_tool(log):
    assert log["version"] == "2.1.0"  # required, the only value allowed
    assert urlsplit(log["$schema"]).scheme == "https"
    assert isinstance(log["runs"], list) and len(log["runs"]) == 1  # required
    run = log["runs"][0]
    driver = run["tool"]["driver"]  # run.tool and tool.driver are required
    assert isinstance(driver["name"], str) and driver["name"]  # toolComponent.name is required
    assert driver["informationUri"] == sarif.PROJECT_URL
    assert run["columnKind"] in COLUMN_KINDS


def test_rules_metadata(log):
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["SS101", "SS102", "SS103"]  # reportingDescriptor.id is required
    for rule in rules:
        assert re.fullmatch(r"[a-z-]+", rule["name"])
        for field in ("shortDescription", "fullDescription", "help"):
            message_string(rule[field])
        assert rule["helpUri"].startswith(sarif.PROJECT_URL + "#" + rule["id"].lower() + "-")
        assert rule["defaultConfiguration"]["level"] in LEVELS
    assert rules[0]["shortDescription"]["text"].startswith("`self.X = ...` where no read of `X` that can reach")
    from flake8_stale_state.checks import RULES

    for rule, entry in zip(RULES, rules):
        assert all(example.source.rstrip() in entry["help"]["text"] for example in rule.examples)


def test_results(log):
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    results = run["results"]
    assert len(results) == 2
    for result in results:
        message_string(result["message"])  # result.message is required
        assert result["level"] == "warning"
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        (location,) = result["locations"]
        physical = location["physicalLocation"]
        uri = physical["artifactLocation"]["uri"]  # physicalLocation needs artifactLocation (or address)
        assert urlsplit(uri).scheme == "" and not uri.startswith("/")
        region = physical["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1  # both 1-based in SARIF
    setter = results[1]
    assert setter["ruleId"] == "SS101"
    assert setter["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "pipe/module.py"
    assert setter["locations"][0]["physicalLocation"]["region"] == {"startLine": 19, "startColumn": 9}
    assert setter["message"]["text"].endswith("did you mean 'activation_checkpoint_interval'?")
    assert setter["properties"] == {
        "symbol": "checkpoint_interval", "context": "PipelineModule.set_checkpoint_interval",
        "suggestion": "activation_checkpoint_interval"}


def test_no_findings_is_an_empty_results_list(tmp_path, monkeypatch, capsys):
    (tmp_path / "clean.py").write_text("x = 1\n")
    monkeypatch.chdir(tmp_path)
    assert main(["--format", "sarif", "clean.py"]) == 0
    assert json.loads(capsys.readouterr().out)["runs"][0]["results"] == []


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_help_anchors_are_readme_headings():
    from flake8_stale_state.checks import RULES

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    anchors = {github_anchor(h) for h in re.findall(r"^#+ (SS\d{3}:.*)$", readme, re.MULTILINE)}
    assert {rule.anchor for rule in RULES} <= anchors


def sarif_of(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys, case: Path) -> dict:
    shutil.copytree(case, tmp_path / case.name)
    monkeypatch.chdir(tmp_path)
    main(["--format", "sarif", case.name])
    return json.loads(capsys.readouterr().out)["runs"][0]


def applied(text: str, change: dict) -> str:
    """The text with a SARIF artifactChange's whole-line replacements applied (regions of line starts)."""
    lines = text.splitlines(keepends=True)
    for replacement in sorted(change["replacements"], key=lambda r: -r["deletedRegion"]["startLine"]):
        region = replacement["deletedRegion"]
        assert region["startColumn"] == region["endColumn"] == 1
        lines[region["startLine"] - 1:region["endLine"] - 1] = [replacement["insertedContent"]["text"]]
    return "".join(lines)


def test_an_ss102_result_carries_its_guard_and_the_fix_that_resets_the_list(tmp_path, monkeypatch, capsys):
    run = sarif_of(tmp_path, monkeypatch, capsys, FIXTURES / "ss102" / "interval_cache")
    (result,) = run["results"]
    (guard,) = result["relatedLocations"]
    assert guard["physicalLocation"]["region"]["startLine"] == 12 and "the guard" in guard["message"]["text"]
    (fix,) = result["fixes"]
    assert fix["description"]["text"] == "Insert 'self.is_checkpointable_results = []'"
    (change,) = fix["artifactChanges"]
    path = change["artifactLocation"]["uri"]
    assert path == "interval_cache/pkg/module.py"
    source = (tmp_path / path).read_text()
    assert applied(source, change) == (FIXTURES / "ss102" / "interval_cache" / "pkg" / "module.py.fixed").read_text()


def test_an_ss103_result_points_to_the_seed_and_the_other_assignments(tmp_path, monkeypatch, capsys):
    run = sarif_of(tmp_path, monkeypatch, capsys, FIXTURES / "ss103" / "pipeline")
    (result,) = run["results"]
    related = result["relatedLocations"]
    seed, *others = related
    assert seed["physicalLocation"]["artifactLocation"]["uri"] == "pipeline/pipe/engine.py"
    assert seed["physicalLocation"]["region"]["startLine"] == 9 and "seeded" in seed["message"]["text"]
    assert [o["physicalLocation"]["artifactLocation"]["uri"] for o in others] == ["pipeline/pipe/module.py"] * 2
    assert [r["id"] for r in related] == list(range(len(related)))
    assert "fixes" not in result
