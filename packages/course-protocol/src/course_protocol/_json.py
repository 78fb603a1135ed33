"""Immutable JSON values: freeze untrusted Python data into them, thaw them back.

The walk is iterative with an explicit stack, so no input (however deep,
large or cyclic) can raise ``RecursionError``. Containers are read only
through the base types' own C methods (``dict.items(d)``, ``list.__iter__``,
``tuple.__iter__``) and classified with ``type()``/``issubclass`` on the real
type, so no override, ``__missing__`` hook or lying ``__class__`` of the
input ever runs.

Over 300 lines on purpose: one walk serves freezing and the frozen check.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from typing import Any, TypeAlias, Union, cast

from frozendict import frozendict
from returns.result import Failure, Result, Success

from course_protocol._errors import CourseProtocolError, JsonError, JsonErrorCode
from course_protocol.untrusted import type_name

__all__ = [
    "JSON_MAX_DEPTH",
    "JSON_MAX_SHARED_VISITS",
    "JsonObject",
    "JsonValue",
    "freeze_json",
    "freeze_json_keeping",
    "freeze_json_object",
    "freeze_json_object_or_raise",
    "frozen_json_error",
    "is_frozen_json_object",
    "key_segment",
    "snapshot_json",
    "thaw_json",
]

JsonValue: TypeAlias = Union[  # a recursive alias: ``|`` cannot join the string forward refs
    bool, int, float, str, tuple["JsonValue", ...], "frozendict[str, JsonValue]", None
]
"""A deeply immutable JSON value: scalars, tuples for arrays, frozendicts for objects."""

JsonObject: TypeAlias = "frozendict[str, JsonValue]"
"""A deeply immutable JSON object with ``str`` keys."""

JSON_MAX_DEPTH = 64
"""The most containers (arrays and objects) a JSON value may nest, the root included.

Far deeper than any Tool arguments need, and far enough below Python's
recursion limit that the recursive parts of the standard library
(``==``, ``hash``, ``repr``, ``pickle``, ``copy.deepcopy``, ``json.dumps``)
are always safe on a frozen value.
"""

JSON_MAX_SHARED_VISITS = 100_000
"""How often one walk may meet again a container it already copied.

A container that appears in several places is copied once per place, as a
tree; without a bound, a few dozen levels of containers that each hold the
next one twice would expand into billions of copies and hang the walk.
Values read from JSON text never share containers, so they never count.
"""

_NOT_JSON = JsonErrorCode.NOT_JSON

_ArrayBuilder = Callable[[list[object]], object]
_ObjectBuilder = Callable[[list[tuple[str, object]]], object]


class _Frame:
    """One open container of the walk: its entries, what was built so far, where we are."""

    __slots__ = ("child_key", "entries", "ident", "is_object", "out")

    def __init__(self, ident: int, entries: Iterator[Any], is_object: bool) -> None:
        self.ident = ident
        self.entries = entries
        self.is_object = is_object
        self.out: list[Any] = []
        self.child_key: str | int = -1


_PENDING: Any = object()


def key_segment(key: str | int) -> str:
    """How ``key`` extends a path: ``[3]``, ``.name``, or ``["odd key"]``."""
    if type(key) is int:
        return f"[{key}]"
    key = cast(str, key)
    if key.isidentifier():
        return f".{key}"
    return f"[{json.dumps(key)}]"


def _path(prefix: str, stack: list[_Frame], upto: int) -> str:
    path = prefix + "".join(key_segment(frame.child_key) for frame in stack[:upto])
    if not prefix and path.startswith("."):
        return path[1:]
    return path


def _walk(
    root: object,
    prefix: str,
    make_array: _ArrayBuilder,
    make_object: _ObjectBuilder,
    frozen_only: bool = False,
    max_depth: int = JSON_MAX_DEPTH,
    finite_only: bool = True,
    keep: Callable[[object], bool] | None = None,
) -> tuple[object, JsonError | None]:
    # Scalars are taken inline in the loops over a container's entries; only
    # containers (and errors) go round the outer loop. Classification is by
    # ``type(...) is`` and ``issubclass`` on the real type only: ``in`` on a
    # set or tuple of types would call a hostile metaclass's __hash__/__eq__.
    # ``finite_only=False`` keeps NaN and the infinities; ``keep`` keeps, as
    # it is, a value of any other type it accepts. Both are only asked about
    # values the plain walk would refuse, so its fast path stays as it is.
    stack: list[_Frame] = []
    active: set[int] = set()
    # ids stay unique during the walk: every container is reachable from root.
    completed: set[int] = set()
    shared_visits = 0
    value: Any = root
    while True:
        kind = type(value)
        if kind is str or kind is int or kind is bool or value is None:
            result = value
        elif kind is float:
            if finite_only and not math.isfinite(value):
                return None, JsonError(
                    _NOT_JSON, _path(prefix, stack, len(stack)), "is not a finite number"
                )
            result = value
        elif keep is not None and not issubclass(kind, (dict, list, tuple)) and keep(value):
            result = value
        else:
            if frozen_only and kind is not frozendict and kind is not tuple:
                message = f"is a {type_name(value)}, not a frozendict or tuple"
                return None, JsonError(_NOT_JSON, _path(prefix, stack, len(stack)), message)
            if issubclass(kind, dict):
                entries: Iterator[Any] = iter(dict.items(value))
                is_object = True
            elif issubclass(kind, list):
                entries = list.__iter__(value)
                is_object = False
            elif issubclass(kind, tuple):
                entries = tuple.__iter__(value)
                is_object = False
            else:
                message = f"has unsupported type {type_name(value)}"
                return None, JsonError(_NOT_JSON, _path(prefix, stack, len(stack)), message)
            ident = id(value)
            if ident in active:
                message = "refers back to a container that holds it (a cycle)"
                return None, JsonError(_NOT_JSON, _path(prefix, stack, len(stack)), message)
            if len(stack) >= max_depth:
                message = f"nests more than JSON_MAX_DEPTH ({JSON_MAX_DEPTH}) containers"
                if max_depth != JSON_MAX_DEPTH:
                    message = (
                        f"nests more than {max_depth} containers: JSON_MAX_DEPTH "
                        f"({JSON_MAX_DEPTH}) inside a {max_depth - JSON_MAX_DEPTH}-level envelope"
                    )
                return None, JsonError(_NOT_JSON, _path(prefix, stack, len(stack)), message)
            if ident in completed:
                shared_visits += 1
                if shared_visits > JSON_MAX_SHARED_VISITS:
                    message = (
                        "shares containers that already appeared more than "
                        f"JSON_MAX_SHARED_VISITS ({JSON_MAX_SHARED_VISITS:,}) times"
                    )
                    return None, JsonError(_NOT_JSON, _path(prefix, stack, len(stack)), message)
            active.add(ident)
            stack.append(_Frame(ident, entries, is_object))
            result = _PENDING
        while True:
            if not stack:
                return result, None
            frame = stack[-1]
            out = frame.out
            if frame.is_object:
                if result is not _PENDING:
                    out.append((frame.child_key, result))
                for key, child in frame.entries:
                    if type(key) is not str:
                        message = f"has a key of type {type_name(key)}; object keys must be str"
                        return None, JsonError(
                            _NOT_JSON, _path(prefix, stack, len(stack) - 1), message
                        )
                    child_kind = type(child)
                    if (
                        child_kind is str
                        or child_kind is int
                        or child_kind is bool
                        or child is None
                        or (child_kind is float and math.isfinite(child))
                    ):
                        out.append((key, child))
                        continue
                    frame.child_key = key
                    value = child
                    break
                else:
                    stack.pop()
                    active.discard(frame.ident)
                    completed.add(frame.ident)
                    result = make_object(out)
                    continue
                break
            if result is not _PENDING:
                out.append(result)
            for child in frame.entries:
                child_kind = type(child)
                if (
                    child_kind is str
                    or child_kind is int
                    or child_kind is bool
                    or child is None
                    or (child_kind is float and math.isfinite(child))
                ):
                    out.append(child)
                    continue
                frame.child_key = len(out)
                value = child
                break
            else:
                stack.pop()
                active.discard(frame.ident)
                completed.add(frame.ident)
                result = make_array(out)
                continue
            break


def _frozen_object(pairs: list[tuple[str, object]]) -> object:
    return frozendict(pairs)


def _plain_object(pairs: list[tuple[str, object]]) -> object:
    return dict(pairs)


def freeze_json(
    value: object, path: str = "$", *, max_depth: int = JSON_MAX_DEPTH
) -> Result[JsonValue, JsonError]:
    """Deep-snapshot ``value`` into an immutable :data:`JsonValue`.

    Accepts exact ``str``, ``int``, ``bool``, ``None`` and finite ``float``
    scalars; ``dict`` (including ``frozendict`` and other subclasses) with
    exact ``str`` keys; ``list`` and ``tuple`` (including subclasses).
    Objects become ``frozendict`` and arrays ``tuple``, always freshly built,
    so later changes to ``value`` change nothing. Keys such as
    ``"__proto__"`` or ``"__class__"`` are ordinary keys.

    Returns ``Failure(JsonError)`` naming the path of the first bad part
    (``path`` is the prefix, e.g. ``arguments.items[3].x``) for non-finite
    floats, non-``str`` keys, str subclasses, cycles, other types,
    nesting beyond ``max_depth`` containers (:data:`JSON_MAX_DEPTH` unless a
    caller that wraps JSON values in an envelope of its own allows for the
    envelope's levels) and containers shared more than
    :data:`JSON_MAX_SHARED_VISITS` times. Never raises.
    """
    result, error = _walk(value, path, tuple, _frozen_object, max_depth=max_depth)
    if error is not None:
        return Failure(error)
    return Success(cast(JsonValue, result))


def snapshot_json(
    value: object, path: str = "$", *, max_depth: int = JSON_MAX_DEPTH
) -> Result[object, JsonError]:
    """:func:`freeze_json`'s deep snapshot, with every float kept: NaN and the infinities too.

    For an untrusted document whose numbers are judged only where they are
    read, as JavaScript holds what ``JSON.parse`` made of ``1e400``: a
    field nobody reads may hold an infinity, and the reader of a field that
    must be finite refuses it there. The result is as immutable as
    :func:`freeze_json`'s, but not a :data:`JsonValue` when it holds a
    non-finite float. Every other rule, and the ``Failure``, are
    :func:`freeze_json`'s; never raises.
    """
    result, error = _walk(
        value, path, tuple, _frozen_object, max_depth=max_depth, finite_only=False
    )
    if error is not None:
        return Failure(error)
    return Success(result)


def freeze_json_keeping(
    value: object, path: str, keep: Callable[[object], bool]
) -> Result[object, JsonError]:
    """:func:`freeze_json`, keeping as it is any value of another type for which ``keep`` is true.

    Lists, tuples and dicts are still walked and rebuilt (``keep`` is never
    asked about them), so nesting, cycles and sharing are bounded as
    :func:`freeze_json` bounds them; only what that walk would refuse as an
    unsupported type is offered to ``keep``. Raises what ``keep`` raises.
    """
    result, error = _walk(value, path, tuple, _frozen_object, keep=keep)
    if error is not None:
        return Failure(error)
    return Success(result)


def freeze_json_object(value: object, path: str = "$") -> Result[JsonObject, JsonError]:
    """Like :func:`freeze_json`, but the value must be a JSON object (a ``dict``).

    Returns ``Failure(JsonError)`` at ``path`` when ``value`` is not a
    ``dict``; never raises.
    """
    if not issubclass(type(value), dict):
        return Failure(JsonError(_NOT_JSON, path, f"must be a JSON object, not {type_name(value)}"))
    return cast(Result[JsonObject, JsonError], freeze_json(value, path))


def freeze_json_object_or_raise(value: object, path: str) -> JsonObject:
    """:func:`freeze_json_object` for constructors: raises ``CourseProtocolError`` instead."""
    if not issubclass(type(value), dict):
        raise CourseProtocolError(path, f"must be a JSON object, not {type_name(value)}")
    result, error = _walk(value, path, tuple, _frozen_object)
    if error is not None:
        raise CourseProtocolError(error.path, error.message)
    return cast(JsonObject, result)


def frozen_json_error(value: object, path: str = "$") -> JsonError | None:
    """Why ``value`` is not already a deeply frozen JSON object, or None when it is.

    Deeply frozen: only exact ``frozendict`` and ``tuple`` containers, the
    root a ``frozendict``; valid scalars (finite floats); ``str`` keys; no
    cycles; within :data:`JSON_MAX_DEPTH`. The same walk as `freeze_json`,
    building nothing. The error names the path of the first bad part, with
    ``path`` as the prefix. Runs no code of ``value``; never raises.
    """
    if type(value) is not frozendict:
        return JsonError(_NOT_JSON, path, f"is a {type_name(value)}, not a frozendict")
    _result, error = _walk(value, path, _discard_array, _discard_object, frozen_only=True)
    return error


def is_frozen_json_object(value: object) -> bool:
    """Whether ``value`` is already a deeply frozen JSON object (see `frozen_json_error`)."""
    return frozen_json_error(value) is None


def _discard_array(items: list[object]) -> object:
    return None


def _discard_object(pairs: list[tuple[str, object]]) -> object:
    return None


def thaw_json(value: JsonValue) -> object:
    """A plain copy of a JSON value: ``dict`` for objects, ``list`` for arrays.

    Meant for serialization (``json.dumps``) and test comparisons. Accepts
    the same inputs as :func:`freeze_json`; raises ``CourseProtocolError``
    (with the path of the bad part, prefixed ``$``) for anything that is not
    JSON.
    """
    result, error = _walk(value, "$", list, _plain_object)
    if error is not None:
        raise CourseProtocolError(error.path, error.message)
    return result
