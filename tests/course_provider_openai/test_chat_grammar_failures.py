"""ChatGrammar: every rule broken once fails at its event with its code, and the grammar is spent.

The cases are `tests.course_provider_openai.chat_failures.GRAMMAR_FAILURES`;
each is judged by the fold and by `judge_body` from its bytes, which must
give the same error (`refused`).
"""

from __future__ import annotations

import pytest

from course_http import SseEvent, VendorError, VendorErrorCode
from course_provider_openai import ChatGrammar
from tests.course_provider_openai.bodies import chat_text_stream, finish, text
from tests.course_provider_openai.chat_failures import GRAMMAR_FAILURES, frames
from tests.course_provider_openai.chat_grammar import refused


@pytest.mark.parametrize(
    ("payloads", "code", "event_index"),
    [case[1:] for case in GRAMMAR_FAILURES],
    ids=[case[0] for case in GRAMMAR_FAILURES],
)
def test_each_body_off_the_grammar_fails_with_its_code_at_its_event(
    payloads: list[object], code: VendorErrorCode, event_index: int
) -> None:
    error = refused(frames(payloads))

    assert (error.code, error.event_index) == (code, event_index), error.message


def test_the_names_of_the_cases_are_unique() -> None:
    names = [case[0] for case in GRAMMAR_FAILURES]
    assert len(names) == len(set(names))


def test_a_message_names_the_path_of_the_bad_value_and_never_echoes_it() -> None:
    secret = "sk-" + "x" * 40
    error = refused(
        frames([{"id": "c", "choices": [{"index": 0, "delta": {"content": [secret]}}]}])
    )

    assert error.message == (
        "event 0: choices[0].delta.content must be a string or null, got an array"
    )


def test_a_finish_reason_off_the_grammar_is_named_cut_to_a_safe_length() -> None:
    error = refused(frames([text("a"), finish("x" * 10_000)]))

    assert error.message.startswith("event 1: choices[0].finish_reason 'xxx")
    assert len(error.message) < 500


def test_the_grammar_is_spent_after_its_first_error() -> None:
    grammar = ChatGrammar()
    events = chat_text_stream("a")
    grammar.feed(events[0], 0)
    with pytest.raises(VendorError) as first:
        grammar.feed(SseEvent("message", "{not json"), 1)

    for index, event in enumerate(events[1:], start=2):
        with pytest.raises(VendorError) as again:
            grammar.feed(event, index)
        assert again.value is first.value
    with pytest.raises(VendorError) as ended:
        grammar.end(len(events) + 1)
    assert ended.value is first.value
    assert grammar.failure is first.value
    assert not grammar.finished
