"""The checks: one module per code, each a pure function of (file facts, package index)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from flake8_stale_state.checks import config_shadow, dead_attribute, stale_cache

if TYPE_CHECKING:
    from flake8_stale_state.findings import Finding

CHECKS = (dead_attribute, stale_cache, config_shadow)


COLLECTING = (stale_cache.CODE, config_shadow.CODE)  # the codes whose checks collect libcst facts of their own


def collectors() -> dict:
    """Code -> the libcst collector class a check needs beyond the shared attribute facts.

    Imported here, when a file is parsed, rather than with the checks: a run served from the cache
    never loads libcst.
    """
    from flake8_stale_state.checks import config_shadow_cst, stale_cache_cst

    return {stale_cache.CODE: stale_cache_cst.Collector, config_shadow.CODE: config_shadow_cst.Collector}


def fix_source(source: str, findings_of: Callable[[str], list[Finding]]) -> str:
    """`source` with the findings of every check that has a `fix` fixed, one check at a time.

    `findings_of` analyses a version of the source; it is called again after each check's fix, because a fix
    moves the lines the next check's findings point to.
    """
    for check in CHECKS:
        fix = getattr(check, "fix", None)
        if fix is None:
            continue
        findings = [f for f in findings_of(source) if f.code == check.CODE]
        if findings:
            source = fix(source, findings)
    return source
