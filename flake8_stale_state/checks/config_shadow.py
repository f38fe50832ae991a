"""SS103: a config value read again after it seeded an attribute that can change on its own.

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
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from flake8_stale_state.facts import Collecting, FileFacts, Write, spanned_lines
from flake8_stale_state.findings import Finding, Location
from flake8_stale_state.rule import Example, Rule

if TYPE_CHECKING:
    from flake8_stale_state.index import PackageIndex
    from flake8_stale_state.settings import Settings

CODE = "SS103"

LAST_ATTRIBUTE = re.compile(r"\.(\w+)$")


class Seed(NamedTuple):
    """`OWNER.K = CFG[K]` in a method of class `cls`: `config` and `owner` are paths from the receiver."""

    cls: str
    method: str
    key: str
    target: str  # as written: `self.module.activation_checkpoint_interval`
    line: int
    col: int
    config: str  # `._config.pipeline`
    owner: str  # `.module`; "" for the receiver itself


class ConfigRead(NamedTuple):
    """A read of `CFG[K]` elsewhere in the class that seeded from it, not part of seeding."""

    cls: str
    method: str
    key: str
    text: str  # as written: `self._config.pipeline['activation_checkpoint_interval']`
    line: int
    col: int
    config: str


SEED_FIELDS = Seed._fields[1:]  # as the collector names them, after the class
READ_FIELDS = ConfigRead._fields[1:]


@dataclass(frozen=True)
class Shadowing:
    seeds: tuple[Seed, ...] = ()
    reads: tuple[ConfigRead, ...] = ()
    placeholders: tuple[tuple[int, int], ...] = ()  # `X.K = None` stores: they empty an attribute


def collector() -> Callable[..., Shadowing]:
    from flake8_stale_state.checks.config_shadow_ast import collect  # only when a file is parsed

    return collect


# findings -------------------------------------------------------------------------------------------------
def bases_of(index: PackageIndex, path: str, cls: str | None) -> set[str]:
    info = index.files[path].classes.get(cls or "") if path in index.files else None
    return {base.rsplit(".", 1)[-1] for base in info.bases} if info else set()


def can_diverge(write: Write, path: str, seed: Seed, seed_path: str, index: PackageIndex) -> bool:
    """Whether `write` may assign the attribute the seed copied the config into. A class is its file and name:
    a class of the same name in another file (a generated copy, say) is another class."""
    cls = seed.cls
    same_class = (path, write.cls) == (seed_path, cls)
    if not seed.owner:
        # the receiver's own attribute: its class, a base class or a subclass assigns it
        return write.on_receiver and (
            same_class or cls in bases_of(index, path, write.cls) or write.cls in bases_of(index, seed_path, cls)
        )
    # an attribute of `self.X`, whose class is not known: any class's own attribute of that name, or another X
    if write.on_receiver:
        return not same_class
    owner = LAST_ATTRIBUTE.search(seed.owner)
    return owner is not None and write.owner.rsplit(".", 1)[-1] == owner.group(1)


def assigned_elsewhere(seed: Seed, copies: list[Seed], facts: FileFacts, shadowing: Shadowing,
                       index: PackageIndex) -> list[tuple[str, int]]:
    """Where else the seeded attribute may be assigned, (path, line) sorted: not by a copy of the same config
    value, not in the seeding method, whose other assignments initialise the attribute rather than move it on
    later, and not to None in this file, which empties the attribute rather than give it a value to prefer to
    the config's."""
    path = facts.path
    at_copies = {(path, copy.line, copy.col) for copy in copies}
    emptied = {(path, line, col) for line, col in shadowing.placeholders}
    found = []
    for write_path, write in index.writes_by_name.get(seed.key, ()):
        where = (write_path, write.line, write.col)
        if where in at_copies or where in emptied:
            continue
        if (write_path, write.cls, write.method) == (path, seed.cls, seed.method):
            continue
        if can_diverge(write, write_path, seed, path, index):
            found.append((write_path, write.line))
    return sorted(found, key=lambda at: (index.relative(at[0]), at[1]))


def seeded_keys(summary: FileFacts, index: PackageIndex) -> set[str]:
    """Keys some class copies into an attribute K and reads again, where something else in the package assigns
    K too: only those can be shadowed."""
    return {key for key in summary.signals.seeded if len(index.writes_by_name.get(key, ())) > 1}


def may_report(summary: FileFacts, index: PackageIndex, settings: Settings) -> bool:
    return bool(seeded_keys(summary, index))


def lines_needed(summary: FileFacts, index: PackageIndex, settings: Settings) -> set[int]:
    """The lines the collector must see to judge the file: the methods of the seeding classes that name a seeded key
    or the first step of a seed's config, and every assignment of a seeded key in the file (`X.K = None`
    empties an attribute rather than moves it on)."""
    keys = seeded_keys(summary, index)
    seen = {write.line for write in summary.writes if write.name in keys}
    return seen | spanned_lines(summary.signals.seeding_methods)


def check(facts: FileFacts, index: PackageIndex, settings: Settings) -> Iterator[Finding]:
    shadowing: Shadowing = facts.checks.get(CODE) or Shadowing()
    for read in shadowing.reads:
        if settings.ignores(read.key):
            continue
        value = (read.cls, read.config, read.key)
        copies = [seed for seed in shadowing.seeds if (seed.cls, seed.config, seed.key) == value]
        for seed in sorted(copies, key=lambda s: (s.line, s.col)):
            elsewhere = assigned_elsewhere(seed, copies, facts, shadowing, index)
            if not elsewhere:
                continue
            first_path, first_line = elsewhere[0]
            also = f"{index.relative(first_path)}:{first_line}"
            also += f" and {len(elsewhere) - 1} more" if len(elsewhere) > 1 else ""
            message = (
                f"{read.text} shadows {seed.target} (seeded at line {seed.line}, also assigned in {also}); "
                "read the attribute instead"
            )
            related = (Location(facts.path, seed.line, seed.col, f"{seed.target} is seeded here"),
                       *(Location(at, line, 0, f"{seed.target.rsplit('.', 1)[-1]} is assigned here")
                         for at, line in elsewhere))
            context = ".".join(part for part in (read.cls, read.method) if part)
            yield Finding(facts.path, read.line, read.col, CODE, message, read.key, context, related=related)
            break


SEEDING_ENGINE = '''\
class PipelineEngine:
    def __init__(self, module, config):
        self.module = module
        self._config = config
        if self._config.pipeline["activation_checkpoint_interval"] > 0:
            self.module.activation_checkpoint_interval = self._config.pipeline["activation_checkpoint_interval"]

    def _exec_load_micro_batch(self, inputs):
'''
MOVING_MODULE = '''\
            inputs.requires_grad = True


class PipelineModule:
    def __init__(self, activation_checkpoint_interval=0):
        self.activation_checkpoint_interval = activation_checkpoint_interval

    def set_checkpoint_interval(self, interval):
        self.activation_checkpoint_interval = interval
'''

RULE = Rule(
    code=CODE,
    name="config-shadows-attribute",
    title="config read shadowing a seeded attribute",
    summary="a config read that shadows an attribute seeded from that config",
    reported_at="the config read",
    description=__doc__,
    examples=(
        Example("Reported: the module can checkpoint while the config still says 0", SEEDING_ENGINE
                + '        if self._config.pipeline["activation_checkpoint_interval"] > 0:  # SS103 read the attribute'
                + " instead\n" + MOVING_MODULE),
        Example("Quiet: the seeded attribute read, where the value lives once seeded", SEEDING_ENGINE
                + "        if self.module.activation_checkpoint_interval > 0:\n" + MOVING_MODULE),
    ),
    check=check,
    may_report=may_report,
    lines_needed=lines_needed,
    collecting=Collecting(CODE, collector, Shadowing),
)
