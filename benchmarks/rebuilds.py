"""Reset-removal benchmark for SS102's rebuild methods: real resets deleted, one at a time.

    python benchmarks/rebuilds.py [NAME==VERSION ...] [--show]

In released packages that fit estimators or rebuild configuration, it finds the methods that reset a list
attribute (`self.L = []`, `list()`, `.clear()`, `del self.L[:]`) and then append to it (in a loop, or with
`extend`/`+=`). Constructors are left out: their reset is the list's creation. For each such reset, a copy of
the file has the reset replaced by `pass` and is checked against the package's index. Where the class starts the
list as `None` elsewhere, the copy starts it as `[]` there; where nothing else creates it, the copy creates it
once, as the first statement of `__init__` (or of the class body if the class has no `__init__`). That is the
shape of the bug: a list made once per object and rebuilt without being emptied. Methods the class calls only
from its constructors are left out: they run once per object, so the deletion makes no stale list.

Printed per package: deletions, flagged (an SS102 finding on one of that method's appends of that list),
other findings that changed (anything else that appeared or disappeared in the file, lines mapped across the
inserted one; an SS101 finding on the list at a line the copy rewrote is about that statement, not counted),
and the copies where SS102's collector finds a rebuild method the
cheap pre-pass would not have let it look for (always 0, or the pre-pass is unsound). `--show` lists
each deletion that was not flagged. The sdists go to ~/.cache/stale-state/sdists, never into the repository.
"""

from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass, replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]
from conftest import full_facts  # noqa: E402
from corpora import sdist  # noqa: E402
from counts import package_folder  # noqa: E402

from flake8_stale_state.engine import Analyzer  # noqa: E402
from flake8_stale_state.findings import Finding  # noqa: E402
from flake8_stale_state.package import python_files  # noqa: E402
from flake8_stale_state.settings import Settings  # noqa: E402
from flake8_stale_state.summary import summarize  # noqa: E402

PACKAGES = ("pyod==3.6.7", "mlxtend==0.25.0", "imbalanced-learn==0.14.2", "fairlearn==0.15.0",  # estimators
            "aeon==1.6.0", "sktime==1.2.0", "pyts==0.14.1", "skforecast==0.26.0",  # time series
            "pelican==4.12.0", "pytest==9.2.0")  # plugin-based tools
CONSTRUCTORS = {"__init__", "__new__", "__post_init__"}
MARK = Finding("", 0, 0, "", "")  # a line number to move
APPENDERS = {"append", "extend", "insert"}


@dataclass
class Deletion:
    path: Path
    method: str
    name: str  # the list
    reset: ast.stmt  # the statement deleted
    appends: list[int]  # lines of the method's appends of the list after the reset
    create: tuple[int, bytes] | None  # (line, statement) to insert before, where nothing else creates the list
    placeholders: list[ast.expr]  # `None`s the list starts as elsewhere: made `[]`, or the copy would crash

    def where(self, tree: Path) -> str:
        return f"{self.path.relative_to(tree)}:{self.reset.lineno} {self.method}() '{self.name}'"


def self_attribute(node: ast.AST, receiver: str) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == receiver:
        return node.attr
    return None


def is_empty_list(node: ast.AST | None) -> bool:
    if isinstance(node, ast.List):
        return not node.elts
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "list" and not (
        node.args or node.keywords)


def reset_of(statement: ast.stmt, receiver: str) -> str | None:
    """The list a statement empties: `self.L = []`, `self.L = list()`, `self.L.clear()`, `del self.L[:]`."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and is_empty_list(statement.value):
        return self_attribute(statement.targets[0], receiver)
    if isinstance(statement, ast.AnnAssign) and is_empty_list(statement.value):
        return self_attribute(statement.target, receiver)
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        func = statement.value.func
        if isinstance(func, ast.Attribute) and func.attr == "clear" and not statement.value.args:
            return self_attribute(func.value, receiver)
    if isinstance(statement, ast.Delete) and len(statement.targets) == 1:
        target = statement.targets[0]
        if isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Slice):
            return self_attribute(target.value, receiver)
    return None


def rebinds(statement: ast.stmt, receiver: str, name: str) -> bool:
    """The statement empties the list or binds the attribute to something not made from it."""
    if reset_of(statement, receiver) == name:
        return True
    if isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None:
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        reads = {self_attribute(n, receiver) for n in ast.walk(statement.value)}
        return name not in reads and any(
            self_attribute(t, receiver) == name for target in targets for t in ast.walk(target))
    return False


def appends_of(method: ast.FunctionDef, receiver: str) -> list[tuple[str, int, bool]]:
    """(list, line, adds every element of something) for each append to a receiver attribute."""
    found = []

    def walk(node: ast.AST, in_loop: bool) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            return
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in APPENDERS:
            name = self_attribute(node.func.value, receiver)
            if name:
                found.append((name, node.lineno, in_loop or node.func.attr == "extend"))
        if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add):
            name = self_attribute(node.target, receiver)
            if name:
                found.append((name, node.lineno, True))
        looping = in_loop or isinstance(node, (ast.For, ast.AsyncFor, ast.While, ast.comprehension))
        for child in ast.iter_child_nodes(node):
            walk(child, looping)

    for statement in method.body:
        walk(statement, False)
    return found


def own_statements(node: ast.AST) -> list[ast.stmt]:
    """The statements of a function, at any depth, those of nested functions and classes left out."""
    found = []
    for field in ("body", "orelse", "finalbody", "handlers", "cases"):
        for child in getattr(node, field, None) or []:
            if isinstance(child, ast.stmt):
                found.append(child)
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                found += own_statements(child)
    return found


def deletions_in(path: Path) -> list[Deletion]:
    try:
        tree = ast.parse(path.read_bytes())
    except (SyntaxError, ValueError):
        return []
    found = []
    for cls in (node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)):
        methods = [m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.args.args]
        receivers = {m.name: m.args.args[0].arg for m in methods}
        bound = [  # (method or "" for the class body, attribute, value) of each single assignment
            (m.name, name, node.value) for m in methods for node in ast.walk(m)
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
            if (name := self_attribute(target, receivers[m.name]))
        ]
        bound += [("", target.id, node.value) for node in cls.body if isinstance(node, ast.Assign)
                  for target in node.targets if isinstance(target, ast.Name)]
        once = run_only_from_constructors(methods, receivers)
        for method in methods:
            if method.name in CONSTRUCTORS or method.name in once:
                continue  # runs once per object: a reset there empties nothing that was filled
            receiver = receivers[method.name]
            resets = [(s, reset_of(s, receiver)) for s in own_statements(method) if reset_of(s, receiver)]
            appends = appends_of(method, receiver)
            for statement, name in resets:
                if any(s is not statement and rebinds(s, receiver, name) for s in own_statements(method)):
                    continue  # another reset of the same list stays: the deletion changes nothing
                later = [line for list_name, line, per_element in appends
                         if list_name == name and per_element and line > statement.lineno]
                others = [value for where, list_name, value in bound if list_name == name and where != method.name]
                if later:
                    placeholders = [v for v in others if isinstance(v, ast.Constant) and v.value is None]
                    create = None if any(map(is_empty_list, others)) or placeholders else creation(
                        cls, methods, receivers, name)
                    found.append(Deletion(path, method.name, name, statement, later, create, placeholders))
    return found


def run_only_from_constructors(methods: list[ast.FunctionDef], receivers: dict[str, str]) -> set[str]:
    """Methods the class names (`self.m`) only in constructors, or in methods that run only from those."""
    named_in: dict[str, set[str]] = {}
    for method in methods:
        for node in ast.walk(method):
            name = self_attribute(node, receivers[method.name])
            if name:
                named_in.setdefault(name, set()).add(method.name)
    once: set[str] = set()
    while True:
        more = {m.name for m in methods if m.name not in once and m.name not in CONSTRUCTORS
                and named_in.get(m.name) and named_in[m.name] <= CONSTRUCTORS | once}
        if not more:
            return once
        once |= more


def creation(cls: ast.ClassDef, methods: list[ast.FunctionDef], receivers: dict[str, str],
             name: str) -> tuple[int, bytes]:
    """Where and how to create the list once: first in `__init__`, else first in the class body."""
    init = next((m for m in methods if m.name == "__init__"), None)
    body, statement = (init.body, f"{receivers['__init__']}.{name} = []") if init else (cls.body, f"{name} = []")
    first = body[1] if len(body) > 1 and is_docstring(body[0]) else body[0]
    return first.lineno, b" " * first.col_offset + statement.encode() + b"\n"


def is_docstring(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) and isinstance(
        statement.value.value, str)


def without_reset(source: bytes, deletion: Deletion) -> bytes:
    """The source with the reset statement replaced by `pass` (each other line where it was), and the list
    created once where nothing else creates it."""
    reset = deletion.reset
    lines = source.splitlines(keepends=True)
    first, last = reset.lineno - 1, reset.end_lineno - 1
    head, tail = lines[first][:reset.col_offset], lines[last][reset.end_col_offset:]
    lines[first:last + 1] = [head + b"pass" + tail] if first == last else [
        head + b"pass\n", *(b"\n" for _ in range(first + 1, last)), tail]
    for value in deletion.placeholders:  # `None` and `[]` have the same length: nothing moves
        line = lines[value.lineno - 1]
        lines[value.lineno - 1] = line[:value.col_offset] + b"[]  " + line[value.end_col_offset:]
    if deletion.create is not None:
        line, statement = deletion.create
        lines.insert(line - 1, statement)
    return b"".join(lines)


def reported(finding: Finding) -> Finding:
    """What a finding says at its place; its related places move with the lines the copy inserts. An SS101
    hint is left out: the creation the copy inserts stands beside the constructor's other writes, and a name
    set beside a write is no hint for it (the hint changes, the finding does not)."""
    return replace(finding, related=(), fix="", message=finding.message.split("; did you mean ")[0], suggestion="")


def moved(finding: Finding, deletion: Deletion) -> Finding:
    """A finding of the original file at its line in the copy."""
    if deletion.create is not None and finding.line >= deletion.create[0]:
        return replace(finding, line=finding.line + 1)
    return finding


def skipped_by_the_prepass(path: Path, source: bytes) -> bool:
    """SS102's collector finds a rebuild method in the file, but the pre-pass would not let it look."""
    found = any(r.shape == "method" for r in full_facts(str(path), source, ["SS102"]).checks["SS102"].found)
    return found and not summarize(str(path), source).signals.rebuild_method


def measure(spec: str, show: bool) -> tuple[int, int, int, int]:
    name, version = spec.split("==")
    tree = sdist(name, version)
    folder = tree / package_folder(tree, name)
    analyzer = Analyzer(Settings(use_cache=False))
    deleted = flagged = changed = skipped = 0
    for path in python_files(folder):
        for deletion in deletions_in(path):
            source = path.read_bytes()
            before = {moved(reported(f), deletion) for f in analyzer.check(path, source)}
            copy = without_reset(source, deletion)
            after = {reported(f) for f in analyzer.check(path, copy)}
            skipped += skipped_by_the_prepass(path, copy)
            appends = {moved(replace(MARK, line=line), deletion).line for line in deletion.appends}
            hits = {f for f in after - before if f.code == "SS102" and f.symbol == deletion.name and f.line in appends}
            rewritten = {moved(replace(MARK, line=deletion.reset.lineno), deletion).line}
            rewritten |= {deletion.create[0]} if deletion.create else set()
            # SS101 on the statements the copy rewrote is about those statements: the deleted reset's write is
            # gone, the inserted creation is a write of its own
            others = {f for f in (after - before - hits) | (before - after)
                      if not (f.code == "SS101" and f.symbol == deletion.name and f.line in rewritten)}
            deleted += 1
            flagged += bool(hits)
            changed += len(others)
            if show and (not hits or others):
                print(f"  {'missed' if not hits else 'flagged'}: {deletion.where(tree)}"
                      + "".join(f"\n    other change: {f.text()}" for f in sorted(others)))
    return deleted, flagged, changed, skipped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("packages", nargs="*", default=PACKAGES, help="NAME==VERSION")
    parser.add_argument("--show", action="store_true", help="list the deletions not flagged")
    args = parser.parse_args(argv)
    print("| package | deletions | flagged at the append | other findings changed | copies the pre-pass skips |")
    print("|---|---|---|---|---|")
    totals = [0, 0, 0, 0]
    for spec in args.packages:
        counts = measure(spec, args.show)
        totals = [a + b for a, b in zip(totals, counts)]
        print(f"| {spec} | {counts[0]} | {counts[1]} | {counts[2]} | {counts[3]} |", flush=True)
    deleted, flagged, changed, skipped = totals
    print(f"| all | {deleted} | {flagged} ({100 * flagged / max(deleted, 1):.0f}%) | {changed} | {skipped} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
