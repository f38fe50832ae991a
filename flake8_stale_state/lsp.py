"""The LSP front end, `stale-state lsp`: the engine's findings as diagnostics of the open documents, kept live.

Every open document's content goes into the index of its package, so a read added in one file clears the
finding in another without saving either. All analysis runs in one worker thread, one job at a time, so the
server keeps answering while a large package is indexed.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import multiprocessing
import re
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import PositionCodec, ServerTextPosition

from flake8_stale_state import __version__, config
from flake8_stale_state.edits import LineEdit, fix_edits
from flake8_stale_state.engine import UNANALYSED, Analyzer
from flake8_stale_state.environment import NotAnEnvironment
from flake8_stale_state.findings import Finding, Location, without_silenced
from flake8_stale_state.settings import Settings

LOG = logging.getLogger(__name__)
SOURCE = "stale-state"
DEBOUNCE_SECONDS = 0.3  # a pause in typing long enough to be worth analysing
TRAILING_NAME = re.compile(r"\w+$")
Result = TypeVar("Result")


def uri_path(uri: str) -> Path | None:
    """The file behind a document; None for an unsaved new buffer or a remote one."""
    path = to_fs_path(uri) if uri.startswith("file:") else None
    return Path(path) if path else None


def finding_range(finding: Finding, lines: Sequence[str], codec: PositionCodec) -> types.Range:
    """From where the finding points to the end of its symbol (`self.X`, not just `self`), in client units."""
    line_number = min(max(finding.line - 1, 0), max(len(lines) - 1, 0))
    text = lines[line_number] if lines else ""
    start = finding.col
    end = start + max(len(finding.symbol), 1)
    if finding.symbol:
        spelled = [m for m in re.finditer(rf"(?<!\w){re.escape(finding.symbol)}(?!\w)", text) if m.start() >= start]
        # in `self.self = ...` the owner spells the symbol too: the attribute is the later one
        chosen = next((m for m in spelled if m.start() > start), spelled[0] if spelled else None)
        if chosen is not None:
            end = chosen.end()
    return types.Range(
        codec.position_to_client_units(lines, ServerTextPosition(line_number, start)),
        codec.position_to_client_units(lines, ServerTextPosition(line_number, end)),
    )


def related_information(place: Location) -> types.DiagnosticRelatedInformation:
    at = types.Position(max(place.line - 1, 0), place.col)
    return types.DiagnosticRelatedInformation(
        types.Location(Path(place.path).absolute().as_uri(), types.Range(at, at)), place.message)


def diagnostic(finding: Finding, lines: Sequence[str], codec: PositionCodec) -> types.Diagnostic:
    """`data` carries what the quick fixes need (the client sends it back with the diagnostic)."""
    data = {"symbol": finding.symbol, "suggestion": finding.suggestion, "fix": finding.fix}
    return types.Diagnostic(
        range=finding_range(finding, lines, codec),
        message=finding.message,
        severity=types.DiagnosticSeverity.Warning,
        code=finding.code,
        source=SOURCE,
        related_information=[related_information(place) for place in finding.related] or None,
        data={key: value for key, value in data.items() if value} or None,
    )


def diagnostic_data(found: types.Diagnostic, key: str) -> str:
    return found.data.get(key, "") if isinstance(found.data, dict) else ""


def text_edit(edit: LineEdit) -> types.TextEdit:
    return types.TextEdit(types.Range(types.Position(edit.first, 0), types.Position(edit.end, 0)), edit.text)


class StaleStateServer(LanguageServer):
    def __init__(self, settings: Settings | None = None, config_problem: str | None = None) -> None:
        super().__init__("stale-state", __version__)
        self.analyzer = Analyzer(settings or Settings())
        self.config_problem = config_problem  # shown to the user once the client is ready
        self.analysis = ThreadPoolExecutor(max_workers=1, thread_name_prefix="stale-state-analysis")
        self.waiting: dict[str, asyncio.TimerHandle] = {}  # uri -> the pending analysis of a change
        self.running: set[asyncio.Task] = set()  # held so the event loop does not drop them

    async def analyse(self, job: Callable[..., Result], *args: Any) -> Result:
        return await asyncio.get_running_loop().run_in_executor(self.analysis, job, *args)

    def open_documents_sharing(self, path: Path) -> list[TextDocument]:
        key = self.analyzer.package_key(path)
        return [
            document for document in list(self.workspace.text_documents.values())
            if (other := uri_path(document.uri)) is not None and self.analyzer.package_key(other) == key
        ]

    def take_content(self, path: Path, source: str) -> bool:
        """The editor's content of a file becomes its package's view of it (index built first, from disk)."""
        self.analyzer.index_for(path)
        return self.analyzer.update(path, source)

    async def document_changed(self, document: TextDocument) -> None:
        """Analyse a document's content, and the other open documents of its package if their view changed."""
        path = uri_path(document.uri)
        if path is None:
            return
        try:
            changed = await self.analyse(self.take_content, path, document.source)
        except Exception:
            LOG.exception("stale-state: indexing %s failed", path)
            return
        await self.publish(self.open_documents_sharing(path) if changed else [document])

    async def disk_changed(self, paths: list[Path]) -> None:
        """Files changed outside the editor: their packages' open documents are analysed again."""
        changed = [path for path in paths if await self.analyse(self.analyzer.update, path, None)]
        dependents = {d.uri: d for path in changed for d in self.open_documents_sharing(path)}
        await self.publish(list(dependents.values()))

    def findings(self, path: Path, source: str) -> list[Finding]:
        found = self.analyzer.check(path, source)
        for problem in (f for f in found if f.code == UNANALYSED):
            LOG.info("stale-state: %s: %s", path, problem.message)  # syntax errors are other linters' news
        return without_silenced([f for f in found if f.code != UNANALYSED], source.splitlines())

    async def publish(self, documents: list[TextDocument]) -> None:
        for document in documents:
            path, source, version = uri_path(document.uri), document.source, document.version
            if path is None:
                continue
            try:
                found = await self.analyse(self.findings, path, source)
            except Exception:
                LOG.exception("stale-state: analysing %s failed", path)
                continue
            for missing in await self.analyse(self.analyzer.new_missing_bases):
                self.window_log_message(types.LogMessageParams(types.MessageType.Warning,
                                                               f"stale-state: {missing.message()}"))
            if document.uri not in self.workspace.text_documents:
                continue  # closed meanwhile: its diagnostics stay cleared
            lines = source.splitlines(keepends=True)
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                uri=document.uri,
                version=version,
                diagnostics=[diagnostic(f, lines, self.workspace.position_codec) for f in found],
            ))

    def run_in_background(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self.running.add(task)
        task.add_done_callback(self.running.discard)

    def after_pause(self, uri: str) -> None:
        """Analyse `uri` once typing pauses: each change restarts the wait."""
        self.cancel_pause(uri)
        self.waiting[uri] = asyncio.get_running_loop().call_later(DEBOUNCE_SECONDS, self.pause_over, uri)

    def pause_over(self, uri: str) -> None:
        del self.waiting[uri]
        if uri in self.workspace.text_documents:
            self.run_in_background(self.document_changed(self.workspace.get_text_document(uri)))

    def cancel_pause(self, uri: str) -> None:
        waiting = self.waiting.pop(uri, None)
        if waiting is not None:
            waiting.cancel()


def rename_action(document: TextDocument, found: types.Diagnostic) -> types.CodeAction | None:
    """Rename the symbol to the finding's suggestion (SS101: the attribute the package reads)."""
    suggestion = diagnostic_data(found, "suggestion")
    written = document.text_in_client_range(found.range)
    name = TRAILING_NAME.search(written)
    if not suggestion or name is None:
        return None
    replacement = written[: name.start()] + suggestion
    return types.CodeAction(
        title=f"Rename '{name.group()}' to '{suggestion}'",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[found],
        is_preferred=True,
        edit=types.WorkspaceEdit(changes={document.uri: [types.TextEdit(found.range, replacement)]}),
    )


def fix_action(document: TextDocument, found: types.Diagnostic) -> types.CodeAction | None:
    """The rule's own fix of the finding (SS102: reset the list before the loop), as the lines it changes."""
    title = diagnostic_data(found, "fix")
    path = uri_path(document.uri)
    if not title or path is None:
        return None
    start = document.position_from_client_units(found.range.start)
    finding = Finding(str(path), start.line + 1, start.character, str(found.code), found.message, fix=title)
    try:
        edits = fix_edits(document.source, finding)
    except Exception:  # a document that no longer parses: no fix to offer
        LOG.exception("stale-state: fixing %s failed", path)
        return None
    if not edits:
        return None
    return types.CodeAction(
        title=title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[found],
        is_preferred=True,
        edit=types.WorkspaceEdit(changes={document.uri: [text_edit(edit) for edit in edits]}),
    )


def build_server(settings: Settings | None = None, config_problem: str | None = None) -> StaleStateServer:
    server = StaleStateServer(settings, config_problem)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: StaleStateServer, params: types.InitializedParams) -> None:
        if ls.config_problem:  # stderr alone reaches no editor user
            ls.window_show_message(types.ShowMessageParams(types.MessageType.Error, ls.config_problem))
        watching = ls.client_capabilities.workspace and ls.client_capabilities.workspace.did_change_watched_files
        if not (watching and watching.dynamic_registration):
            return
        watch_python_files = types.Registration(
            id="stale-state-watched-files",
            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(
                watchers=[types.FileSystemWatcher(glob_pattern="**/*.py")]
            ),
        )
        try:
            await ls.client_register_capability_async(types.RegistrationParams(registrations=[watch_python_files]))
        except Exception:  # without it, changes made outside the editor are seen when a document is next edited
            LOG.exception("stale-state: watching files could not be registered")

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: StaleStateServer, params: types.DidOpenTextDocumentParams) -> None:
        await ls.document_changed(ls.workspace.get_text_document(params.text_document.uri))

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: StaleStateServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.after_pause(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: StaleStateServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.cancel_pause(params.text_document.uri)
        await ls.document_changed(ls.workspace.get_text_document(params.text_document.uri))

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: StaleStateServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.cancel_pause(uri)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        path = uri_path(uri)
        if path is not None:
            await ls.disk_changed([path])  # the unsaved content, if any, is gone: back to the disk's

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def did_change_watched_files(ls: StaleStateServer, params: types.DidChangeWatchedFilesParams) -> None:
        open_paths = {uri_path(uri) for uri in ls.workspace.text_documents}
        paths = [
            path for change in params.changes
            if (path := uri_path(change.uri)) is not None and path.suffix == ".py"
            and path not in open_paths  # an open document's content is the editor's, not the disk's
        ]
        if paths:
            await ls.disk_changed(paths)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    async def code_action(ls: StaleStateServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        document = ls.workspace.get_text_document(params.text_document.uri)
        actions = []
        for found in params.context.diagnostics:
            if found.source != SOURCE:
                continue
            action = rename_action(document, found)
            if action is None:
                action = await asyncio.to_thread(fix_action, document, found)
            if action is not None:
                actions.append(action)
        return actions

    return server


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(prog="stale-state lsp", description="Language server over stdio.")
    parser.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (the default and only way)")
    parser.parse_args(argv)
    # pygls reads stdin in a thread: a forked indexing worker would inherit the stdin lock held by that read
    # and hang closing its stdin; a spawned one starts clean
    multiprocessing.set_start_method("spawn", force=True)
    logging.basicConfig(level=logging.WARNING, format="%(message)s")  # stderr: stdout carries the protocol
    problem = None
    try:
        # editors start the server in the workspace folder: its pyproject.toml / setup.cfg apply, as for the CLI
        settings = config.load({}).settings
        server = build_server(settings)
    except (config.ConfigError, NotAnEnvironment) as error:  # a server cannot stop the editor: it says so
        problem = f"{config.error_line(error)}; using the defaults"
        LOG.warning("%s", problem)
        server = build_server(Settings(), problem)
    server.start_io()
    return 0
