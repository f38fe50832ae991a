"""The product where developers meet it: pre-commit's hook and python-lsp-server's flake8 plugin, each real."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent

COMMITTED = {
    "pkg/__init__.py": "",
    "pkg/a.py": "class Pipeline:\n    def run(self):\n        return 0\n",
    "pkg/b.py": "def use(pipeline):\n    return pipeline.interval\n",
}
# a.py as staged or typed: one write read only in b.py, one write read nowhere
EDITED = """\
class Pipeline:
    def __init__(self):
        self.interval = 1
        self.checkpoint = 2

    def run(self):
        return 0
"""
DEAD_WRITE = "pkg/a.py:4:9: SS101 'checkpoint' is assigned but never read in package 'pkg'"


def git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=test", "-c", "user.email=test@example.invalid", "-c", "commit.gpgsign=false",
         *args],
        cwd=cwd, check=True, capture_output=True,
    )


def committed_project(folder: Path) -> Path:
    folder.mkdir()
    for name, text in COMMITTED.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    git(folder, "init", "-q")
    git(folder, "add", ".")
    git(folder, "commit", "-q", "-m", "project")
    return folder


def this_repository_as_committed(folder: Path) -> Path:
    """The working tree of this repository, committed or not, as the one commit of a new repository:
    `pre-commit try-repo` takes a repository's commits and tracked changes, not its new files."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, check=True, capture_output=True, text=True,
    ).stdout.split("\0")
    for name in filter(None, listed):
        if (REPO / name).is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, folder / name)
    git(folder, "init", "-q")
    git(folder, "add", ".")
    git(folder, "commit", "-q", "-m", "snapshot")
    return folder


@pytest.mark.e2e  # pre-commit installs the hook's environment: libcst and flake8 are downloaded
def test_pre_commit_hook_reports_the_staged_dead_write_only(tmp_path: Path):
    hooks = this_repository_as_committed(tmp_path / "hooks")
    project = committed_project(tmp_path / "project")
    (project / "pkg/a.py").write_text(EDITED)
    git(project, "add", "pkg/a.py")  # b.py, the only reader of `interval`, is neither staged nor modified

    result = subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(hooks), "stale-state", "--verbose"],
        cwd=project, capture_output=True, text=True, timeout=900,
        env={**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")},
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert DEAD_WRITE in result.stdout
    assert "'interval'" not in result.stdout


def readme_block(language: str, containing: str) -> str:
    """The README's code block of `language` that holds `containing`, as written there."""
    blocks = (REPO / "README.md").read_text(encoding="utf-8").split(f"```{language}\n")[1:]
    (block,) = [b.split("```", 1)[0] for b in blocks if containing in b.split("```", 1)[0]]
    return block


@pytest.mark.parametrize(("staged", "status"), [(EDITED, 1), (EDITED.replace("self.checkpoint = 2", "pass"), 0)])
def test_the_readmes_local_pre_commit_hook_as_written(tmp_path: Path, staged: str, status: int):
    project = committed_project(tmp_path / "project")
    (project / ".pre-commit-config.yaml").write_text(readme_block("yaml", "repo: local"))
    (project / "pkg/a.py").write_text(staged)
    git(project, "add", ".")
    result = subprocess.run(  # the environment's stale-state on PATH, as with the environment activated
        [sys.executable, "-m", "pre_commit", "run", "--verbose"], cwd=project, capture_output=True, text=True,
        timeout=300, env={**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "home"),
                          "PATH": f"{VENV_BIN}{os.pathsep}{os.environ['PATH']}"},
    )
    assert result.returncode == status, result.stdout + result.stderr
    assert (DEAD_WRITE in result.stdout) is bool(status) and "'interval'" not in result.stdout


class JsonRpcClient:
    """Just enough of an LSP client to drive pylsp, whose initialize result pygls' client cannot read."""

    def __init__(self, server: asyncio.subprocess.Process) -> None:
        self.server = server
        self.last_id = 0

    async def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        await self.server.stdin.drain()

    async def receive(self) -> dict:
        length = 0
        while (line := await self.server.stdout.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("ascii").partition(":")
            if name.lower() == "content-length":
                length = int(value)
        message = json.loads(await self.server.stdout.readexactly(length))
        if "id" in message and "method" in message:  # a request of the server's: accept it
            await self.send({"id": message["id"], "result": None})
        return message

    async def request(self, method: str, params: dict | None) -> dict:
        self.last_id += 1
        await self.send({"id": self.last_id, "method": method, "params": params})
        while (message := await self.receive()).get("id") != self.last_id or "method" in message:
            pass
        return message

    async def notification(self, method: str, until: Callable[[dict], bool]) -> dict:
        while (message := await self.receive()).get("method") != method or not until(message["params"]):
            pass
        return message["params"]


@pytest.mark.asyncio
async def test_pylsp_flake8_plugin_reports_the_dead_write_of_an_unsaved_buffer(tmp_path: Path):
    for name, text in COMMITTED.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    uri = (tmp_path / "pkg/a.py").as_uri()
    flake8_only = {
        "flake8": {"enabled": True, "executable": str(VENV_BIN / "flake8"), "select": ["SS"]},
        **{name: {"enabled": False} for name in ("pycodestyle", "pyflakes", "mccabe", "autopep8", "yapf")},
    }
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "pylsp", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )
    client = JsonRpcClient(server)
    try:
        await asyncio.wait_for(client.request("initialize", {
            "processId": os.getpid(), "rootUri": tmp_path.as_uri(), "capabilities": {},
            "initializationOptions": {"pylsp": {"plugins": flake8_only}},
        }), 60)
        await client.send({"method": "initialized", "params": {}})
        # python-lsp-server before 1.9 reads plugin settings only from here, not from initializationOptions
        await client.send({"method": "workspace/didChangeConfiguration",
                           "params": {"settings": {"pylsp": {"plugins": flake8_only}}}})
        await client.send({"method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": EDITED},
        }})
        published = await asyncio.wait_for(
            client.notification("textDocument/publishDiagnostics", until=lambda params: params["uri"] == uri), 120
        )
        await asyncio.wait_for(client.request("shutdown", None), 60)
        await client.send({"method": "exit", "params": None})
        await asyncio.wait_for(server.wait(), 60)
    finally:
        if server.returncode is None:
            server.kill()
            await server.wait()
    (found,) = published["diagnostics"]  # not `interval`: b.py reads it, from disk
    assert (found["source"], found["code"]) == ("flake8", "SS101")
    assert found["message"] == "SS101 'checkpoint' is assigned but never read in package 'pkg'"
    assert found["range"]["start"] == {"line": 3, "character": 8}
    assert (tmp_path / "pkg/a.py").read_text() == COMMITTED["pkg/a.py"]  # the write exists only in the buffer
