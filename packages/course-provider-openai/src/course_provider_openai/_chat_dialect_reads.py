"""The Chat grammar's reads of what a compatible server's dialect adds to a choice's deltas.

Reasoning fields (``reasoning_content``, ``reasoning``), OpenRouter's
``reasoning_details``, Mistral's ``delta.content`` as an array of typed parts
(``text``, ``thinking``, and the ``reference`` its SDK's ``ThinkChunk`` may hold),
a finish sent again, and Azure's content-filter results. `StreamedChoice`
calls them only for what its `ChatDialect` declares; `ChatMapping` reads
the same validated values back with `delta_text` and `delta_reasoning`.
Each read raises
`course_http.VendorError` naming the path of the bad value:
``VENDOR_INVALID_EVENT`` for a value of the wrong type, ``VENDOR_UNKNOWN_EVENT``
for a part or detail type the server does not document.
"""

from __future__ import annotations

from typing import Any, Final, NoReturn, final

from course_http import VendorErrorCode
from course_protocol import JsonObject, freeze_json_object
from course_protocol.untrusted import ABSENT, shown
from course_provider_openai._chat_dialect import ChatDialect
from course_provider_openai._chat_reads import choice_path
from course_provider_openai._chat_result import ChatChoice
from course_provider_openai._failures import OpenAIFailures
from course_vendor import TextPieces

__all__ = [
    "DialectPieces",
    "delta_reasoning",
    "delta_text",
    "prompt_filters",
    "read_content_parts",
    "repeats_finish",
]

_DETAIL_TYPES: Final = frozenset({"reasoning.text", "reasoning.summary", "reasoning.encrypted"})
_TEXT_PART: Final = "text"
_THINKING_PART: Final = "thinking"
_REFERENCE_PART: Final = "reference"
"""Mistral's ``ReferenceChunk``: the ids of the sources a text drew on, which the port
does not carry."""
_EMPTY: Final[tuple[object, ...]] = (None, "", [])
"""What a repeated finish's delta may hold: nothing new."""


@final
class DialectPieces:
    """What a choice's deltas said beyond OpenAI's grammar: reasoning text and details."""

    __slots__ = ("_failures", "details", "filters", "reasoning")

    def __init__(self, failures: OpenAIFailures) -> None:
        self._failures = failures
        self.reasoning = TextPieces()
        self.details: list[JsonObject] = []
        self.filters: list[JsonObject] = []

    def read_filters(self, choice: dict[str, Any], index: int, position: int) -> None:
        """Read an Azure choice entry's ``content_filter_results`` (kept unless empty) and offsets.

        Raises ``VENDOR_INVALID_EVENT`` naming the path for results that are
        not an object, offsets that are not an object of non-negative
        integers, or a ``content_filter_raw`` that is not an array.
        """
        results = choice.get("content_filter_results")
        if results is not None:
            frozen = _frozen_object(
                self._failures, results, index, choice_path(position, "content_filter_results")
            )
            if frozen:
                self.filters.append(frozen)
        offsets = choice.get("content_filter_offsets")
        if offsets is not None:
            path = choice_path(position, "content_filter_offsets")
            if type(offsets) is not dict:
                self._failures.invalid(index, path, "an object or null", offsets)
            for key, value in offsets.items():
                if type(value) is not int or value < 0:
                    self._failures.invalid(index, f"{path}.{key}", "a non-negative integer", value)
        raw = choice.get("content_filter_raw")
        if raw is not None and type(raw) is not list:
            self._failures.invalid(
                index, choice_path(position, "content_filter_raw"), "an array or null", raw
            )

    def read_reasoning(
        self, delta: dict[str, Any], dialect: ChatDialect, index: int, position: int
    ) -> int:
        """Read ``delta``'s reasoning fields and details, as ``dialect`` declares them.

        Returns how many of those fields the delta has (null ones too), so
        that the caller knows whether it holds anything else. The first
        reasoning field the delta carries is its reasoning; each other one
        must still be text or null. Raises ``VENDOR_INVALID_EVENT`` for a
        field that is not, or for details that are not an array of objects;
        ``VENDOR_UNKNOWN_EVENT`` for a detail ``type`` OpenRouter does not
        document.
        """
        present = 0
        taken = False
        for field in dialect.reasoning_fields:
            value = delta.get(field, ABSENT)
            if value is ABSENT:
                continue
            present += 1
            if value is None:
                continue
            if type(value) is not str:
                self._failures.invalid(
                    index, choice_path(position, "delta", field), "a string or null", value
                )
            if not taken:
                self.reasoning.append(value)
                taken = True
        if dialect.reasoning_details:
            details = delta.get("reasoning_details", ABSENT)
            if details is not ABSENT:
                present += 1
                if details is not None:
                    path = choice_path(position, "delta", "reasoning_details")
                    self._details(details, index, path)
        return present

    def _details(self, details: object, index: int, path: str) -> None:
        if type(details) is not list:
            self._failures.invalid(index, path, "an array or null", details)
        for number, detail in enumerate(details):
            at = f"{path}[{number}]"
            if type(detail) is not dict:
                self._failures.invalid(index, at, "an object", detail)
            kind = self._failures.text_at(detail, "type", index, parent=at)
            if kind not in _DETAIL_TYPES:
                self._failures.fail(
                    VendorErrorCode.VENDOR_UNKNOWN_EVENT,
                    index,
                    f"{at}.type {shown(kind)!r} is not a reasoning detail OpenRouter documents",
                )
            self.details.append(_frozen_object(self._failures, detail, index, at))


def _frozen_object(failures: OpenAIFailures, value: object, index: int, path: str) -> JsonObject:
    if type(value) is not dict:
        failures.invalid(index, path, "an object or null", value)
    frozen = freeze_json_object(value, path)
    if not isinstance(frozen.value_or(None), dict):
        problem = frozen.failure()
        failures.fail_invalid(f"{problem.path}: {problem.message}", index)
    return frozen.unwrap()


def prompt_filters(
    failures: OpenAIFailures, value: object, index: int, path: str
) -> list[JsonObject]:
    """Azure's ``prompt_filter_results`` at ``path``: each prompt's results, frozen, in order.

    Raises ``VENDOR_INVALID_EVENT`` naming the path when ``value`` is not an
    array of objects, each with an integer ``prompt_index`` and an object
    ``content_filter_results``.
    """
    if type(value) is not list:
        failures.invalid(index, path, "an array or null", value)
    found = []
    for number, entry in enumerate(value):
        at = f"{path}[{number}]"
        if type(entry) is not dict:
            failures.invalid(index, at, "an object", entry)
        prompt = entry.get("prompt_index")
        if type(prompt) is not int or prompt < 0:
            failures.invalid(index, f"{at}.prompt_index", "a non-negative integer", prompt)
        failures.object_at(entry, "content_filter_results", index, parent=at)
        found.append(_frozen_object(failures, entry, index, at))
    return found


def read_content_parts(
    failures: OpenAIFailures,
    parts: list[Any],
    text: TextPieces,
    pieces: DialectPieces,
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
            pieces.reasoning.append(value)
        return
    _checked_parts(failures, parts, text, pieces, index, position)


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
    pieces: DialectPieces,
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
            _thinking(failures, part, pieces, index, at)
        elif kind == _REFERENCE_PART:
            _reference(failures, part, index, at)
        else:
            _unknown_part(failures, kind, index, at)


def _thinking(
    failures: OpenAIFailures, part: dict[str, Any], pieces: DialectPieces, index: int, at: str
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
            pieces.reasoning.append(failures.text_at(thought, "text", index, parent=within))
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


def repeats_finish(choice: dict[str, Any], closed: ChatChoice | None) -> bool:
    """Whether ``choice`` sends a finished choice's ``finish_reason`` again, with nothing new.

    Its delta may hold the assistant role and empty values only (``null``,
    ``""``, ``[]``); anything else is not a repeat (and off the grammar).
    """
    if closed is None or choice.get("finish_reason") != closed.finish_reason:
        return False
    delta = choice.get("delta")
    if type(delta) is not dict:
        return False
    return all(
        value in _EMPTY or (key == "role" and value == closed.role) for key, value in delta.items()
    )


def delta_text(content: str | list[Any]) -> str:
    """The answer text of a validated ``delta.content``: itself, or its ``text`` parts joined."""
    if isinstance(content, str):
        return content
    return "".join(part["text"] for part in content if part["type"] == _TEXT_PART)


def delta_reasoning(delta: dict[str, Any], dialect: ChatDialect) -> str:
    """The reasoning text of a validated delta, as ``dialect`` reads it (``""`` when none)."""
    for field in dialect.reasoning_fields:
        value = delta.get(field)
        if value is not None:
            return str(value)
    content = delta.get("content") if dialect.content_parts else None
    if type(content) is not list:
        return ""
    return "".join(
        thought["text"]
        for part in content
        if part["type"] == _THINKING_PART
        for thought in part["thinking"]
        if thought["type"] == _TEXT_PART
    )
