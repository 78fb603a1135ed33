"""Driving a dialect's `ChatGrammar` and `ChatMapping` over our own bodies (the dialect tests)."""

from __future__ import annotations

from course_http import SseEvent, VendorError
from course_provider_openai import ChatDialect, ChatGrammar, ChatMapping, ChatResult
from tests.course_provider_openai.bodies import chat_events, chunk
from tests.course_provider_openai.driving import Replay, replay

__all__ = ["COUNTS", "ROLE", "fold_events", "folded", "mapped", "read", "refused"]

ROLE = chunk({"role": "assistant", "content": ""})
COUNTS = {"prompt_tokens": 12, "completion_tokens": 7, "total_tokens": 19}


def fold_events(dialect: ChatDialect, events: list[SseEvent]) -> ChatResult | VendorError:
    """Feed every event to a fresh grammar of ``dialect``, then end it: its result, or its error."""
    grammar = ChatGrammar(dialect)
    try:
        for index, event in enumerate(events):
            grammar.feed(event, index)
        return grammar.end(len(events))
    except VendorError as error:
        return error


def folded(dialect: ChatDialect, *payloads: object) -> ChatResult | VendorError:
    """`fold_events` over the body of ``payloads``."""
    return fold_events(dialect, chat_events(*payloads))


def read(dialect: ChatDialect, *payloads: object) -> ChatResult:
    """What ``dialect``'s grammar reads of the body of ``payloads``, which it must accept."""
    result = folded(dialect, *payloads)
    assert type(result) is ChatResult, result
    return result


def refused(dialect: ChatDialect, *payloads: object) -> VendorError:
    """The error ``dialect``'s grammar refuses the body of ``payloads`` with, in its wire's name."""
    error = folded(dialect, *payloads)
    assert type(error) is VendorError, error
    assert error.vendor == dialect.wire
    return error


def mapped(dialect: ChatDialect, *payloads: object) -> Replay:
    """``dialect``'s mapping played over the body of ``payloads``."""
    return replay(ChatMapping("request-1", dialect), chat_events(*payloads))
