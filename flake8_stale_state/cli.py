"""The `stale-state` command: the same findings as the flake8 plugin, for CI, hooks and scripts."""

from __future__ import annotations

import argparse
import difflib
import io
import json
import sys
import tokenize
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from flake8_stale_state import __version__, baseline, config, sarif
from flake8_stale_state.checks import dead_attribute, fix_source
from flake8_stale_state.engine import UNANALYSED, Analyzer
from flake8_stale_state.environment import NotAnEnvironment
from flake8_stale_state.findings import Finding, selected, without_silenced
from flake8_stale_state.index import read_source
from flake8_stale_state.package import python_files
from flake8_stale_state.settings import split_list

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, like every other input error
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="stale-state", description="Find stale state in Python classes across a package.")
    parser.add_argument("paths", nargs="*", default=["."], help="files or folders to check (default: .)")
    parser.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    parser.add_argument("--select", default="", help="comma list of code prefixes to report (default: all)")
    parser.add_argument("--ignore", default="", help="comma list of code prefixes not to report")
    # options also read from configuration files: None means not given here
    parser.add_argument("--roots", help="comma list of folders forming one package")
    parser.add_argument("--ignore-names", help="comma list of attribute names (globs) never reported")
    parser.add_argument("--cache-dir", help="folder of the facts cache")
    parser.add_argument("--no-cache", action="store_true", default=None, help="do not read or write the facts cache")
    parser.add_argument("--framework-bases", help="comma list of base class or decorator names whose attribute "
                        "writes count as read")
    parser.add_argument("--python", metavar="PATH", help="interpreter or virtual environment whose installed "
                        "libraries the checked code uses (default: $VIRTUAL_ENV, else this interpreter's)")
    parser.add_argument("--baseline", metavar="FILE", help="report only findings not recorded in this baseline")
    parser.add_argument("--write-baseline", metavar="FILE", help="record the current findings as a baseline")
    fixing = parser.add_mutually_exclusive_group()
    fixing.add_argument("--diff", action="store_true", help="print the fixes as a unified diff; change no file")
    fixing.add_argument("--fix", action="store_true", help="apply the fixes in place, then report what remains")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


def files_to_check(paths: Sequence[str], listing: Callable[[Path], list[Path]] = python_files
                   ) -> Iterator[Path | str]:
    """Files under the given paths (folders listed by `listing`); a path that does not exist comes back as its
    name, to report."""
    for name in paths:
        path = Path(name)
        if path.is_dir():
            yield from listing(path)
        elif path.exists() or path.is_symlink():
            yield path
        else:
            yield name


def report(findings: list[Finding], output_format: str) -> str:
    if output_format == "sarif":
        return sarif.dumps(findings)
    if output_format == "json":
        rows = [
            {"path": f.path, "line": f.line, "column": f.col + 1, "code": f.code, "message": f.message,
             "symbol": f.symbol, "context": f.context}
            for f in findings
        ]
        return json.dumps(rows, indent=2) + "\n"
    return "".join(f.text() + "\n" for f in findings)


def run(args: argparse.Namespace) -> int:
    try:
        configuration = config.load({option: getattr(args, option.replace("-", "_")) for option in config.OPTIONS})
        # writing a baseline records every finding, so the configured one need not exist yet
        wanted = configuration.baseline and not args.write_baseline
        accepted = baseline.load(configuration.baseline) if wanted else None
    except (config.ConfigError, baseline.BaselineError) as error:
        raise UsageError(str(error)) from None
    settings = configuration.settings
    select, ignore = split_list(args.select.upper()), split_list(args.ignore.upper())
    for path in (*settings.roots,):
        if not path.is_dir():
            raise UsageError(f"roots: {path}: not a folder")
    try:
        analyzer = Analyzer(settings)
    except NotAnEnvironment as error:
        raise UsageError(str(error)) from None
    targets = list(files_to_check(args.paths, analyzer.python_files))
    analyzer.prepare(path for path in targets if isinstance(path, Path))
    fixes = apply_fixes(analyzer, targets, select, ignore, write=args.fix) if args.fix or args.diff else EXIT_CLEAN
    findings: list[Finding] = []
    failed = fixes == EXIT_ERROR
    for path in targets:
        if isinstance(path, str):
            print(f"stale-state: {path}: no such file or folder", file=sys.stderr)
            failed = True
            continue
        file_findings = analyzer.check(path)
        for problem in (f for f in file_findings if f.code == UNANALYSED):
            print(f"stale-state: {path}: {problem.message.removeprefix('stale-state ')}", file=sys.stderr)
            failed = True
        kept = [f for f in file_findings if f.code != UNANALYSED and selected(f.code, select, ignore)]
        if kept:
            findings.extend(without_silenced(kept, _lines(path)))
    for missing in analyzer.new_missing_bases() if selected(dead_attribute.CODE, select, ignore) else ():
        print(f"stale-state: {missing.message()}", file=sys.stderr)  # they concern what SS101 counts as read
    if args.diff:
        return EXIT_ERROR if failed else fixes
    if args.write_baseline:
        written = baseline.write(Path(args.write_baseline), findings)
        print(f"stale-state: baseline {args.write_baseline}: {_entries(written)} written", file=sys.stderr)
        return EXIT_ERROR if failed else EXIT_CLEAN
    if accepted is not None:
        findings = new_findings(accepted, targets, findings)
        stale = accepted.unmatched()
        if stale:
            print(f"stale-state: baseline {configuration.baseline}: {_entries(stale)} no longer "
                  f"match{'es' if stale == 1 else ''} anything; rewrite it with --write-baseline", file=sys.stderr)
    sys.stdout.write(report(findings, args.format))
    if failed:
        return EXIT_ERROR
    return EXIT_FINDINGS if findings else EXIT_CLEAN


def new_findings(accepted: baseline.Baseline, targets: list[Path | str], findings: list[Finding]) -> list[Finding]:
    """The findings `accepted` does not account for, each file's taken together so that counts match."""
    by_file: dict[str, list[Finding]] = {}
    for finding in findings:
        by_file.setdefault(finding.path, []).append(finding)
    for path in targets:
        if isinstance(path, Path):
            accepted.mark_checked(path)
    return [f for file_findings in by_file.values() for f in accepted.new_findings(file_findings)]


def apply_fixes(
    analyzer: Analyzer, targets: list[Path | str], select: list[str], ignore: list[str], write: bool
) -> int:
    """Print (`write` false) or write each file's fixed source; a file changed since it was read is left alone."""
    status = EXIT_CLEAN
    for path in targets:
        original = read_source(path) if isinstance(path, Path) else None
        decoded = _decoded(original) if original is not None else None
        if decoded is None:
            continue  # missing, unreadable or undecodable: the check pass reports it
        text, encoding = decoded

        def findings_of(source: str, path: Path = path) -> list[Finding]:
            found = [f for f in analyzer.check(path, source) if selected(f.code, select, ignore)]
            return without_silenced(found, source.splitlines())

        fixed = fix_source(text, findings_of)
        if fixed == text:
            continue
        if not write:
            sys.stdout.writelines(difflib.unified_diff(
                text.splitlines(keepends=True), fixed.splitlines(keepends=True), f"a/{path}", f"b/{path}"))
            status = max(status, EXIT_FINDINGS)
        elif read_source(path) != original:
            print(f"stale-state: {path}: changed on disk since it was analysed; not fixed", file=sys.stderr)
            status = EXIT_ERROR
        else:
            path.write_bytes(fixed.encode(encoding))
    return status


def _decoded(source: bytes) -> tuple[str, str] | None:
    """The text and its encoding, as Python reads the file (PEP 263)."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
        return source.decode(encoding), encoding
    except (SyntaxError, UnicodeDecodeError, LookupError):
        return None


def _entries(count: int) -> str:
    return f"{count} {'entry' if count == 1 else 'entries'}"


def _lines(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []


def serve_lsp(argv: Sequence[str]) -> int:
    try:
        from flake8_stale_state import lsp
    except ImportError as error:
        if (error.name or "").split(".")[0] not in ("pygls", "lsprotocol"):
            raise
        print("stale-state: error: the LSP server needs the 'lsp' extra: pip install 'flake8-stale-state[lsp]'",
              file=sys.stderr)
        return EXIT_ERROR
    return lsp.main(argv)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["lsp"]:  # a subcommand of its own, before the checker's options are parsed
        return serve_lsp(argv[1:])
    try:
        return run(build_parser().parse_args(argv))
    except UsageError as error:
        print(f"stale-state: error: {error}", file=sys.stderr)
        return EXIT_ERROR
