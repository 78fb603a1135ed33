"""The Chat grammar's reads of the values beside the text: usage, log probabilities, moderation,
annotations.

`choice_path` names a value of a choice in the messages of every part.

Each reads one untrusted value of a chunk into its `_chat_result` value or
raises `course_http.VendorError` (through the wire's ``failures``) naming the path of
the bad value: ``VENDOR_INVALID_EVENT`` for a missing field or one of the
wrong type, ``VENDOR_UNKNOWN_EVENT`` for a moderation ``type`` OpenAI does
not document.
"""

from __future__ import annotations

from typing import Any, Final

from course_http import VendorErrorCode
from course_protocol import JsonObject
from course_protocol.untrusted import shown
from course_provider_openai._chat_result import ChatTokenLogprob, ChatUsage
from course_provider_openai._failures import OpenAIFailures
from course_vendor import is_token_count, token_count

__all__ = [
    "chat_usage",
    "check_chat_usage",
    "choice_path",
    "moderation",
    "token_logprobs",
    "url_citations",
]

_MODERATION_TYPES: Final = frozenset({"moderation_results", "error"})
_URL_CITATION: Final = "url_citation"
"""The one annotation type OpenAI documents on a message (``ChatCompletionMessage.annotations``)."""
_NO_TOP: tuple[ChatTokenLogprob, ...] = ()
_COUNT_KEYS: Final = 3
"""How many keys a usage object of the three counts alone has."""


def choice_path(position: int, *fields: str) -> str:
    """The path of a value in the choice at ``position`` of a chunk (``choices[0].delta.content``).

    Built for a failure's message, never on the passing path.
    """
    return f"choices[{position}]" + "".join(f".{field}" for field in fields)


def _count(failures: OpenAIFailures, value: object, index: int, path: str) -> int:
    return token_count(value, vendor=failures.vendor, index=index, path=path)


def _details(
    failures: OpenAIFailures, usage: dict[str, Any], key: str, index: int
) -> dict[str, Any]:
    details = usage.get(key)
    if details is None:
        return {}
    if type(details) is not dict:
        failures.invalid(index, f"usage.{key}", "an object or null", details)
    return details


def _optional_count(
    failures: OpenAIFailures, details: dict[str, Any], key: str, index: int, parent: str
) -> int | None:
    value = details.get(key)
    return None if value is None else _count(failures, value, index, f"usage.{parent}.{key}")


def chat_usage(failures: OpenAIFailures, usage: object, index: int) -> ChatUsage:
    """The usage object of chunk ``index``: the three counts, then each detail count sent.

    Raises ``VENDOR_INVALID_EVENT`` naming the path (``usage.prompt_tokens``)
    when ``usage`` is not an object, a main count is missing or not a token
    count, a details object is not an object or null, or a detail count is
    not a token count or null.
    """
    prompt, completion, (prompt_tokens, completion_tokens, total_tokens) = _main_counts(
        failures, usage, index
    )
    if not prompt and not completion:
        # No detail count to read: a server that sends usage on every chunk pays for none.
        return ChatUsage(prompt_tokens, completion_tokens, total_tokens)
    return ChatUsage(
        prompt_tokens,
        completion_tokens,
        total_tokens,
        cached_tokens=_optional_count(
            failures, prompt, "cached_tokens", index, "prompt_tokens_details"
        ),
        prompt_audio_tokens=_optional_count(
            failures, prompt, "audio_tokens", index, "prompt_tokens_details"
        ),
        reasoning_tokens=_optional_count(
            failures, completion, "reasoning_tokens", index, "completion_tokens_details"
        ),
        completion_audio_tokens=_optional_count(
            failures, completion, "audio_tokens", index, "completion_tokens_details"
        ),
        accepted_prediction_tokens=_optional_count(
            failures, completion, "accepted_prediction_tokens", index, "completion_tokens_details"
        ),
        rejected_prediction_tokens=_optional_count(
            failures, completion, "rejected_prediction_tokens", index, "completion_tokens_details"
        ),
    )


def check_chat_usage(failures: OpenAIFailures, usage: object, index: int) -> None:
    """Check chunk ``index``'s usage object as `chat_usage` reads it, building nothing.

    For a server that sends its usage so far on every chunk: each chunk's
    counts are checked where they come, and only the last one is built
    (building a `ChatUsage` costs about as much as reading its chunk).
    Raises as `chat_usage`.
    """
    # The short path: three counts and no details object, as such a server sends
    # on every chunk; anything else (and anything wrong) takes the whole read.
    if (
        type(usage) is dict
        and len(usage) == _COUNT_KEYS
        and is_token_count(usage.get("prompt_tokens"))
        and is_token_count(usage.get("completion_tokens"))
        and is_token_count(usage.get("total_tokens"))
    ):
        return
    chat_usage(failures, usage, index)


def _main_counts(
    failures: OpenAIFailures, usage: object, index: int
) -> tuple[dict[str, Any], dict[str, Any], tuple[int, int, int]]:
    """The two details objects of a usage object (``{}`` for none), and its three counts."""
    if type(usage) is not dict:
        failures.invalid(index, "usage", "an object or null", usage)
    prompt = _details(failures, usage, "prompt_tokens_details", index)
    completion = _details(failures, usage, "completion_tokens_details", index)
    counts = (
        _count(failures, usage.get("prompt_tokens"), index, "usage.prompt_tokens"),
        _count(failures, usage.get("completion_tokens"), index, "usage.completion_tokens"),
        _count(failures, usage.get("total_tokens"), index, "usage.total_tokens"),
    )
    return prompt, completion, counts


def _token_bytes(
    failures: OpenAIFailures, value: object, index: int, path: str
) -> tuple[int, ...] | None:
    if value is None:
        return None
    if type(value) is not list:
        failures.invalid(index, path, "an array of bytes or null", value)
    for position, byte in enumerate(value):
        if type(byte) is not int or not 0 <= byte <= 255:
            failures.invalid(index, f"{path}[{position}]", "an integer from 0 to 255", byte)
    return tuple(value)


def _token_logprob(
    failures: OpenAIFailures, entry: object, index: int, path: str, *, top: bool
) -> ChatTokenLogprob:
    if type(entry) is not dict:
        failures.invalid(index, path, "an object", entry)
    token = failures.text_at(entry, "token", index, parent=path)
    logprob = entry.get("logprob")
    if type(logprob) is not float and type(logprob) is not int:
        failures.invalid(index, f"{path}.logprob", "a number", logprob)
    token_bytes = _token_bytes(failures, entry.get("bytes"), index, f"{path}.bytes")
    if top:
        return ChatTokenLogprob(token, float(logprob), token_bytes, _NO_TOP)
    tops = entry.get("top_logprobs")
    if type(tops) is not list:
        failures.invalid(index, f"{path}.top_logprobs", "an array", tops)
    return ChatTokenLogprob(
        token,
        float(logprob),
        token_bytes,
        tuple(
            _token_logprob(failures, item, index, f"{path}.top_logprobs[{position}]", top=True)
            for position, item in enumerate(tops)
        ),
    )


def token_logprobs(
    failures: OpenAIFailures, value: object, index: int, path: str
) -> list[ChatTokenLogprob] | None:
    """``logprobs.content`` or ``logprobs.refusal`` at ``path``: its tokens, ``None`` for null.

    Raises ``VENDOR_INVALID_EVENT`` naming the path of the first bad value (a
    token that is not text, a log probability that is not a number, a byte
    outside 0-255, a missing ``top_logprobs``).
    """
    if value is None:
        return None
    if type(value) is not list:
        failures.invalid(index, path, "an array or null", value)
    return [
        _token_logprob(failures, entry, index, f"{path}[{position}]", top=False)
        for position, entry in enumerate(value)
    ]


def moderation(failures: OpenAIFailures, value: object, index: int) -> JsonObject:
    """A chunk's ``moderation`` object, its ``input`` and ``output`` results checked, frozen.

    Each of ``input`` and ``output`` must be an object whose ``type`` is
    ``moderation_results`` or ``error``; the rest is kept as the vendor sent
    it. Raises ``VENDOR_INVALID_EVENT`` for a missing or mistyped part (or
    one nested past the JSON limit), ``VENDOR_UNKNOWN_EVENT`` for another ``type``.
    """
    if type(value) is not dict:
        failures.invalid(index, "moderation", "an object or null", value)
    for side in ("input", "output"):
        part = failures.object_at(value, side, index, parent="moderation")
        kind = failures.text_at(part, "type", index, parent=f"moderation.{side}")
        if kind not in _MODERATION_TYPES:
            failures.fail(
                VendorErrorCode.VENDOR_UNKNOWN_EVENT,
                index,
                f"moderation.{side}.type {shown(kind)!r} is not a moderation result OpenAI sends",
            )
    return failures.frozen_object(value, index, "moderation")


def url_citations(
    failures: OpenAIFailures, value: object, index: int, path: str
) -> list[JsonObject]:
    """``delta.annotations`` at ``path``: each URL citation checked, frozen, in order.

    OpenAI's search models stream the message's ``annotations`` on a delta
    (the official SDKs' chunk type does not declare the field; the message
    type does). Each entry is ``{"type": "url_citation", "url_citation":
    {"url", "title", "start_index", "end_index"}}``; the rest of an entry is
    kept as the vendor sent it. Raises ``VENDOR_INVALID_EVENT`` naming the
    path of the first bad value, ``VENDOR_UNKNOWN_EVENT`` for another ``type``.
    """
    if type(value) is not list:
        failures.invalid(index, path, "an array or null", value)
    read: list[JsonObject] = []
    for position, entry in enumerate(value):
        where = f"{path}[{position}]"
        if type(entry) is not dict:
            failures.invalid(index, where, "an object", entry)
        kind = failures.text_at(entry, "type", index, parent=where)
        if kind != _URL_CITATION:
            failures.fail(
                VendorErrorCode.VENDOR_UNKNOWN_EVENT,
                index,
                f"{where}.type {shown(kind)!r} is not an annotation OpenAI documents",
            )
        citation = failures.object_at(entry, _URL_CITATION, index, parent=where)
        cited = f"{where}.{_URL_CITATION}"
        failures.text_at(citation, "url", index, parent=cited, non_blank=True)
        failures.text_at(citation, "title", index, parent=cited)
        for bound in ("start_index", "end_index"):
            _count(failures, citation.get(bound), index, f"{cited}.{bound}")
        read.append(failures.frozen_object(entry, index, where))
    return read
