"""The Chat grammar's reads of what a compatible server's dialect adds to a choice's deltas.

Reasoning fields (``reasoning_content``, ``reasoning``), a finish sent again,
and Azure's content-filter results (Mistral's content-part arrays are
`_chat_content_parts`'s, OpenRouter's ``reasoning_details``
`_chat_reasoning_details`'s). `StreamedChoice`
calls them only for what its `ChatDialect` declares. Each read raises
`course_http.VendorError` naming the path of the bad value:
``VENDOR_INVALID_EVENT`` for a value of the wrong type, ``VENDOR_UNKNOWN_EVENT``
for a part or detail type the server does not document.
"""

from __future__ import annotations

from typing import Any, Final, final

from course_protocol import JsonObject, first_json_difference
from course_protocol.untrusted import ABSENT
from course_provider_openai._chat_dialect import ChatDialect
from course_provider_openai._chat_reads import choice_path
from course_provider_openai._chat_reasoning_details import ReasoningDetails
from course_provider_openai._chat_result import ChatChoice
from course_provider_openai._failures import OpenAIFailures
from course_vendor import TextPieces

__all__ = [
    "DialectPieces",
    "prompt_filters",
    "repeats_finish",
]

_EMPTY: Final[tuple[object, ...]] = (None, "", [])
"""What a repeated finish's delta may hold: nothing new."""


@final
class DialectPieces:
    """What a choice's deltas said beyond OpenAI's grammar: reasoning text and details."""

    __slots__ = ("_failures", "details", "filters", "reasoning")

    def __init__(self, failures: OpenAIFailures) -> None:
        self._failures = failures
        self.reasoning = TextPieces()
        self.details = ReasoningDetails(failures)
        self.filters: list[JsonObject] = []

    def read_filters(self, choice: dict[str, Any], index: int, position: int) -> None:
        """Read an Azure choice entry's ``content_filter_results`` (kept unless empty) and offsets.

        Results that are the same JSON as the last results kept are kept as
        that same frozen object: a long answer's repeated results cost a
        reference each (the Azure Chat peak-memory row of benchmarks/README.md,
        "Dialects and Azure").

        Raises ``VENDOR_INVALID_EVENT`` naming the path for results that are
        not an object, offsets that are not an object of non-negative
        integers, or a ``content_filter_raw`` that is not an array.
        """
        results = choice.get("content_filter_results")
        if results is not None:
            path = choice_path(position, "content_filter_results")
            if type(results) is not dict:
                self._failures.invalid(index, path, "an object or null", results)
            if results:
                self.filters.append(self._kept_filters(results, index, path))
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

    def _kept_filters(self, results: dict[str, Any], index: int, path: str) -> JsonObject:
        # Azure repeats the same results on every annotation of a clean answer: the
        # same JSON (types included) as the last results kept is that frozen object again.
        filters = self.filters
        if filters and first_json_difference(filters[-1], results) is None:
            return filters[-1]
        return self._failures.frozen_object(results, index, path)

    def read_reasoning(
        self, delta: dict[str, Any], dialect: ChatDialect, index: int, position: int
    ) -> tuple[int, str]:
        """Read ``delta``'s reasoning fields and details, as ``dialect`` declares them.

        Returns how many of those fields the delta has (null ones too), so
        that the caller knows whether it holds anything else, and the
        delta's reasoning (``""`` when none). The first
        reasoning field the delta carries is its reasoning; each other one
        must still be text or null. Raises ``VENDOR_INVALID_EVENT`` for a
        field that is not, or for details that are not an array of objects;
        and what `ReasoningDetails.read` raises for its details.
        """
        present = 0
        taken: str | None = None
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
            if taken is None:
                self.reasoning.append(value)
                taken = value
        if dialect.reasoning_details:
            details = delta.get("reasoning_details", ABSENT)
            if details is not ABSENT:
                present += 1
                if details is not None:
                    self.details.read(details, index, position)
        return present, taken or ""


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
        found.append(failures.frozen_object(entry, index, at))
    return found


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
