"""Paths into a JSON request body, written as mismatches print them: ``messages[2].content[0].id``.

A cassette names the parts of a body it masks (redaction) or leaves out of
request matching with these paths, so the path a mismatch reports can be
pasted as it is into the list of ignored paths.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Final, final

__all__ = [
    "ANY_INDEX",
    "REMOVE",
    "REMOVED_ELEMENT",
    "JsonPath",
    "parse_json_path",
    "rewrite_at_paths",
    "rewrite_fields",
    "show_json_path",
]


@final
class _AnyIndex:
    """The ``[*]`` segment: every element of an array."""

    def __repr__(self) -> str:
        return "ANY_INDEX"


ANY_INDEX: Final = _AnyIndex()
"""A path segment standing for every element of an array (``[*]``)."""

Segment = str | int | _AnyIndex
JsonPath = tuple[Segment, ...]
"""A parsed path: object keys (``str``), array indexes (``int``) and `ANY_INDEX`."""

Rewrite = Callable[[object], object]
"""What becomes of a value a path or field names: its replacement."""

_DECODER = json.JSONDecoder()


def parse_json_path(text: str) -> JsonPath:
    """The segments of ``text``: ``name``, ``.name``, ``[3]``, ``[*]`` and ``["any key"]``.

    A path starts with a key (``metadata.user_id``) or a bracket
    (``[0]``); keys that are not Python identifiers are written as JSON
    strings in brackets, as ``first_json_difference`` prints them. Raises
    ``TypeError`` when ``text`` is not a ``str`` and ``ValueError`` (saying
    where) when it is not such a path.
    """
    if type(text) is not str:
        raise TypeError(f"a JSON path must be a str, not {type(text).__name__}")
    segments: list[Segment] = []
    at = 0
    while at < len(text):
        character = text[at]
        if character == "[":
            segment, at = _bracket(text, at)
            segments.append(segment)
            continue
        if character == ".":
            if not segments:
                raise ValueError(f"JSON path {text!r} must not start with '.'")
            at += 1
        elif segments:
            raise ValueError(f"JSON path {text!r}: expected '.' or '[' at position {at}")
        end = at
        while end < len(text) and text[end] not in ".[":
            end += 1
        name = text[at:end]
        if not name.isidentifier():
            raise ValueError(
                f'JSON path {text!r}: {name!r} is not a plain key; write it as ["..."]'
            )
        segments.append(name)
        at = end
    if not segments:
        raise ValueError("a JSON path must not be empty")
    return tuple(segments)


def _bracket(text: str, at: int) -> tuple[Segment, int]:
    close = text.find("]", at)
    inside = text[at + 1 : close] if close != -1 else ""
    if inside == "*":
        return ANY_INDEX, close + 1
    if inside.isascii() and inside.isdigit():
        return int(inside), close + 1
    if text.startswith('["', at):
        try:
            key, end = _DECODER.raw_decode(text, at + 1)
        except ValueError:
            key, end = None, at
        if type(key) is str and text.startswith("]", end):
            return key, end + 1
    raise ValueError(f"JSON path {text!r}: bad bracket at position {at}")


def rewrite_at_paths(value: object, paths: Iterable[JsonPath], rewrite: Rewrite) -> object:
    """``value`` (plain or frozen JSON) as plain JSON, with what each path names rewritten.

    A path that names nothing in ``value`` changes nothing. ``rewrite``
    returning `REMOVE` drops an object key; an array element is never
    dropped (the later elements would move): it takes the replacement
    `REMOVED_ELEMENT` instead.
    """
    result = _thawed(value)
    for path in paths:
        result = _rewrite_path(result, path, rewrite)
    return result


def rewrite_fields(value: object, names: frozenset[str], rewrite: Rewrite) -> object:
    """``value`` as plain JSON, the value of every key in ``names``, at any depth, rewritten."""
    if not names:
        return _thawed(value)
    if isinstance(value, Mapping):
        return {
            key: rewrite(item) if key in names else rewrite_fields(item, names, rewrite)
            for key, item in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [rewrite_fields(item, names, rewrite) for item in value]
    return value


REMOVE: Final = object()
"""Returned by a `Rewrite`: drop the object key instead of replacing its value."""

REMOVED_ELEMENT: Final = "<ignored>"
"""What an array element a `REMOVE` rewrite names becomes (elements are never dropped)."""


def _rewrite_path(value: object, path: JsonPath, rewrite: Rewrite) -> object:
    if not path:
        return rewrite(value)
    head, rest = path[0], path[1:]
    if isinstance(value, dict) and type(head) is str:
        if head not in value:
            return value
        changed = dict(value)
        replacement = _rewrite_path(value[head], rest, rewrite)
        if replacement is REMOVE:
            del changed[head]
        else:
            changed[head] = replacement
        return changed
    if isinstance(value, list) and type(head) is not str:
        indexes = range(len(value)) if head is ANY_INDEX else [head]
        changed_list = list(value)
        for index in indexes:
            assert type(index) is int
            if 0 <= index < len(value):
                replacement = _rewrite_path(value[index], rest, rewrite)
                changed_list[index] = REMOVED_ELEMENT if replacement is REMOVE else replacement
        return changed_list
    return value


def _thawed(value: object) -> object:
    if isinstance(value, Mapping):
        return {key: _thawed(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_thawed(item) for item in value]
    return value


def show_json_path(path: JsonPath) -> str:
    """``path`` written back as text (the form `parse_json_path` reads)."""
    parts: list[str] = []
    for segment in path:
        if segment is ANY_INDEX:
            parts.append("[*]")
        elif type(segment) is int:
            parts.append(f"[{segment}]")
        elif type(segment) is str and segment.isidentifier():
            parts.append(f".{segment}" if parts else segment)
        else:
            parts.append(f"[{json.dumps(segment)}]")
    return "".join(parts)
