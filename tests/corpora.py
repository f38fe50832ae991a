"""Released packages used as test corpora, downloaded once into a cache folder outside the repository."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

CORPORA = Path(os.environ.get("STALE_STATE_CORPORA", Path.home() / ".cache" / "stale-state" / "sdists"))


def sdist(name: str, version: str) -> Path:
    """The extracted source distribution `name==version`, e.g. ~/.cache/stale-state/sdists/deepspeed-0.19.3."""
    folder = CORPORA / f"{name}-{version}"
    if folder.is_dir():
        return folder
    CORPORA.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CORPORA) as download:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
             f"{name}=={version}", "-d", download],
            check=True,
        )
        (archive,) = Path(download).glob("*.tar.gz")
        with tempfile.TemporaryDirectory(dir=CORPORA) as unpack:
            with tarfile.open(archive) as tar:
                tar.extractall(unpack, filter="data")
            (extracted,) = Path(unpack).iterdir()
            # the rename is atomic, so a concurrent test never sees half a tree
            try:
                extracted.rename(folder)
            except OSError:
                if not folder.is_dir():
                    raise
    return folder


def environment(name: str, version: str) -> Path:
    """A virtual environment holding the released `name==version` without its dependencies (its code is only
    read, never run), e.g. ~/.cache/stale-state/envs/twisted-26.10.0."""
    folder = CORPORA.parent / "envs" / f"{name}-{version}"
    if folder.is_dir():
        return folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder.parent) as building:
        built = Path(building) / folder.name
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(built)], check=True)
        site_packages = built / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-compile", "--target",
             str(site_packages), f"{name}=={version}"],
            check=True,
        )
        try:  # atomic, as for the sdists: a concurrent test never sees half an environment
            built.rename(folder)
        except OSError:
            if not folder.is_dir():
                raise
    return folder
