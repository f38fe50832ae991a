"""`stale-state lsp` driven over stdio by a real LSP client (pytest-lsp)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from corpora import sdist
from flake8_stale_state.index import PARALLEL_THRESHOLD

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "flake8_stale_state", "lsp"])

PIPELINE = """\
class Pipeline:
    def __init__(self):
        self.intervals = 0

    def set_interval(self, interval):
        self.interval = interval

    def run(self):
        return self.intervals
"""
READER = """\
def use(pipeline):
    return pipeline.intervals
"""
CACHE = """\
class Cache:
    def __init__(self):
        self.results = []
        self.results_interval = None

    def rebuild(self, funcs, interval):
        if self.results_interval != interval:
            for start in range(0, len(funcs), interval):
                self.results.append(funcs[start])
            self.results_interval = interval
        return self.results
"""


@pytest.fixture
def package(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    for name, text in {"__init__.py": "", "a.py": PIPELINE, "b.py": READER, "cache.py": CACHE}.items():
        (tmp_path / "pkg" / name).write_text(text)
    return tmp_path


def uri_of(package: Path, name: str) -> str:
    return (package / "pkg" / name).as_uri()


async def published(client: LanguageClient, uri: str, timeout: float = 60) -> list[types.Diagnostic]:
    """The next diagnostics published for `uri` (the caller pops the previous ones first)."""
    async def arrival() -> None:
        while uri not in client.diagnostics:
            await asyncio.sleep(0.02)

    await asyncio.wait_for(arrival(), timeout)
    return list(client.diagnostics[uri])


async def open_document(client: LanguageClient, uri: str, text: str, timeout: float = 60) -> list[types.Diagnostic]:
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)
    ))
    return await published(client, uri, timeout)


def replace_all(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
    ))


@contextlib.asynccontextmanager
async def server_for(root: Path) -> AsyncIterator[tuple[LanguageClient, types.InitializeResult]]:
    """The server under test, started by pytest-lsp's client over stdio, with `root` as its workspace."""
    client = SERVER.client_factory()
    await client.start_io(*SERVER.server_command, cwd=root)  # editors start the server in the workspace
    try:
        yield client, await client.initialize_session(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=root.as_uri()
        ))
    finally:
        await client.shutdown_session()
        await client.stop()


@pytest_asyncio.fixture
async def client(package: Path) -> AsyncIterator[LanguageClient]:
    async with server_for(package) as (client, _):
        yield client


@pytest.mark.asyncio
async def test_initialize_advertises_sync_and_quick_fixes(package):
    async with server_for(package) as (_, result):
        assert result.server_info.name == "stale-state"
        assert result.capabilities.text_document_sync.open_close
        assert result.capabilities.text_document_sync.save
        assert list(result.capabilities.code_action_provider.code_action_kinds) == [types.CodeActionKind.QuickFix]


@pytest.mark.asyncio
async def test_the_workspace_configuration_applies(package: Path):
    (package / "setup.cfg").write_text("[flake8]\nstale-state-ignore-names = interval\n")
    async with server_for(package) as (client, _):
        assert await open_document(client, uri_of(package, "a.py"), PIPELINE) == []


@pytest.mark.asyncio
async def test_open_publishes_the_dead_write_at_self_x(client: LanguageClient, package: Path):
    (found,) = await open_document(client, uri_of(package, "a.py"), PIPELINE)
    assert found.code == "SS101"
    assert found.source == "stale-state"
    assert found.severity == types.DiagnosticSeverity.Warning
    assert found.message == (
        "'interval' is assigned but never read in package 'pkg'; did you mean 'intervals'?"
    )
    assert found.range == types.Range(types.Position(5, 8), types.Position(5, 21))  # `self.interval`


@pytest.mark.asyncio
async def test_unsaved_change_is_analysed_after_a_pause(client: LanguageClient, package: Path):
    uri = uri_of(package, "a.py")
    await open_document(client, uri, PIPELINE)
    client.diagnostics.pop(uri)
    replace_all(client, uri, 2, PIPELINE + "\n    def stop(self):\n        self.stopped = True\n")
    found = await published(client, uri)
    assert sorted(d.message.split("'")[1] for d in found) == ["interval", "stopped"]
    assert (package / "pkg" / "a.py").read_text() == PIPELINE  # nothing was saved


@pytest.mark.asyncio
async def test_a_read_typed_in_another_open_file_clears_the_finding(client: LanguageClient, package: Path):
    a, b = uri_of(package, "a.py"), uri_of(package, "b.py")
    assert await open_document(client, a, PIPELINE)
    assert await open_document(client, b, READER) == []
    client.diagnostics.pop(a)
    replace_all(client, b, 2, READER + "\n\ndef period(pipeline):\n    return pipeline.interval\n")
    assert await published(client, a) == []  # a.py was neither edited nor reopened
    client.diagnostics.pop(a)
    replace_all(client, b, 3, READER)
    assert [d.code for d in await published(client, a)] == ["SS101"]


@pytest.mark.asyncio
async def test_a_read_saved_outside_the_editor_clears_the_finding(client: LanguageClient, package: Path):
    a = uri_of(package, "a.py")
    assert await open_document(client, a, PIPELINE)
    client.diagnostics.pop(a)
    (package / "pkg" / "b.py").write_text(READER + "\n\ndef period(pipeline):\n    return pipeline.interval\n")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=uri_of(package, "b.py"), type=types.FileChangeType.Changed)]
    ))
    assert await published(client, a) == []


@pytest.mark.asyncio
async def test_save_publishes(client: LanguageClient, package: Path):
    uri = uri_of(package, "a.py")
    expected = await open_document(client, uri, PIPELINE)
    client.diagnostics.pop(uri)
    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri)))
    assert await published(client, uri) == expected


@pytest.mark.asyncio
async def test_closing_clears_the_diagnostics_and_forgets_the_unsaved_content(client: LanguageClient, package: Path):
    a, b = uri_of(package, "a.py"), uri_of(package, "b.py")
    await open_document(client, a, PIPELINE)
    client.diagnostics.pop(a)
    await open_document(client, b, READER + "\n\ndef period(pipeline):\n    return pipeline.interval\n")
    assert await published(client, a) == []
    client.diagnostics.pop(a)
    client.diagnostics.pop(b)
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(b)))
    assert await published(client, b) == []
    assert [d.code for d in await published(client, a)] == ["SS101"]  # the read was never saved


@pytest.mark.asyncio
async def test_rename_to_the_suggested_attribute(client: LanguageClient, package: Path):
    uri = uri_of(package, "a.py")
    (found,) = await open_document(client, uri, PIPELINE)
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri),
        range=found.range,
        context=types.CodeActionContext(diagnostics=[found]),
    ))
    (action,) = actions
    assert action.title == "Rename 'interval' to 'intervals'"
    assert action.kind == types.CodeActionKind.QuickFix
    assert list(action.edit.changes[uri]) == [types.TextEdit(found.range, "self.intervals")]


@pytest.mark.asyncio
async def test_reset_inserted_before_the_loop_for_a_stale_cache(client: LanguageClient, package: Path):
    uri = uri_of(package, "cache.py")
    (found,) = await open_document(client, uri, CACHE)
    assert found.code == "SS102"
    assert found.range == types.Range(types.Position(8, 16), types.Position(8, 28))  # `self.results`
    (guard,) = found.related_information  # the `if` on the key, from the finding's related places
    assert guard.location.uri == uri and guard.location.range.start.line == 6 and "guard" in guard.message
    (action,) = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri),
        range=found.range,
        context=types.CodeActionContext(diagnostics=[found]),
    ))
    assert action.title == "Insert 'self.results = []'"
    assert list(action.edit.changes[uri]) == [
        types.TextEdit(types.Range(types.Position(7, 0), types.Position(7, 0)), "            self.results = []\n")
    ]


@pytest.mark.asyncio
async def test_syntax_error_neither_crashes_nor_hides_the_package(client: LanguageClient, package: Path):
    a, b = uri_of(package, "a.py"), uri_of(package, "b.py")
    broken = "def use(pipeline:\n    return pipeline.intervals +\n"
    assert await open_document(client, b, broken) == []
    found = await open_document(client, a, PIPELINE)
    assert [d.code for d in found] == ["SS101"]
    client.diagnostics.pop(a)
    replace_all(client, b, 2, READER + "\n\ndef period(pipeline):\n    return pipeline.interval\n")
    assert await published(client, a) == []  # still serving, and the repaired file counts again


@pytest.mark.asyncio
async def test_a_package_indexed_by_worker_processes(tmp_path: Path):
    """Enough files for the index to be built in worker processes, started while pygls reads stdin."""
    (tmp_path / "big").mkdir()
    (tmp_path / "big" / "__init__.py").write_text("")
    for number in range(PARALLEL_THRESHOLD + 8):
        (tmp_path / "big" / f"m{number}.py").write_text(
            f"class C{number}:\n    def __init__(self):\n        self.v{number} = {number}\n\n"
            f"    def get(self):\n        return self.v{number + 1}\n"
        )
    first = tmp_path / "big" / "m0.py"
    async with server_for(tmp_path) as (client, _):
        found = await open_document(client, first.as_uri(), first.read_text())
    assert [d.message.split("'")[1] for d in found] == ["v0"]  # v1 .. are read by the previous module


def test_without_the_lsp_extra_one_line_and_exit_2():
    blocked = (  # an entry of None in sys.modules makes the import fail as if pygls were not installed
        "import sys; sys.modules['pygls'] = None; from flake8_stale_state.cli import main; sys.exit(main(['lsp']))"
    )
    result = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr == (
        "stale-state: error: the LSP server needs the 'lsp' extra: pip install 'flake8-stale-state[lsp]'\n"
    )


def test_a_pygls_too_old_is_named_not_taken_for_a_missing_extra(tmp_path: Path):
    # pygls 2.0, released, has no ServerTextPosition: installed ahead of this environment's on the path
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(tmp_path),
                    "pygls==2.0.1"], check=True, capture_output=True, timeout=300)
    result = subprocess.run([sys.executable, "-m", "flake8_stale_state", "lsp"], capture_output=True, text=True,
                            timeout=60, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert (result.returncode, result.stderr) == (
        2, "stale-state: error: the LSP server needs pygls>=2.1,<3, not pygls 2.0.1: pip install 'pygls>=2.1,<3'\n")


@pytest.mark.e2e
@pytest.mark.asyncio
async def test_deepspeed_0_19_3_setter_published_with_its_hint_and_rename():
    tree = sdist("deepspeed", "0.19.3")
    module = tree / "deepspeed/runtime/pipe/module.py"
    async with server_for(tree) as (client, _):
        found = await open_document(client, module.as_uri(), module.read_text(), timeout=1800)  # indexes the package
        (setter,) = [d for d in found if d.range.start.line == 553]
        assert setter.code == "SS101"
        assert setter.message == (
            "'checkpoint_interval' is assigned but never read in package 'deepspeed'; "
            "did you mean 'activation_checkpoint_interval'?"
        )
        assert setter.range == types.Range(types.Position(553, 8), types.Position(553, 32))
        (rename,) = await client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(module.as_uri()),
            range=setter.range,
            context=types.CodeActionContext(diagnostics=[setter]),
        ))
        assert list(rename.edit.changes[module.as_uri()]) == [
            types.TextEdit(setter.range, "self.activation_checkpoint_interval")
        ]


def test_an_edit_that_changes_no_facts_keeps_the_package_wide_lookups(tmp_path: Path):
    """Each pause in typing re-checks the buffer: what the index worked out from the other files is made again
    only where the edited file's facts changed."""
    from flake8_stale_state.engine import Analyzer
    from flake8_stale_state.settings import Settings

    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("class A:\n    def set(self):\n        self.dead = 1\n")
    (package / "b.py").write_text("def use(a):\n    return a.other\n")
    analyzer = Analyzer(Settings(use_cache=False))
    module = package / "a.py"
    source = module.read_text()
    before = analyzer.index_for(module)
    lookups = before.read_names, before.traits
    assert [f.symbol for f in analyzer.check(module, source)] == ["dead"]

    assert analyzer.update(module, source + "# a comment\n")
    after = analyzer.index_for(module)
    assert after is not before and (after.read_names, after.traits) == lookups
    assert after.read_names is lookups[0] and after.traits is lookups[1]  # kept, not made again

    assert analyzer.update(module, source + "        return self.dead\n")
    changed = analyzer.index_for(module)
    assert "dead" in changed.names_read_on("A") and changed.read_names is not lookups[0]
    assert analyzer.check(module, source + "        return self.dead\n") == []


def test_an_edit_keys_only_the_edited_file_while_the_modules_define_the_same_classes(tmp_path: Path):
    """Two modules defining a class of one name key it by module; an edit of a third file keeps the others'
    keyed facts, and an edit that defines or drops such a class keys every file again, as a new index would."""
    from flake8_stale_state.engine import Analyzer
    from flake8_stale_state.index import PackageIndex
    from flake8_stale_state.settings import Settings

    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "linen.py").write_text("class Norm:\n    def __init__(self):\n        self.scale = 1\n")
    (package / "nnx.py").write_text("class Norm:\n    def __init__(self):\n        self.scale = 2\n")
    user = package / "user.py"
    user.write_text("from .linen import Norm\n\ndef use():\n    norm = Norm()\n    return norm.scale\n")
    analyzer = Analyzer(Settings(use_cache=False))
    before = analyzer.index_for(user)
    keyed = before.keyed_files
    assert [f.line for f in analyzer.check(package / "nnx.py")] == [3]  # only linen's Norm is read

    def fresh(index: PackageIndex) -> dict:
        return PackageIndex(index.name, index.root, index.files, index.framework_bases, index.libraries,
                            index.documentation, index.read_by_users).keyed_files

    edited = user.read_text() + "\n\nclass Helper:\n    def __init__(self):\n        self.size = 1\n"  # new facts
    assert analyzer.update(user, edited)
    after = analyzer.index_for(user)
    assert "keyed_files" in after.__dict__  # carried, before any check asks
    others = [path for path in keyed if path != str(user.resolve())]
    assert all(after.keyed_files[path] is keyed[path] for path in others)
    assert after.keyed_files == fresh(after)
    assert [f.line for f in analyzer.check(package / "nnx.py")] == [3]

    defining = edited + "\n\nclass Norm:\n    pass\n"  # a third Norm: every key may change
    assert analyzer.update(user, defining)
    third = analyzer.index_for(user)
    assert "keyed_files" not in third.__dict__ and third.keyed_files == fresh(third)
