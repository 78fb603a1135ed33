"""A chunk's ``usageMetadata`` and ``promptFeedback``, read strictly.

``usageMetadata`` comes on (nearly) every chunk and is cumulative, so the
grammar checks each one as it passes and keeps the last: `check_usage`
checks without building anything, `usage_of` builds the `GeminiUsage` of
the one kept. Fields the API does not document (``serviceTier``) are
passed over, as the SDK passes them over.
"""

from __future__ import annotations

from typing import Any, Final

from course_protocol.untrusted import MAX_TOKEN_COUNT
from course_provider_gemini._reads import (
    count_at,
    frozen_array,
    invalid,
    optional_text,
)
from course_provider_gemini._result import GeminiModalityCount, GeminiPromptFeedback, GeminiUsage

__all__ = ["check_usage", "prompt_feedback", "usage_of"]

_COUNTS: Final = frozenset(
    {
        "promptTokenCount",
        "candidatesTokenCount",
        "totalTokenCount",
        "thoughtsTokenCount",
        "cachedContentTokenCount",
        "toolUsePromptTokenCount",
    }
)
_DETAILS: Final = frozenset(
    {
        "promptTokensDetails",
        "candidatesTokensDetails",
        "cacheTokensDetails",
        "toolUsePromptTokensDetails",
    }
)


def check_usage(usage: object, index: int) -> None:
    """Check the ``usageMetadata`` of event ``index``: every count, details list, traffic type.

    Raises `VendorError` ``VENDOR_INVALID_EVENT`` naming the field for a
    usage that is not an object, a count that is not an integer from 0 to
    2**53 - 1, a details list that is not an array of ``{modality,
    tokenCount}`` objects, a ``trafficType`` that is not a string.
    """
    if type(usage) is dict and usage.keys() <= _COUNTS:
        # The usage of nearly every chunk: counts alone, each in range.
        for value in usage.values():
            if type(value) is not int or not 0 <= value <= MAX_TOKEN_COUNT:
                break
        else:
            return
    if type(usage) is not dict:
        invalid(index, "usageMetadata", "an object", usage)
    for key, value in usage.items():
        if value is None:
            continue
        if key in _COUNTS:
            count_at(usage, key, index, f"usageMetadata.{key}")
        elif key in _DETAILS:
            _check_details(value, f"usageMetadata.{key}", index)
        elif key == "trafficType" and type(value) is not str:
            invalid(index, f"usageMetadata.{key}", "a string", value)


def _check_details(details: object, path: str, index: int) -> None:
    if type(details) is not list:
        invalid(index, path, "an array", details)
    for number, entry in enumerate(details):
        if type(entry) is not dict:
            invalid(index, f"{path}[{number}]", "an object", entry)
        optional_text(entry, "modality", index, f"{path}[{number}].modality")
        count_at(entry, "tokenCount", index, f"{path}[{number}].tokenCount")


def _details(value: Any) -> tuple[GeminiModalityCount, ...] | None:
    if value is None:
        return None
    return tuple(
        GeminiModalityCount(entry.get("modality"), entry.get("tokenCount")) for entry in value
    )


def usage_of(usage: dict[str, Any]) -> GeminiUsage:
    """The `GeminiUsage` of a ``usageMetadata`` that `check_usage` accepted."""
    return GeminiUsage(
        usage.get("promptTokenCount"),
        usage.get("candidatesTokenCount"),
        usage.get("totalTokenCount"),
        usage.get("thoughtsTokenCount"),
        usage.get("cachedContentTokenCount"),
        usage.get("toolUsePromptTokenCount"),
        _details(usage.get("promptTokensDetails")),
        _details(usage.get("candidatesTokensDetails")),
        _details(usage.get("cacheTokensDetails")),
        _details(usage.get("toolUsePromptTokensDetails")),
        usage.get("trafficType"),
    )


def prompt_feedback(feedback: object, index: int) -> GeminiPromptFeedback:
    """The ``promptFeedback`` of event ``index``: its block reason, message and safety ratings.

    Raises ``VENDOR_INVALID_EVENT`` for a feedback that is not an object, a
    ``blockReason`` that is not a non-blank string, a ``blockReasonMessage``
    that is not a string, ``safetyRatings`` that are not an array of objects.
    """
    if type(feedback) is not dict:
        invalid(index, "promptFeedback", "an object", feedback)
    reason = optional_text(
        feedback, "blockReason", index, "promptFeedback.blockReason", non_blank=True
    )
    message = optional_text(
        feedback, "blockReasonMessage", index, "promptFeedback.blockReasonMessage"
    )
    ratings = feedback.get("safetyRatings")
    return GeminiPromptFeedback(
        reason,
        message,
        () if ratings is None else frozen_array(ratings, index, "promptFeedback.safetyRatings"),
    )
