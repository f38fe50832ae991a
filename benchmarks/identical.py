"""Findings and fixes as they were at a git ref, and as they are now: identical, positions and messages included.

    python benchmarks/identical.py --before REF [TREE:FOLDER ...]

Runs `stale-state --format json --no-cache` (every code) and `stale-state --diff --no-cache` with the package
as it was at REF (from `git archive`, run with PYTHONPATH) and as it is in the working tree, on every fixture
case and on released trees (sdists downloaded into ~/.cache/stale-state/sdists, never the repository):
DeepSpeed 0.19.3 and 0.19.4, SQLAlchemy and Celery by default. Prints each tree's count and every finding or
fix line that differs; exits 1 when any differs. A refactor must leave this silent.
"""

from __future__ import annotations

import argparse
import difflib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "benchmarks"))
from corpora import sdist  # noqa: E402
from precision import _clean_environment, tool_at  # noqa: E402

TREES = ("deepspeed==0.19.3:deepspeed", "deepspeed==0.19.4:deepspeed", "sqlalchemy==2.1.9:lib/sqlalchemy",
         "celery==5.7.0:celery")


def run(tool: Path, cwd: Path, *arguments: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "flake8_stale_state", "--no-cache", *arguments],
        cwd=cwd, capture_output=True, text=True, env={**_clean_environment(), "PYTHONPATH": str(tool)},
    )
    if result.returncode not in (0, 1):
        raise SystemExit(f"stale-state {' '.join(arguments)} failed in {cwd}: {result.stderr.strip()}")
    return result.stdout


def outputs(tool: Path, cwd: Path, folder: str) -> list[str]:
    """Every finding as one line (path, line, column, code, message), then the fix as a diff."""
    report = json.loads(run(tool, cwd, "--format", "json", folder))
    findings = [f"{f['path']}:{f['line']}:{f['column']}: {f['code']} {f['message']}" for f in report["findings"]]
    return findings + run(tool, cwd, "--diff", folder).splitlines()


def compare(label: str, before: list[str], after: list[str]) -> bool:
    changed = [line for line in difflib.unified_diff(before, after, lineterm="", n=0)
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    print(f"{label}: {sum(': SS' in line for line in after)} findings, {len(changed)} lines differ")
    for line in changed:
        print(f"    {line}")
    return not changed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="git ref of the package to compare with")
    parser.add_argument("trees", nargs="*", default=TREES, help="NAME==VERSION:FOLDER of released sdists")
    options = parser.parse_args()
    same = True
    with tempfile.TemporaryDirectory() as scratch:
        old = tool_at(options.before, Path(scratch))
        fixtures = REPO / "fixtures"
        # each fixture case, not a hidden folder (the facts cache a run over `fixtures/` writes there)
        for case in sorted(path for path in fixtures.glob("*/*") if path.is_dir()
                           and not any(part.startswith(".") for part in path.relative_to(fixtures).parts)):
            label = str(case.relative_to(fixtures))
            same &= compare(label, outputs(old, case, "."), outputs(REPO, case, "."))
        for spec in options.trees:
            distribution, folder = spec.split(":")
            tree = sdist(*distribution.split("=="))
            same &= compare(spec, outputs(old, tree, folder), outputs(REPO, tree, folder))
    raise SystemExit(0 if same else 1)


if __name__ == "__main__":
    main()
