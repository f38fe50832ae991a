"""The cheap pre-pass: the package index's facts of every file, from Python's `ast`.

The package index needs the reads and writes of every file, while the checks' own facts are needed only where
a check may report: the index is built from these summaries, and the checks' collectors read only the files a
check may report on (engine.py). The rules live in `FactsBuilder`; this module only walks the `ast` tree. The
libcst walk that stands in for a file Python rejects (cst_facts.py) must agree: tests compare their facts on
every fixture.
"""

from __future__ import annotations

import ast
import html
import io
import itertools
import os
import re
import tokenize
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from flake8_stale_state.comments import lines_saying_used
from flake8_stale_state.excerpt import first_line
from flake8_stale_state.facts import (
    BOUND_NAME, CLASS_NAME_MARK, IMPORT_ERRORS, INIT_PARAMETERS_MARK, INTROSPECTORS, LISTED_MARK, LOOKUP_METHODS,
    PYTHON_VERSION_NAMES, STRING_READERS, WHOLE_MARK, FactsBuilder, FileFacts, Signals, constructor_of,
    is_constructor, is_with_metaclass, python_syntax_error, qualified_name,
)
from flake8_stale_state.hint import is_respelling
from flake8_stale_state.scope import Scope

LOOPS = (ast.For, ast.AsyncFor, ast.While)
APPENDERS = {"append", "extend", "insert"}  # list methods that add entries (SS102)
CONSTRUCTORS = {"__init__", "__new__", "__post_init__"}  # run once per object (SS102)
# SS102: first words of method names that rebuild by contract, whatever they are given: a second call must not
# see the first call's state (scikit-learn's estimators: `fit`, `fit_transform`, `_fit` hooks of a base's `fit`).
REBUILD_PROTOCOL = {"fit", "configure", "setup", "build", "load", "refresh", "reload", "rebuild", "recompute",
                    "reset", "prepare", "initialize"}
# SS102: first words of method names that add to a list on purpose, one call at a time (visitors' `visit_*`
# and `leave_*` too: each call adds what one node brings); decorators of methods that never run again.
ACCUMULATING_WORDS = {"add", "append", "extend", "insert", "push", "put", "enqueue", "register", "subscribe",
                      "attach", "log", "record", "track", "collect", "accumulate", "emit", "write", "feed",
                      "observe", "on", "step", "update", "handle", "visit", "leave", "depart"}
RUN_ONCE_DECORATORS = {"cached_property", "cache", "lru_cache", "staticmethod", "classmethod"}
STATEMENT_LISTS = ("body", "orelse", "finalbody")
# What the walk does not enter: nodes whose fields hold no other node and which the summary has no use for, and
# the plain values some fields hold (`Global.names`, `MatchSingleton.value`, a `None` in `Dict.keys`)
NOT_WALKED = {ast.Name, *(kind for base in (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)
                          for kind in base.__subclasses__()),
              str, bytes, int, float, complex, bool, tuple, frozenset, type(...), type(None)}
# fields that hold names, numbers or flags, never a node: the walk, most of the pre-pass, does not look at them
SCALAR_FIELDS = {"id", "attr", "name", "arg", "module", "asname", "level", "simple", "is_async", "conversion",
                 "type_comment", "ctx", "op", "ops", "tag", "kind"}
_NODE_FIELDS: dict[type, tuple[str, ...]] = {}


_WALKED_FIELDS: dict[type, tuple[str, ...]] = {}


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """`ast.walk`, in its order, but for the nodes of expression contexts and operators (`Load`, `Add`), which
    no question asked here looks for: at half its cost, where the pre-pass walks a function or a class again."""
    pending = deque([node])
    while pending:
        node = pending.popleft()
        kind = node.__class__
        fields = _WALKED_FIELDS.get(kind)
        if fields is None:
            fields = _WALKED_FIELDS[kind] = tuple(name for name in kind._fields if name not in ("ctx", "op", "ops"))
        for name in fields:
            value = getattr(node, name, None)
            if value.__class__ is list:
                pending.extend(item for item in value if isinstance(item, ast.AST))
            elif isinstance(value, ast.AST):
                pending.append(value)
        yield node


def node_fields(kind: type) -> tuple[str, ...]:
    """The fields of a node class that can hold nodes or lists of them."""
    fields = _NODE_FIELDS.get(kind)
    if fields is None:
        fields = _NODE_FIELDS[kind] = () if kind is ast.Constant else tuple(
            name for name in kind._fields if name not in SCALAR_FIELDS)
    return fields


# Uses of a whole `self.__dict__` (or `vars(self)`, `asdict(self)`) that read no attribute: a debug
# representation, state moved to another object, or a lookup of a name that normal lookup did not find.
DEBUG_METHODS = {"__repr__", "__str__", "__format__", "__rich_repr__", "__rich__", "__dir__", "repr", "describe",
                 "print", "log"}
DEBUG_PREFIXES = ("print_", "log_", "dump_", "_print_", "_log_", "_dump_", "debug_", "_debug_")
STATE_METHODS = {"__getstate__", "__setstate__", "__copy__", "__deepcopy__", "__reduce__", "__reduce_ex__"}
VALUE_GETTERS = {"getattr", "object.__getattribute__"}  # of STRING_READERS, those that return the value
SETTERS = {"setattr", "object.__setattr__"}
TASK_MAKERS = {"create_task", "ensure_future"}
EVALUATORS = {"eval", "exec", "compile"}
MAX_CODE_STRING = 2000  # longer strings are not parsed as code: prose, templates, data
DEBUG_CALLS = {"print", "pprint", "pformat", "repr", "str", "format", "pprint.pprint", "pprint.pformat"}
LOG_METHODS = {"debug", "info", "warning", "warn", "error", "exception", "critical", "log", "format"}
KEYED_DICT_METHODS = {"get", "setdefault", "pop"}
WRITING_DICT_METHODS = {"update", "__setitem__", "clear"}
# Statement-level calls that only change the object an attribute holds: a read that feeds the attribute itself.
MUTATORS = {"append", "extend", "insert", "add", "update", "appendleft", "extendleft", "discard", "remove",
            "setdefault", "clear", "pop", "popleft"}
ADDERS = {"append", "appendleft", "insert", "extend", "add"}  # mutators that add objects to a container
# weak references calling back when their object dies, which they do only while they are alive themselves
CALLBACK_REFERENCES = {"weakref.ref", "weakref.WeakMethod", "weakref.KeyedRef"}  # the callback second
FAILING_MUTATORS = {"remove", "pop", "popleft"}  # fail where the item is absent (a `pop` with a default does not)
LOOKUP_ERRORS = {"KeyError", "ValueError", "IndexError", "LookupError", "Exception", "BaseException"}
FRESH_CALLS = {"list", "dict", "set", "frozenset", "tuple", "deque", "defaultdict", "OrderedDict", "Counter",
               "bytearray", "int", "float", "str", "bool", "object", "collections.deque",
               "collections.defaultdict", "collections.OrderedDict", "collections.Counter"}
FRESH_VALUES = (ast.Constant, ast.List, ast.Dict, ast.Set, ast.Tuple, ast.ListComp, ast.SetComp, ast.DictComp,
                ast.GeneratorExp, ast.JoinedStr, ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.Lambda)
# annotations that say nothing of the class of the value
UNTYPED_ANNOTATIONS = {"Any", "object", "Self", "TypeVar"}
UNION_ANNOTATIONS = {"Optional", "Union"}
PERCENT_KEY = re.compile(r"%\((\w+)\)")  # the mapping keys of a %-format: "%(name)s"
# class docstrings listing attributes: a section such as Google's `Attributes:` (or `Members:`, `Accessible
# attributes:`), NumPy's `Attributes` over a rule, and Sphinx fields
ATTRIBUTE_SECTION = re.compile(
    r"^(\s*)(?:[A-Za-z]+ )*(?:[Aa]ttributes|[Mm]embers|[Ii]nstance variables)(?: [a-z]+)*:\s*$")
NUMPY_RULE = re.compile(r"^\s*-{3,}\s*$")
# a table of attributes, its first column headed `Attribute` and ruled off from its rows by dashes or `=`s (a
# reStructuredText simple table): `Attribute  Position  Value` over `---------  --------  -----`
TABLE_HEADER = re.compile(r"^\s*[Aa]ttributes?\s{2,}\S.*$")  # more columns than one: NumPy's section has one
TABLE_RULE = re.compile(r"^\s*(?:-{3,}|={3,})(?:\s+(?:-{3,}|={3,}))*\s*$")
TABLE_ROW = re.compile(r"^\s*(\w+)(?:\s{2,}\S|\s*$)")
ATTR_ROLE = r":attr:`~?(?:[\w.]*\.)?"  # a Sphinx `:attr:` role up to the attribute's own name
# Sphinx's attribute fields, directives (`.. attribute:: name` or `Class.name`, and `.. data::`, which
# documents a class's data as readers see it; reStructuredText allows a space before the `::`) and roles: in a
# docstring, or a page of the project's documentation
SPHINX_ATTRIBUTE = re.compile(
    rf"(?::(?:ivar|cvar|var)\s+(?:[^:]*\s)?|\.\.\s+(?:py:)?(?:attribute|data) ?::\s+(?:\w+\.)*|{ATTR_ROLE})(\w+)")
# A page of HTML a tool built, a copy of its source pages and of the package's own code where it shows that
# (Sphinx's `_modules`): one that names its generator in a meta tag (docutils, MkDocs, pdoc), links to Sphinx's
# `_static/` folder, or credits a tool in a link ("Created using <a ...>Sphinx</a>", "Generated by <a ...>")
# (Each pattern's repeats are bounded or stop at a line's end, so that a page cannot make a search quadratic.)
BUILT_HTML = re.compile(r"<meta[^>]{0,200}name=[\"']?generator\b|(?:src|href)=[\"'][^\"'>]{0,200}_static/"
                        r"|(?:generated by|created using)(?:\s|&#160;|&nbsp;){0,20}<a\b", re.IGNORECASE)
HTML_SUFFIXES = (".html", ".htm")
HTML_CODE_TAG = re.compile(r"<(/?)(?:tt|code|pre|kbd|samp)\b[^<>]{0,200}>", re.IGNORECASE)
HTML_TAG = re.compile(r"<[^<>]{0,200}>")
INLINE_LITERAL = re.compile(r"``([^\n]+?)``|`([^`\n]+)`")  # reStructuredText's and Markdown's
FENCE = ("```", "~~~")
LITERAL_BLOCK_START = re.compile(r"::\s*$|^\s*\.\.\s+(?:code-block|code|sourcecode|doctest|testcode)::")
# an attribute the code reads: `.name` after a name, a call or a subscript; of two characters or more, so that
# the `e.g.` and `i.e.` of prose read nothing
CODE_ATTRIBUTE = re.compile(r"(?<=[\w)\]])\.([A-Za-z_]\w+)")
# users' code making an object of a class, `article = Article(url)`, `page = pkg.Page()`: a name and the class
MADE_OBJECT = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*=\s*(?:[A-Za-z_]\w*\.)*([A-Z]\w*)\(")
# and an attribute of a name read, neither called nor assigned: `article.authors`, not `article.parse()`
NAME_ATTRIBUTE_READ = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\.([A-Za-z_]\w*)\b(?!\s*(?:\(|=(?!=)))")
# a class docstring's list of names: an item naming one (`* ``up_left`` -- corner piece`, `- origin: the header`),
# or a definition list's term (a line holding one name, over its indented description)
LIST_ITEM = re.compile(r"^\s*[*+-]\s+(?:``?(\w+)``?(?![\w`])|(\w+)(?:\s*(?::|--|\s-\s|\s\u2013\s)|\s{2,}\S|\s+\())")
DEFINITION_TERM = re.compile(r"^\s*(`{0,2})(\w+)\1\s*$")
# a Sphinx field naming a parameter (`:param name:`, `:param str name:`, `:type name:`): in a class docstring, one
# naming no argument of a constructor that takes no `**kwargs` describes an attribute
SPHINX_PARAMETER = re.compile(r"^\s*:(?:param|parameter|arg|argument|type)\s+(?:[^:\n]*\s)?(\w+)\s*:",
                              re.MULTILINE)
# an attribute any docstring names for its readers: a Sphinx `:attr:` role, a class's attribute quoted as code
# (``InteractiveParser.result``, `Config.verbose`; or in prose, `PROSE_REFERENCE`), a quoted name called an
# attribute ("the 'x509' attribute"), or one named on `self` ("available as self.localaddress"); each pattern with
# the text it cannot match without, so that a docstring is searched only for the forms it may hold, and whether it
# is Sphinx markup
ATTRIBUTE_REFERENCES = (
    (":attr:`", re.compile(rf"{ATTR_ROLE}(\w+)`"), True),
    ("`", re.compile(r"(?<![\w`])``?[A-Z]\w*\.([a-z_]\w*)``?(?![\w`])"), False),
    ("attribute", re.compile(r"(?<![\w'\"`])['\"`]{1,2}(\w+)['\"`]{1,2}\s+attribute\b"), False),
)
# prose listing attributes by name: "The instance has attributes ``cat``, ``cluster`` and ``tasks``" (a
# separator holds no quote, so that the list is read in one way only)
QUOTED = r"['\"`]{1,2}\w+['\"`]{1,2}"
ATTRIBUTE_LIST = re.compile(rf"\b[Aa]ttributes?\s+({QUOTED}(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+){QUOTED})*)")
QUOTED_NAME = re.compile(r"['\"`]{1,2}(\w+)['\"`]{1,2}")
# a class's attribute named in a docstring's prose: "the errors are stored in Ellipsoid.va_error", not a chain of
# names (`Shape.fit.residue`)
PROSE_REFERENCE = re.compile(r"(?<![\w`.])[A-Z]\w*\.([a-z_]\w*)(?!\w|\.\w)")
SELF_REFERENCE = re.compile(r"(?<![\w.])self\.([A-Za-z_]\w*)")
# a line of a docstring's example: `>>> code` or its continuation `... code`
DOCTEST_PROMPT = re.compile(r"^\s*(>>>|\.\.\.)(?: (.*))?$")
# an entry of a section: `name: text`, `name (type): text`, `name    text` (a table), `name (text)`, `name` or
# `.name` alone; the name marked up or not (`*name*`, `**name**`, ` ``name`` `: `- *name* -- text`)
MARKUP = r"(?:\*{1,2}|`{1,2})?"
ENTRY = re.compile(rf"^(\s*)(?:[-*+]\s+|\.)?{MARKUP}(\w+){MARKUP}"
                   r"(?:\s*(?:\(.*\))?\s*:|\s{2,}\S|\s+\(|\s+(?:--|-|\u2013)\s|\s*$)")
NUMPY_ENTRY = re.compile(r"^(\s*)(\w+)\s*(?::.*)?$")


def dotted_name(node: ast.expr) -> str | None:
    kind = node.__class__
    if kind is ast.Name:  # the most asked: a name, or an attribute of one
        return node.id
    if kind is ast.Attribute and node.value.__class__ is ast.Name:
        return f"{node.value.id}.{node.attr}"
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
    if isinstance(node, ast.Dict):  # `__slots__ = {"name": "its docstring"}`: the keys
        return [s for key in node.keys if key is not None for s in listed_strings(key)]
    return []


def declared_names(node: ast.expr | None) -> list[str]:
    """The names the calls of a class body's value are given first, as strings, through lists and tuples:
    `[ByteField("tfv", 0), StrField("mac", b"")]` -> tfv, mac."""
    if isinstance(node, (ast.Tuple, ast.List)):
        return [name for element in node.elts for name in declared_names(element)]
    first = node.args[0] if isinstance(node, ast.Call) and node.args else None
    name = string_value(first) if first is not None else None
    return [name] if name is not None and name.isidentifier() else []


def stored(target: ast.expr, kind: type[ast.expr]) -> list:
    """The nodes of `kind` an assignment target stores to, through tuples, lists and stars."""
    if isinstance(target, kind):
        return [target]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [node for element in target.elts for node in stored(element, kind)]
    if isinstance(target, ast.Starred):
        return stored(target.value, kind)
    return []


def attribute_targets(target: ast.expr) -> list[ast.Attribute]:
    """Attributes stored to by an assignment target."""
    return stored(target, ast.Attribute)


def path_start(node: ast.expr) -> tuple[str | None, str | None]:
    """The name a chain of attributes and string keys starts at, and its first step:
    `self._config['pipe'].stage` -> ("self", "_config"); `pipe` -> ("pipe", None); (None, None) for any other
    expression (calls, integer subscripts, ...)."""
    step = None
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        step = node.attr if isinstance(node, ast.Attribute) else string_value(node.slice)
        if step is None:
            return None, None
        node = node.value
    return (node.id if isinstance(node, ast.Name) else None), step


def path_root(node: ast.expr) -> str | None:
    """The name a chain of attributes and string keys starts at: `self._config['pipe'].stage` -> "self"."""
    return path_start(node)[0]


def base_name(node: ast.expr) -> str | None:
    """A class base as a dotted name; `Base[T]` is `Base`."""
    return dotted_name(node.value if isinstance(node, ast.Subscript) else node)


def class_bases(node: ast.ClassDef) -> tuple[list[str | None], str | None]:
    """A class's bases and metaclass as dotted names, those given through `six.with_metaclass(Meta, Base)` too."""
    bases: list[str | None] = []
    metaclass = next((base_name(k.value) for k in node.keywords if k.arg == "metaclass"), None)
    for base in node.bases:
        if isinstance(base, ast.Call) and is_with_metaclass(dotted_name(base.func)) and base.args:
            metaclass = base_name(base.args[0])
            bases.extend(base_name(b) for b in base.args[1:])
        else:
            bases.append(base_name(base))
    return bases, metaclass


def keyed_access(node: ast.AST) -> tuple[str, ast.expr] | None:
    """`base['K']`, `base.K`, `base.get('K')`, `getattr(base, 'K')` -> (K, base): the reads SS103 follows."""
    if isinstance(node, ast.Subscript):
        key = string_value(node.slice)
        return (key, node.value) if key is not None else None
    if isinstance(node, ast.Attribute):
        return node.attr, node.value
    if isinstance(node, ast.Call) and not node.keywords:
        func, arguments = node.func, node.args
        if isinstance(func, ast.Attribute) and func.attr == "get" and 1 <= len(arguments) <= 2:
            key = string_value(arguments[0])
            return (key, func.value) if key is not None else None
        if isinstance(func, ast.Name) and func.id == "getattr" and 2 <= len(arguments) <= 3:
            key = string_value(arguments[1])
            return (key, arguments[0]) if key is not None else None
    return None


def called_name(func: ast.expr) -> str | None:
    """The last name of what a call calls: `create_task` of `loop.create_task`, `f` of `f`; None for anything
    else (`f()()`, `d["k"]()`)."""
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def is_task_made(value: ast.expr) -> bool:
    """`asyncio.create_task(...)`, `loop.create_task(...)`, `asyncio.ensure_future(...)`: a task the event loop
    holds only weakly, which the reference it is stored in keeps from being collected mid-run."""
    return isinstance(value, ast.Call) and called_name(value.func) in TASK_MAKERS


def is_fresh(value: ast.expr | None) -> bool:
    """A value made by the assignment itself (a literal, a display, arithmetic, a constructor call), never an
    object held elsewhere too."""
    if isinstance(value, FRESH_VALUES):
        return True
    if isinstance(value, ast.Call):
        callee = dotted_name(value.func)
        return callee in FRESH_CALLS or constructor_of(callee) is not None
    return False


def annotation_classes(node: ast.expr | None) -> set[str] | None:
    """The classes an annotation says a value is of, by short name: `Engine`, `Optional["Engine"]`,
    `A | B | None`; None where it says anything else (`list[A]`, `Any`, `Callable[...]`)."""
    if node is None:
        return None
    if isinstance(node, ast.Constant):
        if node.value is None:
            return set()
        if not isinstance(node.value, str):
            return None
        try:
            node = ast.parse(node.value.strip(), mode="eval").body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        return annotation_classes(node)
    if isinstance(node, (ast.Name, ast.Attribute)):
        name = dotted_name(node)
        short = name.rsplit(".", 1)[-1] if name else None
        return None if short is None or short in UNTYPED_ANNOTATIONS else {short}
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        parts = [annotation_classes(node.left), annotation_classes(node.right)]
    elif isinstance(node, ast.Subscript) and (dotted_name(node.value) or "").rsplit(".", 1)[-1] in UNION_ANNOTATIONS:
        elements = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        parts = [annotation_classes(element) for element in elements]
    else:
        return None
    if any(part is None for part in parts):
        return None
    return set().union(*parts)


REPLACEMENT_FIELD = re.compile(r"\{[^{}]*\}")  # of `str.format`, whole (facts.FORMAT_FIELD takes its name)
PERCENT_FIELD = re.compile(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]")


def formatted_template(node: ast.expr) -> str | None:
    """A constant string formatted by `.format(...)` or `%`, its fields as `*`; None for anything else."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"
            and isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str)):
        return REPLACEMENT_FIELD.sub("*", node.func.value.value)
    if (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant)
            and isinstance(node.left.value, str)):
        return PERCENT_FIELD.sub("*", node.left.value)
    return None


def name_patterns(node: ast.expr, part: Callable[[ast.expr], list[str] | None] | None = None) -> list[str] | None:
    """The names a computed attribute name can spell, as glob patterns of its constant parts:
    `f"_{name}"` -> ["_*"], `prefix + "_ema"` -> ["*_ema"], `"a" if c else "b"` -> ["a", "b"],
    `"_preferred_{}".format(kind)` and `"_preferred_%s" % kind` -> ["_preferred_*"], `"_".join([a, "x"])` ->
    ["*_x"]; None where nothing of it is constant. `part` spells the names and attributes in it where it can
    (a descriptor's bound name, say), and they are `*` where it cannot."""
    kind = node.__class__
    if kind is ast.Constant:
        return [node.value] if isinstance(node.value, str) else None  # type: ignore[attr-defined]
    if part is not None and (kind is ast.Name or kind is ast.Attribute) and (spelt := part(node)) is not None:
        return spelt
    template = formatted_template(node)
    if template is not None:
        return None if template.strip("*") == "" else [re.sub(r"\*+", "*", template)]
    if isinstance(node, ast.IfExp):
        body, orelse = name_patterns(node.body, part), name_patterns(node.orelse, part)
        return body + orelse if body is not None and orelse is not None else None
    if isinstance(node, ast.JoinedStr):
        parts = [[v.value] if isinstance(v, ast.Constant) else name_patterns(v.value, part) or ["*"]
                 for v in node.values]
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        parts = [name_patterns(node.left, part) or ["*"], name_patterns(node.right, part) or ["*"]]
    elif kind is ast.Call and (separator := joined_separator(node)) is not None:
        parts = []
        for position, item in enumerate(node.args[0].elts):  # type: ignore[attr-defined]
            parts.extend([[separator]] if position else [])
            parts.append(name_patterns(item, part) or ["*"])
    else:
        return None
    patterns = [""]
    for options in parts:
        patterns = [p + o for p in patterns for o in options]
    patterns = [re.sub(r"\*+", "*", p) for p in patterns]
    return None if all(p == "*" for p in patterns) else patterns


def is_super_call(node: ast.expr) -> bool:
    """`super()`, or `super(Cls, self)`: the receiver, looked up from its class's base."""
    return isinstance(node, ast.Call) and dotted_name(node.func) == "super"


def tests_python_version(test: ast.expr) -> bool:
    """`sys.version_info < (3, 11)`, `sys.version.startswith("3.13")`, ...: code for some Pythons only."""
    return any(node.__class__ in (ast.Attribute, ast.Name) and dotted_name(node) in PYTHON_VERSION_NAMES
               for node in walk(test))


def joined_separator(node: ast.expr) -> str | None:
    """The separator of `"_".join([a, b])` over a literal list or tuple; None for anything else."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join"
            and isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str)
            and len(node.args) == 1 and not node.keywords and isinstance(node.args[0], (ast.List, ast.Tuple))
            and node.args[0].elts and not any(isinstance(item, ast.Starred) for item in node.args[0].elts)):
        return node.func.value.value
    return None


# placeholder patterns of names known only at the module's end: glob patterns no attribute name matches, whose
# "." begins no class name (no `attribute_marker` shares them); LISTED_MARK's are the index's too (facts.py)
PARAMETER_MARK = "\0.parameter\0"
RETURNED_MARK = "\0.returned\0"
SIGNATURE_CALLS = ("inspect.signature", "signature")


def returned_marker(method: str) -> str:
    """The names a loop over what `self.method()` returns takes, until every method of the module is seen."""
    return f"{RETURNED_MARK}{method}*"


def listed_marker(name: str) -> str:
    """The names a loop over `self.NAME` takes, until every class body of the module is seen."""
    return f"{LISTED_MARK}{name}*"


def caught_names(caught: ast.expr | None) -> set[str]:
    """The short names of the exceptions an `except` clause names: `except (ImportError, socket.error):`."""
    types = caught.elts if isinstance(caught, ast.Tuple) else [caught] if caught is not None else []
    return {(dotted_name(t) or "").rpartition(".")[2] for t in types}


def catches_import_error(caught: ast.expr | None) -> bool:
    """`except ImportError:`, `except (ImportError, AttributeError):`: what it imports replaces a failed import."""
    return bool(caught_names(caught) & IMPORT_ERRORS)


def chain_callee(value: ast.expr | None) -> str | None:
    """The dotted name a call calls; for a chain of method calls on a call, the first call's:
    `traitlets.Dict().tag(sync=True)` is made by `traitlets.Dict` (a builder's methods return the object)."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and \
            isinstance(value.func.value, ast.Call):
        value = value.func.value
    return dotted_name(value.func) if isinstance(value, ast.Call) else None


def block_key(owner: ast.AST, field: str) -> int:
    """A list of statements by the position of the statement (or `case`) holding it, and which of its lists it
    is: the same in a file and in any excerpt of it, which keeps the headers around what it keeps."""
    placed = owner.pattern if isinstance(owner, ast.match_case) else owner
    line, col = getattr(placed, "lineno", 0), getattr(placed, "col_offset", 0)
    return (line << 16) | (min(col, 0x3FFF) << 2) | STATEMENT_LISTS.index(field)


def first_item(name: str) -> str:
    """The key under which a function's strings are those `name[0]` can be (`name` a row of a loop)."""
    return f"{name}[0]"


def first_item_of(node: ast.expr) -> str | None:
    """`row[0]` -> "row"."""
    if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and isinstance(node.slice, ast.Constant)
            and type(node.slice.value) is int and node.slice.value == 0):
        return node.value.id
    return None


def parameter_marker(function: str, position: int, name: str, each: bool) -> str:
    """The names a function's parameter is given (`each`: the strings of the containers it is given) by the
    calls of the module, until all of them are seen."""
    return f"{PARAMETER_MARK}{function}\0{position}\0{name}\0{int(each)}*"


def attribute_marker(cls: str, attribute: str) -> str:
    """The placeholder of the part `self.attribute` of a name computed in `cls` (`getattr(obj, self.attribute)`,
    `"_" + self.attribute`), until the class's writes of the attribute are all seen: a glob pattern no attribute
    name matches, which may stand inside a longer one."""
    return f"\0{cls}\0{attribute}\0*"


MAX_SPELT_NAMES = 64  # the names one computed name may spell before its unknown parts are left as `*`


def spelt_names(pattern: str, token: re.Pattern[str], spelt: Mapping[str, set[str] | None]) -> list[str]:
    """The patterns a computed name's pattern stands for once each placeholder `token` matches (whose group is
    an attribute) is spelt as `spelt` gives that attribute: a name that is only the placeholder spells nothing
    where the attribute's writes are not all spelt; a part of a longer name is `*` there."""
    done: list[str] = []
    pending: list[tuple[str, frozenset[str]]] = [(pattern, frozenset())]  # with the attributes spelt to get there
    while pending:
        current, through = pending.pop()
        found = token.search(current)
        if found is None:
            collapsed = re.sub(r"\*+", "*", current)
            if collapsed.replace("*", ""):
                done.append(collapsed)
            continue
        attribute = found.group(1)
        options = spelt.get(attribute)
        if options is None and found.group(0) == current:
            continue
        # an attribute spelt through itself (`self.a = "x" + self.a`) is any name there
        if options is None or attribute in through or len(done) + len(pending) > MAX_SPELT_NAMES:
            options = {"*"}
        pending.extend((current[:found.start()] + option + current[found.end():], through | {attribute})
                       for option in options)
    return sorted(set(done))


def indentation(line: str) -> int:
    """How far a line is indented."""
    return len(line) - len(line.lstrip())


def docstring_attributes(doc: str) -> set[str]:
    """Attributes a class docstring lists: a section such as Google's `Attributes:`, a NumPy `Attributes`
    section, Sphinx `:ivar name:` fields and `.. attribute:: name` directives."""
    found = set(SPHINX_ATTRIBUTE.findall(doc))
    lines = doc.expandtabs().splitlines()

    def numpy_header(at: int) -> bool:
        return at + 1 < len(lines) and lines[at].strip().isidentifier() and bool(NUMPY_RULE.match(lines[at + 1]))

    for number, line in enumerate(lines):
        if TABLE_HEADER.match(line) and number + 1 < len(lines) and TABLE_RULE.match(lines[number + 1]):
            found.update(table_rows(lines[number + 2:], indentation(line)))
            continue
        section = bool(ATTRIBUTE_SECTION.match(line))
        numpy = line.strip() == "Attributes" and numpy_header(number)
        if not section and not numpy:
            continue
        indent, entry_indent = indentation(line), None
        for at in range(number + (2 if numpy else 1), len(lines)):
            entry = lines[at]
            if not entry.strip():
                continue
            if indentation(entry) < indent or (numpy and numpy_header(at)):
                break  # out of the section, or the next NumPy section
            entry_indent = indentation(entry) if entry_indent is None else entry_indent
            match = (ENTRY if section else NUMPY_ENTRY).match(entry)
            if section and indentation(entry) == indent and (entry_indent > indent or not match):
                break  # back at the header's indentation; a table at that indentation ends at its first other line
            if indentation(entry) == entry_indent and match:
                found.add(match.group(2))
    return found


def table_rows(lines: list[str], indent: int) -> Iterator[str]:
    """The first column of a table's rows, down to the blank line or rule that ends it: a row's name stands at
    the header's indentation; a line further in continues the row above."""
    for line in lines:
        if not line.strip() or TABLE_RULE.match(line) or indentation(line) < indent:
            return
        row = TABLE_ROW.match(line)
        if row and indentation(line) == indent:
            yield row.group(1)


def docstring_listed_names(doc: str) -> set[str]:
    """The names a docstring lists (`LIST_ITEM`, `DEFINITION_TERM`): a class's attributes, or its arguments."""
    lines = doc.expandtabs().splitlines()
    found = set()
    for number, line in enumerate(lines):
        if item := LIST_ITEM.match(line):
            found.add(item.group(1) or item.group(2))
        elif term := DEFINITION_TERM.match(line):
            description = next((text for text in lines[number + 1:] if text.strip()), "")
            if indentation(description) > indentation(line):
                found.add(term.group(2))
    return found


def only_keyed(function: ast.AST, name: str) -> bool:
    """Every use of the local `name` in the function looks one key up: `name[k]` (read, set or deleted),
    `name.get(k)` and the other keyed methods, `k in name`."""
    keyed: set[int] = set()
    for node in walk(function):
        if isinstance(node, ast.Subscript) or (isinstance(node, ast.Attribute) and node.attr in KEYED_USES):
            keyed.add(id(node.value))
        elif isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):
            keyed.add(id(node.comparators[0]))
    return all(id(node) in keyed for node in walk(function)
               if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load))


def doc_prose(doc: str) -> str:
    """A docstring but for its doctests: their `>>> ` and `... ` lines, and the output shown under them."""
    if ">>>" not in doc:
        return doc
    prose: list[str] = []
    example = False
    for line in doc.splitlines():
        if DOCTEST_PROMPT.match(line):
            example = True
        elif not line.strip():
            example = False
        if not example:
            prose.append(line)
    return "\n".join(prose)


def doc_examples(doc: str) -> Iterator[ast.Module]:
    """The examples of a docstring that parse as Python: its doctests (`>>> ` lines and their `... `
    continuations) and its code blocks (under a code directive or a line ending in `::`, or fenced)."""
    sources: list[str] = []
    if ">>>" in doc:
        for line in doc.splitlines():
            prompt = DOCTEST_PROMPT.match(line)
            if prompt and prompt.group(1) == ">>>":
                sources.append(prompt.group(2) or "")
            elif prompt and sources:
                sources[-1] += "\n" + (prompt.group(2) or "")
    if "::" in doc or "```" in doc or "~~~" in doc:
        sources.extend(dedented(block) for block in code_blocks(doc.splitlines(), fences=True))
    for source in sources:
        if len(source) <= MAX_CODE_STRING:
            try:
                yield ast.parse(source)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                continue


def parameters(function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> list[ast.arg]:
    arguments = function.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    return every + [star for star in (arguments.vararg, arguments.kwarg) if star]


Passed = dict[tuple[str, "int | str"], set[str]]  # (callee's name, position or keyword) -> strings


def passed_strings(tree: ast.Module, module_listed: Mapping[str, Iterable[str]],
                   bodies_listed: Mapping[str, Iterable[str]]) -> tuple[Passed, Passed]:
    """The strings the module's calls pass, by callee's name and position or keyword (`"index"`, `"a" if c
    else "b"`); and the strings of the containers they pass: literals, module names bound to them, and
    `self.NAME` where a class body of the module binds NAME to one."""
    strings: Passed = {}
    lists: Passed = {}
    for node in walk(tree):
        if not isinstance(node, ast.Call):
            continue
        callee = called_name(node.func)
        if callee is None:
            continue
        positional = itertools.takewhile(lambda pair: not isinstance(pair[1], ast.Starred), enumerate(node.args))
        for place, argument in [*positional, *((k.arg, k.value) for k in node.keywords if k.arg)]:
            if isinstance(argument, (ast.Constant, ast.IfExp)):
                found, into = bound_strings(argument), strings
            else:
                found, into = iterated_strings(argument), lists
                if found is None and isinstance(argument, ast.Name):
                    found = module_listed.get(argument.id)
                elif (found is None and isinstance(argument, ast.Attribute) and isinstance(argument.value, ast.Name)
                      and argument.value.id in ("self", "cls")):
                    found = bodies_listed.get(argument.attr)
            if found:
                into.setdefault((callee, place), set()).update(found)
    return strings, lists


@dataclass
class FunctionLocals:
    """What the names local to one function are bound to, so that reads on them can be told apart by class.

    A name is of known class when every binding of it in the function is a call of a class (`x = Engine()`) or
    an annotation naming classes (`engine: Engine`); any other binding (a plain parameter, a loop, `with`,
    another assignment, a closure's parameter) makes its reads reach every class."""

    candidates: dict[str, set[str]] = field(default_factory=dict)
    accepted: set[int] = field(default_factory=set)  # id() of the bindings that gave the candidates
    untyped: set[str] = field(default_factory=set)
    pending: list[tuple[str, str, str]] = field(default_factory=list)  # (local name, kind, name or pattern)
    strings: dict[str, set[str]] = field(default_factory=dict)  # local name -> the constant strings bound to it
    code: list[str] = field(default_factory=list)  # its string constants that may be code (they hold a `.`)
    evaluates: bool = False  # it calls `eval`, `exec` or `compile`: its strings may be the code they run
    signs: bool = False  # it calls `inspect.signature`
    parameters: frozenset[str] = frozenset()  # but the receiver: names its callers give it
    name: str = ""
    passed: tuple[str, ...] = ()  # the positional parameters in the order callers pass them (no receiver)
    listed: dict[str, list[str]] = field(default_factory=dict)  # local name -> the strings a literal lists
    receiver_names: set[str] = field(default_factory=set)  # loop names over `dir(self)`: any attribute's name
    dicts: dict[str, int] = field(default_factory=dict)  # local name -> the parameter whose `__dict__` it holds
    own_dicts: set[str] = field(default_factory=set)  # local names standing for the receiver's own `__dict__`
    definition: ast.AST | None = None  # the function's node
    options: str | None = None  # the `**` parameter: options its callers name
    bound_name: str | None = None  # in `__set_name__`: the parameter naming the attribute the descriptor is bound to
    stored: dict[str, set[str]] = field(default_factory=dict)  # local name -> attributes of self it is stored in
    handed: dict[str, set[tuple[str, str]]] = field(default_factory=dict)  # local name -> the calls it is given
    # to, as `ClassInfo.hands_to` names them (the import, the rest)
    # local name -> the class of the receiver an assignment binds it to (`c = self`, then `c = c.parent` in a
    # walk up a chain): what is read on it is read on the receiver too
    receivers: dict[str, str] = field(default_factory=dict)
    defined: set[str] = field(default_factory=set)  # the functions its own `def` statements make

    def bind(self, name: str, classes: set[str] | None, node: ast.AST) -> None:
        if classes:
            self.candidates.setdefault(name, set()).update(classes)
            self.accepted.add(id(node))
        else:
            self.untyped.add(name)

    def classes_of(self) -> dict[str, set[str]]:
        """Local name -> its classes, once the whole function is seen."""
        return {name: classes for name, classes in self.candidates.items() if name not in self.untyped}

    def unbind(self, name: str, node: ast.AST) -> None:
        """Any other binding of the name: a loop, `with`, an import, a lambda's parameter, ..."""
        if id(node) not in self.accepted:
            self.untyped.add(name)


def narrowed(test: ast.expr) -> dict[str, set[str]] | None:
    """`isinstance(x, A)`, `isinstance(x, (A, B))`, or one of them first in an `and`: {"x": {"A", "B"}}."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        test = test.values[0]
    if not (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance"
            and len(test.args) == 2 and isinstance(test.args[0], ast.Name)):
        return None
    kinds = test.args[1].elts if isinstance(test.args[1], ast.Tuple) else [test.args[1]]
    names = [dotted_name(kind) for kind in kinds]
    if not names or not all(names):
        return None
    return {test.args[0].id: {name.rsplit(".", 1)[-1] for name in names}}


def prefix_test(test: ast.expr) -> tuple[str, str] | None:
    """`name.startswith("_sa_")`: ("name", "_sa_")."""
    if (isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) and test.func.attr == "startswith"
            and isinstance(test.func.value, ast.Name) and len(test.args) == 1):
        prefix = string_value(test.args[0])
        return (test.func.value.id, prefix) if prefix else None
    return None


CONTAINER_TYPES = {"tuple", "list", "set", "frozenset"}  # a call of one makes a container of its argument's items


def iterated_strings(value: ast.expr | None) -> list[str] | None:
    """The strings a loop over a literal container takes: a tuple, list or set of strings only (or `tuple`,
    `frozenset`, ... of one), the keys of a dict of string keys, the words of a split string
    (`"width height".split()`); None for anything else."""
    if isinstance(value, ast.Call) and dotted_name(value.func) in CONTAINER_TYPES \
            and len(value.args) == 1:
        value = value.args[0]
    if (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "split"
            and (text := string_value(value.func.value)) is not None and not value.keywords
            and len(value.args) <= 1 and all(string_value(arg) for arg in value.args)):
        words = [word.strip() for word in text.split(*(string_value(arg) for arg in value.args))]
        return [word for word in words if word] or None
    if isinstance(value, (ast.Tuple, ast.List, ast.Set)):
        items: list[ast.expr | None] = list(value.elts)
    elif isinstance(value, ast.Dict):
        items = list(value.keys)
    else:
        return None
    strings = [item.value for item in items if isinstance(item, ast.Constant) and isinstance(item.value, str)]
    return strings if strings and len(strings) == len(items) else None


def row_strings(value: ast.expr | None) -> list[str] | None:
    """The first items of a literal container of rows, each a tuple or list beginning with a string:
    `(("name", _check_eq), ("icon", None))` -> name, icon; None for anything else."""
    if not isinstance(value, (ast.Tuple, ast.List)) or not value.elts:
        return None
    strings = []
    for row in value.elts:
        first = string_value(row.elts[0]) if isinstance(row, (ast.Tuple, ast.List)) and row.elts else None
        if first is None:
            return None
        strings.append(first)
    return strings


def bound_strings(value: ast.expr | None, part: Callable[[ast.expr], list[str] | None] | None = None) -> list[str]:
    """The names a value can spell, as `name_patterns` gives them: `"a"`, `"a" if c else "b"`,
    `options.get("k", "a")`, `f"{kind}_counter"`."""
    if value is None:
        return []
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in ("get", "pop") \
            and len(value.args) == 2:
        value = value.args[1]
    return name_patterns(value, part) or []


@dataclass
class ClassKeys:
    """SS103's cheap verdict on one class: the keys it copies into attributes of that name, and how often it
    reads each key off something other than the receiver itself; the words naming the seeds' configs, and the
    lines of its methods."""

    seeded: dict[str, set[str]] = field(default_factory=dict)  # key -> words of the configs it is copied from
    reads: Counter[str] = field(default_factory=Counter)
    methods: list[tuple[int, int]] = field(default_factory=list)  # first and last line of each method
    receivers: set[str] = field(default_factory=set)  # what the methods call their receiver: no config's name

    def read_again(self) -> set[str]:
        """Keys read besides the seed's own read: only those can be read in the seed's shadow."""
        return {key for key in self.seeded if self.reads[key] >= 2}

    def seeding_methods(self, source: SourceLines) -> list[tuple[int, int]]:
        """The methods that may add to what SS103's collector finds of the seeds read again. Each seed, each read of a
        config (of any key) and each assignment from one (`self.sub = self._config.sub`) names the config's
        first step (`_config` in `self._config.pipe`, or in `pipe = self._config.pipe` where a local name
        stands for it, or in `self._config = config` for a parameter); each other assignment of the
        attribute names the key."""
        keys = self.read_again()
        words = set(keys).union(*(self.seeded[key] for key in keys)) - self.receivers
        if not words:
            return []
        # as text anywhere in the line, not as a whole word: a few lines too many cost time, too few findings
        named = re.compile(b"|".join(re.escape(word.encode()) for word in sorted(words)))
        return [(first, last) for first, last in self.methods
                if any(named.search(source.line(number)) for number in range(first, last + 1))]


@dataclass
class MethodSeeds:
    """SS103's cheap verdict on one method (with its closures): the keys it may seed, once its local names are
    known. Owner and config of a seed must start at the receiver or at a local name bound to a path."""

    receiver: str
    bound: dict[str, set[tuple[str | None, str | None]]] = field(default_factory=dict)  # name -> path starts
    seeds: list[tuple[str, str | None, tuple[str | None, str | None]]] = field(default_factory=list)

    def keys(self) -> dict[str, set[str]]:
        """Seeded key -> the first steps from the receiver of the configs it is copied from."""
        roots = set(self.bound) | {self.receiver}
        found: dict[str, set[str]] = {}
        for key, owner, config in self.seeds:
            if owner in roots and config[0] in roots:
                found.setdefault(key, set()).update(self.first_steps(*config, set()))
        return found

    def first_steps(self, root: str | None, step: str | None, seen: set[str]) -> set[str]:
        """`pipe['K']` with `pipe = self._config.pipe` -> {"_config"}, through any chain of local names."""
        if root == self.receiver:
            return {step} if step else set()
        if root is None or root in seen:
            return set()
        starts = self.bound.get(root, ())
        return set().union(*(self.first_steps(start, first or step, seen | {root}) for start, first in starts))


def compared_attributes(test: ast.expr) -> list[str]:
    """Attributes on either side of a `!=` in an `if` test, through `and` and `or`, in source order."""
    if isinstance(test, ast.BoolOp):
        return list(dict.fromkeys(name for value in test.values for name in compared_attributes(value)))
    found: list[str] = []
    if isinstance(test, ast.Compare):
        sides = [test.left, *test.comparators]
        for at, operator in enumerate(test.ops):
            if isinstance(operator, ast.NotEq):
                found += [dotted_name(side) or "" for side in sides[at:at + 2] if isinstance(side, ast.Attribute)]
    return [name for name in dict.fromkeys(found) if name]


def appends_to_attribute(node: ast.AST) -> bool:
    """`X.L.append(...)` (or extend, insert) or `X.L += ...`."""
    if isinstance(node, ast.AugAssign):
        return isinstance(node.op, ast.Add) and isinstance(node.target, ast.Attribute)
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in APPENDERS
            and isinstance(node.func.value, ast.Attribute))


def appended_attributes(node: ast.AST) -> set[str]:
    """The attributes `appends_to_attribute` finds in the node: `L` of `X.L.append(...)`, `X.L += ...`."""
    return {(n.target if isinstance(n, ast.AugAssign) else n.func.value).attr  # type: ignore[union-attr]
            for n in walk(node) if appends_to_attribute(n)}


def naming_statements(cls: ast.ClassDef, names: set[str]) -> set[tuple[int, int]]:
    """The first and last lines of the simple statements of the class naming one of `names`, as an attribute or
    a name (a class attribute's binding): where the lists are bound, reset, handed out or aliased."""
    return {(statement.lineno, statement.end_lineno or statement.lineno) for statement in walk(cls)
            if isinstance(statement, ast.stmt) and not hasattr(statement, "body")
            and any(isinstance(n, ast.Attribute) and n.attr in names or isinstance(n, ast.Name) and n.id in names
                    for n in walk(statement))}


def underscore_test(test: ast.expr, name: str) -> bool | None:
    """True where the test holds for public names only (`not name.startswith("_")`, `name[0] != "_"`,
    `name[:1] != "_"`), False where for private names only; None for any other test."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = underscore_test(test.operand, name)
        return None if inner is None else not inner
    if (isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) and test.func.attr == "startswith"
            and isinstance(test.func.value, ast.Name) and test.func.value.id == name and len(test.args) == 1
            and string_value(test.args[0]) == "_"):
        return False
    if (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq))
            and string_value(test.comparators[0]) == "_" and isinstance(test.left, ast.Subscript)
            and isinstance(test.left.value, ast.Name) and test.left.value.id == name):
        cut = test.left.slice
        first = (isinstance(cut, ast.Constant) and cut.value == 0) or (
            isinstance(cut, ast.Slice) and cut.step is None and isinstance(cut.upper, ast.Constant)
            and cut.upper.value == 1
            and (cut.lower is None or isinstance(cut.lower, ast.Constant) and cut.lower.value == 0))
        return isinstance(test.ops[0], ast.NotEq) if first else None
    return None


def walked_container(iterable: ast.expr) -> tuple[ast.expr, bool]:
    """The mapping or container a loop walks, and whether it walks its items: `d` of `d.keys()`, `d` and True
    of `d.items()`, the iterable itself otherwise."""
    if (isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Attribute) and not iterable.args
            and iterable.func.attr in ("keys", "items")):
        return iterable.func.value, iterable.func.attr == "items"
    return iterable, False


def is_constructor_signature(node: ast.expr) -> bool:
    """`inspect.signature(obj.__init__)` (or of `type(obj)`, `obj.__class__`, `cls`): its parameters are the
    names an object was made with, which code reading them back looks up on it."""
    if not (isinstance(node, ast.Call) and len(node.args) == 1
            and dotted_name(node.func) in SIGNATURE_CALLS):
        return False
    made = node.args[0]
    return (isinstance(made, ast.Attribute) and made.attr in ("__init__", "__class__")
            or isinstance(made, ast.Call) and dotted_name(made.func) == "type"
            or isinstance(made, ast.Name) and made.id == "cls")


def returns_parameter_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Returns the names of a constructor's parameters, as scikit-learn's `_get_param_names` does: it takes
    `inspect.signature` of an `__init__` and returns `[p.name for p in parameters]` (sorted, or as it is)."""
    nodes = list(walk(function))
    return (any(isinstance(node, ast.Attribute) and node.attr == "__init__" for node in nodes)
            and any(isinstance(node, ast.Return) and node.value is not None and any(
                isinstance(part, (ast.ListComp, ast.SetComp, ast.GeneratorExp)) and isinstance(part.elt, ast.Attribute)
                and part.elt.attr == "name" for part in walk(node.value)) for node in nodes))


def parameters_of(node: ast.expr) -> ast.expr | None:
    """`S` of `S.parameters`, `S.parameters.keys()`, `S.parameters.items()` or `S.parameters.values()`."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args
            and node.func.attr in ("keys", "items", "values")):
        node = node.func.value
    return node.value if isinstance(node, ast.Attribute) and node.attr == "parameters" else None


def parameters_key(name: str) -> str:
    """The key under which a function's strings hold the constructor-parameters mark for a name bound to
    `inspect.signature(obj.__init__)`."""
    return f"{name}.parameters"


def parameter_name_key(name: str) -> str:
    """The key under which a function's strings are those `name.name` can be (`name` a `Parameter`)."""
    return f"{name}.name"


def walks_values(iterable: ast.expr) -> bool:
    """`d.values()`."""
    return (isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Attribute) and not iterable.args
            and iterable.func.attr == "values")


def walked_mapping(iterable: ast.expr) -> ast.expr:
    """The mapping a loop walks whichever view it takes: `d` of `d`, `d.keys()`, `d.items()`, `d.values()`."""
    if walks_values(iterable):
        return iterable.func.value
    return walked_container(iterable)[0]


def walked_name(target: ast.expr) -> str | None:
    """The name a loop over a mapping gives its keys: `name` in `for name in d`, `for name, value in d.items()`."""
    if isinstance(target, ast.Tuple) and target.elts:
        target = target.elts[0]
    return target.id if isinstance(target, ast.Name) else None


def loop_filter(body: list[ast.stmt]) -> ast.expr | None:
    """The test a loop's body runs under: the body is one `if` (`test`), or starts with `if test: continue`
    (`not test`)."""
    first = body[0] if body else None
    if not isinstance(first, ast.If):
        return None
    if len(body) == 1 and not first.orelse:
        return first.test
    if len(first.body) == 1 and isinstance(first.body[0], ast.Continue):
        negated = isinstance(first.test, ast.UnaryOp) and isinstance(first.test.op, ast.Not)
        return first.test.operand if negated else ast.UnaryOp(op=ast.Not(), operand=first.test)
    return None


def skips_private(target: ast.expr, body: list[ast.stmt]) -> bool:
    """A loop's body runs for public names only: it is one `if` on a public name, or starts with
    `if name.startswith("_"): continue`."""
    name, test = walked_name(target), loop_filter(body)
    return name is not None and test is not None and underscore_test(test, name) is True


def affix_pattern(test: ast.expr | None, name: str) -> str | None:
    """The names a test lets through, as a glob pattern: `name.endswith("key")` -> "*key", `name.startswith("on_")`
    -> "on_*", also as one side of an `and`."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return next((pattern for value in test.values if (pattern := affix_pattern(value, name))), None)
    if (isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute)
            and test.func.attr in ("startswith", "endswith") and isinstance(test.func.value, ast.Name)
            and test.func.value.id == name and len(test.args) == 1 and (affix := string_value(test.args[0]))):
        return f"{affix}*" if test.func.attr == "startswith" else f"*{affix}"
    return None


def names_of_object(iterable: ast.expr) -> bool:
    """`dir(x)`, `vars(x)`, `x.__dict__`, or the keys or items of the latter two: the names of an object's
    attributes."""
    container = walked_container(iterable)[0]
    if isinstance(container, ast.Attribute):
        return container.attr == "__dict__"
    return (isinstance(container, ast.Call) and dotted_name(container.func) in ("dir", "vars")
            and len(container.args) == 1 and not container.keywords)


def may_rebuild(node: ast.If) -> bool:
    """SS102's cheap verdict on an `if`: its test compares an attribute with `!=`, its block assigns that
    attribute, and appends to an attribute in a loop."""
    keys = compared_attributes(node.test)
    if not keys:
        return False
    inside = [n for statement in node.body for n in walk(statement)]
    targets = [t for n in inside if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign))
               for t in (n.targets if isinstance(n, ast.Assign) else [n.target])]
    if set(keys).isdisjoint(dotted_name(a) for target in targets for a in attribute_targets(target)):
        return False
    loops = (n for n in inside if isinstance(n, LOOPS))
    return any(appends_to_attribute(n) for loop in loops for n in walk(loop))


def first_word(method: str) -> str:
    return method.lstrip("_").split("_", 1)[0]


def is_dunder(method: str) -> bool:
    return method.startswith("__") and method.endswith("__")


def never_rebuilds(method: str, decorators: list[str]) -> bool:
    """SS102: a method that runs once per object, or adds what each call brings on purpose: constructors,
    dunders, cached, static and class methods, `add_*`/`register`/`on_*`/`partial_fit` and the like."""
    return (method in CONSTRUCTORS or is_dunder(method) or first_word(method) in ACCUMULATING_WORDS
            or method.lstrip("_").startswith("partial_")
            or any(name.rsplit(".", 1)[-1] in RUN_ONCE_DECORATORS for name in decorators))


def is_empty_list(node: ast.expr | None) -> bool:
    """`[]` or `list()`: a fresh, empty list."""
    if isinstance(node, ast.List):
        return not node.elts
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "list"
            and not node.args and not node.keywords)


CONTAINER_BUILDERS = {*CONTAINER_TYPES, "sorted"}


def is_built_container(value: ast.expr | None) -> bool:
    """A container built from data at run time, whose items are not spelt out: a comprehension, or `list(...)`,
    `sorted(...)` and the like of anything but a literal. (A name or a call of another function may hold what
    a caller chose, or what the package spells elsewhere.)"""
    if isinstance(value, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        return True
    return (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in CONTAINER_BUILDERS
            and len(value.args) == 1 and not isinstance(value.args[0], (ast.Tuple, ast.List, ast.Set, ast.Dict)))


def empty_list_targets(target: ast.expr, value: ast.expr | None) -> list[ast.expr]:
    """The targets an assignment binds to a fresh empty list, pairing `a, b = [], []` element by element."""
    if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)):
        if len(target.elts) != len(value.elts):
            return []
        return [t for pair in zip(target.elts, value.elts) for t in empty_list_targets(*pair)]
    return [target] if is_empty_list(value) else []


ITEM_STORES = {"__setitem__", "update", "setdefault"}


def is_named(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def stores_items(setattr_method: ast.FunctionDef | ast.AsyncFunctionDef, receiver: str) -> bool:
    """A `__setattr__` that stores the value as an item of the object, a mapping: `self[name] = value`,
    `self.__setitem__(name, value)`, `self.update({name: value})`, `super().__setitem__(...)`,
    `dict.__setitem__(self, ...)`, `setdefault` alike. Not `self.__dict__[name] = value` nor
    `object.__setattr__(self, ...)`: those store an attribute like any other."""
    for node in walk(setattr_method):
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(target, ast.Subscript) and is_named(target.value, receiver) for target in targets):
                return True
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ITEM_STORES:
            owner = node.func.value
            if is_named(owner, receiver) or is_super_call(owner):
                return True
            if node.args and is_named(node.args[0], receiver):  # `dict.__setitem__(self, ...)`, `dict.update(self)`
                return True
    return False


def mapping_owner(node: ast.expr) -> ast.expr | None:
    """`obj` of `obj.__dict__` or `vars(obj)`: the object whose attributes the mapping holds."""
    if isinstance(node, ast.Attribute) and node.attr == "__dict__":
        return node.value
    if isinstance(node, ast.Call) and dotted_name(node.func) == "vars" and len(node.args) == 1 and not node.keywords:
        return node.args[0]
    return None


def setattr_parameters(setattr_method: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, str, str] | None:
    """The names of `__setattr__(self, name, value)`'s three parameters, if it takes those."""
    positional = [*setattr_method.args.posonlyargs, *setattr_method.args.args]
    return (positional[0].arg, positional[1].arg, positional[2].arg) if len(positional) == 3 else None


def statements_for_most_names(body: list[ast.stmt], name: str) -> Iterator[ast.stmt]:
    """The statements of a `__setattr__` that run for every name but those a test lists: the body, and of an
    `if name in ("_id", "_world"):` (or `==`) its `else` branch, of `not in` (or `!=`) its body."""
    for statement in body:
        test = statement.test if isinstance(statement, ast.If) else None
        listed = test.comparators[0] if isinstance(test, ast.Compare) and len(test.ops) == 1 else None
        if listed is not None and is_named(test.left, name) \
                and (string_value(listed) is not None or iterated_strings(listed) is not None):
            listed_first = isinstance(test.ops[0], (ast.In, ast.Eq))
            yield from statements_for_most_names(statement.orelse if listed_first else statement.body, name)
        else:
            yield statement


def stores_as_attribute(node: ast.AST, receiver: str, name: str) -> bool:
    """`object.__setattr__(self, name, ...)`, `super().__setattr__(name, ...)`, `setattr(self, name, ...)` or
    `self.__dict__[name] = ...`: the value kept as the object's attribute, as without the hook."""
    if isinstance(node, ast.Call):
        setter = dotted_name(node.func) == "setattr" or (isinstance(node.func, ast.Attribute)
                                                         and node.func.attr == "__setattr__")
        if setter and is_super_call(getattr(node.func, "value", None)):
            return bool(node.args) and is_named(node.args[0], name)
        return setter and len(node.args) >= 2 and is_named(node.args[0], receiver) and is_named(node.args[1], name)
    return (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store)
            and dotted_name(node.value) == f"{receiver}.__dict__" and is_named(node.slice, name))


def in_another_object(target: ast.expr, receiver: str, name: str) -> bool:
    """An assignment target in what another object holds: two attributes or more down from the receiver
    (`self._world.components[kind]`), or not reached from it (a module's registry). Not an item under the
    name (`self._fields[name].value`): the object's own record of that attribute."""
    depth = 0
    while isinstance(target, (ast.Attribute, ast.Subscript)):
        if isinstance(target, ast.Subscript) and is_named(target.slice, name):
            return False
        depth += isinstance(target, ast.Attribute)
        target = target.value
    return not is_named(target, receiver) or depth >= 2


def hands_values_elsewhere(setattr_method: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A `__setattr__(self, name, value)` that, for every name but some it lists, stores the value in what
    another object holds (`self._world.components[kind][self] = value`: two attributes down from the receiver,
    or a module's registry) and does not keep it: no read by name can reach it there, and every write of the
    class is used. Not a mapping the object holds itself (`self._items[name] = value`), which is
    `mapping_storing_values`'s, nor `setattr(self._target, name, value)`: an attribute of that name still, of
    an object whose class may not read it."""
    if (named := setattr_parameters(setattr_method)) is None:
        return False
    receiver, name, value = named
    handed = False
    for statement in statements_for_most_names(setattr_method.body, name):
        for node in walk(statement):
            if stores_as_attribute(node, receiver, name):
                return False
            if isinstance(node, ast.Assign) and is_named(node.value, value):
                handed = handed or any(in_another_object(target, receiver, name) for target in node.targets
                                       if isinstance(target, (ast.Attribute, ast.Subscript)))
    return handed


def class_documentation(cls: ast.ClassDef) -> str | None:
    """The class's docstring; else a string statement of its body that documents no assignment, as a docstring
    placed after the nested classes does (generated code's `:ivar x:` lists)."""
    previous: ast.stmt | None = None
    for statement in cls.body:
        if isinstance(statement, ast.Expr) and (text := string_value(statement.value)) is not None \
                and not isinstance(previous, (ast.Assign, ast.AnnAssign)):
            return text
        previous = statement
    return None


def held_mapping(node: ast.expr, receiver: str) -> str | None:
    """`self.X` or `self.__dict__["X"]` -> "X": a mapping the object holds."""
    if isinstance(node, ast.Subscript) and dotted_name(node.value) == f"{receiver}.__dict__":
        return string_value(node.slice)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == receiver:
        return node.attr
    return None


def mapping_storing_values(setattr_method: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """"X" for a `__setattr__(self, name, value)` that keeps every value under its name in a mapping the object
    holds, in its body, not under a condition (a class storing only some names apart, its fields, keeps the
    others as attributes): as the item, `self.X[name] = value` (or `self.__dict__["X"][name] = value`), or
    handed to the item, `self.X[name].add(value)` or `self.X[name].value = value`. Assignments make items of X."""
    if (named := setattr_parameters(setattr_method)) is None:
        return None
    receiver, name, value = named

    def named_item(node: ast.expr) -> str | None:  # `self.X[name]` -> "X"
        if isinstance(node, ast.Subscript) and is_named(node.slice, name):
            held = held_mapping(node.value, receiver)
            return held if held != "__dict__" else None
        return None

    for node in setattr_method.body:
        if isinstance(node, ast.Assign) and is_named(node.value, value):
            for target in node.targets:
                held = named_item(target.value if isinstance(target, ast.Attribute) else target)
                if held is not None:
                    return held
        call = node.value if isinstance(node, ast.Expr) else None
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                and any(is_named(argument, value) for argument in call.args) \
                and (held := named_item(call.func.value)) is not None:
            return held
    return None


# calls on a mapping that take one key of it or store into it: no use of the values it holds
KEYED_USES = {"get", "pop", "setdefault", "__getitem__", "__contains__", "__delitem__", "__setitem__", "update",
              "clear"}


def uses_mapping_whole(cls: ast.ClassDef, mapping: str) -> bool:
    """A method of `cls` other than those that set or look up attributes uses the mapping `self.X` whole: copies,
    merges, iterates or returns it, rather than taking one key of it (`self.X[k]`, `self.X.get(k)`, `k in
    self.X`)."""
    for method in cls.body:
        if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) or not method.args.args \
                or method.name in {*LOOKUP_METHODS, "__setattr__", "__delattr__"}:
            continue
        receiver = method.args.args[0].arg
        keyed = set()
        for node in walk(method):
            if isinstance(node, ast.Subscript):
                keyed.add(id(node.value))
            elif isinstance(node, ast.Attribute) and node.attr in KEYED_USES:
                keyed.add(id(node.value))
            elif isinstance(node, ast.Compare) and isinstance(node.ops[0], (ast.In, ast.NotIn)):
                keyed.update(id(c) for c in node.comparators)
        for node in walk(method):
            if held_mapping(node, receiver) == mapping and id(node) not in keyed \
                    and not isinstance(getattr(node, "ctx", None), (ast.Store, ast.Del)):
                return True
    return False


def hands_out_assigned_values(cls: ast.ClassDef) -> bool:
    """Its `__setattr__` keeps each value in a mapping the object holds, which its other methods use whole: a
    record whose assignments are the changes it sends (`data.update(self._updated_attrs)`)."""
    setattr_method = next((statement for statement in cls.body if isinstance(statement, ast.FunctionDef)
                           and statement.name == "__setattr__"), None)
    mapping = mapping_storing_values(setattr_method) if setattr_method is not None else None
    return mapping is not None and uses_mapping_whole(cls, mapping)


def mentions_attribute(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Attribute) and dotted_name(n) == name for n in walk(node))


def appends_to(node: ast.AST, name: str) -> bool:
    """The node adds to the list `name` (`self.L`): `.append/extend/insert(...)` or `+=`, anywhere in it."""
    return any(appends_to_attribute(n) and dotted_name(n.target if isinstance(n, ast.AugAssign) else n.func.value)
               == name for n in walk(node))


def resets_list(statement: ast.stmt, name: str) -> bool:
    """`L = ...` not built from L (as SS102's collector counts a reset), or `L.clear()`."""
    if isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None:
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        return (any(dotted_name(a) == name for t in targets for a in attribute_targets(t))
                and not mentions_attribute(statement.value, name))
    call = statement.value if isinstance(statement, ast.Expr) else None
    return (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "clear"
            and not call.args and not call.keywords and dotted_name(call.func.value) == name)


def statement_parts(statement: ast.stmt) -> tuple[list[list[ast.stmt]], list[ast.AST]]:
    """The blocks of a statement (bodies, `else`, `finally`, handlers', cases'), and the rest of it: its
    headers (`if` tests, loop targets and iterables, `with` items, handler types, case patterns and guards)."""
    parts = (*getattr(statement, "handlers", ()), *getattr(statement, "cases", ()))
    blocks = [getattr(statement, name, None) or [] for name in STATEMENT_LISTS] + [part.body for part in parts]
    headers: list[ast.AST] = []
    for node in (statement, *parts):
        for name, value in ast.iter_fields(node):
            if name not in (*STATEMENT_LISTS, "handlers", "cases"):
                headers += [v for v in (value if isinstance(value, list) else [value]) if isinstance(v, ast.AST)]
    return blocks, headers


def reset_before_each_append(statements: list[ast.stmt], name: str, reset: bool = False) -> bool:
    """Every append to `name` in the block comes after a reset of it earlier in the same block or in one around
    it: what runs before it on every path (SS102's collector counts more resets than these, never fewer)."""
    for statement in statements:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue  # runs later, if at all: SS102's collector does not count its appends
        lists, headers = statement_parts(statement)
        if not any(lists):
            if not reset and appends_to(statement, name):
                return False
            reset = reset or resets_list(statement, name)
            continue
        if not reset and any(appends_to(header, name) for header in headers):
            return False
        if not all(reset_before_each_append(block, name, reset) for block in lists):
            return False
    return True


def bound_attributes(node: ast.FunctionDef | ast.AsyncFunctionDef, receiver: str) -> set[str]:
    """`X` of each `receiver.X = ...` (alone or unpacked), `for receiver.X in`, `with ... as receiver.X`: some of
    the bindings SS102's collector counts."""
    targets = []
    for n in walk(node):
        if isinstance(n, ast.Assign):
            targets += n.targets
        elif isinstance(n, ast.AnnAssign) and n.value is not None:
            targets.append(n.target)
        elif isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension)):
            targets.append(n.target)
        elif isinstance(n, ast.withitem) and n.optional_vars is not None:
            targets.append(n.optional_vars)
    found = set()
    for target in targets:
        for bound in (target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]):
            if isinstance(bound, ast.Attribute) and dotted_name(bound.value) == receiver:
                found.add(bound.attr)
    return found


def calls_outside(statements: list[ast.stmt], name: str, decides: Callable[[ast.expr], bool],
                  held: bool = False) -> Iterator[bool]:
    """False for each call of `name` (`self.m`) in the block held by a loop or an `if` that `decides`, True for
    each other; none for those in closures and lambdas, which SS102's collector does not walk."""
    for statement in statements:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        lists, headers = statement_parts(statement)
        yield from (not held for header in headers for n in walk_outside_lambdas(header)
                    if isinstance(n, ast.Call) and dotted_name(n.func) == name)
        if isinstance(statement, LOOPS):
            yield from calls_outside(statement.body, name, decides, True)
            yield from calls_outside(statement.orelse, name, decides, held)
        elif isinstance(statement, ast.If):
            inner = held or decides(statement.test)
            yield from calls_outside(statement.body, name, decides, inner)
            yield from calls_outside(statement.orelse, name, decides, inner)
        else:
            for block in lists:
                yield from calls_outside(block, name, decides, held)


def statements_outside_closures(statements: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of a block and of the blocks in it, not those of the functions and classes it defines."""
    for statement in statements:
        if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield statement
            for block in statement_parts(statement)[0]:
                yield from statements_outside_closures(block)


def walk_outside_lambdas(node: ast.AST) -> Iterator[ast.AST]:
    """The node and those in it, not in the lambdas, functions and classes it holds."""
    yield node
    for child in ast.iter_child_nodes(node):
        if not isinstance(child, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield from walk_outside_lambdas(child)


@dataclass
class KeptObjects:
    """SS101: the containers a class adds objects to through its receiver (`self.keeper.append(data)`), and
    whether it takes `id()` of objects. Where it does, those containers keep the objects alive, so that no id
    its tables are keyed by is reused while the tables hold it: adding to them is a use, not dead state."""

    added: set[str] = field(default_factory=set)
    takes_ids: bool = False


@dataclass
class LoopedLookups:
    """SS101: the list attributes a class loops over to look each name up on its object (`for name in
    self.fields_: getattr(self, name)`), and what its methods assign them: the strings of a literal
    (`self.fields_ = ["flags"]`), read in turn, or a list built from data at run time (`self.fields_ =
    [v["name"] for v in FIELDS.values()]`), whose names are not known, so that looking them all up reads every
    attribute (every public one, where the loop skips the names beginning with `_`)."""

    looked_up: dict[str, bool] = field(default_factory=dict)  # list attribute -> the loop skips `_x` names
    built: set[str] = field(default_factory=set)
    spelt: dict[str, set[str]] = field(default_factory=dict)
    given: dict[str, str] = field(default_factory=dict)  # list attribute -> the `__init__` parameter it holds

    def parameters_looked_up(self) -> list[str]:
        """The `__init__` parameters whose lists are looked up: what subclasses pass there (the index's)."""
        return sorted({self.given[name] for name in self.looked_up if name in self.given})

    def names_read(self) -> set[str]:
        return set().union(*(self.spelt.get(name, ()) for name in self.looked_up))

    def reads_every_attribute(self) -> bool | None:
        """None where no lookup is over a built list; else whether only the public attributes are read."""
        public = [public for name, public in self.looked_up.items() if name in self.built]
        return all(public) if public else None


@dataclass
class ClassLists:
    """SS102's cheap verdict on one class: the attributes it binds to an empty list, to something else (and
    where), takes entries out of, and those a method that may rebuild appends to in a loop (or extends) before
    any reset of its own in source order."""

    empty: set[str] = field(default_factory=set)
    other: dict[str, set[str]] = field(default_factory=dict)  # attribute -> methods ("" the class body)
    drained: set[str] = field(default_factory=set)  # `self.L.pop()`, `self.L.remove(x)`
    appended: set[tuple[str, str]] = field(default_factory=set)  # (method, attribute)
    callbacks: set[str] = field(default_factory=set)  # methods named without a call: handed out to run again
    calls: dict[str, set[str]] = field(default_factory=dict)  # method other than a constructor -> methods
    # it calls on the receiver
    called: set[str] = field(default_factory=set)  # names called on anything in the methods' own bodies
    callers: dict[str, set[str]] = field(default_factory=dict)  # method -> methods whose own bodies call it
    # the methods' definitions, each with its receiver
    defined: dict[str, list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, str]]] = field(default_factory=dict)
    state: set[str] | None = None  # attributes bound by methods other than constructors, once needed

    def runs_again(self, method: str, name: str, seen: frozenset[str] = frozenset()) -> bool:
        """A callback, or a method called by one that may run again: public, a dunder, a private one named by a
        rebuild protocol that nothing in the class calls (a hook its base runs), or itself called so (a private
        helper that only a one-off setup calls runs once)."""
        if method in self.callbacks:
            return True
        callers = [caller for caller, callees in self.calls.items()
                   if method in callees and caller not in seen and self.may_run_again_from(caller, method, name)]
        return any(not caller.startswith("_") or is_dunder(caller)
                   or (first_word(caller) in REBUILD_PROTOCOL and caller not in self.called)
                   or self.runs_again(caller, name, seen | {method}) for caller in callers)

    def may_run_again_from(self, caller: str, callee: str, name: str) -> bool:
        """Whether SS102's collector may find that `caller` runs `callee` again: it does not where each call is in a
        loop (run many times on purpose), in a closure, or under an `if` on state an earlier call left
        (`if self.offloaded: self._rebuild()`), or changed by a method that empties the list `name`, reading
        none of the caller's arguments or locals."""
        definitions = self.defined.get(caller)
        if not definitions:
            return True
        if self.state is None:
            self.state = {bound for method, found in self.defined.items() if method not in CONSTRUCTORS
                          for node, receiver in found for bound in bound_attributes(node, receiver)}
        marks = self.marks(name)
        for node, receiver in definitions:
            assigned = {n.attr for n in walk(node) if isinstance(n, ast.Attribute)
                        and isinstance(n.ctx, ast.Store) and dotted_name(n.value) == receiver}
            locals_ = {n.id for n in walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            locals_ |= {a.arg for a in walk(node.args) if isinstance(a, ast.arg)} - {receiver}

            def decides(test: ast.expr) -> bool:
                reads = {n.attr for n in walk(test) if isinstance(n, ast.Attribute) and dotted_name(n.value)
                         == receiver}
                names = {n.id for n in walk(test) if isinstance(n, ast.Name)}
                return bool((reads - assigned) & (self.state | marks)) and not names & locals_

            if any(calls_outside(node.body, f"{receiver}.{callee}", decides)):
                return True
        return False

    def marks(self, name: str) -> set[str]:
        """What the methods (other than constructors) that empty the list `name` bind or call methods of, itself
        aside: a test of it tells whether the list was emptied (`self.offloaded.add(...)`)."""
        found: set[str] = set()
        for method, definitions in self.defined.items():
            for node, receiver in definitions if method not in CONSTRUCTORS else ():
                statements = list(statements_outside_closures(node.body))
                if any(resets_list(statement, f"{receiver}.{name}") for statement in statements):
                    found |= bound_attributes(node, receiver) | {
                        n.func.value.attr for statement in statements for n in walk_outside_lambdas(statement)
                        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                        and isinstance(n.func.value, ast.Attribute) and dotted_name(n.func.value.value) == receiver}
        return found - {name}

    def runs_only_from_constructors(self) -> set[str]:
        """Methods called in the class only from constructors or from such methods, never named otherwise: as
        SS102's collector finds them, from the same calls (`callbacks` names more, so this finds no more)."""
        only: set[str] = set()
        changed = True
        while changed:
            changed = False
            for name in self.defined:
                callers = self.callers.get(name)
                # a method defined twice is walked once by SS102's collector: its calls may not count there
                if (name not in only and name not in CONSTRUCTORS and name not in self.callbacks and callers
                        and callers <= CONSTRUCTORS | only
                        and all(len(self.defined.get(caller, ())) == 1 for caller in callers)):
                    only.add(name)
                    changed = True
        return only

    def may_rebuild(self) -> bool:
        once: set[str] | None = None
        for method, name in self.appended:
            if not (name in self.empty and name not in self.drained and self.other.get(name, set()) <= {method}):
                continue
            if once is None:
                once = self.runs_only_from_constructors()
            if method in once:
                continue  # runs once per object, from the constructor or its helpers
            if not (not method.startswith("_") or (first_word(method) in REBUILD_PROTOCOL and method not in self.called)
                    or self.runs_again(method, name)):
                continue
            definitions = self.defined.get(method, [])
            if definitions and all(reset_before_each_append(node.body, f"{receiver}.{name}")
                                   for node, receiver in definitions):
                continue  # emptied on the way to each append
            return True
        return False


@dataclass
class MethodLists:
    receiver: str
    name: str
    never: bool  # `never_rebuilds`, or a generator
    top: set[int]  # id() of the statements of the method's body, and of the calls they are
    appended: set[str] = field(default_factory=set)  # before any reset
    reset: set[str] = field(default_factory=set)  # so far


class Summarizer(ast.NodeVisitor):
    def __init__(self, source: SourceLines) -> None:
        self.source = source
        self.version_guards = 0  # the `if` statements around the node that test Python's version
        self.scope = Scope()
        self.builder = FactsBuilder(self.scope)
        self.values: dict[int, ast.expr | None] = {}  # id(stored Attribute) -> its value when the target is single
        # id(stored Attribute) of a chained assignment's target beside one that is not the object's own attribute:
        # `self.a = other.b = {}` stores one object in both, so a change through one is seen through the other
        self.chained: set[int] = set()
        self.class_keys: list[ClassKeys] = []  # of the classes around the node, innermost last
        self.methods: list[MethodSeeds] = []  # of the methods around the node, innermost last
        self.docstring_before: set[int] = set()  # id() of assignments a string statement follows
        self.class_lists: list[ClassLists] = []  # of the classes around the node, innermost last
        self.kept: list[KeptObjects] = []  # of the classes around the node, innermost last
        self.looped: list[LoopedLookups] = []  # of the classes around the node, innermost last
        self.method_lists: list[MethodLists] = []  # of the methods around the node, innermost last
        self.rebuild_classes: set[str] = set()  # names of the classes a rebuild method may be in (SS102)
        # a guarded rebuild's `if`, its class's name and the lists it appends to (SS102)
        self.guarded: list[tuple[ast.If, str, set[str]]] = []
        self.class_nodes: dict[str, list[ast.ClassDef]] = {}  # class name -> each class of that name
        self.loops = 0  # loops and comprehensions around the node
        # the parameters of the lambdas around the node, innermost last (SS102's collector does not look into
        # lambdas, and a lambda's own parameters are named by callers the package does not see)
        self.lambda_parameters: list[set[str]] = []
        self.block = 0  # the statement list around the node (`block_key`)
        self.called: set[int] = set()  # id() of the attributes called, `self.m` in `self.m()`
        self.functions: list[FunctionLocals] = []  # of the functions around the node, innermost last
        self.module_code = FunctionLocals()  # the module level's strings that may be code
        # of the classes around the node, innermost last: attribute -> the names its every write through self
        # can spell (`self._private_name = f"_{name}"`), None where some write assigns anything else
        self.name_attributes: list[dict[str, set[str] | None]] = []
        # of the classes around the node: (public attribute, attribute of self) of `self.fit = self.englobe`
        self.method_aliases: list[list[tuple[str, str]]] = []
        self.module_listed: dict[str, list[str]] = {}  # module-level name -> the strings a literal bound to it lists
        self.bodies_listed: dict[str, set[str]] = {}  # the same, of every class body of the module
        self.passed: tuple[Passed, Passed] | None = None  # `passed_strings` of the module, once asked for
        self.parameter_name_methods: set[str] = set()  # methods returning their class's constructor parameters
        self.fed: set[int] = set()  # id() of `self.X` reads that only feed `self.X` itself
        self.whole_handled: set[int] = set()  # id() of `self.__dict__` uses already judged by their parent
        self.debug_depth = 0  # inside a debug representation: print(...), a log call, an f-string
        self.moving_depth = 0  # inside a value moved to another object's `__dict__`
        self.public_walks = 0  # inside a loop over names that skips those beginning with `_`
        self.restored_state: str | None = None  # `state` in `def __setstate__(self, state)`: the pickled `__dict__`
        self.lookup_caught = 0  # inside a `try` catching a failed lookup (visit_Try)
        self.narrowings: list[dict[str, set[str]]] = []  # names `isinstance` tells the class of, innermost last
        self.prefix_tests: list[tuple[str, str]] = []  # (name, prefix) of the `if name.startswith(prefix):` around
        text = source.source
        self.may_have_doc_comments = (b"#:" if isinstance(text, bytes) else "#:") in text
        self.said_used: set[int] | None = None  # lines whose comment says a write there is a use, once asked for
        self.handlers: dict[type, Callable[[ast.AST], None]] = {}
        # the signals (facts.Signals), as they are found
        self.guarded_loop = self.rebuild_method = False
        self.seeded: set[str] = set()
        self.seeding_methods: list[tuple[int, int]] = []

    # The walk is most of the pre-pass's cost, so it is `ast.NodeVisitor`'s made cheaper: one lookup of the
    # handler per node type, and no visit of the nodes that hold nothing to see (`Name`, `Load`, `Add`, ...).
    def visit(self, node: ast.AST) -> None:
        kind = node.__class__
        (self.handlers.get(kind) or self.handler(kind))(node)

    def handler(self, kind: type) -> Callable[[ast.AST], None]:
        handler = self.handlers.get(kind)
        if handler is None:
            handler = self.handlers[kind] = getattr(self, f"visit_{kind.__name__}", self.generic_visit)
        return handler

    def generic_visit(self, node: ast.AST) -> None:
        handlers = self.handlers
        fields = _NODE_FIELDS.get(node.__class__)
        for name in node_fields(node.__class__) if fields is None else fields:
            value = getattr(node, name, None)
            if value.__class__ is list:
                if name in STATEMENT_LISTS:  # the writes of one list of statements stand side by side
                    self.visit_statements(node, name)
                    continue
                for item in value:
                    kind = item.__class__
                    if kind not in NOT_WALKED:
                        (handlers.get(kind) or self.handler(kind))(item)
            elif value.__class__ not in NOT_WALKED:
                kind = value.__class__
                (handlers.get(kind) or self.handler(kind))(value)

    def visit_statements(self, owner: ast.AST, field: str) -> None:
        """One of a node's lists of statements, numbered (`block_key`) while it is walked: by the generic walk,
        and by the handlers that walk a list by hand."""
        outer, self.block = self.block, block_key(owner, field)
        for statement in getattr(owner, field):
            self.visit(statement)
        self.block = outer

    def _note_attribute_docstrings(self, node: ast.AST) -> None:
        """Assignments of the node's blocks that a string statement follows."""
        for name in STATEMENT_LISTS:
            statements = getattr(node, name, None) or []
            for statement, following in zip(statements, statements[1:]):
                if (isinstance(statement, (ast.Assign, ast.AnnAssign)) and isinstance(following, ast.Expr)
                        and string_value(following.value) is not None):
                    self.docstring_before.add(id(statement))

    def visit_block(self, node: ast.AST) -> None:
        self._note_attribute_docstrings(node)
        self.generic_visit(node)

    def visit_loop(self, node: ast.AST) -> None:
        self.loops += 1
        self.visit_block(node)
        self.loops -= 1

    def visit_comprehension_expression(
            self, node: ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp) -> None:
        self.loops += 1  # SS102: an append per element
        for generator in node.generators:  # before the element, which is visited first
            test = ast.BoolOp(op=ast.And(), values=generator.ifs) if generator.ifs else None
            self._bind_listed(generator.target, generator.iter, test)
        # `{k: v for k, v in vars(self).items() if not k.startswith("_")}` uses the public names only
        public = any(underscore_test(test, name) is True for generator in node.generators
                     if (name := walked_name(generator.target)) and self._walks_receiver(generator.iter)
                     for test in generator.ifs)
        self.public_walks += public
        self.generic_visit(node)
        self.public_walks -= public
        self.loops -= 1

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_comprehension_expression

    def visit_Module(self, node: ast.Module) -> None:
        self._note_references(ast.get_docstring(node, clean=False))
        self.visit_block(node)
        self._read_evaluated(self.module_code)

    visit_While = visit_loop
    visit_match_case = visit_block

    def visit_Try(self, node: ast.Try) -> None:
        """Under a `try` that catches a failed lookup (`except KeyError:`), a change that fails where the item is
        absent (`self.tags.remove(tag)`, `del self.pending[key]`) tells the code what the attribute holds."""
        catches = any(handler.type is None or caught_names(handler.type) & LOOKUP_ERRORS for handler in node.handlers)
        self.lookup_caught += catches
        self.visit_block(node)
        self.lookup_caught -= catches

    visit_TryStar = visit_Try

    # Bindings of local names other than `name = Cls(...)` and `name: Cls`: their reads reach every class.

    def _unbind(self, targets: list[ast.expr]) -> None:
        if self.functions:
            for name in (n for target in targets for n in stored(target, ast.Name)):
                self.functions[-1].unbind(name.id, name)

    def _unbind_named(self, names: list[str], everywhere: bool = False) -> None:
        for local in (self.functions if everywhere else self.functions[-1:]):
            local.untyped.update(names)

    def visit_For(self, node: ast.For | ast.AsyncFor) -> None:
        self._unbind([node.target])
        self._bind_listed(node.target, node.iter, loop_filter(node.body))
        public = self._walks_receiver(node.iter) and skips_private(node.target, node.body)
        self.public_walks += public
        self.visit_loop(node)
        self.public_walks -= public

    def visit_With(self, node: ast.With | ast.AsyncWith) -> None:
        self._unbind([item.optional_vars for item in node.items if item.optional_vars is not None])
        self.visit_block(node)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.name:
            self._unbind_named([node.name])
        fallback = catches_import_error(node.type)
        self.builder.import_fallback_depth += fallback
        self.visit_block(node)
        self.builder.import_fallback_depth -= fallback

    visit_AsyncFor, visit_AsyncWith = visit_For, visit_With

    def visit_comprehension(self, node: ast.comprehension) -> None:
        self._unbind([node.target])
        self.generic_visit(node)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self._unbind([node.target])
        self.generic_visit(node)

    def visit_arg(self, node: ast.arg) -> None:
        if self.functions:
            self.functions[-1].unbind(node.arg, node)
        self.generic_visit(node)

    def visit_Global(self, node: ast.Global | ast.Nonlocal) -> None:
        self._unbind_named(list(node.names), everywhere=True)

    visit_Nonlocal = visit_Global

    def visit_MatchAs(self, node: ast.MatchAs | ast.MatchStar) -> None:
        if node.name:
            self._unbind_named([node.name])
        self.generic_visit(node)

    visit_MatchStar = visit_MatchAs

    def visit_MatchMapping(self, node: ast.MatchMapping) -> None:
        if node.rest:
            self._unbind_named([node.rest])
        self.generic_visit(node)

    def _doc_comment(self, node: ast.stmt) -> bool:
        """A `#:` comment on the line above, at the statement's indentation, or at the end of its last line."""
        indent = self.source.line(node.lineno)[:node.col_offset]
        if node.lineno > 1 and not indent.strip() and self.source.line(node.lineno - 1).startswith(indent + b"#:"):
            return True
        return self.source.line(node.end_lineno)[node.end_col_offset:].lstrip(b" \t;").startswith(b"#:")

    def _documented(self, node: ast.Assign | ast.AnnAssign, targets: list[ast.expr]) -> None:
        """Sphinx attribute documentation of `self.X = ...`, or of `X = ...`/`X: T` in a class body, which
        documents the attribute of its instances too."""
        receiver = self.scope.receiver
        if self.scope.in_class_body:
            names = [target.id for target in targets if isinstance(target, ast.Name)]
            if names and self._has_attribute_doc(node):
                for name in names:
                    self.builder.documented(name)
            return
        if receiver is None:
            return
        stores = [a for target in targets for a in attribute_targets(target)]
        if any(dotted_name(a.value) == receiver for a in stores) and self._has_attribute_doc(node):
            for attribute in stores:
                self.builder.documented_store(attribute.attr, dotted_name(attribute.value))

    def _stored_on_receiver(self, node: ast.Assign | ast.AnnAssign, targets: list[ast.expr],
                            value: ast.expr | None) -> None:
        """What a statement storing on the receiver tells beyond the write: a mirrored field, a comment saying
        the write is a use, a local name stored (for `_hand_over`)."""
        receiver = self.scope.receiver
        if receiver is None or not self.functions:
            return
        first = targets[0]
        if len(targets) == 1 and isinstance(first, ast.Attribute):  # most stores: `self.x = ...` or `a.b = ...`
            if not (isinstance(first.value, ast.Name) and first.value.id == receiver):
                return
            stored = [first.attr]
        elif len(targets) == 1 and isinstance(first, ast.Name):  # `x = ...`
            return
        else:
            stored = [a.attr for target in targets for a in attribute_targets(target)
                      if isinstance(a.value, ast.Name) and a.value.id == receiver]
            if not stored:
                return
        if value is not None:
            self._mirrored_field(stored, value)
            if is_task_made(value):  # the event loop holds its tasks weakly: this reference keeps the task running
                for attribute in stored:
                    self.builder.read(attribute, self.scope.owner_class)
            if isinstance(value, ast.Name):  # `self._buffer = buffer`
                for attribute in stored:
                    self.functions[-1].stored.setdefault(value.id, set()).add(attribute)
        self._said_used(node, stored)

    def _mirrored_field(self, stored: list[str], value: ast.expr) -> None:
        """`self.addedAt = data.attrib.get("addedAt")`, `self.profiles = self.attr("profiles")`: a public attribute
        taking the field of its own name from other data mirrors a record of an outside format, data its objects
        carry to whoever receives them. Not an option the function's callers name (`kwargs.pop("timeout")`)."""
        names = {name for name in stored if name[:1] != "_"}
        if not names:
            return
        options = self.functions[-1].options
        pending = [value]
        while pending:  # through calls, their arguments, subscripts and attributes: where a lookup sits
            node = pending.pop()
            if isinstance(node, ast.Call):
                func = node.func
                pending.append(func)
                pending.extend(node.args)
                pending.extend(keyword.value for keyword in node.keywords)
                key = node.args[0] if node.args else None
                source = func.value if isinstance(func, ast.Attribute) else None
            elif isinstance(node, ast.Subscript):
                pending.append(node.value)
                key, source = node.slice, node.value
            else:
                if isinstance(node, ast.Attribute):
                    pending.append(node.value)
                continue
            if isinstance(key, ast.Constant) and key.value in names \
                    and not (options and isinstance(source, ast.Name) and source.id == options):
                self.builder.read(key.value, self.scope.owner_class, as_written=False)

    def _note_handed(self, node: ast.Call, callee: str | None) -> None:
        """`lib.set_user_data(self._body, handle)`: the local names a call is given, by the callee as the index
        can tell it (`ClassInfo.hands_to`)."""
        if callee is None or not self.functions:
            return
        head, _, rest = callee.partition(".")
        if head == self.scope.receiver:
            if not rest or "." in rest:
                return
            target = ("", rest)
        elif head in self.builder.facts.imports:
            target = (self.builder.facts.imports[head], rest)
        else:
            return
        handed = self.functions[-1].handed
        for argument in [*node.args, *(keyword.value for keyword in node.keywords)]:
            if isinstance(argument, ast.Name):
                handed.setdefault(argument.id, set()).add(target)

    def _hand_over(self, local: FunctionLocals) -> None:
        """At the function's end: each attribute a local name was stored in, with each call it was given to."""
        for name in local.stored.keys() & local.handed.keys():
            for attribute in local.stored[name]:
                for imported, method in local.handed[name]:
                    self.builder.hands(attribute, imported, method)

    def _said_used(self, node: ast.Assign | ast.AnnAssign, stored: list[str]) -> None:
        """`self._handle = handle  # to prevent gc to collect the handle`, `self.delta_t_table = table  # so users
        can see it`: a write whose comment says it holds its value against the garbage collector, or is there for
        others, is used by being made, as every write of that attribute in the class is (`self._handle = None`
        lets the value go)."""
        if self.said_used is None:
            self.said_used = lines_saying_used(self.source.source)
        if self.said_used and self._comment_says_used(node, self.said_used):
            for attribute in stored:
                self.builder.read(attribute, self.scope.owner_class)

    def _comment_says_used(self, node: ast.stmt, lines: set[int]) -> bool:
        """A comment on the statement's lines, or in the comment lines right above it, is one of `lines`."""
        end = node.end_lineno or node.lineno
        if any(number in lines for number in range(node.lineno, end + 1)):
            return True
        if not any(number < node.lineno for number in lines):
            return False
        above = node.lineno - 1
        while above >= 1 and self.source.line(above).lstrip().startswith(b"#"):
            if above in lines:
                return True
            above -= 1
        return False

    def _has_attribute_doc(self, node: ast.stmt) -> bool:
        return id(node) in self.docstring_before or (self.may_have_doc_comments and self._doc_comment(node))

    def _mark_values(self, targets: list[ast.expr], value: ast.expr | None) -> None:
        for target in targets:
            if isinstance(target, ast.Attribute):
                self.values[id(target)] = value
                if len(targets) > 1 and any(other is not target and self._self_attribute(other) is None
                                            for other in targets):
                    self.chained.add(id(target))

    def _list_bindings(self, node: ast.stmt, targets: list[ast.expr], value: ast.expr | None) -> None:
        """SS102: attributes bound to an empty list, and the resets of a method's own lists (those at the top
        of its body: they come before whatever follows on every path)."""
        if not self.class_lists:
            return
        receiver = self.scope.receiver
        lists = self.class_lists[-1]
        for target in targets:
            for bound in empty_list_targets(target, value):
                if isinstance(bound, ast.Name) and self.scope.in_class_body:
                    lists.empty.add(bound.id)
                elif isinstance(bound, ast.Attribute) and receiver and dotted_name(bound.value) == receiver:
                    lists.empty.add(bound.attr)
            # bound in a method to something else for sure (SS102's collector sees these and more: `for self.L in`)
            if (value is not None and not is_empty_list(value) and not isinstance(value, ast.Subscript)
                    and isinstance(target, ast.Attribute) and receiver and dotted_name(target.value) == receiver):
                lists.other.setdefault(target.attr, set()).add(self.scope.method or "")
            method = self.method_lists[-1] if self.scope.is_method and self.method_lists else None
            if method is not None and value is not None and id(node) in method.top:
                for attribute in attribute_targets(target):
                    name = dotted_name(attribute)
                    if name and dotted_name(attribute.value) == receiver and not mentions_attribute(value, name):
                        method.reset.add(attribute.attr)

    def _list_append(self, attribute: ast.expr, per_element: bool) -> None:
        """SS102: `self.L.append(...)` in a loop, or `self.L.extend(...)`/`self.L += ...` anywhere."""
        method = self.method_lists[-1] if self.method_lists else None
        if (method is not None and isinstance(attribute, ast.Attribute) and (per_element or self.loops)
                and dotted_name(attribute.value) == method.receiver and attribute.attr not in method.reset):
            method.appended.add(attribute.attr)

    def visit_Yield(self, node: ast.Yield | ast.YieldFrom) -> None:
        if self.scope.is_method and self.method_lists and not self.lambda_parameters:
            self.method_lists[-1].never = True  # a generator (SS102)
        self.generic_visit(node)

    visit_YieldFrom = visit_Yield

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self.lambda_parameters.append({argument.arg for argument in parameters(node)})
        self.generic_visit(node)
        self.lambda_parameters.pop()

    def visit_Assign(self, node: ast.Assign) -> None:
        self._list_bindings(node, node.targets, node.value)
        self._mark_values(node.targets, node.value)
        self._class_binding(node.targets, node.value)
        self._documented(node, node.targets)
        self._stored_on_receiver(node, node.targets, node.value)
        if len(node.targets) == 1:
            self._seed(node.targets[0], node.value)
            self._bind_local(node.targets[0], node.value)
            self._note_listed(node.targets[0], node.value)
        self._unbind(node.targets)
        for target in node.targets:
            self._feed_item(target)
            self._class_changed(target, node.value)
        if len(node.targets) == 1:  # in `n = self.n = self.n + 1` the value goes elsewhere too
            self._feed_self(node.targets[0], node.value)
        if any(isinstance(t, ast.Attribute) and t.attr == "__dict__" for t in node.targets):
            self.moving_depth += 1  # `copy.__dict__ = self.__dict__.copy()` moves state, reads none of it
            self.generic_visit(node)
            self.moving_depth -= 1
        else:
            self.generic_visit(node)

    def _registers_under(self, value: ast.expr | None, name: str) -> bool:
        """`self.add_slot("before")`, `self.attr("codecs", parser=str)`, `self.add_parameter(name="repeat")`: a
        method of the object's given the attribute's own name, first or as a keyword, which makes the value under
        that name (a parameter, a slot, a parsed field): the object hands it out by the name as well."""
        if not isinstance(value, ast.Call) or self._self_attribute(value.func) is None:
            return False
        given = [*value.args[:1], *(keyword.value for keyword in value.keywords)]
        return any(string_value(argument) == name for argument in given)

    def _class_changed(self, target: ast.expr, value: ast.expr) -> None:
        """`self.__class__ = RingBufferFull`: the object runs that class's methods from then on, which read
        through their receiver what this class's methods wrote."""
        if (isinstance(target, ast.Attribute) and target.attr == "__class__" and self._is_receiver(target.value)
                and (cls := dotted_name(value))):
            self.builder.runs_methods_of(cls.rpartition(".")[2], "__class__")

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._list_bindings(node, [node.target], node.value)
        self._mark_values([node.target], node.value)
        self._class_binding([node.target], node.value)
        self._documented(node, [node.target])
        self._stored_on_receiver(node, [node.target], node.value)
        self._seed(node.target, node.value)
        self._note_listed(node.target, node.value)
        if isinstance(node.target, ast.Name) and self.functions:
            self.functions[-1].bind(node.target.id, annotation_classes(node.annotation), node.target)
        self._feed_item(node.target)
        if node.value is None and isinstance(node.target, ast.Attribute):
            # `self.x: int` declares the attribute for type checkers and stores nothing
            self.visit(node.target.value)
            self.visit(node.annotation)
        else:
            self.generic_visit(node)

    # Reads and what they are read on.

    def _on(self, node: ast.expr) -> tuple[set[str] | None, str | None]:
        """The classes an object is known to be of, or the local name whose class is known at the function's
        end: `self`, `cls`, `super()`, `type(self)`, `self.__class__` -> ({the class}, None); `x` inside
        `if isinstance(x, A):` -> ({"A"}, None); `engine` -> (None, "engine"); (None, None) for an object of
        unknown class."""
        receiver = self.scope.receiver
        if isinstance(node, ast.Name):
            if receiver is not None and node.id == receiver:
                return {self.scope.owner_class}, None
            for narrowing in reversed(self.narrowings):
                if node.id in narrowing:
                    return narrowing[node.id], None
            local = self.functions[-1] if self.functions else None
            if local is not None and node.id in local.candidates and node.id not in local.untyped:
                return None, node.id
            return None, None
        if receiver is not None:
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                if node.func.id == "super" or (node.func.id == "type" and len(node.args) == 1
                                               and self._is_receiver(node.args[0])):
                    return {self.scope.owner_class}, None
            if isinstance(node, ast.Attribute) and node.attr == "__class__" and self._is_receiver(node.value):
                return {self.scope.owner_class}, None
        return None, None

    def _is_receiver(self, node: ast.expr) -> bool:
        return isinstance(node, ast.Name) and node.id is not None and node.id == self.scope.receiver

    def _read(self, name: str, owner: ast.expr, as_written: bool = True, pattern: bool = False) -> None:
        pattern = pattern or BOUND_NAME in name
        attribute = self._self_attribute(owner)
        method = self._self_attribute(owner.func) if isinstance(owner, ast.Call) else None
        if method is not None and not pattern:
            self.builder.read_on_attribute(name, f"{method.attr}()", as_written)  # on what `self.m()` returns
            return
        if attribute is not None and not pattern and attribute.attr != "__class__":
            self.builder.read_on_attribute(name, attribute.attr, as_written)
            return
        classes, local = self._on(owner)
        if local is not None:
            kind = "pattern" if pattern else ("read" if as_written else "string")
            self.functions[-1].pending.append((local, kind, name))
            return
        for cls in [*(classes or [None]), *self._receiver_aliased(owner)]:
            if pattern:
                self.builder.read_pattern(name, cls)
            else:
                self.builder.read(name, cls, as_written)

    def _receiver_aliased(self, node: ast.expr) -> list[str]:
        """The receiver's class, for a local name an assignment of the function binds to the receiver."""
        if isinstance(node, ast.Name) and self.functions and node.id in self.functions[-1].receivers:
            return [self.functions[-1].receivers[node.id]]
        return []

    def _note_listed(self, target: ast.expr, value: ast.expr | None) -> None:
        """`FIELDS = ("a", "b")` in a module, a class body or a function: the names a loop over it takes."""
        strings = self._listed_strings(value)
        if strings is None or not isinstance(target, ast.Name):
            return
        if self.functions:
            self.functions[-1].listed[target.id] = strings
        elif self.scope.in_class_body:
            self.bodies_listed.setdefault(target.id, set()).update(strings)
        elif self.scope.current is None:
            self.module_listed[target.id] = strings

    def _listed_strings(self, value: ast.expr | None) -> list[str] | None:
        """`iterated_strings` or `row_strings` of a literal, and of a sum of such literals and the names listed so far
        in the same scope: `visitor_attributes = head_parts + ("title", "body")`."""
        if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
            left, right = self._listed_strings(value.left), self._listed_strings(value.right)
            return left + right if left is not None and right is not None else None
        if isinstance(value, ast.Name):
            if self.functions:
                return self.functions[-1].listed.get(value.id)
            if self.scope.in_class_body:
                listed = self.bodies_listed.get(value.id)
                return sorted(listed) if listed is not None else None
            return self.module_listed.get(value.id) if self.scope.current is None else None
        return iterated_strings(value) or row_strings(value)

    def _bind_listed(self, target: ast.expr, iterable: ast.expr, test: ast.expr | None = None) -> None:
        """`for name in FIELDS:`, `for key, value in self.MAP.items():`: the loop's name takes the strings the
        container lists (a dict's keys), for a computed attribute name to spell; `for name in dir(obj)` under
        `if name.endswith("_key"):` (`test`, the filter the body runs under), the names the filter lets through."""
        if not self.functions:
            return
        if self._lists_receiver(iterable) and isinstance(target, ast.Name):
            self.functions[-1].receiver_names.add(target.id)
        walked = walked_mapping(iterable)
        if isinstance(walked, ast.Attribute) and walked.attr == "__dict__" and not self._is_receiver(walked.value):
            self._whole_object_of(walked.value)  # `for k, v in self.aio.__dict__.items():`
        constructor_parameters = self._is_constructor_signature(parameters_of(iterable))
        if constructor_parameters and walks_values(iterable):
            # `for parameter in signature.parameters.values()`: `parameter.name` is a constructor parameter's
            if isinstance(target, ast.Name):
                self.functions[-1].strings.setdefault(parameter_name_key(target.id), set()).add(INIT_PARAMETERS_MARK)
            return
        iterable, items = walked_container(iterable)
        strings = [INIT_PARAMETERS_MARK] if constructor_parameters else (
            iterated_strings(iterable) or row_strings(iterable))  # `for item in [("number", TAG), ...]:`
        if strings is None and isinstance(iterable, ast.Name):
            strings = next((local.listed[iterable.id] for local in reversed(self.functions)
                            if iterable.id in local.listed), self.module_listed.get(iterable.id))
            if strings is None:
                strings = self._parameter_markers(iterable.id, each=True)  # `for key in attributes:`
        elif strings is None and isinstance(iterable, ast.Call) and not iterable.args \
                and (method := self._self_attribute(iterable.func)) is not None:
            strings = [returned_marker(method.attr)]  # `for key in self._get_param_names():`
        elif strings is None and isinstance(iterable, ast.Attribute) and iterable.attr != "__dict__" \
                and not is_constructor(dotted_name(iterable.value)):
            # `self.MAP`, bound in the class body or in another class's of the module (a subclass's); `obj.MAP`,
            # in any class body that binds MAP where obj's class is not known (a serialiser's field list); not
            # `Base.MAP`, one class's list
            strings = [listed_marker(iterable.attr)]
        elif strings is None and names_of_object(iterable) and (name := walked_name(target)):
            strings = [pattern] if (pattern := affix_pattern(test, name)) else None
        if isinstance(target, ast.Tuple) and target.elts:  # a dict's items, or rows: `for name, check in ROWS:`
            target = target.elts[0]
        if strings and isinstance(target, ast.Name):
            self.functions[-1].strings.setdefault(target.id, set()).update(strings)
            self.functions[-1].strings.setdefault(first_item(target.id), set()).update(strings)  # `row[0]`

    def _note_base_init_lists(self, node: ast.Call, owner: ast.expr) -> None:
        """`super().__init__(fields=["url"])` or `Base.__init__(self, [], ["url"])` in a method: the lists of
        strings handed to the base, which may look each name up on the object (`ClassInfo.base_init_lists`)."""
        if is_super_call(owner):
            given = node.args
        elif node.args and self._is_receiver(node.args[0]):
            given = node.args[1:]
        else:
            return
        lists = {} if any(isinstance(argument, ast.Starred) for argument in given) else {
            str(position): strings for position, argument in enumerate(given)
            if (strings := self._listed_strings(argument))}
        lists.update((keyword.arg, strings) for keyword in node.keywords
                     if keyword.arg and (strings := self._listed_strings(keyword.value)))
        if lists:
            self.builder.passes_base_lists(lists)

    def _note_accumulated(self, arguments: list[ast.expr]) -> None:
        """`reflect.accumulateClassList(self.__class__, "compare_attrs", found)`: a call given the object (or its
        class), one name and a local container fills the container with what the class bodies of its hierarchy
        list under that name, for a loop over the container to take (as a loop over `self.compare_attrs`)."""
        names = [argument.value for argument in arguments
                 if isinstance(argument, ast.Constant) and isinstance(argument.value, str)]
        if len(names) != 1 or not names[0].isidentifier() or \
                not any(self._on(argument)[0] == {self.scope.owner_class} for argument in arguments):
            return
        local = self.functions[-1]
        for argument in arguments:
            if isinstance(argument, ast.Name) and not self._is_receiver(argument) and \
                    argument.id not in local.parameters:
                local.listed[argument.id] = [listed_marker(names[0])]

    def _parameter_markers(self, name: str, each: bool) -> list[str] | None:
        """A named function's parameter: what its calls in the module pass it, resolved at the module's end, in
        a lambda of the function too (`return lambda _: getattr(self, attribute)`). A special method's callers
        are Python's, and a lambda's own parameters nameless callers'."""
        local = self.functions[-1] if self.functions else None
        if local is None or name not in local.parameters or is_dunder(local.name) \
                or any(name in names for names in self.lambda_parameters):
            return None
        position = local.passed.index(name) if name in local.passed else -1
        return [parameter_marker(local.name, position, name, each)]

    def _bind_local(self, target: ast.expr, value: ast.expr | None) -> None:
        """`engine = Engine(...)`: a local name bound to an object of a known class; `name = "x"`: to a string
        a computed attribute name may be."""
        if not isinstance(target, ast.Name) or not self.functions:
            return
        local = self.functions[-1]
        if value is not None and (position := self._parameter_dict(value)) is not None:
            local.dicts[target.id] = position  # `obj = obj.__dict__`
        if value is not None and self._is_receiver(value) and self.scope.owner_class:
            local.receivers[target.id] = self.scope.owner_class
        if value is not None and not isinstance(value, ast.Name) and self._is_receiver_dict(value) \
                and local.definition is not None and only_keyed(local.definition, target.id):
            # `d = object.__getattribute__(self, "__dict__")`, then only `d["_props"]`, `d.get("_init")`, `k in d`:
            # the name stands for the mapping, each lookup read as the mapping's own is; the binding reads nothing
            local.own_dicts.add(target.id)
            self.whole_handled.add(id(value))
        if isinstance(value, ast.Call):
            made = constructor_of(dotted_name(value.func))
            if made and isinstance(value.func, ast.Name) and any(made in f.parameters for f in self.functions):
                made = None  # `def dump(data, Dumper=Dumper): dumper = Dumper()`: whatever class callers pass
            local.bind(target.id, {made} if made else None, target)
        local.strings.setdefault(target.id, set()).update(bound_strings(value, self._name_part))
        if value is not None and is_constructor_signature(value):  # `signature = inspect.signature(cls.__init__)`
            local.strings.setdefault(parameters_key(target.id), set()).add(INIT_PARAMETERS_MARK)

    def _named_by_syntax(self, node: ast.expr) -> bool:
        """In a special method (`__getitem__`, `__contains__`, ...), the expression uses one of its parameters
        (`item`, `aliases.get(item, item)`): Python passes what syntax anywhere names (`info["width"]`), so the
        name is any. A named method's callers are the package's own, passing names of their own."""
        if not (self.functions and is_dunder(self.scope.method or "")):
            return False
        parameters = self.functions[-1].parameters
        return any(isinstance(name, ast.Name) and name.id in parameters for name in walk(node))

    def _is_constructor_signature(self, node: ast.expr | None) -> bool:
        """`inspect.signature(obj.__init__)`, or a local name bound to it."""
        if isinstance(node, ast.Name):
            return INIT_PARAMETERS_MARK in self._strings_bound_to(parameters_key(node.id))
        return node is not None and is_constructor_signature(node)

    def _strings_bound_to(self, name: str) -> list[str]:
        """The constant strings a name is bound to in the functions around the node (closures see their
        enclosing functions' names)."""
        return sorted(set().union(*(local.strings.get(name, ()) for local in self.functions)))

    def _name_part(self, node: ast.expr) -> list[str] | None:
        """A part of a computed name that the class spells itself: in `__set_name__`, the name the descriptor is
        bound to; `self.A`, as the class's writes of A spell it (a placeholder until the class's end)."""
        if isinstance(node, ast.Name) and self.functions and node.id == self.functions[-1].bound_name:
            return [BOUND_NAME]
        if self.name_attributes and self.scope.owner_class and (attribute := self._self_attribute(node)):
            return [attribute_marker(self.scope.owner_class, attribute.attr)]
        return None

    def _self_attribute(self, node: ast.expr) -> ast.Attribute | None:
        """`self.X` itself, else None."""
        if isinstance(node, ast.Attribute) and self._is_receiver(node.value) and node.attr != "__dict__":
            return node
        return None

    def _feed_item(self, target: ast.expr) -> None:
        """`self.X[k] = v`, `del self.X[k]`: the read of `self.X` only changes what it holds."""
        if isinstance(target, ast.Subscript):
            attribute = self._self_attribute(target.value)
            if attribute is not None:
                self.fed.add(id(attribute))

    def _feed_self(self, target: ast.expr, value: ast.expr | None) -> None:
        """`self.n = self.n + 1`: the reads of `self.n` in the value only feed the attribute itself; not one a
        name catches on the way (`self.n = (old := self.n) + 1`), whose value goes on."""
        attribute = self._self_attribute(target)
        if attribute is not None and value is not None:
            reads = [id(node) for node in walk(value) if isinstance(node, ast.Attribute)
                     and node.attr == attribute.attr and self._is_receiver(node.value)]
            if reads:
                caught = {id(node) for named in walk(value) if isinstance(named, ast.NamedExpr)
                          for node in walk(named.value)}
                self.fed.update(read for read in reads if read not in caught)

    def _weak_with_callback(self, value: ast.Call, callee: str | None) -> bool:
        """`weakref.ref(self, close)`: a weak reference calling back when its object dies, which it does only while
        it is alive itself; held in an attribute, it is used by being held (and `self._weak = None` disarms it)."""
        if not callee or (len(value.args) < 2 and not value.keywords):
            return False
        if qualified_name(callee, self.builder.facts.imports) not in CALLBACK_REFERENCES:
            return False
        callbacks = [*value.args[1:2], *(k.value for k in value.keywords if k.arg == "callback")]
        return any(not (isinstance(c, ast.Constant) and c.value is None) for c in callbacks)

    def visit_Expr(self, node: ast.Expr) -> None:
        """`self.items.append(x)` as a statement only changes what the attribute holds (but see visit_Try)."""
        call = node.value
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in MUTATORS \
                and not (self.lookup_caught and call.func.attr in FAILING_MUTATORS and len(call.args) < 2):
            attribute = self._self_attribute(call.func.value)
            if attribute is not None:
                self.fed.add(id(attribute))
                if self.kept and call.func.attr in ADDERS:
                    self.kept[-1].added.add(attribute.attr)
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        self._unbind(node.targets)
        for target in node.targets if not self.lookup_caught else ():  # else its failure tells (visit_Try)
            self._feed_item(target)
        self.generic_visit(node)

    # `self.__dict__`, `vars(self)` and `asdict(self)`: which attributes they read.

    def _names_receiver_class(self, node: ast.expr | None) -> bool:
        """`self.__class__.__name__`, `type(self).__name__`, `cls.__name__`: the name of the receiver's class."""
        if not (isinstance(node, ast.Attribute) and node.attr == "__name__"):
            return False
        owner = node.value
        if isinstance(owner, ast.Attribute) and owner.attr == "__class__":
            owner = owner.value
        elif isinstance(owner, ast.Call) and dotted_name(owner.func) == "type" and len(owner.args) == 1:
            owner = owner.args[0]
        return self._is_receiver(owner)

    def _is_receiver_dict(self, node: ast.expr) -> bool:
        """`self.__dict__`, `vars(self)`, `super().__getattribute__("__dict__")` (a `__getattribute__` of its own
        must look it up so), or a local name standing for one (`_bind_local`)."""
        if isinstance(node, ast.Name):
            return (node.id == self.restored_state and self.scope.method == "__setstate__"
                    or bool(self.functions) and node.id in self.functions[-1].own_dicts)
        if isinstance(node, ast.Attribute):
            return node.attr == "__dict__" and self._is_receiver(node.value)
        if not isinstance(node, ast.Call) or node.keywords:
            return False
        func, arguments = node.func, node.args
        if isinstance(func, ast.Attribute) and func.attr == "__getattribute__":
            if is_super_call(func.value):
                return len(arguments) == 1 and string_value(arguments[0]) == "__dict__"
            return (dotted_name(func.value) == "object" and len(arguments) == 2
                    and self._is_receiver(arguments[0]) and string_value(arguments[1]) == "__dict__")
        return len(arguments) == 1 and dotted_name(func) in INTROSPECTORS and self._is_receiver(arguments[0])

    def _walks_receiver(self, iterable: ast.expr) -> bool:
        """`self.__dict__`, `vars(self)`, their `keys()` or `items()`, or `dir(self)`: a loop over the receiver's
        names."""
        return self._is_receiver_dict(walked_container(iterable)[0]) or self._lists_receiver(iterable)

    def _lists_receiver(self, node: ast.expr) -> bool:
        """`dir(self)`: the names of the receiver's attributes, its class's among them."""
        return (isinstance(node, ast.Call) and dotted_name(node.func) == "dir" and len(node.args) == 1
                and not node.keywords and self._is_receiver(node.args[0]))

    def _names_any_attribute(self, node: ast.expr) -> bool:
        """A loop's name over `dir(self)`, in the function or one around it."""
        return isinstance(node, ast.Name) and any(node.id in local.receiver_names for local in self.functions)

    def _parameter_dict(self, node: ast.expr) -> int | None:
        """`obj.__dict__` or `vars(obj)` for a positional parameter `obj` of the named function around (not a
        special method's: Python calls those), a local name bound to one, or a conditional expression one of
        whose values is one: the parameter's position."""
        local = self.functions[-1] if self.functions else None
        if local is None:
            return None
        if isinstance(node, ast.Name):
            return local.dicts.get(node.id) if local.dicts else None  # bound only where the rest holds
        if isinstance(node, ast.IfExp):  # `obj if isinstance(obj, dict) else vars(obj)`: where that branch runs
            body = self._parameter_dict(node.body)
            return body if body is not None else self._parameter_dict(node.orelse)
        if isinstance(node, ast.Attribute) and node.attr == "__dict__":
            owner = node.value
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "vars"
              and len(node.args) == 1 and not node.keywords):
            owner = node.args[0]
        else:
            return None
        if not isinstance(owner, ast.Name) or owner.id not in local.passed or self.lambda_parameters \
                or is_dunder(local.name):
            return None
        return local.passed.index(owner.id)

    def _whole_parameter(self, mapping: ast.expr) -> None:
        """A read of computed keys of a parameter's `__dict__` (`obj.__dict__[name]`, `.get(name)`, `.items()`):
        every attribute of the objects the function's callers pass there."""
        position = self._parameter_dict(mapping)
        if position is not None and self._uses_whole():
            self.builder.whole_parameter(self.functions[-1].name, position)

    def _whole_object(self) -> None:
        """A use of every attribute at once: a read of all of them, but where it only represents the object for
        debugging, moves its state to another object, or looks up a name normal lookup did not find."""
        if self._uses_whole():
            self.builder.reads_all(public=self.public_walks > 0)

    def _whole_object_of(self, node: ast.expr) -> None:
        """A walk of another object's mapping (`for k, v in self.aio.__dict__.items():`): a read of every
        attribute of its class where that is known (`WHOLE_MARK`, resolved by the index), of none where it is
        not. A class's own namespace (`type(self).__dict__`, `self.__class__.__dict__`) holds no instance's."""
        namespace = (isinstance(node, ast.Attribute) and node.attr == "__class__") or (
            isinstance(node, ast.Call) and dotted_name(node.func) == "type")
        if self._uses_whole() and not namespace:
            self._read(WHOLE_MARK, node, as_written=False)

    def _uses_whole(self) -> bool:
        """Not a debug representation, a move of state, or a lookup of a name normal lookup did not find."""
        method = self.scope.method or ""
        return not (self.debug_depth or self.moving_depth or method in DEBUG_METHODS or method in STATE_METHODS
                    or method in LOOKUP_METHODS or method.startswith(DEBUG_PREFIXES))

    def _keyed_dict_read(self, key: ast.expr) -> None:
        """`self.__dict__[K]` and its like read K; a computed key reads whatever it names."""
        name = string_value(key)
        if name is not None:
            self.builder.read(name, self.scope.owner_class, as_written=False)
        elif (self.scope.method or "") not in LOOKUP_METHODS:
            self._whole_object()

    def _seed(self, target: ast.expr, value: ast.expr | None) -> None:
        """`OWNER.K = CFG['K']` (any keyed access of K) may seed an attribute from a config; a local name bound
        to a path (`pipe = self._config.pipeline`, or `config` in `self.config = config`) may stand for one."""
        method = self.methods[-1] if self.methods and self.scope.receiver else None
        if method is None or value is None:
            return
        start = path_start(value)
        if isinstance(target, ast.Name) and start[0] is not None:
            method.bound.setdefault(target.id, set()).add(start)
        if isinstance(target, ast.Attribute) and isinstance(value, ast.Name):
            method.bound.setdefault(value.id, set()).add(path_start(target))
        access = keyed_access(value)
        if isinstance(target, ast.Attribute) and access is not None and access[0] == target.attr:
            key, config = access
            if not (isinstance(config, ast.Name) and config.id == self.scope.receiver):  # `self.K` is no config
                method.seeds.append((key, path_root(target.value), path_start(config)))

    def _keyed_read(self, node: ast.expr) -> None:
        access = keyed_access(node) if self.class_keys else None
        if access is not None:
            key, base = access
            if not (isinstance(base, ast.Name) and base.id == self.scope.receiver):
                self.class_keys[-1].reads[key] += 1

    def _class_binding(self, targets: list[ast.expr], value: ast.expr | None) -> None:
        names = [t.id for t in targets if isinstance(t, ast.Name)]
        if names:
            self.builder.class_binding(names, listed_strings(value), chain_callee(value), declared_names(value),
                                       annotated=value is None)
            if isinstance(value, (ast.Name, ast.Attribute)):
                self.builder.module_binding(names, dotted_name(value))
                # `__setattr__ = dict.__setitem__`: every attribute an item of the mapping the object is
                if "__setattr__" in names and self.scope.in_class_body and \
                        (dotted_name(value) or "").rsplit(".", 1)[-1] == "__setitem__":
                    self.builder.method("__setattr__", [])
                    self.builder.reads_all()

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.builder.import_module(alias.name, alias.asname)
        if self.functions:
            self._unbind_named([(alias.asname or alias.name).split(".")[0] for alias in node.names])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            self.builder.import_from(node.level or 0, node.module, alias.name, alias.asname)
        if self.functions:
            self._unbind_named([alias.asname or alias.name for alias in node.names])

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if isinstance(node.op, ast.Add):
            self._list_append(node.target, per_element=True)  # SS102
        # `obj.x += 1` reads the attribute; ast marks its target as a store. On `self` the read only feeds the
        # attribute itself: a counter nobody looks at.
        target = node.target
        if isinstance(target, ast.Attribute):
            if self._self_attribute(target) is not None:
                self.builder.feed(target.attr)
            else:
                self._read(target.attr, target.value)
            self.visit(target.value)
        else:
            self._unbind([target])
            self._feed_item(target)
            self.visit(target)
        self.visit(node.value)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if self.class_lists and id(node) not in self.called and self._is_receiver(node.value):
            self.class_lists[-1].callbacks.add(node.attr)  # a method handed out as a callback (SS102)
        if not isinstance(node.ctx, ast.Store):
            if id(node) in self.fed:
                self.builder.feed(node.attr)
            elif node.attr == "__dict__" and self._is_receiver(node.value):
                if id(node) not in self.whole_handled:
                    self._whole_object()
            else:
                self._read(node.attr, node.value)
            if isinstance(node.ctx, ast.Load):
                self._keyed_read(node)
        else:
            value = self.values.pop(id(node), None)
            if self.name_attributes and self._is_receiver(node.value):
                self._note_name_attribute(node.attr, value)
                if is_built_container(value):
                    self.looped[-1].built.add(node.attr)
                elif not isinstance(value, ast.Call) and (strings := iterated_strings(value)):
                    self.looped[-1].spelt.setdefault(node.attr, set()).update(strings)
                elif isinstance(value, ast.Name) and self.scope.method == "__init__" \
                        and value.id in self.functions[-1].parameters:
                    self.looped[-1].given[node.attr] = value.id  # `self.fields = fields`
            callee = dotted_name(value.func) if isinstance(value, ast.Call) else None
            made = constructor_of(callee)
            if callee and self._is_receiver(node.value) and self._weak_with_callback(value, callee):
                self.builder.read(node.attr, self.scope.owner_class)
            if self._is_receiver(node.value) and (aliased := self._self_attribute(value)) is not None:
                if is_respelling(node.attr, aliased.attr):
                    # `self.setComment = self.set_comment`: the object's interface in its users' other convention
                    self.builder.read(node.attr, self.scope.owner_class)
                elif not node.attr.startswith("_") and self.method_aliases:
                    self.method_aliases[-1].append((node.attr, aliased.attr))  # a method's other name, if one
            if self._is_receiver(node.value) and self._registers_under(value, node.attr):
                # `self.point_s12 = self.add_parameter(name="point_s12", ...)`: the object keeps it by that name too
                self.builder.read(node.attr, self.scope.owner_class)
            if self._is_receiver(node.value) and isinstance(value, ast.Name) and not node.attr.startswith("_") \
                    and self.functions and value.id in self.functions[-1].defined \
                    and value.id not in self.functions[-1].parameters:
                # `self.mark = _mark`, a function this method defines: a method of the object, its users' to call
                self.builder.read(node.attr, self.scope.owner_class)
            column = self.source.column(node.lineno, node.col_offset)
            function = isinstance(value, ast.Lambda) or (value is not None and self._self_attribute(value) is not None)
            given = [argument.id for argument in (*value.args, *(keyword.value for keyword in value.keywords))
                     if isinstance(argument, ast.Name)] if made else []
            shared = not is_fresh(value) or id(node) in self.chained
            empty = isinstance(value, ast.Constant) and value.value is None
            self.builder.store(node.attr, node.lineno, column, dotted_name(node.value), made, shared, function,
                               self.block, given, empty, self.version_guards > 0)
        self.generic_visit(node)

    def _note_name_attribute(self, attribute: str, value: ast.expr | None) -> None:
        if isinstance(value, ast.Constant) and value.value is None:
            return  # `self.private_name = None` until `__set_name__` names it
        names = self.name_attributes[-1]
        spelt = name_patterns(value, self._name_part) if value is not None else None
        if attribute not in names or names[attribute] is not None:
            names[attribute] = None if spelt is None else {*(names.get(attribute) or ()), *spelt}

    def rebuild_spans(self) -> tuple[tuple[int, int], ...]:
        """What SS102's collector must see (`Signals.rebuild_spans`). The nodes kept for it are let go: the
        summarizer's cycles would keep the tree alive until the garbage collector's next pass."""
        spans = {(first_line(cls), cls.end_lineno or cls.lineno)
                 for name in self.rebuild_classes for cls in self.class_nodes.get(name, ())}
        for guard, cls, lists in self.guarded:
            spans.add((first_line(guard), guard.end_lineno or guard.lineno))
            for other in self.class_nodes.get(cls, ()):
                spans.update(naming_statements(other, lists))
        self.guarded, self.class_nodes = [], {}
        return tuple(sorted(spans))

    def resolve_module_names(self, tree: ast.Module) -> None:
        """At the module's end: a parameter naming attributes takes what the module's calls pass it; a loop
        over `self.NAME` takes the strings any class body of the module binds to NAME (a base's loop over what
        each subclass lists), and stays a placeholder for the index to find those of the other modules; a loop
        over `self.m()` takes the constructor's parameters where `m` returns their names."""
        self._resolve_placeholders(PARAMETER_MARK, lambda key: self._passed_to(tree, key))
        self._resolve_placeholders(RETURNED_MARK, lambda method: [INIT_PARAMETERS_MARK]
                                   if method in self.parameter_name_methods else [])
        self._resolve_placeholders(LISTED_MARK, lambda name: [*sorted(self.bodies_listed.get(name, ())),
                                                              listed_marker(name)])

    def _passed_to(self, tree: ast.Module, key: str) -> list[str]:
        if self.passed is None:  # walked only for a module with a parameter naming attributes
            self.passed = passed_strings(tree, self.module_listed, self.bodies_listed)
        function, position, name, each = key.split("\0")
        passed = self.passed[1] if each == "1" else self.passed[0]
        return sorted(set().union(passed.get((function, int(position)), ()), passed.get((function, name), ())))

    def _read_named_by_attribute(self) -> None:
        """At a class's end: a computed name with a part `self.A` (`getattr(obj, self.A)`, `"_" + self.A`) reads
        what the class's writes of `self.A` can spell (`self._private_name = f"_{name}"` in a descriptor's
        `__set_name__`), as `spelt_names` spells it. Such a read was noted under a placeholder pattern."""
        marker = attribute_marker(self.scope.owner_class or "", "")[:-2]
        found = [(on, p) for on, patterns in self.builder.facts.patterns.items() for p in patterns if marker in p]
        if not found:  # most classes: no pattern to compile
            return
        token = re.compile(re.escape(marker) + r"([^\0]*)\0\*")
        names = self.name_attributes[-1]
        for on, placeholder in found:
            self.builder.facts.patterns[on].discard(placeholder)
            for pattern in spelt_names(placeholder, token, names):
                self.builder.read_pattern(pattern, on or None)
        for on in {on for on, _ in found}:
            if not self.builder.facts.patterns[on]:
                del self.builder.facts.patterns[on]

    def _resolve_placeholders(self, prefix: str, resolved: Callable[[str], Iterable[str]]) -> None:
        """Each placeholder pattern `prefix + key + "*"` becomes the patterns `resolved` gives its key."""
        for on, patterns in list(self.builder.facts.patterns.items()):
            for placeholder in [p for p in patterns if p.startswith(prefix)]:
                patterns.discard(placeholder)
                for pattern in resolved(placeholder[len(prefix):-1]):
                    self.builder.read_pattern(pattern, on or None)
            if not patterns:
                del self.builder.facts.patterns[on]

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if isinstance(node.ctx, ast.Load) and string_value(node.slice) is None:
            self._whole_parameter(node.value)  # `value = obj.__dict__[name]`
        elif isinstance(node.ctx, ast.Load):
            self._keyed_read_of(node.value, node.slice)
        if self._is_receiver_dict(node.value):
            self.whole_handled.add(id(node.value))
            if isinstance(node.ctx, ast.Load):
                self._keyed_dict_read(node.slice)
            elif isinstance(node.ctx, ast.Store) and string_value(node.slice) is None:
                self.builder.assigns_unnamed()  # `self.__dict__[key] = value`
        if isinstance(node.ctx, ast.Load):
            self._keyed_read(node)
        self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        """`K in self.__dict__` reads K; a computed name's membership reads nothing."""
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)) \
                and self._is_receiver_dict(node.comparators[0]):
            self.whole_handled.add(id(node.comparators[0]))
            name = string_value(node.left)
            if name is not None:
                self.builder.read(name, self.scope.owner_class, as_written=False)
        elif len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):
            self._keyed_read_of(node.comparators[0], node.left)
        self.generic_visit(node)

    def _keyed_read_of(self, mapping: ast.expr, key: ast.expr) -> None:
        """`obj.__dict__["x"]`, `vars(obj).get("x")`, `"x" in obj.__dict__`: a read of `x` on another object,
        as the receiver's own mapping looked up by a constant key reads that name."""
        owner = mapping_owner(mapping)
        name = string_value(key)
        if owner is not None and name is not None and not self._is_receiver(owner):
            self._read(name, owner, as_written=False)

    def visit_Call(self, node: ast.Call) -> None:
        positional = [arg for arg in node.args if not isinstance(arg, ast.Starred)]
        callee = dotted_name(node.func)
        if len(positional) >= 3 and self.functions and self.scope.owner_class:  # the object, a name, a container
            self._note_accumulated(positional)
        if self.scope.receiver is not None:
            self._note_handed(node, callee)
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "__getattribute__" and len(positional) == 1 \
                and self.scope.receiver and (self.scope.method or "") not in LOOKUP_METHODS \
                and (self._is_receiver(func.value) or is_super_call(func.value)):
            # `super().__getattribute__(item)` in a helper: `getattr(self, item)`, of the names its callers pass
            callee, positional = "object.__getattribute__", [ast.Name(self.scope.receiver, ast.Load()), *positional]
        if isinstance(func, ast.Attribute) and func.attr == "__init__" and self.scope.receiver:
            self._note_base_init_lists(node, func.value)
        if positional and callee in STRING_READERS:
            computed = positional[1] if len(positional) >= 2 else None
            patterns = name_patterns(computed, self._name_part) if computed is not None else None
            if patterns is None and isinstance(computed, ast.Name):
                patterns = self._strings_bound_to(computed.id)  # `name = options.get("x", "executor")`
            elif patterns is None and (row := first_item_of(computed)) is not None:
                patterns = self._strings_bound_to(first_item(row))  # `for row in ROWS: getattr(self, row[0])`
            elif patterns is None and isinstance(computed, ast.Attribute) and computed.attr == "name" \
                    and isinstance(computed.value, ast.Name):  # `getattr(self, parameter.name)`
                patterns = self._strings_bound_to(parameter_name_key(computed.value.id))
            if patterns is None and self.scope.owner_class and self._names_receiver_class(computed):
                patterns = [f"{CLASS_NAME_MARK}{self.scope.owner_class}*"]  # `getattr(parms, type(self).__name__)`
            if isinstance(computed, ast.Name):  # `getattr(self, index_attr)`: what the callers pass
                patterns = [*(patterns or ()), *(self._parameter_markers(computed.id, each=False) or ())]
            for pattern in patterns or ():
                self._read(pattern, positional[0], as_written=False, pattern="*" in pattern)
                if pattern.startswith(LISTED_MARK) and callee in VALUE_GETTERS and self.looped \
                        and self._is_receiver(positional[0]) and self._uses_whole():
                    self.looped[-1].looked_up[pattern[len(LISTED_MARK):-1]] = self.public_walks > 0
            if (computed is not None and not patterns and callee in VALUE_GETTERS and self._is_receiver(positional[0])
                    and (self._named_by_syntax(computed) or self._names_any_attribute(computed))):
                self._whole_object()  # `getattr(self, item)`: the caller, or `dir(self)`, may name any attribute
            if computed is not None and (self.scope.method or "") in LOOKUP_METHODS \
                    and self._is_receiver(positional[0]):
                self._note_alias(computed)
            if self.scope.method == "__getattr__" and callee in VALUE_GETTERS and isinstance(computed, ast.Name) \
                    and computed.id in self.functions[-1].parameters \
                    and (delegate := self._self_attribute(positional[0])) is not None:
                self.builder.forwards_lookups(delegate.attr)  # `getattr(self._wrapped, name)`
        else:
            self.builder.call(callee, [([v] if (v := string_value(arg)) is not None else None) for arg in positional],
                              None)
            if isinstance(func, ast.Attribute) and func.attr in LOOKUP_METHODS and len(positional) == 1:
                for pattern in name_patterns(positional[0]) or ():  # `super().__getattribute__("exception")`
                    self._read(pattern, func.value, as_written=False, pattern="*" in pattern)
            if (callee in SETTERS and len(positional) >= 2 and self._is_receiver(positional[0])
                    and string_value(positional[1]) is None):
                self.builder.assigns_unnamed()  # `setattr(self, key, value)`
        self._keyed_read(node)
        if len(positional) == 3 and isinstance(positional[1], ast.Tuple):  # `type("Loose", (_Loose, _Mixin), {})`
            self.builder.made_class(callee, string_value(positional[0]), [base_name(b) for b in positional[1].elts])
        if (isinstance(func, ast.Attribute) and positional and self._is_receiver(positional[0])
                and (owner := dotted_name(func.value)) and owner.rpartition(".")[2][:1].isupper()):
            self.builder.runs_methods_of(owner.rpartition(".")[2], func.attr)  # `Iterator._check_eof(self, f)`
        elif callee and (receiver := self.scope.receiver):  # `sstruct.pack(fmt, self)`, not for a debug output
            for position, argument in enumerate(node.args):
                if isinstance(argument, ast.Starred):
                    break
                if isinstance(argument, ast.Name) and argument.id == receiver and self._uses_whole():
                    self.builder.lends_receiver(callee.rpartition(".")[2], position)
        if isinstance(func, ast.Attribute) and (func.attr in ("items", "values") or (
                func.attr in KEYED_DICT_METHODS and positional and string_value(positional[0]) is None)):
            self._whole_parameter(func.value)  # `for name, value in obj.__dict__.items():`
        if callee == "id" and len(node.args) == 1 and self.kept and not self.debug_depth:
            self.kept[-1].takes_ids = True  # a key, not a label in formatted text (`"%i" % id(p)`)
        if callee in EVALUATORS and node.args:
            (self.functions[-1] if self.functions else self.module_code).evaluates = True
        if callee in SIGNATURE_CALLS and self.functions:
            self.functions[-1].signs = True
        if isinstance(func, ast.Attribute):
            self.called.add(id(func))
            if self.class_lists and self.scope.method not in CONSTRUCTORS and self._is_receiver(func.value):
                self.class_lists[-1].calls.setdefault(self.scope.method or "", set()).add(func.attr)
            if self.class_lists and self.scope.is_method and not self.lambda_parameters:
                self.class_lists[-1].called.add(func.attr)
                if self._is_receiver(func.value):
                    self.class_lists[-1].callers.setdefault(func.attr, set()).add(self.scope.method or "")
            if func.attr in APPENDERS:
                self._list_append(func.value, per_element=func.attr == "extend")
            elif (func.attr in ("pop", "remove") and self.scope.is_method and self.method_lists
                  and not self.lambda_parameters and isinstance(func.value, ast.Attribute)
                  and dotted_name(func.value.value) == self.method_lists[-1].receiver):
                self.class_lists[-1].drained.add(func.value.attr)
            elif (func.attr == "clear" and not node.args and self.scope.is_method and self.method_lists
                  and id(node) in self.method_lists[-1].top and isinstance(func.value, ast.Attribute)
                  and dotted_name(func.value.value) == self.method_lists[-1].receiver):
                self.method_lists[-1].reset.add(func.value.attr)
        if self._is_receiver_dict(node):
            if id(node) not in self.whole_handled:
                self._whole_object()
        elif isinstance(func, ast.Attribute) and self._is_receiver_dict(func.value):
            self.whole_handled.add(id(func.value))
            if func.attr in KEYED_DICT_METHODS and positional:
                self._keyed_dict_read(positional[0])
            elif func.attr in WRITING_DICT_METHODS:
                if func.attr != "clear":
                    self.builder.assigns_unnamed()  # `self.__dict__.update(options)`
            else:
                self._whole_object()  # items(), values(), copy(), ...
        elif isinstance(func, ast.Attribute) and func.attr in KEYED_DICT_METHODS and positional:
            self._keyed_read_of(func.value, positional[0])  # `vars(obj).get("x")`
        if callee in DEBUG_CALLS or (isinstance(func, ast.Attribute) and func.attr in LOG_METHODS):
            self.debug_depth += 1
            self.generic_visit(node)
            self.debug_depth -= 1
        elif isinstance(func, ast.Attribute) and func.attr in WRITING_DICT_METHODS and func.attr != "clear" \
                and isinstance(func.value, ast.Attribute) and func.value.attr == "__dict__":
            self.moving_depth += 1  # `other.__dict__.update(self.__dict__)` moves state
            self.generic_visit(node)
            self.moving_depth -= 1
        else:
            self.generic_visit(node)

    def _note_alias(self, name: ast.expr) -> None:
        """In `__getattribute__(self, key)`: `object.__getattribute__(self, key[4:])` under
        `if key.startswith("_sa_"):`, or `getattr(self, key.removeprefix("_sa_"))`, looks up `x` for `_sa_x`."""
        if isinstance(name, ast.Subscript) and isinstance(name.value, ast.Name) and isinstance(name.slice, ast.Slice):
            cut = name.slice
            length = cut.lower.value if isinstance(cut.lower, ast.Constant) else None
            if cut.upper is None and cut.step is None and isinstance(length, int):
                for tested, prefix in self.prefix_tests:
                    if tested == name.value.id and len(prefix) == length:
                        self.builder.alias(prefix)
        elif (isinstance(name, ast.Call) and isinstance(name.func, ast.Attribute) and name.func.attr == "removeprefix"
              and len(name.args) == 1 and (prefix := string_value(name.args[0]))):
            self.builder.alias(prefix)

    def visit_Return(self, node: ast.Return) -> None:
        if self.functions and isinstance(node.value, ast.Call) and (callee := dotted_name(node.value.func)):
            self.builder.returns_call(self.functions[-1].name, callee)  # `return Field(...)`: a factory
        owner = mapping_owner(node.value) if node.value is not None else None
        if owner is not None and not self._is_receiver(owner):
            self._whole_object_of(owner)  # `return stats.__dict__`: every value handed to the caller
        self.generic_visit(node)

    def visit_FormattedValue(self, node: ast.FormattedValue) -> None:
        self.debug_depth += 1
        self.generic_visit(node)
        self.debug_depth -= 1

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) and isinstance(node.left.value, str):
            if self._is_receiver_dict(node.right):  # "%(name)s" % vars(self) reads the keys it names
                for key in PERCENT_KEY.findall(node.left.value):
                    self.builder.read(key, self.scope.owner_class, as_written=False)
            self.debug_depth += 1  # "%s" % (self.__dict__,)
            self.generic_visit(node)
            self.debug_depth -= 1
        else:
            self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            self.builder.string(node.value)
            if "." in node.value and len(node.value) <= MAX_CODE_STRING:
                (self.functions[-1] if self.functions else self.module_code).code.append(node.value)

    def _read_evaluated(self, local: FunctionLocals) -> None:
        """In a function that runs strings as code (`eval(test)` over a list of expressions), its strings that
        parse as Python are its code: their attribute reads are reads, on objects of any class. Code compiled
        at run time is not mangled."""
        if not local.evaluates:
            return
        for text in local.code:
            try:
                tree = ast.parse(text.strip())
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                continue
            for node in walk(tree):
                if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Store):
                    self.builder.read(node.attr, None, as_written=False)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        # the literal parts of an f-string are not format strings; its expressions are ordinary code
        for part in node.values:
            if isinstance(part, ast.FormattedValue):
                self.visit(part)

    def visit_If(self, node: ast.If) -> None:
        if tests_python_version(node.test):  # both branches run on some Pythons only
            self.version_guards += 1
            self._visit_if(node)
            self.version_guards -= 1
        else:
            self._visit_if(node)

    def _visit_if(self, node: ast.If) -> None:
        if self.scope.receiver and may_rebuild(node):  # a rebuild of the receiver's list, in a method
            self.guarded_loop = True
            self.guarded.append((node, self.scope.owner_class or "", appended_attributes(node)))
        self._note_attribute_docstrings(node)
        prefix = prefix_test(node.test)
        if prefix is not None:  # a lookup of `key[len(prefix):]` in its block
            self._visit_guarded(node, self.prefix_tests, prefix)
            return
        narrowing = narrowed(node.test)
        if narrowing is None:
            self.generic_visit(node)
            return
        self._visit_guarded(node, self.narrowings, narrowing)  # in the test (after the isinstance) and its block

    def _visit_guarded(self, node: ast.If, stack: list, told: object) -> None:
        """An `if` whose test tells `told` of its own block (not of its `else`), kept on `stack` meanwhile."""
        stack.append(told)
        self.visit(node.test)
        self.visit_statements(node, "body")
        stack.pop()
        self.visit_statements(node, "orelse")

    # Classes and functions are entered before their decorators, bases and parameters are
    # visited, as libcst's traversal (cst_facts.py) does.
    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.scope.enter_class(node.name)
        bases, metaclass = class_bases(node)
        self.builder.enter_class(node.name, bases, decorator_names(node), metaclass)
        self.class_keys.append(ClassKeys())
        self.class_lists.append(ClassLists())
        self.kept.append(KeptObjects())
        self.looped.append(LoopedLookups())
        self.name_attributes.append({})
        self.method_aliases.append([])
        self._note_attribute_docstrings(node)
        doc = class_documentation(node)
        if doc:
            # a list of names that are not the constructor's arguments lists the attributes users read; so do
            # Sphinx's parameter fields, where the class's own constructor takes no other keywords (`**kwargs`)
            constructor = next((statement for statement in node.body if isinstance(statement, ast.FunctionDef)
                                and statement.name == "__init__"), None)
            arguments = {parameter.arg for parameter in parameters(constructor)} if constructor else set()
            fields = set(SPHINX_PARAMETER.findall(doc)) if constructor and not constructor.args.kwarg else set()
            marked = set(SPHINX_ATTRIBUTE.findall(doc))
            for name in docstring_attributes(doc) | ((docstring_listed_names(doc) | fields) - arguments):
                self.builder.documented(name, sphinx=name in marked)
        self._note_references(doc)
        self.generic_visit(node)
        lists = self.class_lists.pop()
        if lists.may_rebuild():
            self.rebuild_method = True
            self.rebuild_classes.add(node.name)
        self.class_nodes.setdefault(node.name, []).append(node)
        if self.builder.facts.classes[node.name].registers and hands_out_assigned_values(node):
            self.builder.reads_all()  # every assignment an item of a mapping the class uses whole
        looped = self.looped.pop()
        if looped.looked_up:
            if (public := looped.reads_every_attribute()) is not None:
                self.builder.reads_all(public=public)
            for name in sorted(looped.names_read()):
                self.builder.read(name, node.name, as_written=False)
            self.builder.looks_up_parameters(looped.parameters_looked_up())
        self._read_named_by_attribute()
        kept = self.kept.pop()
        for name in sorted(kept.added) if kept.takes_ids else ():
            self.builder.read(name, node.name)
        self.name_attributes.pop()
        methods = self.builder.facts.classes[node.name].methods
        for alias, method in self.method_aliases.pop():
            if method in methods:  # `self.fit_to_children = self.englobe_children`: the object's interface
                self.builder.read(alias, node.name)
        keys = self.class_keys.pop()
        self.seeded.update(keys.read_again())
        self.seeding_methods.extend(keys.seeding_methods(self.source))
        self.builder.leave_class()
        self.scope.leave()

    def _note_references(self, doc: str | None) -> None:
        """The attributes a docstring names for its readers (`ATTRIBUTE_REFERENCES`) are API; those its examples
        read (`>>> note.pitch`, a code block's `if match.time_span > 1:`) are read, on objects of any class, as
        code that runs outside any class."""
        doc = doc or ""
        for needed, reference, sphinx in ATTRIBUTE_REFERENCES:
            if needed in doc:
                for name in reference.findall(doc):
                    self.builder.documented(name, sphinx=sphinx)
        if "ttribute" in doc:
            for listed in ATTRIBUTE_LIST.findall(doc):
                for name in QUOTED_NAME.findall(listed):
                    self.builder.documented(name)
        if "." in doc:
            for name in PROSE_REFERENCE.findall(doc_prose(doc)):
                self.builder.documented(name)
        if self.scope.owner_class and "self." in doc:  # `self` names an instance in a class only
            for name in SELF_REFERENCE.findall(doc):
                self.builder.documented(name)
        for example in doc_examples(doc):
            for node in walk(example):
                if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Store):
                    self.builder.read(node.attr, None, as_written=False)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if self.functions:
            self.functions[-1].defined.add(node.name)
        arguments = node.args
        every = parameters(node)
        positional = [*arguments.posonlyargs, *arguments.args]
        decorators = decorator_names(node)
        self.scope.enter_function(
            node.name, [a.arg for a in every], positional[0].arg if positional else None, decorators
        )
        method = MethodSeeds(self.scope.receiver or "") if self.scope.is_method else None
        lists = None
        if method is not None:  # a static method too: no receiver, so none of its code counts for another's
            top = {id(s.value if isinstance(s, ast.Expr) else s) for s in node.body}
            lists = MethodLists(self.scope.receiver or "", node.name, never_rebuilds(node.name, decorators), top)
            if self.scope.receiver:
                self.class_lists[-1].defined.setdefault(node.name, []).append((node, self.scope.receiver))
            else:
                self.class_lists[-1].defined.setdefault(node.name, [])
        if lists is not None:
            self.method_lists.append(lists)
        if method is None and any(d.rsplit(".", 1)[-1] == "dataclass_transform" for d in decorators):
            self.builder.makes_dataclasses(node.name)
        if method is not None:
            outer = node.decorator_list[0] if node.decorator_list else None
            self.builder.method(node.name, decorators,
                                None if outer is None or isinstance(outer, ast.Call) else dotted_name(outer))
            if node.name == "__init__":
                self.builder.init_parameters([a.arg for a in (*positional, *arguments.kwonlyargs)
                                              if a.arg != self.scope.receiver])
            if node.name == "__setattr__" and self.scope.receiver and (stores_items(node, self.scope.receiver)
                                                                       or hands_values_elsewhere(node)):
                self.builder.reads_all()  # each attribute an item of the mapping the object is, or another's
            if self.scope.receiver:
                self.builder.returns(node.name, decorators, annotation_classes(node.returns))
            self.methods.append(method)
            self.class_keys[-1].methods.append((first_line(node), node.end_lineno or node.lineno))
            self.class_keys[-1].receivers.add(method.receiver)
        local = FunctionLocals(parameters=frozenset(a.arg for a in every if a.arg != self.scope.receiver),
                               name=node.name,
                               passed=tuple(a.arg for a in positional if a.arg != self.scope.receiver),
                               options=arguments.kwarg.arg if arguments.kwarg else None,
                               bound_name=positional[2].arg if node.name == "__set_name__" and self.scope.is_method
                               and len(positional) == 3 else None, definition=node)
        for argument in every:
            if argument.arg != self.scope.receiver:
                local.bind(argument.arg, annotation_classes(argument.annotation), argument)
        with_defaults = positional[len(positional) - len(arguments.defaults):] + arguments.kwonlyargs
        for argument, default in zip(with_defaults, [*arguments.defaults, *arguments.kw_defaults]):
            local.strings.setdefault(argument.arg, set()).update(bound_strings(default))
        self.functions.append(local)
        self._note_attribute_docstrings(node)
        self._note_references(ast.get_docstring(node, clean=False))
        restored = self.restored_state
        if self.scope.is_method and node.name == "__setstate__" and len(positional) == 2:
            self.restored_state = positional[1].arg
        self.generic_visit(node)
        self.restored_state = restored
        self.functions.pop()
        if local.signs and method is not None and returns_parameter_names(node):
            self.parameter_name_methods.add(node.name)
        self._resolve(local)
        self._hand_over(local)
        self._read_evaluated(local)
        if lists is not None:
            self.method_lists.pop()
            if not lists.never:
                self.class_lists[-1].appended.update((node.name, name) for name in lists.appended)
        if method is not None:
            for key, words in self.methods.pop().keys().items():
                self.class_keys[-1].seeded.setdefault(key, set()).update(words)
        self.scope.leave()

    def _resolve(self, local: FunctionLocals) -> None:
        """The reads on the function's local names, once its every binding of them is known."""
        classes = local.classes_of()
        for name, kind, read in local.pending:
            for cls in classes.get(name) or [None]:
                if kind == "pattern":
                    self.builder.read_pattern(read, cls)
                else:
                    self.builder.read(read, cls, as_written=kind == "read")

    visit_AsyncFunctionDef = visit_FunctionDef


def summarize(path: str, source: str | bytes) -> FileFacts:
    """Facts from `ast`; a file Python cannot parse yields facts with `error`."""
    return parsed_summary(path, source)[0]


def parsed_summary(path: str, source: str | bytes) -> tuple[FileFacts, ast.Module | None]:
    """`summarize`, with the tree it was made of (None where Python cannot parse the file), for what else the
    same parse serves."""
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        return FileFacts(path=path, error=python_syntax_error(error)), None
    except (ValueError, RecursionError, MemoryError) as error:  # NUL bytes, nesting beyond the parser
        return FileFacts(path=path, error=f"cannot parse: {type(error).__name__}"), None
    return summary_of_tree(path, tree, source), tree


def collected(source: str | bytes, collectors: Mapping[str, Callable[[ast.Module, SourceLines], Any]]
              ) -> dict[str, Any] | None:
    """The facts each collector of Python's tree makes of the source, by code; None where Python rejects the
    source or nests too deeply for a collector's walk."""
    try:
        tree = ast.parse(source)
        lines = SourceLines(source)
        return {code: collect(tree, lines) for code, collect in collectors.items()}
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


class SourceLines:
    """The source's lines as `ast` counts columns (UTF-8 bytes), made only when asked for; and the character
    columns libcst and flake8 count, from `ast`'s."""

    def __init__(self, source: str | bytes) -> None:
        self.source = source
        self.ascii = source.isascii()  # columns in bytes and in characters agree
        self.lines: list[bytes] | None = None

    def line(self, number: int) -> bytes:
        if self.lines is None:
            text = self.source if isinstance(self.source, str) else decoded(self.source)
            self.lines = [line.encode("utf-8") for line in re.split(r"\r\n|\r|\n", text)]
        return self.lines[number - 1]

    def column(self, number: int, offset: int) -> int:
        return offset if self.ascii else len(self.line(number)[:offset].decode("utf-8", "replace"))


def decoded(source: bytes) -> str:
    encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
    return source.decode(encoding, "replace")


def documentation_summary(path: str, source: str | bytes) -> FileFacts:
    """The attributes a page of the project's documentation describes to users, and those the code it shows
    them reads (users' code: `p.parser.state` in a changelog's example, `<tt>lexer.lexmatch</tt>`)."""
    text = source.decode("utf-8", "replace") if isinstance(source, bytes) else source
    suffix = os.path.splitext(path)[1].lower()
    if suffix in HTML_SUFFIXES and BUILT_HTML.search(text):
        return FileFacts(path=path)  # a built copy of the source pages, the package's own code included
    code = list(shown_code(text, suffix))
    shown = {name for part in code for name in CODE_ATTRIBUTE.findall(part)}
    return FileFacts(path=path, documented=set(SPHINX_ATTRIBUTE.findall(text)) | shown, class_reads=objects_read(code))


def objects_read(code: list[str]) -> dict[str, set[str]]:
    """Class -> the attributes a page's code reads on the objects it makes of that class (`article =
    Article(url)`, then `article.authors`), not those it calls (`article.parse()`) or assigns: what users read on
    the objects the page shows them. Names are bound for the page's whole code, its blocks one after another."""
    made: dict[str, set[str]] = {}
    for part in code:
        for variable, cls in MADE_OBJECT.findall(part):
            made.setdefault(variable, set()).add(cls)
    reads: dict[str, set[str]] = {}
    for part in code if made else ():
        for variable, attribute in NAME_ATTRIBUTE_READ.findall(part):
            for cls in made.get(variable, ()):
                reads.setdefault(cls, set()).add(attribute)
    return reads


def shown_code(text: str, suffix: str) -> Iterator[str]:
    """The code a page shows: an HTML page's code elements; a reStructuredText or Markdown page's literals,
    literal, code and fenced blocks, and doctest lines; a plain-text page throughout (a changelog indents its
    examples as it does its prose)."""
    if suffix in HTML_SUFFIXES:
        yield from html_code(text)
    elif suffix in (".rst", ".md"):
        yield from (double or single for double, single in INLINE_LITERAL.findall(text))
        yield from block_lines(text.splitlines(), fences=suffix == ".md")
    else:
        yield text


def html_code(text: str) -> Iterator[str]:
    """The text of an HTML page's code elements, outermost first, their own tags stripped."""
    depth, start = 0, 0
    for tag in HTML_CODE_TAG.finditer(text):
        if not tag.group(1):
            if depth == 0:
                start = tag.end()
            depth += 1
        elif depth:
            depth -= 1
            if depth == 0:
                yield html.unescape(HTML_TAG.sub("", text[start:tag.start()]))


def block_lines(lines: list[str], fences: bool) -> Iterator[str]:
    """The lines of a page's code blocks (`code_blocks`) and its doctest lines."""
    for block in code_blocks(lines, fences):
        yield from block
    yield from (line for line in lines if line.lstrip().startswith((">>> ", "... ")))


def dedented(lines: list[str]) -> str:
    """The lines without the indentation they all share (textwrap's, whose import costs more than its use)."""
    indent = min((indentation(line) for line in lines if line.strip()), default=0)
    return "\n".join(line[indent:] for line in lines)


def code_blocks(lines: list[str], fences: bool) -> Iterator[list[str]]:
    """The lines of each code block: fenced ones where `fences` (in a reStructuredText page, `~~~` underlines a
    title), literal and code blocks (reStructuredText's, indented under a line ending in `::` or a code
    directive)."""
    fence: str | None = None  # the fence of the block being read
    block_indent: int | None = None  # the indentation of the line that opened the literal block being read
    block: list[str] = []
    for line in lines:
        stripped = line.lstrip()
        if fence is not None:
            if stripped.startswith(fence):
                fence = None
                yield block
                block = []
            else:
                block.append(line)
            continue
        indent = len(line) - len(stripped)
        if block_indent is not None and (not stripped or indent > block_indent):
            block.append(line)
            continue
        if block:
            yield block
            block = []
        fence = next((mark for mark in FENCE if stripped.startswith(mark)), None) if fences else None
        block_indent = indent if LITERAL_BLOCK_START.search(line) else None
    if block:
        yield block


def summary_of_tree(path: str, tree: ast.Module, source: str | bytes) -> FileFacts:
    summarizer = Summarizer(SourceLines(source))
    try:
        summarizer.visit(tree)
        summarizer.resolve_module_names(tree)
    except RecursionError:
        return FileFacts(path=path, error="nested too deeply to analyse")
    facts = summarizer.builder.finished()
    facts.path = path
    # SS102's collector judges a class by all it sees of the classes of that name (their attributes' bindings)
    facts.signals = Signals(summarizer.guarded_loop, summarizer.rebuild_method, summarizer.rebuild_spans(),
                            frozenset(summarizer.seeded), tuple(sorted(set(summarizer.seeding_methods))))
    return facts
