"""The ground truth: DeepSpeed 0.19.3 has the PR 8178 bug, 0.19.4 has the fix."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from corpora import sdist

pytestmark = pytest.mark.e2e

MODULE = "deepspeed/runtime/pipe/module.py"
SETTER = (
    f"{MODULE}:554:9: SS101 'checkpoint_interval' is assigned but never read in package 'deepspeed'; "
    "did you mean 'activation_checkpoint_interval'?"
)
FLAG = f"{MODULE}:225:13: SS101 'interval_was_zero' is assigned but never read in package 'deepspeed'"


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    # one warm cache for every run below: the first run pays for the index
    return {**os.environ, "STALE_STATE_CACHE_DIR": str(tmp_path_factory.mktemp("deepspeed-cache"))}


def flake8(tree, env, *args, stdin=None):
    result = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "SS", *args],
        cwd=tree, env=env, input=stdin, capture_output=True, text=True, timeout=1800,
    )
    assert "Traceback" not in result.stderr, result.stderr
    return result.stdout.splitlines()


def test_bug_found_in_0_19_3_whole_tree_and_same_as_cli(cache):
    tree = sdist("deepspeed", "0.19.3")
    out = flake8(tree, cache, "deepspeed/")
    assert SETTER in out and FLAG in out
    cli = subprocess.run(
        [sys.executable, "-m", "flake8_stale_state", "deepspeed/"], cwd=tree, env=cache, capture_output=True, text=True
    )
    assert cli.stdout.splitlines() == out


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_bug_found_in_0_19_3_from_one_file(cache, jobs):
    out = flake8(sdist("deepspeed", "0.19.3"), cache, "-j", jobs, MODULE)
    assert SETTER in out and FLAG in out


def test_bug_found_in_0_19_3_through_stdin(cache):
    tree = sdist("deepspeed", "0.19.3")
    source = (tree / MODULE).read_text()
    out = flake8(tree, cache, "-", "--stdin-display-name", MODULE, stdin=source)
    assert SETTER in out and FLAG in out


def test_fix_is_quiet_in_0_19_4(cache):
    out = flake8(sdist("deepspeed", "0.19.4"), cache, "deepspeed/")
    assert not any("'checkpoint_interval'" in line for line in out)
    assert any(line.startswith(f"{MODULE}:") and "'interval_was_zero'" in line for line in out)  # still never read


def test_the_prepass_and_its_excerpts_change_no_finding_on_0_19_3():
    """Every check on every file, from the whole-file facts and from the pre-pass's choice of files and
    excerpts: the same findings (86 on 0.19.3, all three codes among them)."""
    from flake8_stale_state.engine import Analyzer
    from flake8_stale_state.package import python_files
    from flake8_stale_state.settings import Settings

    root = sdist("deepspeed", "0.19.3") / "deepspeed"
    files = python_files(root)

    def findings(prepass: bool) -> list:
        analyzer = Analyzer(Settings(use_cache=False, prepass=prepass))
        analyzer.prepare(files)
        return [finding for path in files for finding in analyzer.check(path)]

    with_prepass = findings(True)
    assert {f.code for f in with_prepass} == {"SS101", "SS102", "SS103"}
    assert with_prepass == findings(False)
