"""Whatever a repository holds, the other files keep their findings and a bad file gets one line naming it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import MEMORY_LIMIT, limit_memory
from flake8_stale_state import cli, index
from flake8_stale_state.cst_facts import collect_facts

DEAD = "SS101 'dead' is assigned but never read in package 'pkg'"
GOOD = "class Good:\n    def set(self):\n        self.dead = 1\n        self.kept = 2\n"


@pytest.fixture
def package(tmp_path: Path) -> Path:
    """A package with one finding in good.py; a test adds its hostile file next to it."""
    root = tmp_path / "pkg"
    root.mkdir()
    (root / "__init__.py").write_text("")
    (root / "good.py").write_text(GOOD)
    (root / "reader.py").write_text("def use(good):\n    return good.kept\n")
    return root


def run(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, list[str], list[str]]:
    status = cli.main([*args, "--no-cache"])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out.splitlines(), err.splitlines()


def assert_good_finding_kept(out: list[str], root: Path) -> None:
    assert f"{root}/good.py:3:9: {DEAD}" in out


def test_syntax_error_is_one_line_and_the_rest_still_counts(package, capsys):
    (package / "broken.py").write_bytes(b"def f(:\n    x.kept\n")
    status, out, err = run(capsys, str(package))
    assert status == 2
    assert_good_finding_kept(out, package)
    assert err == [f"stale-state: {package}/broken.py: could not analyse this file: syntax error at line 1: "
                   "invalid syntax"]


def test_flake8_reports_the_syntax_error_and_keeps_the_other_findings(package):
    (package / "broken.py").write_bytes(b"def f(:\n")
    result = subprocess.run([sys.executable, "-m", "flake8", "--select", "SS,E999", "-j1", "pkg"],
                            cwd=package.parent, capture_output=True, text=True, timeout=120, preexec_fn=limit_memory)
    assert "Traceback" not in result.stderr
    assert result.stdout.splitlines() == [
        "pkg/broken.py:1:8: E999 SyntaxError: invalid syntax", f"pkg/good.py:3:9: {DEAD}",
    ]


def test_python_2_code(package, capsys):
    (package / "old.py").write_bytes(b"print 'hello'\nexec 'x = 1'\n")
    status, out, err = run(capsys, str(package))
    assert_good_finding_kept(out, package)
    assert len(err) == 1 and f"{package}/old.py" in err[0] and "syntax error at line 1" in err[0]


def test_pep_263_latin_1_declaration_is_read(package, capsys):
    source = "# -*- coding: latin-1 -*-\nNAME = 'café'\nclass L:\n    def f(self):\n        self.dead = 1\n"
    (package / "latin.py").write_bytes(source.encode("latin-1"))
    status, out, err = run(capsys, str(package))
    assert err == []
    assert f"{package}/latin.py:5:9: {DEAD}" in out


def test_undeclared_non_utf8_byte_is_one_line(package, capsys):
    (package / "bytes.py").write_bytes(b"NAME = 'caf\xe9'\n")
    status, out, err = run(capsys, str(package))
    assert_good_finding_kept(out, package)
    assert err == [f"stale-state: {package}/bytes.py: could not analyse this file: cannot decode: "
                   "invalid or missing encoding declaration"]


@pytest.mark.parametrize("prefix", [b"\xef\xbb\xbf", b"\xef\xbb\xbf# coding: utf-8\n"])
def test_utf8_bom(package, capsys, prefix):
    (package / "good.py").write_bytes(prefix + GOOD.encode())
    status, out, err = run(capsys, str(package))
    line = 3 + prefix.count(b"\n")
    assert err == [] and out == [f"{package}/good.py:{line}:9: {DEAD}"]


def test_nul_byte_message_names_no_missing_line(package, capsys):
    (package / "nul.py").write_bytes(b"x = 1\x00\n")
    status, out, err = run(capsys, str(package))
    assert_good_finding_kept(out, package)
    assert err == [f"stale-state: {package}/nul.py: could not analyse this file: syntax error: "
                   "source code string cannot contain null bytes"]


def test_crlf_and_form_feeds(package, capsys):
    source = b"\x0cclass Good:\r\n\x0c\r\n    def set(self):\r\n        self.dead = 1\r\n\x0c\r\n"
    (package / "good.py").write_bytes(source)
    status, out, err = run(capsys, str(package))
    assert err == [] and out == [f"{package}/good.py:4:9: {DEAD}"]


@pytest.mark.e2e
def test_fifty_thousand_line_module(package, capsys):
    body = "".join(f"VALUE_{i} = {i}\n" for i in range(49_996))
    (package / "big.py").write_text(f"{body}class Big:\n    def set(self):\n        self.dead = VALUE_1\n")
    assert (package / "big.py").read_text().count("\n") == 49_999
    start = time.monotonic()
    status, out, err = run(capsys, str(package))
    assert err == []
    assert f"{package}/big.py:49999:9: {DEAD}" in out
    assert_good_finding_kept(out, package)
    assert time.monotonic() - start < 120


# libcst's native parser overflows the C stack on these and kills the process, so they run in a subprocess.
DEEP = {
    "parentheses": "x = " + "(" * 5000 + "1" + ")" * 5000 + "\n",
    "unary": "x = " + "-" * 10_000 + "1\n",
    # Python accepts this one, and the class makes the collectors read it: it may be analysed in full
    "boolean chain": "class Deep:\n    def f(self):\n        self.dead = " + "x and " * 30_000 + "1\n",
    "attribute chain": "x = a" + ".b" * 5000 + "\n",
    "calls": "x = " + "f(" * 3000 + ")" * 3000 + "\n",
}


def test_a_process_fed_hostile_input_cannot_take_more_memory_than_its_limit():
    bounded = subprocess.run([sys.executable, "-c", f"bytearray({MEMORY_LIMIT})"], preexec_fn=limit_memory,
                             capture_output=True, text=True, timeout=60)
    assert bounded.returncode == 1 and bounded.stderr.splitlines()[-1] == "MemoryError"
    modest = subprocess.run([sys.executable, "-c", "bytearray(10**8)"], preexec_fn=limit_memory, timeout=60)
    assert modest.returncode == 0


@pytest.mark.parametrize("shape", DEEP)
def test_deep_nesting_is_one_line_not_a_crash(package, shape):
    (package / "deep.py").write_text(DEEP[shape])
    result = subprocess.run([sys.executable, "-m", "flake8_stale_state", "--no-cache", "pkg"],
                            cwd=package.parent, capture_output=True, text=True, timeout=120, preexec_fn=limit_memory)
    assert result.returncode in (1, 2), result.stderr[-2000:]  # a crash is a negative return code
    analysed = [f"pkg/deep.py:3:9: {DEAD}"] if result.returncode == 1 else []
    assert result.stdout.splitlines() == [*analysed, f"pkg/good.py:3:9: {DEAD}"]
    if not analysed:
        assert result.stderr.splitlines() == ["stale-state: pkg/deep.py: could not analyse this file: "
                                              "nested too deeply to analyse"]


def test_deep_nesting_python_accepts_is_parsed(package, capsys):
    (package / "deep.py").write_text("class D:\n    def f(self):\n        self.dead = " + "-" * 900 + "1\n")
    status, out, err = run(capsys, str(package))
    assert len(err) == 1 or f"{package}/deep.py:3:9: {DEAD}" in out  # the visitors may still run out of depth
    assert_good_finding_kept(out, package)


NEWEST = {
    "type parameters": "type Pair[T] = tuple[T, T]\ndef first[T](pair: Pair[T]) -> T:\n    return pair.kept\n",
    "pep 701 f-string": 'def show(good):\n    return f"{good.kept + f"{"nested"}"}"\n',
    "except star": "def f(good):\n    try:\n        pass\n    except* ValueError:\n        return good.kept\n",
    "match": "def f(good):\n    match good:\n        case {'a': 1}:\n            return good.kept\n",
}


@pytest.mark.parametrize("syntax", NEWEST)
def test_newest_syntax_counts_its_reads(package, capsys, syntax):
    (package / "reader.py").write_text(NEWEST[syntax])  # the only reader of `kept`
    status, out, err = run(capsys, str(package))
    parsed = not err
    if parsed:
        assert out == [f"{package}/good.py:3:9: {DEAD}"]
    else:  # a libcst too old for the syntax: one line naming the file, the rest still checked
        assert len(err) == 1 and f"{package}/reader.py" in err[0]
        assert_good_finding_kept(out, package)


def test_symlink_loop_in_the_tree_and_given_directly(package, capsys):
    (package / "loop_a.py").symlink_to(package / "loop_b.py")
    (package / "loop_b.py").symlink_to(package / "loop_a.py")
    (package / "sub").mkdir()
    (package / "sub" / "up").symlink_to(package, target_is_directory=True)
    status, out, err = run(capsys, str(package))
    assert err == [] and out == [f"{package}/good.py:3:9: {DEAD}"]
    status, out, err = run(capsys, str(package / "loop_a.py"))
    assert status == 2 and err == [f"stale-state: {package}/loop_a.py: could not read this file"]


def test_symlink_out_of_the_tree_is_not_part_of_the_package(package, tmp_path, capsys):
    outside = tmp_path / "elsewhere.py"
    outside.write_text("def use(good):\n    return good.dead\n")
    (package / "linked.py").symlink_to(outside)
    status, out, err = run(capsys, str(package))
    assert err == [] and out == [f"{package}/good.py:3:9: {DEAD}"]


def test_unreadable_file(package, capsys, monkeypatch):
    unreadable = package / "secret.py"
    unreadable.write_text("def use(good):\n    return good.dead\n")
    real_read = index.read_source

    def read_source(path: Path) -> bytes | None:
        return None if Path(path).name == "secret.py" else real_read(path)

    monkeypatch.setattr(index, "read_source", read_source)
    monkeypatch.setattr(cli, "read_source", read_source)
    monkeypatch.setattr("flake8_stale_state.engine.read_source", read_source)
    status, out, err = run(capsys, str(package))
    assert_good_finding_kept(out, package)
    assert err == [f"stale-state: {package}/secret.py: could not read this file"]


def test_file_deleted_between_discovery_and_reading(package, capsys, monkeypatch):
    doomed = package / "doomed.py"
    doomed.write_text("def use(good):\n    return good.dead\n")
    discover = cli.files_to_check

    def discover_then_delete(*arguments):
        found = list(discover(*arguments))
        doomed.unlink()
        return iter(found)

    monkeypatch.setattr(cli, "files_to_check", discover_then_delete)
    status, out, err = run(capsys, str(package))
    assert_good_finding_kept(out, package)
    assert err == [f"stale-state: {package}/doomed.py: could not read this file"]


def test_empty_file(package, capsys):
    (package / "empty.py").write_bytes(b"")
    status, out, err = run(capsys, str(package))
    assert status == 1 and err == [] and out == [f"{package}/good.py:3:9: {DEAD}"]


def test_package_of_no_files(tmp_path, capsys):
    (tmp_path / "nothing").mkdir()
    assert run(capsys, str(tmp_path / "nothing")) == (0, [], [])
    result = subprocess.run([sys.executable, "-m", "flake8", "--select", "SS", "nothing"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stdout == "" and "Traceback" not in result.stderr


def tokenizer_survives(source: str) -> bool:
    """Whether this Python's own tokenizer gets through `source` within the memory limit: CPython 3.12.1's took
    19 GB on the deep boolean chain (fixed in later 3.12 releases)."""
    probe = "import io, sys, tokenize; list(tokenize.generate_tokens(io.StringIO(sys.stdin.read()).readline))"
    return subprocess.run([sys.executable, "-c", probe], input=source, capture_output=True, text=True, timeout=120,
                          preexec_fn=limit_memory).returncode == 0


def test_every_hostile_file_at_once_through_flake8(package):
    hostile = {
        "broken.py": b"def f(:\n", "old.py": b"print 'x'\n", "bytes.py": b"x = '\xe9'\n",
        "nul.py": b"x = 1\x00\n", "empty.py": b"", "bom.py": b"\xef\xbb\xbfx = 1\r\n\x0c\r\n",
        "deep.py": DEEP["boolean chain"].encode(),
    }
    if not tokenizer_survives(DEEP["boolean chain"]):  # flake8 tokenizes every file itself, before any plugin
        del hostile["deep.py"]
    try:
        compile("\0", "nul.py", "exec")
    except ValueError:  # older Pythons (3.10): flake8 itself ends in a traceback on the file, before any plugin
        del hostile["nul.py"]
    except SyntaxError:
        pass
    for name, content in hostile.items():
        (package / name).write_bytes(content)
    os.symlink(package / "loop.py", package / "loop.py")
    result = subprocess.run([sys.executable, "-m", "flake8", "--select", "SS", "-j", "2", "pkg"],
                            cwd=package.parent, capture_output=True, text=True, timeout=300, preexec_fn=limit_memory)
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    assert f"pkg/good.py:3:9: {DEAD}" in result.stdout.splitlines()
    assert "internal error" not in result.stdout


def test_collect_facts_turns_any_exception_into_an_error(monkeypatch):
    def explode(source):
        raise KeyError("boom")

    monkeypatch.setattr("flake8_stale_state.cst_facts.parse", explode)
    assert collect_facts("x.py", "x = 1\n").error == "internal error: KeyError: 'boom'"


def test_collect_facts_leaves_libcst_alone_where_python_parses_the_file(monkeypatch):
    def unwanted(source):
        raise AssertionError("libcst parsed a file Python accepts")

    monkeypatch.setattr("libcst.parse_module", unwanted)
    facts = collect_facts("x.py", "class A:\n    def f(self):\n        self.x = 1\n")
    assert facts.error is None and [write.name for write in facts.writes] == ["x"]
    assert "libcst parsed" in collect_facts("y.py", "x = = 1\n").error  # where Python rejects it, libcst's turn


def test_paths_resolve_through_their_folder_as_realpath_resolves_them(tmp_path, monkeypatch):
    from flake8_stale_state.engine import Analyzer
    from flake8_stale_state.settings import Settings

    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "m.py").write_text("")
    (tmp_path / "linked").symlink_to(tmp_path / "real")
    (tmp_path / "real" / "alias.py").symlink_to(tmp_path / "real" / "m.py")
    monkeypatch.chdir(tmp_path / "real")
    analyzer = Analyzer(Settings())
    for name in ["m.py", "alias.py", "../linked/m.py", "../linked/alias.py", "..", ".", "../linked", "/"]:
        assert analyzer._real(Path(name)) == Path(os.path.realpath(name)), name
