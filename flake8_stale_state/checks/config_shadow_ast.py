"""SS103's facts, from Python's own syntax tree: per class, the seeds and the reads of the config values they
copy. Positions are libcst's and flake8's (characters), from `ast`'s (UTF-8 bytes)."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from flake8_stale_state.checks.config_shadow import READ_FIELDS, SEED_FIELDS, ConfigRead, Seed, Shadowing
from flake8_stale_state.scope import Scope
from flake8_stale_state.summary import SourceLines, decorator_names, node_fields, parameters, stored, string_value


# shapes ---------------------------------------------------------------------------------------------------
def subscript_key(node: ast.Subscript) -> str | None:
    """`x['K']` -> 'K'; None for any other subscript."""
    return string_value(node.slice)


def path_of(node: ast.expr) -> tuple[str, str] | None:
    """`self._config['pipe'].stage` -> ("self", "._config['pipe'].stage"): a name, then attribute and string-key
    steps; None for anything else (calls, integer subscripts, ...)."""
    steps = []
    while True:
        if isinstance(node, ast.Attribute):
            steps.append("." + node.attr)
            node = node.value
        elif isinstance(node, ast.Subscript) and subscript_key(node) is not None:
            steps.append(f"[{subscript_key(node)!r}]")
            node = node.value
        elif isinstance(node, ast.Name):
            return node.id, "".join(reversed(steps))
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


def string_arguments(call: ast.Call, low: int, high: int) -> list[ast.expr] | None:
    if not low <= len(call.args) <= high or call.keywords or any(isinstance(arg, ast.Starred) for arg in call.args):
        return None
    return call.args


def access_of(node: ast.AST) -> Access | None:
    base, key, before, after, keyed = None, None, "", "", False
    if isinstance(node, ast.Subscript):
        base, key, keyed = node.value, subscript_key(node), True
        after = f"[{key!r}]"
    elif isinstance(node, ast.Attribute):
        base, key = node.value, node.attr
        after = f".{key}"
    elif isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "get":
            args = string_arguments(node, 1, 2)
            if args:
                base, key, keyed = func.value, string_value(args[0]), True
                after = f".get({key!r})"
        elif isinstance(func, ast.Name) and func.id == "getattr":
            args = string_arguments(node, 2, 3)
            if args:
                base, key = args[0], string_value(args[1])
                before, after = "getattr(", f", {key!r})"
    if base is None or key is None:
        return None
    path = path_of(base)
    return Access(path[0], path[1], key, before, after, keyed) if path else None


def bound_names(target: ast.expr) -> list[str]:
    return [name.id for name in stored(target, ast.Name)]


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


def collect(tree: ast.Module, source: SourceLines) -> Shadowing:
    collector = Collector(source)
    collector.walk_body(tree.body)
    return collector.result()


STORES = (ast.Store, ast.Del)


class Collector:
    """Per class: seeds, and the reads of the config values they copy. One walk, each node on the way in and out,
    in the scope (class, method, receiver) it sits in."""

    def __init__(self, source: SourceLines) -> None:
        self.source = source
        self.scope = Scope()
        self.seeds: list[Seed] = []
        self.reads: list[ConfigRead] = []
        self.placeholders: list[tuple[int, int]] = []  # `X.K = None` stores: they empty an attribute
        self.classes: list[ClassFacts] = []
        self.methods: list[Method] = []
        self.guards: list[ast.If] = []
        self.blocks: list[list[int]] = []  # the spans of the statement lists around the node
        self.not_reads: set[int] = set()  # ids of `cfg.get` in `cfg.get('K')`

    def result(self) -> Shadowing:
        return Shadowing(tuple(self.seeds), tuple(self.reads), tuple(self.placeholders))

    def position(self, node: ast.AST) -> tuple[int, int]:
        return node.lineno, self.source.column(node.lineno, node.col_offset)

    def end(self, node: ast.AST) -> tuple[int, int]:
        return node.end_lineno, self.source.column(node.end_lineno, node.end_col_offset)

    def span(self, node: ast.AST) -> list[int]:
        return [*self.position(node), *self.end(node)]

    @property
    def method(self) -> Method | None:
        return self.methods[-1] if self.methods and self.scope.receiver else None

    def ref(self, path: tuple[str, str]) -> Ref:
        return Ref(path[0], path[1], self.scope.receiver)

    # the walk -------------------------------------------------------------------------------------------
    def walk_body(self, statements: list[ast.stmt]) -> None:
        for statement in statements:
            self.walk(statement)

    def walk(self, node: ast.AST) -> None:
        kind = node.__class__
        visit = VISITS.get(kind)
        if visit is not None:
            visit(self, node)
        for name in node_fields(kind):
            value = getattr(node, name, None)
            if value.__class__ is list:
                if value and isinstance(value[0], ast.stmt):  # a block: a body, `else`, `finally`, a handler's
                    self.blocks.append([*self.position(value[0]), *self.end(value[-1])])
                    self.walk_body(value)
                    self.blocks.pop()
                else:
                    for item in value:
                        if isinstance(item, ast.AST):
                            self.walk(item)
            elif isinstance(value, ast.AST):  # contexts and operators are no fields of `node_fields`
                self.walk(value)
        leave = LEAVES.get(kind)
        if leave is not None:
            leave(self, node)

    # scopes ---------------------------------------------------------------------------------------------
    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.scope.enter_class(node.name)
        self.classes.append(ClassFacts())

    def leave_ClassDef(self, node: ast.ClassDef) -> None:
        reads, seeds = self.classes.pop().shadowing()
        self.reads += [ConfigRead(node.name, *(read[field] for field in READ_FIELDS)) for read in reads]
        self.seeds += [Seed(node.name, *(seed[field] for field in SEED_FIELDS)) for seed in seeds]
        self.scope.leave()

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        arguments = node.args
        first = (arguments.posonlyargs or arguments.args or [None])[0]
        self.scope.enter_function(node.name, [argument.arg for argument in parameters(node)],
                                  first.arg if first else None, decorator_names(node))
        if self.scope.is_method:
            self.methods.append(Method(len(self.guards)))

    def leave_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if self.scope.is_method:
            self.classes[-1].add(self.methods.pop())
        self.scope.leave()

    def visit_If(self, node: ast.If) -> None:
        self.guards.append(node)

    def leave_If(self, node: ast.If) -> None:
        self.guards.pop()

    # bindings -------------------------------------------------------------------------------------------
    def _targets(self, targets: list[ast.expr], value: ast.expr | None) -> None:
        method = self.method
        if method is None:
            return
        single = targets[0] if len(targets) == 1 else None
        for target in targets:
            for name in bound_names(target):
                method.bind(name, path_of(value) if value is not None and target is single else None)
        # `self.config = config`: the parameter stands for the attribute for the rest of the method
        if isinstance(single, ast.Attribute) and isinstance(value, ast.Name) and value.id != self.scope.receiver:
            method.bind(value.id, path_of(single))

    def visit_Assign(self, node: ast.Assign) -> None:
        self._targets(node.targets, node.value)
        if len(node.targets) == 1:
            self._assignment(node, node.targets[0], node.value)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._targets([node.target], node.value)
        if node.value is not None:
            self._assignment(node, node.target, node.value)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._targets([node.target], None)
        self._assignment(node, node.target, None)

    def visit_For(self, node: ast.For | ast.AsyncFor | ast.comprehension) -> None:
        self._targets([node.target], None)

    def visit_withitem(self, node: ast.withitem) -> None:
        if node.optional_vars is not None:
            self._targets([node.optional_vars], None)

    def visit_Delete(self, node: ast.Delete) -> None:
        self._targets(node.targets, None)

    def _assignment(self, statement: ast.stmt, target: ast.expr, value: ast.expr | None) -> None:
        if isinstance(target, ast.Attribute) and isinstance(value, ast.Constant) and value.value is None:
            self.placeholders.append(self.position(target))
        method = self.method
        owner = path_of(target.value) if isinstance(target, ast.Attribute) else None
        if method is None or owner is None:
            return
        key = target.attr
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
            "block": self.blocks[-1],  # where the seed certainly ran before what follows it
        }
        method.seeds.append((seed, self.ref((source.root, source.path)), self.ref(owner)))

    # reads ----------------------------------------------------------------------------------------------
    def _read(self, node: ast.expr, source: Access | None) -> None:
        method = self.method
        if method is None or source is None or id(node) in self.not_reads:
            return
        line, col = self.position(node)
        read = {
            "method": self.scope.method or "", "key": source.key, "text": source.text(), "line": line, "col": col,
            "keyed": source.keyed,
        }
        method.reads.append((read, self.ref((source.root, source.path))))

    def visit_Attribute(self, node: ast.Attribute | ast.Subscript) -> None:
        if not isinstance(node.ctx, STORES):  # an attribute stored to or deleted is no read
            self._read(node, access_of(node))

    def visit_Call(self, node: ast.Call) -> None:
        source = access_of(node)
        if source is not None and isinstance(node.func, ast.Attribute):
            self.not_reads.add(id(node.func))  # `cfg.get` is no read of a key named "get"
        self._read(node, source)


VISITS = {
    ast.ClassDef: Collector.visit_ClassDef, ast.FunctionDef: Collector.visit_FunctionDef,
    ast.AsyncFunctionDef: Collector.visit_FunctionDef, ast.If: Collector.visit_If, ast.Assign: Collector.visit_Assign,
    ast.AnnAssign: Collector.visit_AnnAssign, ast.AugAssign: Collector.visit_AugAssign, ast.For: Collector.visit_For,
    ast.AsyncFor: Collector.visit_For, ast.comprehension: Collector.visit_For, ast.withitem: Collector.visit_withitem,
    ast.Delete: Collector.visit_Delete, ast.Attribute: Collector.visit_Attribute,
    ast.Subscript: Collector.visit_Attribute, ast.Call: Collector.visit_Call,
}
LEAVES = {
    ast.ClassDef: Collector.leave_ClassDef, ast.FunctionDef: Collector.leave_FunctionDef,
    ast.AsyncFunctionDef: Collector.leave_FunctionDef, ast.If: Collector.leave_If,
}
