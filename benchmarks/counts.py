"""Finding counts on released packages next to vulture's "unused attribute" count on the same tree.

    python benchmarks/counts.py deepspeed==0.19.3 [NAME==VERSION ...] [--sample 20]

Downloads each sdist into ~/.cache/stale-state/sdists (never into the repository), runs
`stale-state` and `vulture --min-confidence 0` over the package folder, prints a table, and
with --sample N a reproducible random sample of SS101 findings to label by hand. Where the sdist
has a `tests/` folder beside the package, SS101 is also counted with it as a reader
(`--roots PACKAGE,tests`, the configuration the README suggests for a library).
"""

from __future__ import annotations

import argparse
import collections
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from corpora import sdist  # noqa: E402


# distributions whose main import name differs from the distribution name
IMPORT_NAMES = {"attrs": "attr", "imbalanced-learn": "imblearn", "pytest": "_pytest", "pyro-ppl": "pyro",
                "prompt-toolkit": "prompt_toolkit", "ansible-core": "ansible", "ipython": "IPython",
                "beautifulsoup4": "bs4", "feature-engine": "feature_engine"}


def package_folder(tree: Path, name: str) -> str:
    name = IMPORT_NAMES.get(name, name)
    for candidate in (name.replace("-", "_"), name, f"src/{name.replace('-', '_')}", f"lib/{name}"):
        if (tree / candidate / "__init__.py").is_file():
            return candidate
    raise SystemExit(f"{tree}: no package folder named {name}")


def stale_state(tree: Path, folder: str, roots: str | None = None, select: str | None = None) -> list[str]:
    options = (["--roots", roots] if roots else []) + (["--select", select] if select else [])
    result = subprocess.run(
        [sys.executable, "-m", "flake8_stale_state", "--no-cache", *options, folder],
        cwd=tree, capture_output=True, text=True,
    )
    return result.stdout.splitlines()


def run_on(spec: str, select: str | None = None) -> tuple[Path, str, int, list[str]]:
    """The sdist NAME==VERSION, its package folder, how many .py files that holds, and stale-state's output."""
    name, version = spec.split("==")
    tree = sdist(name, version)
    folder = package_folder(tree, name)
    return tree, folder, sum(1 for _ in (tree / folder).rglob("*.py")), stale_state(tree, folder, select=select)


def ss101_with_tests_reading(tree: Path, folder: str) -> str:
    if not (tree / "tests").is_dir():
        return "-"
    return str(sum(": SS101 " in line for line in stale_state(tree, folder, roots=f"{folder},tests")))


def vulture_unused_attributes(tree: Path, folder: str) -> int:
    result = subprocess.run(
        [sys.executable, "-m", "vulture", "--min-confidence", "0", folder], cwd=tree, capture_output=True, text=True
    )
    return sum("unused attribute" in line for line in result.stdout.splitlines())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("packages", nargs="+", help="NAME==VERSION")
    parser.add_argument("--sample", type=int, default=0)
    args = parser.parse_args()
    print("| package | files | SS101 | SS101, tests/ read too | SS102 | SS103 | vulture unused attributes |")
    print("|---|---|---|---|---|---|---|")
    samples = []
    for spec in args.packages:
        tree, folder, files, lines = run_on(spec)
        codes = collections.Counter(line.split(": ", 1)[1].split()[0] for line in lines if ": SS" in line)
        print(f"| {spec} | {files} | {codes['SS101']} | {ss101_with_tests_reading(tree, folder)} "
              f"| {codes['SS102']} | {codes['SS103']} | {vulture_unused_attributes(tree, folder)} |")
        samples += [(spec, line) for line in lines if ": SS101 " in line]
    if args.sample:
        print()
        for spec, line in sorted(random.Random(0).sample(samples, min(args.sample, len(samples)))):
            print(f"{spec}  {line}")


if __name__ == "__main__":
    main()
