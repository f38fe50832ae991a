"""SS102's libcst side: the guarded rebuilds a file holds, and the fix that resets their lists."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from typing import NamedTuple

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from flake8_stale_state import cst_facts
from flake8_stale_state.checks.stale_cache import (
    CLEAR, GUARD, METHOD, REBIND, Rebuild, Rebuilds, method_of, reset_statement,
)
from flake8_stale_state.cst_facts import PUNCTUATION, ScopeCloser, ScopeOpener, dotted_name, node_fields
from flake8_stale_state.scope import Scope
from flake8_stale_state.summary import APPENDERS, CONSTRUCTORS, REBUILD_PROTOCOL, first_word, is_dunder, never_rebuilds


# shapes ---------------------------------------------------------------------------------------------------
def parts(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The nodes a node holds, from its fields, whitespace and punctuation aside: what `node.children` gives,
    without the visit libcst makes to list them (most of the cost of walking an expression)."""
    for name in node_fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, cst.CSTNode):
            if value.__class__ not in PUNCTUATION:
                yield value
        elif isinstance(value, (list, tuple)):
            yield from (item for item in value if isinstance(item, cst.CSTNode) and item.__class__ not in PUNCTUATION)


def compared_attributes(test: cst.BaseExpression) -> list[str]:
    """Attributes on either side of a `!=` in an `if` test, through `and` and `or`."""
    if isinstance(test, cst.BooleanOperation):
        return compared_attributes(test.left) + compared_attributes(test.right)
    found: list[str] = []
    if isinstance(test, cst.Comparison):
        left = test.left
        for target in test.comparisons:
            if isinstance(target.operator, cst.NotEqual):
                for side in (left, target.comparator):
                    name = dotted_name(side) if isinstance(side, cst.Attribute) else None
                    if name and name not in found:
                        found.append(name)
            left = target.comparator
    return found


def mentions(node: cst.CSTNode, name: str) -> bool:
    if isinstance(node, cst.Attribute) and dotted_name(node) == name:
        return True
    return any(mentions(child, name) for child in parts(node))


def is_full_slice(target: cst.BaseExpression) -> bool:
    """`L[:]`"""
    if not isinstance(target, cst.Subscript) or len(target.slice) != 1:
        return False
    part = target.slice[0].slice
    return isinstance(part, cst.Slice) and part.lower is None and part.upper is None and part.step is None


def is_fresh_list(value: cst.BaseExpression | None) -> bool:
    if isinstance(value, (cst.List, cst.ListComp)):
        return True
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "list"


def binding_kind(value: cst.BaseExpression) -> str:
    if isinstance(value, cst.Name) and value.value == "None":
        return "none"
    return "fresh" if is_fresh_list(value) else "other"


def assignment_targets(node: cst.BaseSmallStatement) -> list[cst.BaseExpression]:
    if isinstance(node, cst.Assign):
        return [target.target for target in node.targets]
    if isinstance(node, cst.AnnAssign) and node.value is not None:
        return [node.target]
    return []


def resets(node: cst.BaseSmallStatement) -> Iterator[str]:
    """Lists this statement empties or replaces: `L = ...` (not built from L), `L.clear()`, `del L[:]`, `del L`,
    `L[:] = ...`."""
    for target in assignment_targets(node):
        for attribute in cst_facts.target_attributes(target):
            name = dotted_name(attribute)
            if name and not mentions(node.value, name):
                yield name
        if is_full_slice(target):
            yield dotted_name(target.value) or ""
    if isinstance(node, cst.Expr) and isinstance(node.value, cst.Call):
        func = node.value.func
        if isinstance(func, cst.Attribute) and func.attr.value == "clear" and not node.value.args:
            yield dotted_name(func.value) or ""
    if isinstance(node, cst.Del):
        targets = [e.value for e in node.target.elements] if isinstance(node.target, cst.Tuple) else [node.target]
        for target in targets:
            if is_full_slice(target):
                yield dotted_name(target.value) or ""
            elif isinstance(target, cst.Attribute):
                yield dotted_name(target) or ""


def run_now(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The node and those it holds, in the order `parts` gives, but for lambdas: their bodies run later, if at
    all. One list for the several questions asked of a statement, rather than a walk for each."""
    found: list[cst.CSTNode] = []
    pending = [node]
    while pending:
        current = pending.pop()
        if not isinstance(current, cst.Lambda):
            found.append(current)
            pending.extend(reversed(list(parts(current))))
    return found


def calls_in(node: cst.CSTNode) -> list[cst.Call]:
    return [held for held in run_now(node) if isinstance(held, cst.Call)]


def appends(node: cst.BaseSmallStatement) -> Iterator[tuple[str, cst.CSTNode, bool]]:
    """(list, where, adds a list for sure) for `L.append/extend/insert(...)` and `L += ...` on an attribute L."""
    if isinstance(node, cst.AugAssign) and isinstance(node.operator, cst.AddAssign):
        name = dotted_name(node.target) if isinstance(node.target, cst.Attribute) else None
        if name:
            yield name, node.target, is_fresh_list(node.value)
    for call in calls_in(node):
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value in APPENDERS and isinstance(func.value, cst.Attribute):
            name = dotted_name(func.value)
            if name:
                yield name, call, True


class GuardedBlock:
    """One walk of a guarded block in source order: which attributes it assigns, which lists it resets, and
    which appends run inside a loop before any reset of their list."""

    def __init__(self, reset_earlier: set[str]) -> None:
        self.reset = set(reset_earlier)
        self.assigned: set[str] = set()
        self.loop_headers: list[cst.BaseExpression] = []  # `for` iterables and `while` tests around the statement
        self.stale: list[tuple[str, cst.CSTNode, cst.CSTNode, bool]] = []  # list, append, outermost loop, is a list

    def suite(self, suite: cst.BaseSuite, loop: cst.CSTNode | None) -> None:
        if isinstance(suite, cst.IndentedBlock):
            for statement in suite.body:
                self.statement(statement, loop)
        else:
            for small in suite.body:
                self.small(small, loop)

    def statement(self, node: cst.CSTNode, loop: cst.CSTNode | None) -> None:
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            return  # runs later, if at all
        if isinstance(node, cst.SimpleStatementLine):
            for small in node.body:
                self.small(small, loop)
        elif isinstance(node, (cst.For, cst.While)):
            self.loop_headers.append(node.iter if isinstance(node, cst.For) else node.test)
            self.suite(node.body, loop or node)
            self.loop_headers.pop()
            if node.orelse is not None:
                self.suite(node.orelse.body, loop)
        else:
            for child in node.children:
                if isinstance(child, cst.BaseSuite):
                    self.suite(child, loop)
                elif isinstance(child, (cst.If, cst.Else, cst.ExceptHandler, cst.ExceptStarHandler, cst.Finally,
                                        cst.MatchCase)):
                    self.statement(child, loop)

    def small(self, node: cst.BaseSmallStatement, loop: cst.CSTNode | None) -> None:
        if loop is not None:
            for name, where, is_list in appends(node):
                # a loop that reads the list it appends to tops it up on purpose: `while len(L) < n`
                if name not in self.reset and not any(mentions(header, name) for header in self.loop_headers):
                    self.stale.append((name, where, loop, is_list))
        self.reset.update(resets(node))
        for target in assignment_targets(node) + ([node.target] if isinstance(node, cst.AugAssign) else []):
            self.assigned.update(filter(None, map(dotted_name, cst_facts.target_attributes(target))))


# rebuild methods ------------------------------------------------------------------------------------------
CONTRACT, ANY_CALL = 2, 1  # how a method may run again: by a rebuild contract, or as any public method


def names_in(node: cst.CSTNode) -> Iterator[str]:
    """Local names an expression reads (not attribute names, not keyword names)."""
    if isinstance(node, cst.Name):
        yield node.value
    elif isinstance(node, cst.Attribute):
        yield from names_in(node.value)
    elif isinstance(node, cst.Arg):
        yield from names_in(node.value)
    else:
        for child in parts(node):
            yield from names_in(child)


def receiver_attributes(node: cst.CSTNode, receiver: str) -> set[str]:
    """`X` of each `self.X` the expression reads."""
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == receiver:
        return {node.attr.value}
    return set().union(*(receiver_attributes(child, receiver) for child in parts(node)))


def receiver_attribute(node: cst.BaseExpression, receiver: str) -> str | None:
    """`X` for the expression `self.X`."""
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == receiver:
        return node.attr.value
    return None


def is_empty_list(value: cst.BaseExpression | None, name: str = "") -> bool:
    """`[]`, `list()`, or `L[:0]` for the list `name` itself."""
    if isinstance(value, cst.List):
        return not value.elements
    if isinstance(value, cst.Call):
        return isinstance(value.func, cst.Name) and value.func.value == "list" and not value.args
    if isinstance(value, cst.Subscript) and name and dotted_name(value.value) == name and len(value.slice) == 1:
        part = value.slice[0].slice
        return (isinstance(part, cst.Slice) and part.lower is None and part.step is None
                and isinstance(part.upper, cst.Integer) and part.upper.value == "0")
    return False


def list_bindings(target: cst.BaseExpression, value: cst.BaseExpression | None) -> Iterator[tuple[cst.BaseExpression,
                                                                                                  bool]]:
    """(target, bound to an empty list) for each target of an assignment, pairing `a, b = [], []`."""
    if isinstance(target, (cst.Tuple, cst.List)):
        values = value.elements if isinstance(value, (cst.Tuple, cst.List)) else None
        if values is not None and len(values) == len(target.elements):
            for element, part in zip(target.elements, values):
                yield from list_bindings(element.value, part.value)
        else:
            for element in target.elements:
                yield from list_bindings(element.value, None)
    elif isinstance(target, cst.StarredElement):
        yield from list_bindings(target.value, None)
    else:
        yield target, is_empty_list(value, dotted_name(target) or "")


class Test(NamedTuple):
    """An `if` test or a loop header an append runs under."""

    reads: frozenset[str]  # attributes of the receiver
    carried: frozenset[str]  # those of them the method has not assigned before the test: left by an earlier call
    from_input: bool  # reads the method's arguments
    loop: bool
    calls: frozenset[str]  # the receiver's methods it calls, whose own tests decide too


class Append(NamedTuple):
    name: str
    node: cst.CSTNode
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


class MethodWalk:
    """One walk of a method's body in source order, closures left out (they run later, if at all)."""

    def __init__(self, node: cst.FunctionDef, receiver: str) -> None:
        self.receiver = receiver
        self.inputs = {p.name.value for p in all_parameters(node.params)} - {receiver}
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
        self.method = node.name.value
        self.generator = False
        self.suite(node.body)

    def test(self, node: cst.CSTNode, loop: bool = False) -> Test:
        reads = frozenset(receiver_attributes(node, self.receiver))
        calls = frozenset(name for call in calls_in(node)
                          if (name := receiver_attribute(call.func, self.receiver)) is not None)
        test = Test(reads, reads - self.assigned, self.reads_input(node), loop, calls)
        if not loop:
            self.decided |= reads
        return test

    def reads_input(self, node: cst.CSTNode) -> bool:
        return not self.inputs.isdisjoint(names_in(node))

    def place(self) -> Place:
        self.order += 1
        return Place(self.order, tuple(self.blocks))

    def reset(self, name: str | None, through: str | None = None) -> None:
        self.resets.append(Reset(self.place(), name, through))

    def suite(self, suite: cst.BaseSuite, chain: int | None = None) -> None:
        self.blocks.append((id(suite), chain))
        if isinstance(suite, cst.IndentedBlock):
            for statement in suite.body:
                self.statement(statement)
        else:
            for small in suite.body:
                self.small(small)
        self.blocks.pop()

    def statement(self, node: cst.CSTNode, chain: int | None = None) -> None:
        """`chain`: the `if` chain (or `match`) a branch belongs to."""
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            return
        if isinstance(node, cst.SimpleStatementLine):
            for small in node.body:
                self.small(small)
        elif isinstance(node, cst.For):
            self.expression(node.iter)
            over_input = self.reads_input(node.iter)
            if over_input:
                self.inputs.update(names_in(node.target))
            self.tests.append(self.test(node.iter, loop=True))
            self.loops += 1
            self.input_loops += over_input
            self.suite(node.body)
            self.loops -= 1
            self.input_loops -= over_input
            self.tests.pop()
            if node.orelse is not None:
                self.suite(node.orelse.body)
        elif isinstance(node, cst.While):
            self.expression(node.test)
            self.tests.append(self.test(node.test, loop=True))
            self.loops += 1
            self.suite(node.body)
            self.loops -= 1
            self.tests.pop()
            if node.orelse is not None:
                self.suite(node.orelse.body)
        elif isinstance(node, cst.If):
            chain = chain or id(node)
            self.expression(node.test)
            self.tests.append(self.test(node.test))
            self.suite(node.body, chain)
            if node.orelse is not None:
                self.statement(node.orelse, chain)
            self.tests.pop()
            if returns(node.body):
                self.exits.append(self.test(node.test))
        elif isinstance(node, (cst.Else, cst.MatchCase)):
            self.suite(node.body, chain)
        else:
            for child in node.children:
                if isinstance(child, cst.BaseSuite):
                    self.suite(child)
                elif isinstance(child, (cst.Else, cst.ExceptHandler, cst.ExceptStarHandler, cst.Finally)):
                    self.statement(child)
                elif isinstance(child, cst.MatchCase):
                    self.statement(child, id(node))
                elif isinstance(child, cst.WithItem):
                    self.expression(child.item)
                elif isinstance(child, cst.BaseExpression):
                    self.expression(child)  # `match` subjects, `except` types

    def small(self, node: cst.BaseSmallStatement) -> None:
        for name in resets(node):
            self.own_list(name)
            if not assignment_targets(node) or is_empty_list(node.value):
                self.emptied.append((name, self.order))  # `.clear()`, `del L[:]`, `L = []`: not a new value
        for target in assignment_targets(node):
            for attribute in cst_facts.target_attributes(target):
                if is_empty_list(node.value, dotted_name(attribute) or ""):
                    self.own_list(dotted_name(attribute) or "")  # `self.L = self.L[:0]`
                name = receiver_attribute(attribute, self.receiver)
                if name:
                    self.assigned.add(name)
            if self.reads_input(node.value):
                self.inputs.update(n.value for n in cst_facts.stored_targets(target) if isinstance(n, cst.Name))
        if isinstance(node, cst.AugAssign) and isinstance(node.operator, cst.AddAssign):
            name = receiver_attribute(node.target, self.receiver)
            if name:
                self.append(name, node.target, True, self.reads_input(node.value))
        self.expression(node)

    def own_list(self, dotted: str) -> None:
        receiver, _, name = dotted.partition(".")
        if receiver == self.receiver and name and "." not in name:
            self.reset(name)

    def append(self, name: str, node: cst.CSTNode, per_element: bool, from_input: bool) -> None:
        from_input = from_input or self.input_loops > 0
        self.appends.append(Append(name, node, per_element or self.loops > 0, from_input,
                                   (*self.tests, *self.exits), self.place()))

    def expression(self, node: cst.CSTNode) -> None:
        """The calls in a statement or header: appends, calls of the receiver's methods, re-runs of `__init__`."""
        held = run_now(node)
        self.generator |= any(isinstance(each, cst.Yield) for each in held)
        called = set()
        for call in (each for each in held if isinstance(each, cst.Call)):
            func = call.func
            called.add(id(func))
            if isinstance(func, cst.Name) and func.value in ("delattr", "setattr") and len(call.args) >= 2:
                key = cst_facts.string_value(call.args[1].value)
                if dotted_name(call.args[0].value) == self.receiver and key:
                    self.reset(key)
            if not isinstance(func, cst.Attribute):
                continue
            attribute = func.attr.value
            owner = receiver_attribute(func.value, self.receiver)
            self.called.add(attribute)
            if owner:
                self.mutated.add(owner)
            if owner and attribute in APPENDERS:
                self.append(owner, call, attribute == "extend", self.reads_input(call))
            elif owner and attribute in ("pop", "remove"):
                self.drained.add(owner)
            elif isinstance(func.value, cst.Name) and func.value.value == self.receiver:
                place = self.place()
                self.calls.append((attribute, self.loops > 0, place, (*self.tests, *self.exits)))
                self.resets.append(Reset(place, None, None if attribute == "__init__" else attribute))
            elif attribute in ("__init__", self.method) and is_super_call(func.value, call, self.receiver):
                self.reset(None)
        self.named.update(name for each in held if isinstance(each, cst.Attribute) and id(each) not in called
                          and (name := receiver_attribute(each, self.receiver)))


def all_parameters(params: cst.Parameters) -> list[cst.Param]:
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    return every + [star for star in (params.star_arg, params.star_kwarg) if isinstance(star, cst.Param)]


def returns(suite: cst.BaseSuite) -> bool:
    """The block ends by returning."""
    last = suite.body[-1] if suite.body else None
    if isinstance(last, cst.SimpleStatementLine):
        last = last.body[-1]
    return isinstance(last, cst.Return)


def is_super_call(owner: cst.BaseExpression, call: cst.Call, receiver: str) -> bool:
    """`super().m(...)`, or `Base.m(self, ...)`: the version of a method a base class defines."""
    if isinstance(owner, cst.Call) and isinstance(owner.func, cst.Name) and owner.func.value == "super":
        return True
    first = call.args[0].value if call.args else None
    return isinstance(first, cst.Name) and first.value == receiver and dotted_name(owner) is not None


class MethodFacts(NamedTuple):
    walk: MethodWalk
    node: cst.FunctionDef
    decorators: list[str]


class ClassLists:
    """What one class does with its list attributes: where each is bound, and its methods' walks."""

    def __init__(self, node: cst.ClassDef) -> None:
        self.name = node.name.value
        self.methods: dict[str, MethodFacts] = {}
        self.bindings: dict[str, list[tuple[bool, str, cst.CSTNode]]] = {}  # list -> (empty, where, statement)

    def bind(self, name: str, empty: bool, where: str, node: cst.CSTNode) -> None:
        self.bindings.setdefault(name, []).append((empty, where, node))

    def class_body(self, node: cst.ClassDef) -> None:
        for statement in node.body.body if isinstance(node.body, cst.IndentedBlock) else ():
            for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
                for target in assignment_targets(small):
                    for bound, empty in list_bindings(target, small.value):
                        if isinstance(bound, cst.Name):
                            self.bind(bound.value, empty, "the class body", small)

    def method_bindings(self, node: cst.CSTNode, receiver: str, method: str) -> None:
        """Every binding of a receiver attribute in the method, its closures included, in source order."""
        pending = [node]
        while pending:
            node = pending.pop()
            targets: list[tuple[cst.BaseExpression, cst.BaseExpression | None]] = []
            if isinstance(node, (cst.Assign, cst.AnnAssign)):
                targets = [(target, node.value) for target in assignment_targets(node)]
            elif isinstance(node, (cst.For, cst.CompFor)):
                targets = [(node.target, None)]
            elif isinstance(node, cst.WithItem) and node.asname is not None:
                targets = [(node.asname.name, None)]
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


def inner_blocks(statement: cst.CSTNode) -> Iterator[cst.IndentedBlock]:
    """The blocks of a statement that run at most once each time it does (not a loop's body)."""
    if isinstance(statement, (cst.For, cst.While)):
        return
    if isinstance(statement, cst.If):
        yield from (statement.body,) if isinstance(statement.body, cst.IndentedBlock) else ()
        if statement.orelse is not None:
            yield from inner_blocks(statement.orelse)
        return
    for child in statement.children:
        if isinstance(child, cst.IndentedBlock):
            yield child
        elif isinstance(child, (cst.Else, cst.ExceptHandler, cst.ExceptStarHandler, cst.Finally, cst.MatchCase)):
            yield from inner_blocks(child)


def places(bindings: list[tuple[bool, str, cst.CSTNode]], line_of) -> tuple[str, tuple[int, ...]]:
    """`__init__ (line 4) and reset() (line 9)`: where a list is bound, first line of each place; and those lines."""
    first: dict[str, int] = {}
    for _, where, node in bindings:
        line = line_of(node)
        first[where] = min(first.get(where, line), line)
    named = [f"{where if is_dunder(where) or ' ' in where else where + '()'} (line {line})"
             for where, line in sorted(first.items(), key=lambda item: item[1])]
    text = ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else named[0]
    return text, tuple(sorted(first.values()))


# facts ----------------------------------------------------------------------------------------------------
class Collector(cst_facts.Collector):
    """Appends in a loop, under a `!=` guard on a cache key the block updates, to a list not reset before; and
    rebuild methods (`ClassLists.rebuilds`). Positions are resolved only once there is something to report:
    for most files the pre-pass lets it look at, there is not, and positions cost more than the parse."""

    def __init__(self, scope: Scope) -> None:
        super().__init__(scope)
        self.rebuilds: dict[tuple[int, int], tuple[Rebuild, bool]] = {}  # by append position: the innermost guard
        # wins; and whether the append is a list method's (not `+=`, which may add to a number)
        self.reset_so_far: list[set[str]] = [set()]  # per function: lists reset up to the current statement
        self.bindings: dict[tuple[str, str], set[str]] = {}  # (class, attribute) -> kinds of values bound to it
        self.aliased: set[tuple[str, str]] = set()  # (class, attribute) whose list another attribute holds too
        self.classes: list[ClassLists] = []  # around the node, innermost last
        self.positions: Mapping[cst.CSTNode, CodeRange] | None = None
        self.method_rebuilds: list[Rebuild] = []

    def relative(self, name: str) -> str:
        """`self.cache.items` -> `cache.items`: attribute names as the class sees them."""
        receiver = self.scope.receiver
        return name[len(receiver) + 1:] if receiver and name.startswith(receiver + ".") else name

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes.append(ClassLists(node))
        self.classes[-1].class_body(node)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        lists = self.classes.pop()
        for method, name, via, appends, stale in lists.rebuilds():
            facts = lists.methods[method]
            line, col = self.position(stale[0].node)
            body = facts.node.body.body if isinstance(facts.node.body, cst.IndentedBlock) else ()
            before = self.insertion_point(body, [self.position(a.node) for a in appends]) if body else None
            created, created_at = places([b for b in lists.bindings[name] if b[1] != method],
                                         lambda n: self.position(n)[0])
            self.method_rebuilds.append(Rebuild(
                shape=METHOD, list=name, target=f"{facts.walk.receiver}.{name}", line=line, col=col,
                loop=self.position(before) if before is not None else None, cls=lists.name, method=method, reset="",
                created=created, created_at=created_at, group=self.position(facts.node)[0], via=via,
            ))

    def insertion_point(self, body: Sequence[cst.BaseStatement], targets: list[tuple[int, int]]) -> cst.CSTNode:
        """Where a reset runs before every append at `targets`, once each time they do: right before the
        statement holding the first, in the innermost block holding them all that no loop repeats."""
        holders = [statement for statement in body if any(self.holds(statement, at) for at in targets)]
        if len(holders) == 1:
            for block in inner_blocks(holders[0]):
                if all(any(self.holds(statement, at) for statement in block.body) for at in targets):
                    return self.insertion_point(block.body, targets)
        return holders[0]

    def holds(self, node: cst.CSTNode, at: tuple[int, int]) -> bool:
        where = self.code_range(node)
        return (where.start.line, where.start.column) <= at <= (where.end.line, where.end.column)

    def code_range(self, node: cst.CSTNode) -> CodeRange:
        if self.positions is None:
            self.positions = cst_facts.positions(self.wrapper)
        return self.positions[node]

    def position(self, node: cst.CSTNode) -> tuple[int, int]:
        start = self.code_range(node).start
        return start.line, start.column

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.reset_so_far.append(set())
        receiver = self.scope.receiver or ""  # none for a static method: it only calls methods
        if self.scope.is_method and self.classes:
            lists = self.classes[-1]
            decorators = cst_facts.decorator_names(node)
            lists.methods[node.name.value] = MethodFacts(MethodWalk(node, receiver), node, decorators)
            lists.method_bindings(node.body, receiver, node.name.value)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.reset_so_far.pop()

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self._statements(node.body)

    def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        self._statements(node.body)

    def _statements(self, statements: Iterable[cst.BaseSmallStatement]) -> None:
        cls = self.scope.owner_class or ""
        for node in statements:
            self.reset_so_far[-1].update(resets(node))
            for target in assignment_targets(node):
                kind = binding_kind(node.value) if isinstance(target, cst.Attribute) else "other"
                for attribute in cst_facts.target_attributes(target):
                    name = dotted_name(attribute)
                    if name:
                        self.bindings.setdefault((cls, self.relative(name)), set()).add(kind)
                if isinstance(target, cst.Name) and self.scope.in_class_body:
                    # a class attribute's list is shared by every instance: the fix rebinds this one's, so that
                    # a reset of one object's entries leaves the others' alone
                    self.bindings.setdefault((cls, target.value), set()).add(binding_kind(node.value))
                value = dotted_name(node.value) if isinstance(node.value, cst.Attribute) else None
                if value and isinstance(target, cst.Attribute):
                    self.aliased.add((cls, self.relative(value)))

    def visit_If(self, node: cst.If) -> None:
        keys = compared_attributes(node.test)
        if not keys:
            return
        block = GuardedBlock(self.reset_so_far[-1])
        block.suite(node.body, None)
        updated = [key for key in keys if key in block.assigned]
        if not updated:
            return  # a `!=` test on something the block does not update is no cache key
        guard_line = self.position(node)[0]
        receiver = self.scope.receiver
        for name, where, loop, is_list in block.stale:
            if name in keys or not receiver or not name.startswith(receiver + "."):
                continue  # a list of a local object (made fresh, or someone else's) is no cache of this one
            line, col = self.position(where)
            self.rebuilds[(line, col)] = (Rebuild(
                shape=GUARD, list=self.relative(name), target=name, line=line, col=col, loop=self.position(loop),
                cls=self.scope.owner_class or "", method=self.scope.method or "", reset="",
                key=self.relative(updated[0]), guard=guard_line,
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


# findings -------------------------------------------------------------------------------------------------
# fix ------------------------------------------------------------------------------------------------------
class ResetInserter(cst.CSTTransformer):
    """Puts reset statements right before the loops at the given positions, taking over the loop's leading
    comments and blank lines so those stay above the rebuild."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, before_loop: dict[tuple[int, int], list[str]]) -> None:
        super().__init__()
        self.before_loop = before_loop

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        body: list[cst.BaseStatement] = []
        for original, updated in zip(original_node.body, updated_node.body):
            start = self.get_metadata(PositionProvider, original).start
            statements = [cst.parse_statement(text) for text in self.before_loop.get((start.line, start.column), ())]
            if statements:
                statements[0] = statements[0].with_changes(leading_lines=updated.leading_lines)
                updated = updated.with_changes(leading_lines=())
            body.extend(statements)
            body.append(updated)
        return updated_node.with_changes(body=body)


def insert_resets(source: str, wanted: set[tuple[int, int]]) -> str:
    """The source with a reset inserted before each loop whose appends at the `wanted` positions are SS102's."""
    module = cst.parse_module(source)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    scope = Scope()
    collector = Collector(scope)
    collector.wrapper = wrapper
    cst_facts.Traversal([ScopeOpener(scope), collector, ScopeCloser(scope)]).run(wrapper)
    found = collector.result().found
    chosen = [rebuild for rebuild in found if (rebuild.line, rebuild.col) in wanted]
    # lists a method rebuilds in parallel are fixed together: a fix of one alone would leave the others stale
    methods = {method_of(rebuild) for rebuild in chosen if rebuild.shape == METHOD}
    chosen += [r for r in found if r.shape == METHOD and method_of(r) in methods and r not in chosen]
    before_loop: dict[tuple[int, int], list[str]] = {}
    for rebuild in sorted(chosen, key=lambda r: (r.line, r.col)):
        if rebuild.loop is not None:
            statements = before_loop.setdefault(rebuild.loop, [])
            if reset_statement(rebuild) + "\n" not in statements:
                statements.append(reset_statement(rebuild) + "\n")
    if not before_loop:
        return source
    return wrapper.visit(ResetInserter(before_loop)).code
