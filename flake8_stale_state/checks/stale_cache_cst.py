"""SS102's libcst side: the guarded rebuilds a file holds, and the fix that resets their lists."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from flake8_stale_state import cst_facts
from flake8_stale_state.cst_facts import ScopeCloser, ScopeOpener, dotted_name
from flake8_stale_state.scope import Scope
from flake8_stale_state.summary import APPENDERS

REBIND, CLEAR = "rebind", "clear"


# shapes ---------------------------------------------------------------------------------------------------
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
    return any(mentions(child, name) for child in node.children)


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


def calls_in(node: cst.CSTNode) -> Iterator[cst.Call]:
    if isinstance(node, cst.Lambda):
        return
    if isinstance(node, cst.Call):
        yield node
    for child in node.children:
        yield from calls_in(child)


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


# facts ----------------------------------------------------------------------------------------------------
class Collector(cst_facts.Collector):
    """Appends in a loop, under a `!=` guard on a cache key the block updates, to a list not reset before."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, scope: Scope) -> None:
        super().__init__(scope)
        self.rebuilds: dict[tuple[int, int], dict[str, Any]] = {}  # by append position: the innermost guard wins
        self.reset_so_far: list[set[str]] = [set()]  # per function: lists reset up to the current statement
        self.bindings: dict[tuple[str, str], set[str]] = {}  # (class, attribute) -> kinds of values bound to it
        self.aliased: set[tuple[str, str]] = set()  # (class, attribute) whose list another attribute holds too

    def relative(self, name: str) -> str:
        """`self.cache.items` -> `cache.items`: attribute names as the class sees them."""
        receiver = self.scope.receiver
        return name[len(receiver) + 1:] if receiver and name.startswith(receiver + ".") else name

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.reset_so_far.append(set())

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
        for name, where, loop, is_list in block.stale:
            if name in keys:
                continue
            line, col = self.position(where)
            self.rebuilds[(line, col)] = {
                "list": self.relative(name),
                "target": name,
                "key": self.relative(updated[0]),
                "guard": guard_line,
                "line": line,
                "col": col,
                "loop": list(self.position(loop)),
                "class": self.scope.owner_class or "",
                "method": self.scope.method or "",
                "is_list": int(is_list),
            }

    def result(self) -> list[dict[str, Any]]:
        found = []
        for rebuild in self.rebuilds.values():
            kinds = self.bindings.get((rebuild["class"], rebuild["list"]), set()) - {"none"}
            if not rebuild.pop("is_list") and "fresh" not in kinds:
                continue  # `self.total += x` on a number is no list rebuild
            owned = kinds == {"fresh"} and (rebuild["class"], rebuild["list"]) not in self.aliased
            rebuild["reset"] = REBIND if owned else CLEAR
            found.append(rebuild)
        return sorted(found, key=lambda r: (r["line"], r["col"]))


# findings -------------------------------------------------------------------------------------------------
# fix ------------------------------------------------------------------------------------------------------
def reset_statement(rebuild: dict[str, Any]) -> str:
    target = rebuild["target"]
    return f"{target} = []\n" if rebuild["reset"] == REBIND else f"{target}.clear()\n"


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
    wrapper.visit_batched([ScopeOpener(scope), collector, ScopeCloser(scope)])
    before_loop: dict[tuple[int, int], list[str]] = {}
    for rebuild in collector.result():
        if (rebuild["line"], rebuild["col"]) in wanted:
            statements = before_loop.setdefault(tuple(rebuild["loop"]), [])
            if reset_statement(rebuild) not in statements:
                statements.append(reset_statement(rebuild))
    if not before_loop:
        return source
    return wrapper.visit(ResetInserter(before_loop)).code
