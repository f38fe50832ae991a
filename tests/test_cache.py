"""The cache is never trusted: whatever state it is in, findings come out right, with at most a warning."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import FIXTURES, counting_parses
from flake8_stale_state.cache import FactsCache
from flake8_stale_state.facts import FileFacts
from flake8_stale_state import cache as cache_module
from flake8_stale_state import engine as engine_module
from flake8_stale_state import index as index_module
from flake8_stale_state import cli
from flake8_stale_state.engine import Analyzer
from flake8_stale_state.settings import Settings

EXPECTED = [
    "pipe/module.py:13:13: SS101 'interval_was_zero' is assigned but never read in package 'pipe'",
    "pipe/module.py:19:9: SS101 'checkpoint_interval' is assigned but never read in package 'pipe'; "
    "did you mean 'activation_checkpoint_interval'?",
]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(FIXTURES / "ss101" / "pipeline" / "pipe", tmp_path / "pipe")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("STALE_STATE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path


def findings(capsys: pytest.CaptureFixture) -> list[str]:
    cli.main(["pipe"])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return out.splitlines()


def entries(project: Path) -> list[Path]:
    return sorted((project / "cache").rglob("*.json"))


def poison(project: Path) -> None:
    """Entries claiming no writes: trusted, they would hide every finding."""
    for entry in entries(project):
        entry.write_text(json.dumps({"key": entry.stem, "facts": FileFacts(path="").to_data()}))


def test_warm_cache_gives_the_same_findings(project, capsys):
    assert findings(capsys) == EXPECTED
    assert entries(project)
    assert findings(capsys) == EXPECTED


@pytest.mark.parametrize("damage", ["truncated", "garbage", "empty", "binary", "wrong shape"])
def test_damaged_entries_are_rebuilt(project, capsys, damage):
    findings(capsys)
    for entry in entries(project):
        text = entry.read_bytes()
        entry.write_bytes({
            "truncated": text[: len(text) // 2], "garbage": b"not json {", "empty": b"",
            "binary": os.urandom(64), "wrong shape": b'{"key": 1, "facts": [1, 2]}',
        }[damage])
    assert findings(capsys) == EXPECTED


def test_entry_under_another_key_is_ignored(project, capsys):
    findings(capsys)
    for entry in entries(project):
        text = entry.read_text()
        entry.write_text(text.replace(entry.stem, "0" * 64))
    assert findings(capsys) == EXPECTED


def test_cache_of_another_version_is_not_used(project, capsys, monkeypatch):
    monkeypatch.setattr(cache_module, "__version__", "0.0.0-other")
    findings(capsys)
    poison(project)  # the other version's entries now say nothing is written
    monkeypatch.undo()
    monkeypatch.chdir(project)
    monkeypatch.setenv("STALE_STATE_CACHE_DIR", str(project / "cache"))
    assert findings(capsys) == EXPECTED


def test_poisoned_entries_of_this_version_are_what_trust_would_cost(project, capsys):
    # the counterpart of the test above: entries under this version's keys are used
    findings(capsys)
    poison(project)
    assert findings(capsys) == []


@pytest.mark.parametrize("blocker", ["a file where the folder should be", "writes refused"])
def test_unwritable_cache_folder(project, capsys, monkeypatch, blocker):
    if blocker == "writes refused":  # chmod does not stop root, so refuse the write itself
        def refuse(*args, **kwargs):
            raise PermissionError("read-only file system")
        monkeypatch.setattr("tempfile.mkstemp", refuse)  # the cache imports it where it writes
    else:
        (project / "cache").write_text("")
    assert findings(capsys) == EXPECTED
    assert findings(capsys) == EXPECTED


def test_cache_is_data_only(project, capsys):
    """An entry holding a pickle that would run code is just an unreadable entry."""
    findings(capsys)
    marker = project / "pwned"

    class Payload:
        def __reduce__(self):
            return (Path.touch, (marker,))

    for entry in entries(project):
        entry.write_bytes(pickle.dumps(Payload()))
    assert findings(capsys) == EXPECTED
    assert not marker.exists()
    source = Path(cache_module.__file__).read_text()
    assert "pickle" not in source and "eval(" not in source and "marshal" not in source


def test_leftover_temporary_files_do_not_matter(project, capsys):
    findings(capsys)
    for entry in entries(project):
        (entry.parent / "half-written.tmp").write_text('{"key": ')
    assert findings(capsys) == EXPECTED


def flake8(project: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "flake8", "--select", "SS", *args, "pipe"], cwd=project,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "STALE_STATE_CACHE_DIR": str(project / "cache")})


def test_two_parallel_flake8_runs_at_once(project):
    for extra in range(40):  # enough files for flake8's workers and the parallel index
        (project / "pipe" / f"extra{extra}.py").write_text(f"class E{extra}:\n    def f(self):\n        self.used = 1\n"
                                                           f"        return self.used\n")
    runs = [flake8(project, "-j", "2") for _ in range(2)]
    for run in runs:
        out, err = run.communicate(timeout=300)
        assert "Traceback" not in err, err
        assert out.splitlines() == EXPECTED
    out, err = flake8(project, "-j", "2").communicate(timeout=300)
    assert out.splitlines() == EXPECTED


def test_run_interrupted_midway(project):
    for extra in range(80):
        (project / "pipe" / f"extra{extra}.py").write_text("class E:\n    def f(self):\n        self.x = self.x\n" * 20)
    process = subprocess.Popen([sys.executable, "-m", "flake8_stale_state", "pipe"], cwd=project,
                               env={**os.environ, "STALE_STATE_CACHE_DIR": str(project / "cache")},
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 60
    while not entries(project) and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.01)
    os.killpg(process.pid, signal.SIGKILL)  # the run and any workers it started
    process.communicate()
    result = subprocess.run([sys.executable, "-m", "flake8_stale_state", "pipe"], cwd=project, capture_output=True,
                            text=True, env={**os.environ, "STALE_STATE_CACHE_DIR": str(project / "cache")})
    assert result.stderr == ""
    assert result.stdout.splitlines() == EXPECTED


def test_a_warm_run_parses_nothing_and_never_loads_libcst(tmp_path):
    """Neither the package's files nor the standard-library modules its classes derive from are parsed again,
    and the summariser, which only parsing needs, is not even imported. No run loads libcst, which only a file
    Python rejects and a fix need."""
    shutil.copytree(FIXTURES / "ss101" / "stdlib_base" / "pkg", tmp_path / "pkg")
    shutil.copy(FIXTURES / "ss102" / "interval_cache" / "pkg" / "module.py", tmp_path / "pkg" / "cache_module.py")
    exit_code, parsed, libcst_loaded, summariser_loaded = counting_parses(tmp_path, tmp_path / "cache", "pkg")
    # cold: the package and random.py, SS102's collector included
    assert exit_code == "1" and int(parsed) > 2 and (libcst_loaded, summariser_loaded) == ("False", "True")
    assert counting_parses(tmp_path, tmp_path / "cache", "pkg") == ["1", "0", "False", "False"]
    (tmp_path / "pkg" / "cache_module.py").write_text("class Changed:\n    pass\n")
    assert counting_parses(tmp_path, tmp_path / "cache", "pkg")[1:] == ["1", "False", "True"]  # that file alone


def test_a_package_only_ss101_reports_on_loads_no_parser_but_pythons(tmp_path):
    """SS101's findings are the pre-pass's facts, from Python's tree alone."""
    shutil.copytree(FIXTURES / "ss101" / "stdlib_base" / "pkg", tmp_path / "pkg")
    exit_code, parsed, libcst_loaded, _ = counting_parses(tmp_path, tmp_path / "cache", "pkg")
    assert (exit_code, libcst_loaded) == ("1", "False") and int(parsed) > 2


def test_workers_make_facts_of_the_file_as_it_is_now_and_keep_them_in_the_cache(tmp_path):
    from flake8_stale_state.cache import FactsCache, entry_key, source_digest
    from flake8_stale_state.index import SUMMARY, read_and_make

    cache = FactsCache(tmp_path / "cache")
    module = tmp_path / "m.py"
    module.write_text("class A:\n    def f(self):\n        self.x = 1\n")
    made = read_and_make(SUMMARY, str(module), "m.py", cache)
    assert made.digest == source_digest(module.read_bytes())
    assert cache.load("m.py", entry_key(made.digest, SUMMARY.key), {}).writes == made.writes
    # deleted between discovery and its turn: no facts, and no entry for the content last seen
    module.unlink()
    assert read_and_make(SUMMARY, str(module), "m.py", cache) is None


def test_facts_come_in_the_order_asked_whether_made_in_parallel_or_read_from_the_cache(tmp_path):
    from flake8_stale_state.cache import FactsCache
    from flake8_stale_state.index import PARALLEL_THRESHOLD, SUMMARY, gather_facts

    paths = []
    for number in range(PARALLEL_THRESHOLD + 4):  # enough for worker processes; sizes in no particular order
        path = tmp_path / f"m{number:02}.py"
        path.write_text(f"class A{number}:\n    def f(self):\n" + "        self.x = 1\n" * (number * 7 % 11 + 1))
        paths.append(path)
    cache = FactsCache(tmp_path / "cache")
    cold = gather_facts(dict.fromkeys(paths, SUMMARY), cache)
    warm = gather_facts(dict.fromkeys(paths, SUMMARY), cache)
    assert list(cold) == list(warm) == [str(path.resolve()) for path in paths]
    assert [facts.writes for facts in cold.values()] == [facts.writes for facts in warm.values()]
    assert len(cold[str(paths[5].resolve())].writes) == 5 * 7 % 11 + 1


@pytest.fixture
def settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files written by the test count as settled at once (not as "racy", changed within the timestamps'
    granularity), so that their status is recorded and trusted."""
    monkeypatch.setattr(index_module, "RACY_NANOSECONDS", 0)


def counting_cache_reads(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    counts = {"package entries": 0, "file entries": 0, "sources": 0}

    def counted(what: str, function):
        def wrapper(*args, **kwargs):
            counts[what] += 1
            return function(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(FactsCache, "load_package", counted("package entries", FactsCache.load_package))
    monkeypatch.setattr(FactsCache, "load", counted("file entries", FactsCache.load))
    for module in (index_module, engine_module):  # the index's reads, and the checks' of the files given
        monkeypatch.setattr(module, "read_source", counted("sources", module.read_source))
    return counts


def test_a_warm_run_reads_one_package_entry_and_no_file(project, capsys, monkeypatch, settled):
    for extra in range(20):
        (project / "pipe" / f"extra{extra}.py").write_text(f"class E{extra}:\n    def f(self):\n        self.x = 1\n"
                                                           "        return self.x\n")
    assert findings(capsys) == EXPECTED
    counts = counting_cache_reads(monkeypatch)
    assert findings(capsys) == EXPECTED
    # nothing changed: the package's findings are remembered whole, and no index is built
    assert counts == {"package entries": 0, "file entries": 0, "sources": 0}
    extra = project / "pipe" / "extra3.py"
    extra.write_text(extra.read_text() + "\n\nclass Added:\n    pass\n")
    assert findings(capsys) == EXPECTED
    # one file changed: the package's entry and that of its bases from outside it, and that file alone, read
    # (for its content's key, its facts looked up by it, then again to make them)
    assert counts == {"package entries": 2, "file entries": 1, "sources": 2}
    counts.update(dict.fromkeys(counts, 0))
    assert findings(capsys) == EXPECTED
    assert counts == {"package entries": 0, "file entries": 0, "sources": 0}  # remembered again


def test_remembered_findings_follow_a_change_to_any_file_of_the_package(project, capsys, settled):
    """A package's findings are remembered with the statuses of all its files: a change in a file that holds
    no finding makes another file's finding go."""
    assert findings(capsys) == EXPECTED
    assert findings(capsys) == EXPECTED
    (project / "pipe" / "reader.py").write_text("def show(module):\n    return module.interval_was_zero\n")
    assert findings(capsys) == EXPECTED[1:]
    assert findings(capsys) == EXPECTED[1:]
    (project / "pipe" / "reader.py").unlink()
    assert findings(capsys) == EXPECTED


def test_a_file_changed_after_the_index_was_built_is_read_again_once_the_analyzer_is_told(project, capsys):
    """The command checks a file on disk against the facts its index took of it moments before, reading it no
    more; a change the command makes itself (`--fix`) is passed on through `update`, as an editor's save is."""
    assert findings(capsys) == EXPECTED
    analyzer = Analyzer(Settings())
    module = project / "pipe" / "module.py"
    assert [f.line for f in analyzer.check(module) if f.code == "SS101"] == [13, 19]
    old = "self.interval_was_zero = False  # expect: SS101"
    module.write_text(module.read_text().replace(old, "print(self.interval_was_zero)"))
    assert [f.line for f in analyzer.check(module) if f.code == "SS101"] == [13, 19]  # the index's snapshot
    assert analyzer.update(module)
    assert [f.line for f in analyzer.check(module) if f.code == "SS101"] == [19]


def test_a_file_changed_since_gets_fresh_facts_even_with_its_size_and_mtime_kept(project, capsys, settled):
    assert findings(capsys) == EXPECTED
    module = project / "pipe" / "module.py"
    before = module.stat()
    old = "self.interval_was_zero = False  # expect: SS101"
    text = module.read_text()
    module.write_text(text.replace(old, "print(self.interval_was_zero)".ljust(len(old))))
    os.utime(module, ns=(before.st_atime_ns, before.st_mtime_ns))  # as `cp -p` or an archive would leave it
    assert module.stat().st_size == before.st_size and module.stat().st_mtime_ns == before.st_mtime_ns
    assert findings(capsys) == EXPECTED[1:]
    module.write_text(text)
    assert findings(capsys) == EXPECTED


def test_a_file_just_written_is_read_again_next_run(project, capsys, monkeypatch):
    """Within the timestamps' granularity a second change can keep size and times: such a file's status is not
    recorded, so the next run reads it and compares its content."""
    assert findings(capsys) == EXPECTED
    counts = counting_cache_reads(monkeypatch)
    assert findings(capsys) == EXPECTED
    assert counts["sources"] == len(list((project / "pipe").glob("*.py")))


def package_entries(project: Path) -> list[Path]:
    """The package entries: a head naming the entry's key, then a line per file, its path and its record."""
    return sorted((project / "cache").rglob("*.jsonl"))


def package_records(entry: Path) -> tuple[dict, dict[str, list]]:
    head, *lines = entry.read_text().splitlines()
    records = {}
    for line in lines:
        path, record = line.split("\t")
        records[json.loads(path)] = json.loads(record)
    return json.loads(head), records


DAMAGES = {
    "garbage": lambda text, head, records: "not json {",
    "truncated": lambda text, head, records: text[: len(text) // 2],
    "another entry's head": lambda text, head, records: text.replace(head["key"], "0" * 64, 1),
    "a line without its path": lambda text, head, records: text.replace("\t", " "),
    "records of another shape": lambda text, head, records: "\n".join(
        [json.dumps(head), *(f"{json.dumps(path)}\t[1,2]" for path in records)]),
    "facts of another shape": lambda text, head, records: "\n".join(
        [json.dumps(head), *(f"{json.dumps(path)}\t{json.dumps([status, digest, {'writes': 1}])}"
                             for path, (status, digest, _) in records.items())]),
}


def forget_findings(project: Path) -> None:
    """Drop the findings remembered whole, which would answer an unchanged tree without the package entry."""
    for entry in entries(project):
        if '"findings":' in entry.read_text():
            entry.unlink()


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_package_entry_is_rebuilt(project, capsys, settled, damage):
    assert findings(capsys) == EXPECTED
    entries = package_entries(project)
    assert entries  # the package's (its classes derive from none outside it)
    for entry in entries:
        entry.write_text(DAMAGES[damage](entry.read_text(), *package_records(entry)))
    forget_findings(project)
    assert findings(capsys) == EXPECTED
    for entry in entries:  # written anew
        head, records = package_records(entry)
        assert head == {"key": entry.stem}
        assert records and all(isinstance(facts["writes"], list) for _, _, facts in records.values())
    assert findings(capsys) == EXPECTED


def test_facts_made_and_facts_read_back_are_equal():
    """An editor's change compares the file's facts made now with those the index read from the cache, to keep
    what the change leaves true (`PackageIndex.with_file`): the same facts compare equal whichever way they came,
    each class's lists tuples, its names interned."""
    from flake8_stale_state.summary import summarize

    compared = 0
    for path in sorted(FIXTURES.rglob("*.py")):
        made = summarize(str(path), path.read_bytes())
        if made.error is not None:
            continue
        read = FileFacts.from_data(made.path, json.loads(json.dumps(made.to_data())), index_module.SUMMARY.facts_types)
        assert read == made, path
        for fresh, decoded in zip(made.classes.values(), read.classes.values()):
            assert all(type(field) is not list for field in (*fresh, *decoded)), path
        compared += bool(made.classes)
    assert compared > 100
