"""Findings remembered for a file checked alone (flake8's stdin mode): the same findings as a check that
builds the index, and never once anything they were made from has changed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import FIXTURES
from flake8_stale_state import index as index_module
from flake8_stale_state.engine import Analyzer
from flake8_stale_state.settings import Settings

MODULE = "pipe/module.py"
LIBRARY_CLASS = "class Base:\n    def report(self):\n        return self.checkpoint_interval\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The pipeline fixture as a project (setup.cfg marks its root), with an environment of its own, empty: a
    library `extlib` is installed there by the tests that need it."""
    shutil.copytree(FIXTURES / "ss101" / "pipeline" / "pipe", tmp_path / "pipe")
    (tmp_path / "setup.cfg").write_text("[flake8]\n")
    (tmp_path / "env" / "lib" / "python3.11" / "site-packages").mkdir(parents=True)
    (tmp_path / "env" / "pyvenv.cfg").write_text("home = /nowhere\nversion = 3.11.4\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("STALE_STATE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("STALE_STATE_NO_CACHE", raising=False)
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    return tmp_path


@pytest.fixture
def settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files written by the test count as settled at once, so that their statuses are trusted."""
    monkeypatch.setattr(index_module, "RACY_NANOSECONDS", 0)


def settings(project: Path, **changes) -> Settings:
    return replace(Settings(python=project / "env"), **changes)


def check_alone(settings: Settings, source: str | None = None, path: str = MODULE
                ) -> tuple[list[str], list[str], bool]:
    """A run of its own checking one file, as flake8 reading stdin is: the findings, the missing bases it
    names, and whether it built the package's index."""
    analyzer = Analyzer(settings)
    found = [finding.text() for finding in analyzer.check(Path(path), source, path)]
    missing = [base.message() for base in analyzer.new_missing_bases()]
    return found, missing, bool(analyzer._indexes)


def test_a_file_checked_again_unchanged_is_answered_without_building_the_index(project, settled):
    first = check_alone(settings(project))
    assert first[0] and first[2]
    again = check_alone(settings(project))
    assert again == (first[0], first[1], False)
    # a buffer that differs from the disk: its own findings, remembered in turn
    buffer = (project / MODULE).read_text().replace("self.checkpoint_interval = interval", "pass")
    edited = check_alone(settings(project), buffer)
    assert edited[2] and edited[0] == first[0][:1]
    assert check_alone(settings(project), buffer) == (edited[0], edited[1], False)
    assert check_alone(settings(project)) == again


def install_library(project: Path) -> None:
    site = project / "env" / "lib" / "python3.11" / "site-packages"
    (site / "extlib").mkdir()
    (site / "extlib" / "__init__.py").write_text(LIBRARY_CLASS)


def use_library(project: Path) -> None:
    module = project / MODULE
    module.write_text("from extlib import Base\n\n\n" + module.read_text().replace(
        "class PipelineModule:", "class PipelineModule(Base):"))


def edit_library(project: Path) -> None:
    library = project / "env" / "lib" / "python3.11" / "site-packages" / "extlib" / "__init__.py"
    library.write_text(LIBRARY_CLASS.replace("checkpoint_interval", "other"))


CHANGES: dict[str, tuple[Callable[[Path], None], Callable[[Path], None]]] = {
    # what the package's files read
    "another file reads the attribute": (lambda p: None, lambda p: (p / "pipe" / "engine.py").write_text(
        (p / "pipe" / "engine.py").read_text() + "\n\ndef interval(module):\n    return module.checkpoint_interval\n")),
    "a new file reads it": (lambda p: None, lambda p: (p / "pipe" / "report.py").write_text(
        "def interval(module):\n    return module.checkpoint_interval\n")),
    "a file that read it is deleted": (
        lambda p: (p / "pipe" / "report.py").write_text("def interval(m):\n    return m.checkpoint_interval\n"),
        lambda p: (p / "pipe" / "report.py").unlink()),
    # what the project's documentation describes
    "a documentation page shows it read": (lambda p: None, lambda p: (p / "README.md").write_text(
        "Set ``module.checkpoint_interval`` to checkpoint.\n")),
    # what the environment holds
    "the library of a base is installed": (use_library, install_library),
    "the library of a base is uninstalled": (
        lambda p: (use_library(p), install_library(p)),
        lambda p: shutil.rmtree(p / "env" / "lib" / "python3.11" / "site-packages" / "extlib")),
    "the library's base changes": (lambda p: (use_library(p), install_library(p)), edit_library),
    "the library is installed compiled, with no source to read": (use_library, lambda p: (
        p / "env" / "lib" / "python3.11" / "site-packages" / "extlib.cpython-311-x86_64-linux-gnu.so").write_bytes(
        b"\x7fELF")),
}


@pytest.mark.parametrize("change", CHANGES)
def test_a_change_to_what_the_findings_were_made_from_is_seen(project, settled, change):
    before, after = CHANGES[change]
    before(project)
    remembered = check_alone(settings(project))
    assert check_alone(settings(project))[2] is False  # remembered
    after(project)
    fresh = check_alone(settings(project, use_cache=False))
    assert fresh[:2] != remembered[:2]  # the change matters to the findings...
    assert check_alone(settings(project)) == (*fresh[:2], True)  # ...and is seen


def test_a_change_of_settings_is_seen(project, settled):
    remembered = check_alone(settings(project))
    ignoring = settings(project, ignore_names=("checkpoint_*",))
    found = check_alone(ignoring)
    assert found[2] and found[0] != remembered[0]
    assert check_alone(ignoring)[2] is False
    assert check_alone(settings(project))[:2] == remembered[:2]


def test_a_missing_base_is_named_by_a_remembered_check_too(project, settled):
    use_library(project)
    first = check_alone(settings(project))
    assert first[1] == [f"base class extlib.Base not found in {project / 'env'}; attributes it reads count as unread"]
    assert check_alone(settings(project)) == (first[0], first[1], False)


def test_nothing_is_remembered_of_files_changed_a_moment_ago(project):
    first = check_alone(settings(project))
    assert check_alone(settings(project)) == first  # the index built again: statuses so recent are not trusted


def test_nothing_is_remembered_without_the_cache(project, settled):
    check_alone(settings(project, use_cache=False))
    assert not (project / "cache").exists()
    assert check_alone(settings(project, use_cache=False))[2] is True


def flake8_stdin(project: Path, source: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key != "VIRTUAL_ENV"}
    return subprocess.run([sys.executable, "-m", "flake8", "--select", "SS", "--stale-state-python", "env", "-",
                           "--stdin-display-name", MODULE], cwd=project, env=env, input=source,
                          capture_output=True, text=True, timeout=300)


def test_flake8_on_stdin_says_the_same_from_what_it_remembers(project):
    use_library(project)
    time.sleep(index_module.RACY_NANOSECONDS / 1e9 + 0.1)  # the files settle, and the first run is remembered
    source = (project / MODULE).read_text()
    first = flake8_stdin(project, source)
    assert first.returncode == 1 and "SS101" in first.stdout and "extlib.Base not found" in first.stderr
    remembered = sorted((project / "cache").rglob("*.json"))
    again = flake8_stdin(project, source)
    assert (again.returncode, again.stdout, again.stderr) == (first.returncode, first.stdout, first.stderr)
    assert sorted((project / "cache").rglob("*.json")) == remembered  # nothing made anew


@pytest.mark.parametrize("damage", [
    "not json",
    '{"key": "%s", "findings": [], "installed": [], "sources": {}, "missing": []}',  # installed: not a mapping
    '{"key": "%s", "findings": [[1, 2]], "installed": {}, "sources": {}, "missing": []}',  # no finding's shape
    '{"key": "%s", "findings": [], "installed": {}, "sources": {}}',  # a part missing
])
def test_a_damaged_entry_is_made_again(project, settled, damage):
    """An entry that cannot be read as remembered findings counts as none: the findings are made again."""
    first = check_alone(settings(project))
    remembered = [entry for entry in (project / "cache").rglob("*.json") if '"findings"' in entry.read_text()]
    assert len(remembered) == 1
    remembered[0].write_text(damage % remembered[0].stem if "%s" in damage else damage)
    assert check_alone(settings(project)) == first  # made again: the index built
    assert check_alone(settings(project)) == (first[0], first[1], False)  # and remembered anew
