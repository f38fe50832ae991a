"""The `stale-state` command: the same findings as the flake8 plugin, for CI, hooks and scripts."""

from __future__ import annotations

import argparse
import io
import sys
import tokenize
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from flake8_stale_state import __version__, baseline, config, formats
from flake8_stale_state.cache import default_cache_dir
from flake8_stale_state.checks import RULES, codes, fix_source
from flake8_stale_state.edits import fix_edits
from flake8_stale_state.engine import UNANALYSED, Analyzer
from flake8_stale_state.environment import NotAnEnvironment
from flake8_stale_state.findings import Finding, Problem, selected, without_silenced
from flake8_stale_state.index import read_source
from flake8_stale_state.package import python_files
from flake8_stale_state.settings import Settings, split_list

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


EPILOG = """\
commands:
  stale-state [options] [paths]  check the files and folders given (default: .)
  stale-state lsp                the language server, over stdio (needs the 'lsp' extra)

exit codes:
  0  no findings (--diff: nothing to fix; --write-baseline: written)
  1  findings (--diff: fixes printed; --fix: findings remain after the fixes)
  2  usage or input error: a bad option or configuration, a missing path, a file that could not be analysed
     (one line on stderr naming it, after the findings of every other file)
"""


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, like every other input error
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="stale-state", description="Find stale state in Python classes across a package.",
                    epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", default=["."], help="files or folders to check (default: .)")
    parser.add_argument("--format", choices=tuple(formats.FORMATS), default="text",
                        help="text (flake8's, the default), json, sarif, github (workflow annotations) or gitlab "
                        "(Code Quality)")
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
    parser.add_argument("--new-since", metavar="REF", help="report only findings not in the merge base of REF and "
                        "HEAD (git), keyed as a baseline keys them; the base is read from git, not checked out")
    fixing = parser.add_mutually_exclusive_group()
    fixing.add_argument("--diff", action="store_true", help="print the fixes as a unified diff; change no file")
    fixing.add_argument("--fix", action="store_true", help="apply the fixes in place, then report what remains")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


def codes_option(name: str, value: str) -> list[str]:
    """The code prefixes of `--select` or `--ignore`; one that matches no code is a usage error."""
    prefixes = split_list(value.upper())
    for prefix in prefixes:
        if not any(code.startswith(prefix) for code in codes()):
            raise UsageError(f"{name}: unknown code {prefix!r} (codes: {', '.join(codes())})")
    return prefixes


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


def run(args: argparse.Namespace) -> int:
    try:
        configuration = config.load({option: getattr(args, option.replace("-", "_")) for option in config.OPTIONS})
        if args.new_since and (args.baseline or args.write_baseline):
            raise UsageError("--new-since: not with --baseline or --write-baseline: it is the baseline")
        # writing a baseline records every finding, so the configured one need not exist yet
        wanted = configuration.baseline and not args.write_baseline and not args.new_since
        accepted = baseline.load(configuration.baseline) if wanted else None
    except (config.ConfigError, baseline.BaselineError) as error:
        raise UsageError(str(error)) from None
    settings = configuration.settings
    select, ignore = codes_option("--select", args.select), codes_option("--ignore", args.ignore)
    try:
        analyzer = Analyzer(settings)
    except NotAnEnvironment as error:
        raise UsageError(str(error)) from None
    targets = list(files_to_check(args.paths, analyzer.python_files))
    analyzer.prepare((path for path in targets if isinstance(path, Path)), recall=not (args.fix or args.diff))
    fixes = apply_fixes(analyzer, targets, select, ignore, write=args.fix) if args.fix or args.diff else EXIT_CLEAN
    findings: list[Finding] = []
    problems: list[Problem] = []
    failed = fixes == EXIT_ERROR
    for path in targets:
        if isinstance(path, str):
            problems.append(Problem(path, "no such file or folder"))
            print(f"stale-state: {path}: no such file or folder", file=sys.stderr)
            continue
        file_findings = analyzer.check(path)
        for finding in (f for f in file_findings if f.code == UNANALYSED):
            problems.append(Problem(str(path), finding.message.removeprefix("stale-state ")))
            print(f"stale-state: {path}: {problems[-1].message}", file=sys.stderr)
        kept = [f for f in file_findings if f.code != UNANALYSED and selected(f.code, select, ignore)]
        if kept:
            findings.extend(_unsilenced(kept, path))
    failed = failed or bool(problems)
    if any(rule.names_missing_bases and selected(rule.code, select, ignore) for rule in RULES):
        for missing in analyzer.new_missing_bases():
            print(f"stale-state: {missing.message()}", file=sys.stderr)
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
    if args.new_since:
        findings = new_since(args.new_since, settings, targets, findings, select, ignore)
    fixes = {finding: fix_edits(text, finding) for finding, text in _fixable_sources(findings)} \
        if args.format == "sarif" else {}
    sys.stdout.write(formats.report(findings, problems, args.format, fixes))
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


def new_since(ref: str, settings: Settings, targets: list[Path | str], findings: list[Finding], select: list[str],
              ignore: list[str]) -> list[Finding]:
    """The findings the merge base of `ref` and HEAD does not have: the same paths analysed there, from git's
    objects, through the same facts cache, and keyed as a baseline keys findings."""
    import tempfile

    from flake8_stale_state import gitbase  # with git's subprocesses: for this option alone

    try:
        root = gitbase.repository_root(Path.cwd())
        commit = gitbase.merge_base(root, ref)
    except gitbase.GitError as error:
        raise UsageError(f"--new-since {ref}: {error}") from None
    with tempfile.TemporaryDirectory(prefix="stale-state-base-") as folder:
        base_root = Path(folder).resolve()

        def on_base(path: Path) -> Path:
            try:
                return base_root / path.resolve().relative_to(root)
            except ValueError:
                raise UsageError(f"--new-since: {path} is outside the repository {root}") from None

        gitbase.write_tree(root, commit, base_root)
        base = Analyzer(replace(settings, roots=tuple(on_base(r) for r in settings.roots),
                                cache_dir=settings.cache_dir or default_cache_dir(root), package_entries=False))
        mapped = [str(on_base(path)) for path in targets if isinstance(path, Path)]
        base_files = [path for path in files_to_check(mapped, base.python_files) if isinstance(path, Path)]
        base.prepare(base_files)
        accepted = baseline.Baseline(root)
        for path in base_files:
            found = [f for f in base.check(path) if f.code != UNANALYSED and selected(f.code, select, ignore)]
            for finding in _unsilenced(found, path):
                at_head = replace(finding, path=str(root / Path(finding.path).relative_to(base_root)))
                accepted.counts[accepted.key(at_head)] += 1
    return new_findings(accepted, targets, findings)


def apply_fixes(
    analyzer: Analyzer, targets: list[Path | str], select: list[str], ignore: list[str], write: bool
) -> int:
    """Print (`write` false) or write each file's fixed source; a file changed since it was read is left alone.
    Writing ends with a summary on stderr."""
    status = EXIT_CLEAN
    fixed_files = fixed_findings = 0
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
            import difflib

            sys.stdout.writelines(difflib.unified_diff(
                text.splitlines(keepends=True), fixed.splitlines(keepends=True), f"a/{path}", f"b/{path}"))
            status = max(status, EXIT_FINDINGS)
        elif read_source(path) != original:
            print(f"stale-state: {path}: changed on disk since it was analysed; not fixed", file=sys.stderr)
            status = EXIT_ERROR
        else:
            path.write_bytes(fixed.encode(encoding))
            analyzer.update(path)  # the disk's new content, for the check after the fixes
            fixed_files += 1
            fixed_findings += _fixable(findings_of(text)) - _fixable(findings_of(fixed))
    if write:
        print(f"stale-state: fixed {_count(fixed_findings, 'finding')} in {_count(fixed_files, 'file')}",
              file=sys.stderr)
    return status


def _fixable(findings: list[Finding]) -> int:
    return sum(1 for finding in findings if finding.fix)


def _fixable_sources(findings: list[Finding]) -> Iterator[tuple[Finding, str]]:
    """Each finding its rule can fix, with the text of its file."""
    texts: dict[str, str | None] = {}
    for finding in findings:
        if finding.fix:
            if finding.path not in texts:
                source = read_source(Path(finding.path))
                decoded = _decoded(source) if source is not None else None
                texts[finding.path] = decoded[0] if decoded else None
            if texts[finding.path] is not None:
                yield finding, texts[finding.path]


def _decoded(source: bytes) -> tuple[str, str] | None:
    """The text and its encoding, as Python reads the file (PEP 263)."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
        return source.decode(encoding), encoding
    except (SyntaxError, UnicodeDecodeError, LookupError):
        return None


def _count(count: int, noun: str) -> str:
    return f"{count} {noun if count == 1 else noun + 's'}"


def _entries(count: int) -> str:
    return f"{count} {'entry' if count == 1 else 'entries'}"


def _unsilenced(findings: list[Finding], path: Path) -> list[Finding]:
    """`without_silenced`, the file's lines read only where it spells `noqa` at all (in any case), as every
    comment silencing a finding does: most files with findings hold none."""
    source = read_source(path)
    if source is None or b"noqa" not in source.lower():
        return findings
    return without_silenced(findings, source.decode("utf-8", "replace").splitlines())


def serve_lsp(argv: Sequence[str]) -> int:
    try:
        from flake8_stale_state import lsp
    except ImportError as error:
        if (error.name or "").split(".")[0] not in ("pygls", "lsprotocol"):
            raise
        if isinstance(error, ModuleNotFoundError):
            problem = "the LSP server needs the 'lsp' extra: pip install 'flake8-stale-state[lsp]'"
        else:  # installed, but a version without what the server uses
            problem = (f"the LSP server needs pygls>=2.1,<3, not pygls {_installed('pygls')}: "
                       "pip install 'pygls>=2.1,<3'")
        print(f"stale-state: error: {problem}", file=sys.stderr)
        return EXIT_ERROR
    return lsp.main(argv)


def _installed(distribution: str) -> str:
    import importlib.metadata  # only for this message: importing it costs a tenth of a warm run

    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "(version unknown)"


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["lsp"]:  # a subcommand of its own, before the checker's options are parsed
        return serve_lsp(argv[1:])
    try:
        return run(build_parser().parse_args(argv))
    except UsageError as error:
        print(config.error_line(error), file=sys.stderr)
        return EXIT_ERROR
