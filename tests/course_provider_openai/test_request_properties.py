"""Properties of both request conversions over every valid (and any) course transcript."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import Phase, find, given, settings
from hypothesis import strategies as st

from course_protocol import (
    CourseMessage,
    CourseModelRequest,
    CourseToolCall,
    CourseToolSpec,
    is_blank,
    thaw_json,
    validate_transcript,
)
from course_provider_openai import OpenAIConfig, chat_request_body, responses_request_body
from tests.course_protocol import strategies
from tests.course_provider_openai.plain import assert_plain_json
from tests.course_provider_openai.transcripts import valid_transcripts

configs = st.builds(
    OpenAIConfig,
    model=strategies.ids,
    max_output_tokens=st.none() | st.integers(min_value=1, max_value=2**53 - 1),
    system_prompt=st.none() | strategies.texts.filter(lambda text: not is_blank(text)),
    tools=st.lists(
        st.builds(CourseToolSpec, strategies.ids, strategies.texts, strategies.json_objects),
        max_size=3,
        unique_by=lambda tool: tool.name,
    ).map(tuple),
)


def calls_of(messages: tuple[CourseMessage, ...]) -> dict[str, CourseToolCall]:
    return {
        block.id: block
        for message in messages
        for block in getattr(message, "content", ())
        if type(block) is CourseToolCall
    }


@given(valid_transcripts())
def test_the_generated_transcripts_are_valid(messages: tuple[CourseMessage, ...]) -> None:
    assert validate_transcript(messages) == ()


def test_the_generated_transcripts_reach_parallel_calls_and_error_results() -> None:
    def rich(messages: tuple[CourseMessage, ...]) -> bool:
        errors = [message for message in messages if getattr(message, "is_error", False)]
        return len(calls_of(messages)) >= 3 and bool(errors)

    # The first rich transcript is the one checked: shrinking it to a smaller
    # one (nine tenths of this test's time) would check nothing more.
    only_generate = settings(database=None, max_examples=2_000, phases=[Phase.generate])
    found = find(valid_transcripts(), rich, settings=only_generate)
    assert validate_transcript(found) == ()


@given(configs, valid_transcripts())
def test_every_valid_transcript_converts_to_chat_with_each_result_after_its_call(
    config: OpenAIConfig, messages: tuple[CourseMessage, ...]
) -> None:
    body = chat_request_body(CourseModelRequest("request-1", messages), config)

    assert_plain_json(body)
    converted: list[dict[str, Any]] = body["messages"]  # type: ignore[assignment]
    offset = 0 if config.system_prompt is None else 1
    assert len(converted) == len(messages) + offset
    calls = calls_of(messages)
    seen: set[str] = set()
    for entry in converted:
        for call in entry.get("tool_calls", ()):
            seen.add(call["id"])
            arguments = json.loads(call["function"]["arguments"])
            assert arguments == thaw_json(calls[call["id"]].arguments)
            assert call["function"]["name"] == calls[call["id"]].name
        if entry["role"] == "tool":
            assert entry["tool_call_id"] in seen, "a Tool result follows its call"
    assert seen == set(calls)


@given(configs, valid_transcripts())
def test_every_valid_transcript_converts_to_responses_with_each_output_after_its_call(
    config: OpenAIConfig, messages: tuple[CourseMessage, ...]
) -> None:
    body = responses_request_body(CourseModelRequest("request-1", messages), config)

    assert_plain_json(body)
    assert body["store"] is False
    calls = calls_of(messages)
    seen: set[str] = set()
    for item in body["input"]:  # type: ignore[attr-defined]
        if item["type"] == "function_call":
            seen.add(item["call_id"])
            assert json.loads(item["arguments"]) == thaw_json(calls[item["call_id"]].arguments)
        if item["type"] == "function_call_output":
            assert item["call_id"] in seen, "a Tool result follows its call"
    assert seen == set(calls)


@given(configs, strategies.requests)
def test_any_request_converts_without_error_whatever_its_pairing(
    config: OpenAIConfig, request: CourseModelRequest
) -> None:
    assert_plain_json(chat_request_body(request, config))
    assert_plain_json(responses_request_body(request, config))
