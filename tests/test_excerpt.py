"""Excerpts: the collectors see only what holds the candidate lines, and find there what they find in the whole
file."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import textwrap
from dataclasses import replace

import hypothesmith
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import FIXTURES, REPO, full_facts
from flake8_stale_state.excerpt import excerpt
from flake8_stale_state.facts import FileFacts
from flake8_stale_state.checks import RULES
from flake8_stale_state.engine import checks_kind
from flake8_stale_state.index import facts_of
from flake8_stale_state.package import python_files
from flake8_stale_state.summary import summarize

SOURCES = sorted([*python_files(FIXTURES), *python_files(REPO / "flake8_stale_state")])

CLASS = textwrap.dedent('''\
    """Module docstring."""
    import os

    @register(
        "a")
    class Engine(Base):
        """Docstring."""
        size = 1; limit = 2

        def __init__(self, config):
            self.config = config
            self.seen = []  # line 12

        @property
        def ready(self):
            return self.seen

        if TYPE_CHECKING:
            def typed(self): self.kind = 1  # line 19
        elif os.name == "nt":
            def typed(self):
                self.kind = 2
        else: typed = None

        try:
            import fast
        except ImportError:
            fast = None

        match os.name:
            case "nt":
                flavour = 1
            case _:
                flavour = 2


    def helper():
        return Engine
    ''')


def lines_of(text: str) -> list[str]:
    """Lines as Python counts them (not str.splitlines, which also breaks at form feeds and more)."""
    return re.split(r"\r\n|\r|\n", text)


@pytest.mark.parametrize("wanted, kept", [
    ({12}, [10, 12]),  # the statement holding the line, and the headers of its method and class
    ({19}, [18, 19]),  # a one-line function in an `if` at class level: the `if` header stays
    ({22}, [18, 20, 21, 22, 23]),  # an `elif` is continued, not blanked; the one-line `else:` stays
    ({33}, [30, 31, 33]),  # a `case` body
    (set(), []),
])
def test_excerpt_keeps_what_holds_the_lines_and_the_headers_around(wanted, kept):
    part = excerpt(CLASS, ast.parse(CLASS), wanted)
    ast.parse(part)  # still Python
    original, excerpted = lines_of(CLASS), lines_of(part)
    assert len(excerpted) == len(original)
    headers = {4, 5, 6} if wanted else set()
    for number in {*kept, *headers}:
        assert excerpted[number - 1] == original[number - 1]
    # everything else is blank, `pass` (opening a string over a run's other lines), or a header of a block
    others = {n for n in range(1, len(original) + 1)} - {*kept, *headers}
    changed = [n for n in others if excerpted[n - 1] != original[n - 1]]
    assert all(excerpted[n - 1].strip() in ("", "pass", 'pass; """', '"""') for n in changed)
    assert "def helper" not in part and "Module docstring" not in part
    if wanted:
        assert "size = 1" not in part  # a line of two statements, neither wanted


def test_statements_sharing_a_line_with_a_wanted_one_stay():
    source = "class A:\n    def f(self): pass\n    x = 1; y = f(\n        2); z = 3\n"
    part = excerpt(source, ast.parse(source), {4})
    assert lines_of(part)[2:] == lines_of(source)[2:]
    assert lines_of(part)[1].strip() == "pass"


def test_a_wanted_line_between_statements_stays():
    source = "a = 1\n# wanted\nb = 2\n"
    assert lines_of(excerpt(source, ast.parse(source), {2})) == ["pass", "# wanted", "pass", ""]


def test_a_run_of_lines_is_one_string_that_documents_nothing():
    source = "class A:\n    def f(self):\n        self.x = 1\n        y = 2\n\n        z = (\n            3)\n"
    part = excerpt(source, ast.parse(source), {3})
    assert lines_of(part) == [
        "class A:", "    def f(self):", "        self.x = 1", '        pass; """', "", "", '"""', "",
    ]
    # a string right after an assignment would be its documentation (Sphinx); after `pass` it is nobody's
    assert full_facts("a.py", source, lines=[3]).documented == full_facts("a.py", source).documented == set()


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_line_endings_and_encodings_are_kept(newline):
    text = "# coding: latin-1\nclass A:\n    def f(self):\n        self.x = 'é'\n    def g(self):\n        pass\n"
    source = text.replace("\n", newline).encode("latin-1")
    part = excerpt(source, ast.parse(source), {4})
    assert part.split(newline.encode())[:4] == source.split(newline.encode())[:4]
    assert part.count(newline.encode()) == source.count(newline.encode())
    ast.parse(part)


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(REPO)) for p in SOURCES])
def test_the_collectors_find_in_the_excerpt_of_a_write_what_they_find_there_in_the_whole_file(path):
    source = path.read_bytes()
    whole = full_facts(str(path), source)
    for line in sorted({write.line for write in summarize(str(path), source).writes}):
        part = facts_of(checks_kind(RULES, [line]), str(path), source)
        assert part.error is None
        assert [w for w in part.writes if w.line == line] == [w for w in whole.writes if w.line == line]


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(source=hypothesmith.from_grammar(), data=st.data())
def test_an_excerpt_of_any_program_parses_and_keeps_its_wanted_lines(source, data):
    tree = ast.parse(source)
    original = lines_of(source)
    wanted = data.draw(st.sets(st.integers(1, len(original)), max_size=3))
    part = excerpt(source, tree, wanted)
    ast.parse(part)
    assert len(lines_of(part)) == len(original)
    for line in wanted:
        assert lines_of(part)[line - 1] == original[line - 1]


def test_the_checks_facts_are_made_without_libcst():
    """Every collector reads Python's tree: libcst loads only for a file Python rejects, or to fix one."""
    from flake8_stale_state.checks.stale_cache import RULE  # noqa: PLC0415

    engine = FIXTURES / "ss103" / "pipeline" / "pipe" / "engine.py"
    script = (
        "import sys\n"
        "from conftest import full_facts\n"
        f"rebuilds = full_facts('module.py', {RULE.examples[0].source!r}, codes=['SS102']).checks['SS102']\n"
        f"shadowing = full_facts('engine.py', open({str(engine)!r}).read(), codes=['SS103'], lines=range(5, 17))\n"
        "print(len(rebuilds.found), len(shadowing.checks['SS103'].reads), 'libcst' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=REPO / "tests", capture_output=True, text=True,
                            timeout=120, check=True)
    assert result.stdout.split() == ["1", "1", "False"]


def counting_collections(monkeypatch: pytest.MonkeyPatch) -> list[str | bytes]:
    """The sources the checks' collectors read from now on."""
    from flake8_stale_state import summary as summariser

    collected: list[str | bytes] = []
    collect = summariser.collected
    monkeypatch.setattr(summariser, "collected",
                        lambda source, collectors: collected.append(source) or collect(source, collectors))
    return collected


def edited_line(source: str, line: int) -> str:
    """`source` with text typed at the end of `line` (a comment: the code stays valid)."""
    lines = source.splitlines(keepends=True)
    lines[line - 1] = lines[line - 1].rstrip("\r\n") + "  # edited\n"
    return "".join(lines)


EDITED = [path for path in SOURCES if len({w.line for w in summarize(str(path), path.read_bytes()).writes}) > 1][:30]


@pytest.mark.parametrize("path", EDITED, ids=[str(p.relative_to(REPO)) for p in EDITED])
def test_the_checks_of_an_excerpt_the_cache_knows_are_those_the_collectors_find(path, tmp_path, monkeypatch):
    """An edit that leaves the excerpt as it was (text typed on a line no collector needs) takes the checks'
    facts from the cache, without the collectors: those they make of the edited file. An edit of a line the excerpt
    keeps makes them anew."""
    from flake8_stale_state.cache import FactsCache

    source = path.read_text(encoding="utf-8")
    lines = sorted({write.line for write in summarize(str(path), source).writes})
    wanted = lines[:1]
    kind = checks_kind(RULES, wanted)
    cache = FactsCache(tmp_path)
    collected = counting_collections(monkeypatch)
    made = facts_of(kind, str(path), source, cache=cache)
    assert len(collected) == 1

    kept = excerpt(source, ast.parse(source), wanted)
    away = next(line for line in reversed(lines)
                if excerpt(edited := edited_line(source, line), ast.parse(edited), wanted) == kept)
    unrelated = edited_line(source, away)
    recalled = facts_of(kind, str(path), unrelated, cache=cache)
    assert len(collected) == 1  # the collectors read nothing new
    assert recalled == replace(summarize(str(path), unrelated), checks=made.checks)
    assert recalled.checks == facts_of(kind, str(path), unrelated).checks  # without the cache

    one_rule = checks_kind(RULES[1:2], wanted)  # the same excerpt, another set of collectors: their own facts
    assert facts_of(one_rule, str(path), source, cache=cache).checks.keys() == {RULES[1].code}
    assert facts_of(kind, str(path), source, cache=cache).checks == made.checks

    related = edited_line(source, wanted[0])
    collected.clear()
    changed = facts_of(kind, str(path), related, cache=cache)
    assert len(collected) == 1
    assert changed.checks == facts_of(kind, str(path), related).checks


@pytest.mark.parametrize("damage", ["not json", '{"key": "%s", "checks": {"SS102": 3}}', '{"key": "%s"}',
                                    '{"key": "%s", "checks": {}}'])  # the last: no collector's facts
def test_a_damaged_excerpt_entry_is_made_again(tmp_path, monkeypatch, damage):
    from flake8_stale_state.cache import FactsCache

    path = EDITED[0]
    source = path.read_text(encoding="utf-8")
    kind = checks_kind(RULES, sorted({write.line for write in summarize(str(path), source).writes})[:1])
    made = facts_of(kind, str(path), source, cache=FactsCache(tmp_path))
    (entry,) = [entry for entry in tmp_path.rglob("*.json") if '"checks"' in entry.read_text()]
    entry.write_text(damage % entry.stem if "%s" in damage else damage)
    collected = counting_collections(monkeypatch)
    assert facts_of(kind, str(path), source, cache=FactsCache(tmp_path)) == made
    assert len(collected) == 1


def test_facts_made_of_the_whole_file_are_not_kept_by_the_excerpts_content(tmp_path, monkeypatch):
    """Where Python rejects the excerpt, the checks' facts are the whole file's: another file with the same
    excerpt would be told them, so they are not cached by it."""
    from flake8_stale_state import summary as summariser
    from flake8_stale_state.cache import FactsCache
    from flake8_stale_state.index import ExcerptChecks

    path = EDITED[0]
    source = path.read_text(encoding="utf-8")
    kind = checks_kind(RULES, sorted({write.line for write in summarize(str(path), source).writes})[:1])
    part = excerpt(source, ast.parse(source), kind.lines)
    original = summariser.collected
    monkeypatch.setattr(summariser, "collected",
                        lambda given, collectors: None if given == part else original(given, collectors))
    cache = FactsCache(tmp_path)
    made = facts_of(kind, str(path), source, cache=cache)
    assert made.error is None and made.checks.keys() == kind.facts_types.keys()
    assert ExcerptChecks(cache, kind, part).load() is None
    monkeypatch.setattr(summariser, "collected", original)
    facts_of(kind, str(path), source, cache=cache)
    assert ExcerptChecks(cache, kind, part).load() is not None  # made of the excerpt: kept


def test_no_collector_no_parse_for_one(monkeypatch):
    from flake8_stale_state import summary as summariser

    def unwanted(*arguments):
        raise AssertionError("Python's tree parsed again for no collector")

    path = EDITED[0]
    source = path.read_text(encoding="utf-8")
    without = [rule for rule in RULES if not rule.collecting]
    assert without and len(without) < len(RULES)
    summary = summarize(str(path), source)
    monkeypatch.setattr(summariser, "collected", unwanted)
    assert facts_of(checks_kind(without), str(path), source, summary).checks == {}
    with pytest.raises(AssertionError, match="parsed again"):
        facts_of(checks_kind(RULES), str(path), source, summary)


@pytest.mark.parametrize("rule", [rule for rule in RULES if rule.collecting], ids=lambda rule: rule.code)
def test_a_file_only_libcst_parses_gets_empty_facts_of_the_checks(monkeypatch, rule):
    """Newer syntax than the running Python's: libcst makes the summary, and the checks' collectors, which read
    Python's tree, find nothing there rather than fail the file."""
    from flake8_stale_state import cst_facts, summary as summariser

    source = next(example.source for example in rule.examples if example.title.startswith("Reported"))
    code = rule.collecting.code
    assert full_facts("m.py", source).checks[code] != rule.collecting.facts()
    monkeypatch.setattr(cst_facts, "python_tree", lambda source: None)
    monkeypatch.setattr(summariser, "parsed_summary",
                        lambda path, source: (FileFacts(path, error="newer syntax"), None))
    facts = full_facts("m.py", source)
    assert facts.error is None and facts.writes
    assert facts.checks[code] == rule.collecting.facts()
