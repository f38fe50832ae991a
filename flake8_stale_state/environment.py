"""Which Python environment the checked code runs in, and the folders its installed libraries live in.

The environment is found by reading its layout (`pyvenv.cfg`, `lib/pythonX.Y/site-packages`, the paths `.pth`
files add), never by running its interpreter: the path can come from a configuration file of the repository
being checked, and opening a cloned repository in an editor must not execute anything it ships. For the same
reason the `import` lines of `.pth` files are never run.
"""

from __future__ import annotations

import os
import site
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from flake8_stale_state.package import real_path

MAX_PTH_BYTES = 1 << 20  # a .pth file lists a few paths; more than this is not one to follow


class NotAnEnvironment(ValueError):
    """The `python` option names no interpreter or virtual environment whose libraries can be found."""


@dataclass(frozen=True)
class Environment:
    location: Path  # the virtual environment or the interpreter's prefix, as messages name it
    library_folders: tuple[Path, ...]  # site-packages folders first, then the folders their .pth files add
    stdlib: Path | None = None  # its standard library's folder; None: that of the Python running the check


def find_environment(python: Path | None = None, environ: Mapping[str, str] = os.environ) -> Environment:
    """The environment `python` names (an interpreter or a virtual environment's folder), else the active
    virtual environment (`VIRTUAL_ENV`), else the one of the interpreter running this code."""
    if python is not None:
        return named_environment(python)
    active = environ.get("VIRTUAL_ENV")
    if active:
        try:
            return named_environment(Path(active))
        except NotAnEnvironment:
            pass  # left over from a deleted environment: the running interpreter's is the one in use
    return running_environment()


def running_environment() -> Environment:
    folders = [Path(folder) for folder in site.getsitepackages()]
    if site.ENABLE_USER_SITE:
        folders.append(Path(site.getusersitepackages()))
    return Environment(Path(sys.prefix), with_pth_folders(folders))


def named_environment(python: Path) -> Environment:
    """The environment of an interpreter (`.venv/bin/python`, `Scripts/python.exe`) or of a prefix folder."""
    if python.is_dir():
        prefix, version = python, None
    elif python.is_file():
        folder = python.parent
        prefix = folder.parent if folder.name in ("bin", "Scripts") else folder  # Windows: python.exe at the top
        version = python.name.removesuffix(".exe").removeprefix("python") or None  # python3.11 -> 3.11
    else:
        raise NotAnEnvironment(f"python: {python}: no such file or folder")
    config = venv_config(prefix)
    if "version" in config or "version_info" in config:
        version = ".".join((config.get("version") or config["version_info"]).split(".")[:2])
    # a virtual environment's standard library, and the system site-packages it may include, are its base's
    base = home_prefix(config["home"]) if "home" in config else prefix
    folders = list(layout_folders(prefix, version))
    if base != prefix and config.get("include-system-site-packages", "").lower() == "true":
        folders += layout_folders(base, version)
    if not folders:
        raise NotAnEnvironment(f"python: {python}: not a Python interpreter or virtual environment "
                               "(no site-packages folder in its layout)")
    return Environment(prefix, with_pth_folders(folders), stdlib_folder(base, version))


def venv_config(prefix: Path) -> dict[str, str]:
    """The `key = value` lines of the environment's pyvenv.cfg; empty when it is not a virtual environment."""
    try:
        text = (prefix / "pyvenv.cfg").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    pairs = (line.partition("=") for line in text.splitlines())
    return {key.strip().lower(): value.strip() for key, sep, value in pairs if sep}


def home_prefix(home: str) -> Path:
    """The prefix of the interpreter a virtual environment was made from: `home` is its folder."""
    folder = Path(home)
    return folder.parent if folder.name in ("bin", "Scripts") else folder


def version_folders(prefix: Path, version: str | None) -> Iterator[Path]:
    """`lib/pythonX.Y` of the version given (of any Python 3 if unknown), then `Lib` (Windows)."""
    pattern = f"python{version}*" if version and version[:1].isdigit() else "python3*"
    for lib in ("lib", "lib64"):
        yield from sorted((prefix / lib).glob(pattern))
    yield prefix / "Lib"


def stdlib_folder(prefix: Path, version: str | None) -> Path | None:
    return next((folder for folder in version_folders(prefix, version) if (folder / "os.py").is_file()), None)


def layout_folders(prefix: Path, version: str | None) -> Iterator[Path]:
    """The site-packages folders of the environment at `prefix` (dist-packages on Debian's Python)."""
    for folder in version_folders(prefix, version):
        yield from (found for name in ("site-packages", "dist-packages") if (found := folder / name).is_dir())


def with_pth_folders(folders: Iterable[Path]) -> tuple[Path, ...]:
    """The folders, each once, followed by those the path lines of their `.pth` files add, as `site` reads
    them; the `import` lines, which `site` would run, are skipped."""
    found: dict[Path, None] = {}
    own = [folder for folder in folders if folder.is_dir()]
    for folder in own:
        found.setdefault(real_path(folder))
    for folder in own:
        for line in pth_lines(folder):
            added = real_path(folder / line)
            if added.is_dir():
                found.setdefault(added)
    return tuple(found)


def pth_lines(folder: Path) -> Iterator[str]:
    try:
        files = sorted(path for path in folder.iterdir() if path.suffix == ".pth")
    except OSError:
        return
    for file in files:
        try:
            with open(file, "rb") as stream:
                text = stream.read(MAX_PTH_BYTES).decode("utf-8", errors="replace")
        except OSError:
            continue
        for line in text.splitlines():
            line = line.rstrip()
            if line and not line.startswith("#") and not line.startswith(("import ", "import\t")):
                yield line
