"""SS102: a list cached per key is rebuilt by appending when the key changes, without being cleared first.

Bad (entries computed for the previous interval stay at the front of the list):

    class PipelineModule:
        def _precompute_checkpointable_values(self):
            if self.results_interval != self.interval:
                for start in range(0, len(self.funcs), self.interval):
                    self.results.append(self._checkpointable(start))     # SS102
                self.results_interval = self.interval

Good: reset the list before the loop that refills it (`self.results = []`, `self.results.clear()`,
`del self.results[:]`, `self.results[:] = []`), or rebuild it in one assignment
(`self.results = [self._checkpointable(s) for s in ...]`).

The guard is an `if` whose test compares an attribute with `!=` (on either side, possibly within `and`/`or`)
and whose block assigns that attribute: the key of the cache. A single append outside any loop (a history
log: `if self.state != s: self.history.append(s); self.state = s`) is not a rebuild.

The fix inserts the reset right before the outermost loop of the guarded block that appends. It rebinds
(`self.results = []`, as the upstream DeepSpeed fix did) when the class only ever binds that attribute to a
fresh list: any reference taken earlier, such as a list returned to a caller, keeps the entries that belong to
the previous key instead of changing under its holder. It calls `.clear()` when the attribute is bound to
anything else (a list passed in, a `deque`, a value of unknown type) or is copied to another attribute: there
the object is shared or of another type, and the other references must see the rebuilt entries.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from flake8_stale_state.facts import FileFacts
from flake8_stale_state.findings import Finding
from flake8_stale_state.summary import GUARDED_LOOP, REBUILD_CLASS, REBUILD_METHOD, signalled_lines

if TYPE_CHECKING:
    from flake8_stale_state.index import PackageIndex
    from flake8_stale_state.settings import Settings

CODE = "SS102"
NAME = "stale-append-cache"


def may_report(summary: FileFacts, index: PackageIndex, settings: Settings) -> bool:
    """Only a file with an `if` testing `!=` around a loop can hold a guarded rebuild, and only one with a class
    that binds an attribute to an empty list and appends to it in a method that never resets it, a rebuild
    method."""
    return GUARDED_LOOP in summary.signals or REBUILD_METHOD in summary.signals


def lines_needed(summary: FileFacts, index: PackageIndex, settings: Settings) -> set[int]:
    """The lines libcst must see to judge the file: the classes that may hold a rebuild, whole, and those of the
    same names (what they bind to the lists counts too)."""
    return signalled_lines(summary.signals, REBUILD_CLASS)


def check(facts: FileFacts, index: PackageIndex, settings: Settings) -> Iterator[Finding]:
    for rebuild in facts.checks.get(CODE, ()):
        name = rebuild["list"]
        if settings.ignores(name.rsplit(".", 1)[-1]):
            continue
        if rebuild.get("shape") == "method":
            run_by = f" (run by {rebuild['via']}())" if rebuild.get("via") else ""
            message = (
                f"'{name}' is appended to by {rebuild['method']}(){run_by} each time it runs, but is only emptied in "
                f"{rebuild['created']}: a second call keeps the first call's entries"
            )
        else:
            message = (
                f"'{name}' is rebuilt when '{rebuild['key']}' changes (line {rebuild['guard']}) "
                "but is appended to without being cleared first"
            )
        context = ".".join(part for part in (rebuild["class"], rebuild["method"]) if part)
        yield Finding(facts.path, rebuild["line"], rebuild["col"], CODE, message, name, context)


def fix(source: str, findings: Iterable[Finding]) -> str:
    """The source with a reset inserted before each loop the SS102 findings (positions in `source`) point into."""
    from flake8_stale_state.checks.stale_cache_cst import insert_resets  # libcst, only when fixing

    wanted = {(f.line, f.col) for f in findings if f.code == CODE}
    return insert_resets(source, wanted) if wanted else source
