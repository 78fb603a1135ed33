"""Properties of both request conversions over every valid (and any) course transcript.

The rich transcripts (images, documents, reasoning, vendor tools, citations
and opaque data of several wires) go through what a model call runs, the
kit's check then the body: either the body sends nothing of another wire
and every image and document given, with the strict Tools and the response
format configured, or the call is refused as an invalid request naming the
block.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import Phase, find, given, settings
from hypothesis import strategies as st

from course_protocol import (
    CourseMessage,
    CourseModelRequest,
    CourseResponseFormat,
    CourseToolCall,
    CourseToolSpec,
    is_blank,
    thaw_json,
    to_json,
    validate_transcript,
)
from course_provider_openai import OpenAIConfig, chat_request_body, responses_request_body
from tests.course_protocol import strategies
from tests.course_provider_openai.plain import assert_plain_json
from tests.course_provider_openai.transcripts import valid_transcripts
from tests.course_vendor.rich_transcripts import (
    leaked_marks,
    media_blocks,
    rich_transcripts,
    sent_body,
    sent_or_refused,
)

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


BUILDERS: dict[str, Callable[[CourseModelRequest, OpenAIConfig], dict[str, object]]] = {
    "openai-chat": chat_request_body,
    "openai-responses": responses_request_body,
}
rich_configs = st.builds(
    OpenAIConfig,
    model=strategies.ids,
    tools=st.lists(
        st.builds(
            CourseToolSpec,
            strategies.ids,
            strategies.texts,
            strategies.json_objects,
            strict=st.booleans(),
        ),
        max_size=3,
        unique_by=lambda tool: tool.name,
    ).map(tuple),
    response_format=st.none()
    | st.builds(
        CourseResponseFormat, strategies.ids, strategies.json_objects, strict=st.booleans()
    ),
    store=st.booleans(),
)


def converted(wire: str, request: CourseModelRequest, config: OpenAIConfig) -> object:
    """What a model call of ``wire`` makes of ``request``: the kit's check, then the body."""
    return sent_or_refused(request, wire, lambda active: BUILDERS[wire](active, config))


def sent_media(block: object) -> str:
    """How an image or document given by URL or as bytes shows in a body's JSON text."""
    data = getattr(block, "data", None)
    return str(getattr(block, "url", "")) if data is None else base64.b64encode(data).decode()


def strict_flags(wire: str, body: dict[str, Any]) -> list[bool]:
    if wire == "openai-chat":
        return [tool["function"].get("strict", False) for tool in body.get("tools", ())]
    return [tool["strict"] for tool in body.get("tools", ()) if tool["type"] == "function"]


def has_format(wire: str, body: dict[str, Any]) -> bool:
    if wire == "openai-chat":
        return "response_format" in body
    return "format" in body.get("text", {})


@pytest.mark.parametrize("wire", sorted(BUILDERS))
@given(config=rich_configs, messages=rich_transcripts())
def test_a_rich_transcript_is_sent_with_nothing_of_another_wire_or_refused_naming_its_block(
    wire: str, config: OpenAIConfig, messages: tuple[CourseMessage, ...]
) -> None:
    outcome = sent_body(converted(wire, CourseModelRequest("request-1", messages), config), wire)

    if outcome is None:
        return
    assert_plain_json(outcome)
    text = json.dumps(outcome)
    assert all(sent_media(block) in text for block in media_blocks(messages))
    assert strict_flags(wire, outcome) == [tool.strict for tool in config.tools]
    assert has_format(wire, outcome) is (config.response_format is not None)


@pytest.mark.parametrize("wire", sorted(BUILDERS))
def test_the_rich_transcripts_reach_a_sent_body_with_media_and_another_wires_data(
    wire: str,
) -> None:
    def sent_with_both(messages: tuple[CourseMessage, ...]) -> bool:
        outcome = converted(wire, CourseModelRequest("request-1", messages), OpenAIConfig("m"))
        given_foreign = leaked_marks([to_json(message) for message in messages], wire)
        return isinstance(outcome, dict) and bool(media_blocks(messages)) and bool(given_foreign)

    only_generate = settings(database=None, max_examples=2_000, phases=[Phase.generate])
    find(rich_transcripts(), sent_with_both, settings=only_generate)
