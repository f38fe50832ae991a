"""The flake8 front end: options in, findings out, nothing else."""

from __future__ import annotations

import argparse
import ast
import atexit
import logging
import multiprocessing
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flake8_stale_state import __version__, config
from flake8_stale_state.checks import RULES, UNANALYSED, codes
from flake8_stale_state.environment import NotAnEnvironment, find_environment
from flake8_stale_state.settings import Settings

if TYPE_CHECKING:
    from flake8_stale_state.baseline import Baseline
    from flake8_stale_state.engine import Analyzer

# With no SS code selected, flake8 still loads the plugin and calls it on every file: the engine, the index,
# the cache and the baseline are imported only where some code is (`python -X importtime`).

LOG = logging.getLogger(__name__)
RUN_CACHE = "STALE_STATE_RUN_CACHE"  # the folder of `_run_cache`, for the workers of this run


def _config_file_values(options: argparse.Namespace) -> dict[str, config.Value]:
    """The `stale-state-*` keys of the config files flake8 read, as the user wrote them."""
    if getattr(options, "isolated", False):
        return {}
    explicit = getattr(options, "config", None)
    values = (config.flake8_file_values(Path(explicit)) or {}) if explicit else config.flake8_values(Path.cwd())
    for extra in getattr(options, "append_config", None) or []:
        values.update(config.flake8_file_values(Path(extra)) or {})
    return values


def configuration_from(options: argparse.Namespace) -> config.Configuration:
    """flake8's options, refused or accepted as `stale-state` refuses or accepts them, with the same message:
    every `stale-state-*` key in the config file must be known, and each value is checked by `config`, named
    where the user wrote it. Values are those flake8 parsed (paths with a slash made relative to the file)."""
    in_file = _config_file_values(options)
    values = {option: value for option, value in in_file.items() if option not in config.OPTIONS}
    for option in config.OPTIONS:
        raw = getattr(options, "stale_state_" + option.replace("-", "_"), None)
        if raw is not None:
            where = in_file[option].where if option in in_file else f"--{config.FLAKE8_PREFIX}{option}"
            values[option] = config.Value(raw, Path(), where)
        elif option in in_file:  # an option flake8 leaves to `config` (no-cache)
            values[option] = in_file[option]
    return config.configuration(values)


def selected_codes(options: argparse.Namespace) -> set[str]:
    """The SS codes flake8 reports, by its own decision (select, extend-select, ignore, extend-ignore)."""
    try:
        from flake8.style_guide import Decision, DecisionEngine

        decide = DecisionEngine(options).decision_for
        return {code for code in codes() if decide(code) is Decision.Selected}
    except Exception:  # a flake8 without that API: do the work rather than miss findings
        LOG.debug("stale-state: flake8's selection could not be read", exc_info=True)
        return set(codes())


def _workers_start_anew(options: argparse.Namespace) -> bool:
    """Whether flake8 will check in worker processes that do not inherit this one's memory."""
    jobs = getattr(options, "jobs", None)
    parallel = jobs is None or getattr(jobs, "is_auto", False) or getattr(jobs, "n_jobs", 1) > 1
    return parallel and multiprocessing.get_start_method() != "fork"


def _run_cache() -> Path:
    """A facts cache of this run alone, removed when it ends; the workers find it through the environment,
    set before any process is started (a fork server copies the environment when it starts)."""
    folder = Path(tempfile.mkdtemp(prefix="stale-state-run-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    os.environ[RUN_CACHE] = str(folder)
    return folder


def _in_started_worker() -> bool:
    """A worker flake8 started by spawn or forkserver, which parses the options again: the main process has
    made the facts already, and named what it had to name."""
    return multiprocessing.parent_process() is not None


def settings_for_run(settings: Settings, options: argparse.Namespace, selected: bool) -> Settings:
    """Where the cache is off and workers start anew, the facts go through a cache of the run alone: the main
    process makes it, its workers read it."""
    from flake8_stale_state.cache import disabled

    if _in_started_worker():
        shared = os.environ.get(RUN_CACHE)
        return replace(settings, run_cache_dir=Path(shared)) if shared else settings
    if selected and _workers_start_anew(options) and not (settings.use_cache and not disabled()):
        return replace(settings, run_cache_dir=_run_cache())
    return settings


def _files_named(filenames: Sequence[str], listing: Callable[[Path], list[Path]]) -> Iterator[Path]:
    """The Python files flake8 was pointed at (folders listed by `listing`), so their analysis is prepared
    before workers fork."""
    for name in filenames:
        path = Path(name)
        if path.is_file():
            yield path
        elif path.is_dir():
            yield from listing(path)


class StaleStatePlugin:
    name = "flake8-stale-state"
    version = __version__
    analyzer: Analyzer | None = None
    baseline: Baseline | None = None
    selected = True  # False when flake8 reports no SS code: `run` then does nothing
    names_missing_bases = True  # they concern what SS101 counts as read

    def __init__(self, tree: ast.AST, filename: str, lines: Sequence[str]) -> None:
        self.filename = filename
        self.lines = lines

    @classmethod
    def add_options(cls, manager: Any) -> None:
        manager.add_option(
            "--stale-state-roots", parse_from_config=True, comma_separated_list=True, normalize_paths=True,
            help="Folders whose files form one package for SS checks (default: found through __init__.py).",
        )
        manager.add_option(
            "--stale-state-ignore-names", parse_from_config=True, comma_separated_list=True,
            help="Attribute names (glob patterns) never reported.",
        )
        manager.add_option(
            "--stale-state-cache-dir", parse_from_config=True, normalize_paths=True,
            help="Folder of the facts cache (default: .stale_state_cache at the project root).",
        )
        manager.add_option(  # read from the config file by `config`: flake8 would end a bad value in a traceback
            "--stale-state-no-cache", action="store_true", default=None,
            help="Do not read or write the facts cache.",
        )
        manager.add_option(
            "--stale-state-framework-bases", parse_from_config=True, comma_separated_list=True,
            help="Base class or decorator names whose attribute writes count as read.",
        )
        manager.add_option(
            "--stale-state-python", parse_from_config=True, normalize_paths=True,
            help="Interpreter or virtual environment whose installed libraries the checked code uses "
                 "(default: $VIRTUAL_ENV, else flake8's own).",
        )
        manager.add_option(
            "--stale-state-baseline", parse_from_config=True, normalize_paths=True,
            help="Report only SS findings not recorded in this baseline file (see stale-state --write-baseline).",
        )

    @classmethod
    def parse_options(cls, options: argparse.Namespace) -> None:
        """Check the options as `stale-state` does: a refused one stops flake8 with the command's one line and
        exit 2. With no SS code selected nothing else is done, and `run` returns at once."""
        from flake8_stale_state.baseline import BaselineError, load

        chosen = selected_codes(options)
        cls.selected = bool(chosen)
        cls.names_missing_bases = any(rule.names_missing_bases and rule.code in chosen for rule in RULES) \
            and not _in_started_worker()
        try:
            configuration = configuration_from(options)
            cls.baseline = load(configuration.baseline) if configuration.baseline else None
            if cls.selected:
                from flake8_stale_state.engine import Analyzer

                cls.analyzer = Analyzer(settings_for_run(configuration.settings, options, cls.selected))
            else:  # the checks of the command, without building what no code needs
                find_environment(configuration.settings.python)
        except (config.ConfigError, BaselineError, NotAnEnvironment) as error:
            print(config.error_line(error), file=sys.stderr)
            raise SystemExit(2) from None
        if not cls.selected or _in_started_worker():
            return
        try:
            analyzer = cls.analyzer
            analyzer.prepare(_files_named(getattr(options, "filenames", None) or [], analyzer.python_files))
        except Exception as error:  # built again lazily, per file, where the failure is reported
            LOG.warning("stale-state: building the package index failed: %s: %s", type(error).__name__, error)
        cls.name_missing_bases()

    @classmethod
    def name_missing_bases(cls) -> None:
        """On stderr, once per run: under -j, those found before the workers fork are named by the main process."""
        for missing in cls.analyzer.new_missing_bases() if cls.analyzer and cls.names_missing_bases else ():
            print(f"stale-state: {missing.message()}", file=sys.stderr)

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        if not self.selected:
            return
        try:
            from flake8_stale_state.engine import Analyzer
            from flake8_stale_state.findings import without_silenced

            analyzer = self.analyzer or Analyzer(Settings())
            findings = analyzer.check(Path(self.filename), "".join(self.lines), self.filename)
            if self.baseline is not None:  # as the command does: `# noqa` first, then the baseline
                findings = self.baseline.new_findings(without_silenced(findings, self.lines))
            self.name_missing_bases()
        except Exception as error:  # an exception here would abort flake8's whole run
            yield 1, 0, f"{UNANALYSED} stale-state internal error: {type(error).__name__}: {error}", type(self)
            return
        for finding in findings:
            yield finding.line, finding.col, f"{finding.code} {finding.message}", type(self)
