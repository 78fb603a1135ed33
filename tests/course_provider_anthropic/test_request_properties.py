"""Every transcript an agent loop builds converts; every body alternates and pairs its Tools.

Rich transcripts (images, documents, reasoning, vendor tools, citations and
opaque data of several wires) go through the wire's check then the body:
refused as an invalid request naming the block, or sent in alternating turns
of the API's block kinds with nothing of another wire and every image and
document given.
"""

from __future__ import annotations

import base64
import json
from itertools import pairwise
from typing import Any

from hypothesis import Phase, find, given, settings
from hypothesis import strategies as st

from course_http import VendorError, VendorErrorCode
from course_protocol import (
    CourseAssistantContent,
    CourseAssistantMessage,
    CourseDocumentBlock,
    CourseImageBlock,
    CourseMessage,
    CourseModelRequest,
    CourseResponseFormat,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseToolSpec,
    CourseUserMessage,
    is_blank,
    thaw_json,
    to_json,
    validate_transcript,
)
from course_provider_anthropic import WIRE, AnthropicConfig, messages_request_body
from course_provider_anthropic._content import VENDOR_BLOCK_KINDS
from course_vendor import check_sendable
from tests.course_protocol.strategies import ids, json_objects, requests, texts
from tests.course_vendor.rich_transcripts import (
    leaked_marks,
    media_blocks,
    rich_transcripts,
    sent_body,
    sent_or_refused,
)

CONFIG = AnthropicConfig(model="claude-test", max_output_tokens=64)
# Blank as the course protocol means it (ECMAScript white space), not str.strip's
# wider set: U+001F is text to the converter, and must be here too.
user_texts = texts.filter(lambda value: not is_blank(value))
assistant_texts = st.sampled_from(["", " ", "\n"]) | texts


@st.composite
def loop_transcripts(draw: st.DrawFn) -> list[CourseMessage]:
    """Transcripts as an agent loop builds them: each call's result follows its turn.

    Assistant messages may come two in a row, hold blank text, or end the
    transcript (a prefill); results come in any order, then maybe user text.
    """
    serial = iter(range(10_000))

    def next_id(prefix: str) -> str:
        return f"{prefix}-{next(serial)}"

    messages: list[CourseMessage] = [CourseUserMessage(next_id("u"), draw(user_texts))]
    call_ids = iter(draw(st.lists(ids, unique=True, min_size=12, max_size=12)))
    for _ in range(draw(st.integers(0, 4))):
        if draw(st.booleans()):
            texts_only: list[CourseAssistantContent] = [
                CourseTextBlock(draw(assistant_texts)) for _ in range(draw(st.integers(0, 2)))
            ]
            messages.append(CourseAssistantMessage(next_id("a"), texts_only))
        calls = [
            CourseToolCall(next(call_ids), draw(ids), draw(json_objects))
            for _ in range(draw(st.integers(0, 3)))
        ]
        spoken: list[CourseAssistantContent] = [
            CourseTextBlock(draw(assistant_texts)) for _ in range(draw(st.integers(0, 2)))
        ]
        messages.append(
            CourseAssistantMessage(next_id("a"), draw(st.permutations([*spoken, *calls])))
        )
        for call in draw(st.permutations(calls)):
            messages.append(
                CourseToolResultMessage(
                    next_id("r"), call.id, call.name, draw(texts), draw(st.booleans())
                )
            )
        if draw(st.booleans()):
            messages.append(CourseUserMessage(next_id("u"), draw(user_texts)))
    return messages


def check_body(body: dict[str, Any]) -> None:
    """The Messages API's rules for a body, checked independently of the converter."""
    assert json.loads(json.dumps(body)) == body
    assert (body["model"], body["max_tokens"], body["stream"]) == ("claude-test", 64, True)
    turns = body["messages"]
    assert turns
    assert turns[0]["role"] == "user"
    for before, after in pairwise(turns):
        assert before["role"] != after["role"]
    for position, turn in enumerate(turns):
        blocks = turn["content"]
        assert blocks
        kinds = [block["type"] for block in blocks]
        for block in blocks:
            if block["type"] == "text":
                assert not is_blank(block["text"])
        if turn["role"] == "assistant":
            assert set(kinds) <= {"text", "tool_use"}
            asked = [block["id"] for block in blocks if block["type"] == "tool_use"]
            answered: list[str] = []
            if position + 1 < len(turns):
                answered = [
                    block["tool_use_id"]
                    for block in turns[position + 1]["content"]
                    if block["type"] == "tool_result"
                ]
            assert sorted(asked) == sorted(answered)
        else:
            assert set(kinds) <= {"text", "tool_result"}
            results = kinds.count("tool_result")
            assert kinds[:results] == ["tool_result"] * results
            if results:
                made = {block.get("id") for block in turns[position - 1]["content"]}
                assert {block["tool_use_id"] for block in blocks[:results]} <= made


def flatten_course(messages: list[CourseMessage]) -> list[tuple[Any, ...]]:
    flat: list[tuple[Any, ...]] = []
    for message in messages:
        if type(message) is CourseUserMessage:
            flat.append(("text", message.content))
        elif type(message) is CourseToolResultMessage:
            flat.append(("result", message.tool_call_id, message.content, message.is_error))
        elif type(message) is CourseAssistantMessage:
            for block in message.content:
                if type(block) is CourseTextBlock and not is_blank(block.text):
                    flat.append(("text", block.text))
                elif type(block) is CourseToolCall:
                    flat.append(("call", block.id, block.name, thaw_json(block.arguments)))
    return flat


def flatten_body(body: dict[str, Any]) -> list[tuple[Any, ...]]:
    flat: list[tuple[Any, ...]] = []
    for turn in body["messages"]:
        for block in turn["content"]:
            if block["type"] == "text":
                flat.append(("text", block["text"]))
            elif block["type"] == "tool_result":
                flat.append(
                    ("result", block["tool_use_id"], block["content"], block.get("is_error", False))
                )
            else:
                flat.append(("call", block["id"], block["name"], block["input"]))
    return flat


@given(loop_transcripts())
def test_every_loop_transcript_converts_into_alternating_paired_turns(
    messages: list[CourseMessage],
) -> None:
    assert validate_transcript(messages) == ()

    body = messages_request_body(CourseModelRequest("request-1", messages), CONFIG)

    check_body(body)
    assert flatten_body(body) == flatten_course(messages)


def converted(request: CourseModelRequest) -> dict[str, Any] | VendorError:
    """What a model call makes of ``request``: the kit's check, then the conversion."""
    try:
        check_sendable(request, WIRE)
        return messages_request_body(request, CONFIG)
    except VendorError as error:
        return error


@given(requests)
def test_any_request_converts_into_a_valid_body_or_is_an_invalid_request(
    request: CourseModelRequest,
) -> None:
    outcome = converted(request)

    if isinstance(outcome, VendorError):
        assert outcome.code is VendorErrorCode.VENDOR_INVALID_REQUEST
        assert outcome.message.startswith("messages")
        return
    assert validate_transcript(request.messages) == ()
    check_body(outcome)
    assert flatten_body(outcome) == flatten_course(list(request.messages))


RICH_CONFIG = AnthropicConfig(
    model="claude-test",
    max_output_tokens=64,
    tools=(
        CourseToolSpec("add", "Add.", {"type": "object"}, strict=True),
        CourseToolSpec("look", "Look.", {"type": "object"}),
    ),
    response_format=CourseResponseFormat("answer", {"type": "object"}),
)
ASSISTANT_KINDS = {"text", "tool_use", "thinking", "redacted_thinking"} | VENDOR_BLOCK_KINDS
USER_KINDS = {"text", "tool_result", "image", "document"}


def sent_media(block: CourseImageBlock | CourseDocumentBlock) -> str:
    """How an image or document given by URL or as bytes shows in a body's JSON text."""
    if block.data is None:
        return str(block.url)
    if block.media_type == "text/plain":
        return json.dumps(block.data.decode("utf-8"))[1:-1]
    return base64.b64encode(block.data).decode()


def rich_converted(messages: tuple[CourseMessage, ...]) -> dict[str, Any] | VendorError:
    """What a model call makes of a rich transcript: the wire's check, then the body."""
    request = CourseModelRequest("request-1", messages)
    return sent_or_refused(request, WIRE, lambda active: messages_request_body(active, RICH_CONFIG))


@given(rich_transcripts())
def test_a_rich_transcript_is_sent_with_nothing_of_another_wire_or_refused_naming_its_block(
    messages: tuple[CourseMessage, ...],
) -> None:
    outcome = sent_body(rich_converted(messages), WIRE)

    if outcome is None:
        return
    assert json.loads(json.dumps(outcome)) == outcome
    turns = outcome["messages"]
    assert turns[0]["role"] == "user"
    for before, after in pairwise(turns):
        assert before["role"] != after["role"]
    for turn in turns:
        kinds = {block["type"] for block in turn["content"]}
        assert kinds <= (ASSISTANT_KINDS if turn["role"] == "assistant" else USER_KINDS)
    text = json.dumps(outcome, ensure_ascii=False)
    assert all(sent_media(block) in text for block in media_blocks(messages))
    assert [tool.get("strict", False) for tool in outcome["tools"]] == [True, False]
    assert "format" in outcome["output_config"]


def test_the_rich_transcripts_reach_a_sent_body_with_media_and_another_wires_data() -> None:
    def sent_with_both(messages: tuple[CourseMessage, ...]) -> bool:
        given_foreign = leaked_marks([to_json(message) for message in messages], WIRE)
        converted_body = rich_converted(messages)
        return (
            isinstance(converted_body, dict)
            and bool(media_blocks(messages))
            and bool(given_foreign)
        )

    only_generate = settings(database=None, max_examples=2_000, phases=[Phase.generate])
    find(rich_transcripts(), sent_with_both, settings=only_generate)
