"""Whole released source trees through both front ends: no crash, no internal error, the same findings."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from corpora import sdist

pytestmark = pytest.mark.e2e

TREES = [("attrs", "25.3.0"), ("click", "8.2.1"), ("requests", "2.32.4"), ("flask", "3.1.1"), ("rich", "14.0.0")]


@pytest.mark.parametrize(("name", "version"), TREES, ids=[name for name, _ in TREES])
def test_whole_sdist_through_flake8_and_the_command(name, version, tmp_path):
    tree = sdist(name, version)
    env = {**os.environ, "STALE_STATE_CACHE_DIR": str(tmp_path / "cache")}
    # --isolated: the sdist's own [flake8] settings (excludes) would make the two file lists differ
    flake8 = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "SS", "-j", "2", "."],
                            cwd=tree, env=env, capture_output=True, text=True, timeout=600)
    command = subprocess.run([sys.executable, "-m", "flake8_stale_state", "."],
                             cwd=tree, env=env, capture_output=True, text=True, timeout=600)
    for result in (flake8, command):
        assert "Traceback" not in result.stderr, result.stderr[-3000:]
        assert "internal error" not in result.stdout + result.stderr
        assert "SS000" not in result.stdout
    assert command.returncode in (0, 1), command.stderr
    normalise = lambda out: sorted(line.removeprefix("./") for line in out.splitlines())  # noqa: E731
    assert normalise(command.stdout) == normalise(flake8.stdout)
