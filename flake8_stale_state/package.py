"""Which files make up the package a file belongs to."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

# Folders never part of a package's source, as flake8 excludes them by default.
SKIPPED_DIRS = {".git", ".hg", ".svn", ".tox", ".nox", ".eggs", "__pycache__", "node_modules", ".venv", "venv"}


def real_path(path: Path) -> Path:
    """`path.resolve()`, except that a symlink loop resolves to itself (Python 3.11 raises RuntimeError there)."""
    return Path(os.path.realpath(path))


def package_root(folder: str, has_init: Callable[[str], bool] | None = None) -> Path:
    """The top-most folder reached upward through `__init__.py` files from a file's real folder, else that
    folder (`has_init`: whether a folder holds `__init__.py`, where its answers are kept).

    A folder without `__init__.py` inside a package (an implicit namespace subpackage, such as
    `flask/sansio/`) belongs to that package.
    """
    has_init = has_init or holds_init
    while not has_init(folder) and has_init(os.path.dirname(folder)):
        folder = os.path.dirname(folder)
    root = folder
    while has_init(folder):
        root = folder
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return Path(root)


def holds_init(folder: str) -> bool:
    return os.path.isfile(os.path.join(folder, "__init__.py"))


def is_package(root: Path) -> bool:
    return (root / "__init__.py").is_file()


def python_files(root: Path, recursive: bool = True) -> list[Path]:
    """Every `.py` file under root, sorted, following no symlinked folder out of or back into the tree."""
    return [path for path, _ in listed_files(root, recursive)]


def listed_files(root: Path, recursive: bool = True) -> list[tuple[Path, Path]]:
    """`python_files` with the real path of each: the listing knows it, so no file is resolved again."""
    return [(Path(path), Path(real)) for path, real in listed_names(root, recursive)]


def listed_names(root: Path, recursive: bool = True) -> list[tuple[str, str]]:
    """`listed_files` as text, where no path is worked with beyond its status: a path object each is a good
    part of the listing's time."""
    if not recursive:
        return [(str(p), os.path.realpath(p)) for p in sorted(root.glob("*.py")) if p.is_file()]
    top = os.path.realpath(root)
    inside = top if top.endswith(os.sep) else top + os.sep
    found: dict[str, str] = {}  # real path -> path under root, the first met in a top-down walk
    pending = [(os.fspath(root), top)]  # folder, its real path: the walk enters no symlinked folder
    while pending:
        folder, real_folder = pending.pop()
        try:
            with os.scandir(folder) as scan:
                entries = list(scan)
        except OSError:
            continue
        folders = []
        for entry in entries:
            name = entry.name
            try:
                is_folder = entry.is_dir()
            except OSError:
                is_folder = False
            if is_folder:
                if not (name in SKIPPED_DIRS or name.startswith(".") or name.endswith(".egg-info")
                        or entry.is_symlink()):
                    folders.append(name)
            elif name.endswith(".py"):
                if entry.is_symlink():
                    real = os.path.realpath(entry.path)
                    # a symlink leading out of the tree belongs to another package
                    if not real.startswith(inside) or not os.path.isfile(entry.path):
                        continue
                elif entry.is_file(follow_symlinks=False):
                    real = os.path.join(real_folder, name)
                else:
                    continue
                found.setdefault(real, entry.path)
        for name in sorted(folders, reverse=True):  # popped in name order: os.walk's
            pending.append((os.path.join(folder, name), os.path.join(real_folder, name)))
    listed = sorted(found.items(), key=lambda item: os.path.normcase(item[1]).split(os.sep))  # as Paths sort
    return [(path, real) for real, path in listed]


# The pages of a project's documentation, in the folders projects keep them in, and the pages beside its
# configuration that speak to users (README, CHANGES, ...): what they describe is API, and the code they show is
# users' code. Bounded: a page larger than this is data, not prose, and a tree of more pages is read in part.
DOCUMENTATION_FOLDERS = ("docs", "doc", "documentation")
DOCUMENTATION_SUFFIXES = (".rst", ".md", ".txt", ".html", ".htm")
ROOT_PAGES = ("readme", "changes", "changelog", "history", "news")  # names, in any case, with or without suffix
ROOT_PAGE_SUFFIXES = ("", ".rst", ".md", ".txt")
# a path to a page, alone or ending a link: `reference/library-reference.rst`; from the start of the path only,
# and of bounded length, so that a page of one long path-like word costs its length, not its square
NAMED_PAGE = re.compile(r"(?<![\w.\-/])[\w.\-/]{1,200}/[\w.\-]{1,100}\.(?:rst|md)\b")
MAX_DOCUMENTATION_PAGES = 2000
MAX_DOCUMENTATION_BYTES = 1_000_000


def documentation_pages(project: Path) -> list[Path]:
    """The documentation pages of the project's folder, following no symlinked folder: those beside its
    configuration, then those of its documentation folders, each sorted."""
    pages: list[Path] = []
    for page in _page_candidates(project):
        if _size(page) <= MAX_DOCUMENTATION_BYTES:
            pages.append(page)
            if len(pages) >= MAX_DOCUMENTATION_PAGES:
                break
    return pages


def _page_candidates(project: Path) -> Iterator[Path]:
    try:
        with os.scandir(project) as entries:  # closed where a listing fails half-way too
            beside = sorted(entry.name for entry in entries if entry.is_file())
    except OSError:
        beside = []
    roots = [project / name for name in beside if _is_root_page(name)]
    yield from roots
    yield from _pages_named(project, roots)
    for name in DOCUMENTATION_FOLDERS:
        for folder, subfolders, files in os.walk(project / name):
            subfolders[:] = sorted(d for d in subfolders if d not in SKIPPED_DIRS and not d.startswith("_build"))
            yield from (Path(folder, file) for file in sorted(files) if Path(file).suffix in DOCUMENTATION_SUFFIXES)


def _pages_named(project: Path, roots: list[Path]) -> Iterator[Path]:
    """The project's pages outside its documentation folders that its root pages name, by a path from the
    project's folder or a link ending in one (`reference/library-reference.rst`, `.../blob/master/reference/...`):
    the documentation its README sends users to."""
    named: set[str] = set()
    for root in roots:
        if _size(root) <= MAX_DOCUMENTATION_BYTES:
            try:
                named.update(NAMED_PAGE.findall(root.read_text(encoding="utf-8", errors="replace")))
            except OSError:
                continue
    pages: set[Path] = set()
    inside = project.resolve()
    for path in named:
        parts = path.split("/")
        for start in range(len(parts) - 1):  # a folder and a page at least: the pages beside the roots are theirs
            tail = parts[start:]
            if tail[0] in DOCUMENTATION_FOLDERS or ".." in tail or "" in tail or tail[0].startswith("."):
                continue
            page = project.joinpath(*tail)
            if page.is_file() and page.resolve().is_relative_to(inside):
                pages.add(page)
                break
    yield from sorted(pages)


def _is_root_page(name: str) -> bool:
    stem, suffix = os.path.splitext(name.lower())
    return stem in ROOT_PAGES and suffix in ROOT_PAGE_SUFFIXES


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return MAX_DOCUMENTATION_BYTES + 1
