"""What a packager gets: the sdist carries everything its tests need, and the metadata installs beside others."""

from __future__ import annotations

import email.parser
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from conftest import REPO

SHIPPED_FOLDERS = ("flake8_stale_state", "tests", "fixtures")


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The source distribution built from this tree, with the build tools of this environment."""
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", str(out), str(REPO)],
                   check=True, capture_output=True, timeout=300)
    (archive,) = out.glob("flake8_stale_state-*.tar.gz")
    return archive


def members(archive: Path) -> set[str]:
    """Paths inside the sdist, without its top folder."""
    with tarfile.open(archive) as tar:
        return {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}


def metadata(archive: Path) -> email.message.Message:
    with tarfile.open(archive) as tar:
        (info,) = [m for m in tar.getmembers() if m.name.count("/") == 1 and m.name.endswith("/PKG-INFO")]
        return email.parser.Parser().parsestr(tar.extractfile(info).read().decode())


def test_sdist_carries_the_tests_their_fixtures_and_the_license(sdist):
    on_disk = {
        path.relative_to(REPO).as_posix()
        for folder in SHIPPED_FOLDERS for path in (REPO / folder).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and ".stale_state_cache" not in path.parts
    }
    shipped = members(sdist)
    assert {"tests/conftest.py", "tests/corpora.py", "LICENSE", "README.md", "pyproject.toml"} <= shipped
    assert sorted(on_disk - shipped) == []
    assert not any(name.startswith((".venv", ".ci/", ".git/")) or "__pycache__" in name
                   or ".stale_state_cache" in name for name in shipped)


def test_metadata_has_ranges_an_spdx_license_and_the_pythons_it_claims(sdist):
    info = metadata(sdist)
    assert info["License-Expression"] == "MIT" and info.get_all("License-File") == ["LICENSE"]
    requirements = info.get_all("Requires-Dist")
    runtime = [r for r in requirements if "extra ==" not in r]
    assert runtime and not any("==" in r for r in runtime)  # ranges, so that other tools' pins still install
    assert any(r.startswith("tomli") and "python_version < \"3.11\"" in r for r in runtime)
    assert any(r.startswith("pygls") and "extra == \"lsp\"" in r for r in requirements)
    assert not any(r.startswith("lsprotocol") for r in requirements)  # pygls brings its own
    claimed = {c.rsplit(" :: ", 1)[1] for c in info.get_all("Classifier") if c.count(".") == 1 and "Python ::" in c}
    assert info["Requires-Python"] == ">=3.10" and claimed == {"3.10", "3.11", "3.12", "3.13"}
    assert {url.split(",")[0] for url in info.get_all("Project-URL")} >= {"Homepage", "Source", "Issues"}


def test_the_sdist_runs_its_own_tests(sdist, tmp_path):
    with tarfile.open(sdist) as tar:
        tar.extractall(tmp_path, filter="data")
    (unpacked,) = tmp_path.iterdir()
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_fixtures.py"],
                            cwd=unpacked, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:]
    assert " passed" in result.stdout.splitlines()[-1]
