"""Bases from libraries installed in the environment being checked: found by reading its layout, their source
summarised and never run, what they read through `self` counted as read for the package's subclasses."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import Analyzer, Settings, counting_parses, run_cli
from flake8_stale_state.environment import NotAnEnvironment, find_environment, named_environment

SUBCLASS = """\
from fakelib import Base


class Sub(Base):
    def __init__(self):
        self.x = 1  # read by fakelib.Base
        self.z = 3  # read by otherlib.Root, fakelib.Base's own base, in a folder a .pth file adds
        self.fake_option = 4  # read by the environment's socketserver.TCPServer, otherlib.Root's base
        self.y = 2  # read by nothing
"""
MISSING = """\
from notinstalled.protocol import Protocol


class First(Protocol):
    def connect(self):
        self.transport = None


class Second(Protocol):
    def connect(self):
        self.transport = None
"""
X_LINE, Z_LINE, W_LINE, Y_LINE = 6, 7, 8, 9


def executable(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def env(tmp_path: Path) -> Path:
    """A virtual environment's layout holding a small library, `fakelib`, whose base derives from a module in a
    folder that a .pth file adds; the interpreter and the .pth file's `import` line would each leave a file
    behind if anything ran them."""
    root = tmp_path / "env"
    site = root / "lib" / "python3.11" / "site-packages"
    (site / "fakelib").mkdir(parents=True)
    base = tmp_path / "base" / "lib" / "python3.11"  # the interpreter the environment was made from
    base.mkdir(parents=True)
    (base / "os.py").write_text("")
    (base / "socketserver.py").write_text("class TCPServer:\n    def bind(self):\n        return self.fake_option\n")
    (root / "pyvenv.cfg").write_text(
        f"home = {tmp_path / 'base' / 'bin'}\ninclude-system-site-packages = false\nversion = 3.11.4\n")
    executable(root / "bin" / "python", f"#!/bin/sh\ntouch {tmp_path / 'interpreter-ran'}\n")
    (site / "fakelib" / "__init__.py").write_text("from .base import Base\n")
    (site / "fakelib" / "base.py").write_text(
        "import otherlib\n\n\nclass Base(otherlib.Root):\n    def run(self):\n        return self.x\n")
    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "otherlib.py").write_text(
        "import socketserver\n\n\nclass Root(socketserver.TCPServer):\n    def go(self):\n        return self.z\n")
    (site / "extra.pth").write_text(
        f"# a comment\n{extra}\nimport pathlib; pathlib.Path({str(tmp_path / 'pth-ran')!r}).touch()\n"
        "no-such-folder\n")
    return root


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, text in {"__init__.py": "", "sub.py": SUBCLASS, "proto.py": MISSING}.items():
        (tmp_path / "pkg" / name).parent.mkdir(exist_ok=True)
        (tmp_path / "pkg" / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    return tmp_path


def nothing_ran(tmp_path: Path) -> bool:
    return not (tmp_path / "interpreter-ran").exists() and not (tmp_path / "pth-ran").exists()


def test_the_layout_gives_site_packages_then_the_folders_pth_files_add(env, tmp_path):
    site = env / "lib" / "python3.11" / "site-packages"
    for named in (env / "bin" / "python", env):
        found = named_environment(named)
        assert found.location == env
        assert found.library_folders == (site, tmp_path / "extra")
        assert found.stdlib == tmp_path / "base" / "lib" / "python3.11"
    assert nothing_ran(tmp_path)


def test_a_windows_layout_and_the_system_site_packages_a_venv_includes(tmp_path):
    base = tmp_path / "base"
    (base / "lib" / "python3.12" / "site-packages").mkdir(parents=True)
    (base / "lib" / "python3.11" / "site-packages").mkdir(parents=True)  # another version's: not this env's
    root = tmp_path / "winenv"
    (root / "Lib" / "site-packages").mkdir(parents=True)
    (root / "Scripts").mkdir()
    (root / "Scripts" / "python.exe").write_text("")
    (root / "pyvenv.cfg").write_text(f"home = {base / 'bin'}\ninclude-system-site-packages = true\n"
                                     "version_info = 3.12.1.final.0\n")
    assert named_environment(root / "Scripts" / "python.exe").library_folders == (
        root / "Lib" / "site-packages", base / "lib" / "python3.12" / "site-packages")


def test_an_active_virtualenv_unless_the_option_names_one_and_the_running_interpreter_last(env, tmp_path):
    other = tmp_path / "other"
    (other / "lib" / "python3.13" / "site-packages").mkdir(parents=True)
    assert find_environment(None, {"VIRTUAL_ENV": str(env)}).location == env
    assert find_environment(other, {"VIRTUAL_ENV": str(env)}).location == other
    assert find_environment(None, {"VIRTUAL_ENV": str(tmp_path / "deleted")}).location == Path(sys.prefix)
    assert find_environment(None, {}).location == Path(sys.prefix)


@pytest.mark.parametrize("name", ["nowhere", "not-an-env", "not-an-env/python"])
def test_a_path_that_is_no_environment_is_refused(tmp_path, name):
    (tmp_path / "not-an-env").mkdir()
    (tmp_path / "not-an-env" / "python").write_text("")
    with pytest.raises(NotAnEnvironment, match=rf"^python: {tmp_path / name}: "):
        named_environment(tmp_path / name)


def test_bases_from_the_environment_read_their_attributes(project, env, capsys):
    code, out, err = run_cli(capsys, "--python", str(env / "bin" / "python"), "pkg")
    assert code == 1
    assert [line.split(" '")[0] for line in out] == [
        "pkg/proto.py:6:9: SS101", "pkg/proto.py:11:9: SS101", f"pkg/sub.py:{Y_LINE}:9: SS101"]
    # the base two classes share is named once; fakelib's, found, is not
    assert err == (f"stale-state: base class notinstalled.protocol.Protocol not found in {env}; "
                   "attributes it reads count as unread\n")
    assert nothing_ran(project)


OPAQUE = """\
import System.Windows.Forms as WinForms
from compiledlib import Widget
from fakelib import Base


class Browser(WinForms.Form):
    def __init__(self):
        self.TopMost = True  # a property of the .NET form: its setter runs, and the form reads it
        self.MAX_SIZE = 3  # spelt like a constant, not a property
        self.title = "x"


class Panel(Widget):  # installed, compiled: no source to read
    def __init__(self):
        self.Caption = "x"


class Plain(Base):  # read, and nothing there holds `Caption`
    def __init__(self):
        self.Caption = "x"
"""


def test_a_capitalised_name_is_a_property_of_a_base_with_no_source_to_read(project, env, capsys):
    (project / "pkg" / "forms.py").write_text(OPAQUE)
    site = env / "lib" / "python3.11" / "site-packages"
    (site / "compiledlib.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF")
    code, out, err = run_cli(capsys, "--python", str(env / "bin" / "python"), "pkg/forms.py")
    assert code == 1
    assert [line.split(" '")[0] + " " + line.split("'")[1] for line in out] == [
        "pkg/forms.py:9:9: SS101 MAX_SIZE", "pkg/forms.py:10:9: SS101 title", "pkg/forms.py:20:9: SS101 Caption"]
    assert "System.Windows.Forms.Form not found" in err and "compiledlib" not in err


def test_without_the_library_its_readers_are_unknown_and_the_base_is_named(project, capsys):
    code, out, err = run_cli(capsys, "pkg/sub.py")  # the environment running the tests has no fakelib
    assert code == 1
    assert [line.split(":")[1] for line in out] == [str(X_LINE), str(Z_LINE), str(W_LINE), str(Y_LINE)]
    assert err.splitlines() == [
        f"stale-state: base class {base} not found in {sys.prefix}; attributes it reads count as unread"
        for base in ("fakelib.Base", "notinstalled.protocol.Protocol")]  # the whole package is indexed


def test_no_base_is_named_where_ss101_is_not_selected(project, capsys):
    assert run_cli(capsys, "--select", "SS102", "pkg") == (0, [], "")
    assert run_cli(capsys, "--ignore", "SS101", "pkg") == (0, [], "")
    result = flake8(project, "--select", "SS102", "pkg")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_the_standard_library_is_that_of_the_environment(project, env, capsys):
    (project / "pkg" / "server.py").write_text(
        "import socketserver\n\n\nclass Server(socketserver.TCPServer):\n    def __init__(self):\n"
        "        self.fake_option = 1\n        self.allow_reuse_address = True\n")
    _, theirs, _ = run_cli(capsys, "--python", str(env), "pkg/server.py")
    _, ours, _ = run_cli(capsys, "pkg/server.py")
    assert [line.split("'")[1] for line in theirs] == ["allow_reuse_address"]  # their TCPServer reads the other
    assert [line.split("'")[1] for line in ours] == ["fake_option"]


REGISTERING = """\
from fakelib import nn
from fakelib.nn import Record


class Net(nn.Layer):
    def __init__(self):
        self.proj = nn.Layer()  # registered by the base's __setattr__
        self.scale = 2.0  # a float: no layer to register


class Point(Record):
    def __init__(self):
        self.x = 1  # compared by the base's __eq__
"""


def test_what_a_library_base_does_with_every_attribute_through_a_star_re_export(project, env, capsys):
    """A base's `__setattr__` consumes the values it can register, its `__eq__` on `self.__dict__` every value;
    the base is found through `from .layer import *` in the library's `__init__.py`."""
    site = env / "lib" / "python3.11" / "site-packages" / "fakelib"
    (site / "nn").mkdir()
    (site / "nn" / "__init__.py").write_text("from .layer import *\n")
    (site / "nn" / "layer.py").write_text(
        "class Layer:\n    def __setattr__(self, name, value):\n        object.__setattr__(self, name, value)\n\n\n"
        "class Record:\n    def __eq__(self, other):\n        return self.__dict__ == other.__dict__\n")
    (project / "pkg" / "layers.py").write_text(REGISTERING)
    _, theirs, _ = run_cli(capsys, "--python", str(env), "pkg/layers.py")
    _, ours, _ = run_cli(capsys, "pkg/layers.py")
    assert [line.split("'")[1] for line in theirs] == ["scale"]
    assert [line.split("'")[1] for line in ours] == ["proj", "scale", "x"]
    assert nothing_ran(project)


STARRED = """\
from pkg import _vtk


class Through(_vtk.Base):
    def __init__(self):
        self.x = 1  # read by fakelib.Base, which the package's _vtk star-imports
        self.y = 2


class Unbound(_vtk.Elsewhere):  # no module _vtk star-imports binds it
    def __init__(self):
        self.x = 1
"""


def test_a_library_base_named_through_a_star_import_of_the_package(project, env, capsys):
    """`_vtk.Base`, where the package's `_vtk` binds `Base` only by `from fakelib import *` (under
    `TYPE_CHECKING`, where a lazy module `__getattr__` loads it at run time): the library that binds it is
    followed, and the later of two star imports rebinds the earlier's names."""
    (project / "pkg" / "_vtk.py").write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
        "    from otherlib import *\n    from fakelib import *\n    from pkg.local import *\n")
    (project / "pkg" / "local.py").write_text("class Local:\n    pass\n")
    (project / "pkg" / "starred.py").write_text(STARRED)
    _, theirs, _ = run_cli(capsys, "--python", str(env), "pkg")
    _, ours, _ = run_cli(capsys, "pkg")
    starred = [line.split(": SS101")[0] for line in theirs if line.startswith("pkg/starred.py")]
    assert starred == ["pkg/starred.py:7:9", "pkg/starred.py:12:9"]
    assert [line.split(": SS101")[0] for line in ours if line.startswith("pkg/starred.py")] == [
        "pkg/starred.py:6:9", "pkg/starred.py:7:9", "pkg/starred.py:12:9"]
    assert nothing_ran(project)


STAR_NAMED = """\
from fakelib import *


class Lexer(Base):  # `Base` is fakelib's, which reads `x`
    def __init__(self):
        self.x = 1
        self.y = 2


class Local:
    pass


class Derived(Local):  # the module's own class, not the library's
    def __init__(self):
        self.x = 1
"""


def test_a_library_base_named_through_the_module_s_own_star_import(project, env, capsys):
    """`from antlr4 import *`, then `class OverrideLexer(Lexer)`: the base is the library's, where the module
    star-imports one module outside the package and binds no class of that name itself."""
    (project / "pkg" / "lexer.py").write_text(STAR_NAMED)
    _, theirs, err = run_cli(capsys, "--python", str(env), "pkg/lexer.py")
    _, ours, _ = run_cli(capsys, "pkg/lexer.py")
    assert [line.split(": SS101")[0] for line in theirs] == ["pkg/lexer.py:7:9", "pkg/lexer.py:16:9"]
    assert [line.split(": SS101")[0] for line in ours] == [
        "pkg/lexer.py:6:9", "pkg/lexer.py:7:9", "pkg/lexer.py:16:9"]
    assert "fakelib" not in err
    assert nothing_ran(project)


MIXED_IN = """\
from fakelib import Base


class Converting:  # mixed into a subclass of fakelib's Base, which reads `x`
    def convert(self):
        self.x = 1
        self.y = 2


class Spectrum(Converting, Base):
    pass


class Apart:  # shares no descendant with a subclass of Base
    def convert(self):
        self.x = 1
"""


def test_a_mixin_s_writes_read_by_the_library_base_of_a_class_it_is_mixed_into(project, env, capsys):
    """A mixin's methods run on objects of the classes it is mixed into: what their library bases read through
    `self`, they read of the mixin's writes too."""
    (project / "pkg" / "mixed.py").write_text(MIXED_IN)
    _, theirs, _ = run_cli(capsys, "--python", str(env), "pkg/mixed.py")
    _, ours, _ = run_cli(capsys, "pkg/mixed.py")
    assert [line.split(": SS101")[0] for line in theirs] == ["pkg/mixed.py:7:9", "pkg/mixed.py:16:9"]
    assert [line.split(": SS101")[0] for line in ours] == ["pkg/mixed.py:6:9", "pkg/mixed.py:7:9", "pkg/mixed.py:16:9"]
    assert nothing_ran(project)


def test_an_installed_copy_of_the_package_itself_is_not_read(project, env, capsys):
    installed = env / "lib" / "python3.11" / "site-packages" / "pkg"
    installed.mkdir()
    (installed / "__init__.py").write_text("")
    (installed / "sub.py").write_text("class Sub:\n    def run(self):\n        return self.y\n")  # an old version
    (project / "pkg" / "child.py").write_text(
        "from pkg.sub import Sub\n\n\nclass Child(Sub):\n    def reset(self):\n        self.y = 0\n")
    code, out, err = run_cli(capsys, "--python", str(env), "pkg/sub.py", "pkg/child.py")
    assert code == 1 and "pkg.sub" not in err
    assert [line.split(":")[:2] for line in out] == [["pkg/sub.py", str(Y_LINE)], ["pkg/child.py", "6"]]


def test_the_option_from_pyproject_and_a_bad_path_refused_like_any_option(project, env, capsys):
    (project / "pyproject.toml").write_text(f'[tool.stale-state]\npython = "{env.name}"\n')
    code, out, _ = run_cli(capsys, "pkg/sub.py")
    assert code == 1 and [line.split(":")[1] for line in out] == [str(Y_LINE)]
    code, out, err = run_cli(capsys, "--python", "nowhere", "pkg")
    assert (code, out) == (2, [])
    assert err == "stale-state: error: python: nowhere: no such file or folder\n"


def flake8(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key != "VIRTUAL_ENV"}
    return subprocess.run([sys.executable, "-m", "flake8", "--select", "SS", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_through_flake8(project, env, jobs):
    result = flake8(project, "-j", jobs, "--stale-state-python", str(env), "pkg")
    assert result.returncode == 1
    assert sorted(line.split(":")[:2] for line in result.stdout.splitlines()) == [
        ["pkg/proto.py", "11"], ["pkg/proto.py", "6"], ["pkg/sub.py", str(Y_LINE)]]
    assert result.stderr == (f"stale-state: base class notinstalled.protocol.Protocol not found in {env}; "
                             "attributes it reads count as unread\n")
    assert nothing_ran(project)


def test_flake8_refuses_a_bad_path_in_one_line(project):
    (project / "setup.cfg").write_text("[flake8]\nstale-state-python = ./nowhere\n")
    result = flake8(project, "pkg")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"stale-state: error: python: {project / 'nowhere'}: no such file or folder\n"


def test_a_warm_run_parses_no_library_module_again(project, env, tmp_path):
    exit_code, parsed, *_ = counting_parses(project, tmp_path / "cache", "--python", str(env), "pkg/sub.py")
    assert exit_code == "1" and int(parsed) >= 7  # the package (3 files), fakelib (2), otherlib, socketserver
    assert counting_parses(project, tmp_path / "cache", "--python", str(env), "pkg/sub.py")[:2] == ["1", "0"]


@pytest.mark.asyncio
async def test_the_language_server_logs_a_missing_base_once(project, env):
    from test_lsp import open_document, server_for

    (project / "pyproject.toml").write_text(f'[tool.stale-state]\npython = "{env.name}"\n')
    async with server_for(project) as (client, _):
        found = await open_document(client, (project / "pkg" / "sub.py").as_uri(), SUBCLASS)
        assert [(d.code, d.range.start.line + 1) for d in found] == [("SS101", Y_LINE)]
        found = await open_document(client, (project / "pkg" / "proto.py").as_uri(), MISSING)
        assert [d.range.start.line + 1 for d in found] == [6, 11]
        notes = [m.message for m in client.log_messages if "not found" in m.message]
    assert notes == [f"stale-state: base class notinstalled.protocol.Protocol not found in {env}; "
                     "attributes it reads count as unread"]
    assert nothing_ran(project)


@pytest.mark.asyncio
async def test_the_language_server_given_a_bad_path_serves_with_the_defaults(project):
    from test_lsp import open_document, server_for

    (project / "pyproject.toml").write_text('[tool.stale-state]\npython = "nowhere"\n')
    async with server_for(project) as (client, _):
        found = await open_document(client, (project / "pkg" / "sub.py").as_uri(), SUBCLASS)
    assert [d.range.start.line + 1 for d in found] == [X_LINE, Z_LINE, W_LINE, Y_LINE]  # no fakelib here


TWISTED_FACTORY = """\
from twisted.internet import protocol


class Echo(protocol.Protocol):
    pass


class EchoFactory(protocol.Factory):
    def __init__(self):
        self.protocol = Echo  # read by Factory.buildProtocol
        self.noisy = False  # read by Factory.doStart
        self.clients = []  # read by nothing
"""


@pytest.mark.e2e
def test_a_real_library_installed_in_a_virtual_environment(tmp_path, monkeypatch, capsys):
    from corpora import environment

    venv = environment("twisted", "26.10.0")
    (tmp_path / "echo").mkdir()
    (tmp_path / "echo" / "__init__.py").write_text("")
    (tmp_path / "echo" / "factory.py").write_text(TWISTED_FACTORY)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    _, without, err = run_cli(capsys, "echo")
    assert [line.split("'")[1] for line in without] == ["protocol", "noisy", "clients"]
    assert "base class twisted.internet.protocol.Factory not found" in err
    for python in (venv, venv / "bin" / "python"):
        code, found, err = run_cli(capsys, "--python", str(python), "echo")
        assert (code, err) == (1, "")
        assert [line.split("'")[1] for line in found] == ["clients"]


@pytest.mark.e2e  # pre-commit installs the hook's own environment, and twisted is downloaded
def test_pre_commit_pointed_at_the_project_environment_finds_what_a_run_there_finds(tmp_path, monkeypatch, capsys):
    from corpora import environment
    from test_editors import git, this_repository_as_committed

    venv = environment("twisted", "26.10.0")
    hooks = this_repository_as_committed(tmp_path / "hooks")
    revision = subprocess.run(["git", "rev-parse", "HEAD"], cwd=hooks, check=True, capture_output=True,
                              text=True).stdout.strip()
    project = tmp_path / "project"
    (project / "echo").mkdir(parents=True)
    (project / "echo" / "__init__.py").write_text("")
    (project / "echo" / "factory.py").write_text(TWISTED_FACTORY)
    monkeypatch.chdir(project)
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    _, in_that_environment, _ = run_cli(capsys, "--python", str(venv / "bin" / "python"), "echo")

    def hook_output(args: list[str]) -> str:
        (project / ".pre-commit-config.yaml").write_text(json.dumps({"repos": [{
            "repo": str(hooks), "rev": revision, "hooks": [{"id": "stale-state", "args": args}]}]}))
        git(project, "init", "-q")
        git(project, "add", ".")
        result = subprocess.run(
            [sys.executable, "-m", "pre_commit", "run", "--verbose"], cwd=project, capture_output=True,
            text=True, timeout=900, env={**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")})
        assert result.returncode == 1, result.stdout + result.stderr
        return result.stdout

    isolated = hook_output([])
    assert "base class twisted.internet.protocol.Factory not found" in isolated
    assert "'noisy'" in isolated
    pointed = hook_output(["--python", str(venv / "bin" / "python")])
    found = [line for line in pointed.splitlines() if " SS" in line]
    assert found == in_that_environment and "not found" not in pointed
    assert [line.split("'")[1] for line in found] == ["clients"]


def test_the_package_own_modules_by_top_level_name(tmp_path):
    from flake8_stale_state.engine import own_modules

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "scripts" / "tools").mkdir(parents=True)
    loose = [str(tmp_path / "scripts" / "helper.py"), str(tmp_path / "scripts" / "tools" / "run.py")]
    assert own_modules((tmp_path / "pkg",), [str(tmp_path / "pkg" / "__init__.py")]) == {"pkg"}
    assert own_modules((tmp_path / "scripts",), loose) == {"helper", "tools"}
    # a folder of tests named like a module of the standard library is no module, but a package of that name
    # or a module file would be found before the standard library's
    (tmp_path / "tests" / "logging").mkdir(parents=True)
    (tmp_path / "tests" / "json").mkdir(parents=True)
    (tmp_path / "tests" / "json" / "__init__.py").write_text("")
    tests = [str(tmp_path / "tests" / "logging" / "test_handlers.py"), str(tmp_path / "tests" / "json" / "__init__.py"),
             str(tmp_path / "tests" / "csv.py")]
    assert own_modules((tmp_path / "tests",), tests) == {"json", "csv"}


HANDLER = """\
import logging


class EventPoster(logging.Handler):
    def createLock(self):
        self.lock = None  # read by logging.Handler.acquire
        self.posted = 0  # expect: SS101
"""


def test_a_folder_of_tests_named_like_a_standard_module_hides_no_standard_base(tmp_path):
    (tmp_path / "ops").mkdir()
    (tmp_path / "ops" / "__init__.py").write_text("")
    (tmp_path / "ops" / "posting.py").write_text(HANDLER)
    (tmp_path / "tests" / "logging").mkdir(parents=True)
    (tmp_path / "tests" / "logging" / "test_posting.py").write_text("def test_it():\n    pass\n")
    settings = Settings(use_cache=False, roots=(tmp_path / "ops", tmp_path / "tests"))
    found = Analyzer(settings).check(tmp_path / "ops" / "posting.py")
    assert [(f.line, f.symbol) for f in found] == [(7, "posted")]


SETTER_BASE = """\
class WebCase:
    def set_persistent(self, on):
        self._persistent = on

    @property
    def persistent(self):
        return self._persistent

    @persistent.setter
    def persistent(self, on):
        self.set_persistent(on)

    def verbose(self):
        return False
"""
SETTER_SUBCLASS = """\
from fakeweb import WebCase


class Case(WebCase):
    def setup(self):
        self.persistent = True  # calls WebCase's setter
        self.quiet = True  # read by nothing: a method of the base named alike is no setter
"""


def test_a_library_bases_property_setter_takes_the_subclass_assignment(project, env, capsys):
    (env / "lib" / "python3.11" / "site-packages" / "fakeweb.py").write_text(SETTER_BASE.replace("verbose", "quiet"))
    (project / "pkg" / "case.py").write_text(SETTER_SUBCLASS)
    code, out, _ = run_cli(capsys, "--python", str(env / "bin" / "python"), "pkg/case.py")
    assert code == 1
    assert out == ["pkg/case.py:7:9: SS101 'quiet' is assigned but never read in package 'pkg'"]


def test_a_library_base_walking_the_public_names_reads_the_public_attributes_only(project, env, capsys):
    site = env / "lib" / "python3.11" / "site-packages" / "fakelib"
    (site / "export.py").write_text(
        "class Exported:\n    def export(self):\n"
        "        return {k: v for k, v in vars(self).items() if not k.startswith('_')}\n")
    (project / "pkg" / "shapes.py").write_text(
        "from fakelib.export import Exported\n\n\nclass Shape(Exported):\n    def __init__(self):\n"
        "        self.side = 1  # exported by the base\n        self._cache = None\n")
    _, theirs, _ = run_cli(capsys, "--python", str(env), "pkg/shapes.py")
    _, ours, _ = run_cli(capsys, "pkg/shapes.py")
    assert [line.split("'")[1] for line in theirs] == ["_cache"]
    assert [line.split("'")[1] for line in ours] == ["side", "_cache"]
    assert nothing_ran(project)


def test_a_library_base_reading_through_a_local_bound_to_its_receiver(project, env, capsys):
    """`c = self`, then `c.propagate` in a walk up a chain (logging.Logger.callHandlers): a read on the receiver,
    as well as on whatever the name is bound to later. A local bound to anything else reads nothing of `self`."""
    site = env / "lib" / "python3.11" / "site-packages" / "fakelib"
    (site / "chain.py").write_text(
        "class Node:\n    def handle(self, other):\n        c = self\n        while c:\n"
        "            if not c.propagate:\n                c = None\n            else:\n                c = c.parent\n"
        "        d = other\n        return d.quiet\n")
    (project / "pkg" / "nodes.py").write_text(
        "from fakelib.chain import Node\n\n\nclass Leaf(Node):\n    def __init__(self):\n"
        "        self.propagate = True  # read through `c = self`\n"
        "        self.quiet = True  # read on another object only\n")
    code, out, _ = run_cli(capsys, "--python", str(env), "pkg/nodes.py")
    assert code == 1
    assert out == ["pkg/nodes.py:7:9: SS101 'quiet' is assigned but never read in package 'pkg'"]
    assert nothing_ran(project)


TRAITED = """\
import fakelib.traits as traits
from fakelib.traits import Plain


class Widget:
    selections = traits.Dict().tag(sync=True)
    plan = traits.Any(allow_none=True)
    label = Plain()
    size = traits.Missing()

    def update(self, chosen):
        self.selections = chosen  # the library's Dict.__set__ takes it
        self.plan = None  # through Any's base's __set__
        self.label = ""  # Plain defines __get__ only: shadowed, unread
        self.size = 1  # no class of that name in the library
        self.other = 2
"""


def test_a_library_descriptor_bound_in_the_class_body_takes_the_writes(project, env, capsys):
    """`selections = traitlets.Dict().tag(sync=True)`: a write of `self.selections` calls the `__set__` of an
    installed library's class (its own, or a base's), first of a chain of method calls; a descriptor with
    `__get__` only is shadowed."""
    site = env / "lib" / "python3.11" / "site-packages"
    (site / "fakelib" / "traits.py").write_text(
        "class TraitType:\n    def __set__(self, obj, value):\n        obj._trait_values = value\n\n"
        "    def tag(self, **metadata):\n        return self\n\n\n"
        "class Dict(TraitType):\n    pass\n\n\nclass Any(TraitType):\n    pass\n\n\n"
        "class Plain:\n    def __get__(self, obj, owner):\n        return 1\n")
    (project / "pkg" / "widget.py").write_text(TRAITED)
    _, theirs, err = run_cli(capsys, "--python", str(env), "pkg/widget.py")
    _, ours, _ = run_cli(capsys, "pkg/widget.py")
    assert [line.split("'")[1] for line in theirs] == ["label", "size", "other"]
    assert [line.split("'")[1] for line in ours] == ["selections", "plan", "label", "size", "other"]
    assert "fakelib" not in err
    assert nothing_ran(project)


ESTIMATOR_BASE = """\
import inspect


class BaseEstimator:
    @classmethod
    def _get_param_names(cls):
        init = getattr(cls.__init__, "deprecated_original", cls.__init__)
        parameters = [p for p in inspect.signature(init).parameters.values() if p.name != "self"]
        return sorted([p.name for p in parameters])

    def get_params(self):
        return {key: getattr(self, key) for key in self._get_param_names()}


class Described:
    def describe(self):  # a signature's names, but not looked up on the object
        return [p.name for p in inspect.signature(self.__init__).parameters.values()]
"""
ESTIMATORS = """\
from fakelib.estimator import BaseEstimator, Described
from pkg.compat import ModelBase


class Model(BaseEstimator):
    def __init__(self, depth=3, rate=0.1):
        self.depth = depth  # get_params looks the constructor's parameters up by name
        self.rate = rate
        self.fitted = None  # no parameter of the constructor: unread


class Optional(ModelBase):
    def __init__(self, depth=3):
        self.depth = depth  # ModelBase is scikit-learn's where that is installed


class Shown(Described):
    def __init__(self, depth=3):
        self.depth = depth  # its base lists the names, and reads none of them
"""
OPTIONAL_IMPORT = """\
try:
    from fakelib.estimator import BaseEstimator as ModelBase
except ImportError:
    class ModelBase:
        \"\"\"Stands in when the library is missing.\"\"\"
"""


def test_a_library_base_looking_up_the_constructor_parameters_through_a_method_of_its_own(project, env, capsys):
    """scikit-learn's convention: an estimator stores each `__init__` parameter under its own name, and
    `BaseEstimator.get_params` looks up the names `_get_param_names` returns. The base may be named through a
    class standing in for an optional import."""
    (env / "lib" / "python3.11" / "site-packages" / "fakelib" / "estimator.py").write_text(ESTIMATOR_BASE)
    (project / "pkg" / "compat.py").write_text(OPTIONAL_IMPORT)
    (project / "pkg" / "models.py").write_text(ESTIMATORS)
    _, theirs, _ = run_cli(capsys, "--python", str(env), "pkg/models.py")
    _, ours, _ = run_cli(capsys, "pkg/models.py")
    assert [line.split(": SS101")[0] for line in theirs] == ["pkg/models.py:9:9", "pkg/models.py:19:9"]
    assert [line.split(": SS101")[0] for line in ours] == [
        "pkg/models.py:7:9", "pkg/models.py:8:9", "pkg/models.py:9:9", "pkg/models.py:14:9", "pkg/models.py:19:9"]
    assert nothing_ran(project)


def test_a_base_under_six_moves_is_the_module_six_names_it_for(project, env, capsys):
    site = env / "lib" / "python3.11" / "site-packages"
    (project / "pkg" / "server.py").write_text(
        "from six.moves import socketserver\n\n\nclass Server(socketserver.TCPServer):\n    def __init__(self):\n"
        "        self.fake_option = 1\n        self.other = 2\n")
    (site / "six.py").write_text(
        'class MovedModule:\n    pass\n\n\n_moved_attributes = [\n    MovedModule("socketserver", "SocketServer"),\n'
        '    MovedModule("http_client", "httplib", "http.client"),\n]\n')
    _, found, _ = run_cli(capsys, "--no-cache", "--python", str(env), "pkg/server.py")
    assert [line.split("'")[1] for line in found] == ["other"]  # the environment's TCPServer reads the other
    (site / "six.py").write_text("")  # a six that moves nothing: no module to read
    _, found, _ = run_cli(capsys, "--no-cache", "--python", str(env), "pkg/server.py")
    assert [line.split("'")[1] for line in found] == ["fake_option", "other"]
    assert nothing_ran(project)


def test_a_library_base_bound_to_another_name_at_its_module_s_top(project, env, capsys):
    """`Flag = _flag.Flag` in a library's `__init__.py` re-exports the class as an import would (absl's flags); a
    name bound to no class there leads nowhere."""
    site = env / "lib" / "python3.11" / "site-packages" / "fakeflags"
    site.mkdir()
    (site / "__init__.py").write_text(
        "from fakeflags import _flag\n\nFlag = _flag.Flag\nLocal = _Local\nDefault = 3\n\n\n"
        "class _Local:\n    def parse(self):\n        return self.present\n")
    (site / "_flag.py").write_text("class Flag:\n    def unparse(self):\n        return self.using_default_value\n")
    (project / "pkg" / "flags.py").write_text(
        "import fakeflags\n\n\nclass Exported(fakeflags.Flag):\n    def reset(self):\n"
        "        self.using_default_value = True\n        self.present = 0\n\n\n"
        "class Aliased(fakeflags.Local):\n    def reset(self):\n        self.using_default_value = True\n"
        "        self.present = 0\n\n\nclass Unbound(fakeflags.Default):\n    def reset(self):\n"
        "        self.using_default_value = True\n")
    _, found, _ = run_cli(capsys, "--no-cache", "--python", str(env), "pkg/flags.py")
    assert [line.split(":")[1] + " " + line.split("'")[1] for line in found] == [
        "7 present", "12 using_default_value", "18 using_default_value"]
    assert nothing_ran(project)
