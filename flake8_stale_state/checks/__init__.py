"""The registry of rules: one module per code, each declaring a `RULE` (rule.py). The engine, the cache, the
front ends and the docs read the checks from here, and from nowhere else."""

from __future__ import annotations

from collections.abc import Callable

from flake8_stale_state.checks import config_shadow, dead_attribute, stale_cache
from flake8_stale_state.findings import Finding
from flake8_stale_state.rule import Rule

RULES: list[Rule] = [dead_attribute.RULE, stale_cache.RULE, config_shadow.RULE]
UNANALYSED = "SS000"  # a file that could not be analysed, or a failure inside the tool


def codes() -> tuple[str, ...]:
    """Every code a front end may report."""
    return (UNANALYSED, *(rule.code for rule in RULES))


def register(rule: Rule) -> None:
    """Add a rule at run time (a project's own check, a test's): it takes part in everything the others do."""
    if any(known.code == rule.code for known in RULES):
        raise ValueError(f"a rule with code {rule.code} is registered already")
    RULES.append(rule)


def rule_of(code: str) -> Rule | None:
    return next((rule for rule in RULES if rule.code == code), None)


def fix_source(source: str, findings_of: Callable[[str], list[Finding]]) -> str:
    """`source` with the findings of every rule that has a `fix` fixed, one rule at a time.

    `findings_of` analyses a version of the source; it is called again after each rule's fix, because a fix
    moves the lines the next rule's findings point to.
    """
    for rule in RULES:
        if rule.fix is None:
            continue
        findings = [f for f in findings_of(source) if f.code == rule.code]
        if findings:
            source = rule.fix(source, findings)
    return source
