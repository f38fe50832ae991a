"""Latency of `stale-state lsp` from didChange to publishDiagnostics, and the server's memory, on DeepSpeed 0.19.3.

    python benchmarks/lsp_latency.py [--runs 20] [--cache-dir DIR]

Starts the server over stdio with the sdist folder as the workspace (downloaded into
~/.cache/stale-state/sdists, never into the repository), opens deepspeed/runtime/pipe/module.py (700 lines),
which indexes the package, then changes the buffer `--runs` times for each kind of edit (EDITS), waiting each
time for the diagnostics of that version; then the same with pipe/engine.py (1,400 lines). The latency includes
the server's pause after a change (DEBOUNCE_SECONDS); the analysis is what is left. Targets: under 100 ms on
module.py, under 200 ms on engine.py. Memory is read from /proc (Linux) once the package is indexed and again at
the end. The server runs in the workspace folder, with the code PYTHONPATH names first where it names one (to
measure another version: a `git worktree` of it on PYTHONPATH).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from corpora import sdist  # noqa: E402

from flake8_stale_state.lsp import DEBOUNCE_SECONDS  # noqa: E402

MODULES = ("deepspeed/runtime/pipe/module.py", "deepspeed/runtime/pipe/engine.py")


def typed_on_a_line(text: str, version: int) -> str:
    """Text typed at the end of the line of the file's last `return`, as a comment so that the code stays valid."""
    end = text.index("\n", text.rindex("return "))
    return text[:end] + f"  # edit {version} {time.time_ns()}" + text[end:]


def statement_typed(text: str, version: int) -> str:
    """A statement typed above the file's last `return`, storing an attribute of a name no version had."""
    start = text.rindex("\n", 0, text.rindex("return ")) + 1
    indent = text[start:text.index("return ", start)]
    return text[:start] + f"{indent}self.edit_{version}_{time.time_ns()} = {version}\n" + text[start:]


# Each edit makes content no cache has seen, as typing does. Text typed within a line moves no other line: the
# file's facts stay, and where the line is none that SS102 or SS103 look at, so do what their collectors found. A
# comment added at the end leaves the facts too, but it is part of what the collectors read. Lines added above
# move every fact of the file but name what it named: the package's lookups, made of names, stay. A statement
# typed names something new, as most edits of code do, and the package's lookups are made again.
EDITS: dict[str, Callable[[str, int], str]] = {
    "text typed on a line": typed_on_a_line,
    "a comment added at the end": lambda text, version: text + f"\n# edit {version} {time.time_ns()}\n",
    "lines added at the top": lambda text, version: f"# edit {time.time_ns()}\n" * version + text,
    "a statement typed": statement_typed,
}


def memory_mib(pid: int) -> dict[str, float]:
    """Resident memory now (VmRSS) and at its peak (VmHWM), in MiB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0]) / 1024
    return fields


async def measure(tree: Path, runs: int, cache_dir: Path) -> None:
    client = LanguageClient("lsp-latency", "0")
    arrivals: asyncio.Queue[tuple[float, types.PublishDiagnosticsParams]] = asyncio.Queue()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_publish(params: types.PublishDiagnosticsParams) -> None:
        arrivals.put_nowait((time.perf_counter(), params))

    async def diagnostics_of(uri: str, version: int) -> tuple[float, types.PublishDiagnosticsParams]:
        while True:
            arrived, params = await arrivals.get()
            if params.uri == uri and params.version == version:
                return arrived, params

    # byte-code written and read, as in users' installs
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["STALE_STATE_CACHE_DIR"] = str(cache_dir)
    # in the workspace, as an editor starts it: `-m` looks in the folder it starts in first, and a repository's
    # would shadow the version PYTHONPATH names
    await client.start_io(sys.executable, "-m", "flake8_stale_state", "lsp", env=env, cwd=tree)
    pid = client._server.pid  # the server process, for its memory
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities(),
                                                         root_uri=tree.as_uri()))
    client.initialized(types.InitializedParams())

    indexed = None
    results = []
    for name in MODULES:
        module = tree / name
        uri, text = module.as_uri(), module.read_text()
        sent = time.perf_counter()
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)
        ))
        arrived, params = await diagnostics_of(uri, 1)
        setter = [d for d in params.diagnostics if d.range.start.line == 553]
        print(f"open {name}{' (indexes ' + tree.name + ')' if indexed is None else ''}: {arrived - sent:.2f} s, "
              f"{len(params.diagnostics)} diagnostics"
              + (f", line 554: {setter[0].message if setter else 'MISSING'}" if name.endswith("module.py") else ""))
        indexed = indexed or memory_mib(pid)
        version = 1
        for edit, change in EDITS.items():
            latencies = []
            for _ in range(runs):
                version += 1
                sent = time.perf_counter()
                client.text_document_did_change(types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[types.TextDocumentContentChangeWholeDocument(text=change(text, version))],
                ))
                arrived, _ = await diagnostics_of(uri, version)
                latencies.append(arrived - sent)
            results.append((f"{name}, {edit}", latencies))
    final = memory_mib(pid)

    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()

    for name, latencies in results:
        median = statistics.median(latencies)
        print(f"{name}: didChange -> publishDiagnostics, warm index, {runs} runs: median {median * 1000:.0f} ms "
              f"(debounce {DEBOUNCE_SECONDS * 1000:.0f} ms + analysis {(median - DEBOUNCE_SECONDS) * 1000:.0f} ms), "
              f"min {min(latencies) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms")
    print(f"server memory after indexing: RSS {indexed['VmRSS']:.0f} MiB; "
          f"after the runs: RSS {final['VmRSS']:.0f} MiB, peak {final['VmHWM']:.0f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--cache-dir", type=Path, default=Path.home() / ".cache" / "stale-state" / "facts",
                        help="facts cache of the server (warm after the first run)")
    args = parser.parse_args()
    print(f"load average at the start: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")
    asyncio.run(measure(sdist("deepspeed", "0.19.3"), args.runs, args.cache_dir))
    print(f"load average at the end: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")


if __name__ == "__main__":
    main()
