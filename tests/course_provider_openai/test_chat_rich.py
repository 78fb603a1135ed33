"""ChatMapping: the kinds beyond text and Tool calls that a Chat stream carries to the port.

Refusals (the message's text, stopped with ``REFUSAL``), the output limit
(``LENGTH``, the partial message, a cut Tool call never emitted), the
content filter (``REFUSAL``), a search model's URL citations on the text
(each annotation as a ``CourseOpaque`` of the wire, exactly as sent), and
the usage details (cached input, reasoning; ``None`` where not sent). The
grammar's reading of ``delta.annotations`` is checked here too, with the
code and path of each bad value.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from course_cli._recordings import play_recording
from course_http import VendorError, VendorErrorCode
from course_protocol import (
    CourseAssistantMessage,
    CourseOpaque,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    parse_response,
    thaw_json,
    to_json,
)
from course_provider_openai import CHAT_PLUGIN, ChatMapping
from tests.course_provider_openai.bodies import (
    DONE,
    chat_events,
    chunk,
    finish,
    text,
    tool_arguments,
    tool_start,
    usage,
)
from tests.course_provider_openai.chat_grammar import folded, read
from tests.course_provider_openai.driving import Replay, replay
from tests.streams import text_deltas

Code = VendorErrorCode
REQUEST = "request-1"
WIRE = "openai-chat"


def run(*payloads: object) -> Replay:
    return replay(ChatMapping(REQUEST), chat_events(*payloads))


def answered(*payloads: object) -> Replay:
    outcome = run(*payloads)
    assert outcome.error is None, outcome.error
    assert outcome.response is not None
    return outcome


def failed(*payloads: object) -> VendorError:
    outcome = run(*payloads)
    assert outcome.response is None
    assert outcome.error is not None
    assert outcome.error.vendor == WIRE
    return outcome.error


def citation(start: int, end: int, url: str = "https://example.com/a") -> dict[str, Any]:
    return {
        "type": "url_citation",
        "url_citation": {"end_index": end, "start_index": start, "title": "A page", "url": url},
    }


def detailed_usage(**details: dict[str, object]) -> dict[str, Any]:
    counts: dict[str, object] = {"prompt_tokens": 100, "completion_tokens": 40, "total_tokens": 140}
    counts.update(details)
    return chunk(None, usage=counts)


def test_a_refusal_is_the_messages_text_stopped_with_refusal_in_one_delta_at_the_finish() -> None:
    parser = ChatMapping(REQUEST)
    events = chat_events(
        chunk({"role": "assistant", "content": None, "refusal": ""}),
        chunk({"refusal": "I can't"}),
        chunk({"refusal": " help with that."}),
        finish("stop"),
        usage(),
        DONE,
    )

    produced = [parser.feed(event, index) for index, event in enumerate(events)]
    response = parser.end(len(events))

    assert produced[:3] == [None, None, None]
    assert produced[3] == CourseTextDeltaChunk(REQUEST, "I can't help with that.")
    assert response.stop_reason is CourseStopReason.REFUSAL
    assert response.message.content == (CourseTextBlock("I can't help with that."),)


def test_text_before_a_refusal_is_kept_as_its_own_block_before_the_refusal() -> None:
    outcome = answered(
        text("Let me see. "), chunk({"refusal": "No."}), finish("stop"), usage(), DONE
    )

    assert text_deltas(outcome.chunks) == ["Let me see. ", "No."]
    assert outcome.response is not None
    assert outcome.response.stop_reason is CourseStopReason.REFUSAL
    assert outcome.response.message.content == (
        CourseTextBlock("Let me see. "),
        CourseTextBlock("No."),
    )


def test_a_refusal_beside_whole_tool_calls_contradicts_its_finish() -> None:
    error = failed(
        tool_start(0, "call_1", "add", "{}"), chunk({"refusal": "No."}), finish("tool_calls")
    )

    assert (error.code, error.event_index) == (Code.VENDOR_INVALID_TERMINAL, 2)
    assert "stop reason refusal forbids Tool-call blocks, found 1" in error.message


def test_the_output_limit_stops_with_length_and_the_partial_text() -> None:
    outcome = answered(text("Partial"), text(" answer"), finish("length"), usage(), DONE)

    assert text_deltas(outcome.chunks) == ["Partial", " answer"]
    assert outcome.response is not None
    assert outcome.response.stop_reason is CourseStopReason.LENGTH
    assert outcome.response.message.content == (CourseTextBlock("Partial answer"),)


def test_a_tool_call_cut_by_the_output_limit_is_never_emitted() -> None:
    outcome = answered(
        text("Writing."),
        tool_start(0, "call_1", "write", '{"text": "half'),
        finish("length"),
        usage(),
        DONE,
    )

    assert not any(type(chunk) is CourseToolCallChunk for chunk in outcome.chunks)
    assert outcome.response is not None
    assert outcome.response.stop_reason is CourseStopReason.LENGTH
    assert outcome.response.message.content == (CourseTextBlock("Writing."),)


def test_a_tool_call_whose_arguments_parse_is_still_not_emitted_under_the_limit() -> None:
    # Whether the limit cut a call with parseable arguments cannot be known: none is a call.
    outcome = answered(
        tool_start(0, "call_1", "add", '{"a": 1}'),
        tool_start(1, "call_2", "add", '{"a": 2'),
        finish("length"),
        usage(),
        DONE,
    )

    assert outcome.chunks == ()
    assert outcome.response is not None
    assert outcome.response.message.content == ()


def test_the_content_filter_stops_with_refusal_keeping_the_text_before_it() -> None:
    outcome = answered(
        text("Here is"),
        tool_start(0, "call_1", "write", '{"a": 1}'),
        finish("content_filter"),
        usage(),
        DONE,
    )

    assert outcome.response is not None
    assert outcome.response.stop_reason is CourseStopReason.REFUSAL
    assert outcome.response.message.content == (CourseTextBlock("Here is"),)
    assert text_deltas(outcome.chunks) == ["Here is"]
    assert not any(type(chunk) is CourseToolCallChunk for chunk in outcome.chunks)


def test_url_citations_on_the_deltas_are_the_texts_citations_exactly_as_sent() -> None:
    first, second = citation(0, 5), citation(6, 11, "https://example.com/b")
    outcome = answered(
        text("Hello world"),
        chunk({"content": "", "annotations": [first]}),
        chunk({"annotations": [second]}),
        finish("stop"),
        usage(),
        DONE,
    )

    assert outcome.response is not None
    (block,) = outcome.response.message.content
    assert block == CourseTextBlock(
        "Hello world", citations=(CourseOpaque(WIRE, first), CourseOpaque(WIRE, second))
    )
    assert type(block) is CourseTextBlock
    assert [opaque.wire for opaque in block.citations] == [WIRE, WIRE]
    assert text_deltas(outcome.chunks) == ["Hello world"]
    assert parse_response(to_json(outcome.response)).unwrap() == outcome.response


def test_citations_with_no_text_are_kept_on_an_empty_text_block() -> None:
    cited = citation(0, 0)
    outcome = answered(chunk({"annotations": [cited]}), finish("stop"), usage(), DONE)

    assert outcome.response is not None
    assert outcome.response.message.content == (
        CourseTextBlock("", citations=(CourseOpaque(WIRE, cited),)),
    )


def test_an_annotation_keeps_fields_beyond_the_documented_ones_and_is_deeply_frozen() -> None:
    cited = citation(0, 2)
    cited["url_citation"]["extra"] = {"nested": [1, 2]}
    outcome = answered(text("Hi"), chunk({"annotations": [cited]}), finish("stop"), usage(), DONE)

    assert outcome.response is not None
    block = outcome.response.message.content[0]
    assert type(block) is CourseTextBlock
    data = block.citations[0].data
    assert thaw_json(data) == cited
    with pytest.raises(TypeError):
        data["type"] = "changed"  # type: ignore[index]
    nested: Any = data["url_citation"]
    assert type(nested["extra"]["nested"]) is tuple


def test_the_grammar_keeps_every_annotation_of_every_choice_in_order_as_sent() -> None:
    first, second = citation(0, 1), citation(1, 2, "https://example.com/b")
    opening = chunk({"role": "assistant", "content": "ab", "annotations": [first]})
    opening["choices"].append(
        {"index": 1, "delta": {"content": "c", "annotations": [second]}, "finish_reason": None}
    )
    result = read(
        opening,
        chunk({"annotations": [second]}),
        chunk({"annotations": []}, choice_index=1, finish_reason="stop"),
        finish("stop"),
        usage(),
        DONE,
    )

    assert [thaw_json(entry) for entry in result.choices[0].annotations] == [first, second]
    assert [thaw_json(entry) for entry in result.choices[1].annotations] == [second]
    assert type(result.choices[0].annotations) is tuple


ANNOTATION_FAILURES: list[tuple[str, object, VendorErrorCode, str]] = [
    (
        "not-an-array",
        {"type": "url_citation"},
        Code.VENDOR_INVALID_EVENT,
        "choices[0].delta.annotations must be an array or null",
    ),
    (
        "entry-not-an-object",
        ["x"],
        Code.VENDOR_INVALID_EVENT,
        "choices[0].delta.annotations[0] must be an object",
    ),
    (
        "unknown-type",
        [{"type": "file_citation", "file_citation": {}}],
        Code.VENDOR_UNKNOWN_EVENT,
        "choices[0].delta.annotations[0].type 'file_citation' is not an annotation",
    ),
    (
        "missing-citation",
        [{"type": "url_citation"}],
        Code.VENDOR_INVALID_EVENT,
        "choices[0].delta.annotations[0].url_citation must be an object, got missing",
    ),
    (
        "blank-url",
        [{**citation(0, 1), "url_citation": {**citation(0, 1)["url_citation"], "url": " "}}],
        Code.VENDOR_INVALID_EVENT,
        "annotations[0].url_citation.url must be a non-blank string",
    ),
    (
        "title-not-text",
        [{**citation(0, 1), "url_citation": {**citation(0, 1)["url_citation"], "title": 3}}],
        Code.VENDOR_INVALID_EVENT,
        "annotations[0].url_citation.title must be a string",
    ),
    (
        "negative-index",
        [citation(-1, 1)],
        Code.VENDOR_INVALID_EVENT,
        "annotations[0].url_citation.start_index must be an integer from 0",
    ),
    (
        "bool-index",
        [citation(0, True)],
        Code.VENDOR_INVALID_EVENT,
        "annotations[0].url_citation.end_index must be an integer from 0",
    ),
    (
        "second-entry-bad",
        [citation(0, 1), {"type": 7}],
        Code.VENDOR_INVALID_EVENT,
        "annotations[1].type must be a string",
    ),
]


@pytest.mark.parametrize(
    ("annotations", "code", "named"),
    [case[1:] for case in ANNOTATION_FAILURES],
    ids=[case[0] for case in ANNOTATION_FAILURES],
)
def test_a_bad_annotation_is_refused_by_the_grammar_naming_its_path(
    annotations: object, code: VendorErrorCode, named: str
) -> None:
    payloads = [text("Hi"), chunk({"annotations": annotations}), finish("stop"), usage(), DONE]

    judged = folded(chat_events(*payloads))
    error = failed(*payloads)

    assert type(judged) is VendorError
    assert (judged.code, judged.event_index) == (code, 1)
    assert named in judged.message
    assert (error.code, error.event_index, error.message) == (code, 1, judged.message)


def test_annotations_nested_past_the_json_limit_are_an_invalid_event() -> None:
    deep: object = "x"
    for _ in range(200):
        deep = [deep]
    cited = citation(0, 1)
    cited["url_citation"]["deep"] = deep

    error = failed(text("Hi"), chunk({"annotations": [cited]}), finish("stop"), usage(), DONE)

    assert (error.code, error.event_index) == (Code.VENDOR_INVALID_EVENT, 1)


def test_cached_input_and_reasoning_counts_reach_the_usage() -> None:
    outcome = answered(
        text("a"),
        finish("stop"),
        detailed_usage(
            prompt_tokens_details={"cached_tokens": 64, "audio_tokens": 0},
            completion_tokens_details={"reasoning_tokens": 25, "audio_tokens": 0},
        ),
        DONE,
    )

    assert outcome.response is not None
    usage_counts = outcome.response.usage
    assert (usage_counts.input_tokens, usage_counts.output_tokens) == (100, 40)
    assert (usage_counts.cache_read_tokens, usage_counts.reasoning_tokens) == (64, 25)
    assert usage_counts.cache_write_tokens is None


@pytest.mark.parametrize(
    "details",
    [
        {},
        {"prompt_tokens_details": None, "completion_tokens_details": None},
        {"prompt_tokens_details": {"audio_tokens": 0}, "completion_tokens_details": {}},
    ],
    ids=["absent", "null", "without-the-counts"],
)
def test_usage_details_not_sent_are_none_never_zero(details: dict[str, Any]) -> None:
    outcome = answered(text("a"), finish("stop"), detailed_usage(**details), DONE)

    assert outcome.response is not None
    counts = outcome.response.usage
    assert (counts.cache_read_tokens, counts.cache_write_tokens, counts.reasoning_tokens) == (
        None,
        None,
        None,
    )


@pytest.mark.parametrize(
    ("details", "named"),
    [
        ({"prompt_tokens_details": {"cached_tokens": 101}}, "cache_read_tokens"),
        ({"completion_tokens_details": {"reasoning_tokens": 41}}, "reasoning_tokens"),
    ],
    ids=["more-cached-than-input", "more-reasoning-than-output"],
)
def test_a_part_larger_than_its_whole_is_an_invalid_usage_event(
    details: dict[str, Any], named: str
) -> None:
    error = failed(text("a"), finish("stop"), detailed_usage(**details), DONE)

    assert (error.code, error.event_index) == (Code.VENDOR_INVALID_EVENT, 2)
    assert error.message.startswith("event 2: usage: ")
    assert named in error.message


def test_the_message_of_a_limited_answer_goes_back_in_a_transcript_as_it_is() -> None:
    outcome = answered(
        text("Partial"),
        tool_start(0, "call_1", "write", "{}"),
        tool_arguments(0, ""),
        finish("length"),
        usage(),
        DONE,
    )

    assert outcome.response is not None
    message = outcome.response.message
    assert type(message) is CourseAssistantMessage
    assert all(type(block) is not CourseToolCall for block in message.content)


async def test_course_replay_prints_citations_usage_details_and_the_stop_reason(
    tmp_path: Path,
) -> None:
    cited = citation(0, 5)
    body = tmp_path / "cited.sse"
    body.write_bytes(
        b"".join(
            f"data: {event.data}\n\n".encode()
            for event in chat_events(
                text("Hello"),
                chunk({"annotations": [cited]}),
                finish("length"),
                detailed_usage(
                    prompt_tokens_details={"cached_tokens": 64},
                    completion_tokens_details={"reasoning_tokens": 25},
                ),
                DONE,
            )
        )
    )
    lines: list[str] = []

    problem = await play_recording(str(body), CHAT_PLUGIN, "replay-1", lines.append)

    assert problem is None
    assert lines[0] == '{"type":"textDelta","requestId":"replay-1","delta":"Hello"}\n'
    response = json.loads(lines[1])
    assert response["stopReason"] == "length"
    assert response["message"]["content"] == [
        {"type": "text", "text": "Hello", "citations": [{"wire": WIRE, "data": cited}]}
    ]
    assert response["usage"] == {
        "inputTokens": 100,
        "outputTokens": 40,
        "cacheReadTokens": 64,
        "reasoningTokens": 25,
    }
    assert len(lines) == 2
