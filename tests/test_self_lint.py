"""The project passes its own flake8 configuration, stale-state checks included."""

import subprocess
import sys

from conftest import REPO


def test_project_is_clean_under_its_own_flake8_config():
    result = subprocess.run(
        [sys.executable, "-m", "flake8", "flake8_stale_state", "tests", "benchmarks"],
        cwd=REPO, capture_output=True, text=True,
    )
    assert result.stdout == "" and result.returncode == 0, result.stdout + result.stderr
