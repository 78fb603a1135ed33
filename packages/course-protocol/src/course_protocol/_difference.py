"""The first place two JSON values differ: what a replay reports when a request does not match.

Used by the fixture adapter's ``match_requests`` and by the vendor cassettes,
so a mismatch reads the same everywhere:
``messages[2].content[0].tool_use_id: recorded "toolu_01A", sent "toolu_01B"``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, cast, final

from course_protocol._json import key_segment
from course_protocol.untrusted import shown

__all__ = ["MISSING_VALUE", "JsonDifference", "first_json_difference"]

MISSING_VALUE: Final = "<missing>"
"""How a difference shows a key or an element one of the two values does not have."""


@final
@dataclass(frozen=True, slots=True)
class JsonDifference:
    """Where two JSON values first differ, and both values there (shown as JSON text).

    ``path`` is like ``messages[2].content[0].tool_use_id`` (``$`` for the
    values themselves); ``recorded`` and ``sent`` are compact JSON, cut at
    120 characters, or ``<missing>`` for a key or element one side lacks.
    """

    path: str
    recorded: str
    sent: str

    def __str__(self) -> str:
        return f"{self.path}: recorded {self.recorded}, sent {self.sent}"


def first_json_difference(recorded: object, sent: object) -> JsonDifference | None:
    """The first place ``recorded`` and ``sent`` differ, or None when they are the same JSON.

    Plain or frozen JSON values alike (``dict``/``frozendict``, ``list``/
    ``tuple``). Objects are compared key by key in ``recorded``'s order, then
    the keys only ``sent`` has; arrays element by element, then the extra
    elements. Types count: ``1``, ``1.0`` and ``true`` all differ. The walk is
    iterative, so deep values cannot raise ``RecursionError``; never raises
    on JSON values.
    """
    pending: list[tuple[str, object, object]] = [("", recorded, sent)]
    while pending:
        path, left, right = pending.pop()
        if isinstance(left, Mapping) and isinstance(right, Mapping):
            children: list[tuple[str, object, object]] = []
            for key, value in left.items():
                child = path + key_segment(key)
                if key not in right:
                    return _difference(child, value, _ABSENT)
                children.append((child, value, right[key]))
            for key, value in right.items():
                if key not in left:
                    return _difference(path + key_segment(key), _ABSENT, value)
            pending.extend(reversed(children))
            continue
        if _is_array(left) and _is_array(right):
            lefts = tuple(cast("list[object] | tuple[object, ...]", left))
            rights = tuple(cast("list[object] | tuple[object, ...]", right))
            for index in range(max(len(lefts), len(rights))):
                if index >= len(rights):
                    return _difference(f"{path}[{index}]", lefts[index], _ABSENT)
                if index >= len(lefts):
                    return _difference(f"{path}[{index}]", _ABSENT, rights[index])
            pending.extend(
                (f"{path}[{index}]", lefts[index], rights[index])
                for index in reversed(range(len(lefts)))
            )
            continue
        if type(left) is not type(right) or left != right:
            return _difference(path, left, right)
    return None


_ABSENT: Any = object()


def _is_array(value: object) -> bool:
    return type(value) is list or type(value) is tuple


def _difference(path: str, recorded: object, sent: object) -> JsonDifference:
    shown_path = path[1:] if path.startswith(".") else path
    return JsonDifference(shown_path or "$", _show(recorded), _show(sent))


def _show(value: object) -> str:
    if value is _ABSENT:
        return MISSING_VALUE
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=_plain)
    except (ValueError, RecursionError):
        # A value nested deeper than the encoder's recursion is shown by its type alone.
        text = f"<{type(value).__name__}>"
    return shown(text)


def _plain(value: object) -> object:
    # frozendict serializes as the dict it is; anything else has no JSON form.
    if isinstance(value, Mapping):
        return dict(value)
    raise ValueError(type(value).__name__)
