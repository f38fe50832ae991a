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
