"""Every SS102 finding on released packages, to label by hand (docs/precision.md).

    python benchmarks/rebuild_findings.py NAME==VERSION [NAME==VERSION ...]

Downloads each sdist into ~/.cache/stale-state/sdists (never into the repository), runs `stale-state
--select SS102` over the package folder, and prints a table of files and findings per package, then each
finding.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]
from counts import run_on  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("packages", nargs="+", help="NAME==VERSION")
    args = parser.parse_args(argv)
    print("| package | files | SS102 |")
    print("|---|---|---|")
    found = []
    for spec in args.packages:
        _, _, files, output = run_on(spec, select="SS102")
        lines = [line for line in output if ": SS102 " in line]
        print(f"| {spec} | {files} | {len(lines)} |", flush=True)
        found += [f"{spec}  {line}" for line in lines]
    print()
    print("\n".join(found))
    return 0


if __name__ == "__main__":
    sys.exit(main())
