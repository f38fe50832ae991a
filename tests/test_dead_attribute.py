"""SS101 messages and "did you mean" hints."""

from __future__ import annotations

from conftest import FIXTURES
from flake8_stale_state.engine import Analyzer
from flake8_stale_state.hint import closest, tokens
from flake8_stale_state.settings import Settings


def messages(path, **settings):
    return {f.line: f.message for f in Analyzer(Settings(use_cache=False, **settings)).check(path)}


def test_seed_message_names_package_and_the_attribute_readers_use():
    found = messages(FIXTURES / "ss101" / "pipeline" / "pipe" / "module.py")
    assert found[19] == (
        "'checkpoint_interval' is assigned but never read in package 'pipe'; "
        "did you mean 'activation_checkpoint_interval'?"
    )
    assert found[13] == "'interval_was_zero' is assigned but never read in package 'pipe'"


def test_hints_prefer_the_same_class_and_stay_silent_when_nothing_is_close():
    found = messages(FIXTURES / "ss101" / "hints" / "pkg" / "hints.py")
    assert found[7].endswith("did you mean 'learning_rate_warmup'?")
    assert found[10].endswith("did you mean 'total_steps'?")
    assert "did you mean" not in found[13]


def test_ignore_names_takes_globs():
    path = FIXTURES / "ss101" / "hints" / "pkg" / "hints.py"
    assert set(messages(path, ignore_names=("warm*", "total_step"))) == {13}


def test_tokens_split_snake_and_camel_case():
    assert tokens("activation_checkpoint_interval") == {"activation", "checkpoint", "interval"}
    assert tokens("maxHTTPRetries2") == {"max", "http", "retries", "2"}


def test_closest_rules():
    readers = ["activation_checkpoint_interval", "interval"]
    assert closest("checkpoint_interval", readers) == "activation_checkpoint_interval"
    assert closest("recieve_buffer", ["receive_buffer"]) == "receive_buffer"  # a typo
    assert closest("data", ["input_data"]) is None  # one common word points nowhere outside the class
    assert closest("data", ["input_data"], same_class=True) == "input_data"
    assert closest("dir", ["__dir__"]) is None  # dunders are never the attribute meant
    assert closest("world_rank", ["WORLD"]) is None
    assert closest("q_config", ["_config"]) is None  # one character away, but another shape of name
