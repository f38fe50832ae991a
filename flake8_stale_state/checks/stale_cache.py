"""SS102: a list attribute rebuilt by appending without being emptied first.

Two shapes. A list cached per key, rebuilt under an `if` whose test compares an attribute with `!=` (on either
side, possibly within `and`/`or`) and whose block assigns that attribute, the key of the cache, appending in a
loop: a single append outside any loop (a history log: `if self.state != s: self.history.append(s)`) is no
rebuild. And a rebuild method: one that can run more than once on the same object (not a constructor, nor
called only from one; a public method, a method called from a loop or registered as a callback, or one named by
a rebuild protocol: `fit`, `configure`, `setup`, `build`, `load`, ...) and appends, in a loop or once per element
of its input, to a list the class binds elsewhere only to a fresh empty list, with no reset on the path before.

Quiet: accumulation by design (one append per call from the caller's argument: `add_x`, `register`, `on_*`,
`partial_fit`, `__call__`, ...), a reset anywhere on the path (`self.L = []`, `.clear()`, `del self.L[:]`,
`self.L[:] = []`, a reset helper called first, `super().fit()` that resets), a list read to decide whether to
append (`if x not in self.L`, `while len(self.L) < n`), a method that returns early once built, a class that
re-runs `__init__` before refitting, and a list copied from an argument.

The fix inserts the reset right before the outermost loop that appends (for a rebuild method, right before the
statement holding the first append, in the innermost block that runs once per call), fixing the lists a method
appends to in parallel together. It rebinds (`self.results = []`, as the upstream DeepSpeed fix did) when the
class only ever binds that attribute to a fresh list: a reference taken earlier, such as a list returned to a
caller, keeps the entries of the previous build instead of changing under its holder. It calls `.clear()` when
the attribute is bound to anything else (a list passed in, a `deque`, a value of unknown type) or is copied to
another attribute: there the object is shared, and the other references must see the rebuilt entries.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from flake8_stale_state.facts import Collecting, FileFacts, spanned_lines
from flake8_stale_state.findings import Finding, Location
from flake8_stale_state.rule import Example, Rule

if TYPE_CHECKING:
    from flake8_stale_state.index import PackageIndex
    from flake8_stale_state.settings import Settings

CODE = "SS102"
GUARD, METHOD = "guard", "method"  # the two shapes
REBIND, CLEAR = "rebind", "clear"  # the two resets


class Rebuild(NamedTuple):
    """One stale append: where it is, the list, and how its shape and the class make the reset."""

    shape: str  # GUARD or METHOD
    list: str  # as the class sees it: `results`, `cache.items`
    target: str  # as the method spells it: `self.results`
    line: int
    col: int
    loop: tuple[int, int] | None  # where the reset goes: before the statement there
    cls: str
    method: str
    reset: str  # REBIND or CLEAR
    key: str = ""  # GUARD: the attribute the guard compares
    guard: int = 0  # GUARD: the line of the `if`
    created: str = ""  # METHOD: where the list is emptied, as the message names it
    created_at: tuple[int, ...] = ()  # METHOD: the lines of those places
    group: int = 0  # METHOD: the line of the method, whose lists are fixed together
    via: str | None = None  # METHOD: the method that runs it again, where it is not public itself


@dataclass(frozen=True)
class Rebuilds:
    found: tuple[Rebuild, ...] = ()


def collector() -> Callable[..., Rebuilds]:
    from flake8_stale_state.checks.stale_cache_ast import collect  # only when a file is parsed

    return collect


def may_report(summary: FileFacts, index: PackageIndex, settings: Settings) -> bool:
    """Only a file with an `if` testing `!=` around a loop can hold a guarded rebuild, and only one with a class
    that binds an attribute to an empty list and appends to it in a method that never resets it, a rebuild
    method."""
    return summary.signals.guarded_loop or summary.signals.rebuild_method


def reset_statement(rebuild: Rebuild) -> str:
    return f"{rebuild.target} = []" if rebuild.reset == REBIND else f"{rebuild.target}.clear()"


def method_of(rebuild: Rebuild) -> tuple[str, str, int]:
    """A rebuild method's lists are fixed together: those of one class, method and definition line."""
    return rebuild.cls, rebuild.method, rebuild.group


def fix_title(rebuild: Rebuild, rebuilds: Rebuilds) -> str:
    """What the fix inserts: the resets of every list the method appends to in parallel with this one."""
    together = [r for r in rebuilds.found if r.shape == METHOD and method_of(r) == method_of(rebuild)
                and r.loop is not None] if rebuild.shape == METHOD else []
    statements = dict.fromkeys(reset_statement(r) for r in [rebuild, *together])
    return "Insert " + " and ".join(f"'{statement}'" for statement in statements)


def lines_needed(summary: FileFacts, index: PackageIndex, settings: Settings) -> set[int]:
    """The lines the collector must see to judge the file: the classes that may hold a rebuild method, whole, and those
    of the same names (what they bind to the lists counts too); a guarded rebuild's `if` and what names its
    lists."""
    return spanned_lines(summary.signals.rebuild_spans)


def check(facts: FileFacts, index: PackageIndex, settings: Settings) -> Iterator[Finding]:
    rebuilds: Rebuilds = facts.checks.get(CODE) or Rebuilds()
    for rebuild in rebuilds.found:
        name = rebuild.list
        if settings.ignores(name.rsplit(".", 1)[-1]):
            continue
        if rebuild.shape == METHOD:
            run_by = f" (run by {rebuild.via}())" if rebuild.via else ""
            message = (
                f"'{name}' is appended to by {rebuild.method}(){run_by} each time it runs, but is only emptied in "
                f"{rebuild.created}: a second call keeps the first call's entries"
            )
            related = tuple(Location(facts.path, line, 0, f"'{name}' is emptied here") for line in rebuild.created_at)
        else:
            message = (
                f"'{name}' is rebuilt when '{rebuild.key}' changes (line {rebuild.guard}) "
                "but is appended to without being cleared first"
            )
            related = (Location(facts.path, rebuild.guard, 0, f"the guard on '{rebuild.key}'"),)
        context = ".".join(part for part in (rebuild.cls, rebuild.method) if part)
        fix = fix_title(rebuild, rebuilds) if rebuild.loop is not None else ""
        yield Finding(facts.path, rebuild.line, rebuild.col, CODE, message, name, context, related=related, fix=fix)


def fix(source: str, findings: Iterable[Finding]) -> str:
    """The source with a reset inserted before each loop the SS102 findings (positions in `source`) point into."""
    from flake8_stale_state.checks.stale_cache_fix import insert_resets  # libcst, only when fixing

    wanted = {(f.line, f.col) for f in findings if f.code == CODE}
    return insert_resets(source, wanted) if wanted else source


RULE = Rule(
    code=CODE,
    name="stale-append-cache",
    title="list cache rebuilt without being cleared",
    summary="a list rebuilt by appending without being emptied first: under a `!=` key guard, or by a method "
            "that runs again",
    reported_at="the append",
    description=__doc__,
    examples=(
        Example("Reported: entries computed for the previous interval stay at the front of the list", '''\
class PipelineModule:
    def __init__(self, funcs, interval):
        self.funcs, self.interval = funcs, interval
        self.results, self.results_interval = [], None

    def _precompute(self):
        if self.results_interval != self.interval:
            for start in range(0, len(self.funcs), self.interval):
                self.results.append(start)  # SS102 is rebuilt when 'results_interval' changes (line 7)
            self.results_interval = self.interval
'''),
        Example("Reported: a second fit keeps the first fit's members", '''\
class Ensemble:
    def __init__(self, n):
        self.n = n
        self.members = []

    def fit(self, data):
        for seed in range(self.n):
            self.members.append((data, seed))  # SS102 is appended to by fit() each time it runs
        return self
'''),
        Example("Quiet: a reset before the loop that refills the list, or a rebuild in one assignment", '''\
class PipelineModule:
    def __init__(self, funcs, interval):
        self.funcs, self.interval = funcs, interval
        self.results, self.results_interval, self.starts = [], None, []

    def _precompute(self):
        if self.results_interval != self.interval:
            self.results = []
            for start in range(0, len(self.funcs), self.interval):
                self.results.append(start)
            self.starts = [start for start in range(0, len(self.funcs), self.interval)]
            self.results_interval = self.interval
'''),
        Example("Quiet: one entry per call from the caller's argument accumulates by design", '''\
class Registry:
    def __init__(self):
        self.handlers = []

    def register(self, handler):
        self.handlers.append(handler)
'''),
    ),
    check=check,
    may_report=may_report,
    lines_needed=lines_needed,
    collecting=Collecting(CODE, collector, Rebuilds),
    fix=fix,
)
