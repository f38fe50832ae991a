"""SS103: a config value read again after it seeded an attribute that can change on its own.

Bad (the module can checkpoint while the config still says 0):

    class PipelineEngine:
        def __init__(self, module, config):
            self.module = module
            self._config = config
            if self._config.pipeline['activation_checkpoint_interval'] > 0:
                self.module.activation_checkpoint_interval = self._config.pipeline['activation_checkpoint_interval']

        def _exec_load_micro_batch(self, inputs):
            if self._config.pipeline['activation_checkpoint_interval'] > 0:     # SS103
                inputs.requires_grad = True

    class PipelineModule:
        def __init__(self, activation_checkpoint_interval=0):
            self.activation_checkpoint_interval = activation_checkpoint_interval

        def set_checkpoint_interval(self, interval):
            self.activation_checkpoint_interval = interval

Good: read the seeded attribute, which is where the value lives once seeded:

        def _exec_load_micro_batch(self, inputs):
            if self.module.activation_checkpoint_interval > 0:
                inputs.requires_grad = True

A *seed* is `OWNER.K = CFG['K']`, `OWNER.K = CFG.K`, `OWNER.K = CFG.get('K', ...)` or
`OWNER.K = getattr(CFG, 'K', ...)`, where OWNER is the receiver (`self`) or an attribute chain on it, and CFG
is an attribute and string-subscript chain on the receiver, directly or through a local name bound to one
(`pipe = self._config.pipeline`, or `self.config = config` for the parameter `config`). What makes CFG a
config is its use, not its name: read by string key, or read for more than one value in the class (one
attribute off a live object, as in tied weights `self.head.weight = self.embed.weight`, is no config).
Not seeds: an attribute also computed from the same value (`self.K = cfg.K * 2` in another branch) or
reassigned later in the seeding method (`self.K = [self.K]`), which then means something else; and a value
passed down into a sub-config (`self.vision = config.vision; self.vision.K = config.K`).

A *shadowing read* is a read of the same CFG and key, in any of those forms, elsewhere in the same class:
not in a seed, nor in the test of an `if` around it, nor in the seeding method before the seed or after it
within the block that runs it, where both still agree.

It is reported only when the attribute can diverge from the config: something else in the package assigns
it. For a seed on the receiver itself, that is an assignment of `self.K` in the same class, a base class or a
subclass (a setter, a constructor argument); for a seed on `self.X`, whose class is unknown, an assignment of
`K` on the receiver of any other class or on another `X`. Not counted: other seeds of the same config value
in the class (copies), other assignments in the seeding method (they initialise the attribute), and
`X.K = None` in the same file (it empties the attribute). A CFG rooted at a parameter or a global is not
tracked: within one call the copy cannot have moved yet, and across calls it is another object.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from flake8_stale_state.facts import FileFacts, Write
from flake8_stale_state.findings import Finding
from flake8_stale_state.summary import SEEDED, SEEDING_METHOD, signalled_lines

if TYPE_CHECKING:
    from flake8_stale_state.index import PackageIndex
    from flake8_stale_state.settings import Settings

CODE = "SS103"
NAME = "config-shadows-attribute"

LAST_ATTRIBUTE = re.compile(r"\.(\w+)$")


# findings -------------------------------------------------------------------------------------------------
def bases_of(index: PackageIndex, path: str, cls: str | None) -> set[str]:
    info = index.files[path].classes.get(cls or "") if path in index.files else None
    return {base.rsplit(".", 1)[-1] for base in info.bases} if info else set()


def can_diverge(write: Write, path: str, seed: dict[str, Any], seed_path: str, index: PackageIndex) -> bool:
    """Whether `write` may assign the attribute the seed copied the config into. A class is its file and name:
    a class of the same name in another file (a generated copy, say) is another class."""
    cls = seed["class"]
    same_class = (path, write.cls) == (seed_path, cls)
    if not seed["owner"]:
        # the receiver's own attribute: its class, a base class or a subclass assigns it
        return write.on_receiver and (
            same_class or cls in bases_of(index, path, write.cls) or write.cls in bases_of(index, seed_path, cls)
        )
    # an attribute of `self.X`, whose class is not known: any class's own attribute of that name, or another X
    if write.on_receiver:
        return not same_class
    owner = LAST_ATTRIBUTE.search(seed["owner"])
    return owner is not None and write.owner.rsplit(".", 1)[-1] == owner.group(1)


def assigned_elsewhere(seed: dict[str, Any], copies: list[dict[str, Any]], facts: FileFacts,
                       index: PackageIndex) -> list[str]:
    """Where else the seeded attribute may be assigned: not by a copy of the same config value, not in the
    seeding method, whose other assignments initialise the attribute rather than move it on later, and not
    to None in this file, which empties the attribute rather than give it a value to prefer to the config's."""
    path = facts.path
    at_copies = {(path, copy["line"], copy["col"]) for copy in copies}
    emptied = {(path, line, col) for line, col in (facts.checks.get(CODE) or {}).get("placeholders", [])}
    found = []
    for write_path, write in index.writes_by_name.get(seed["key"], ()):
        where = (write_path, write.line, write.col)
        if where in at_copies or where in emptied:
            continue
        if (write_path, write.cls, write.method) == (path, seed["class"], seed["method"]):
            continue
        if can_diverge(write, write_path, seed, path, index):
            found.append((index.relative(write_path), write.line))
    return [f"{where}:{line}" for where, line in sorted(found)]


def seeded_keys(summary: FileFacts, index: PackageIndex) -> set[str]:
    """Keys some class copies into an attribute K and reads again, where something else in the package assigns
    K too: only those can be shadowed."""
    seeded = (signal.removeprefix(SEEDED) for signal in summary.signals if signal.startswith(SEEDED))
    return {key for key in seeded if len(index.writes_by_name.get(key, ())) > 1}


def may_report(summary: FileFacts, index: PackageIndex, settings: Settings) -> bool:
    return bool(seeded_keys(summary, index))


def lines_needed(summary: FileFacts, index: PackageIndex, settings: Settings) -> set[int]:
    """The lines libcst must see to judge the file: the methods of the seeding classes that name a seeded key
    or the first step of a seed's config, and every assignment of a seeded key in the file (`X.K = None`
    empties an attribute rather than moves it on)."""
    keys = seeded_keys(summary, index)
    seen = {write.line for write in summary.writes if write.name in keys}
    return seen | signalled_lines(summary.signals, SEEDING_METHOD)


def check(facts: FileFacts, index: PackageIndex, settings: Settings) -> Iterator[Finding]:
    collected = facts.checks.get(CODE) or {}
    seeds = collected.get("seeds", [])
    for read in collected.get("reads", []):
        if settings.ignores(read["key"]):
            continue
        value = (read["class"], read["config"], read["key"])
        copies = [seed for seed in seeds if (seed["class"], seed["config"], seed["key"]) == value]
        for seed in sorted(copies, key=lambda s: (s["line"], s["col"])):
            elsewhere = assigned_elsewhere(seed, copies, facts, index)
            if not elsewhere:
                continue
            also = elsewhere[0] + (f" and {len(elsewhere) - 1} more" if len(elsewhere) > 1 else "")
            message = (
                f"{read['text']} shadows {seed['target']} (seeded at line {seed['line']}, also assigned in {also}); "
                "read the attribute instead"
            )
            context = ".".join(part for part in (read["class"], read["method"]) if part)
            yield Finding(facts.path, read["line"], read["col"], CODE, message, read["key"], context)
            break
