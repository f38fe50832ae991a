"""The base side of `stale-state --new-since REF`: the Python files of a commit, read from git's objects.

The working tree is never touched: the files of the merge base of REF and HEAD are written, from `git cat-file`,
into a temporary folder that mirrors the repository, and analysed there like any other tree.
"""

from __future__ import annotations

import subprocess
from pathlib import Path


class GitError(Exception):
    pass


def _git(cwd: Path, *args: str, stdin: bytes | None = None) -> bytes:
    try:
        result = subprocess.run(["git", *args], cwd=cwd, input=stdin, capture_output=True, check=False)
    except OSError as error:
        raise GitError(f"git cannot be run: {error}") from None
    if result.returncode != 0:
        message = result.stderr.decode(errors="replace").strip().splitlines()
        raise GitError(message[-1] if message else f"git {args[0]} failed")
    return result.stdout


def repository_root(cwd: Path) -> Path:
    return Path(_git(cwd, "rev-parse", "--show-toplevel").decode().strip()).resolve()


def merge_base(root: Path, ref: str) -> str:
    """The commit REF and HEAD share last: what the current branch started from."""
    return _git(root, "merge-base", ref, "HEAD").decode().strip()


def python_blobs(root: Path, commit: str) -> dict[str, str]:
    """Path (relative to the repository) -> object id of each Python file of `commit`; links and submodules
    left out, as the analysis of a tree on disk skips links out of the package."""
    listed = _git(root, "ls-tree", "-r", "-z", "--full-tree", commit).split(b"\0")
    blobs = {}
    for entry in filter(None, listed):
        info, _, path = entry.partition(b"\t")
        mode, kind, object_id = info.split()
        name = path.decode("utf-8", "surrogateescape")
        if kind == b"blob" and mode != b"120000" and name.endswith(".py"):
            blobs[name] = object_id.decode()
    return blobs


def write_tree(root: Path, commit: str, into: Path) -> None:
    """The Python files of `commit`, from git's objects, at the same relative paths under `into`."""
    blobs = python_blobs(root, commit)
    if not blobs:
        return
    names = list(blobs)
    output = _git(root, "cat-file", "--batch", stdin="".join(f"{blobs[n]}\n" for n in names).encode())
    position = 0
    for name in names:
        header_end = output.index(b"\n", position)
        size = int(output[position:header_end].split()[2])
        start = header_end + 1
        target = into / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(output[start:start + size])
        position = start + size + 1  # the content is followed by a newline
