"""The libcst traversal the collectors run in: the same nodes, hooks and order as libcst's own batched visit."""

from __future__ import annotations

import textwrap

import hypothesmith
import libcst as cst
import pytest
from hypothesis import HealthCheck, given, settings
from libcst.metadata import MetadataWrapper, PositionProvider

from conftest import FIXTURES, REPO
from flake8_stale_state.cst_facts import PUNCTUATION, Traversal, children, positions
from flake8_stale_state.package import python_files

SOURCES = sorted([*python_files(FIXTURES), *python_files(REPO / "flake8_stale_state")])

EVERY_FORM = textwrap.dedent('''\
    @decorate(1)
    @other
    async def run(a, /, b: int = 2, *args, c, d=3, **kw) -> "T":
        async with open(a) as (x, y), other() as z:
            async for i in range(b):
                await i
        x = [i for i in y if i if not i] + {k: v for k, v in z} | {*a, *b}
        y = lambda q, *r, s=1: (yield q) if r else s
        del x[1:2:3], y.z
        global g
        try:
            pass
        except* ValueError as error:
            raise ValueError("x") from error
        else:
            pass
        finally:
            return f"{a!r:>{b}} {c=}" "plain", b"bytes"
        match x:
            case [1, *rest] | {"k": 2, **more} if rest:
                pass
            case Point(x=0, y=_) as p:
                pass
        assert (w := x) is not None, "message"
        print(*args, sep="", **kw); x += 1; y @= 2; z = not -~+a ** b // c % d << e >> f & g ^ h | i
        return x[::2], x.y.z(), (a, b), a < b <= c != d in e not in f is g is not h
''')


def sources() -> list[tuple[str, str]]:
    return [("every form", EVERY_FORM), *((str(path), path.read_text()) for path in SOURCES)]


class Recorder(cst.BatchableCSTVisitor):
    """Notes each node it enters and leaves, by hooks named after every node class: what a collector sees."""

    def __init__(self, events: list[tuple[str, int]]) -> None:
        super().__init__()
        self.events = events

    def get_visitors(self) -> dict:
        hooks = {}
        for kind in node_classes():
            hooks[f"visit_{kind.__name__}"] = lambda node, name=kind.__name__: self.events.append(("in", id(node)))
            hooks[f"leave_{kind.__name__}"] = lambda node, name=kind.__name__: self.events.append(("out", id(node)))
        return hooks


def node_classes() -> set[type]:
    found, pending = set(), [cst.CSTNode]
    while pending:
        for sub in pending.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                pending.append(sub)
    return found


def code_events(module: cst.Module, walk) -> list[tuple[str, int]]:
    """The enter and leave events of the nodes that hold code (punctuation and whitespace aside)."""
    events: list[tuple[str, int]] = []
    punctuation = {id(node) for node in all_nodes(module) if type(node) in PUNCTUATION}
    walk(module, [Recorder(events)])
    return [event for event in events if event[1] not in punctuation]


def all_nodes(node: cst.CSTNode) -> list[cst.CSTNode]:
    found, pending = [], [node]
    while pending:
        current = pending.pop()
        found.append(current)
        pending.extend(current.children)
    return found


@pytest.mark.parametrize(("name", "source"), sources(), ids=lambda value: value.rpartition("/")[2][:40])
def test_children_are_libcsts_in_its_order(name: str, source: str) -> None:
    module = cst.parse_module(source)
    for node in all_nodes(module):
        assert [id(child) for child in children(node)] == [id(child) for child in node.children], name


def libcst_walk(module: cst.Module, visitors: list) -> None:
    MetadataWrapper(module, unsafe_skip_copy=True).visit_batched(visitors)


def own_walk(module: cst.Module, visitors: list) -> None:
    Traversal(visitors).run(MetadataWrapper(module, unsafe_skip_copy=True))


@pytest.mark.parametrize(("name", "source"), sources(), ids=lambda value: value.rpartition("/")[2][:40])
def test_traversal_enters_and_leaves_as_libcst_does(name: str, source: str) -> None:
    module = cst.parse_module(source)
    expected = code_events(module, libcst_walk)
    assert expected  # the module itself at least
    assert code_events(module, own_walk) == expected, name


def test_traversal_enters_punctuation_a_visitor_asks_for() -> None:
    module = cst.parse_module("a = (b, c)\n")
    seen: list[str] = []

    class Commas(cst.BatchableCSTVisitor):
        def visit_Comma(self, node: cst.Comma) -> None:
            seen.append("comma")

    own_walk(module, [Commas()])
    assert seen == ["comma"]


@given(hypothesmith.from_grammar())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_traversal_matches_libcst_on_generated_programs(source: str) -> None:
    try:
        module = cst.parse_module(source)
    except (cst.ParserSyntaxError, RecursionError):
        return
    for node in all_nodes(module):
        assert [id(child) for child in children(node)] == [id(child) for child in node.children]
    assert code_events(module, own_walk) == code_events(module, libcst_walk)


def test_positions_are_libcsts() -> None:
    module = cst.parse_module(EVERY_FORM)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    made = positions(wrapper)
    assert dict(made) == dict(expected)
    assert positions(wrapper) is made  # made once per tree
    assert wrapper.resolve(PositionProvider) is made  # and what the resolver hands out
