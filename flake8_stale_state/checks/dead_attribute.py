"""SS101: `self.X = ...` where no read of X that can reach the write's class exists in the package.

A read through `self`/`cls`/`super()` in class B reaches B's hierarchy in the package (B, its ancestors, its
descendants and the classes sharing a descendant with it); a read on an object whose class is known (an
annotation, a constructor call, `isinstance`) reaches that class's hierarchy; any other read reaches every
class. Reads in any form count: `getattr(obj, "X")`, computed names, format strings, dataclass fields,
`self.__dict__["X"]`; a read that only feeds the attribute itself (`self.n += 1`) does not, but adding objects
to a container in a class that keys tables by their `id()` keeps them alive, and so does holding a weak
reference with a callback. A `__getattr__` forwarding to `getattr(self.A, name)` hands the names its class
lacks to what `self.A` holds. Uses of the whole object
(comparing, hashing, serialising or returning `self.__dict__`, handing the object to a function that reads
computed keys of its parameter's `__dict__`) read every attribute; a debug
representation, state moved to another object and lookups in `__getattr__` read none. Code outside the package
reads attributes documented as API, an exception's public attributes, and what a base class from the standard
library or an installed library reads through `self`, and the capitalised properties (`self.TopMost = True`) of a
base with no source to read (a .NET class through pythonnet).

The hint ("did you mean") names an attribute read on the write's own classes, never a method, class or
constant: first a name read there that nothing there assigns, then a name in one of the shapes a drift takes.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterator
from typing import TYPE_CHECKING

from flake8_stale_state.facts import INIT_PARAMETERS_MARK, FileFacts, Write, class_name, mangled, unmangled
from flake8_stale_state.findings import Finding
from flake8_stale_state.rule import Example, Rule
from flake8_stale_state.hint import closest, drops_a_word, is_setter, is_short, shares_half

if TYPE_CHECKING:
    from flake8_stale_state.index import PackageIndex
    from flake8_stale_state.settings import Settings

CODE = "SS101"


def is_read_by_name(write: Write, index: PackageIndex) -> bool:
    """Some read names the attribute and can reach the write's class: on an object of any class, on one of a
    related class (through self, or a name of known class), or as a computed name's pattern. A read that only
    feeds the attribute itself (`self.n += 1`) counts only where some write of it may store an object held
    elsewhere too: the change may be of that object, and the other writes give the attribute its first value;
    or where the attribute holds objects of the package's classes: `self.ecu.update(pkt)` runs the package's
    code, a container's `update` changes the container only."""
    name, cls = mangled(write.name, write.cls), write.cls
    if name in index.read_names:
        return True
    if cls and (name in index.names_read_on(cls) or (name in index.names_fed_on(cls) and (
            name in index.names_shared_on(cls) or index.holds_package_objects(cls, name)))):
        return True
    if cls and any(prefix + name in index.read_names or prefix + name in index.names_read_on(cls)
                   for prefix in index.alias_prefixes(cls)):
        return True  # `obj._sa_x`, where the class's `__getattribute__` looks up `x` for `_sa_x`
    patterns = index.patterns_read_on(cls)
    if cls and (INIT_PARAMETERS_MARK in patterns or "reads_parameters" in index.traits_of(cls)) \
            and write.name in index.init_parameters_on(cls):
        return True  # `getattr(obj, name)` of each name of `inspect.signature(obj.__init__).parameters`
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)


def is_taken_whole(write: Write, index: PackageIndex) -> bool:
    """Consumed by a class-wide mechanism that names no attribute: a class whose behaviour depends on every
    attribute; a `__setattr__` of the hierarchy, for a name its class bodies declare (`ByteField("tfv", 0)`:
    the fields it stores apart); or a `__setattr__` that registers what it is given (torch.nn.Module's) and the
    value is an object it can register: made by a class outside the package or one deriving from such a
    module."""
    if index.reads_every_attribute(write.cls, write.name):
        return True
    traits = index.traits_of(write.cls)
    if "registers" in traits and write.cls and write.name in index.names_declared_on(write.cls):
        return True
    if not write.constructor or not traits & {"module", "registers"}:
        return False
    made = write.constructor
    return made not in index.package_classes or bool(index.traits_of(made) & {"module", "registers"})


def is_read_outside(write: Write, index: PackageIndex) -> bool:
    """Read by code the package does not hold: a base class from the standard library or an installed
    library (a function replacing one of its methods too; a write under a test of Python's version, which may
    be for the version of such a base that reads it), a data descriptor of such a library bound in the
    class body, or the package's users, for an attribute documented as API (a private one by Sphinx markup
    only), a field of a record the documentation shows them reading, one of the object's views beside others
    they read, or a public one carried by an exception; and a
    base with no source to read, for a name spelt like one of its properties."""
    if mangled(write.name, write.cls) in index.library_reads_of(write.cls):
        return True
    if write.versioned and write.cls in index.from_outside:
        return True  # for another Python than the one reading it, maybe, whose standard library may read it
    if write.cls and mangled(write.name, write.cls) in index.held_for_unseen_code.get(write.cls, ()):
        return True  # a reference for compiled code holding a pointer: `self._buffer = buffer; lib.use(buffer)`
    if write.function and write.name in index.library_methods_of(write.cls):
        return True  # an instance's own version of a hook the library calls: `self.endElement = self._end`
    if write.function and not write.name.startswith("_") and write.name in index.methods_of(write.cls):
        return True  # its own version of a public method, which users call: `self.hosts = self.__iter__`
    if write.name in index.documented_names:  # a private name only where Sphinx markup names it
        return True
    if write.cls and write.name in index.records_for_users.get(write.cls, ()):
        return True  # a field of a record the documentation shows users reading: `article.meta_description`
    if write.cls and index.binds_library_descriptor(write.cls, write.name):
        return True  # `_selections = traitlets.Dict()` in the class body: the write calls the library's `__set__`
    if write.cls and write.name in index.interface_members.get(write.cls, ()):
        return True  # one of the object's views beside others its users read: `client.cat`, `client.indices`
    if is_capitalised(write.name) and "opaque" in index.traits_of(write.cls):
        return True  # a property of a base with no source to read: a .NET form's `self.TopMost = True`
    return not write.name.startswith("_") and "exception" in index.traits_of(write.cls)


def suggestion(write: Write, index: PackageIndex) -> str | None:
    """The attribute readers use where the write drifted from it, if one can be told: a name read on the
    write's own class (through self, or on an object of known class; a read on an object of any class is
    too weak a sign), or elsewhere in its hierarchy where nothing there assigns it; never a method, property,
    class or constant, nor the name whose setter the write stands in, spelt with other underscores
    (`self._volume = value` in `volume_setter` stores that value under the private name on purpose; a typo
    there, `self.volumme`, is still a drift). In order:
    - one read on the class that nothing there assigns (the reader side of the drift: that read fails with
      AttributeError, or silently gives a default), sharing half its words with the write's and no other
      unread attribute's more, where those classes assign every attribute by name in the package (else a base
      from outside, a computed `setattr` or a `__getattr__` may supply it);
    - one in a shape a drift takes (another underscore, a word dropped, one word misspelt or made plural),
      those nothing there assigns first, and never one the statements around the write assign too: the two
      are set side by side on purpose (`self.sr_conflict = 0` beside `self.sr_conflicts = []`), by this write
      or another of the attribute, nor, for a write in `__init__`, one with the write's words and one more that
      an `__init__` of the hierarchy assigns (`security_group_ids` for `security_group`); for a short name
      (`a0`), only one nothing there assigns: `a1` assigned beside it is another name of the same kind."""
    cls = write.cls
    if not cls:
        return None
    own, same_class, unassigned = index.kept("ss101_hint_candidates", cls, lambda: hint_candidates(cls, index))
    if write.method and (setting := {name for name in own if name.strip("_") == write.name.strip("_")
                                     and is_setter(write.method, name)}):
        own, same_class, unassigned = own - setting, same_class - setting, unassigned - setting
    if index.is_closed_hierarchy(cls):
        found = closest(write.name, unassigned & same_class, same_class, likeness=shares_half)
        if found and closest(found, index.kept("ss101_unread", cls, lambda: unread_attributes(cls, index)),
                             likeness=shares_half) in (write.name, None):
            return found
    if is_short(write.name):  # a letter away from many names: only the reader side of a drift is evidence
        return closest(write.name, unassigned, same_class)
    beside = index.names_assigned_beside(write)
    if write.method == "__init__":  # a constructor setting a name and one a word longer sets two attributes
        beside = beside | {mangled(name, cls) for name in own
                           if drops_a_word(write.name, name) and is_set_by_constructor(mangled(name, cls), cls, index)}
    apart = [name for name in same_class if name in own and mangled(name, cls) not in beside]
    return closest(write.name, unassigned, same_class) or closest(write.name, apart, same_class)


def is_set_by_constructor(name: str, cls: str, index: PackageIndex) -> bool:
    """An `__init__` of `cls`'s hierarchy assigns `name` on its object."""
    related = index.related(cls)
    return any(other.method == "__init__" and other.on_receiver and index.keyed_write(path, other).cls in related
               for path, other in index.writes_by_name.get(name, ()))


def hint_candidates(cls: str, index: PackageIndex) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The names a hint for a write of `cls` may give, as written in the class: attributes read on its
    classes, those read on `cls` itself, and those of the first that nothing there assigns."""
    assigned = index.names_assigned_on(cls)
    own = {display_name(n, cls) for n in index.names_read_on(cls)} - index.methods_of(cls) - index.bound_on_class(cls)
    own = {name for name in own if is_attribute_name(name)}
    same_class = frozenset(display_name(n, cls) for n in index.names_read_on_class(cls))
    unassigned = frozenset(name for name in own if mangled(name, cls) not in assigned)
    return frozenset(own), same_class, unassigned


def unread_attributes(cls: str, index: PackageIndex) -> frozenset[str]:
    """The attributes assigned in `cls`'s hierarchy that no read reaches, as written there: of those alike a
    read that fails, only the closest drifted from it (`background_fill_primary`, not `primary_50`, from
    `background_primary`)."""
    read = index.names_read_on(cls) | index.read_names
    return frozenset(display_name(name, cls) for name in index.names_assigned_on(cls) - read
                     if is_attribute_name(display_name(name, cls)) and name not in index.methods_of(cls))


def drift_partner(write: Write, index: PackageIndex) -> str | None:
    """The reader side of a drift: a name read on the write's hierarchy that nothing there assigns, close to
    the write's. It outranks a class-wide excuse: that read fails with AttributeError, this write is unused."""
    hint = suggestion(write, index)
    return hint if hint is not None and mangled(hint, write.cls) not in index.names_assigned_on(write.cls) else None


def display_name(name: str, cls: str) -> str:
    """A private name as written in its class: `_Engine__token` -> `__token`."""
    prefix = f"_{class_name(cls).lstrip('_')}__"
    return name[len(prefix) - 2:] if name.startswith(prefix) else name


def is_capitalised(name: str) -> bool:
    """Spelt like a class or a property of a .NET or COM object (`TopMost`), not like a constant."""
    return name[:1].isupper() and not name.isupper()


def is_attribute_name(name: str) -> bool:
    """Not a constant (ALL_CAPS), a class (CapWords) or a dunder; another class's private name by the name its
    class spells (`_Base__flag` by `__flag`)."""
    bare = unmangled(name).strip("_")
    return bool(bare) and not bare.isupper() and not bare[:1].isupper() and not (
        name.startswith("__") and name.endswith("__"))


def dead_writes(facts: FileFacts, index: PackageIndex, settings: Settings) -> Iterator[Write]:
    """The file's writes no read reaches, each with its class named by its key in the index."""
    for write in facts.writes:
        if not write.on_receiver or write.name.startswith("__") and write.name.endswith("__"):
            continue
        write = index.keyed_write(facts.path, write)
        if settings.ignores(write.name) or is_read_by_name(write, index) or is_read_outside(write, index):
            continue
        if not is_taken_whole(write, index) or drift_partner(write, index) is not None:
            yield write


def may_report(summary: FileFacts, index: PackageIndex, settings: Settings) -> bool:
    return any(dead_writes(summary, index, settings))


def check(facts: FileFacts, index: PackageIndex, settings: Settings) -> Iterator[Finding]:
    for write in dead_writes(facts, index, settings):
        hint = suggestion(write, index)
        message = f"'{write.name}' is assigned but never read in package '{index.name}'"
        if hint:
            message += f"; did you mean '{hint}'?"
        context = ".".join(part for part in (write.cls and class_name(write.cls), write.method) if part)
        yield Finding(facts.path, write.line, write.col, CODE, message, write.name, context, suggestion=hint or "")


RULE = Rule(
    code=CODE,
    name="dead-attribute-write",
    title="attribute written, never read",
    summary="`self.X = ...` where no read of `X` that can reach the write's class exists in the package",
    reported_at="`self.X`",
    description=__doc__,
    examples=(
        Example("Reported, with the hint: nothing reads `checkpoint_interval`, readers use "
                "`activation_checkpoint_interval`", '''\
class PipelineModule:
    def set_checkpoint_interval(self, interval):
        self.checkpoint_interval = interval  # SS101 did you mean 'activation_checkpoint_interval'?

    def forward(self, x):
        if self.activation_checkpoint_interval > 0:
            return x
'''),
        Example("Reported: a sibling's `self.counter` is its own, and `+= 1` only feeds the attribute", '''\
class Base:
    pass


class Trainer(Base):
    def __init__(self):
        self.counter = 0  # SS101


class OtherTrainer(Base):
    def __init__(self):
        self.counter = 0

    def step(self):
        self.counter += 1
        return self.counter
'''),
        Example("Quiet: documented API, an exception's payload, what a standard-library base reads", '''\
import logging


class Context:
    def __init__(self):
        #: The subcommand about to run, for the group's callback.
        self.invoked_subcommand = None


class UsageError(Exception):
    def __init__(self, message, ctx=None):
        super().__init__(message)
        self.ctx = ctx


class Quiet(logging.StreamHandler):
    def __init__(self):
        super().__init__()
        self.terminator = ""
'''),
    ),
    check=check,
    may_report=may_report,
    names_missing_bases=True,
)
