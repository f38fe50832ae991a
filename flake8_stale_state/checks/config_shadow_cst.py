"""SS103's libcst side: per class, the seeds and the reads of the config values they copy."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

import libcst as cst
from libcst.metadata import PositionProvider

from flake8_stale_state import cst_facts
from flake8_stale_state.checks.config_shadow import READ_FIELDS, SEED_FIELDS, ConfigRead, Seed, Shadowing
from flake8_stale_state.cst_facts import stored_targets, string_value
from flake8_stale_state.scope import Scope


# shapes ---------------------------------------------------------------------------------------------------
def subscript_key(node: cst.Subscript) -> str | None:
    """`x['K']` -> 'K'; None for any other subscript."""
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return None
    return string_value(node.slice[0].slice.value)


def path_of(node: cst.BaseExpression) -> tuple[str, str] | None:
    """`self._config['pipe'].stage` -> ("self", "._config['pipe'].stage"): a name, then attribute and string-key
    steps; None for anything else (calls, integer subscripts, ...)."""
    steps = []
    while True:
        if isinstance(node, cst.Attribute):
            steps.append("." + node.attr.value)
            node = node.value
        elif isinstance(node, cst.Subscript) and subscript_key(node) is not None:
            steps.append(f"[{subscript_key(node)!r}]")
            node = node.value
        elif isinstance(node, cst.Name):
            return node.value, "".join(reversed(steps))
        else:
            return None


class Access(NamedTuple):
    """A keyed read `base[key]`, `base.key`, `base.get(key)` or `getattr(base, key)`."""

    root: str
    path: str  # steps after root, as path_of gives them
    key: str
    before: str  # display text around the base expression
    after: str
    keyed: bool  # by string key, as dicts are read: `base[key]`, `base.get(key)`

    def text(self) -> str:
        return f"{self.before}{self.root}{self.path}{self.after}"


def string_arguments(call: cst.Call, low: int, high: int) -> list[cst.BaseExpression] | None:
    if not low <= len(call.args) <= high or any(arg.keyword or arg.star for arg in call.args):
        return None
    return [arg.value for arg in call.args]


def access_of(node: cst.CSTNode) -> Access | None:
    base, key, before, after, keyed = None, None, "", "", False
    if isinstance(node, cst.Subscript):
        base, key, keyed = node.value, subscript_key(node), True
        after = f"[{key!r}]"
    elif isinstance(node, cst.Attribute):
        base, key = node.value, node.attr.value
        after = f".{key}"
    elif isinstance(node, cst.Call):
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "get":
            args = string_arguments(node, 1, 2)
            if args:
                base, key, keyed = func.value, string_value(args[0]), True
                after = f".get({key!r})"
        elif isinstance(func, cst.Name) and func.value == "getattr":
            args = string_arguments(node, 2, 3)
            if args:
                base, key = args[0], string_value(args[1])
                before, after = "getattr(", f", {key!r})"
    if base is None or key is None:
        return None
    path = path_of(base)
    return Access(path[0], path[1], key, before, after, keyed) if path else None


def stored_nodes(target: cst.BaseExpression) -> list[cst.BaseExpression]:
    """Attributes and subscripts an assignment target stores to."""
    return [n for n in stored_targets(target) if isinstance(n, (cst.Attribute, cst.Subscript))]


def bound_names(target: cst.BaseExpression) -> list[str]:
    return [n.value for n in stored_targets(target) if isinstance(n, cst.Name)]


# facts ----------------------------------------------------------------------------------------------------
AMBIGUOUS = ("", "")  # a local name bound to more than one thing: it stands for no path


class Ref(NamedTuple):
    """A path as written in a method, resolved against the method's local names when the method ends."""

    root: str
    path: str
    receiver: str | None


@dataclass
class Method:
    """What one method (with its closures) seeds, reads and assigns, before its local names are resolved."""

    guard_depth: int  # `if`s open around the method: their tests are outside it
    aliases: dict[str, tuple[str, str]] = field(default_factory=dict)  # local name -> (root, path) it stands for
    seeds: list[tuple[dict[str, Any], Ref, Ref]] = field(default_factory=list)  # seed, config, owner
    reads: list[tuple[dict[str, Any], Ref]] = field(default_factory=list)  # read, config
    assignments: list[tuple[dict[str, Any], Ref, Ref | None]] = field(default_factory=list)  # owner, value

    def bind(self, name: str, value: tuple[str, str] | None) -> None:
        """Flow-insensitive: a name is an alias only if every binding of it in the method is the same path."""
        known = self.aliases.get(name)
        self.aliases[name] = value if value and value[0] != name and known in (None, value) else AMBIGUOUS

    def resolve(self, ref: Ref) -> str | None:
        """The path from the receiver: `pipe['K']` with `pipe = self._config.pipeline` -> `._config.pipeline['K']`."""
        root, path, seen = ref.root, ref.path, set()
        while root != ref.receiver:
            if root in seen or self.aliases.get(root, AMBIGUOUS) == AMBIGUOUS:
                return None
            seen.add(root)
            root, prefix = self.aliases[root]
            path = prefix + path
        return path


@dataclass
class ClassFacts:
    seeds: list[dict[str, Any]] = field(default_factory=list)
    reads: list[dict[str, Any]] = field(default_factory=list)
    assignments: list[dict[str, Any]] = field(default_factory=list)

    def add(self, method: Method) -> None:
        for seed, config_ref, owner_ref in method.seeds:
            config, owner = method.resolve(config_ref), method.resolve(owner_ref)
            if config and owner is not None and config != owner:
                self.seeds.append({**seed, "config": config, "owner": owner})
        for read, config_ref in method.reads:
            config = method.resolve(config_ref)
            if config:
                self.reads.append({**read, "config": config})
        for assignment, owner_ref, value_ref in method.assignments:
            owner = method.resolve(owner_ref)
            if owner is not None:
                value = method.resolve(value_ref) if value_ref else None
                self.assignments.append({**assignment, "owner": owner, "value": value})

    def shadowing(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The reads of seeded config values that are not part of seeding, and the seeds they shadow."""
        copies = [seed["spans"][0] for seed in self.seeds]
        by_value: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for seed in self.seeds:
            if self.is_config(seed["config"]) and not self.in_config(seed) and not self.derived(seed, copies):
                by_value.setdefault((seed["config"], seed["key"]), []).append(seed)
        found, shadowed = [], []
        for read in self.reads:
            seeds = by_value.get((read["config"], read["key"]), [])
            if seeds and not any(part_of_seeding(read, seed) for seed in seeds):
                found.append(read)
                shadowed.extend(seed for seed in seeds if seed not in shadowed)
        return found, shadowed

    def is_config(self, config: str) -> bool:
        """Known by its use: read by string key (`cfg['K']`, `cfg.get('K')`) or for several values. One attribute
        read off a live object (`self.fc.weight = self.embed.weight`, tied weights) is no config."""
        keys = {read["key"] for read in self.reads if read["config"] == config}
        return len(keys) > 1 or any(read["keyed"] for read in self.reads if read["config"] == config)

    def in_config(self, seed: dict[str, Any]) -> bool:
        """Whether the seed's owner is itself taken from the config (`self.vision = config.vision`): a value
        passed down into a sub-config drives no live object the class could disagree with."""
        config = seed["config"]
        return any(
            assignment["owner"] + "." + assignment["key"] == seed["owner"]
            and assignment["value"] is not None
            and (assignment["value"] == config or assignment["value"].startswith((config + ".", config + "[")))
            for assignment in self.assignments
        )

    def derived(self, seed: dict[str, Any], copies: list[list[int]]) -> bool:
        """Whether the seeded attribute is computed rather than copied: assigned again later in the seeding
        method (`self.K = [self.K]`), or elsewhere from the same config value (`self.K = cfg.K * 2`). It then
        means something else than the config value, and reading the config is intended."""
        reads = [(r["line"], r["col"]) for r in self.reads if (r["config"], r["key"]) == (seed["config"], seed["key"])]
        for assignment in self.assignments:
            span = assignment["span"]
            if (assignment["owner"], assignment["key"]) != (seed["owner"], seed["key"]) or span in copies:
                continue
            if assignment["method"] == seed["method"] and span[:2] > seed["spans"][0][2:]:
                return True
            if any(inside(where, span) for where in reads):
                return True
        return False


def part_of_seeding(read: dict[str, Any], seed: dict[str, Any]) -> bool:
    """In the seed or the test of an `if` around it; or in the seeding method, before the seed or after it in
    the block that runs it, where config and attribute still agree."""
    where = (read["line"], read["col"])
    if any(inside(where, span) for span in seed["spans"]):
        return True
    return read["method"] == seed["method"] and (where < tuple(seed["spans"][0][:2]) or inside(where, seed["block"]))


def inside(where: tuple[int, int], span: list[int]) -> bool:
    return (span[0], span[1]) <= where < (span[2], span[3])


class Collector(cst_facts.Collector):
    """Per class: seeds, and the reads of the config values they copy."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, scope: Scope) -> None:
        super().__init__(scope)
        self.seeds: list[Seed] = []
        self.reads: list[ConfigRead] = []
        self.placeholders: list[tuple[int, int]] = []  # `X.K = None` stores: they empty an attribute
        self.classes: list[ClassFacts] = []
        self.methods: list[Method] = []
        self.guards: list[cst.If] = []
        self.blocks: list[cst.BaseSuite] = []
        self.not_reads: set[int] = set()  # ids of stored-to nodes, and of `cfg.get` in `cfg.get('K')`

    def result(self) -> Shadowing:
        return Shadowing(tuple(self.seeds), tuple(self.reads), tuple(self.placeholders))

    def span(self, node: cst.CSTNode) -> list[int]:
        where = self.get_metadata(PositionProvider, node)
        return [where.start.line, where.start.column, where.end.line, where.end.column]

    @property
    def method(self) -> Method | None:
        return self.methods[-1] if self.methods and self.scope.receiver else None

    def ref(self, path: tuple[str, str]) -> Ref:
        return Ref(path[0], path[1], self.scope.receiver)

    # scopes ---------------------------------------------------------------------------------------------
    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes.append(ClassFacts())

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        reads, seeds = self.classes.pop().shadowing()
        name = original_node.name.value
        self.reads += [ConfigRead(name, *(read[field] for field in READ_FIELDS)) for read in reads]
        self.seeds += [Seed(name, *(seed[field] for field in SEED_FIELDS)) for seed in seeds]

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if self.scope.is_method:
            self.methods.append(Method(len(self.guards)))

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        if self.scope.is_method:
            self.classes[-1].add(self.methods.pop())

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self.blocks.append(node)

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock) -> None:
        self.blocks.pop()

    def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        self.blocks.append(node)

    def leave_SimpleStatementSuite(self, original_node: cst.SimpleStatementSuite) -> None:
        self.blocks.pop()

    def visit_If(self, node: cst.If) -> None:
        self.guards.append(node)

    def leave_If(self, original_node: cst.If) -> None:
        self.guards.pop()

    # bindings -------------------------------------------------------------------------------------------
    def _targets(self, targets: list[cst.BaseExpression], value: cst.BaseExpression | None) -> None:
        for target in targets:
            self.not_reads.update(id(n) for n in stored_nodes(target))
        method = self.method
        if method is None:
            return
        single = targets[0] if len(targets) == 1 else None
        for target in targets:
            for name in bound_names(target):
                method.bind(name, path_of(value) if value is not None and target is single else None)
        # `self.config = config`: the parameter stands for the attribute for the rest of the method
        if isinstance(single, cst.Attribute) and isinstance(value, cst.Name) and value.value != self.scope.receiver:
            method.bind(value.value, path_of(single))

    def visit_Assign(self, node: cst.Assign) -> None:
        self._targets([t.target for t in node.targets], node.value)
        if len(node.targets) == 1:
            self._assignment(node, node.targets[0].target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._targets([node.target], node.value)
        if node.value is not None:
            self._assignment(node, node.target, node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._targets([node.target], None)
        self._assignment(node, node.target, None)

    def visit_For(self, node: cst.For) -> None:
        self._targets([node.target], None)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._targets([node.target], None)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._targets([node.asname.name], None)

    def visit_Del(self, node: cst.Del) -> None:
        self._targets([node.target], None)

    def _assignment(self, statement: cst.CSTNode, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        if isinstance(target, cst.Attribute) and isinstance(value, cst.Name) and value.value == "None":
            self.placeholders.append(self.position(target))
        method = self.method
        owner = path_of(target.value) if isinstance(target, cst.Attribute) else None
        if method is None or owner is None:
            return
        key = target.attr.value
        where = {"method": self.scope.method or "", "key": key}
        value_path = path_of(value) if value is not None else None
        method.assignments.append((
            {**where, "span": self.span(statement)}, self.ref(owner), self.ref(value_path) if value_path else None,
        ))
        source = access_of(value) if value is not None else None
        if source is None or source.key != key:
            return
        line, col = self.position(target)
        guards = self.guards[method.guard_depth:]
        seed = {
            **where,
            "target": f"{owner[0]}{owner[1]}.{key}",
            "line": line,
            "col": col,
            # the seed itself and the tests of the `if`s around it read the config to decide the copy
            "spans": [self.span(statement)] + [self.span(guard.test) for guard in guards],
            "block": self.span(self.blocks[-1]),  # where the seed certainly ran before what follows it
        }
        method.seeds.append((seed, self.ref((source.root, source.path)), self.ref(owner)))

    # reads ----------------------------------------------------------------------------------------------
    def _read(self, node: cst.CSTNode, source: Access | None) -> None:
        method = self.method
        if method is None or source is None or id(node) in self.not_reads:
            return
        line, col = self.position(node)
        read = {
            "method": self.scope.method or "", "key": source.key, "text": source.text(), "line": line, "col": col,
            "keyed": source.keyed,
        }
        method.reads.append((read, self.ref((source.root, source.path))))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._read(node, access_of(node))

    def visit_Subscript(self, node: cst.Subscript) -> None:
        self._read(node, access_of(node))

    def visit_Call(self, node: cst.Call) -> None:
        source = access_of(node)
        if source is not None and isinstance(node.func, cst.Attribute):
            self.not_reads.add(id(node.func))  # `cfg.get` is no read of a key named "get"
        self._read(node, source)
