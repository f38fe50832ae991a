"""Speed and memory of flake8-stale-state against the tools people would otherwise run.

    python benchmarks/bench.py [--repeat 3] [--trees deepspeed==0.19.3 diffusers==0.42.1]

Downloads the sdists into ~/.cache/stale-state/sdists (never into the repository). In one run,
alternating the two sides of each comparison and repeating, it prints medians and ratios:
flake8 --select SS (cold and warm cache) vs flake8 --select F; stale-state (cold, warm) vs vulture;
one file through stdin with a warm cache vs flake8 --select F on that file; peak RSS of stale-state
vs vulture; seconds per 100k lines on each tree. Not a test: these machines are shared and noisy.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from corpora import sdist  # noqa: E402

PY = sys.executable
STDIN_FILES = {"deepspeed": "deepspeed/runtime/pipe/module.py", "diffusers": "src/diffusers/models/attention.py"}


def package_folder(tree: Path, name: str) -> str:
    for candidate in (name, f"src/{name}"):
        if (tree / candidate / "__init__.py").is_file():
            return candidate
    raise SystemExit(f"{tree}: no package folder {name}")


def measure(command: list[str], cwd: Path, env: dict, stdin: str | None = None) -> tuple[float, int]:
    """Wall seconds and peak RSS (KiB) of the command, run in a fresh wrapper so RUSAGE_CHILDREN is its own."""
    probe = (
        "import resource, subprocess, sys, time; t = time.perf_counter(); "
        f"subprocess.run({command!r}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, "
        "input=sys.stdin.buffer.read()); "
        "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    result = subprocess.run([PY, "-c", probe], cwd=cwd, env=env, input=(stdin or "").encode(), capture_output=True)
    seconds, rss = result.stdout.split()
    return float(seconds), int(rss)


def compare(label: str, ours, theirs, repeat: int, rows: list) -> None:
    """`ours` and `theirs` are callables returning (seconds, rss); alternated, repeated, medians kept."""
    mine, other = [], []
    for _ in range(repeat):
        mine.append(ours())
        other.append(theirs())
    ours_s, theirs_s = statistics.median(m[0] for m in mine), statistics.median(o[0] for o in other)
    ours_rss, theirs_rss = statistics.median(m[1] for m in mine), statistics.median(o[1] for o in other)
    rows.append((label, ours_s, theirs_s, ours_s / theirs_s, ours_rss / 1024, theirs_rss / 1024))


def lines_of(folder: Path) -> int:
    return sum(len(p.read_bytes().splitlines()) for p in folder.rglob("*.py"))


def bench_tree(spec: str, repeat: int, rows: list, per_100k: dict) -> None:
    name, version = spec.split("==")
    tree = sdist(name, version)
    folder = package_folder(tree, name)
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("STALE_STATE")}
    warm_dir = tempfile.mkdtemp(prefix="stale-state-bench-")
    warm = {**base_env, "STALE_STATE_CACHE_DIR": warm_dir}

    def cold_env() -> dict:
        return {**base_env, "STALE_STATE_CACHE_DIR": tempfile.mkdtemp(prefix="stale-state-bench-")}

    flake8_ss = [PY, "-m", "flake8", "--select", "SS", folder]
    flake8_f = [PY, "-m", "flake8", "--select", "F", folder]
    ours = [PY, "-m", "flake8_stale_state", folder]
    vulture = [PY, "-m", "vulture", folder]
    measure(ours, tree, warm)  # fills the warm cache

    compare(f"{name}: flake8 --select SS cold / --select F", lambda: measure(flake8_ss, tree, cold_env()),
            lambda: measure(flake8_f, tree, base_env), repeat, rows)
    compare(f"{name}: flake8 --select SS warm / --select F", lambda: measure(flake8_ss, tree, warm),
            lambda: measure(flake8_f, tree, base_env), repeat, rows)
    compare(f"{name}: stale-state cold / vulture", lambda: measure(ours, tree, cold_env()),
            lambda: measure(vulture, tree, base_env), repeat, rows)
    compare(f"{name}: stale-state warm / vulture", lambda: measure(ours, tree, warm),
            lambda: measure(vulture, tree, base_env), repeat, rows)
    one = STDIN_FILES.get(name)
    if one and (tree / one).is_file():
        source = (tree / one).read_text()
        stdin_ss = [PY, "-m", "flake8", "--select", "SS", "-", "--stdin-display-name", one]
        stdin_f = [PY, "-m", "flake8", "--select", "F", "-", "--stdin-display-name", one]
        compare(f"{name}: one file via stdin, warm / --select F", lambda: measure(stdin_ss, tree, warm, source),
                lambda: measure(stdin_f, tree, base_env, source), repeat, rows)
    cold_seconds = [row[1] for row in rows if row[0] == f"{name}: stale-state cold / vulture"][0]
    per_100k[name] = cold_seconds / (lines_of(tree / folder) / 100_000)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--trees", nargs="+", default=["deepspeed==0.19.3", "diffusers==0.42.1"])
    args = parser.parse_args()
    rows: list = []
    per_100k: dict[str, float] = {}
    for spec in args.trees:
        bench_tree(spec, args.repeat, rows, per_100k)
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; medians of {args.repeat}")
    print("| measure | ours (s) | theirs (s) | ratio | ours peak RSS (MiB) | theirs peak RSS (MiB) |")
    print("|---|---|---|---|---|---|")
    for label, mine, theirs, ratio, rss, other_rss in rows:
        print(f"| {label} | {mine:.2f} | {theirs:.2f} | {ratio:.2f} | {rss:.0f} | {other_rss:.0f} |")
    names = list(per_100k)
    for name in names:
        print(f"stale-state cold, {name}: {per_100k[name]:.2f} s per 100k lines")
    if len(names) == 2:
        print(f"s per 100k lines, {names[1]} / {names[0]}: {per_100k[names[1]] / per_100k[names[0]]:.2f}")


if __name__ == "__main__":
    main()
