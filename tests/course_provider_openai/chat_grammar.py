"""Driving `ChatGrammar` over our own bodies: the fold by hand and `judge_body`, which agree."""

from __future__ import annotations

from course_http import SseEvent, VendorError
from course_provider_openai import CHAT_PLUGIN, OPENAI_CHAT, ChatResult
from course_vendor import judge_body
from tests.course_provider_openai.bodies import chat_events
from tests.course_provider_openai.dialect_grammar import fold_events
from tests.course_vendor.wire import sse_bytes

__all__ = ["folded", "read", "refused"]


def folded(events: list[SseEvent]) -> ChatResult | VendorError:
    """Feed every event to a fresh OpenAI grammar, then end it: its result, or its error."""
    return fold_events(OPENAI_CHAT, events)


def _judged(events: list[SseEvent]) -> ChatResult | VendorError:
    verdict = judge_body(CHAT_PLUGIN, sse_bytes(events))
    result: ChatResult | VendorError = verdict.value_or(None) or verdict.failure()
    return result


def read(*payloads: object) -> ChatResult:
    """The fold's result for the body of ``payloads``; `judge_body` of its bytes gives it too."""
    events = chat_events(*payloads)
    result = folded(events)
    assert type(result) is ChatResult, result
    assert _judged(events) == result
    return result


def refused(events: list[SseEvent]) -> VendorError:
    """The error the grammar refuses ``events`` with; `judge_body` of their bytes says the same."""
    error = folded(events)
    assert type(error) is VendorError, error
    judged = _judged(events)
    assert type(judged) is VendorError
    assert (judged.code, judged.event_index, judged.message) == (
        error.code,
        error.event_index,
        error.message,
    )
    assert error.vendor == "openai-chat"
    assert error.message.startswith(f"event {error.event_index}: ")
    return error
