"""Speed and memory of flake8-stale-state against the tools people would otherwise run, measured fairly.

    python benchmarks/bench.py [--repeat 3] [--trees deepspeed==0.19.3 ...] [--measures NAME ...] [--write-readme]
    python benchmarks/bench.py --instructions [--trees ...] [--measures stale-state-warm stdin]

Each side runs from its own virtual environment under ~/.cache/stale-state/envs, never the repository's:
flake8 alone (the versions of flake8, pyflakes, pycodestyle and mccabe the running environment has, no plugin),
vulture 2.16 alone, and flake8 with this project installed from a wheel of the working tree (no editable
install, nothing else beside it). The sdists are downloaded into ~/.cache/stale-state/sdists.

Every process runs without PYTHONDONTWRITEBYTECODE, after a warm-up run of the same command has written the
byte-code of every module it imports, as users' installs have it. The two sides of each comparison alternate
pair by pair (A B, then B A), and medians are kept. Wall time, CPU (user + system) and peak RSS come from
`os.wait4` on the command's own process: CPU counts that process and every worker it started and reaped
(flake8's and stale-state's pools); peak RSS is that of the largest single process among them, not their sum.
The load average is printed before and after; `--write-readme` replaces the README's table, and is refused
when the 1-minute load was above 1 at the start. Not a test: these machines are shared and noisy. Where they
are too noisy for a change of a few percent, `--instructions` runs each side once under valgrind's callgrind
and compares the instructions executed (every forked process's counted), which do not move with the machine's
load; by default on the short measures only (a warm run, one file through stdin), callgrind being some fifty
times slower than the process it counts.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parent.parent
# this tree's package, whatever the running Python has installed: its code's fingerprint decides whether the
# measured wheel is made again (run from a `git worktree` of another version, that version is measured)
sys.path[:0] = [str(REPO), str(REPO / "tests")]
from corpora import sdist  # noqa: E402

ENVS = Path.home() / ".cache" / "stale-state" / "envs"
VULTURE = "2.16"
TREES = ("deepspeed==0.19.3", "diffusers==0.42.1", "transformers==4.57.1")
STDIN_FILES = {"deepspeed": "deepspeed/runtime/pipe/module.py", "diffusers": "src/diffusers/models/attention.py",
               "transformers": "src/transformers/trainer.py"}
MEASURES = ("stale-state-cold", "stale-state-warm", "flake8-ss-cold", "flake8-ss-warm", "flake8-e9", "stdin",
            "stdin-edited")
QUIET_LOAD = 1.0
README_START, README_END = "<!-- bench table: start -->", "<!-- bench table: end -->"


class Run(NamedTuple):
    wall: float
    cpu: float  # user + system, the process and its reaped workers
    rss_mib: float  # the largest single process


class Row(NamedTuple):
    label: str
    ours: Run
    theirs: Run


def load() -> float:
    return os.getloadavg()[0]


def load_line() -> str:
    return "load average " + " ".join(f"{value:.2f}" for value in os.getloadavg())


def flake8_pins() -> list[str]:
    """flake8 and its checkers at the versions of the environment running this script."""
    return [f"{name}=={importlib.metadata.version(name)}" for name in ("flake8", "pyflakes", "pycodestyle", "mccabe")]


def base_python() -> str:
    return str(Path(sys.base_prefix) / "bin" / f"python{sys.version_info.major}.{sys.version_info.minor}")


def environment(name: str, requirements: list[str]) -> Path:
    """A virtual environment holding `requirements` alone, made once."""
    folder = ENVS / name
    if not (folder / "bin" / "python").exists():
        shutil.rmtree(folder, ignore_errors=True)
        subprocess.run([base_python(), "-m", "venv", str(folder)], check=True)
        subprocess.run([str(folder / "bin" / "python"), "-m", "pip", "install", "--quiet", *requirements], check=True)
    return folder


def ours_environment() -> Path:
    """flake8 at the same versions, with this project installed from a wheel of the working tree (made again
    when the code changed)."""
    from flake8_stale_state.cache import code_fingerprint

    pins = [*flake8_pins(), f"libcst=={importlib.metadata.version('libcst')}"]
    folder = environment(f"bench-stale-state-flake8-{importlib.metadata.version('flake8')}", pins)
    stamp = folder / "stale-state-fingerprint"
    fingerprint = code_fingerprint()
    if not stamp.exists() or stamp.read_text() != fingerprint:
        with tempfile.TemporaryDirectory() as wheels:
            subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                            "-w", wheels, str(REPO)], check=True, cwd=wheels)
            (wheel,) = Path(wheels).glob("*.whl")
            subprocess.run([str(folder / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-deps",
                            "--force-reinstall", str(wheel), *pins], check=True)
        stamp.write_text(fingerprint)
    return folder


def clean_environment() -> dict[str, str]:
    """The environment of every measured process: byte-code written and read, no setting of ours."""
    dropped = ("PYTHONDONTWRITEBYTECODE", "VIRTUAL_ENV", "PYTHONPATH")
    return {key: value for key, value in os.environ.items()
            if key not in dropped and not key.startswith("STALE_STATE")}


def measure(command: list[str], cwd: Path, env: dict[str, str], stdin: bytes | None = None) -> Run:
    """One run; exit 1 (flake8, stale-state) and 3 (vulture) say findings were reported."""
    with tempfile.TemporaryFile() as given:
        given.write(stdin or b"")
        given.seek(0)
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, env=env, stdin=given, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1, 3):
        raise SystemExit(f"{' '.join(command)} failed in {cwd} (exit {process.returncode})")
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def counted(command: list[str], cwd: Path, env: dict[str, str], stdin: bytes | None = None) -> Run:
    """One run under callgrind: the instructions the command and every process it forks execute (in billions,
    in the place of the wall time and the CPU), the same run after run whatever else the machine does."""
    with tempfile.TemporaryFile() as given:
        given.write(stdin or b"")
        given.seek(0)
        result = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
                                cwd=cwd, env=env, stdin=given, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if result.returncode not in (0, 1, 3):
        raise SystemExit(f"valgrind {' '.join(command)} failed in {cwd} (exit {result.returncode})")
    billions = sum(map(int, re.findall(r"Collected : (\d+)", result.stderr.decode(errors="replace")))) / 1e9
    return Run(billions, billions, 0.0)


def median_run(runs: list[Run]) -> Run:
    return Run(*(statistics.median(values) for values in zip(*runs)))


def compare(label: str, ours: Callable[[], Run], theirs: Callable[[], Run], repeat: int) -> Row:
    """The two sides alternated pair by pair, the first of each pair swapped every time; medians kept."""
    mine, other = [], []
    for turn in range(repeat):
        if turn % 2 == 0:
            mine.append(ours())
            other.append(theirs())
        else:
            other.append(theirs())
            mine.append(ours())
    return Row(label, median_run(mine), median_run(other))


def package_folder(tree: Path, name: str) -> str:
    for candidate in (name, f"src/{name}"):
        if (tree / candidate / "__init__.py").is_file():
            return candidate
    raise SystemExit(f"{tree}: no package folder {name}")


def size_of(folder: Path) -> tuple[int, int]:
    files = list(folder.rglob("*.py"))
    return len(files), sum(len(path.read_bytes().splitlines()) for path in files)


def bench_tree(spec: str, measures: set[str], repeat: int, envs: dict[str, Path], scratch: Path,
               run: Callable[..., Run] = measure) -> list[Row]:
    """The rows of `measures` on one tree, each side's runs made by `run` (`measure`, or `counted`)."""
    name, version = spec.split("==")
    tree = sdist(name, version)
    folder = package_folder(tree, name)
    files, lines = size_of(tree / folder)
    print(f"{spec}: {folder}, {files} files, {lines:,} lines; {load_line()}", flush=True)
    env = clean_environment()
    warm = {**env, "STALE_STATE_CACHE_DIR": str(scratch / f"{name}-warm")}

    def cold() -> dict[str, str]:
        return {**env, "STALE_STATE_CACHE_DIR": tempfile.mkdtemp(prefix=f"{name}-cold-", dir=scratch)}

    def tool(side: str, program: str) -> str:
        return str(envs[side] / "bin" / program)

    ours_cli = [tool("ours", "stale-state"), folder]
    vulture = [tool("vulture", "vulture"), folder]

    def flake8(side: str, select: str, *rest: str) -> list[str]:
        return [tool(side, "flake8"), "--select", select, *rest]

    # warm-up: byte-code for every module each side imports, and the warm cache filled
    for command in (ours_cli, vulture, flake8("ours", "E9", folder), flake8("alone", "E9", folder)):
        measure(command, tree, warm)
    rows: list[Row] = []
    formatted = format_counted_row if run is counted else format_row

    def add(label: str, ours: list[str], theirs: list[str], ours_env: Callable[[], dict[str, str]],
            theirs_env: dict[str, str], stdin: Callable[[], bytes | None] = lambda: None) -> None:
        row = compare(f"{name}: {label}", lambda: run(ours, tree, ours_env(), stdin()),
                      lambda: run(theirs, tree, theirs_env, stdin()), repeat)
        rows.append(row)
        print(f"  {formatted(row)}", flush=True)

    flake8_f = flake8("alone", "F", folder)
    if "stale-state-cold" in measures:
        add("stale-state cold / vulture", ours_cli, vulture, cold, env)
    if "stale-state-warm" in measures:
        add("stale-state warm / vulture", ours_cli, vulture, lambda: warm, env)
    if "flake8-ss-cold" in measures:
        add("flake8 --select SS cold / flake8 alone --select F", flake8("ours", "SS", folder), flake8_f, cold, env)
    if "flake8-ss-warm" in measures:
        add("flake8 --select SS warm / flake8 alone --select F", flake8("ours", "SS", folder), flake8_f,
            lambda: warm, env)
    if "flake8-e9" in measures:
        add("flake8 --select E9, plugin installed / flake8 alone", flake8("ours", "E9", folder),
            flake8("alone", "E9", folder), lambda: warm, env)
    one = STDIN_FILES.get(name)
    if one and (tree / one).is_file():
        content = (tree / one).read_bytes()
        stdin_ours = flake8("ours", "SS", "-", "--stdin-display-name", one)
        stdin_alone = flake8("alone", "F", "-", "--stdin-display-name", one)
        # an editor runs flake8 on opening and saving a file: the file's content, as it was checked before
        measure(stdin_ours, tree, warm, content)
        if "stdin" in measures:
            add("one file via stdin, as checked before, warm, --select SS / flake8 alone --select F",
                stdin_ours, stdin_alone, lambda: warm, env, lambda: content)
        if "stdin-edited" in measures:  # content no run has seen: a new comment each time
            add("one file via stdin, edited, warm, --select SS / flake8 alone --select F", stdin_ours, stdin_alone,
                lambda: warm, env, lambda: content + f"\n# edited {time.time_ns()}\n".encode())
    print(f"{spec}: done; {load_line()}", flush=True)
    return rows


HEADER = ("| measure | ours (s) | theirs (s) | ratio | CPU ours (s) | CPU theirs (s) | CPU ratio "
          "| peak RSS ours (MiB) | theirs (MiB) | RSS ratio |\n|---|---|---|---|---|---|---|---|---|---|")
COUNTED_HEADER = "| measure | ours (10^9 instructions) | theirs | ratio |\n|---|---|---|---|"
COUNTED_MEASURES = ("stale-state-warm", "stdin", "stdin-edited")  # short enough to run under callgrind


def format_row(row: Row) -> str:
    ours, theirs = row.ours, row.theirs
    return (f"| {row.label} | {ours.wall:.2f} | {theirs.wall:.2f} | {ours.wall / theirs.wall:.2f} "
            f"| {ours.cpu:.2f} | {theirs.cpu:.2f} | {ours.cpu / theirs.cpu:.2f} "
            f"| {ours.rss_mib:.0f} | {theirs.rss_mib:.0f} | {ours.rss_mib / theirs.rss_mib:.2f} |")


def format_counted_row(row: Row) -> str:
    return (f"| {row.label} | {row.ours.wall:.3f} | {row.theirs.wall:.3f} | "
            f"{row.ours.wall / row.theirs.wall:.3f} |")


def write_readme(table: str) -> None:
    readme = REPO / "README.md"
    text = readme.read_text()
    pattern = re.compile(re.escape(README_START) + ".*?" + re.escape(README_END), re.S)
    if not pattern.search(text):
        raise SystemExit(f"{readme}: no {README_START} ... {README_END} to replace")
    readme.write_text(pattern.sub(lambda _: f"{README_START}\n{table}\n{README_END}", text))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--trees", nargs="+", default=list(TREES), metavar="NAME==VERSION")
    parser.add_argument("--measures", nargs="+", choices=MEASURES,
                        help=f"default: all; with --instructions, {' '.join(COUNTED_MEASURES)}")
    parser.add_argument("--write-readme", action="store_true", help="replace the README's table (quiet machine only)")
    parser.add_argument("--instructions", action="store_true",
                        help="count each side's instructions once under valgrind's callgrind instead of timing it: "
                             "figures a noisy machine does not move")
    args = parser.parse_args()
    args.measures = args.measures or list(COUNTED_MEASURES if args.instructions else MEASURES)
    if args.instructions:
        if shutil.which("valgrind") is None:
            raise SystemExit("--instructions needs valgrind (Debian: apt install valgrind)")
        if args.write_readme:
            raise SystemExit("--write-readme writes the timed table: leave out --instructions")
    at_start = load()
    print(f"machine: {os.cpu_count()} cores; at the start: {load_line()}", flush=True)
    if args.write_readme and at_start > QUIET_LOAD:
        print(f"not writing the README: the 1-minute load was {at_start:.2f} at the start, above {QUIET_LOAD}: "
              "figures taken now would not be a quiet machine's", flush=True)
        args.write_readme = False
    envs = {"ours": ours_environment(),
            "alone": environment(f"bench-flake8-{importlib.metadata.version('flake8')}", flake8_pins()),
            "vulture": environment(f"bench-vulture-{VULTURE}", [f"vulture=={VULTURE}"])}
    print("byte-code written and read (no PYTHONDONTWRITEBYTECODE), after a warm-up run of each side; "
          f"medians of {args.repeat}, sides alternated pair by pair", flush=True)
    rows = []
    repeat, run = (1, counted) if args.instructions else (args.repeat, measure)
    with tempfile.TemporaryDirectory(prefix="stale-state-bench-") as scratch:
        for spec in args.trees:
            rows.extend(bench_tree(spec, set(args.measures), repeat, envs, Path(scratch), run))
    at_end = load()
    if args.instructions:
        print("\n".join([COUNTED_HEADER, *map(format_counted_row, rows)]))
        return
    table = "\n".join([HEADER, *map(format_row, rows)])
    print(f"\nload average, 1 minute: {at_start:.2f} at the start, {at_end:.2f} at the end "
          f"({os.cpu_count()} cores); medians of {args.repeat}\n{table}")
    if args.write_readme:
        write_readme(f"{table}\n\nOne run of `python benchmarks/bench.py --repeat {args.repeat}`, load average "
                     f"{at_start:.2f} at the start and {at_end:.2f} at the end ({os.cpu_count()} cores).")
        print("README table written")


if __name__ == "__main__":
    main()
