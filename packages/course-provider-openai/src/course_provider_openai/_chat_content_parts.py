"""Mistral's ``delta.content`` as an array of typed parts, read strictly and read back.

A part is ``text``, ``thinking`` (an array of ``text`` and ``reference``
parts, and a ``closed`` flag) or ``reference`` (the ids of the sources a text
drew on, which the port does not carry), as its SDK's ``TextChunk``,
``ThinkChunk`` and ``ReferenceChunk`` spell them. `read_content_parts` is the
grammar's read; `parts_text` and `parts_reasoning` read a validated array back
for the mapping.
"""

from __future__ import annotations

from typing import Any, Final, NoReturn

from course_http import VendorErrorCode
from course_protocol.untrusted import shown
from course_provider_openai._chat_reads import choice_path
from course_provider_openai._failures import OpenAIFailures
from course_vendor import TextPieces

__all__ = ["parts_reasoning", "parts_text", "read_content_parts"]

_TEXT_PART: Final = "text"
_THINKING_PART: Final = "thinking"
_REFERENCE_PART: Final = "reference"


def read_content_parts(
    failures: OpenAIFailures,
    parts: list[Any],
    text: TextPieces,
    reasoning: TextPieces,
    index: int,
    position: int,
) -> None:
    """Read a ``delta.content`` array: ``text`` parts into ``text``, ``thinking`` into reasoning.

    A ``thinking`` part holds an array of ``text`` and ``reference`` parts
    under ``thinking`` (and may say ``closed``); a ``reference`` part, here
    or inside one, holds ``reference_ids``, an array of non-negative
    integers, and no text. Raises ``VENDOR_INVALID_EVENT`` for a part that
    is not an object, a text that is not a string, ids that are not such an
    array or a ``closed`` that is not a boolean; ``VENDOR_UNKNOWN_EVENT``
    for another part type.
    """
    # The short path takes text parts and thinking parts of text parts alone,
    # holding what it read until every part passed; any other part (a
    # reference, one off the form) takes the full read from the start, which
    # keeps what is valid and names the path of what is not.
    texts: list[str] = []
    thoughts: list[str] = []
    for part in parts:
        kind = part.get("type") if type(part) is dict else None
        if kind == _TEXT_PART:
            value = part.get("text")
            if type(value) is not str:
                break
            texts.append(value)
        elif kind == _THINKING_PART and _plain_thoughts(part, thoughts):
            continue
        else:
            break
    else:
        for value in texts:
            text.append(value)
        for value in thoughts:
            reasoning.append(value)
        return
    _checked_parts(failures, parts, text, reasoning, index, position)


def _plain_thoughts(part: dict[str, Any], thoughts: list[str]) -> bool:
    """Add a ``thinking`` part's texts to ``thoughts``; ``False`` unless all are plain text parts.

    ``False`` also for a ``closed`` that is not a boolean or null: the full
    read names it.
    """
    closed = part.get("closed")
    inner = part.get("thinking")
    if (closed is not None and type(closed) is not bool) or type(inner) is not list:
        return False
    for thought in inner:
        if type(thought) is not dict or thought.get("type") != _TEXT_PART:
            return False
        value = thought.get("text")
        if type(value) is not str:
            return False
        thoughts.append(value)
    return True


def _checked_parts(
    failures: OpenAIFailures,
    parts: list[Any],
    text: TextPieces,
    reasoning: TextPieces,
    index: int,
    position: int,
) -> None:
    path = choice_path(position, "delta", "content")
    for number, part in enumerate(parts):
        at = f"{path}[{number}]"
        kind = _part_type(failures, part, index, at)
        if kind == _TEXT_PART:
            text.append(failures.text_at(part, "text", index, parent=at))
        elif kind == _THINKING_PART:
            _thinking(failures, part, reasoning, index, at)
        elif kind == _REFERENCE_PART:
            _reference(failures, part, index, at)
        else:
            _unknown_part(failures, kind, index, at)


def _thinking(
    failures: OpenAIFailures, part: dict[str, Any], reasoning: TextPieces, index: int, at: str
) -> None:
    closed = part.get("closed")
    if closed is not None and type(closed) is not bool:
        failures.invalid(index, f"{at}.closed", "a boolean or null", closed)
    thoughts = part.get("thinking")
    if type(thoughts) is not list:
        failures.invalid(index, f"{at}.thinking", "an array", thoughts)
    for inner, thought in enumerate(thoughts):
        within = f"{at}.thinking[{inner}]"
        inner_kind = _part_type(failures, thought, index, within)
        if inner_kind == _TEXT_PART:
            reasoning.append(failures.text_at(thought, "text", index, parent=within))
        elif inner_kind == _REFERENCE_PART:
            _reference(failures, thought, index, within)
        else:
            _unknown_part(failures, inner_kind, index, within)


def _reference(failures: OpenAIFailures, part: dict[str, Any], index: int, at: str) -> None:
    ids = part.get("reference_ids")
    if type(ids) is not list:
        failures.invalid(index, f"{at}.reference_ids", "an array of non-negative integers", ids)
    for number, source in enumerate(ids):
        if type(source) is not int or source < 0:
            failures.invalid(
                index, f"{at}.reference_ids[{number}]", "a non-negative integer", source
            )


def _part_type(failures: OpenAIFailures, part: object, index: int, path: str) -> str:
    if type(part) is not dict:
        failures.invalid(index, path, "an object", part)
    return failures.text_at(part, "type", index, parent=path)


def _unknown_part(failures: OpenAIFailures, kind: str, index: int, path: str) -> NoReturn:
    failures.fail(
        VendorErrorCode.VENDOR_UNKNOWN_EVENT,
        index,
        f"{path}.type {shown(kind)!r} is not a content part the server documents",
    )


def parts_text(content: list[Any]) -> str:
    """The answer text of a validated content-part array: its ``text`` parts joined."""
    return "".join(part["text"] for part in content if part["type"] == _TEXT_PART)


def parts_reasoning(content: list[Any]) -> str:
    """The reasoning of a validated content-part array: its ``thinking`` parts' texts joined."""
    return "".join(
        thought["text"]
        for part in content
        if part["type"] == _THINKING_PART
        for thought in part["thinking"]
        if thought["type"] == _TEXT_PART
    )
