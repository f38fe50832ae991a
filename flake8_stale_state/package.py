"""Which files make up the package a file belongs to."""

from __future__ import annotations

import os
from pathlib import Path

# Folders never part of a package's source, as flake8 excludes them by default.
SKIPPED_DIRS = {".git", ".hg", ".svn", ".tox", ".nox", ".eggs", "__pycache__", "node_modules", ".venv", "venv"}


def real_path(path: Path) -> Path:
    """`path.resolve()`, except that a symlink loop resolves to itself (Python 3.11 raises RuntimeError there)."""
    return Path(os.path.realpath(path))


def package_root(path: Path) -> Path:
    """The top-most folder reached upward through `__init__.py` files, else the file's own folder.

    A folder without `__init__.py` inside a package (an implicit namespace subpackage, such as
    `flask/sansio/`) belongs to that package.
    """
    folder = real_path(path).parent
    while not (folder / "__init__.py").is_file() and (folder.parent / "__init__.py").is_file():
        folder = folder.parent
    root = folder
    while (folder / "__init__.py").is_file():
        root = folder
        if folder.parent == folder:
            break
        folder = folder.parent
    return root


def is_package(root: Path) -> bool:
    return (root / "__init__.py").is_file()


def python_files(root: Path, recursive: bool = True) -> list[Path]:
    """Every `.py` file under root, sorted, following no symlinked folder out of or back into the tree."""
    if not recursive:
        return sorted(p for p in root.glob("*.py") if p.is_file())
    found = []
    seen = set()
    top = real_path(root)
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not (d in SKIPPED_DIRS or d.startswith(".") or d.endswith(".egg-info")))
        real_folder = top / os.path.relpath(folder, root)  # the walk enters no symlinked folder
        for name in files:
            if name.endswith(".py"):
                file = Path(folder, name)
                real = real_path(file) if os.path.islink(file) else real_folder / name
                # a symlink leading out of the tree belongs to another package
                if real in seen or not real.is_relative_to(top) or not file.is_file():
                    continue
                seen.add(real)
                found.append(file)
    return sorted(found)
