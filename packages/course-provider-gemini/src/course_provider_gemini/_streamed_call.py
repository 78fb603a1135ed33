"""A function call whose arguments Vertex AI streams over several parts: `StreamedCall`.

With ``streamFunctionCallArguments`` Vertex AI sends a call as parts of
consecutive chunks: the first ``{"name": ..., "willContinue": true}``, then
``{"partialArgs": [...], "willContinue": true}`` continuations, and a last
part without ``willContinue`` (often ``{}``) that closes it. Each partial
argument sets one value at a JSON path (RFC 9535: ``$.city``,
``$['a key']``, ``$.stops[0].name``): a ``stringValue`` (a string may come
in fragments, each but the last with ``willContinue``), a ``numberValue``, a
``boolValue`` or a ``nullValue``. The arguments are built as the fragments
come and checked strictly: a value set twice, a path through a value of
another shape, an array index that skips one, or a fragment of another
path while a string is still arriving is refused.
"""

from __future__ import annotations

import re
from typing import Any, Final, NoReturn, final

from course_http import VendorErrorCode
from course_protocol import JSON_MAX_DEPTH, freeze_json_object
from course_protocol.untrusted import described, shown
from course_provider_gemini._reads import fail, fail_invalid, fail_order, invalid
from course_provider_gemini._result import GeminiFunctionCall
from course_vendor import TextPieces

__all__ = ["FRAGMENT_FIELDS", "StreamedCall", "json_path"]

FRAGMENT_FIELDS: Final = frozenset(
    {"jsonPath", "stringValue", "numberValue", "boolValue", "nullValue", "willContinue"}
)
"""Every field of one ``partialArgs`` entry."""

_VALUE_FIELDS: Final = ("stringValue", "numberValue", "boolValue", "nullValue")
_NAME_CHARACTERS = "A-Za-z_\u0080-\ud7ff\ue000-\U0010ffff"
_SEGMENT: Final = re.compile(
    rf"\.([{_NAME_CHARACTERS}][{_NAME_CHARACTERS}0-9]*)"
    r"|\[(0|[1-9][0-9]{0,15})\]"
    r"|\['((?:[^'\\\x00-\x1f]|\\.)*)'\]"
    r'|\["((?:[^"\\\x00-\x1f]|\\.)*)"\]'
)
_ESCAPE: Final = re.compile(r"\\(u[0-9A-Fa-f]{4}|.)")
_ESCAPED: Final = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "/": "/", "\\": "\\"}


def _unescaped(literal: str, quote: str) -> str | None:
    def one(match: re.Match[str]) -> str:
        code = match.group(1)
        if code[0] == "u" and len(code) == 5:
            return chr(int(code[1:], 16))
        if code == quote:
            return quote
        if code in _ESCAPED:
            return _ESCAPED[code]
        raise ValueError(code)

    try:
        return _ESCAPE.sub(one, literal)
    except ValueError:
        return None


def json_path(text: str) -> tuple[str | int, ...] | None:
    """The segments of the JSON path ``text`` (a member name or an array index each), or ``None``.

    The RFC 9535 singular paths a partial argument names: ``$`` and then
    ``.name``, ``['name']``, ``["name"]`` or ``[index]`` segments, at least
    one. ``None`` for anything else (a wildcard, a filter, a negative or
    padded index, a bad escape).
    """
    if text[:1] != "$":
        return None
    segments: list[str | int] = []
    at = 1
    while at < len(text):
        found = _SEGMENT.match(text, at)
        if found is None:
            return None
        shorthand, position, single, double = found.groups()
        if shorthand is not None:
            segments.append(shorthand)
        elif position is not None:
            segments.append(int(position))
        else:
            quote = "'" if single is not None else '"'
            name = _unescaped(single if single is not None else double, quote)
            if name is None:
                return None
            segments.append(name)
        at = found.end()
    return tuple(segments) if segments else None


@final
class StreamedCall:
    """One function call whose arguments are still arriving as partial arguments.

    ``name``, ``identifier`` and ``signature`` come from the part that
    started it; ``path`` names that part in messages. `feed` reads each
    later part's ``functionCall``; `call` is the whole call once a part
    without ``willContinue`` closed it.
    """

    __slots__ = (
        "_arguments",
        "_pending",
        "_pending_path",
        "_pending_text",
        "identifier",
        "name",
        "path",
        "signature",
    )

    def __init__(self, name: str, identifier: str | None, signature: str | None, path: str) -> None:
        self.name = name
        self.identifier = identifier
        self.signature = signature
        self.path = path
        self._arguments: dict[str, Any] = {}
        self._pending: TextPieces | None = None
        self._pending_path: tuple[str | int, ...] = ()
        self._pending_text = ""

    def fragments(self, partial: object, path: str, index: int) -> None:
        """Set each value of ``partial`` (a ``partialArgs`` array, at ``path``) in the arguments.

        Raises `VendorError`: ``VENDOR_INVALID_EVENT`` for an array or entry
        of the wrong shape, ``VENDOR_UNKNOWN_EVENT`` for an unknown entry
        field, ``VENDOR_EVENT_ORDER`` for a fragment of another path while a
        string is still arriving, ``VENDOR_INVALID_TOOL_ARGUMENTS`` for a
        path that is not a singular JSON path or cannot be set.
        """
        if type(partial) is not list:
            invalid(index, path, "an array", partial)
        for number, fragment in enumerate(partial):
            self._fragment(fragment, f"{path}[{number}]", index)

    def call(self, index: int) -> GeminiFunctionCall:
        """The whole call, once the part that closes it came (event ``index``).

        Raises ``VENDOR_EVENT_ORDER`` when a string argument is still
        arriving, ``VENDOR_INVALID_TOOL_ARGUMENTS`` for arguments the
        course's JSON refuses.
        """
        if self._pending is not None:
            fail_order(
                f"the function call started at {self.path} ends while a string argument "
                "is still arriving (its last fragment had willContinue)",
                index,
            )
        frozen = freeze_json_object(self._arguments, f"{self.path}.args")
        if not isinstance(frozen.value_or(None), dict):
            problem = frozen.failure()
            _bad_arguments(f"{problem.path}: {problem.message}", index)
        return GeminiFunctionCall(
            self.name, frozen.unwrap(), self.identifier, self.signature, streamed=True
        )

    def _fragment(self, fragment: object, path: str, index: int) -> None:
        if type(fragment) is not dict:
            invalid(index, path, "an object", fragment)
        for key in fragment:
            if key not in FRAGMENT_FIELDS:
                fail(
                    VendorErrorCode.VENDOR_UNKNOWN_EVENT,
                    index,
                    f"{path}.{shown(key)} is not a known field of a partial argument",
                    vendor_type=key,
                )
        text = fragment.get("jsonPath")
        if type(text) is not str:
            invalid(index, f"{path}.jsonPath", "a string", text)
        segments = json_path(text)
        if segments is None or len(segments) > JSON_MAX_DEPTH:
            _bad_arguments(
                f"{path}.jsonPath {shown(text)!r} is not a JSON path to one value", index
            )
        continues = fragment.get("willContinue", False)
        if type(continues) is not bool:
            invalid(index, f"{path}.willContinue", "a boolean", continues)
        given = [key for key in _VALUE_FIELDS if key in fragment]
        if len(given) != 1:
            fail_invalid(f"{path} must hold exactly one of {', '.join(_VALUE_FIELDS)}", index)
        kind = given[0]
        if self._pending is not None and (segments != self._pending_path or kind != "stringValue"):
            fail_order(
                f"{path} sets a {kind} at {shown(text)!r} while the string at "
                f"{shown(self._pending_text)!r} is still arriving",
                index,
            )
        value = _value(fragment, kind, f"{path}.{kind}", index)
        if kind == "stringValue":
            self._string(segments, text, value, continues, path, index)
        elif continues:
            fail_invalid(f"{path}.willContinue is set on a {kind}; only strings continue", index)
        else:
            self._set(segments, value, path, index)

    def _string(
        self,
        segments: tuple[str | int, ...],
        path_text: str,
        piece: str,
        continues: bool,
        path: str,
        index: int,
    ) -> None:
        if self._pending is None:
            if not continues:
                self._set(segments, piece, path, index)
                return
            self._pending = TextPieces()
            self._pending_path = segments
            self._pending_text = path_text
        self._pending.append(piece)
        if not continues:
            whole = self._pending.joined()
            self._pending = None
            self._set(segments, whole, path, index)

    def _set(self, segments: tuple[str | int, ...], value: object, path: str, index: int) -> None:
        container: Any = self._arguments
        if type(segments[0]) is int:
            _bad_arguments(f"{path}.jsonPath indexes the arguments, which are an object", index)
        for at, segment in enumerate(segments[:-1]):
            shape = list if type(segments[at + 1]) is int else dict
            container = _child(container, segment, shape, path, index)
        last = segments[-1]
        if type(container) is dict:
            if last in container:
                _bad_arguments(f"{path}.jsonPath sets a value that is already set", index)
            container[last] = value
        elif last == len(container):
            container.append(value)
        else:
            _bad_arguments(f"{path}.jsonPath skips or repeats an array element", index)


def _child(container: Any, segment: str | int, shape: type, path: str, index: int) -> Any:
    if type(container) is dict:
        if segment not in container:
            container[segment] = shape()
        child = container[segment]
    elif segment == len(container):
        child = shape()
        container.append(child)
    elif type(segment) is int and segment < len(container):
        child = container[segment]
    else:
        _bad_arguments(f"{path}.jsonPath skips an array element", index)
    if type(child) is not shape:
        _bad_arguments(f"{path}.jsonPath goes through a value of another shape", index)
    return child


def _value(fragment: dict[str, Any], kind: str, path: str, index: int) -> Any:
    value = fragment[kind]
    if kind == "stringValue":
        if type(value) is not str:
            invalid(index, path, "a string", value)
    elif kind == "numberValue":
        if type(value) is not int and type(value) is not float:
            invalid(index, path, "a number", value)
    elif kind == "boolValue":
        if type(value) is not bool:
            invalid(index, path, "a boolean", value)
    elif value is not None and value != "NULL_VALUE":
        # The protobuf JSON mapping writes NullValue as null; the enum name is accepted too.
        fail_invalid(f"{path} must be null or 'NULL_VALUE', got {described(value)}", index)
    else:
        value = None
    return value


def _bad_arguments(message: str, index: int) -> NoReturn:
    fail(VendorErrorCode.VENDOR_INVALID_TOOL_ARGUMENTS, index, message)
