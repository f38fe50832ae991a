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

from flake8_stale_state.settings import Settings, split_list

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: pyproject.toml is read only if tomli is installed
    try:
        import tomli as tomllib  # type: ignore[no-redef]
    except ModuleNotFoundError:
        tomllib = None  # type: ignore[assignment]

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
            parsed[option] = tuple(value.folder / name for name in _names(value))
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


def flake8_values(start: Path) -> dict[str, Value]:
    """`stale-state-*` options of the `[flake8]` section flake8 would use: the nearest file that has one."""
    for folder in (start, *start.parents):
        for name in FLAKE8_FILES:
            file = folder / name
            if not file.is_file():
                continue
            parser = configparser.RawConfigParser()
            try:
                parser.read(file, encoding="utf-8")
            except (configparser.Error, UnicodeDecodeError) as error:
                raise ConfigError(f"{file}: cannot be read: {type(error).__name__}") from None
            if parser.has_section("flake8"):
                return {
                    _option(key).removeprefix(FLAKE8_PREFIX): Value(raw, folder, f"{file}: [flake8] {key}")
                    for key, raw in parser.items("flake8")
                    if _option(key).startswith(FLAKE8_PREFIX)
                }
    return {}


def pyproject_values(start: Path) -> dict[str, Value]:
    """Options of `[tool.stale-state]` in the nearest pyproject.toml that has that table."""
    if tomllib is None:
        return {}
    for folder in (start, *start.parents):
        file = folder / "pyproject.toml"
        if not file.is_file():
            continue
        try:
            data = tomllib.loads(file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
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
