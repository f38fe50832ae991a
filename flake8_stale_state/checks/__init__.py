"""The checks: one module per code, each a pure function of (file facts, package index)."""

from __future__ import annotations

from flake8_stale_state.checks import dead_attribute

CHECKS = (dead_attribute,)


def collectors() -> dict:
    """Code -> the collector class a check needs beyond the shared attribute facts."""
    return {check.CODE: check.Collector for check in CHECKS if getattr(check, "Collector", None)}
