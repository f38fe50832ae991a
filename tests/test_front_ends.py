"""Every front end accepts and refuses the same configuration, with the same one line; flake8 does no SS work
when no SS code is selected."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types

from conftest import FIXTURES
from test_lsp import open_document, server_for

FINDINGS = [
    "pipe/module.py:13:13: SS101 'interval_was_zero' is assigned but never read in package 'pipe'",
    "pipe/module.py:19:9: SS101 'checkpoint_interval' is assigned but never read in package 'pipe'; "
    "did you mean 'activation_checkpoint_interval'?",
]
REFUSED = {
    "unknown option": ("setup.cfg", "[flake8]\nstale-state-bogus = 1\n", "[flake8] stale-state-bogus: unknown option"),
    "bad boolean": (".flake8", "[flake8]\nstale-state-no-cache = maybe\n",
                    "[flake8] stale-state-no-cache: expected true or false, got 'maybe'"),
    "missing root": ("tox.ini", "[flake8]\nstale-state-roots = pipe, missing\n",
                     "[flake8] stale-state-roots: missing: not a folder"),
}
ACCEPTED = {  # near misses of the refused ones
    "known option": "[flake8]\nstale-state-ignore-names = nothing_*\n",
    "boolean": "[flake8]\nstale-state-no-cache = off\n",
    "existing root": "[flake8]\nstale-state-roots = pipe\n",
    "other tools' options": "[flake8]\nmax-line-length = 120\nstale-state-framework-bases = Record\n",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    subprocess.run(["cp", "-r", str(FIXTURES / "ss101" / "pipeline" / "pipe"), str(tmp_path)], check=True)
    return tmp_path


def command(project: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=project, capture_output=True, text=True,
                          timeout=300, env=env)


def flake8(project: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return command(project, "flake8", *args, env=env)


def cli(project: Path, *args: str) -> subprocess.CompletedProcess:
    return command(project, "flake8_stale_state", *args)


async def shown_messages(project: Path) -> list[types.ShowMessageParams]:
    """What the server shows the user while it starts and analyses one document."""
    async with server_for(project) as (client, _):
        await open_document(client, (project / "pipe" / "module.py").as_uri(),
                            (project / "pipe" / "module.py").read_text())
        await asyncio.sleep(0.1)
        return list(client.messages)


@pytest.mark.parametrize("case", REFUSED)
def test_refused_alike_by_the_command_and_flake8_with_one_line(project, case):
    file, content, problem = REFUSED[case]
    (project / file).write_text(content)
    line = f"stale-state: error: {project / file}: {problem}\n"
    for result in (cli(project, "pipe"), flake8(project, "--select", "SS,E9", "pipe")):
        assert (result.returncode, result.stdout, result.stderr) == (2, "", line)


@pytest.mark.parametrize("case", ACCEPTED)
def test_accepted_alike_by_the_command_and_flake8(project, case):
    (project / "setup.cfg").write_text(ACCEPTED[case])
    for result in (cli(project, "pipe"), flake8(project, "--select", "SS,E9", "pipe")):
        assert (result.returncode, result.stdout.splitlines(), result.stderr) == (1, FINDINGS, "")


def test_flake8_command_line_values_are_checked_too(project):
    result = flake8(project, "--select", "SS", "--stale-state-roots", "nowhere", "pipe")
    assert (result.returncode, result.stderr) == (2, "stale-state: error: --stale-state-roots: nowhere: not a folder\n")
    assert cli(project, "--roots", "nowhere", "pipe").stderr == "stale-state: error: --roots: nowhere: not a folder\n"
    result = flake8(project, "--select", "SS", "--stale-state-no-cache", "pipe")  # a flag, taking no value
    assert (result.returncode, result.stdout.splitlines()) == (1, FINDINGS)


def test_a_missing_baseline_is_refused_alike(project):
    (project / "setup.cfg").write_text("[flake8]\nstale-state-baseline = ./missing.json\n")
    line = f"stale-state: error: baseline {project / 'missing.json'}: no such file\n"
    for result in (cli(project, "pipe"), flake8(project, "--select", "SS", "pipe")):
        assert (result.returncode, result.stdout, result.stderr) == (2, "", line)


@pytest.mark.asyncio
@pytest.mark.parametrize("case", REFUSED)
async def test_the_language_server_shows_the_same_line_and_uses_the_defaults(project, case):
    file, content, problem = REFUSED[case]
    (project / file).write_text(content)
    (shown,) = await shown_messages(project)
    assert shown.type == types.MessageType.Error
    assert shown.message == f"stale-state: error: {project / file}: {problem}; using the defaults"


@pytest.mark.asyncio
async def test_the_language_server_shows_nothing_for_an_accepted_configuration(project):
    (project / "setup.cfg").write_text(ACCEPTED["boolean"])
    assert await shown_messages(project) == []


# flake8 run in this very process (one job), so that what the plugin imported can be seen afterwards
PROBE = """\
import sys
from flake8.main.cli import main
try:
    main(sys.argv[1:])
finally:
    heavy = ["libcst", "flake8_stale_state.engine", "flake8_stale_state.index", "flake8_stale_state.cache"]
    print("imported:", *[name for name in heavy if name in sys.modules], file=sys.stderr)
"""


@pytest.mark.parametrize(("options", "reported"), [
    (["--select", "E9"], None),
    (["--select", "E9,W6", "--ignore", "SS"], None),
    (["--extend-ignore", "SS"], None),
    (["--select", "SS,E9"], FINDINGS),
    (["--select", "E9", "--extend-select", "SS1"], FINDINGS),
    (["--extend-ignore", "SS10"], []),  # SS000 is still selected: files that cannot be analysed are reported
])
def test_no_work_when_flake8_selects_no_ss_code(project, options, reported):
    cache = project / "cache"
    env = {**os.environ, "STALE_STATE_CACHE_DIR": str(cache)}
    result = subprocess.run([sys.executable, "-c", PROBE, "-j", "1", *options, "pipe"], cwd=project,
                            capture_output=True, text=True, timeout=300, env=env)
    made = list(cache.rglob("*.json")) if cache.exists() else []  # the facts of every file made are kept there
    ss_lines = [line for line in result.stdout.splitlines() if ": SS" in line]
    assert "Traceback" not in result.stderr
    imported = result.stderr.splitlines()[-1].split()[1:]
    if reported is None:
        assert ss_lines == [] and made == []
        assert result.stderr.splitlines() == ["imported:"]  # neither libcst nor the index, engine or cache
    else:
        assert ss_lines == reported and made
        assert {"flake8_stale_state.engine", "flake8_stale_state.index"} <= set(imported)


@pytest.mark.asyncio
async def test_an_environment_that_is_not_one_is_refused_alike(project):
    (project / "setup.cfg").write_text("[flake8]\nstale-state-python = ./nowhere\n")
    line = f"stale-state: error: python: {project / 'nowhere'}: no such file or folder"
    for result in (cli(project, "pipe"), flake8(project, "--select", "SS,E9", "pipe")):
        assert (result.returncode, result.stdout, result.stderr) == (2, "", line + "\n")
    (shown,) = await shown_messages(project)
    assert (shown.type, shown.message) == (types.MessageType.Error, f"{line}; using the defaults")
