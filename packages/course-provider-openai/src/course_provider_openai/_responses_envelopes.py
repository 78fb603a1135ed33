"""Every output item kind of the Responses API, and the envelope each holds once it is done.

One table, read from the official SDK's ``ResponseOutputItem`` union: for
each kind, the fields the vendor documents as required besides ``type`` and
``id``, with the JSON type of each. An item's ``added`` form is a snapshot in
progress and may lack them (a ``web_search_call`` is added without its
``action``), so the grammar checks the envelope on the item's ``done`` form
and on the terminal's repetition of it, and keeps the rest of an opaque item
whole. Optional fields are not read.
"""

from __future__ import annotations

from typing import Any, Final, TypeAlias

from course_provider_openai._failures import OpenAIFailures

__all__ = ["ENVELOPES", "INTEGER", "STRING", "Fields", "check_envelope", "check_fields"]

STRING: Final = "a string"
INTEGER: Final = "an integer"
_ARRAY: Final = "an array"
_OBJECT: Final = "an object"
_BOOLEAN: Final = "a boolean"
_TEXT_OR_ARRAY: Final = "a string or an array"
_PRESENT: Final = "a JSON value"

_TYPES: Final[dict[str, tuple[type, ...]]] = {
    STRING: (str,),
    INTEGER: (int,),
    _ARRAY: (list,),
    _OBJECT: (dict,),
    _BOOLEAN: (bool,),
    _TEXT_OR_ARRAY: (str, list),
}

Fields: TypeAlias = tuple[tuple[str, str], ...]
"""Required fields: each key and the JSON type it must have, said as a message says it."""

ENVELOPES: Final[dict[str, Fields]] = {
    "message": (("role", STRING), ("content", _ARRAY), ("status", STRING)),
    "function_call": (("call_id", STRING), ("name", STRING), ("arguments", STRING)),
    "reasoning": (("summary", _ARRAY),),
    "file_search_call": (("queries", _ARRAY), ("status", STRING)),
    "web_search_call": (("action", _OBJECT), ("status", STRING)),
    "computer_call": (
        ("call_id", STRING),
        ("pending_safety_checks", _ARRAY),
        ("status", STRING),
    ),
    "computer_call_output": (("call_id", STRING), ("output", _OBJECT), ("status", STRING)),
    "function_call_output": (("output", _TEXT_OR_ARRAY), ("status", STRING)),
    "program": (("call_id", STRING), ("code", STRING), ("fingerprint", STRING)),
    "program_output": (("call_id", STRING), ("result", STRING), ("status", STRING)),
    "tool_search_call": (("arguments", _PRESENT), ("execution", STRING), ("status", STRING)),
    "tool_search_output": (("execution", STRING), ("status", STRING), ("tools", _ARRAY)),
    "additional_tools": (("role", STRING), ("tools", _ARRAY)),
    "compaction": (("encrypted_content", STRING),),
    "image_generation_call": (("status", STRING),),
    "code_interpreter_call": (("container_id", STRING), ("status", STRING)),
    "local_shell_call": (("action", _OBJECT), ("call_id", STRING), ("status", STRING)),
    "local_shell_call_output": (("output", STRING),),
    "shell_call": (("action", _OBJECT), ("call_id", STRING), ("status", STRING)),
    "shell_call_output": (("call_id", STRING), ("output", _ARRAY), ("status", STRING)),
    "apply_patch_call": (("call_id", STRING), ("operation", _OBJECT), ("status", STRING)),
    "apply_patch_call_output": (("call_id", STRING), ("status", STRING)),
    "mcp_call": (("arguments", STRING), ("name", STRING), ("server_label", STRING)),
    "mcp_list_tools": (("server_label", STRING), ("tools", _ARRAY)),
    "mcp_approval_request": (("arguments", STRING), ("name", STRING), ("server_label", STRING)),
    "mcp_approval_response": (("approval_request_id", STRING), ("approve", _BOOLEAN)),
    "custom_tool_call": (("call_id", STRING), ("input", STRING), ("name", STRING)),
    "custom_tool_call_output": (
        ("call_id", STRING),
        ("output", _TEXT_OR_ARRAY),
        ("status", STRING),
    ),
}
"""Each output item ``type`` the vendor documents, and its required fields besides ``id``."""


def check_fields(
    failures: OpenAIFailures,
    fields: Fields,
    value: dict[str, Any],
    index: int,
    path: str,
    owner: str,
) -> None:
    """Check that ``value`` (``path`` of event ``index``, an ``owner``) holds ``fields``.

    Raises ``VENDOR_INVALID_EVENT`` naming the first field that is absent
    or of another JSON type (an integer is never a ``bool``).
    """
    for key, expected in fields:
        if key not in value:
            failures.fail_invalid(f"{path}.{key} is missing: every {owner} has one", index)
        types = _TYPES.get(expected)
        if types is not None and type(value[key]) not in types:
            failures.invalid(index, f"{path}.{key}", expected, value[key])


def check_envelope(
    failures: OpenAIFailures, kind: str, item: dict[str, Any], index: int, path: str
) -> None:
    """Check that ``item`` (at ``path`` of event ``index``) holds the envelope of ``kind``.

    ``kind`` is a key of `ENVELOPES`. Raises ``VENDOR_INVALID_EVENT`` as
    `check_fields` does.
    """
    check_fields(failures, ENVELOPES[kind], item, index, path, f"{kind!r} item")
