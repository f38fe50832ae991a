from __future__ import annotations

import os
import re
import resource
import shutil
import subprocess
import sys
from collections.abc import Collection
from pathlib import Path

import pytest

from flake8_stale_state.checks import RULES
from flake8_stale_state.engine import libcst_kind, summary_kind
from flake8_stale_state.facts import FileFacts
from flake8_stale_state.index import facts_of

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
EXPECT = re.compile(r"#\s*expect:\s*([A-Z0-9, ]+)")
MEMORY_LIMIT = 3 * 1024**3  # bytes of address space for each process fed hostile input


def limit_memory() -> None:
    """`preexec_fn` of a subprocess fed hostile input: a third-party parser may blow up on it (CPython 3.12.1's
    tokenizer took 19 GB on deep.py), and then that process fails, not the machine. Its workers inherit it."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


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


def full_facts(path: str, source: str | bytes, codes: Collection[str] | None = None,
               lines: Collection[int] = ()) -> FileFacts:
    """libcst's facts with the collectors of the rules `codes` names (every rule's if None), of the excerpt
    holding `lines` where some are given."""
    rules = [rule for rule in RULES if codes is None or rule.code in codes]
    return facts_of(libcst_kind(rules, lines), path, source)


def summary_facts(path: str, source: str | bytes) -> FileFacts:
    """The package index's facts: the `ast` summary, libcst's where `ast` cannot parse the file."""
    return facts_of(summary_kind(), path, source)
