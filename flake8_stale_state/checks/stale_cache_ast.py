"""SS102's facts, from Python's own syntax tree: the guarded rebuilds and rebuild methods a file holds. Positions
are libcst's and flake8's (characters), from `ast`'s (UTF-8 bytes)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import NamedTuple

from flake8_stale_state.checks.stale_cache import CLEAR, GUARD, METHOD, REBIND, Rebuild, Rebuilds
from flake8_stale_state.scope import Scope
from flake8_stale_state.summary import (
    APPENDERS, CONSTRUCTORS, REBUILD_PROTOCOL, SourceLines, appends_to_attribute, compared_attributes,
    decorator_names, dotted_name, first_word, is_dunder, is_empty_list, mentions_attribute, never_rebuilds,
    node_fields, parameters, stored, string_value,
)

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
DEFINITIONS = (*FUNCTIONS, ast.ClassDef)  # run later, if at all
FOR_LOOPS = (ast.For, ast.AsyncFor)
LOOPS = (*FOR_LOOPS, ast.While)
TRIES = (ast.Try, *((ast.TryStar,) if hasattr(ast, "TryStar") else ()))
WITHS = (ast.With, ast.AsyncWith)
COMPOUND = (*DEFINITIONS, *LOOPS, ast.If, *TRIES, *WITHS, ast.Match)


# shapes ---------------------------------------------------------------------------------------------------
def parts(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes a node holds, in source order (a dict's keys and values in turn)."""
    if node.__class__ is ast.Dict:
        for key, value in zip(node.keys, node.values):
            if key is not None:
                yield key
            yield value
        return
    for name in node_fields(node.__class__):
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            yield value
        elif value.__class__ is list:
            yield from (item for item in value if isinstance(item, ast.AST))


def blocks(statement: ast.stmt) -> Iterator[list[ast.stmt]]:
    """The statement lists a compound statement holds, in source order: bodies, `else`s, handlers', cases'."""
    for name in node_fields(statement.__class__):
        value = getattr(statement, name, None)
        if value.__class__ is list and value:
            if isinstance(value[0], ast.stmt):
                yield value
            elif isinstance(value[0], (ast.excepthandler, ast.match_case)):
                yield from (each.body for each in value)


def is_full_slice(target: ast.expr) -> bool:
    """`L[:]`"""
    part = target.slice if isinstance(target, ast.Subscript) else None
    return isinstance(part, ast.Slice) and part.lower is None and part.upper is None and part.step is None


def is_fresh_list(value: ast.expr | None) -> bool:
    if isinstance(value, (ast.List, ast.ListComp)):
        return True
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "list"


def binding_kind(value: ast.expr) -> str:
    if isinstance(value, ast.Constant) and value.value is None:
        return "none"
    return "fresh" if is_fresh_list(value) else "other"


def assignment_targets(node: ast.stmt) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        return node.targets
    if isinstance(node, ast.AnnAssign) and node.value is not None:
        return [node.target]
    return []


def deleted(node: ast.Delete) -> list[ast.expr]:
    """What `del` names, one tuple unpacked: `del a, b` and `del (a, b)` alike."""
    targets = node.targets
    return targets[0].elts if len(targets) == 1 and isinstance(targets[0], ast.Tuple) else targets


def resets(node: ast.stmt) -> Iterator[str]:
    """Lists this statement empties or replaces: `L = ...` (not built from L), `L.clear()`, `del L[:]`, `del L`,
    `L[:] = ...`."""
    for target in assignment_targets(node):
        for attribute in stored(target, ast.Attribute):
            name = dotted_name(attribute)
            if name and not mentions_attribute(node.value, name):
                yield name
        if is_full_slice(target):
            yield dotted_name(target.value) or ""
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        call = node.value
        if isinstance(call.func, ast.Attribute) and call.func.attr == "clear" and not call.args and not call.keywords:
            yield dotted_name(call.func.value) or ""
    if isinstance(node, ast.Delete):
        for target in deleted(node):
            if is_full_slice(target):
                yield dotted_name(target.value) or ""
            elif isinstance(target, ast.Attribute):
                yield dotted_name(target) or ""


def run_now(node: ast.AST) -> list[ast.AST]:
    """The node and those it holds, in source order, but for lambdas: their bodies run later, if at all. One list
    for the several questions asked of a statement, rather than a walk for each."""
    found: list[ast.AST] = []
    pending = [node]
    while pending:
        current = pending.pop()
        if not isinstance(current, ast.Lambda):
            found.append(current)
            pending.extend(reversed(list(parts(current))))
    return found


def calls_in(node: ast.AST) -> list[ast.Call]:
    return [held for held in run_now(node) if isinstance(held, ast.Call)]


def appends(node: ast.stmt) -> Iterator[tuple[str, ast.AST, bool]]:
    """(list, where, adds a list for sure) for `L.append/extend/insert(...)` and `L += ...` on an attribute L."""
    if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add):
        name = dotted_name(node.target) if isinstance(node.target, ast.Attribute) else None
        if name:
            yield name, node.target, is_fresh_list(node.value)
    for call in calls_in(node):
        name = dotted_name(call.func.value) if appends_to_attribute(call) else None
        if name:
            yield name, call, True


class GuardedBlock:
    """One walk of a guarded block in source order: which attributes it assigns, which lists it resets, and
    which appends run inside a loop before any reset of their list."""

    def __init__(self, reset_earlier: set[str]) -> None:
        self.reset = set(reset_earlier)
        self.assigned: set[str] = set()
        self.loop_headers: list[ast.expr] = []  # `for` iterables and `while` tests around the statement
        self.stale: list[tuple[str, ast.AST, ast.stmt, bool]] = []  # list, append, outermost loop, is a list

    def suite(self, suite: list[ast.stmt], loop: ast.stmt | None) -> None:
        for statement in suite:
            self.statement(statement, loop)

    def statement(self, node: ast.stmt, loop: ast.stmt | None) -> None:
        if isinstance(node, DEFINITIONS):
            return
        if isinstance(node, LOOPS):
            self.loop_headers.append(node.iter if isinstance(node, FOR_LOOPS) else node.test)
            self.suite(node.body, loop or node)
            self.loop_headers.pop()
            self.suite(node.orelse, loop)
        elif isinstance(node, COMPOUND):
            for block in blocks(node):
                self.suite(block, loop)
        else:
            self.small(node, loop)

    def small(self, node: ast.stmt, loop: ast.stmt | None) -> None:
        if loop is not None:
            for name, where, is_list in appends(node):
                # a loop that reads the list it appends to tops it up on purpose: `while len(L) < n`
                if name not in self.reset and not any(mentions_attribute(header, name) for header in self.loop_headers):
                    self.stale.append((name, where, loop, is_list))
        self.reset.update(resets(node))
        for target in assignment_targets(node) + ([node.target] if isinstance(node, ast.AugAssign) else []):
            self.assigned.update(filter(None, map(dotted_name, stored(target, ast.Attribute))))


# rebuild methods ------------------------------------------------------------------------------------------
CONTRACT, ANY_CALL = 2, 1  # how a method may run again: by a rebuild contract, or as any public method


def names_in(node: ast.AST) -> Iterator[str]:
    """Local names an expression reads (not attribute names, not keyword names), and its lambdas' parameters."""
    if isinstance(node, ast.Name):
        yield node.id
    elif isinstance(node, ast.Attribute):
        yield from names_in(node.value)
    else:
        if isinstance(node, ast.arg):
            yield node.arg
        for child in parts(node):
            yield from names_in(child)


def receiver_attributes(node: ast.AST, receiver: str) -> set[str]:
    """`X` of each `self.X` the expression reads."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == receiver:
        return {node.attr}
    return set().union(*(receiver_attributes(child, receiver) for child in parts(node)))


def receiver_attribute(node: ast.expr, receiver: str) -> str | None:
    """`X` for the expression `self.X`."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == receiver:
        return node.attr
    return None


def is_emptied_list(value: ast.expr | None, name: str = "") -> bool:
    """`[]`, `list()`, or `L[:0]` for the list `name` itself."""
    if is_empty_list(value):
        return True
    if isinstance(value, ast.Subscript) and name and dotted_name(value.value) == name:
        part = value.slice
        return (isinstance(part, ast.Slice) and part.lower is None and part.step is None
                and isinstance(part.upper, ast.Constant) and part.upper.value.__class__ is int
                and part.upper.value == 0)
    return False


def unstarred(node: ast.expr) -> ast.expr:
    return node.value if isinstance(node, ast.Starred) else node


def list_bindings(target: ast.expr, value: ast.expr | None) -> Iterator[tuple[ast.expr, bool]]:
    """(target, bound to an empty list) for each target of an assignment, pairing `a, b = [], []`."""
    if isinstance(target, (ast.Tuple, ast.List)):
        values = value.elts if isinstance(value, (ast.Tuple, ast.List)) else None
        if values is not None and len(values) == len(target.elts):
            for element, part in zip(target.elts, values):
                yield from list_bindings(unstarred(element), unstarred(part))
        else:
            for element in target.elts:
                yield from list_bindings(unstarred(element), None)
    elif isinstance(target, ast.Starred):
        yield from list_bindings(target.value, None)
    else:
        yield target, is_emptied_list(value, dotted_name(target) or "")


class Test(NamedTuple):
    """An `if` test or a loop header an append runs under."""

    reads: frozenset[str]  # attributes of the receiver
    carried: frozenset[str]  # those of them the method has not assigned before the test: left by an earlier call
    from_input: bool  # reads the method's arguments
    loop: bool
    calls: frozenset[str]  # the receiver's methods it calls, whose own tests decide too


class Append(NamedTuple):
    name: str
    node: ast.AST
    per_element: bool  # in a loop, or `extend`/`+=`: adds every element of something
    from_input: bool  # adds what the method's arguments hold
    tests: tuple[Test, ...]  # around it, and of the early returns before it
    place: Place


class Place(NamedTuple):
    """Where a statement runs in its method: its rank in source order, and the blocks around it, each with the
    `if`/`elif`/`else` (or `match`) chain it is a branch of."""

    order: int
    blocks: tuple[tuple[int, int | None], ...]

    def reaches(self, later: Place) -> bool:
        """Something done here is done before `later` runs, on a path to it: here runs in a block around it (a
        reset at the end, too), or comes first in source order (a reset in a branch before is the author's
        choice of when to reset), unless in another branch of the same chain."""
        for mine, theirs in zip(self.blocks, later.blocks):
            if mine != theirs:
                return self.order < later.order and not (mine[1] is not None and mine[1] == theirs[1])
        return len(self.blocks) <= len(later.blocks) or self.order < later.order


class Reset(NamedTuple):
    place: Place
    name: str | None  # the list; None: every attribute (`__init__` re-run)
    through: str | None = None  # the method called, whose own resets count


def indented(suite: list[ast.stmt], source: SourceLines) -> bool:
    """The block is indented under its header, not written on the header's line (`if x: y`)."""
    first = suite[0] if suite else None
    return first is not None and not source.line(first.lineno)[:first.col_offset].strip()


class MethodWalk:
    """One walk of a method's body in source order, closures left out (they run later, if at all)."""

    def __init__(self, node: ast.FunctionDef | ast.AsyncFunctionDef, receiver: str) -> None:
        self.receiver = receiver
        self.inputs = {argument.arg for argument in parameters(node)} - {receiver}
        self.appends: list[Append] = []
        self.resets: list[Reset] = []
        # methods of the receiver it calls, whether in a loop, where, and the tests the call runs under
        self.calls: list[tuple[str, bool, Place, tuple[Test, ...]]] = []
        self.order = 0
        self.blocks: list[tuple[int, int | None]] = []
        self.named: set[str] = set()  # receiver attributes read without being called: callbacks, if methods
        self.tests: list[Test] = []  # around the current statement
        self.exits: list[Test] = []  # of the early `return`s met so far
        self.assigned: set[str] = set()  # receiver attributes assigned so far
        self.decided: set[str] = set()  # receiver attributes its `if` tests read
        self.drained: set[str] = set()  # lists it takes entries out of: `pop`, `remove`
        self.mutated: set[str] = set()  # receiver attributes whose own methods it calls (`self.done.add(x)`)
        self.emptied: list[tuple[str, int]] = []  # dotted names of what it empties, and when
        self.called: set[str] = set()  # names of the methods it calls, on any object
        self.loops = 0
        self.input_loops = 0  # loops over the arguments
        self.method = node.name
        self.generator = False
        self.suite(node.body)

    def test(self, node: ast.expr, loop: bool = False) -> Test:
        reads = frozenset(receiver_attributes(node, self.receiver))
        calls = frozenset(name for call in calls_in(node)
                          if (name := receiver_attribute(call.func, self.receiver)) is not None)
        test = Test(reads, reads - self.assigned, self.reads_input(node), loop, calls)
        if not loop:
            self.decided |= reads
        return test

    def reads_input(self, node: ast.AST) -> bool:
        return not self.inputs.isdisjoint(names_in(node))

    def place(self) -> Place:
        self.order += 1
        return Place(self.order, tuple(self.blocks))

    def reset(self, name: str | None, through: str | None = None) -> None:
        self.resets.append(Reset(self.place(), name, through))

    def suite(self, suite: list[ast.stmt], chain: int | None = None) -> None:
        self.blocks.append((id(suite), chain))
        for statement in suite:
            self.statement(statement)
        self.blocks.pop()

    def statement(self, node: ast.stmt, chain: int | None = None) -> None:
        """`chain`: the `if` chain a branch belongs to."""
        if isinstance(node, DEFINITIONS):
            return
        if isinstance(node, FOR_LOOPS):
            self.expression(node.iter)
            over_input = self.reads_input(node.iter)
            if over_input:
                self.inputs.update(names_in(node.target))
            self.loop(node, self.test(node.iter, loop=True), over_input)
        elif isinstance(node, ast.While):
            self.expression(node.test)
            self.loop(node, self.test(node.test, loop=True), False)
        elif isinstance(node, ast.If):
            chain = chain or id(node)
            self.expression(node.test)
            self.tests.append(self.test(node.test))
            self.suite(node.body, chain)
            if node.orelse:  # `else`, or `elif`: an `else` holding an `if`, as Python's tree has it
                self.suite(node.orelse, chain)
            self.tests.pop()
            if node.body and isinstance(node.body[-1], ast.Return):  # the block ends by returning
                self.exits.append(self.test(node.test))
        elif isinstance(node, WITHS):
            for item in node.items:
                self.expression(item.context_expr)
            self.suite(node.body)
        elif isinstance(node, TRIES):
            self.suite(node.body)
            for handler in node.handlers:
                if handler.type is not None:
                    self.expression(handler.type)
                self.suite(handler.body)
            for block in (node.orelse, node.finalbody):
                if block:
                    self.suite(block)
        elif isinstance(node, ast.Match):
            self.expression(node.subject)
            for case in node.cases:
                self.suite(case.body, id(node))
        else:
            self.small(node)

    def loop(self, node: ast.For | ast.AsyncFor | ast.While, header: Test, over_input: bool) -> None:
        self.tests.append(header)
        self.loops += 1
        self.input_loops += over_input
        self.suite(node.body)
        self.loops -= 1
        self.input_loops -= over_input
        self.tests.pop()
        if node.orelse:
            self.suite(node.orelse)

    def small(self, node: ast.stmt) -> None:
        for name in resets(node):
            self.own_list(name)
            if not assignment_targets(node) or is_emptied_list(node.value):
                self.emptied.append((name, self.order))  # `.clear()`, `del L[:]`, `L = []`: not a new value
        for target in assignment_targets(node):
            for attribute in stored(target, ast.Attribute):
                if is_emptied_list(node.value, dotted_name(attribute) or ""):
                    self.own_list(dotted_name(attribute) or "")  # `self.L = self.L[:0]`
                name = receiver_attribute(attribute, self.receiver)
                if name:
                    self.assigned.add(name)
            if self.reads_input(node.value):
                self.inputs.update(name.id for name in stored(target, ast.Name))
        if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add):
            name = receiver_attribute(node.target, self.receiver)
            if name:
                self.append(name, node.target, True, self.reads_input(node.value))
        self.expression(node)

    def own_list(self, dotted: str) -> None:
        receiver, _, name = dotted.partition(".")
        if receiver == self.receiver and name and "." not in name:
            self.reset(name)

    def append(self, name: str, node: ast.AST, per_element: bool, from_input: bool) -> None:
        from_input = from_input or self.input_loops > 0
        self.appends.append(Append(name, node, per_element or self.loops > 0, from_input,
                                   (*self.tests, *self.exits), self.place()))

    def expression(self, node: ast.AST) -> None:
        """The calls in a statement or header: appends, calls of the receiver's methods, re-runs of `__init__`."""
        held = run_now(node)
        self.generator |= any(isinstance(each, (ast.Yield, ast.YieldFrom)) for each in held)
        called = set()
        for call in (each for each in held if isinstance(each, ast.Call)):
            func = call.func
            called.add(id(func))
            if isinstance(func, ast.Name) and func.id in ("delattr", "setattr") and len(call.args) >= 2:
                key = string_value(call.args[1])
                if dotted_name(call.args[0]) == self.receiver and key:
                    self.reset(key)
            if not isinstance(func, ast.Attribute):
                continue
            attribute = func.attr
            owner = receiver_attribute(func.value, self.receiver)
            self.called.add(attribute)
            if owner:
                self.mutated.add(owner)
            if owner and attribute in APPENDERS:
                self.append(owner, call, attribute == "extend", self.reads_input(call))
            elif owner and attribute in ("pop", "remove"):
                self.drained.add(owner)
            elif isinstance(func.value, ast.Name) and func.value.id == self.receiver:
                place = self.place()
                self.calls.append((attribute, self.loops > 0, place, (*self.tests, *self.exits)))
                self.resets.append(Reset(place, None, None if attribute == "__init__" else attribute))
            elif attribute in ("__init__", self.method) and is_super_call(func.value, call, self.receiver):
                self.reset(None)
        self.named.update(name for each in held if isinstance(each, ast.Attribute) and id(each) not in called
                          and (name := receiver_attribute(each, self.receiver)))


def is_super_call(owner: ast.expr, call: ast.Call, receiver: str) -> bool:
    """`super().m(...)`, or `Base.m(self, ...)`: the version of a method a base class defines."""
    if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
        return True
    first = call.args[0] if call.args else None
    return isinstance(first, ast.Name) and first.id == receiver and dotted_name(owner) is not None


class MethodFacts(NamedTuple):
    walk: MethodWalk
    node: ast.FunctionDef | ast.AsyncFunctionDef
    decorators: list[str]


class ClassLists:
    """What one class does with its list attributes: where each is bound, and its methods' walks."""

    def __init__(self, node: ast.ClassDef) -> None:
        self.name = node.name
        self.methods: dict[str, MethodFacts] = {}
        self.bindings: dict[str, list[tuple[bool, str, ast.AST]]] = {}  # list -> (empty, where, statement)

    def bind(self, name: str, empty: bool, where: str, node: ast.AST) -> None:
        self.bindings.setdefault(name, []).append((empty, where, node))

    def class_body(self, node: ast.ClassDef) -> None:
        for statement in node.body:
            for target in assignment_targets(statement):
                for bound, empty in list_bindings(target, statement.value):
                    if isinstance(bound, ast.Name):
                        self.bind(bound.id, empty, "the class body", statement)

    def method_bindings(self, body: list[ast.stmt], receiver: str, method: str) -> None:
        """Every binding of a receiver attribute in the method, its closures included, in source order."""
        pending: list[ast.AST] = list(reversed(body))
        while pending:
            node = pending.pop()
            targets: list[tuple[ast.expr, ast.expr | None]] = []
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = [(target, node.value) for target in assignment_targets(node)]
            elif isinstance(node, (*FOR_LOOPS, ast.comprehension)):
                targets = [(node.target, None)]
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                targets = [(node.optional_vars, None)]
            for target, value in targets:
                for bound, empty in list_bindings(target, value):
                    name = receiver_attribute(bound, receiver)
                    if name:
                        self.bind(name, empty, method, node)
            pending.extend(reversed(list(parts(node))))

    def runs_only_from_constructors(self) -> set[str]:
        """Methods called in the class only from constructors (or from such methods), never named otherwise."""
        callers: dict[str, set[str]] = {}
        for name, method in self.methods.items():
            for callee, *_ in method.walk.calls:
                callers.setdefault(callee, set()).add(name)
        named = set().union(*(method.walk.named for method in self.methods.values()))
        only: set[str] = set()
        changed = True
        while changed:
            changed = False
            for name in self.methods:
                if name not in only and name not in named and callers.get(name) and callers[name] <= (
                        CONSTRUCTORS | only) and name not in CONSTRUCTORS:
                    only.add(name)
                    changed = True
        return only

    def resets_of(self) -> dict[str, set[str] | None]:
        """The lists each method resets anywhere, itself or through the methods it calls; None: all of them."""
        found: dict[str, set[str] | None] = {name: set() for name in self.methods}
        changed = True
        while changed:
            changed = False
            for name, method in self.methods.items():
                for reset in method.walk.resets:
                    mine = found[name]
                    if reset.through:
                        theirs = found.get(reset.through, set())
                    else:
                        theirs = None if reset.name is None else {reset.name}
                    if mine is not None and (theirs is None or not theirs <= mine):
                        found[name] = None if theirs is None else mine | theirs
                        changed = True
        return found

    def empties(self, reset: Reset, name: str, found: dict[str, set[str] | None]) -> bool:
        """The reset empties the list `name`."""
        if reset.through:
            theirs = found.get(reset.through, set())
            return theirs is None or name in theirs
        return reset.name is None or reset.name == name

    def reset_before(self, method: str, name: str, place: Place, found: dict[str, set[str] | None]) -> bool:
        return any(reset.place.reaches(place) and self.empties(reset, name, found)
                   for reset in self.methods[method].walk.resets)

    def runs_once_or_accumulates(self, name: str, once: set[str]) -> bool:
        """Constructors, dunders, cached and static methods, methods run only from constructors (`once`),
        generators (which memoise what they stream, as the caller iterates), and methods named for adding what
        each call brings (`add_*`, `register`, `on_*`, `partial_fit`, ...)."""
        method = self.methods[name]
        return never_rebuilds(name, method.decorators) or name in once or method.walk.generator

    def decided_by(self) -> dict[str, set[str]]:
        """The attributes each method's `if` tests read, its own or those of the methods it calls."""
        found = {name: set(method.walk.decided) for name, method in self.methods.items()}
        changed = True
        while changed:
            changed = False
            for name, method in self.methods.items():
                for callee, *_ in method.walk.calls:
                    theirs = found.get(callee, set())
                    if not theirs <= found[name]:
                        found[name] |= theirs
                        changed = True
        return found

    def how_it_runs_again(self) -> dict[str, int]:
        """CONTRACT or ANY_CALL for each method that may run again on the same object, by itself: one named for
        a rebuild protocol (`fit`, `fit_resample`, `_fit`, `build_index`, ...), any other public method, or one
        handed out as a callback."""
        once = self.runs_only_from_constructors()
        named = set().union(*(method.walk.named for method in self.methods.values()))
        called = set().union(*(method.walk.called for method in self.methods.values()))
        found = {}
        for name in self.methods:
            if self.runs_once_or_accumulates(name, once):
                continue
            public = not name.startswith("_")
            if first_word(name) in REBUILD_PROTOCOL and (public or name not in called):
                # `_fit` too, when the class never calls it: the hook a base class's `fit` runs each time
                found[name] = CONTRACT
            elif public or name in named:
                found[name] = ANY_CALL
        return found

    def rebuilds(self) -> Iterator[tuple[str, str, str | None, list[Append], list[Append]]]:
        """(method, list, the method that runs it if it runs only as a helper, its appends of the list, the stale
        ones) for each list a method that runs again rebuilds by appending, with no reset on the way, while the
        class binds it elsewhere only to an empty list."""
        runs = self.how_it_runs_again()
        once = self.runs_only_from_constructors()
        found = self.resets_of()
        decided = self.decided_by()
        drained = set().union(*(method.walk.drained for method in self.methods.values()))  # queues, stacks
        built = {name: {a.name for a in method.walk.appends} for name, method in self.methods.items()}

        def decides(test: Test, name: str, method: str) -> bool:
            """The test decides whether to append to the list `name` on purpose: it reads the list
            (deduplication, topping up); or, as an `if`, the list or one the method builds beside it, itself or
            through the methods it calls (built already), or only state an earlier call left
            (`if self._fitted: return`)."""
            if test.loop:
                return name in test.reads
            reads = test.reads.union(*(decided.get(callee, set()) | self.methods[callee].walk.named
                                       for callee in test.calls if callee in self.methods))
            return bool(reads & ({name} | built.get(method, set()))) or (
                not test.from_input and bool(test.carried & (state | marks.get(name, set()))))

        # state a method may leave once it has built (`self._fitted = True`): a test of it alone skips a rebuild
        state = {name for name, bound in self.bindings.items() for _, where, _ in bound
                 if where in self.methods and where not in CONSTRUCTORS}
        # and state the methods that empty a list change (`offload()` empties it and marks it offloaded): a test
        # of it tells whether the list was emptied
        marks: dict[str, set[str]] = {}
        for method, resets in found.items():
            if method not in CONSTRUCTORS:
                written = self.methods[method].walk.mutated | {n for n, bound in self.bindings.items()
                                                               for _, where, _ in bound if where == method}
                for name in self.bindings if resets is None else resets:
                    marks.setdefault(name, set()).update(written - {name})
        # a private method runs again when a method that runs again calls it (outside a loop) without a reset
        appended = {a.name for method in self.methods.values() for a in method.walk.appends if a.per_element}
        lists = {name for name in appended & set(self.bindings) if any(empty for empty, _, _ in self.bindings[name])}
        reach: dict[tuple[str, str], tuple[int, str | None]] = {
            (method, name): (how, None) for method, how in runs.items() for name in lists}
        changed = True
        while changed:
            changed = False
            for (caller, name), (how, via) in list(reach.items()):
                for callee, in_loop, place, tests in self.methods[caller].walk.calls:
                    if (not in_loop and callee in self.methods and callee.startswith("_")
                            and reach.get((callee, name), (0, None))[0] < how
                            and not self.runs_once_or_accumulates(callee, once)
                            and not self.reset_before(caller, name, place, found)
                            and not any(decides(test, name, callee) for test in tests)):
                        reach[(callee, name)] = (how, via or caller)
                        changed = True
        for (method, name), (how, via) in sorted(reach.items()):
            elsewhere = [empty for empty, where, _ in self.bindings[name] if where != method]
            if not elsewhere or not all(elsewhere) or name in drained:
                continue  # created by the method itself, bound to something else than an empty list, or a queue
            walk = self.methods[method].walk
            appends = [a for a in walk.appends if a.name == name]
            emptied = [(dotted.partition(".")[2], order) for dotted, order in walk.emptied
                       if dotted.startswith(walk.receiver + ".")]
            stale = [a for a in appends if a.per_element and not self.reset_before(method, name, a.place, found)
                     # entries moved out of a list the method empties afterwards are not rebuilt:
                     # `for x in self.pending: self.done.append(x)`, then `self.pending = []`
                     and not any(test.loop and source in test.reads and order > a.place.order
                                 for test in a.tests for source, order in emptied)
                     and not (how == ANY_CALL and (a.from_input or any(t.from_input for t in a.tests)))
                     and not any(decides(test, name, method) for test in a.tests)
                     and not any(place.order < a.place.order and place.reaches(a.place)
                                 and name in decided.get(callee, ()) for callee, _, place, _ in walk.calls)]
            if stale:
                yield method, name, via, appends, stale


def places(bindings: list[tuple[bool, str, ast.AST]]) -> tuple[str, tuple[int, ...]]:
    """`__init__ (line 4) and reset() (line 9)`: where a list is bound, first line of each place; and those lines."""
    first: dict[str, int] = {}
    for _, where, node in bindings:
        line = line_of(node)
        first[where] = min(first.get(where, line), line)
    named = [f"{where if is_dunder(where) or ' ' in where else where + '()'} (line {line})"
             for where, line in sorted(first.items(), key=lambda item: item[1])]
    text = ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else named[0]
    return text, tuple(sorted(first.values()))


def line_of(node: ast.AST) -> int:
    """The first line of a binding: a statement, a comprehension's `for` (its target's line), or a `with` item."""
    if isinstance(node, ast.comprehension):
        return node.target.lineno
    if isinstance(node, ast.withitem):
        return node.context_expr.lineno
    return node.lineno


# facts ----------------------------------------------------------------------------------------------------
def collect(tree: ast.Module, source: SourceLines) -> Rebuilds:
    collector = Collector(source)
    collector.walk_body(tree.body)
    return collector.result()


class Collector:
    """Appends in a loop, under a `!=` guard on a cache key the block updates, to a list not reset before; and
    rebuild methods (`ClassLists.rebuilds`). One walk of the statements, each in the scope (class, method,
    receiver) it sits in: expressions hold no statement."""

    def __init__(self, source: SourceLines) -> None:
        self.source = source
        self.scope = Scope()
        self.rebuilds: dict[tuple[int, int], tuple[Rebuild, bool]] = {}  # by append position: the innermost guard
        # wins; and whether the append is a list method's (not `+=`, which may add to a number)
        self.reset_so_far: list[set[str]] = [set()]  # per function: lists reset up to the current statement
        self.bindings: dict[tuple[str, str], set[str]] = {}  # (class, attribute) -> kinds of values bound to it
        self.aliased: set[tuple[str, str]] = set()  # (class, attribute) whose list another attribute holds too
        self.classes: list[ClassLists] = []  # around the node, innermost last
        self.method_rebuilds: list[Rebuild] = []

    def position(self, node: ast.AST) -> tuple[int, int]:
        return node.lineno, self.source.column(node.lineno, node.col_offset)

    def end(self, node: ast.AST) -> tuple[int, int]:
        return node.end_lineno, self.source.column(node.end_lineno, node.end_col_offset)

    def relative(self, name: str) -> str:
        """`self.cache.items` -> `cache.items`: attribute names as the class sees them."""
        receiver = self.scope.receiver
        return name[len(receiver) + 1:] if receiver and name.startswith(receiver + ".") else name

    # the walk -------------------------------------------------------------------------------------------
    def walk_body(self, statements: list[ast.stmt]) -> None:
        for node in statements:
            if isinstance(node, ast.ClassDef):
                self.scope.enter_class(node.name)
                self.visit_ClassDef(node)
                self.walk_body(node.body)
                self.leave_ClassDef(node)
                self.scope.leave()
            elif isinstance(node, FUNCTIONS):
                arguments = node.args
                first = (arguments.posonlyargs or arguments.args or [None])[0]
                self.scope.enter_function(node.name, [argument.arg for argument in parameters(node)],
                                          first.arg if first else None, decorator_names(node))
                self.visit_FunctionDef(node)
                self.walk_body(node.body)
                self.reset_so_far.pop()
                self.scope.leave()
            elif isinstance(node, COMPOUND):
                if isinstance(node, ast.If):
                    self.visit_If(node)
                for block in blocks(node):
                    self.walk_body(block)
            else:
                self.visit_simple(node)

    # classes and methods --------------------------------------------------------------------------------
    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.classes.append(ClassLists(node))
        self.classes[-1].class_body(node)

    def leave_ClassDef(self, node: ast.ClassDef) -> None:
        lists = self.classes.pop()
        for method, name, via, appends, stale in lists.rebuilds():
            facts = lists.methods[method]
            line, col = self.position(stale[0].node)
            body = facts.node.body if indented(facts.node.body, self.source) else ()
            before = self.insertion_point(body, [self.position(a.node) for a in appends]) if body else None
            created, created_at = places([b for b in lists.bindings[name] if b[1] != method])
            self.method_rebuilds.append(Rebuild(
                shape=METHOD, list=name, target=f"{facts.walk.receiver}.{name}", line=line, col=col,
                loop=self.position(before) if before is not None else None, cls=lists.name, method=method, reset="",
                created=created, created_at=created_at, group=facts.node.lineno, via=via,
            ))

    def insertion_point(self, body: list[ast.stmt], targets: list[tuple[int, int]]) -> ast.stmt:
        """Where a reset runs before every append at `targets`, once each time they do: right before the
        statement holding the first, in the innermost block holding them all that no loop repeats."""
        holders = [statement for statement in body if any(self.holds(statement, at) for at in targets)]
        if len(holders) == 1:
            for block in self.inner_blocks(holders[0]):
                if all(any(self.holds(statement, at) for statement in block) for at in targets):
                    return self.insertion_point(block, targets)
        return holders[0]

    def inner_blocks(self, statement: ast.stmt) -> Iterator[list[ast.stmt]]:
        """The indented blocks of a statement that run at most once each time it does (not a loop's body)."""
        if not isinstance(statement, LOOPS):
            yield from (block for block in blocks(statement) if indented(block, self.source))

    def holds(self, node: ast.stmt, at: tuple[int, int]) -> bool:
        return self.position(node) <= at <= self.end(node)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.reset_so_far.append(set())
        receiver = self.scope.receiver or ""  # none for a static method: it only calls methods
        if self.scope.is_method and self.classes:
            lists = self.classes[-1]
            lists.methods[node.name] = MethodFacts(MethodWalk(node, receiver), node, decorator_names(node))
            lists.method_bindings(node.body, receiver, node.name)

    # statements -----------------------------------------------------------------------------------------
    def visit_simple(self, node: ast.stmt) -> None:
        cls = self.scope.owner_class or ""
        self.reset_so_far[-1].update(resets(node))
        for target in assignment_targets(node):
            kind = binding_kind(node.value) if isinstance(target, ast.Attribute) else "other"
            for attribute in stored(target, ast.Attribute):
                name = dotted_name(attribute)
                if name:
                    self.bindings.setdefault((cls, self.relative(name)), set()).add(kind)
            if isinstance(target, ast.Name) and self.scope.in_class_body:
                # a class attribute's list is shared by every instance: the fix rebinds this one's, so that
                # a reset of one object's entries leaves the others' alone
                self.bindings.setdefault((cls, target.id), set()).add(binding_kind(node.value))
            value = dotted_name(node.value) if isinstance(node.value, ast.Attribute) else None
            if value and isinstance(target, ast.Attribute):
                self.aliased.add((cls, self.relative(value)))

    def visit_If(self, node: ast.If) -> None:
        keys = compared_attributes(node.test)
        if not keys:
            return
        block = GuardedBlock(self.reset_so_far[-1])
        block.suite(node.body, None)
        updated = [key for key in keys if key in block.assigned]
        if not updated:
            return  # a `!=` test on something the block does not update is no cache key
        receiver = self.scope.receiver
        for name, where, loop, is_list in block.stale:
            if name in keys or not receiver or not name.startswith(receiver + "."):
                continue  # a list of a local object (made fresh, or someone else's) is no cache of this one
            line, col = self.position(where)
            self.rebuilds[(line, col)] = (Rebuild(
                shape=GUARD, list=self.relative(name), target=name, line=line, col=col, loop=self.position(loop),
                cls=self.scope.owner_class or "", method=self.scope.method or "", reset="",
                key=self.relative(updated[0]), guard=node.lineno,
            ), is_list)

    def result(self) -> Rebuilds:
        found = []
        guarded = {(r.cls, r.method, r.list) for r, _ in self.rebuilds.values()}
        methods = [(r, True) for r in self.method_rebuilds if (r.cls, r.method, r.list) not in guarded]
        for rebuild, is_list in [*self.rebuilds.values(), *methods]:
            kinds = self.bindings.get((rebuild.cls, rebuild.list), set()) - {"none"}
            if not is_list and "fresh" not in kinds:
                continue  # `self.total += x` on a number is no list rebuild
            owned = kinds == {"fresh"} and (rebuild.cls, rebuild.list) not in self.aliased
            found.append(rebuild._replace(reset=REBIND if owned else CLEAR))
        return Rebuilds(tuple(sorted(found, key=lambda r: (r.line, r.col))))
