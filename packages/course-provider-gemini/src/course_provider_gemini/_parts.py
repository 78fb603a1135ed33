"""One part of a streamed candidate, read strictly: its kind, its metadata, a whole call, a payload.

A part holds at most one kind of data (its data key: ``text``,
``functionCall``, ``inlineData``, ...) and any of the metadata keys
(``thought``, ``thoughtSignature``, ``videoMetadata``, ``partMetadata``,
``mediaResolution``); a part of metadata alone holds no data (the SDK reads
it as a ``Part`` with every data field unset). This module says what a part
is; the candidate (`CandidateState`) decides where it goes.
"""

from __future__ import annotations

from typing import Any, Final

from course_http import VendorErrorCode
from course_protocol import freeze_json_object
from course_protocol.untrusted import described, is_blank, shown
from course_provider_gemini import _wire
from course_provider_gemini._reads import (
    fail,
    fail_invalid,
    frozen_object,
    invalid,
    optional_bool,
    optional_text,
    text_at,
)
from course_provider_gemini._result import GeminiFunctionCall, GeminiOpaquePart
from course_vendor import event_error

__all__ = [
    "CALL_FIELDS",
    "METADATA_KEYS",
    "OPAQUE_KINDS",
    "check_call_fields",
    "given_call_id",
    "opaque_part",
    "part_kind",
    "part_metadata",
    "whole_call",
]

_OBJECT_METADATA: Final = (
    "videoMetadata",
    "partMetadata",
    "mediaResolution",
    "audioTranscription",
    "speechMetadata",
    "documentMetadata",
    "spreadsheetMetadata",
    "audioMetadata",
)
METADATA_KEYS: Final = frozenset(
    {"thought", "thoughtSignature", "mediaProcessing", *_OBJECT_METADATA}
)
"""Keys of a part that say something about its data, never data of their own."""

CALL_FIELDS: Final = frozenset({"name", "args", "id", "partialArgs", "willContinue"})
"""Every field of a ``functionCall`` (``partialArgs`` and ``willContinue`` are Vertex's)."""

# A part kind the grammar checks only the envelope of: each field the API
# reference documents as required, and the type of each optional one it
# reads; every other field is kept as it came, frozen.
_TEXT, _ID, _OBJECT, _ARRAY, _BOOL = range(5)
OPAQUE_KINDS: Final[dict[str, tuple[dict[str, int], dict[str, int]]]] = {
    "inlineData": ({"mimeType": _TEXT, "data": _TEXT}, {"displayName": _TEXT}),
    "fileData": ({"fileUri": _TEXT}, {"mimeType": _TEXT, "displayName": _TEXT}),
    "functionResponse": (
        {"name": _ID},
        {
            "id": _ID,
            "response": _OBJECT,
            "willContinue": _BOOL,
            "scheduling": _TEXT,
            "parts": _ARRAY,
        },
    ),
    "executableCode": ({"code": _TEXT, "language": _TEXT}, {"id": _ID}),
    "codeExecutionResult": ({"outcome": _TEXT}, {"output": _TEXT, "id": _ID}),
    "toolCall": ({}, {"id": _ID, "toolType": _TEXT, "args": _OBJECT}),
    "toolResponse": ({}, {"id": _ID, "toolType": _TEXT, "response": _OBJECT}),
}
"""Each opaque part kind: ``(required fields, optional fields)``, each field with its type."""

_EXPECTED = {
    _TEXT: "a string",
    _ID: "a non-blank string",
    _OBJECT: "an object",
    _ARRAY: "an array",
    _BOOL: "a boolean",
}
_TYPES: Final = {_TEXT: str, _ID: str, _OBJECT: dict, _ARRAY: list, _BOOL: bool}


def part_kind(part: dict[str, Any], path: str, index: int) -> str | None:
    """The data key of ``part`` (at ``path`` of event ``index``), or ``None`` for metadata alone.

    Raises `VendorError` ``VENDOR_INVALID_EVENT`` for a part holding two kinds
    of data, and ``VENDOR_UNKNOWN_EVENT`` (``vendor_type`` the key) for a key
    that is no kind of part the API documents.
    """
    kind: str | None = None
    for key in part:
        if key in METADATA_KEYS:
            continue
        if key != "text" and key != "functionCall" and key not in OPAQUE_KINDS:
            raise event_error(
                VendorErrorCode.VENDOR_UNKNOWN_EVENT,
                f"{path} holds {shown(key)!r}, which is not a known kind of part",
                vendor=_wire.WIRE,
                index=index,
                vendor_type=key,
            )
        if kind is not None:
            fail_invalid(f"{path} holds more than one kind of data", index)
        kind = key
    return kind


def part_metadata(part: dict[str, Any], path: str, index: int) -> tuple[bool, str | None]:
    """The ``thought`` flag and ``thoughtSignature`` of ``part``, its other metadata checked.

    Raises ``VENDOR_INVALID_EVENT`` for a ``thought`` that is not a boolean,
    a signature or ``mediaProcessing`` that is not a string, or other
    metadata (``videoMetadata``, ``partMetadata``, ``mediaResolution``,
    ``audioTranscription``, ...) that is not an object.
    """
    thought = optional_bool(part, "thought", index, f"{path}.thought")
    signature = optional_text(part, "thoughtSignature", index, f"{path}.thoughtSignature")
    optional_text(part, "mediaProcessing", index, f"{path}.mediaProcessing")
    for key in _OBJECT_METADATA:
        value = part.get(key)
        if value is not None and type(value) is not dict:
            invalid(index, f"{path}.{key}", "an object", value)
    return thought, signature


def opaque_part(
    kind: str, part: dict[str, Any], path: str, index: int, thought: bool, signature: str | None
) -> GeminiOpaquePart:
    """The part of opaque ``kind``: its envelope checked, its data kept as frozen JSON.

    Raises ``VENDOR_INVALID_EVENT`` naming the field for a payload that is
    not an object, a required field absent, a field of the wrong type, or a
    payload the course's JSON refuses (nested too deep).
    """
    payload = part.get(kind)
    data_path = f"{path}.{kind}"
    if type(payload) is not dict:
        invalid(index, data_path, "an object", payload)
    required, optional = OPAQUE_KINDS[kind]
    for field, kind_of in required.items():
        _check_field(payload, field, kind_of, data_path, index, required=True)
    for field, kind_of in optional.items():
        _check_field(payload, field, kind_of, data_path, index, required=False)
    return GeminiOpaquePart(kind, frozen_object(payload, index, data_path), thought, signature)


def _check_field(
    payload: dict[str, Any], field: str, kind_of: int, path: str, index: int, *, required: bool
) -> None:
    value = payload.get(field)
    if value is None:
        if not required:
            return
        if field not in payload:
            fail_invalid(f"{path}.{field} is missing: the API documents it as required", index)
    if type(value) is not _TYPES[kind_of]:
        invalid(index, f"{path}.{field}", _EXPECTED[kind_of], value)
    if kind_of == _ID and type(value) is str and is_blank(value):
        fail_invalid(f"{path}.{field} must be a non-blank string, got blank text", index)


def check_call_fields(call: dict[str, Any], path: str, index: int) -> None:
    """Refuse a ``functionCall`` field the API does not document: ``VENDOR_UNKNOWN_EVENT``.

    A call is what the course carries: a field that could change what it
    means is never passed over. ``vendor_type`` is the field.
    """
    for key in call:
        if key not in CALL_FIELDS:
            fail(
                VendorErrorCode.VENDOR_UNKNOWN_EVENT,
                index,
                f"{path}.{shown(key)} is not a known field of a function call",
                vendor_type=key,
            )


def given_call_id(call: dict[str, Any], path: str, index: int) -> str | None:
    """The call's ``id`` (Gemini 3 sends one), or ``None``; invalid unless a non-blank string."""
    return optional_text(call, "id", index, f"{path}.id", non_blank=True)


def whole_call(
    call: dict[str, Any], path: str, index: int, signature: str | None
) -> GeminiFunctionCall:
    """The whole function call ``call`` (at ``path``), its fields known to be the API's.

    ``args`` absent means ``{}``. Raises ``VENDOR_INVALID_EVENT`` for a
    ``name`` that is absent, not a string or blank, and an ``id`` that is
    not a non-blank string; ``VENDOR_INVALID_TOOL_ARGUMENTS`` for ``args``
    that are not a JSON object the course accepts.
    """
    name = text_at(call, "name", index, parent=path, non_blank=True)
    identifier = given_call_id(call, path, index)
    arguments = call.get("args", {})
    args_path = f"{path}.args"
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
    return GeminiFunctionCall(name, frozen.unwrap(), identifier, signature, streamed=False)
