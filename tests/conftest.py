from __future__ import annotations

import os
import re
import resource
import shutil
import subprocess
import sys
from collections.abc import Collection
from dataclasses import replace
from pathlib import Path

import pytest

from flake8_stale_state.checks import RULES, fix_source
from flake8_stale_state.engine import Analyzer, checks_kind, summary_kind
from flake8_stale_state.facts import FileFacts
from flake8_stale_state.findings import Finding, without_silenced
from flake8_stale_state.index import facts_of
from flake8_stale_state.package import python_files
from flake8_stale_state.settings import Settings

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
EXPECT = re.compile(r"#\s*expect:\s*([A-Z0-9, ]+)")
MEMORY_LIMIT = 3 * 1024**3  # bytes of address space for each process fed hostile input
# fixtures/<code>/<case>/; not a hidden folder, such as the facts cache `stale-state fixtures/` writes there
CASES = sorted(case for case in FIXTURES.glob("*/*")
               if case.is_dir() and not any(part.startswith(".") for part in case.relative_to(FIXTURES).parts))
SNAPSHOT = "expected.txt"  # in each case: its findings, one `Finding.text()` a line, paths relative to the case
FIXED = ".fixed"  # beside a fixture file a fix changes: `name.py.fixed`, the fixed source
UPDATE = "run `.venv/bin/python tests/update_snapshots.py`, then review the diff of fixtures/"


def limit_memory() -> None:
    """`preexec_fn` of a subprocess fed hostile input: a third-party parser may blow up on it (CPython 3.12.1's
    tokenizer took 19 GB on deep.py), and then that process fails, not the machine. Its workers inherit it."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


@pytest.fixture(autouse=True)
def _no_shared_cache(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Tests never touch a cache in the repository; each session gets a private one."""
    monkeypatch.setenv("STALE_STATE_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "stale-state-cache"))


def expected_findings(root: Path) -> list[tuple[str, int, str]]:
    """(relative path, line, code) for every `# expect: CODE[, CODE]` comment under root, sorted; a code named
    twice on a line expects two findings there."""
    expected = []
    for path in sorted(root.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = EXPECT.search(line)
            if match:
                for code in re.findall(r"SS\d+", match.group(1)):
                    expected.append((path.relative_to(root).as_posix(), number, code))
    return sorted(expected)


def case_findings(case: Path, settings: Settings = Settings(use_cache=False)) -> list[Finding]:
    """Every finding in a fixture case, with paths relative to the case, sorted."""
    analyzer = Analyzer(settings)
    return sorted(
        replace(finding, path=Path(finding.path).relative_to(case).as_posix())
        for path in python_files(case) for finding in analyzer.check(path)
    )


def snapshot_text(findings: list[Finding]) -> str:
    return "".join(finding.text() + "\n" for finding in findings)


def fixed_source(path: Path, source: str, analyzer: Analyzer | None = None) -> str:
    """`source`, as the file at `path`, with every fix applied, as `stale-state --fix` applies them."""
    analyzer = analyzer or Analyzer(Settings(use_cache=False))
    return fix_source(source, lambda text: without_silenced(analyzer.check(path, text), text.splitlines()))


def fixed_path(path: Path) -> Path:
    return path.with_name(path.name + FIXED)


def case_fixes(case: Path) -> dict[Path, tuple[str, str]]:
    """Every file of a fixture case -> (its source, its fixed source)."""
    analyzer = Analyzer(Settings(use_cache=False))
    sources = {path: path.read_bytes().decode("utf-8") for path in python_files(case)}
    return {path: (source, fixed_source(path, source, analyzer)) for path, source in sources.items()}


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
print(code, len(parsed), 'libcst' in sys.modules, 'flake8_stale_state.summary' in sys.modules)
"""


def counting_parses(cwd: Path, cache: Path, *argv: str) -> list[str]:
    """`stale-state ARGV` in a fresh process with the facts cache `cache`: its exit code, how many times it
    called `ast.parse`, and whether it loaded libcst and the summariser."""
    result = subprocess.run([sys.executable, "-c", PARSE_COUNTING_RUN, *argv], cwd=cwd, capture_output=True,
                            text=True, env={**os.environ, "STALE_STATE_CACHE_DIR": str(cache)})
    assert result.returncode == 0, result.stderr
    return result.stdout.split()[-4:]


def full_facts(path: str, source: str | bytes, codes: Collection[str] | None = None,
               lines: Collection[int] = ()) -> FileFacts:
    """The full facts with the collectors of the rules `codes` names (every rule's if None), of the excerpt
    holding `lines` where some are given."""
    rules = [rule for rule in RULES if codes is None or rule.code in codes]
    return facts_of(checks_kind(rules, lines), path, source)


def summary_facts(path: str, source: str | bytes) -> FileFacts:
    """The package index's facts: the `ast` summary, libcst's where `ast` cannot parse the file."""
    return facts_of(summary_kind(), path, source)
