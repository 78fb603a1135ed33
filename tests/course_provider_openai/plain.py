"""A check that a request body holds plain JSON values only, ready for ``json.dumps``."""

from __future__ import annotations

import json

__all__ = ["assert_plain_json"]


def assert_plain_json(value: object, path: str = "$") -> None:
    """Fail naming the first value that is not exactly dict, list, str, int, float, bool or None."""
    kind = type(value)
    if kind is dict:
        for key, item in value.items():  # type: ignore[attr-defined]
            assert type(key) is str, f"{path}: key {key!r} is not a str"
            assert_plain_json(item, f"{path}.{key}")
    elif kind is list:
        for position, item in enumerate(value):  # type: ignore[arg-type]
            assert_plain_json(item, f"{path}[{position}]")
    else:
        assert value is None or kind in (str, int, float, bool), f"{path} is a {kind.__name__}"
    if path == "$":
        json.dumps(value, allow_nan=False)
