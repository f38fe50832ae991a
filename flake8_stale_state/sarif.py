"""Findings as a SARIF 2.1.0 log, the format code scanning services read."""

from __future__ import annotations

import inspect
import json
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import quote

from flake8_stale_state import __version__
from flake8_stale_state.checks import RULES
from flake8_stale_state.edits import LineEdit
from flake8_stale_state.engine import UNANALYSED
from flake8_stale_state.findings import Finding, Location, Problem, relative_path
from flake8_stale_state.rule import Rule

PROJECT_URL = "https://github.com/flake8-stale-state/flake8-stale-state"
SCHEMA_URL = "https://json.schemastore.org/sarif-2.1.0.json"


def help_text(rule: Rule) -> str:
    """The rule's definition, then its examples."""
    examples = "\n\n".join(f"Example: {example.title}\n\n{example.source.rstrip()}" for example in rule.examples)
    return f"{inspect.cleandoc(rule.description)}\n\n{examples}"


def rule_entry(rule: Rule) -> dict:
    summary = rule.summary[:1].upper() + rule.summary[1:]
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": summary},
        "fullDescription": {"text": summary},
        "help": {"text": help_text(rule)},
        "helpUri": f"{PROJECT_URL}#{rule.anchor}",
        "defaultConfiguration": {"level": "warning"},
    }


def artifact_uri(path: str) -> str:
    """Relative to the folder the command ran in where possible, as code scanning matches paths to the repository."""
    relative = relative_path(path)
    return Path(relative).as_uri() if Path(relative).is_absolute() else quote(relative)


def artifact(path: str) -> dict:
    return {"uri": artifact_uri(path), "uriBaseId": "%SRCROOT%"}


def physical(place: Finding | Location) -> dict:
    return {"artifactLocation": artifact(place.path), "region": {"startLine": place.line, "startColumn": place.col + 1}}


def sarif_fix(finding: Finding, edits: list[LineEdit]) -> dict:
    """The edits as replacements of whole lines: from the start of the first to the start of the line after the
    last (an empty region where lines are only inserted)."""
    replacements = [{"deletedRegion": {"startLine": edit.first + 1, "startColumn": 1, "endLine": edit.end + 1,
                                       "endColumn": 1},
                     "insertedContent": {"text": edit.text}} for edit in edits]
    return {"description": {"text": finding.fix},
            "artifactChanges": [{"artifactLocation": artifact(finding.path), "replacements": replacements}]}


def result(finding: Finding, rule_index: dict[str, int], edits: list[LineEdit]) -> dict:
    entry = {
        "ruleId": finding.code,
        "level": "warning",
        "message": {"text": finding.message},
        "locations": [{"physicalLocation": physical(finding)}],
    }
    if finding.code in rule_index:
        entry["ruleIndex"] = rule_index[finding.code]
    if finding.related:
        entry["relatedLocations"] = [{"id": number, "physicalLocation": physical(place),
                                      "message": {"text": place.message}}
                                     for number, place in enumerate(finding.related)]
    if edits:
        entry["fixes"] = [sarif_fix(finding, edits)]
    properties = {"symbol": finding.symbol, "context": finding.context, "suggestion": finding.suggestion}
    if any(properties.values()):
        entry["properties"] = {key: value for key, value in properties.items() if value}
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


def sarif_log(findings: list[Finding], problems: list[Problem] = (),
              fixes: Mapping[Finding, list[LineEdit]] | None = None) -> dict:
    """`fixes`: the edits that fix each fixable finding."""
    rules = [rule_entry(rule) for rule in RULES]
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
            "results": [result(finding, rule_index, (fixes or {}).get(finding, [])) for finding in findings],
        }],
    }


def dumps(findings: list[Finding], problems: list[Problem] = (),
          fixes: Mapping[Finding, list[LineEdit]] | None = None) -> str:
    return json.dumps(sarif_log(findings, problems, fixes), indent=2, ensure_ascii=False) + "\n"
