"""The cheap pre-pass: the same facts as the libcst collector, from Python's `ast`.

The package index needs the reads and writes of every file, while findings are needed only
where a check may report. Parsing with `ast` costs a fraction of libcst, so the index is built
from these summaries and libcst parses only the files a check may report on (engine.py).
The rules live in `FactsBuilder`; this module only walks the `ast` tree. The two walks must
agree: tests compare their facts on every fixture and their findings on real packages.
"""

from __future__ import annotations

import ast

from flake8_stale_state.facts import FactsBuilder, FileFacts, is_constructor, python_syntax_error
from flake8_stale_state.scope import Scope

LOOPS = (ast.For, ast.AsyncFor, ast.While)
# Signals: cheap shapes that tell a check whether a file is worth a libcst parse.
GUARDED_LOOP = "if-not-equal-loop"  # an `if` testing `!=` with a loop in its block (SS102)


def dotted_name(node: ast.expr) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def decorator_names(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> list[str]:
    names = (dotted_name(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list)
    return [name for name in names if name]


def string_value(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def listed_strings(node: ast.expr | None) -> list[str]:
    if node is None:
        return []
    value = string_value(node)
    if value is not None:
        return [value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [s for element in node.elts for s in listed_strings(element)]
    return []


def mentions(value: ast.AST, name: str) -> bool:
    if (isinstance(value, ast.Attribute) and value.attr == name) or string_value(value) == name:
        return True
    if isinstance(value, ast.JoinedStr):  # only an f-string's expressions, as libcst sees it
        return any(mentions(part.value, name) for part in value.values if isinstance(part, ast.FormattedValue))
    return any(mentions(child, name) for child in ast.iter_child_nodes(value))


def has_loop(statements: list[ast.stmt]) -> bool:
    return any(isinstance(node, LOOPS) for statement in statements for node in ast.walk(statement))


class Summarizer(ast.NodeVisitor):
    def __init__(self) -> None:
        self.scope = Scope()
        self.builder = FactsBuilder(self.scope)
        self.values: dict[int, ast.expr | None] = {}  # id(stored Attribute) -> its value when the target is single

    def _mark_values(self, targets: list[ast.expr], value: ast.expr | None) -> None:
        for target in targets:
            if isinstance(target, ast.Attribute):
                self.values[id(target)] = value

    def visit_Assign(self, node: ast.Assign) -> None:
        self._mark_values(node.targets, node.value)
        self._class_binding(node.targets, node.value)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._mark_values([node.target], node.value)
        self._class_binding([node.target], node.value)
        self.generic_visit(node)

    def _class_binding(self, targets: list[ast.expr], value: ast.expr | None) -> None:
        names = [t.id for t in targets if isinstance(t, ast.Name)]
        if names:
            self.builder.class_binding(names, listed_strings(value))

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        # `self.x += 1` reads the attribute; ast marks its target as a store
        if isinstance(node.target, ast.Attribute):
            self.builder.read(node.target.attr, dotted_name(node.target.value))
            self.visit(node.target.value)
        else:
            self.visit(node.target)
        self.visit(node.value)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        owner = dotted_name(node.value)
        if not isinstance(node.ctx, ast.Store):
            self.builder.read(node.attr, owner)
        else:
            value = self.values.pop(id(node), None)
            constructed = isinstance(value, ast.Call) and is_constructor(dotted_name(value.func))
            same_name = value is not None and mentions(value, node.attr)
            self.builder.store(node.attr, node.lineno, node.col_offset, owner, constructed, same_name)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        positional = [arg for arg in node.args if not isinstance(arg, ast.Starred)]
        first = positional[0] if positional else None
        self.builder.call(
            dotted_name(node.func), [string_value(arg) for arg in positional],
            first.id if isinstance(first, ast.Name) else None,
        )
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            self.builder.string(node.value)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        # the literal parts of an f-string are not format strings; its expressions are ordinary code
        for part in node.values:
            if isinstance(part, ast.FormattedValue):
                self.visit(part)

    def visit_If(self, node: ast.If) -> None:
        compares = (n for n in ast.walk(node.test) if isinstance(n, ast.Compare))
        not_equal = any(isinstance(op, ast.NotEq) for compare in compares for op in compare.ops)
        if not_equal and has_loop(node.body):
            self.builder.facts.signals.add(GUARDED_LOOP)
        self.generic_visit(node)

    # Classes and functions are entered before their decorators, bases and parameters are
    # visited, as the libcst traversal does.
    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.scope.enter_class(node.name)
        self.builder.enter_class(node.name, [dotted_name(b) for b in node.bases], decorator_names(node))
        self.generic_visit(node)
        self.builder.leave_class()
        self.scope.leave()

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        arguments = node.args
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        every += [star for star in (arguments.vararg, arguments.kwarg) if star]
        positional = [*arguments.posonlyargs, *arguments.args]
        decorators = decorator_names(node)
        self.scope.enter_function(
            node.name, [a.arg for a in every], positional[0].arg if positional else None, decorators
        )
        if self.scope.is_method:
            self.builder.method(node.name, decorators)
        self.generic_visit(node)
        self.scope.leave()

    visit_AsyncFunctionDef = visit_FunctionDef


def summarize(path: str, source: str | bytes) -> FileFacts:
    """Facts from `ast`; a file Python cannot parse yields facts with `error`."""
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        return FileFacts(path=path, error=python_syntax_error(error))
    except (ValueError, RecursionError, MemoryError) as error:  # NUL bytes, nesting beyond the parser
        return FileFacts(path=path, error=f"cannot parse: {type(error).__name__}")
    return summary_of_tree(path, tree)


def summary_of_tree(path: str, tree: ast.Module) -> FileFacts:
    summarizer = Summarizer()
    try:
        summarizer.visit(tree)
    except RecursionError:
        return FileFacts(path=path, error="nested too deeply to analyse")
    facts = summarizer.builder.facts
    facts.path = path
    return facts
