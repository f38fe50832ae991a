"""Drift benchmark: does SS101 catch a write whose attribute name drifted away from the name its readers use?

    python benchmarks/drift.py [--trees deepspeed==0.19.3 ...] [--writes 30] [--seed 18]
                               [--min-flagged 95] [--min-hint 90] [--max-other 0]

In each released package (sdists cached in ~/.cache/stale-state/sdists, never in the repository) a seeded
random choice of `self.X = ...` writes is renamed, each at its attribute token only, in one copy of the
package per mode. Each chosen write sits in an instance method of a class (in its own body, not a nested
function), stores on the method's receiver, is not reported today, and X is read elsewhere in the package.
One write per class and per attribute, so that the renames do not interfere. Modes:

- `unread`: X becomes a realistic drift of itself (a word dropped, a plural or singular, a leading
  underscore added or removed) that nothing in the package reads or writes;
- `unrelated`: X becomes a name that only one class reads, through its own `self`, where that class shares
  no class of the package with the write's class (neither ancestor, descendant, shared descendant nor
  shared ancestor), and that shares a word with X (the drift ran into a neighbour's attribute): a collision
  of names, not a read. The name closest to X is taken (most words shared, then spelling).

`stale-state --no-cache` runs on a copy of the original and on each mutated copy. Counted per package and
mode: writes flagged (an SS101 at the renamed write), hints naming X (`did you mean 'X'`), and SS101 findings
away from the renamed writes that changed. The exit status is 1 when a figure misses its threshold.

Writes whose value is a call of a capitalised name are never chosen: a framework may register such an
object (a `torch.nn.Module` submodule) under whatever name it is given, so renaming it kills nothing. Nor
are those of a task of the event loop (`asyncio.create_task(...)`): the attribute keeps the task running
whatever its name.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import keyword
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import package_folder  # noqa: E402
from corpora import sdist  # noqa: E402

from flake8_stale_state.package import python_files  # noqa: E402
from flake8_stale_state.summary import called_name, is_task_made, summarize  # noqa: E402

TREES = ("deepspeed==0.19.3", "prompt_toolkit==3.0.53", "jedi==0.20.1", "aiohttp==3.14.5")
MODES = ("unread", "unrelated")
WRITES = 30
SEED = 18
WORD = re.compile(r"[A-Za-z_]\w*")


@dataclass(frozen=True)
class Write:
    path: str  # relative to the copy's root, as stale-state prints it
    line: int
    column: int  # 1-based character column of `self`, where SS101 points
    start: int  # byte offsets of the attribute token in its line
    end: int
    cls: str
    name: str


@dataclass(frozen=True)
class Mutation:
    write: Write
    new: str


@dataclass
class Result:
    tree: str
    mode: str
    mutations: list[Mutation]
    messages: dict[Write, str]  # the SS101 message at each flagged rename
    other_changes: list[str]

    @property
    def flagged(self) -> int:
        return len(self.messages)

    @property
    def hinted(self) -> int:
        return sum(f"did you mean '{w.name}'" in message for w, message in self.messages.items())

    def percent(self, count: int) -> float:
        return 100.0 * count / len(self.mutations) if self.mutations else 0.0


@dataclass
class Package:
    """What a package writes and reads, from `ast` and the project's own per-file facts."""

    root: Path  # holds `folder`
    folder: str
    writes: list[Write] = field(default_factory=list)  # chosen-write candidates
    reads: set[str] = field(default_factory=set)  # names read anywhere (the facts' reads)
    attributes: set[str] = field(default_factory=set)  # every attribute name loaded, stored or deleted
    bound: set[str] = field(default_factory=set)  # def/class names and names bound in class bodies
    words: set[str] = field(default_factory=set)  # identifier-like words in string constants
    readers: dict[str, set[str | None]] = field(default_factory=lambda: defaultdict(set))  # name -> classes
    written: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # class -> names on self
    parents: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    lineage: dict[str, set[str]] = field(default_factory=dict)  # class -> its ancestors in the package
    families: dict[str, set[str]] = field(default_factory=dict)  # class -> `related(class)`

    def used(self, name: str) -> bool:
        return name in self.reads or name in self.attributes or name in self.bound or name in self.words

    def ancestors(self, cls: str) -> set[str]:
        if cls not in self.lineage:
            self.lineage[cls] = set()  # a cycle of bases ends here
            found = set(self.parents.get(cls, ()))
            for parent in self.parents.get(cls, ()):
                found |= self.ancestors(parent)
            self.lineage[cls] = found
        return self.lineage[cls]

    def related(self, cls: str) -> set[str]:
        """The class, its ancestors and descendants, the ancestors of its descendants (mixins sharing one)."""
        if cls not in self.families:
            descendants = {other for other in self.parents if cls in self.ancestors(other)}
            family = {cls} | self.ancestors(cls) | descendants
            for descendant in descendants:
                family |= self.ancestors(descendant)
            self.families[cls] = family
        return self.families[cls]

    def unrelated(self, one: str, other: str) -> bool:
        """Neither in the other's family, nor sharing an ancestor (siblings)."""
        return other not in self.related(one) and not (self.ancestors(one) | {one}) & (self.ancestors(other) | {other})


def receiver_of(method: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """`self` of an instance method; None for static and class methods."""
    if any(isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod") for d in method.decorator_list):
        return None
    arguments = method.args.posonlyargs + method.args.args
    return arguments[0].arg if arguments else None


def character_column(line: bytes, offset: int) -> int:
    return len(line[:offset].decode("utf-8", "replace")) + 1


class Reader(ast.NodeVisitor):
    """One file: the attributes it uses, who reads them through `self`, and the candidate writes."""

    def __init__(self, package: Package, path: str, lines: list[bytes]) -> None:
        self.package, self.path, self.lines = package, path, lines
        self.cls: str | None = None
        self.receiver: str | None = None
        self.method_depth = 0  # 1 in a method's own body, more inside its nested functions

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.package.bound.add(node.name)
        outer = self.cls, self.receiver, self.method_depth
        self.cls, self.receiver, self.method_depth = node.name, None, 0
        for statement in node.body:
            for target in class_body_targets(statement):
                self.package.bound.add(target)
        self.generic_visit(node)
        self.cls, self.receiver, self.method_depth = outer

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.package.bound.add(node.name)
        outer = self.receiver, self.method_depth
        if self.cls is not None and self.method_depth == 0:
            self.receiver, self.method_depth = receiver_of(node), 1
        elif self.method_depth:
            self.method_depth += 1
        self.generic_visit(node)
        self.receiver, self.method_depth = outer

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            self.package.words.update(WORD.findall(node.value))

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self.package.attributes.add(node.attr)
        on_self = self.receiver is not None and isinstance(node.value, ast.Name) and node.value.id == self.receiver
        if on_self and isinstance(node.ctx, ast.Store):
            self.package.written[self.cls].add(node.attr)
        elif not isinstance(node.ctx, ast.Store):
            self.package.readers[node.attr].add(self.cls if on_self else None)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if isinstance(node.target, ast.Attribute):  # `self.n += 1` reads n
            self.visit_Attribute(ast.Attribute(node.target.value, node.target.attr, ast.Load()))
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign | ast.AnnAssign) -> None:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if self.method_depth == 1 and node.value is not None and not constructed(node.value) \
                and not is_task_made(node.value):
            for target in targets:
                self._candidate(target)
        self.generic_visit(node)

    visit_AnnAssign = visit_Assign

    def _candidate(self, target: ast.expr) -> None:
        if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                and target.value.id == self.receiver and target.end_lineno == target.lineno):
            return
        name = target.attr
        line = self.lines[target.lineno - 1]
        start = target.end_col_offset - len(name.encode("utf-8"))
        if name.startswith("__") or line[start:target.end_col_offset] != name.encode("utf-8"):
            return
        self.package.writes.append(Write(self.path, target.lineno, character_column(line, target.col_offset),
                                         start, target.end_col_offset, self.cls, name))


def class_body_targets(statement: ast.stmt) -> list[str]:
    if isinstance(statement, ast.Assign):
        return [t.id for t in statement.targets if isinstance(t, ast.Name)]
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        return [statement.target.id]
    return []


def constructed(value: ast.expr) -> bool:
    """A call of a capitalised name, e.g. `nn.Linear(...)`."""
    if not isinstance(value, ast.Call):
        return False
    return (called_name(value.func) or "")[:1].isupper()


def read_package(root: Path, folder: str) -> Package:
    package = Package(root, folder)
    for path in python_files(root / folder):
        source = path.read_bytes()
        relative = path.relative_to(root).as_posix()
        facts = summarize(relative, source)
        if facts.error:
            continue
        package.reads |= facts.reads.union(*facts.class_reads.values(),
                                           *(names for by in facts.attribute_reads.values() for names in by.values()))
        for name, info in facts.classes.items():
            package.parents[name].update(base.rsplit(".", 1)[-1] for base in info.bases)
        Reader(package, relative, source.splitlines(keepends=True)).visit(ast.parse(source))
    classes = set(package.parents)
    for name in classes:
        package.parents[name] &= classes
    return package


def drifts(name: str) -> list[str]:
    """Realistic misspellings of an attribute name: a word dropped, plural or singular, underscore."""
    bare = name.lstrip("_")
    prefix = name[: len(name) - len(bare)]
    words = bare.split("_")
    variants = {prefix + "_".join(words[:i] + words[i + 1:]) for i in range(len(words)) if len(words) > 1}
    variants.add(plural_or_singular(name))
    variants.add(name[1:] if prefix == "_" else "_" + name)
    # a name of three letters or fewer gets no hint but at a typo (the hint rule), so none is made one
    return sorted(v for v in variants if v.isidentifier() and not keyword.iskeyword(v) and len(v.strip("_")) > 3
                  and v != name and not v.startswith("__"))


def plural_or_singular(name: str) -> str:
    if name.endswith("s") and not name.endswith(("ss", "us", "is")):
        return name[:-1]
    if name.endswith(("s", "x", "ch", "sh")):
        return name + "es"
    if name.endswith("y") and name[-2:-1] not in "aeiou_":
        return name[:-1] + "ies"
    return name + "s"


def collision_names(package: Package, write: Write) -> list[str]:
    """Names only one class reads, through its own `self`, a class sharing nothing with the write's class;
    attributes that class writes, never a method or a name any string holds."""
    names = []
    for name, readers in package.readers.items():
        if len(readers) != 1 or name.startswith("__") or name in package.bound or name in package.words:
            continue
        (reader,) = readers
        if reader is not None and name in package.written[reader] and package.unrelated(write.cls, reader):
            names.append(name)
    return sorted(names)


def closeness(name: str, other: str) -> tuple[int, float]:
    """Words the two names share, then how alike they are spelled."""
    shared = set(name.strip("_").split("_")) & set(other.strip("_").split("_"))
    return len(shared), round(difflib.SequenceMatcher(None, name, other).ratio(), 3)


def choose(package: Package, mode: str, count: int, seed: int, reported: set[tuple[str, int, int]]
           ) -> list[Mutation]:
    rng = random.Random(f"{seed}:{package.folder}:{mode}")
    candidates = [w for w in package.writes if w.name in package.reads
                  and (w.path, w.line, w.column) not in reported]
    rng.shuffle(candidates)
    chosen: list[Mutation] = []
    classes: set[str] = set()
    names: set[str] = set()
    for write in candidates:
        if len(chosen) == count:
            break
        if write.cls in classes or write.name in names:
            continue
        if mode == "unread":
            options = [d for d in drifts(write.name) if not package.used(d) and d not in names]
        else:
            options = [n for n in collision_names(package, write) if n not in names]
            best = max((closeness(write.name, n) for n in options), default=(0, 0.0))
            options = [n for n in options if best[0] and closeness(write.name, n) == best]
        if options:
            new = rng.choice(options)
            chosen.append(Mutation(write, new))
            classes.add(write.cls)
            names.update((write.name, new))
    return chosen


def mutate(original: Path, copy: Path, folder: str, mutations: list[Mutation]) -> None:
    """A copy of `original / folder` under `copy`, with the renames applied."""
    shutil.copytree(original / folder, copy / folder)
    by_file: dict[str, list[Mutation]] = defaultdict(list)
    for mutation in mutations:
        by_file[mutation.write.path].append(mutation)
    for path, changes in by_file.items():
        lines = (copy / path).read_bytes().splitlines(keepends=True)
        # right to left, so the offsets of the other renames on a line still hold
        for change in sorted(changes, key=lambda m: (m.write.line, m.write.start), reverse=True):
            w = change.write
            line = lines[w.line - 1]
            lines[w.line - 1] = line[: w.start] + change.new.encode("utf-8") + line[w.end:]
        (copy / path).write_bytes(b"".join(lines))


def findings(root: Path, folder: str) -> list[dict]:
    result = subprocess.run(
        [sys.executable, "-m", "flake8_stale_state", "--no-cache", "--format", "json", folder],
        cwd=root, capture_output=True, text=True,
    )
    if result.returncode not in (0, 1):
        raise SystemExit(f"stale-state failed on {root / folder}: {result.stderr.strip()}")
    return json.loads(result.stdout)["findings"]


def key(finding: dict) -> tuple:
    """A finding by place and code. Its hint may change: a rename leaves the old name read and unassigned, a
    drift the package's other dead writes may then be pointed to."""
    return finding["path"], finding["line"], finding["column"], finding["code"]


def compare(tree: str, mode: str, mutations: list[Mutation], before: list[dict], after: list[dict]) -> Result:
    at = {(m.write.path, m.write.line, m.write.column): m for m in mutations}
    messages = {}
    rest = []
    for finding in after:
        mutation = at.get((finding["path"], finding["line"], finding["column"]))
        if mutation is not None and finding["code"] == "SS101" and f"'{mutation.new}'" in finding["message"]:
            messages[mutation.write] = finding["message"]
            continue
        rest.append(key(shifted(finding, mutations)))
    # SS101's own findings only: a rename may take a line another check reads (an SS102 cache key, say)
    expected = [key(f) for f in before if f["code"] == "SS101"]
    rest = [k for k in rest if k[3] == "SS101"]
    changes = sorted(set(rest) ^ set(expected), key=str)
    return Result(tree, mode, mutations, messages, [" ".join(map(str, change)) for change in changes])


def shifted(finding: dict, mutations: list[Mutation]) -> dict:
    """The finding's column in the original: a rename earlier on its line moved it."""
    column = finding["column"]
    for m in mutations:
        if (m.write.path, m.write.line) == (finding["path"], finding["line"]) and m.write.column < column:
            column -= len(m.new) - len(m.write.name)
    return {**finding, "column": column}


def run_tree(spec: str, modes: tuple[str, ...], count: int, seed: int) -> list[Result]:
    name, version = spec.split("==")
    tree = sdist(name, version)
    return measure(spec, tree, package_folder(tree, name), modes, count, seed)


def measure(label: str, tree: Path, folder: str, modes: tuple[str, ...], count: int, seed: int) -> list[Result]:
    """The renames of each mode in a copy of `tree / folder`, and what stale-state reports before and after."""
    with tempfile.TemporaryDirectory(prefix="stale-state-drift-") as scratch:
        original = Path(scratch) / "original"
        shutil.copytree(tree / folder, original / folder)
        before = findings(original, folder)
        reported = {(f["path"], f["line"], f["column"]) for f in before if f["code"] == "SS101"}
        package = read_package(original, folder)
        results = []
        for mode in modes:
            mutations = choose(package, mode, count, seed, reported)
            copy = Path(scratch) / mode
            mutate(original, copy, folder, mutations)
            results.append(compare(label, mode, mutations, before, findings(copy, folder)))
        return results


def run(trees: tuple[str, ...] = TREES, modes: tuple[str, ...] = MODES, count: int = WRITES,
        seed: int = SEED) -> list[Result]:
    return [result for spec in trees for result in run_tree(spec, modes, count, seed)]


def shortfalls(results: list[Result], count: int, min_flagged: float, min_hint: float, max_other: int
               ) -> list[str]:
    problems = []
    for r in results:
        label = f"{r.tree} {r.mode}"
        if len(r.mutations) < count:
            problems.append(f"{label}: only {len(r.mutations)} writes could be renamed, not {count}")
        if r.percent(r.flagged) < min_flagged:
            problems.append(f"{label}: {r.percent(r.flagged):.0f}% flagged, below {min_flagged:g}%")
        if r.percent(r.hinted) < min_hint:
            problems.append(f"{label}: {r.percent(r.hinted):.0f}% hinted, below {min_hint:g}%")
        if len(r.other_changes) > max_other:
            problems.append(f"{label}: {len(r.other_changes)} other findings changed")
    return problems


def table(results: list[Result]) -> str:
    rows = ["| package | mode | writes | flagged | hint names X | other findings changed |",
            "|---|---|---|---|---|---|"]
    for r in results:
        rows.append(f"| {r.tree} | {r.mode} | {len(r.mutations)} | {r.flagged} ({r.percent(r.flagged):.0f}%) "
                    f"| {r.hinted} ({r.percent(r.hinted):.0f}%) | {len(r.other_changes)} |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trees", nargs="+", default=list(TREES))
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    parser.add_argument("--writes", type=int, default=WRITES, help="renamed writes per package and mode")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--min-flagged", type=float, default=95.0, help="percent of renamed writes reported")
    parser.add_argument("--min-hint", type=float, default=90.0, help="percent whose hint names the old name")
    parser.add_argument("--max-other", type=int, default=0, help="other findings allowed to change")
    parser.add_argument("--verbose", action="store_true", help="list every rename and what was reported")
    args = parser.parse_args()
    results = run(tuple(args.trees), tuple(args.modes), args.writes, args.seed)
    print(table(results))
    if args.verbose:
        for r in results:
            print(f"\n{r.tree} {r.mode}:")
            for m in r.mutations:
                outcome = r.messages.get(m.write, "not reported")
                print(f"  {m.write.path}:{m.write.line}:{m.write.column} {m.write.cls}.{m.write.name} -> {m.new}: "
                      f"{outcome}")
            for change in r.other_changes:
                print(f"  changed: {change}")
    problems = shortfalls(results, args.writes, args.min_flagged, args.min_hint, args.max_other)
    for problem in problems:
        print(problem, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
