"""SS101: `self.X = ...` where no attribute named X is read anywhere in the package.

Bad (nothing reads `checkpoint_interval`; readers use `activation_checkpoint_interval`):

    class PipelineModule:
        def set_checkpoint_interval(self, interval):
            self.checkpoint_interval = interval        # SS101 ... did you mean 'activation_checkpoint_interval'?

        def forward(self, x):
            if self.activation_checkpoint_interval > 0: ...

Good: the attribute is read somewhere in the package, in any file and any form
(`obj.X`, `getattr(obj, "X")`, `"{self.X}".format(...)`, a dataclass field, ...), or by code outside it:

    class Context:
        def __init__(self):
            #: The subcommand about to run, for the group's callback.
            self.invoked_subcommand = None             # documented API: read by the package's users

    class UsageError(Exception):
        def __init__(self, message, ctx=None):
            self.ctx = ctx                             # an exception's payload: read by whoever catches it

    class Quiet(logging.StreamHandler):
        def __init__(self):
            self.terminator = ""                       # read by the standard library's StreamHandler.emit
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from flake8_stale_state.facts import FileFacts, Write
from flake8_stale_state.findings import Finding
from flake8_stale_state.hint import closest

if TYPE_CHECKING:
    from flake8_stale_state.index import PackageIndex
    from flake8_stale_state.settings import Settings

CODE = "SS101"
NAME = "dead-attribute-write"


def is_consumed(write: Write, index: PackageIndex) -> bool:
    """Read by name, taken by a framework that reads attributes without naming them, or read outside the package."""
    if write.name in index.read_names:
        return True
    traits = index.traits_of(write.cls)
    return "reads_all" in traits or ("module" in traits and write.constructed) or is_read_outside(write, index)


def is_read_outside(write: Write, index: PackageIndex) -> bool:
    """Read by code the package does not hold: a base class from the standard library or an installed
    library, or (public names only) the package's users, for an attribute documented as API where it is
    assigned or carried by an exception."""
    if write.name in index.library_reads_of(write.cls):
        return True
    if write.name.startswith("_"):
        return False
    return write.name in index.documented_names or "exception" in index.traits_of(write.cls)


def suggestion(write: Write, index: PackageIndex) -> str | None:
    same_class = closest(write.name, index.receiver_reads.get(write.cls or "", ()), same_class=True)
    return same_class or index.read_matcher.closest(write.name)


def dead_writes(facts: FileFacts, index: PackageIndex, settings: Settings) -> Iterator[Write]:
    for write in facts.writes:
        if not write.on_receiver or write.name.startswith("__") and write.name.endswith("__"):
            continue
        if not is_consumed(write, index) and not settings.ignores(write.name):
            yield write


def may_report(summary: FileFacts, index: PackageIndex, settings: Settings) -> bool:
    return any(dead_writes(summary, index, settings))


def lines_needed(summary: FileFacts, index: PackageIndex, settings: Settings) -> set[int]:
    """The lines libcst must see to judge the file: those of the writes its summary finds dead."""
    return {write.line for write in dead_writes(summary, index, settings)}


def check(facts: FileFacts, index: PackageIndex, settings: Settings) -> Iterator[Finding]:
    for write in dead_writes(facts, index, settings):
        message = f"'{write.name}' is assigned but never read in package '{index.name}'"
        hint = suggestion(write, index)
        if hint:
            message += f"; did you mean '{hint}'?"
        context = ".".join(part for part in (write.cls, write.method) if part)
        yield Finding(facts.path, write.line, write.col, CODE, message, write.name, context)
