"""The real flake8, in a subprocess, the way CI, hooks and editors run it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, limit_memory

DEAD_SETTER = (
    "pipe/module.py:19:9: SS101 'checkpoint_interval' is assigned but never read in package 'pipe'; "
    "did you mean 'activation_checkpoint_interval'?"
)
DEAD_FLAG = "pipe/module.py:13:13: SS101 'interval_was_zero' is assigned but never read in package 'pipe'"


def flake8(cwd: Path, *args: str, stdin: str | None = None, select: str = "SS") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "flake8", "--select", select, *args],
        cwd=cwd, input=stdin, capture_output=True, text=True, timeout=300, preexec_fn=limit_memory,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURES / "ss101" / "pipeline" / "pipe", tmp_path / "pipe")
    return tmp_path


def lines(result: subprocess.CompletedProcess) -> list[str]:
    assert "Traceback" not in result.stderr, result.stderr
    return result.stdout.splitlines()


def test_whole_package(project):
    assert lines(flake8(project, "pipe/")) == [DEAD_FLAG, DEAD_SETTER]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_one_file_given_still_sees_the_whole_package(project, jobs):
    # the reader of activation_checkpoint_interval is in engine.py, which flake8 is not given
    assert lines(flake8(project, "-j", jobs, "pipe/module.py")) == [DEAD_FLAG, DEAD_SETTER]


def test_parallel_jobs_give_the_same_findings(project):
    for extra in range(6):  # enough files that flake8 really starts workers
        (project / "pipe" / f"extra{extra}.py").write_text("x = 1\n")
    assert lines(flake8(project, "-j", "2", "pipe/")) == [DEAD_FLAG, DEAD_SETTER]


def test_stdin_uses_the_buffer_for_that_file_and_the_disk_for_the_rest(project):
    buffer = (project / "pipe" / "module.py").read_text().replace(
        "self.checkpoint_interval = interval", "self.activation_checkpoint_interval = interval"
    )
    result = flake8(project, "-", "--stdin-display-name", "pipe/module.py", stdin=buffer)
    assert lines(result) == [DEAD_FLAG]


def test_stdin_buffer_can_add_a_dead_write_not_on_disk(project):
    extra = "\n\nclass Extra:\n    def go(self):\n        self.fresh_flag = 1\n"
    buffer = (project / "pipe" / "engine.py").read_text() + extra
    result = flake8(project, "-", "--stdin-display-name", "pipe/engine.py", stdin=buffer)
    assert lines(result) == ["pipe/engine.py:12:9: SS101 'fresh_flag' is assigned but never read in package 'pipe'"]


def test_options_from_setup_cfg(project):
    (project / "setup.cfg").write_text("[flake8]\nstale-state-ignore-names = checkpoint_*\n")
    assert lines(flake8(project, "pipe/")) == [DEAD_FLAG]


@pytest.mark.parametrize("config", ["tox.ini", ".flake8"])
def test_roots_option_counts_reads_in_other_folders(project, config):
    (project / "tests").mkdir()
    (project / "tests" / "test_module.py").write_text("def test(m):\n    assert not m.interval_was_zero\n")
    (project / config).write_text("[flake8]\nstale-state-roots = pipe, tests\n")
    result = lines(flake8(project, "pipe/"))
    assert result == [DEAD_SETTER.replace("'pipe'", "'pipe+tests'")]


def test_bad_files_do_not_cost_the_other_files_their_findings(project):
    package = project / "pipe"
    (package / "broken.py").write_text("def broken(:\n")
    (package / "latin.py").write_bytes(b"x = '\xe9'\n")  # not UTF-8 and no encoding declaration
    (package / "ghost.py").symlink_to(project / "missing.py")
    out = lines(flake8(project, "pipe/", select="SS,E9"))
    assert DEAD_FLAG in out and DEAD_SETTER in out
    assert any(line.startswith("pipe/broken.py:") and "E999" in line for line in out)
    assert not any(line.startswith("pipe/latin.py:") for line in out)  # flake8 decodes it as latin-1
    assert any(line.startswith("pipe/ghost.py:") and "E902" in line for line in out)


def test_file_libcst_cannot_analyse_gets_one_clear_message(project):
    # valid Python that is nested too deeply for libcst's recursive visitors
    (project / "pipe" / "deep.py").write_text("x = " + "(" * 400 + "1" + ")" * 400 + "\n")
    out = lines(flake8(project, "pipe/"))
    assert DEAD_FLAG in out and DEAD_SETTER in out
    deep = [line for line in out if line.startswith("pipe/deep.py")]
    assert len(deep) <= 1
    assert all("SS000 stale-state could not analyse this file" in line for line in deep)


# flake8 under a start method of its workers, counting in each process the facts it makes rather than loads.
# A file, not `-c`: spawned workers and the fork server import it again, so each process counts its own.
COUNTING_FLAKE8 = """\
import multiprocessing
import os
import sys

from flake8_stale_state import index

original_facts_of = index.facts_of


def counted_facts_of(kind, path, source, *rest, **named):
    with open(os.environ["FACTS_LOG"], "a") as log:
        log.write(f"{multiprocessing.current_process().name} {'full' if kind.full else 'summary'} {path}\\n")
    return original_facts_of(kind, path, source, *rest, **named)


index.facts_of = counted_facts_of

if __name__ == "__main__":
    multiprocessing.set_start_method(sys.argv[1])
    from flake8.main.cli import main

    main(sys.argv[2:])
"""


@pytest.mark.parametrize("cache", ["on", "off"])
@pytest.mark.parametrize("method", ["fork", "spawn", "forkserver"])
def test_parallel_workers_reuse_the_main_processes_facts_under_every_start_method(project, tmp_path, method, cache):
    for extra in range(6):  # enough files that flake8 really starts workers
        (project / "pipe" / f"extra{extra}.py").write_text(f"class Extra{extra}:\n    def f(self):\n        pass\n")
    script, log = tmp_path / "counting_flake8.py", tmp_path / "facts.log"
    script.write_text(COUNTING_FLAKE8)
    env = {**os.environ, "FACTS_LOG": str(log), "STALE_STATE_CACHE_DIR": str(tmp_path / "cache"),
           **({"STALE_STATE_NO_CACHE": "1"} if cache == "off" else {})}
    result = subprocess.run([sys.executable, str(script), method, "--select", "SS", "-j", "2", "pipe/"],
                            cwd=project, capture_output=True, text=True, timeout=300, env=env)
    assert lines(result) == [DEAD_FLAG, DEAD_SETTER]
    made = [line.split()[0] for line in log.read_text().splitlines()]
    summaries = [line for line in log.read_text().splitlines() if " summary " in line]
    assert made.count("MainProcess") == len(made) and len(summaries) == len(list((project / "pipe").glob("*.py")))
