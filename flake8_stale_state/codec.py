"""Typed facts to JSON data and back, by their declared types: the cache stores data only, never pickles.

A type is a frozen dataclass whose fields are str, int, bool, None, tuples (`tuple[X, ...]` or fixed),
frozensets, dicts with str keys, unions of those (`X | None`) or other such dataclasses.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any, Union


def encode(value: Any) -> Any:
    """JSON-compatible data of a typed value."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: encode(getattr(value, field.name)) for field in dataclasses.fields(value)}
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
