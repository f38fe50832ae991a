"""The project's documentation pages: what they describe is API, and a page that cannot be read costs nothing
but its own names."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import run_cli
from flake8_stale_state import package
from flake8_stale_state.package import documentation_pages

SOURCE = """\
class Port:
    def __init__(self):
        self.manufacturer = None
        self.vendor = None
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "setup.cfg").write_text("[metadata]\nname = ports\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "ports.py").write_text(SOURCE)
    (tmp_path / "docs").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def reported(capsys: pytest.CaptureFixture) -> list[str]:
    code, out, err = run_cli(capsys, "--no-cache", "pkg")
    assert code in (0, 1) and "Traceback" not in err, err
    return [line.split("'")[1] for line in out]


def test_a_page_describing_an_attribute_makes_it_api(project, capsys):
    assert reported(capsys) == ["manufacturer", "vendor"]
    (project / "docs" / "ports.rst").write_text(".. class:: Port\n\n   .. attribute:: manufacturer\n")
    assert reported(capsys) == ["vendor"]


def test_pages_that_cannot_be_read_cost_only_their_own_names(project, capsys):
    (project / "docs" / "binary.rst").write_bytes(b"\xff\xfe\x00 .. attribute:: manufacturer \xc3\x28\n")
    (project / "docs" / "gone.rst").symlink_to(project / "nowhere.rst")
    (project / "docs" / "folder.md").mkdir()
    (project / "docs" / "huge.txt").write_text(".. attribute:: vendor\n" + "x" * package.MAX_DOCUMENTATION_BYTES)
    assert reported(capsys) == ["vendor"]  # the undecodable page still names `manufacturer`; the huge one is data


def test_built_copies_and_other_suffixes_are_not_pages(project):
    docs = project / "docs"
    (docs / "_build" / "html").mkdir(parents=True)
    (docs / "_build" / "html" / "ports.txt").write_text(".. attribute:: vendor\n")
    (docs / "conf.py").write_text("")
    (docs / "api.rst").write_text("")
    (project / "doc").mkdir()
    (project / "doc" / "guide.md").write_text("")
    assert documentation_pages(project) == [docs / "api.rst", project / "doc" / "guide.md"]


def test_the_pages_read_are_bounded(project, monkeypatch):
    for number in range(5):
        (project / "docs" / f"page{number}.rst").write_text("")
    monkeypatch.setattr(package, "MAX_DOCUMENTATION_PAGES", 3)
    assert len(documentation_pages(project)) == 3


def test_a_symlinked_folder_is_not_followed(project):
    outside = project / "outside"
    outside.mkdir()
    (outside / "loop.rst").write_text("")
    os.symlink(outside, project / "docs" / "linked")
    assert documentation_pages(project) == []
