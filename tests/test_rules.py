"""The rule registry: every rule's examples run as tests, the README's codes table is the registry's, layers
point one way, and a rule registered at run time takes part in everything the others do."""

from __future__ import annotations

import ast
import json
import re
import os
import sys
from pathlib import Path

import pytest

from conftest import REPO
from flake8_stale_state.checks import RULES, register
from flake8_stale_state.cli import main
from flake8_stale_state.engine import UNANALYSED, Analyzer
from flake8_stale_state.rule import Example
from flake8_stale_state.settings import Settings

EXAMPLES = [(rule, example) for rule in RULES for example in rule.examples]


def findings_of_example(tmp_path: Path, example: Example) -> list:
    """The example as a package of its own: `pkg/example.py`."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    module = package / "example.py"
    module.write_text(example.source)
    return Analyzer(Settings(use_cache=False)).check(module)


@pytest.mark.parametrize(("rule", "example"), EXAMPLES, ids=[f"{r.code}: {e.title}" for r, e in EXAMPLES])
def test_each_rule_reports_exactly_the_lines_its_examples_mark(tmp_path, rule, example):
    found = [f for f in findings_of_example(tmp_path, example) if f.code == rule.code]
    assert {f.line for f in found} == example.marked_lines(rule.code)
    lines = example.source.splitlines()
    for finding in found:  # the text after the marker is part of the message
        said = re.search(rf"#\s*{rule.code}\b\s*(.*)$", lines[finding.line - 1]).group(1).strip()
        assert said in finding.message


def test_each_rule_has_an_example_it_reports_and_one_it_stays_quiet_on():
    for rule in RULES:
        marked = [bool(example.marked_lines(rule.code)) for example in rule.examples]
        assert True in marked and False in marked, rule.code


def test_codes_and_names_are_unique_and_registering_a_known_code_is_refused():
    assert len({rule.code for rule in RULES}) == len({rule.name for rule in RULES}) == len(RULES)
    with pytest.raises(ValueError, match="SS101"):
        register(RULES[0])


def codes_table() -> str:
    """The README's table of codes, as the registry gives it."""
    rows = [f"| {UNANALYSED} | the file could not be analysed (it cannot be parsed, read or decoded, or nests too "
            "deeply) | line 1 |"]
    rows += [f"| {rule.code} | {rule.summary} | {rule.reported_at} |" for rule in RULES]
    return "\n".join(["| code | what | reported at |", "|---|---|---|", *rows])


def test_the_readme_codes_table_is_the_registrys():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert codes_table() in readme, f"README.md's table of codes should read:\n{codes_table()}"


def test_the_readme_shows_each_rules_examples():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for rule in RULES:
        section = readme.split(f"### {rule.code}: {rule.title}\n", 1)[1].split("\n### ", 1)[0]
        for example in rule.examples:
            assert f"```python\n{example.source}```" in section, (rule.code, example.title)


# layers -------------------------------------------------------------------------------------------------------
PACKAGE = REPO / "flake8_stale_state"
# lower first: a module may import modules of its own layer or lower ones, never higher ones
LAYERS = (
    # plain data, and helpers that import nothing of the package
    {"codec", "scope", "settings", "package", "excerpt", "findings", "hint", "comments", "gitbase", "__init__"},
    {"facts"},  # what the checks read of a file
    {"summary", "cst_facts"},  # the two traversals that make facts
    {"cache", "environment", "library_bases", "homonyms", "index", "memo"},  # the package index, findings remembered
    {"rule", "checks"},  # the rules
    {"engine", "edits"},  # package -> index -> rules -> findings
    {"formats", "sarif", "baseline", "config", "cli", "plugin", "lsp", "__main__"},  # the front ends
)


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE).with_suffix("").parts)


def imports_of(path: Path, at_import_only: bool) -> set[str]:
    """The package's modules `path` imports; `at_import_only`: not those imported inside functions or for type
    checking only (libcst's side of a rule is imported when a file is parsed, by the rule's module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    if at_import_only:
        for node in ast.walk(tree):
            deferred = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or (
                isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
            if deferred:
                skipped.update(id(inner) for inner in ast.walk(node) if inner is not node or isinstance(node, ast.If))
    found = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("flake8_stale_state"):
            base = node.module.removeprefix("flake8_stale_state").lstrip(".")
            for alias in node.names:
                candidate = f"{base}.{alias.name}" if base else alias.name
                found.add(candidate if (PACKAGE / Path(*candidate.split("."))).with_suffix(".py").exists()
                          or (PACKAGE / Path(*candidate.split("."))).is_dir() else base)
        elif isinstance(node, ast.Import):
            found.update(alias.name.removeprefix("flake8_stale_state.") for alias in node.names
                         if alias.name.startswith("flake8_stale_state."))
    found.discard("")
    return found - {module_name(path)}


def graph(at_import_only: bool) -> dict[str, set[str]]:
    modules = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    return {name: {imported for imported in imports_of(path, at_import_only) if imported in modules}
            for name, path in modules.items()}


def layer(module: str) -> int:
    top = module.split(".")[0]
    return next(number for number, names in enumerate(LAYERS) if top in names)


def test_every_module_has_a_layer_and_imports_none_above_it():
    for module, imported in graph(at_import_only=False).items():
        above = {other for other in imported if layer(other) > layer(module)}
        assert not above, f"{module} (layer {layer(module)}) imports {above}"


def test_the_package_imports_form_no_cycle():
    edges = graph(at_import_only=True)
    state: dict[str, str] = {}

    def visit(module: str, path: list[str]) -> None:
        state[module] = "open"
        for imported in sorted(edges[module]):
            if state.get(imported) == "open":
                raise AssertionError(" -> ".join([*path, module, imported]))
            if imported not in state:
                visit(imported, [*path, module])
        state[module] = "done"

    for module in sorted(edges):
        if module not in state:
            visit(module, [])


def test_the_index_knows_no_rules():
    assert not {m for m in graph(at_import_only=False)["index"] if layer(m) >= layer("rule")}


# a rule added at run time ------------------------------------------------------------------------------------
FOURTH_RULE = '''\
"""SS190: a throwaway rule of the registry's test: an attribute named like a temporary value."""

from flake8_stale_state.checks import register
from flake8_stale_state.findings import Finding
from flake8_stale_state.rule import Example, Rule

TEMPORARY = {"tmp", "temp"}


def check(facts, index, settings):
    for write in facts.writes:
        if write.on_receiver and write.name in TEMPORARY:
            yield Finding(facts.path, write.line, write.col, "SS190", f"'{write.name}' looks temporary",
                          write.name, fix="")


RULE = Rule(
    code="SS190", name="temporary-attribute", title="temporary attribute", summary="an attribute named tmp",
    reported_at="`self.tmp`", description=__doc__,
    examples=(Example("named tmp", "class A:\\n    def f(self):\\n        self.tmp = 1  # SS190\\n"),),
    check=check,
)
register(RULE)
'''
SOURCE = "class Holder:\n    def keep(self, value):\n        self.tmp = value\n        return self.tmp\n"


@pytest.fixture
def fourth_rule(tmp_path, monkeypatch):
    """The rule's module on the path, registered in this process for the test's duration."""
    (tmp_path / "fourth_rule.py").write_text(FOURTH_RULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    before = list(RULES)
    import fourth_rule  # noqa: F401  (registers the rule)

    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "holder.py").write_text(SOURCE)
    monkeypatch.chdir(tmp_path / "project")
    yield tmp_path
    RULES[:] = before
    sys.modules.pop("fourth_rule", None)


def test_a_rule_registered_at_run_time_is_selected_reported_and_described(fourth_rule, capsys):
    assert main(["--select", "SS190", "holder.py"]) == 1
    assert capsys.readouterr().out == "holder.py:3:9: SS190 'tmp' looks temporary\n"
    assert main(["--select", "SS101", "holder.py"]) == 0
    assert main(["--ignore", "SS190", "holder.py"]) == 0
    capsys.readouterr()
    assert main(["--format", "sarif", "holder.py"]) == 1
    run = json.loads(capsys.readouterr().out)["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert rules[-1]["id"] == "SS190" and rules[-1]["name"] == "temporary-attribute"
    assert rules[-1]["helpUri"].endswith("#ss190-temporary-attribute")
    assert [(r["ruleId"], rules[r["ruleIndex"]]["id"]) for r in run["results"]] == [("SS190", "SS190")]


def test_an_unknown_code_is_still_refused_when_a_rule_is_registered(fourth_rule, capsys):
    assert main(["--select", "SS191", "holder.py"]) == 2
    assert "unknown code 'SS191'" in capsys.readouterr().err


LSP_WITH_FOURTH_RULE = "import fourth_rule\nfrom flake8_stale_state.lsp import main\nmain()\n"


@pytest.mark.asyncio
async def test_a_rule_registered_at_run_time_reaches_the_editor(fourth_rule):
    from lsprotocol import types
    from pytest_lsp import ClientServerConfig

    from test_lsp import open_document

    launcher = fourth_rule / "serve.py"
    launcher.write_text(LSP_WITH_FOURTH_RULE)
    config = ClientServerConfig(server_command=[sys.executable, str(launcher)])
    client = config.client_factory()
    project = fourth_rule / "project"
    await client.start_io(*config.server_command, cwd=project, env={**os.environ, "PYTHONPATH": str(fourth_rule)})
    try:
        await client.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities(),
                                                               root_uri=project.as_uri()))
        found = await open_document(client, (project / "holder.py").as_uri(), SOURCE)
        assert [(d.code, d.message, d.range.start.line) for d in found] == [("SS190", "'tmp' looks temporary", 2)]
    finally:
        await client.shutdown_session()
        await client.stop()


def test_the_fourth_rule_needs_no_change_outside_its_module():
    """What the tests above register is all there is of it: the package names it nowhere."""
    text = "\n".join(path.read_text(encoding="utf-8") for path in PACKAGE.rglob("*.py"))
    assert "SS190" not in text and "fourth_rule" not in text
