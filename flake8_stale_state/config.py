"""One configuration for both front ends: the same options under the same names.

flake8 reads `stale-state-NAME` in the `[flake8]` section of setup.cfg, tox.ini or .flake8; the `stale-state`
command reads those too, `NAME` in pyproject.toml's `[tool.stale-state]`, and `--NAME` on its command line,
which wins over pyproject.toml, which wins over the flake8 files. Paths in a file are relative to its folder.
"""

from __future__ import annotations

import configparser
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from flake8_stale_state.settings import Settings, split_list


FLAKE8_PREFIX = "stale-state-"
FLAKE8_FILES = ("setup.cfg", "tox.ini", ".flake8")  # flake8's order
# option -> kind of value
OPTIONS = {
    "roots": "paths",
    "ignore-names": "names",
    "cache-dir": "path",
    "no-cache": "bool",
    "framework-bases": "names",
    "baseline": "path",
    "python": "path",
}
TRUE, FALSE = {"1", "yes", "true", "on"}, {"0", "no", "false", "off"}  # configparser's, as flake8 reads them


class ConfigError(Exception):
    pass


def error_line(error: Exception) -> str:
    """The one line every front end shows for a configuration it refuses."""
    return f"stale-state: error: {error}"


@dataclass(frozen=True)
class Value:
    raw: object  # a string from an ini file or the command line; str, list or bool from TOML
    folder: Path  # relative paths are relative to it
    where: str  # names the option as the user wrote it, for errors


@dataclass(frozen=True)
class Configuration:
    settings: Settings
    baseline: Path | None = None


def _names(value: Value) -> list[str]:
    raw = value.raw
    if isinstance(raw, str):
        return split_list(raw)
    if isinstance(raw, list) and all(isinstance(item, str) for item in raw):
        return split_list(raw)
    raise ConfigError(f"{value.where}: expected a comma list of names, got {raw!r}")


def _path(value: Value) -> Path:
    if not isinstance(value.raw, str) or not value.raw.strip():
        raise ConfigError(f"{value.where}: expected a path, got {value.raw!r}")
    return value.folder / value.raw.strip()


def _bool(value: Value) -> bool:
    raw = value.raw
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and raw.strip().lower() in TRUE | FALSE:
        return raw.strip().lower() in TRUE
    raise ConfigError(f"{value.where}: expected true or false, got {raw!r}")


def _folders(value: Value) -> tuple[Path, ...]:
    names = _names(value)
    for name in names:
        if not (value.folder / name).is_dir():
            raise ConfigError(f"{value.where}: {name}: not a folder")
    return tuple(value.folder / name for name in names)


def configuration(values: Mapping[str, Value]) -> Configuration:
    """Settings from option name -> value, every option known and every value well-formed."""
    for option, value in values.items():
        if option not in OPTIONS:
            raise ConfigError(f"{value.where}: unknown option")
    parsed = {}
    for option, value in values.items():
        kind = OPTIONS[option]
        if kind == "names":
            parsed[option] = tuple(_names(value))
        elif kind == "paths":
            parsed[option] = _folders(value)
        elif kind == "path":
            parsed[option] = _path(value)
        else:
            parsed[option] = _bool(value)
    settings = Settings(
        roots=parsed.get("roots", ()),
        ignore_names=parsed.get("ignore-names", ()),
        cache_dir=parsed.get("cache-dir"),
        use_cache=not parsed.get("no-cache", False),
        framework_bases=parsed.get("framework-bases", ()),
        python=parsed.get("python"),
    )
    return Configuration(settings, parsed.get("baseline"))


def _option(name: str) -> str:
    return name.strip().lower().replace("_", "-")


def flake8_file_values(file: Path) -> dict[str, Value] | None:
    """`stale-state-*` options of a file's `[flake8]` section; None if it has none."""
    parser = configparser.RawConfigParser()
    try:
        parser.read(file, encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError) as error:
        raise ConfigError(f"{file}: cannot be read: {type(error).__name__}") from None
    if not parser.has_section("flake8"):
        return None
    return {
        _option(key).removeprefix(FLAKE8_PREFIX): Value(raw, file.parent, f"{file}: [flake8] {key}")
        for key, raw in parser.items("flake8")
        if _option(key).startswith(FLAKE8_PREFIX)
    }


def flake8_values(start: Path) -> dict[str, Value]:
    """`stale-state-*` options of the `[flake8]` section flake8 would use: the nearest file that has one."""
    for folder in (start, *start.parents):
        for name in FLAKE8_FILES:
            file = folder / name
            if file.is_file():
                values = flake8_file_values(file)
                if values is not None:
                    return values
    return {}


def toml_parser() -> ModuleType | None:
    """`tomllib`, or `tomli` on Python 3.10 (a dependency there); None without either: pyproject.toml is then
    skipped. Imported where a pyproject.toml names the tool, not by every run."""
    try:
        import tomllib
    except ModuleNotFoundError:
        try:
            import tomli as tomllib  # type: ignore[no-redef]
        except ModuleNotFoundError:
            return None
    return tomllib


def pyproject_values(start: Path) -> dict[str, Value]:
    """Options of `[tool.stale-state]` in the nearest pyproject.toml that has that table (a file that does not
    spell the tool's name has none, and is not parsed)."""
    for folder in (start, *start.parents):
        file = folder / "pyproject.toml"
        if not file.is_file():
            continue
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise ConfigError(f"{file}: cannot be read: {error}") from None
        if "stale-state" not in text:
            continue
        tomllib = toml_parser()
        if tomllib is None:
            return {}
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise ConfigError(f"{file}: cannot be read: {error}") from None
        table = data.get("tool", {}).get("stale-state")
        if table is None:
            continue
        if not isinstance(table, dict):
            raise ConfigError(f"{file}: [tool.stale-state] must be a table")
        return {_option(key): Value(raw, folder, f"{file}: [tool.stale-state] {key}") for key, raw in table.items()}
    return {}


def load(command_line: Mapping[str, object], start: Path | None = None) -> Configuration:
    """The configuration from files found from `start` (the current folder) upward, then the command line.

    `command_line` maps option names to the values given, None where not given; its paths are relative to
    the current folder.
    """
    start = (start or Path.cwd()).resolve()
    values = flake8_values(start)
    values.update(pyproject_values(start))
    here = Path()
    values.update(
        (option, Value(raw, here, f"--{option}")) for option, raw in command_line.items() if raw is not None
    )
    return configuration(values)
