"""The Tool calls of one streamed choice, keyed by ``tool_calls[].index``: the grammar's part.

The first fragment of a call carries its id, type and name (``function.name``,
or ``custom.name`` for a custom tool); later ones carry only argument text
(``function.arguments``, ``custom.input``). Calls start in index order, 0 first,
as OpenAI numbers them and as the official SDK's accumulator assumes (it
appends a call it has not seen). Fragments are kept in one `TextPieces` per
call and joined once, when the choice ends; the arguments of a function call
are parsed then, never per fragment.
"""

from __future__ import annotations

from typing import Any, Final, final

from course_http import VendorErrorCode
from course_protocol import JsonObject, is_blank
from course_protocol.untrusted import shown
from course_provider_openai._chat_reads import choice_path
from course_provider_openai._chat_result import ChatToolCall
from course_provider_openai._failures import OpenAIFailures
from course_vendor import TextPieces, ToolCallIds
from course_vendor import tool_arguments as parse_arguments

__all__ = ["ChatToolCalls", "parsed_arguments"]

_Code = VendorErrorCode
_PIECE_KEYS: Final = {"function": "arguments", "custom": "input"}
"""Each tool type's object in a fragment, and the key of its text in that object."""


def _where(position: int, place: int | None = None, *fields: str) -> str:
    # Built for a failure's message (and once per call, as it starts): never per fragment.
    if place is None:
        return choice_path(position, "delta", "tool_calls")
    return choice_path(position, "delta", f"tool_calls[{place}]", *fields)


def parsed_arguments(failures: OpenAIFailures, text: str, index: int, path: str) -> JsonObject:
    """``text``, a call's whole argument text, as a JSON object (``""`` means ``{}``).

    Raises ``VENDOR_INVALID_TOOL_ARGUMENTS`` naming ``path`` otherwise.
    """
    return parse_arguments(text, vendor=failures.vendor, index=index, path=path)


@final
class _Call:
    __slots__ = ("id", "name", "piece_key", "pieces", "type")

    def __init__(self, call_id: str, kind: str, name: str) -> None:
        self.id = call_id
        self.type = kind
        self.piece_key = _PIECE_KEYS[kind]
        self.name = name
        self.pieces = TextPieces()


@final
class ChatToolCalls:
    """The calls of one choice started so far, in index order, with their argument text.

    ``ids`` is the response's `ToolCallIds` (an id names one call in the whole
    response); ``failures`` raises in the wire's name.
    """

    __slots__ = ("_calls", "_failures", "_ids")

    def __init__(self, ids: ToolCallIds, failures: OpenAIFailures) -> None:
        self._calls: list[_Call] = []
        self._ids = ids
        self._failures = failures

    def __bool__(self) -> bool:
        return bool(self._calls)

    def add(self, fragments: object, index: int, position: int) -> None:
        """Take one ``delta.tool_calls`` array of event ``index``, its choice at ``position``.

        ``position`` is the choice's place in the chunk's ``choices``, for the
        path a message names (``choices[0].delta.tool_calls[1].id``).

        Raises `VendorError`: ``VENDOR_INVALID_EVENT`` for a malformed fragment
        or an id an earlier call has; ``VENDOR_UNKNOWN_EVENT`` for a ``type``
        other than ``function`` and ``custom``; ``VENDOR_EVENT_ORDER`` for a
        fragment of a call that never started (no id, or an index past the
        next one), or an id, name or other type for a call that did.
        """
        if type(fragments) is not list:
            self._failures.invalid(index, _where(position), "an array or null", fragments)
        calls = self._calls
        for place, fragment in enumerate(fragments):
            if type(fragment) is not dict:
                self._failures.invalid(index, _where(position, place), "an object", fragment)
            key = fragment.get("index")
            if type(key) is not int or key < 0:
                self._failures.invalid(
                    index, _where(position, place, "index"), "a non-negative integer", key
                )
            if key < len(calls):
                call = calls[key]
                part = fragment.get(call.type)
                # A later fragment is the index and the call's text object, nothing more.
                if part is None or len(fragment) != 2:
                    self._continued(call, fragment, index, position, place)
                if part is None:
                    continue
                if type(part) is not dict:
                    self._failures.invalid(
                        index, _where(position, place, call.type), "an object or null", part
                    )
                if part.get("name") is not None:
                    self._restarted(fragment, index, position, place)
            else:
                call = self._start(fragment, key, index, _where(position, place))
                part = fragment[call.type]
            piece = part.get(call.piece_key)
            if piece is not None:
                if type(piece) is not str:
                    where = _where(position, place, call.type, call.piece_key)
                    self._failures.invalid(index, where, "a string or null", piece)
                call.pieces.append(piece)

    def complete(self, index: int, *, parse: bool) -> tuple[ChatToolCall, ...]:
        """Every call, in index order, its text joined; a function call's parsed if ``parse``.

        Called once, when the choice ends at event ``index``. Raises
        ``VENDOR_INVALID_TOOL_ARGUMENTS`` when ``parse`` and a function call's
        joined text is not a JSON object.
        """
        made: list[ChatToolCall] = []
        for key, call in enumerate(self._calls):
            text = call.pieces.joined()
            parsed = None
            if parse and call.type == "function":
                path = f"tool_calls[{key}].function.arguments"
                parsed = parsed_arguments(self._failures, text, index, path)
            made.append(ChatToolCall(key, call.id, call.type, call.name, text, parsed))
        return tuple(made)

    def _start(self, fragment: dict[str, Any], key: int, index: int, path: str) -> _Call:
        call_id = fragment.get("id")
        if call_id is None or key > len(self._calls):
            self._failures.fail(
                _Code.VENDOR_EVENT_ORDER,
                index,
                f"{path} continues Tool call {key}, which never started "
                f"(the next call to start is {len(self._calls)}, with an id)",
            )
        if type(call_id) is not str or is_blank(call_id):
            self._failures.invalid(index, f"{path}.id", "a non-blank string", call_id)
        kind = fragment.get("type")
        if kind is None:
            kind = "function"
        elif type(kind) is not str:
            self._failures.invalid(index, f"{path}.type", "a string or null", kind)
        elif kind not in _PIECE_KEYS:
            self._failures.fail(
                _Code.VENDOR_UNKNOWN_EVENT,
                index,
                f"{path}.type {shown(kind)!r} is not a tool call type OpenAI documents",
            )
        part = self._failures.object_at(fragment, kind, index, parent=path)
        name = self._failures.text_at(part, "name", index, parent=f"{path}.{kind}", non_blank=True)
        self._ids.claim(call_id, index, f"{path}.id")
        call = _Call(call_id, kind, name)
        self._calls.append(call)
        return call

    def _continued(
        self, call: _Call, fragment: dict[str, Any], index: int, position: int, place: int
    ) -> None:
        kind = fragment.get("type")
        if fragment.get("id") is not None or (kind is not None and kind != call.type):
            self._restarted(fragment, index, position, place)

    def _restarted(self, fragment: dict[str, Any], index: int, position: int, place: int) -> None:
        self._failures.fail(
            _Code.VENDOR_EVENT_ORDER,
            index,
            f"{_where(position, place)} repeats the id, type or name of Tool call "
            f"{fragment['index']}, which already started",
        )
