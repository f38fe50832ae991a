"""The index's facts of a file Python's parser rejects (newer syntax than the running Python's), from libcst's
tree.

One parse and one batched traversal per file. The scope tracker is split into an opening visitor
placed first in the batch and a closing one placed last, so every collector sees the scope of the
node it visits, on the way in and on the way out. Syntax trees never leave this module's callers.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import threading
from contextlib import ExitStack
from collections.abc import Mapping, Sequence
from typing import Any

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from flake8_stale_state.facts import (
    IMPORT_ERRORS, INTROSPECTORS, PYTHON_VERSION_NAMES, FactsBuilder, FileFacts, constructor_of, is_with_metaclass,
    python_syntax_error,
)
from flake8_stale_state.scope import Scope
from flake8_stale_state.summary import summary_of_tree


def dotted_name(node: cst.BaseExpression) -> str | None:
    """`a.b.c` as a string, None for anything that is not a plain dotted name."""
    parts = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if isinstance(node, cst.Name):
        parts.append(node.value)
        return ".".join(reversed(parts))
    return None


def decorator_names(node: cst.FunctionDef | cst.ClassDef) -> list[str]:
    names = []
    for decorator in node.decorators:
        expr = decorator.decorator
        if isinstance(expr, cst.Call):
            expr = expr.func
        name = dotted_name(expr)
        if name:
            names.append(name)
    return names


def _parameter_names(params: cst.Parameters) -> list[str]:
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            every.append(star)
    return [p.name.value for p in every]


def _first_positional(params: cst.Parameters) -> str | None:
    first = params.posonly_params or params.params
    return first[0].name.value if first else None


@functools.cache
def visitor_names(visitor_class: type) -> tuple[str, ...]:
    """The `visit_*` and `leave_*` methods a batchable visitor class defines, stubs left out."""
    return tuple(
        name for name in dir(visitor_class)
        if name.startswith(("visit_", "leave_")) and callable(method := getattr(visitor_class, name))
        and not getattr(method, "_is_no_op", False)
    )


class Visitor(cst.BatchableCSTVisitor):
    """A batchable visitor that shares a scope. libcst looks up a visitor's methods among all its attributes
    anew for each file: that costs more than the traversal of a short file, and depends on the class alone."""

    def __init__(self, scope: Scope) -> None:
        super().__init__()
        self.scope = scope

    def get_visitors(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in visitor_names(type(self))}


def _subclasses(kind: type) -> set[type]:
    return {kind, *(sub for direct in kind.__subclasses__() for sub in _subclasses(direct))}


# Nodes of whitespace, comments and punctuation: they hold no code, and walks that look for code leave them out
PUNCTUATION = frozenset(kind for base in (
    cst.BaseParenthesizableWhitespace, cst.TrailingWhitespace, cst.EmptyLine, cst.Newline, cst.Comment, cst.Comma,
    cst.Dot, cst.Colon, cst.Semicolon, cst.AssignEqual, cst.LeftParen, cst.RightParen, cst.LeftSquareBracket,
    cst.RightSquareBracket, cst.LeftCurlyBrace, cst.RightCurlyBrace, cst.BaseBinaryOp, cst.BaseBooleanOp,
    cst.BaseCompOp, cst.BaseUnaryOp, cst.BaseAugOp, cst.Asynchronous, cst.ImportStar,
) for kind in _subclasses(base))


class Traversal:
    """libcst's batched traversal (`MetadataWrapper.visit_batched`): each visitor's `visit_X` on the way in and
    `leave_X` on the way out, visitors in their order, children in the order libcst visits them. libcst's own
    walk makes a copy of every node on the way (a transformer's result, thrown away for a visitor), which cost
    twice the walk itself; this one reads the nodes' fields."""

    def __init__(self, visitors: Sequence[cst.BatchableCSTVisitor]) -> None:
        methods: dict[str, list[Any]] = {}
        for visitor in visitors:
            for name, method in visitor.get_visitors().items():
                methods.setdefault(name, []).append(method)
        self.visitors = visitors
        self.methods = methods
        self.hooks: dict[type, tuple[list[Any], list[Any]]] = {}
        self.skipped = frozenset(kind for kind in PUNCTUATION
                                 if f"visit_{kind.__name__}" not in methods and f"leave_{kind.__name__}" not in methods)

    def run(self, wrapper: MetadataWrapper) -> None:
        if any(PositionProvider in visitor.get_inherited_dependencies() for visitor in self.visitors):
            positions(wrapper)
        with ExitStack() as stack:
            for visitor in self.visitors:
                stack.enter_context(visitor.resolve(wrapper))  # the metadata each declares
            self.walk(wrapper.module)

    def walk(self, node: cst.CSTNode) -> None:
        kind = type(node)
        hooks = self.hooks.get(kind)
        if hooks is None:
            name = kind.__name__
            hooks = self.hooks[kind] = (self.methods.get(f"visit_{name}", []), self.methods.get(f"leave_{name}", []))
        for visit in hooks[0]:
            visit(node)
        skipped = self.skipped
        for child in children(node):
            if child.__class__ not in skipped:
                self.walk(child)
        for leave in hooks[1]:
            leave(node)


def positions(wrapper: MetadataWrapper) -> Mapping[cst.CSTNode, CodeRange]:
    """libcst's PositionProvider of the wrapper's tree, made once and kept where the wrapper's resolver looks
    first. Left to the resolver, libcst would also walk the whole tree once more for the batchable providers asked
    with it, even where there are none, as here: that walk cost as much as the positions themselves."""
    known = wrapper._metadata  # noqa: SLF001 - libcst>=1.1,<2 keeps resolved metadata there
    if PositionProvider not in known:
        known[PositionProvider] = PositionProvider()._gen(wrapper)  # noqa: SLF001
    return known[PositionProvider]


# (node class, its fields that hold nodes in one node) -> those fields in the order libcst visits them
_CHILD_FIELDS: dict[tuple[type, tuple[str, ...]], tuple[str, ...]] = {}


@functools.cache
def node_fields(kind: type) -> tuple[str, ...]:
    return tuple(field.name for field in dataclasses.fields(kind))


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """`node.children`, without the copy of the node libcst makes to list them: libcst visits a node's fields
    one after the other, in an order of its own for each class (a decorator before the function's name), found
    once by asking libcst for the children of a node of that class holding nodes in the same fields."""
    kind = type(node)
    held: dict[str, Sequence[cst.CSTNode]] = {}  # field -> the nodes it holds
    for name in node_fields(kind):
        value = getattr(node, name)
        if isinstance(value, cst.CSTNode):
            held[name] = (value,)
        elif value.__class__ in (list, tuple) and value:
            held[name] = value
    present = tuple(held)
    order = _CHILD_FIELDS.get((kind, present))
    if order is None:
        owner = {id(item): name for name, items in held.items() for item in items}
        order = _CHILD_FIELDS[(kind, present)] = tuple(dict.fromkeys(
            name for child in node.children if (name := owner.get(id(child))) is not None))
    return [item for name in order for item in held[name]]


class ScopeOpener(Visitor):
    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.scope.enter_class(node.name.value)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.scope.enter_function(
            node.name.value, _parameter_names(node.params), _first_positional(node.params), decorator_names(node)
        )


class ScopeCloser(Visitor):
    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.scope.leave()

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.scope.leave()


def string_value(node: cst.BaseExpression) -> str | None:
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def stored_targets(target: cst.BaseExpression) -> list[cst.BaseExpression]:
    """What an assignment target stores to (names, attributes, subscripts), through tuples, lists and stars."""
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for element in target.elements for n in stored_targets(element.value)]
    if isinstance(target, cst.StarredElement):
        return stored_targets(target.value)
    return [target]


def target_attributes(target: cst.BaseExpression) -> list[cst.Attribute]:
    """Attributes stored to by an assignment target."""
    return [n for n in stored_targets(target) if isinstance(n, cst.Attribute)]


def listed_strings(node: cst.BaseExpression | None) -> list[str]:
    if node is None:
        return []
    value = string_value(node)
    if value is not None:
        return [value]
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        return [s for element in node.elements for s in listed_strings(element.value)]
    if isinstance(node, cst.Dict):  # `__slots__ = {"name": "its docstring"}`: the keys
        return [s for element in node.elements if isinstance(element, cst.DictElement)
                for s in listed_strings(element.key)]
    return []


def catches_import_error(caught: cst.BaseExpression | None) -> bool:
    """`except ImportError:`, `except (ImportError, AttributeError):`: what it imports replaces a failed import."""
    types = [e.value for e in caught.elements] if isinstance(caught, cst.Tuple) else [caught] if caught else []
    return any((dotted_name(t) or "").rpartition(".")[2] in IMPORT_ERRORS for t in types)


def base_name(node: cst.BaseExpression) -> str | None:
    """A class base as a dotted name; `Base[T]` is `Base`."""
    return dotted_name(node.value if isinstance(node, cst.Subscript) else node)


def is_doc_comment(comment: cst.Comment | None) -> bool:
    """Sphinx's attribute documentation comment: `#: what it holds`."""
    return comment is not None and comment.value.startswith("#:")


def small_statements(body: Sequence[cst.BaseStatement]) -> list[cst.CSTNode]:
    """A block's statements as Python's own tree lists them: those sharing a line one by one."""
    return [small for statement in body
            for small in (statement.body if isinstance(statement, cst.SimpleStatementLine) else [statement])]


def tests_python_version(test: cst.BaseExpression) -> bool:
    """As summary.py's: the test names `sys.version_info` (or another of PYTHON_VERSION_NAMES)."""
    pending = [test]
    while pending:
        node = pending.pop()
        if isinstance(node, (cst.Attribute, cst.Name)) and dotted_name(node) in PYTHON_VERSION_NAMES:
            return True
        pending.extend(node.children)
    return False


class AttributeCollector(Visitor):
    """Attribute stores and every form of attribute read, from the libcst tree, for a file Python's own parser
    rejects (newer syntax than the running Python's): every read counts for every class, and any use of
    `self.__dict__` for every attribute. Where Python parses the file, its summary (summary.py) gives the facts.

    It needs no positions while it walks: resolving them costs libcst more than parsing.
    """

    def __init__(self, scope: Scope) -> None:
        super().__init__(scope)
        self.stores: dict[int, cst.BaseExpression | None] = {}  # id(Attribute) -> the value it is assigned
        self.declared: set[int] = set()  # id(Attribute) of `self.x: int`, which stores nothing and reads nothing
        self.stored: list[cst.Attribute] = []  # the node of each write, in the order of the writes
        self.builder = FactsBuilder(scope)
        self.in_import = False  # `import a.b` names a module: no attribute is read
        self.documented: set[int] = set()  # id() of assignments with Sphinx attribute documentation
        self.version_guards = 0  # the `if` statements around the node that test Python's version

    def result(self) -> FileFacts:
        return self.builder.finished()

    def place_writes(self, wrapper: MetadataWrapper) -> None:
        """Give each write libcst's position."""
        facts = self.builder.facts
        made = positions(wrapper)
        starts = (made[node].start for node in self.stored)
        facts.writes = [w._replace(line=start.line, col=start.column) for w, start in zip(facts.writes, starts)]

    def _mark_stores(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        single = isinstance(target, cst.Attribute)
        for attribute in target_attributes(target):
            self.stores[id(attribute)] = value if single else None

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._mark_stores(target.target, node.value)
        self._class_binding([t.target for t in node.targets], node.value)
        self._documented(node, [t.target for t in node.targets])

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is None and isinstance(node.target, cst.Attribute):
            self.declared.add(id(node.target))
        self._mark_stores(node.target, node.value)
        self._class_binding([node.target], node.value)
        self._documented(node, [node.target])

    # Sphinx attribute documentation: a `#:` comment on the line above, at the statement's indentation, or at
    # the end of its line; or a string statement right after the assignment.
    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        above = node.leading_lines[-1] if node.leading_lines else None
        if above is not None and above.indent and not above.whitespace.value and is_doc_comment(above.comment):
            self.documented.add(id(node.body[0]))
        if is_doc_comment(node.trailing_whitespace.comment):
            self.documented.add(id(node.body[-1]))

    def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        self._note_attribute_docstrings(list(node.body))
        if is_doc_comment(node.trailing_whitespace.comment):
            self.documented.add(id(node.body[-1]))

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._note_attribute_docstrings(small_statements(node.body))

    def visit_Module(self, node: cst.Module) -> None:
        self._note_attribute_docstrings(small_statements(node.body))

    def _note_attribute_docstrings(self, statements: list[cst.CSTNode]) -> None:
        for statement, following in zip(statements, statements[1:]):
            if (isinstance(statement, (cst.Assign, cst.AnnAssign)) and isinstance(following, cst.Expr)
                    and string_value(following.value) is not None):
                self.documented.add(id(statement))

    def _documented(self, node: cst.Assign | cst.AnnAssign, targets: list[cst.BaseExpression]) -> None:
        if id(node) in self.documented:
            for attribute in (a for target in targets for a in target_attributes(target)):
                self.builder.documented_store(attribute.attr.value, dotted_name(attribute.value))

    def _class_binding(self, targets: list[cst.BaseExpression], value: cst.BaseExpression | None) -> None:
        names = [t.value for t in targets if isinstance(t, cst.Name)]
        if names:
            while isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and \
                    isinstance(value.func.value, cst.Call):  # `traitlets.Dict().tag(sync=True)`: as summary's
                value = value.func.value
            callee = dotted_name(value.func) if isinstance(value, cst.Call) else None
            self.builder.class_binding(names, listed_strings(value), callee, annotated=value is None)
            if isinstance(value, (cst.Name, cst.Attribute)):
                self.builder.module_binding(names, dotted_name(value))

    def visit_If(self, node: cst.If) -> None:
        self.version_guards += tests_python_version(node.test)

    def leave_If(self, original_node: cst.If) -> None:
        self.version_guards -= tests_python_version(original_node.test)

    def visit_For(self, node: cst.For) -> None:
        self._mark_stores(node.target, None)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._mark_stores(node.target, None)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._mark_stores(node.asname.name, None)

    # AugAssign and Del targets are reads: they need the attribute to exist and use it.

    def visit_Import(self, node: cst.Import) -> None:
        self.in_import = True
        for alias in node.names:
            self.builder.import_module(dotted_name(alias.name), alias.asname and dotted_name(alias.asname.name))

    def leave_Import(self, original_node: cst.Import) -> None:
        self.in_import = False

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        self.builder.import_fallback_depth += catches_import_error(node.type)

    def leave_ExceptHandler(self, original_node: cst.ExceptHandler) -> None:
        self.builder.import_fallback_depth -= catches_import_error(original_node.type)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.in_import = True
        module = dotted_name(node.module) if node.module is not None else None
        if isinstance(node.names, cst.ImportStar):
            self.builder.import_from(len(node.relative), module, "*", None)
            return
        for alias in node.names:
            self.builder.import_from(len(node.relative), module, dotted_name(alias.name),
                                     alias.asname and dotted_name(alias.asname.name))

    def leave_ImportFrom(self, original_node: cst.ImportFrom) -> None:
        self.in_import = False

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if self.in_import:
            return
        name = node.attr.value
        owner = dotted_name(node.value)
        if id(node) in self.declared:
            self.stores.pop(id(node))
            return
        if id(node) not in self.stores:
            self.builder.read(name, None)
            if name == "__dict__" and owner is not None and owner == self.scope.receiver:
                self.builder.reads_all()
            return
        value = self.stores.pop(id(node))
        made = constructor_of(dotted_name(value.func)) if isinstance(value, cst.Call) else None
        receiver = self.scope.receiver
        function = isinstance(value, cst.Lambda) or (
            isinstance(value, cst.Attribute) and receiver is not None and dotted_name(value.value) == receiver
            and value.attr.value != "__dict__")
        given = [arg.value.value for arg in value.args
                 if isinstance(arg.value, cst.Name) and not arg.star] if made else []
        empty = isinstance(value, cst.Name) and value.value == "None"
        # placed once the traversal is done
        self.builder.store(name, 0, 0, owner, made, True, function, given=given, empty=empty,
                           versioned=self.version_guards > 0)
        self.stored.append(node)

    def visit_Call(self, node: cst.Call) -> None:
        positional = [arg.value for arg in node.args if arg.keyword is None and not arg.star]
        callee = dotted_name(node.func)
        strings = [string_value(arg) for arg in positional]
        self.builder.call(callee, [[value] if value is not None else None for value in strings], None)
        first = positional[0] if positional else None
        if callee in INTROSPECTORS and isinstance(first, cst.Name) and first.value == self.scope.receiver:
            self.builder.reads_all()
        if len(positional) == 3 and isinstance(positional[1], cst.Tuple):
            self.builder.made_class(callee, strings[0], [base_name(item.value) for item in positional[1].elements])

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        if "{" in node.value:
            value = node.evaluated_value
            if isinstance(value, str):
                self.builder.string(value)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        bases: list[str | None] = []
        for arg in node.bases:
            if arg.keyword is not None or arg.star:
                continue
            if isinstance(arg.value, cst.Call) and is_with_metaclass(dotted_name(arg.value.func)):
                bases.extend(base_name(a.value) for a in arg.value.args[1:] if a.keyword is None and not a.star)
            else:
                bases.append(base_name(arg.value))
        self.builder.enter_class(node.name.value, bases, decorator_names(node))

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.builder.leave_class()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if self.scope.is_method:
            self.builder.method(node.name.value, decorator_names(node))


# libcst's native parser recurses on the C stack and crashes the process (no exception) on deep nesting
# that Python's own parser rejects cleanly, so such files are refused before libcst sees them, and libcst
# runs on a thread with a large stack for the nesting Python's parser accepts (`x and x and ...`).
NESTING_ERRORS = (RecursionError, MemoryError)
TOO_NESTED = "too many nested parentheses"
PARSER_STACK_BYTES = 256 * 1024 * 1024  # reserved, not committed: only the pages used cost memory


class TooDeeplyNested(Exception):
    pass


def python_tree(source: str | bytes) -> ast.Module | None:
    """Python's own tree of the source, None where Python rejects it; TooDeeplyNested where libcst would crash."""
    try:
        return ast.parse(source)
    except NESTING_ERRORS:
        raise TooDeeplyNested from None
    except SyntaxError as error:
        if error.msg == TOO_NESTED:
            raise TooDeeplyNested from None
        return None
    except ValueError:  # NUL bytes: libcst reports those itself
        return None


def on_large_stack(function, *args):
    """`function(*args)` on a thread with a stack of PARSER_STACK_BYTES; its exception is raised here."""
    outcome: list = []

    def run() -> None:
        try:
            outcome.append((True, function(*args)))
        except BaseException as error:  # noqa: B036 - handed back to the calling thread
            outcome.append((False, error))

    previous = threading.stack_size(PARSER_STACK_BYTES)
    try:
        thread = threading.Thread(target=run, name="stale-state-parser")
        thread.start()
    finally:
        threading.stack_size(previous)
    thread.join()
    succeeded, value = outcome[0]
    if not succeeded:
        raise value
    return value


def parse(source: str | bytes) -> tuple[cst.Module | None, ast.Module | None]:
    """Python's tree where Python accepts the source (nothing is made of libcst's then), else libcst's."""
    tree = python_tree(source)
    return (None if tree is not None else on_large_stack(cst.parse_module, source)), tree


def syntax_error_message(source: str | bytes, error: cst.ParserSyntaxError) -> str:
    """Python's own wording where Python also rejects the file; libcst's where only libcst does."""
    try:
        ast.parse(source)
    except SyntaxError as python_error:
        return python_syntax_error(python_error)
    except ValueError as python_error:  # NUL bytes on older Pythons (3.10), a SyntaxError on newer: same words
        return f"syntax error: {python_error}"
    except Exception:  # noqa: S110 - fall back to libcst's wording below
        pass
    return f"libcst cannot parse line {error.raw_line}: {error.message.splitlines()[0]}"


def collect_facts(path: str, source: str | bytes) -> FileFacts:
    """The index's facts of a file Python's parser rejects, from libcst's tree (newer syntax than the running
    Python's); through Python's tree where Python accepts it after all. A file that cannot be parsed yields facts
    with `error`."""
    try:
        module, tree = parse(source)
        if module is not None:
            scope = Scope()
            core = AttributeCollector(scope)
            wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
            Traversal([ScopeOpener(scope), core, ScopeCloser(scope)]).run(wrapper)
            core.place_writes(wrapper)
    except cst.ParserSyntaxError as error:
        return FileFacts(path=path, error=syntax_error_message(source, error))
    except SyntaxError as error:  # from the encoding declaration, before parsing starts
        return FileFacts(path=path, error=f"cannot decode: {error.msg}")
    except UnicodeDecodeError as error:
        return FileFacts(path=path, error=f"cannot decode: {error.reason} at byte {error.start}")
    except (RecursionError, TooDeeplyNested):
        return FileFacts(path=path, error="nested too deeply to analyse")
    except Exception as error:  # one file's failure must not cost the package its other files
        return FileFacts(path=path, error=f"internal error: {type(error).__name__}: {error}")
    facts = summary_of_tree(path, tree, source) if tree is not None else core.result()
    if facts.error is None:
        facts.path = path
    return facts
