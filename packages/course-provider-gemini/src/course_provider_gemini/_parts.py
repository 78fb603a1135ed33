"""One part of a streamed candidate: text, a thought, a whole function call, or a refusal.

A part holds one kind of data (``text``, ``functionCall``, ...) and any of
the metadata keys (``thought``, ``thoughtSignature``). This module reads
it strictly and says what it is; the parser decides what it becomes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, final

from course_http import VendorErrorCode
from course_protocol import JsonObject, freeze_json_object
from course_protocol.untrusted import described, shown
from course_provider_gemini import _wire
from course_provider_gemini._reads import fail, fail_invalid, invalid, text_at
from course_vendor import event_error

__all__ = ["FunctionCallPart", "TextPart", "read_part"]

_CALL_KEYS: Final = frozenset({_wire.NAME_KEY, _wire.ARGS_KEY})
_STREAMED_CALL_KEYS: Final = frozenset({_wire.PARTIAL_ARGS_KEY, _wire.WILL_CONTINUE_KEY})


@final
@dataclass(frozen=True, slots=True)
class TextPart:
    """Answer text (``thought`` parts never become one)."""

    text: str


@final
@dataclass(frozen=True, slots=True)
class FunctionCallPart:
    """A whole function call: its ``name``, its ``arguments``, the part's ``signature``."""

    name: str
    arguments: JsonObject
    signature: str | None


def read_part(part: object, path: str, index: int) -> TextPart | FunctionCallPart | None:
    """What the part at ``path`` of event ``index`` is: text, a call, or ``None`` (kept nothing).

    A thought (``thought: true``) and a part of metadata alone (a bare
    ``thoughtSignature``) keep nothing. Raises `VendorError`:
    ``VENDOR_INVALID_EVENT`` for a part that is not an object, holds two
    kinds of data, or a field of the wrong type; ``VENDOR_UNSUPPORTED_CONTENT``
    for data the course cannot carry (media, code execution) and for a
    function call whose arguments are streamed (Vertex's ``partialArgs``,
    ``willContinue``); ``VENDOR_UNKNOWN_EVENT`` for a kind of data this
    parser does not know; ``VENDOR_INVALID_TOOL_ARGUMENTS`` for ``args``
    that are not a JSON object the course accepts.
    """
    if type(part) is not dict:
        invalid(index, path, "an object", part)
    kinds = [key for key in part if key not in _wire.PART_METADATA]
    thought = part.get(_wire.THOUGHT_KEY)
    if thought is not None and type(thought) is not bool:
        invalid(index, f"{path}.{_wire.THOUGHT_KEY}", "a boolean", thought)
    signature = part.get(_wire.THOUGHT_SIGNATURE_KEY)
    if signature is not None and type(signature) is not str:
        invalid(index, f"{path}.{_wire.THOUGHT_SIGNATURE_KEY}", "a string", signature)
    if not kinds:
        return None
    if len(kinds) > 1:
        fail_invalid(f"{path} holds more than one kind of data", index)
    kind = kinds[0]
    if kind == _wire.TEXT_KEY:
        text = text_at(part, _wire.TEXT_KEY, index, parent=path)
        return None if thought or not text else TextPart(text)
    if thought:
        fail_invalid(f"{path}.{_wire.THOUGHT_KEY} is set on a part that is not text", index)
    if kind == _wire.FUNCTION_CALL_KEY:
        return _function_call(part.get(kind), f"{path}.{kind}", index, signature)
    quoted = shown(kind)
    if kind in _wire.UNSUPPORTED_PARTS:
        code = VendorErrorCode.VENDOR_UNSUPPORTED_CONTENT
        problem = f"{path} is {quoted!r}, which the course protocol cannot carry"
    else:
        code = VendorErrorCode.VENDOR_UNKNOWN_EVENT
        problem = f"{path} holds {quoted!r}, which is not a known kind of part"
    raise event_error(code, problem, vendor=_wire.VENDOR, index=index, vendor_type=kind)


def _function_call(call: object, path: str, index: int, signature: str | None) -> FunctionCallPart:
    if type(call) is not dict:
        invalid(index, path, "an object", call)
    streamed = sorted(_STREAMED_CALL_KEYS.intersection(call))
    if streamed:
        # Vertex streams a call's arguments as JSON-path fragments over
        # several chunks; no course chunk could carry a call before it is whole.
        fail(
            VendorErrorCode.VENDOR_UNSUPPORTED_CONTENT,
            index,
            f"{path} streams its arguments ({streamed[0]}); only whole function calls are "
            "supported (leave streamed function-call arguments off)",
            vendor_type=streamed[0],
        )
    unknown = sorted(key for key in call if key not in _CALL_KEYS)
    if unknown:
        fail(
            VendorErrorCode.VENDOR_UNKNOWN_EVENT,
            index,
            f"{path}.{shown(unknown[0])} is not a known field of a function call",
            vendor_type=unknown[0],
        )
    name = text_at(call, _wire.NAME_KEY, index, parent=path, non_blank=True)
    arguments = call.get(_wire.ARGS_KEY, {})
    args_path = f"{path}.{_wire.ARGS_KEY}"
    if type(arguments) is not dict:
        fail(
            VendorErrorCode.VENDOR_INVALID_TOOL_ARGUMENTS,
            index,
            f"{args_path} must be a JSON object, got {described(arguments)}",
        )
    frozen = freeze_json_object(arguments, args_path)
    if not isinstance(frozen.value_or(None), dict):
        problem = frozen.failure()
        fail(
            VendorErrorCode.VENDOR_INVALID_TOOL_ARGUMENTS,
            index,
            f"{problem.path}: {problem.message}",
        )
    return FunctionCallPart(name, frozen.unwrap(), signature)
