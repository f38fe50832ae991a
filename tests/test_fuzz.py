"""Generated programs: no exception escapes, and every position reported lies inside the file."""

from __future__ import annotations

import hypothesmith
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import full_facts
from flake8_stale_state.engine import Analyzer
from flake8_stale_state.settings import Settings
from flake8_stale_state.summary import summarize

# Bounded so that CI stays fast; raise with --hypothesis-seed / a profile to search longer.
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
PRODUCTIONS = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


def assert_inside(source: str, line: int, col: int) -> None:
    lines = source.splitlines() or [""]
    assert 1 <= line <= len(lines), (line, len(lines))
    assert 0 <= col <= len(lines[line - 1]), (col, lines[line - 1])


def check_program(tmp_path, source: str) -> None:
    for facts in (summarize("m.py", source), full_facts("m.py", source)):
        for write in facts.writes:
            assert_inside(source, write.line, write.col)
    folder = tmp_path / "pkg"
    folder.mkdir(exist_ok=True)
    (folder / "__init__.py").write_text("")
    (folder / "m.py").write_text(source, encoding="utf-8")
    analyzer = Analyzer(Settings(use_cache=False))
    for finding in analyzer.check(folder / "m.py", source):
        assert_inside(source, finding.line, finding.col)


@FUZZ
@given(source=hypothesmith.from_grammar())
def test_programs_from_the_grammar(tmp_path_factory, source):
    check_program(tmp_path_factory.mktemp("grammar"), source)


NAMES = st.sampled_from(["a", "b", "cache", "key", "items", "config", "self", "cls", "other"])
ATTRIBUTES = st.sampled_from(["a", "b", "cache", "key", "items", "interval", "__dict__"])


@st.composite
def statements(draw, depth: int = 0) -> list[str]:
    """Statements of a method body: attribute writes and reads, `if` guards and loops, nested."""
    nested = ["if", "for", "while", "with"] if depth < 3 else []
    kind = draw(st.sampled_from(["write", "read", "append", "call", *nested]))
    owner, name, other = draw(NAMES), draw(ATTRIBUTES), draw(ATTRIBUTES)
    if kind == "write":
        return [draw(st.sampled_from([f"{owner}.{name} = {owner}.{other}", f"{owner}.{name}, x = 1, 2",
                                      f"{owner}.{name}: int = cfg['{name}']", f"{owner}.{name} += 1"]))]
    if kind == "read":
        return [draw(st.sampled_from([f"print({owner}.{name})", f"getattr({owner}, '{name}')", f"f'{{{owner}.{name}}}'",
                                      f"del {owner}.{name}", f"'{{0.{name}}}'.format({owner})"]))]
    if kind == "append":
        return [f"{owner}.{name}.append({other})", f"{owner}.{name} = []"]
    if kind == "call":
        return [f"{owner}.{name}()"]
    body = [line for _ in range(draw(st.integers(1, 3))) for line in draw(statements(depth + 1))]
    header = {"if": f"if {owner}.{name} != {other}:", "for": f"for {owner}.{name} in {other}:",
              "while": f"while {owner}.{name}:", "with": f"with open(x) as {owner}.{name}:"}[kind]
    return [header, *("    " + line for line in body)]


@st.composite
def programs(draw) -> str:
    lines = []
    for number in range(draw(st.integers(1, 3))):
        base = draw(st.sampled_from(["", "(object)", "(nn.Module)", "(BaseModel)", f"(C{max(number - 1, 0)})"]))
        decorator = draw(st.sampled_from(["", "@dataclass", "@attr.s"]))
        lines += [decorator, f"class C{number}{base}:", "    x: int = 0"]
        for method in range(draw(st.integers(1, 3))):
            method_decorator = draw(st.sampled_from(["", "@classmethod", "@property", "@x.setter", "@staticmethod"]))
            receiver = draw(st.sampled_from(["self", "cls", "other"]))
            lines += [f"    {method_decorator}", f"    def m{method}({receiver}, cfg={{}}):"]
            body = [line for _ in range(draw(st.integers(1, 4))) for line in draw(statements())]
            lines += ["        " + line for line in body]
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    return newline.join(line for line in lines if line.strip()) + newline


@PRODUCTIONS
@given(source=programs())
def test_programs_built_from_what_the_checks_look_at(tmp_path_factory, source):
    compile(source, "m.py", "exec")  # the strategy builds valid programs only
    check_program(tmp_path_factory.mktemp("productions"), source)
