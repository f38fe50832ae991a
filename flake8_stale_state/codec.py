"""Typed facts to JSON data and back, by their declared types: the cache stores data only, never pickles.

A type is a frozen dataclass or a NamedTuple whose fields are str, int, bool, None, tuples (`tuple[X, ...]` or fixed),
frozensets, dicts with str keys, unions of those (`X | None`) or other such dataclasses.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any, Union


NO_DEFAULT = object()


@functools.cache
def defaults(cls: type) -> tuple[tuple[str, Any], ...]:
    """Each field's name and default value (NO_DEFAULT where it has none)."""
    return tuple((field.name, field.default if field.default is not dataclasses.MISSING else
                  field.default_factory() if field.default_factory is not dataclasses.MISSING else NO_DEFAULT)
                 for field in dataclasses.fields(cls))


def encode(value: Any) -> Any:
    """JSON-compatible data of a typed value. A dataclass's fields at their defaults are left out: most files'
    facts are mostly defaults, and a warm run reads every file's."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: encode(getattr(value, name)) for name, default in defaults(type(value))
                if getattr(value, name) != default}
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a NamedTuple: its fields in order
        return [encode(item) for item in value]
    if isinstance(value, (tuple, list)):
        return [encode(item) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted(encode(item) for item in value)
    if isinstance(value, dict):
        return {key: encode(item) for key, item in value.items()}
    return value


@functools.cache
def field_types(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def decode(kind: Any, data: Any) -> Any:
    """The value of type `kind` that `encode` made `data` of."""
    if dataclasses.is_dataclass(kind):
        hints = field_types(kind)
        return kind(**{name: decode(hints[name], item) for name, item in data.items()})
    if isinstance(kind, type) and issubclass(kind, tuple) and hasattr(kind, "_fields"):
        hints = field_types(kind)
        return kind(*(decode(hints[name], item) for name, item in zip(kind._fields, data)))
    origin, arguments = typing.get_origin(kind), typing.get_args(kind)
    if origin in (Union, types.UnionType):
        if data is None:
            return None
        (inner,) = [argument for argument in arguments if argument is not type(None)]
        return decode(inner, data)
    if origin is tuple:
        if len(arguments) == 2 and arguments[1] is Ellipsis:
            return tuple(decode(arguments[0], item) for item in data)
        return tuple(decode(argument, item) for argument, item in zip(arguments, data))
    if origin is frozenset:
        return frozenset(decode(arguments[0], item) for item in data)
    if origin is dict:
        return {key: decode(arguments[1], item) for key, item in data.items()}
    return data
