"""The flake8 front end: options in, findings out, nothing else."""

from __future__ import annotations

import argparse
import ast
import logging
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from flake8_stale_state import __version__
from flake8_stale_state.baseline import Baseline, BaselineError, load
from flake8_stale_state.checks import dead_attribute
from flake8_stale_state.engine import UNANALYSED, Analyzer
from flake8_stale_state.environment import NotAnEnvironment
from flake8_stale_state.findings import without_silenced
from flake8_stale_state.settings import Settings, split_list

LOG = logging.getLogger(__name__)


def settings_from(options: argparse.Namespace) -> Settings:
    cache_dir = getattr(options, "stale_state_cache_dir", None)
    return Settings(
        roots=tuple(Path(p) for p in split_list(getattr(options, "stale_state_roots", None))),
        ignore_names=tuple(split_list(getattr(options, "stale_state_ignore_names", None))),
        cache_dir=Path(cache_dir) if cache_dir else None,
        use_cache=not getattr(options, "stale_state_no_cache", False),
        framework_bases=tuple(split_list(getattr(options, "stale_state_framework_bases", None))),
        python=Path(python) if (python := getattr(options, "stale_state_python", None)) else None,
    )


def baseline_from(options: argparse.Namespace) -> Baseline | None:
    """The baseline option's file; one that cannot be used is warned about once and everything reported."""
    path = getattr(options, "stale_state_baseline", None)
    if not path:
        return None
    try:
        return load(Path(path))
    except BaselineError as error:
        LOG.warning("stale-state: %s; reporting every finding", error)
        return None


def _wants_stale_state(options: argparse.Namespace, code: str = "SS") -> bool:
    select = [*(getattr(options, "select", None) or []), *(getattr(options, "extend_select", None) or [])]
    return not getattr(options, "select", None) or any(p.startswith(code) or code.startswith(p) for p in select)


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
        manager.add_option(
            "--stale-state-no-cache", parse_from_config=True, action="store_true",
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
        try:
            cls.analyzer = Analyzer(settings_from(options))
        except NotAnEnvironment as error:  # as flake8 refuses a bad option of its own
            print(f"stale-state: error: {error}", file=sys.stderr)
            raise SystemExit(2) from None
        cls.baseline = baseline_from(options)
        cls.names_missing_bases = _wants_stale_state(options, dead_attribute.CODE)
        if not _wants_stale_state(options):
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
        try:
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
