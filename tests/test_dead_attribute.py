"""SS101 messages and "did you mean" hints; the facts and lookups behind reads from outside the package."""

from __future__ import annotations

from pathlib import Path

import pytest

from flake8_stale_state.engine import Analyzer
from flake8_stale_state.hint import closest, is_respelling, shares_half, tokens
from conftest import FIXTURES, REPO, full_facts
from flake8_stale_state.package import python_files
from flake8_stale_state.settings import Settings
from flake8_stale_state import library_bases
from flake8_stale_state.environment import running_environment
from flake8_stale_state.library_bases import LibraryClasses, ModuleFinder, qualified_name
from flake8_stale_state.summary import summarize


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
    assert "did you mean" not in found[7]  # one word where readers use two
    assert found[10].endswith("did you mean 'total_steps'?")
    assert "did you mean" not in found[13]


def test_a_reader_of_a_name_nothing_assigns_outranks_a_class_wide_read():
    path = FIXTURES / "ss101" / "class_wide" / "pkg" / "wholes.py"
    found = messages(path)
    DRIFTED = next(n for n, line in enumerate(path.read_text().splitlines(), 1) if "self.timeout_second =" in line)
    assert found[DRIFTED].endswith("did you mean 'timeout_seconds'?")  # despite `vars(self) == vars(other)`
    forgotten = next(n for n, line in enumerate(path.read_text().splitlines(), 1) if "self.forgotten =" in line)
    assert "did you mean" not in found[forgotten]


def test_hints_name_only_attributes_read_on_the_writes_own_classes():
    path = FIXTURES / "ss101" / "by_class" / "pkg" / "engines.py"
    found = messages(path)
    size = next(n for n, line in enumerate(path.read_text().splitlines(), 1) if "self.size = 1  # expect" in line)
    assert found[size] == "'size' is assigned but never read in package 'pkg'"
    assert not any("did you mean" in message for message in found.values())


def test_ignore_names_takes_globs():
    path = FIXTURES / "ss101" / "hints" / "pkg" / "hints.py"
    ignored = ("warm*", "total_step", "of", "spacebefore", "end_*", "checkpoint_interval", "*inform_on_change",
               "?r_conflict", "relu_funcs", "a?", "lt", "background_fill_*", "_when_*", "press_count?",
               "_frequency_*", "_neighbor[s]", "security_group", "_volume", "_pitch", "_balance",
               "veloctiy", "timer_*", "background_colour")
    assert set(messages(path, ignore_names=ignored)) == {13}


def test_tokens_split_snake_and_camel_case():
    assert tokens("activation_checkpoint_interval") == {"activation", "checkpoint", "interval"}
    assert tokens("maxHTTPRetries2") == {"max", "http", "retries", "2"}


def test_closest_rules():
    readers = ["activation_checkpoint_interval", "interval"]
    assert closest("checkpoint_interval", readers) == "activation_checkpoint_interval"
    assert closest("recieve_buffer", ["receive_buffer"]) == "receive_buffer"  # a typo
    assert closest("total_step", ["total_steps"]) == "total_steps"  # a plural
    assert closest("_reason", ["reason"]) == "reason"  # the same words, another underscore
    assert closest("spacebefore", ["spaceBefore"]) == "spaceBefore"  # the same letters, in another case
    assert closest("fset", ["fget"]) is None  # a four-letter word a letter away is another word
    assert closest("is_change_owner", ["is_owner_change"]) is None  # the same words in another order
    assert closest("warmup", ["warmup_steps"]) is None  # one word where readers use two: `secret`, `salted_secret`
    assert closest("losses", ["agg_additional_losses"]) is None  # one word of three
    assert closest("resolve_label", ["allow_label_resolve"]) is None  # the words in another order
    assert closest("loaded_mp_size", ["loaded_dp_size"]) is None  # another word in place of one
    assert closest("fp32_actual_flat", ["fp32_flat"]) is None  # a word more than the readers'
    assert closest("data", ["input_data"]) is None  # one short common word points nowhere
    assert closest("dir", ["__dir__"]) is None  # dunders are never the attribute meant
    assert closest("world_rank", ["WORLD"]) is None
    assert closest("q_config", ["_config"]) is None  # one character away, but another shape of name
    assert closest("_unregister_fd", ["_register_fd"]) is None  # a word grown by a prefix is another word
    assert closest("message_class", ["message_cls"]) is None  # two letters off a five-letter word
    assert closest("lr", ["lt"]) is None  # a short name: only a typo of a name read in its own class
    assert closest("lr", ["lt"], same_class={"lt"}) == "lt"
    assert closest("lr", ["lrs", "lr_max"], same_class={"lrs", "lr_max"}) == "lrs"
    assert closest("of", ["fo"], same_class={"fo"}) is None  # two letters swapped: most of a short name moved
    assert closest("ofs", ["fos"], same_class={"fos"}) is None
    assert closest("recieve_buffer", ["receive_buffer"]) == "receive_buffer"  # a long word's swap is a typo
    assert closest("_neighbors", ["neighbor"]) is None  # another privacy and a plural: two changes
    assert closest("_neighbors", ["_neighbor"]) == "_neighbor"
    assert closest("_range_low", ["_get_range_low"]) is None  # its accessor, not another name for it
    assert closest("_range_low", ["_get_range_low"], likeness=shares_half) is None
    assert closest("range_low", ["input_range_low"]) == "input_range_low"


def test_respellings_are_the_same_words_in_the_other_convention():
    assert is_respelling("setComment", "set_comment")
    assert is_respelling("top_priority", "topPrio")  # either way, a word cut to its start
    assert is_respelling("toggleFirstLastPiecePrio", "toggle_first_last_piece_priority")
    assert not is_respelling("setcomment", "set_comment")  # one word: no convention
    assert not is_respelling("commentSetter", "set_comment")  # the words in another order
    assert not is_respelling("topP", "top_priority")  # a word cut to less than three letters
    assert not is_respelling("pauseAll", "pause_every")
    assert not is_respelling("set_comment", "set_comment")


DOCUMENTATION_SHAPES = """\
import random, os.path as osp
from .sibling import Thing as Other
from ... import up
from logging import *


class A(random.Random):
    def f(self, other):  #: a comment on the header line documents nothing below it
        #: above
        self.above = 1
        self.trailing = 2  #: trailing
        x = 1; self.second_on_line = 2  #: trailing, the last statement of the line
        #: above, the first statement of the line
        self.first_on_line = 1; self.not_first = 2
        self.docstring = 3
        "docstring"
        self.same_line = 1; "docstring"
        if x: self.suite = 1  #: trailing, after a one-line block
        self.semicolon = 1;  #: trailing, after a semicolon
        self.parenthesised = (
            1
        )  #: trailing, after the last line
        self.k, (self.l, *self.m) = v  #: every target
        other.not_receiver = 1  #: not an attribute of the instance
        if x:
            pass
        #: above, after a block, at the statement's indentation
        self.after_block = 1
        if x:
            pass
            #: closing the block above
        self.closing_comment = 1
        try:
            self.in_try = 1
            "docstring"
        finally:
            self.in_finally = 1
            "docstring"

        def inner():
            self.in_closure = 1  #: trailing
"""
SOURCES = sorted([*python_files(FIXTURES), *python_files(REPO / "flake8_stale_state")])


@pytest.mark.parametrize("source", [DOCUMENTATION_SHAPES, *SOURCES], ids=["shapes", *(p.name for p in SOURCES)])
def test_both_passes_find_the_same_documented_attributes_and_imports(source):
    if not isinstance(source, str):
        source = source.read_bytes()
    summary, full = summarize("m.py", source), full_facts("m.py", source)
    assert (summary.documented, summary.imports, summary.import_fallbacks, summary.name_aliases) == (
        full.documented, full.imports, full.import_fallbacks, full.name_aliases)


def test_documented_attributes_follow_sphinx():
    facts = summarize("m.py", DOCUMENTATION_SHAPES)
    assert facts.documented == {
        "above", "trailing", "second_on_line", "first_on_line", "docstring", "same_line", "suite", "semicolon",
        "parenthesised", "k", "l", "m", "after_block", "in_try", "in_finally", "in_closure",
    }
    assert facts.imports == {
        "random": "random", "osp": "os.path", "Other": ".sibling.Thing", "up": "...up",
    }


IMPORT_FALLBACKS = """\
try:
    from http.server import HTTPServer
    import cPickle as pickle
except (ImportError, AttributeError):
    from BaseHTTPServer import HTTPServer
    from pickle import Pickler
try:
    import simplejson as json
except ValueError:  # no failed import: this binding replaces the first, as Python's would
    import json
"""


def test_an_import_under_except_import_error_is_a_fallback_of_the_name_it_binds_again():
    facts = summarize("m.py", IMPORT_FALLBACKS)
    assert facts.imports == {"HTTPServer": "http.server.HTTPServer", "pickle": "cPickle",
                             "Pickler": "pickle.Pickler", "json": "json"}
    assert facts.import_fallbacks == {"HTTPServer": "BaseHTTPServer.HTTPServer"}
    assert full_facts("m.py", IMPORT_FALLBACKS).import_fallbacks == facts.import_fallbacks


def test_the_fallback_is_followed_only_where_the_first_import_cannot_succeed():
    finder = ModuleFinder(running_environment())
    first = summarize("m.py", "try:\n    import socketserver\nexcept ImportError:\n"
                              "    import SocketServer as socketserver\n")
    python2_first = summarize("m.py", "try:\n    import SocketServer as socketserver\nexcept ImportError:\n"
                                      "    import socketserver\n")
    nowhere = summarize("m.py", "try:\n    import SocketServer as socketserver\nexcept ImportError:\n"
                                "    import NoSuchServer as socketserver\n")
    assert qualified_name("socketserver.TCPServer", first.imports, fallback=finder.fallback_of(first)) == \
        "socketserver.TCPServer"
    assert qualified_name("socketserver.TCPServer", python2_first.imports,
                          fallback=finder.fallback_of(python2_first)) == "socketserver.TCPServer"
    assert qualified_name("socketserver.TCPServer", nowhere.imports, fallback=finder.fallback_of(nowhere)) == \
        "SocketServer.TCPServer"  # named as missing, as before


def test_qualified_names_follow_imports():
    imports = {"random": "random", "Handler": "logging.StreamHandler", "case": ".case", "up": "..up"}
    assert qualified_name("random.Random", imports) == "random.Random"
    assert qualified_name("Handler", imports) == "logging.StreamHandler"
    assert qualified_name("Random", imports) is None  # not imported: defined in the package, or unknown
    assert qualified_name("case.TestCase", imports) is None  # the package's own module
    assert qualified_name("case.TestCase", imports, package="unittest") == "unittest.case.TestCase"
    assert qualified_name("up.X", imports, package="a.b") == "a.up.X"


def test_standard_library_classes_and_their_bases_read_through_self():
    class_reads = LibraryClasses().class_reads
    assert "gauss_next" in class_reads("random.Random")
    assert "terminator" in class_reads("logging.StreamHandler")
    # WSGIServer -> http.server.HTTPServer -> socketserver.TCPServer, across modules
    assert {"allow_reuse_address", "address_family"} <= class_reads("wsgiref.simple_server.WSGIServer")
    assert "_testMethodName" in class_reads("unittest.TestCase")  # re-exported by unittest/__init__.py
    assert class_reads("thirdparty.Random") == frozenset()
    assert class_reads("random.NoSuchClass") == frozenset()


def test_standard_library_modules_are_summarised_once_through_the_given_summariser():
    summarised = []

    def summarize_file(path):
        summarised.append(path.name)
        return library_bases.summarize_file(path)

    stdlib = LibraryClasses(summarize_file)
    assert "gauss_next" in stdlib.class_reads("random.Random")
    assert "gauss_next" in stdlib.class_reads("random.SystemRandom")
    assert summarised == ["random.py"]


def test_the_standard_library_modules_named_as_bases_are_found_ahead():
    from flake8_stale_state.environment import Environment
    from flake8_stale_state.library_bases import STDLIB, ModuleFinder, base_modules
    from flake8_stale_state.summary import summarize

    source = (
        "import logging\nimport numpy\nfrom collections import OrderedDict\nfrom .local import Base\n"
        "class Quiet(logging.StreamHandler): pass\nclass Ordered(OrderedDict): pass\n"
        "class Array(numpy.ndarray): pass\nclass Mine(Base): pass\nclass Plain: pass\n"
    )
    no_libraries = ModuleFinder(Environment(Path("/nowhere"), ()))
    assert base_modules([summarize("m.py", source)], no_libraries) == {
        STDLIB / "logging" / "__init__.py", STDLIB / "collections" / "__init__.py",
    }


def test_names_over_a_hierarchy_are_joined_as_asked_and_whole_where_walked():
    from flake8_stale_state.index import JOINED_PARTS, PackageIndex

    index = PackageIndex("pkg", REPO)
    index.__dict__["class_bases"] = {"Leaf": {"Base"}, "Base": set(), "Other": set()}
    index.__dict__["class_children"] = {"Base": {"Leaf"}}
    by_class = {"Leaf": {"own"}, "Base": {"inherited", "shared"}, "Other": {"elsewhere"}}
    joined = index._over_related(by_class, "Leaf")
    assert not isinstance(joined, frozenset)  # a leaf's few sets, read through
    assert "own" in joined and "inherited" in joined and "elsewhere" not in joined
    assert joined == {"own", "inherited", "shared"} and len(joined) == 3
    assert joined - {"shared"} == {"own", "inherited"} and {"own", "x"} - joined == {"x"}
    assert joined | {"x"} == {"own", "inherited", "shared", "x"} and isinstance(joined | {"x"}, frozenset)
    many = {f"C{n}": {f"n{n}"} for n in range(JOINED_PARTS + 1)}
    index = PackageIndex("pkg", REPO)
    index.__dict__["class_bases"] = {"C0": set(many) - {"C0"}, **{cls: set() for cls in many if cls != "C0"}}
    index.__dict__["class_children"] = {cls: {"C0"} for cls in many if cls != "C0"}
    made = index._over_related(many, "C0")  # more sets than are worth asking one by one: made once
    assert isinstance(made, frozenset) and made == frozenset(f"n{n}" for n in range(JOINED_PARTS + 1))


def test_computed_names_fold_joins_and_the_parts_a_class_spells():
    import ast
    import re

    from flake8_stale_state.summary import attribute_marker, name_patterns, spelt_names

    def patterns(code, part=None):
        return name_patterns(ast.parse(code, mode="eval").body, part)

    assert patterns('"_".join([prefix, "ema"])') == ["*_ema"]
    assert patterns('"_".join((a, b))') == ["*_*"]
    assert patterns('"_".join(parts)') is None  # not a literal: its parts are unknown
    assert patterns('"_".join([*parts, "x"])') is None
    assert patterns('"_".join([a])') is None  # nothing of it constant
    owner = lambda node: ["owner"] if isinstance(node, ast.Name) and node.id == "name" else None  # noqa: E731
    assert patterns('"_" + name', owner) == ["_owner"] and patterns('f"{name}_{kind}"', owner) == ["owner_*"]
    assert patterns('"_" + other', owner) == ["_*"]

    token = re.compile(re.escape(attribute_marker("C", "")[:-2]) + r"([^\0]*)\0\*")
    spelt = {"private": {"_" + attribute_marker("C", "name")}, "name": {"size"}, "loose": None}
    assert spelt_names(attribute_marker("C", "private"), token, spelt) == ["_size"]  # through two attributes
    assert spelt_names("x_" + attribute_marker("C", "name"), token, spelt) == ["x_size"]
    assert spelt_names(attribute_marker("C", "loose"), token, spelt) == []  # the whole name unknown: nothing
    assert spelt_names("x_" + attribute_marker("C", "loose"), token, spelt) == ["x_*"]  # a part unknown: `*`
    assert spelt_names(attribute_marker("C", "missing") + attribute_marker("C", "loose"), token, spelt) == []
    looping = {"a": {"x" + attribute_marker("C", "a")}}  # `self.a = "x" + self.a`: spelt to a bound, then `*`
    assert spelt_names(attribute_marker("C", "a"), token, looping) == ["x*"]


def test_compiled_standard_library_classes_declare_their_slots():
    members, methods = library_bases.compiled_stdlib_members("_collections.defaultdict")
    assert "default_factory" in members and "copy" in methods and "__missing__" not in methods
    assert "check_hostname" in library_bases.compiled_stdlib_members("_ssl._SSLContext")[0]
    assert library_bases.compiled_stdlib_members("_collections.no_such_class") is None
    assert library_bases.compiled_stdlib_members("_collections.deque")[0] >= {"maxlen"}
    assert library_bases.compiled_stdlib_members("thirdparty.Base") is None  # never imported
    assert library_bases.compiled_stdlib_members("no_such_module_of_python.Base") is None
