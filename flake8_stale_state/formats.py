"""Findings and the paths that could not be analysed, in the formats people and CI systems read.

`sarif.py` holds the SARIF log; this module the others: flake8's text, a JSON envelope, GitHub workflow
annotations and GitLab Code Quality.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping

from flake8_stale_state import __version__
from flake8_stale_state.edits import LineEdit
from flake8_stale_state.engine import UNANALYSED
from flake8_stale_state.findings import Finding, Problem, relative_path

JSON_VERSION = 1  # of the envelope: raised when a field changes meaning or goes away


def text(findings: list[Finding], problems: list[Problem]) -> str:
    return "".join(f.text() + "\n" for f in findings)  # problems go to stderr, as every front end says them


def as_json(findings: list[Finding], problems: list[Problem]) -> str:
    envelope = {
        "version": JSON_VERSION,
        "tool": {"name": "stale-state", "version": __version__},
        "findings": [
            {"path": f.path, "line": f.line, "column": f.col + 1, "code": f.code, "message": f.message,
             "symbol": f.symbol, "context": f.context, "suggestion": f.suggestion, "fix": f.fix,
             "related": [{"path": r.path, "line": r.line, "column": r.col + 1, "message": r.message}
                         for r in f.related]}
            for f in findings
        ],
        "errors": [{"path": p.path, "message": p.message} for p in problems],
    }
    return json.dumps(envelope, indent=2, ensure_ascii=False) + "\n"


def _escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(value: str) -> str:
    return _escape_data(value).replace(":", "%3A").replace(",", "%2C")


def _annotation(level: str, message: str, **properties: object) -> str:
    listed = ",".join(f"{name}={_escape_property(str(value))}" for name, value in properties.items())
    return f"::{level} {listed}::{_escape_data(message)}\n"


def github(findings: list[Finding], problems: list[Problem]) -> str:
    """GitHub Actions workflow commands: each finding a warning annotation on its line, each path that could
    not be analysed an error annotation on the file."""
    return "".join(
        [_annotation("warning", f.message, file=relative_path(f.path), line=f.line, col=f.col + 1, title=f.code)
         for f in findings]
        + [_annotation("error", p.message, file=relative_path(p.path), title=UNANALYSED) for p in problems]
    )


def _fingerprint(parts: tuple[str, ...]) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def gitlab(findings: list[Finding], problems: list[Problem]) -> str:
    """GitLab Code Quality issues. A finding's fingerprint is keyed as a baseline entry is (file, enclosing
    `Class.method`, attribute or key, code; the n-th of identical ones), never by line, so that GitLab tells
    new findings from moved ones; a path that could not be analysed is a major issue of code SS000."""
    seen: Counter[tuple[str, ...]] = Counter()
    issues = []
    for finding in findings:
        key = (relative_path(finding.path), finding.context, finding.symbol, finding.code)
        seen[key] += 1
        issues.append(_issue(finding.code, f"{finding.code} {finding.message}", key[0], finding.line, "minor",
                             (*key, str(seen[key]))))
    for problem in problems:
        path = relative_path(problem.path)
        issues.append(_issue(UNANALYSED, f"{UNANALYSED} {problem.message}", path, 1, "major",
                             (path, UNANALYSED, problem.message)))
    return json.dumps(issues, indent=2, ensure_ascii=False) + "\n"


def _issue(code: str, description: str, path: str, line: int, severity: str, key: tuple[str, ...]) -> dict:
    return {
        "type": "issue",
        "check_name": code,
        "description": description,
        "categories": ["Bug Risk"],
        "severity": severity,
        "fingerprint": _fingerprint(key),
        "location": {"path": path, "lines": {"begin": line}},
    }


def sarif_log(findings: list[Finding], problems: list[Problem],
              fixes: Mapping[Finding, list[LineEdit]] | None = None) -> str:
    from flake8_stale_state import sarif  # with the rules' documentation: loaded for this format alone

    return sarif.dumps(findings, problems, fixes or {})


FORMATS = {"text": text, "json": as_json, "sarif": sarif_log, "github": github, "gitlab": gitlab}


def report(findings: list[Finding], problems: list[Problem], output_format: str,
           fixes: Mapping[Finding, list[LineEdit]] | None = None) -> str:
    """`fixes`: the edits that fix each fixable finding, for the formats that carry them (SARIF)."""
    if output_format == "sarif":
        return sarif_log(findings, problems, fixes)
    return FORMATS[output_format](findings, problems)
