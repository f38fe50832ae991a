"""Findings as a SARIF 2.1.0 log, the format code scanning services read."""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from urllib.parse import quote

from flake8_stale_state import __version__
from flake8_stale_state.checks import CHECKS
from flake8_stale_state.engine import UNANALYSED
from flake8_stale_state.findings import Finding, Problem, relative_path

PROJECT_URL = "https://github.com/flake8-stale-state/flake8-stale-state"
SCHEMA_URL = "https://json.schemastore.org/sarif-2.1.0.json"
# README section of each code, as the README's headings are anchored
HELP_ANCHORS = {
    "SS101": "ss101-attribute-written-never-read",
    "SS102": "ss102-list-cache-rebuilt-without-being-cleared",
    "SS103": "ss103-config-read-shadowing-a-seeded-attribute",
}


def rule(check) -> dict:
    """A check's rule metadata, from its module docstring: the summary line, then the examples."""
    summary, _, details = inspect.cleandoc(check.__doc__ or "").partition("\n")
    summary = summary.removeprefix(f"{check.CODE}:").strip()
    summary = summary[:1].upper() + summary[1:]
    return {
        "id": check.CODE,
        "name": check.NAME,
        "shortDescription": {"text": summary},
        "fullDescription": {"text": summary},
        "help": {"text": details.strip() or summary},
        "helpUri": f"{PROJECT_URL}#{HELP_ANCHORS[check.CODE]}",
        "defaultConfiguration": {"level": "warning"},
    }


def artifact_uri(path: str) -> str:
    """Relative to the folder the command ran in where possible, as code scanning matches paths to the repository."""
    relative = relative_path(path)
    return Path(relative).as_uri() if Path(relative).is_absolute() else quote(relative)


def result(finding: Finding, rule_index: dict[str, int]) -> dict:
    entry = {
        "ruleId": finding.code,
        "level": "warning",
        "message": {"text": finding.message},
        "locations": [{
            "physicalLocation": {
                "artifactLocation": {"uri": artifact_uri(finding.path), "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": finding.line, "startColumn": finding.col + 1},
            },
        }],
    }
    if finding.code in rule_index:
        entry["ruleIndex"] = rule_index[finding.code]
    if finding.symbol or finding.context:
        entry["properties"] = {"symbol": finding.symbol, "context": finding.context}
    return entry


def notification(problem: Problem) -> dict:
    """A path that could not be analysed, as a toolExecutionNotification of the invocation."""
    return {
        "level": "error",
        "message": {"text": problem.message},
        "descriptor": {"id": UNANALYSED},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": artifact_uri(problem.path),
                                                                 "uriBaseId": "%SRCROOT%"}}}],
    }


def sarif_log(findings: list[Finding], problems: list[Problem] = ()) -> dict:
    rules = [rule(check) for check in CHECKS]
    rule_index = {r["id"]: number for number, r in enumerate(rules)}
    return {
        "$schema": SCHEMA_URL,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "stale-state",
                "version": __version__,
                "informationUri": PROJECT_URL,
                "rules": rules,
            }},
            # files that could not be analysed leave the results incomplete: the run did not succeed
            "invocations": [{
                "executionSuccessful": not problems,
                "toolExecutionNotifications": [notification(problem) for problem in problems],
            }],
            "columnKind": "unicodeCodePoints",
            "results": [result(finding, rule_index) for finding in findings],
        }],
    }


def dumps(findings: list[Finding], problems: list[Problem] = ()) -> str:
    return json.dumps(sarif_log(findings, problems), indent=2, ensure_ascii=False) + "\n"
