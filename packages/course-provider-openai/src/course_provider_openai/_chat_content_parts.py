"""Mistral's ``delta.content`` as an array of typed parts, read strictly and read back.

A part is ``text``, ``thinking`` (an array of ``text`` and ``reference``
parts, and a ``closed`` flag) or ``reference`` (the ids of the sources a text
drew on, which the port does not carry), as its SDK's ``TextChunk``,
``ThinkChunk`` and ``ReferenceChunk`` spell them. `read_content_parts` is the
grammar's read, which says what the array held: its text and its reasoning.
"""

from __future__ import annotations

from typing import Any, Final, NoReturn

from course_http import VendorErrorCode
from course_protocol.untrusted import shown
from course_provider_openai._chat_reads import choice_path
from course_provider_openai._failures import OpenAIFailures

__all__ = ["read_content_parts"]

_TEXT_PART: Final = "text"
_THINKING_PART: Final = "thinking"
_REFERENCE_PART: Final = "reference"


def read_content_parts(
    failures: OpenAIFailures, parts: list[Any], index: int, position: int
) -> tuple[str, str]:
    """Read a ``delta.content`` array; return its ``text`` parts' text and its reasoning, joined.

    The reasoning is the text of the ``text`` parts inside its ``thinking``
    parts.

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
        return "".join(texts), "".join(thoughts)
    return _checked_parts(failures, parts, index, position)


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
    failures: OpenAIFailures, parts: list[Any], index: int, position: int
) -> tuple[str, str]:
    path = choice_path(position, "delta", "content")
    texts: list[str] = []
    thoughts: list[str] = []
    for number, part in enumerate(parts):
        at = f"{path}[{number}]"
        kind = _part_type(failures, part, index, at)
        if kind == _TEXT_PART:
            texts.append(failures.text_at(part, "text", index, parent=at))
        elif kind == _THINKING_PART:
            _thinking(failures, part, thoughts, index, at)
        elif kind == _REFERENCE_PART:
            _reference(failures, part, index, at)
        else:
            _unknown_part(failures, kind, index, at)
    return "".join(texts), "".join(thoughts)


def _thinking(
    failures: OpenAIFailures, part: dict[str, Any], thoughts: list[str], index: int, at: str
) -> None:
    closed = part.get("closed")
    if closed is not None and type(closed) is not bool:
        failures.invalid(index, f"{at}.closed", "a boolean or null", closed)
    inner_parts = part.get("thinking")
    if type(inner_parts) is not list:
        failures.invalid(index, f"{at}.thinking", "an array", inner_parts)
    for inner, thought in enumerate(inner_parts):
        within = f"{at}.thinking[{inner}]"
        inner_kind = _part_type(failures, thought, index, within)
        if inner_kind == _TEXT_PART:
            thoughts.append(failures.text_at(thought, "text", index, parent=within))
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
