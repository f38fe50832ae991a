"""SS103 messages, and the DeepSpeed 0.19.3 -> 0.19.4 ground truth."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import FIXTURES, full_facts
from corpora import sdist
from flake8_stale_state.checks import config_shadow
from flake8_stale_state.engine import Analyzer
from flake8_stale_state.settings import Settings
from flake8_stale_state.summary import summarize

ENGINE = "deepspeed/runtime/pipe/engine.py"


def findings(path, **settings):
    return [f for f in Analyzer(Settings(use_cache=False, **settings)).check(path) if f.code == "SS103"]


def test_message_names_the_read_the_attribute_the_seed_and_the_other_assignments():
    (finding,) = findings(FIXTURES / "ss103" / "pipeline" / "pipe" / "engine.py")
    assert (finding.line, finding.col) == (15, 11)
    assert finding.message == (
        "self._config.pipeline['activation_checkpoint_interval'] shadows self.module.activation_checkpoint_interval "
        "(seeded at line 9, also assigned in pipe/module.py:7 and 1 more); read the attribute instead"
    )
    assert finding.symbol == "activation_checkpoint_interval"
    assert finding.context == "PipelineEngine._exec_load_micro_batch"


@pytest.mark.parametrize("prepass", [True, False])
def test_same_findings_with_and_without_the_prepass(prepass):
    path = FIXTURES / "ss103" / "read_forms" / "pkg" / "engine.py"
    assert [(f.line, f.col) for f in findings(path, prepass=prepass)] == [
        (16, 15), (19, 15), (22, 15), (25, 15), (29, 19), (34, 15), (34, 46),
    ]


def test_ignore_names_applies_to_the_key():
    path = FIXTURES / "ss103" / "pipeline" / "pipe" / "engine.py"
    assert findings(path, ignore_names=("activation_*",)) == []


def test_only_files_with_a_possible_seed_get_the_full_pass():
    folder = FIXTURES / "ss103" / "pipeline" / "pipe"
    analyzer = Analyzer(Settings(use_cache=False))
    index = analyzer.index_for(folder / "engine.py")
    seeded, plain = (summarize(str(folder / name), (folder / name).read_text()) for name in ("engine.py", "module.py"))
    assert config_shadow.may_report(seeded, index, Settings())
    assert not config_shadow.may_report(plain, index, Settings())


SEEDED = """\
class Engine:
    def __init__(self, module, config):
        self.module = module
        self._config = config
        self.module.interval = self._config["interval"]

    def step(self):
        note = "é€"; n = self._config["interval"]
        wrapped = (
            self._config["interval"]
        )
"""


@pytest.mark.parametrize("source, first_line", [
    (SEEDED, 1), (SEEDED.encode(), 1), (b"# coding: latin-1\n" + SEEDED.encode("cp1252"), 2),
])
def test_positions_count_characters_as_flake8_does(source, first_line):
    """Python's tree counts columns in UTF-8 bytes; flake8, libcst and editors in characters."""
    shadowing = full_facts("m.py", source, codes=["SS103"]).checks["SS103"]
    line = first_line + 7
    assert [(seed.line, seed.col) for seed in shadowing.seeds] == [(first_line + 4, 8)]
    assert [(read.line, read.col) for read in shadowing.reads] == [
        (line, SEEDED.splitlines()[7].index("self._config")), (line + 2, 12)]  # a wrapped read at its own line


def stale_state(tree, env, *args):
    result = subprocess.run(
        [sys.executable, "-m", "flake8_stale_state", "--select", "SS103", *args],
        cwd=tree, env=env, capture_output=True, text=True, timeout=1800,
    )
    assert "Traceback" not in result.stderr, result.stderr
    return result.stdout.splitlines()


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    return {**os.environ, "STALE_STATE_CACHE_DIR": str(tmp_path_factory.mktemp("ss103-cache"))}


@pytest.mark.e2e
def test_config_reads_found_in_0_19_3_and_not_at_the_seed_or_its_guard(env):
    out = stale_state(sdist("deepspeed", "0.19.3"), env, ENGINE)
    message = (
        "SS103 self._config.pipeline['activation_checkpoint_interval'] shadows "
        "self.module.activation_checkpoint_interval (seeded at line 212, also assigned in "
        "deepspeed/runtime/pipe/module.py:203); read the attribute instead"
    )
    assert out == [f"{ENGINE}:904:20: {message}", f"{ENGINE}:914:24: {message}"]


@pytest.mark.e2e
def test_fix_is_quiet_in_0_19_4(env):
    assert stale_state(sdist("deepspeed", "0.19.4"), env, ENGINE) == []
