"""One configuration: flake8 config files, pyproject.toml and the command line, with one meaning each."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_cli
from flake8_stale_state import config

RECORDS = '''\
import models


class Base:
    pass


class Record(Base):
    def load(self):
        self.loaded_from = "db"


class Child(Record):
    def load(self):
        self.child_state = 1


class Dotted(models.Base):
    def load(self):
        self.dotted_state = 1


@models.Base
class Decorated:
    def load(self):
        self.decorated_state = 1


class BaseLike:
    def load(self):
        self.near_miss = 1


class Basement(Base.Mixin):
    def load(self):
        self.other_near_miss = 1
'''


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "records.py").write_text(RECORDS)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def reported(out: list[str]) -> list[str]:
    return [line.split("'")[1] for line in out]


ALL = ["loaded_from", "child_state", "dotted_state", "decorated_state", "near_miss", "other_near_miss"]


def test_without_configuration_everything_is_reported(project, capsys):
    assert reported(run_cli(capsys, "pkg")[1]) == ALL


def test_precedence_command_line_then_pyproject_then_flake8_files(project, capsys):
    (project / "setup.cfg").write_text("[flake8]\nstale-state-ignore-names = loaded_*\n")
    assert "loaded_from" not in reported(run_cli(capsys, "pkg")[1])
    (project / "pyproject.toml").write_text('[tool.stale-state]\nignore-names = ["child_*"]\n')
    out = reported(run_cli(capsys, "pkg")[1])
    assert "loaded_from" in out and "child_state" not in out  # pyproject wins; options are not merged
    out = reported(run_cli(capsys, "--ignore-names", "near_*", "pkg")[1])
    assert "child_state" in out and "near_miss" not in out


def test_pyproject_without_the_table_leaves_setup_cfg_in_force(project, capsys):
    (project / "pyproject.toml").write_text('[tool.black]\nline-length = 120\n')
    (project / "tox.ini").write_text("[flake8]\nstale_state_ignore_names = loaded_*, child_*\n")
    assert reported(run_cli(capsys, "pkg")[1]) == ALL[2:]


def test_files_found_from_a_subfolder_with_paths_relative_to_them(project, monkeypatch):
    (project / "pyproject.toml").write_text('[tool.stale-state]\nroots = ["pkg"]\ncache-dir = ".cache"\n')
    (project / ".flake8").write_text("[flake8]\nstale-state-framework-bases = Base\n")
    monkeypatch.chdir(project / "pkg")
    settings = config.load({"baseline": "b.json", "no-cache": None}).settings
    assert settings.roots == (project / "pkg",) and settings.cache_dir == project / ".cache"
    assert settings.framework_bases == ("Base",) and settings.use_cache
    assert config.load({"baseline": "b.json"}).baseline == Path("b.json")  # relative to where the command runs


def test_flake8_reads_only_the_nearest_file_with_a_flake8_section(project):
    (project / "setup.cfg").write_text("[metadata]\nname = pkg\n")
    (project / "tox.ini").write_text("[flake8]\nstale-state-no-cache = true\n")
    (project / "pkg" / ".flake8").write_text("[flake8]\nmax-line-length = 120\n")
    assert config.load({}, project).settings.use_cache is False
    assert config.load({}, project / "pkg").settings.use_cache is True


def test_without_a_toml_parser_pyproject_is_skipped(project, monkeypatch):
    (project / "pyproject.toml").write_text('[tool.stale-state]\nno-cache = true\n')
    monkeypatch.setattr(config, "toml_parser", lambda: None)
    assert config.load({}).settings.use_cache is True


@pytest.mark.parametrize(("file", "content", "error"), [
    ("setup.cfg", "[flake8]\nstale-state-rots = pkg\n", "setup.cfg: [flake8] stale-state-rots: unknown option"),
    ("pyproject.toml", "[tool.stale-state]\nrots = 'pkg'\n", "pyproject.toml: [tool.stale-state] rots: unknown option"),
    ("pyproject.toml", "[tool.stale-state]\nno-cache = 'maybe'\n",
     "pyproject.toml: [tool.stale-state] no-cache: expected true or false, got 'maybe'"),
    (".flake8", "[flake8]\nstale-state-no-cache = maybe\n",
     ".flake8: [flake8] stale-state-no-cache: expected true or false, got 'maybe'"),
    ("pyproject.toml", "[tool.stale-state]\nroots = 3\n",
     "pyproject.toml: [tool.stale-state] roots: expected a comma list of names, got 3"),
    ("pyproject.toml", "[tool.stale-state\n", "pyproject.toml: cannot be read"),
])
def test_unknown_option_or_bad_value_is_a_one_line_error(project, capsys, file, content, error):
    (project / file).write_text(content)
    code, out, err = run_cli(capsys, "pkg")
    assert code == 2 and out == []
    assert err.startswith(f"stale-state: error: {project / file}: {error.split(': ', 1)[1]}")
    assert err.count("\n") == 1


def test_roots_not_a_folder_is_an_error(project, capsys):
    code, _, err = run_cli(capsys, "--roots", "nowhere", "pkg")
    assert code == 2 and err == "stale-state: error: --roots: nowhere: not a folder\n"


def test_framework_bases_count_writes_as_read_through_bases_subclasses_and_decorators(project, capsys):
    out = reported(run_cli(capsys, "--framework-bases", "Base", "pkg")[1])
    assert out == ["near_miss", "other_near_miss"]  # BaseLike and Base.Mixin are other names


def test_framework_bases_in_flake8(project):
    (project / "setup.cfg").write_text("[flake8]\nstale-state-framework-bases = Base\n")
    result = subprocess.run([sys.executable, "-m", "flake8", "--select", "SS", "pkg"],
                            cwd=project, capture_output=True, text=True, timeout=120)
    assert reported(result.stdout.splitlines()) == ["near_miss", "other_near_miss"]
