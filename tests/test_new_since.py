"""`stale-state --new-since REF`: only the findings introduced since REF's merge base with HEAD, on a real git
history made here; the base side read from git's objects, the working tree untouched."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

OLD = "class Old:\n    def set(self):\n        self.old_dead = 1\n"
READER = "def use(o):\n    return o.kept\n"
NEW_DEAD = "pkg/new.py:3:9: SS101 'new_dead' is assigned but never read in package 'pkg'"
OLD_DEAD = "SS101 'old_dead' is assigned but never read in package 'pkg'"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=test", "-c", "user.email=test@example.invalid", "-c", "commit.gpgsign=false",
         *args], cwd=repo, check=True, capture_output=True, text=True,
    ).stdout


def commit(repo: Path, files: dict[str, str], message: str) -> None:
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """main: a package with one old finding; branch `feature` from it."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    commit(root, {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/old.py": OLD, "pkg/reader.py": READER}, "base")
    git(root, "checkout", "-q", "-b", "feature")
    return root


def stale_state(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flake8_stale_state", *args], cwd=repo, capture_output=True,
                          text=True, timeout=300)


def test_only_findings_introduced_on_the_branch_are_reported(repo):
    # the old finding moves down two lines and stays; a new one comes in; main moves on meanwhile
    new = "class New:\n    def set(self):\n        self.new_dead = 1\n"
    commit(repo, {"pkg/old.py": "\n\n" + OLD, "pkg/new.py": new}, "feature work")
    git(repo, "checkout", "-q", "main")
    commit(repo, {"pkg/later.py": "class Later:\n    def set(self):\n        self.later_dead = 1\n"}, "main moves on")
    git(repo, "checkout", "-q", "feature")
    everything = stale_state(repo, "pkg")
    assert everything.returncode == 1 and len(everything.stdout.splitlines()) == 2
    result = stale_state(repo, "--new-since", "main", "pkg")
    assert (result.returncode, result.stdout.splitlines(), result.stderr) == (1, [NEW_DEAD], "")
    assert git(repo, "status", "--porcelain") == ""  # the working tree and the index are untouched


def test_nothing_new_since_head_is_clean_and_the_base_comes_from_the_same_cache(repo, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("STALE_STATE_CACHE_DIR", str(cache))
    assert OLD_DEAD in stale_state(repo, "pkg").stdout  # it is there, just not new
    entries = sorted(cache.rglob("*.json"))
    result = stale_state(repo, "--new-since", "HEAD", "pkg")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    assert entries and sorted(cache.rglob("*.json")) == entries  # the same content: nothing made again


def test_uncommitted_changes_count_and_a_second_identical_finding_is_new(repo):
    (repo / "pkg" / "old.py").write_text(OLD + "        self.old_dead = 2\n")  # the same key, twice now
    result = stale_state(repo, "--new-since", "HEAD", "--format", "json", "pkg")
    (found,) = json.loads(result.stdout)["findings"]
    assert result.returncode == 1 and (found["symbol"], found["line"]) == ("old_dead", 4)


def test_a_finding_fixed_since_the_base_is_not_reported_and_a_read_removed_since_is(repo):
    commit(repo, {"pkg/old.py": OLD + "\n    def get(self):\n        return self.old_dead\n",
                  "pkg/reader.py": "def use(o):\n    return 0\n"}, "fix one, break another")
    (repo / "pkg" / "kept.py").write_text("class K:\n    def set(self):\n        self.kept = 1\n")
    result = stale_state(repo, "--new-since", "main", "pkg")
    assert result.stdout.splitlines() == ["pkg/kept.py:3:9: SS101 'kept' is assigned but never read in package 'pkg'"]


@pytest.mark.parametrize(("args", "problem"), [
    (["--new-since", "nowhere"], "--new-since nowhere: "),
    (["--new-since", "HEAD", "--baseline", "b.json"], "--new-since: not with --baseline"),
])
def test_a_bad_ref_or_a_baseline_beside_it_is_one_line(repo, args, problem):
    result = stale_state(repo, *args, "pkg")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith(f"stale-state: error: {problem}") and result.stderr.count("\n") == 1


def test_outside_a_repository_is_one_line(tmp_path):
    (tmp_path / "m.py").write_text(OLD)
    result = stale_state(tmp_path, "--new-since", "HEAD", "m.py")
    assert result.returncode == 2 and result.stderr.startswith("stale-state: error: --new-since HEAD: ")
    assert result.stderr.count("\n") == 1
