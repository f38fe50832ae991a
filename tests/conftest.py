from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
EXPECT = re.compile(r"#\s*expect:\s*([A-Z0-9, ]+)")


@pytest.fixture(autouse=True)
def _no_shared_cache(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Tests never touch a cache in the repository; each session gets a private one."""
    monkeypatch.setenv("STALE_STATE_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "stale-state-cache"))


def expected_findings(root: Path) -> set[tuple[str, int, str]]:
    """(relative path, line, code) for every `# expect: CODE[, CODE]` comment under root."""
    expected = set()
    for path in sorted(root.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = EXPECT.search(line)
            if match:
                for code in re.findall(r"SS\d+", match.group(1)):
                    expected.add((os.path.relpath(path, root), number, code))
    return expected


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the PR 8178 fixture package `pipe`, as the current folder."""
    shutil.copytree(FIXTURES / "ss101" / "pipeline" / "pipe", tmp_path / "pipe")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run_cli(capsys: pytest.CaptureFixture, *argv: str) -> tuple[int, list[str], str]:
    """`stale-state ARGV` in this process: exit code, stdout lines, stderr."""
    from flake8_stale_state.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


PARSE_COUNTING_RUN = """\
import ast, sys
from flake8_stale_state import cli
parsed = []
parse = ast.parse
ast.parse = lambda *args, **kwargs: parsed.append(1) or parse(*args, **kwargs)
code = cli.main(sys.argv[1:])
print(code, len(parsed), 'libcst' in sys.modules)
"""


def counting_parses(cwd: Path, cache: Path, *argv: str) -> list[str]:
    """`stale-state ARGV` in a fresh process with the facts cache `cache`: its exit code, how many times it
    called `ast.parse`, and whether it loaded libcst."""
    result = subprocess.run([sys.executable, "-c", PARSE_COUNTING_RUN, *argv], cwd=cwd, capture_output=True,
                            text=True, env={**os.environ, "STALE_STATE_CACHE_DIR": str(cache)})
    assert result.returncode == 0, result.stderr
    return result.stdout.split()[-3:]
