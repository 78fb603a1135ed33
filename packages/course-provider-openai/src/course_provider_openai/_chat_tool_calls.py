"""The Tool calls of one streamed Chat Completions response, keyed by ``tool_calls[].index``.

The first fragment of a call carries its id and function name; later ones
carry only argument text. Fragments are kept in one list per call and
joined and parsed once, at the finish: never re-parsed per fragment.
"""

from __future__ import annotations

from typing import Any, Final, final

from course_http import VendorErrorCode
from course_protocol import CourseToolCall, is_blank
from course_protocol.untrusted import shown
from course_provider_openai import _chat_wire as wire
from course_provider_openai._failures import CHAT_FAILURES
from course_vendor import TextPieces, ToolCallIds
from course_vendor import tool_arguments as parse_arguments

__all__ = ["ChatToolCalls"]

_Code = VendorErrorCode
_VENDOR: Final = wire.VENDOR
_PATH: Final = f"{wire.CHOICES_KEY}[0].{wire.DELTA_KEY}.{wire.TOOL_CALLS_KEY}"


_fail = CHAT_FAILURES.fail
_invalid = CHAT_FAILURES.invalid


def _where(position: int, *fields: str) -> str:
    # Built only to report a failure: the passing path formats nothing per fragment.
    return f"{_PATH}[{position}]" + "".join(f".{field}" for field in fields)


@final
class _Call:
    __slots__ = ("fragments", "id", "name")

    def __init__(self, call_id: str, name: str) -> None:
        self.id = call_id
        self.name = name
        self.fragments = TextPieces()


@final
class ChatToolCalls:
    """The calls started so far, in the order they started, with their argument fragments."""

    __slots__ = ("_calls", "_ids")

    def __init__(self) -> None:
        self._calls: dict[int, _Call] = {}
        self._ids = ToolCallIds(_VENDOR)

    def add(self, fragments: object, index: int) -> None:
        """Take one ``delta.tool_calls`` array of event ``index``.

        Raises `VendorError`: ``VENDOR_INVALID_EVENT`` for a malformed
        fragment; ``VENDOR_EVENT_ORDER`` for a fragment without an id for an
        index that never started, or an id or name for one that did;
        ``VENDOR_UNSUPPORTED_CONTENT`` for a call whose ``type`` is not
        ``function``.
        """
        if type(fragments) is not list:
            _invalid(index, _PATH, "an array or null", fragments)
        for position, fragment in enumerate(fragments):
            if type(fragment) is not dict:
                _invalid(index, _where(position), "an object", fragment)
            key = fragment.get(wire.INDEX_KEY)
            if type(key) is not int or key < 0:
                _invalid(index, _where(position, wire.INDEX_KEY), "a non-negative integer", key)
            function = fragment.get(wire.FUNCTION_KEY)
            if function is not None and type(function) is not dict:
                _invalid(index, _where(position, wire.FUNCTION_KEY), "an object or null", function)
            call = self._calls.get(key)
            if call is None:
                call = self._start(fragment, function, key, position, index)
            elif fragment.get(wire.ID_KEY) is not None or (
                function is not None and function.get(wire.NAME_KEY) is not None
            ):
                _fail(
                    _Code.VENDOR_EVENT_ORDER,
                    index,
                    f"{_where(position)} repeats the id or name of Tool call {key}, "
                    "which already started",
                )
            if function is not None:
                arguments = function.get(wire.ARGUMENTS_KEY)
                if arguments is not None:
                    if type(arguments) is not str:
                        where = _where(position, wire.FUNCTION_KEY, wire.ARGUMENTS_KEY)
                        _invalid(index, where, "a string or null", arguments)
                    if arguments:
                        call.fragments.append(arguments)

    def complete(self, index: int) -> list[CourseToolCall]:
        """Every call, in start order, its arguments parsed once; at the finish, event ``index``.

        Raises `VendorError` ``VENDOR_INVALID_TOOL_ARGUMENTS`` when a call's
        joined argument text is not a JSON object (the empty text means ``{}``).
        """
        calls: list[CourseToolCall] = []
        for key, call in self._calls.items():
            text = call.fragments.joined()
            where = f"{wire.TOOL_CALLS_KEY}[{key}].{wire.FUNCTION_KEY}.{wire.ARGUMENTS_KEY}"
            arguments = parse_arguments(text, vendor=_VENDOR, index=index, path=where)
            calls.append(CourseToolCall(call.id, call.name, arguments))
        return calls

    def _start(
        self,
        fragment: dict[str, Any],
        function: dict[str, Any] | None,
        key: int,
        position: int,
        index: int,
    ) -> _Call:
        path = _where(position)
        call_id = fragment.get(wire.ID_KEY)
        if call_id is None:
            _fail(
                _Code.VENDOR_EVENT_ORDER,
                index,
                f"{path} continues Tool call {key}, which never started (no id)",
            )
        if type(call_id) is not str or is_blank(call_id):
            _invalid(index, f"{path}.{wire.ID_KEY}", "a non-blank string", call_id)
        kind = fragment.get(wire.TYPE_KEY)
        if kind is not None and kind != wire.FUNCTION_TYPE:
            _fail(
                _Code.VENDOR_UNSUPPORTED_CONTENT,
                index,
                f"{path}.{wire.TYPE_KEY} is {shown(str(kind))!r}: "
                "only function calls are supported",
            )
        name = None if function is None else function.get(wire.NAME_KEY)
        if type(name) is not str or is_blank(name):
            _invalid(
                index, f"{path}.{wire.FUNCTION_KEY}.{wire.NAME_KEY}", "a non-blank string", name
            )
        self._ids.claim(call_id, index, f"{path}.{wire.ID_KEY}")
        call = _Call(call_id, name)
        self._calls[key] = call
        return call
