"""ConverseGrammar: every ConverseStream event the reference documents, and each off its grammar."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import pytest
from returns.result import Success

from course_http import SseEvent, VendorError, VendorErrorCode
from course_protocol import JsonObject, freeze_json_object
from course_provider_bedrock import (
    ConverseException,
    ConverseGrammar,
    ConverseOpaqueBlock,
    ConverseReasoningBlock,
    ConverseTextBlock,
    ConverseToolUseBlock,
)
from tests.course_provider_bedrock.bodies import (
    delta,
    ev,
    exception,
    failure,
    judged,
    metadata,
    reasoning,
    reasoning_body,
    start,
    stop,
    stop_block,
    text,
    text_body,
    tool_body,
    tool_input,
    tool_start,
    usage,
)

C = VendorErrorCode


def freeze(value: Mapping[str, object]) -> JsonObject:
    frozen = freeze_json_object(value)
    assert isinstance(frozen, Success)
    result: JsonObject = frozen.unwrap()
    return result


def test_a_text_answer_is_its_pieces_joined_with_every_count() -> None:
    events = text_body("Hel", "lo")
    events[-1] = metadata(usage(10, 5, cache_read=3, cache_write=2), trace={"guardrail": {}})

    result = judged(events)

    assert result.role == "assistant"
    assert result.content == (ConverseTextBlock("Hello", (), True),)
    assert result.stop_reason == "end_turn"
    assert result.metadata is not None
    counts = result.metadata.usage
    assert (counts.input_tokens, counts.output_tokens, counts.total_tokens) == (10, 5, 20)
    assert (counts.cache_read_input_tokens, counts.cache_write_input_tokens) == (3, 2)
    assert result.metadata.metrics == freeze({"latencyMs": 120})
    assert result.metadata.fields == freeze({"trace": {"guardrail": {}}})
    assert result.exception is None


def test_a_tool_call_is_its_start_and_its_input_parsed_once() -> None:
    result = judged(tool_body())

    assert result.content[1] == ConverseToolUseBlock(
        "tooluse_abc123", "add", freeze({"left": 20, "right": 22}), None, freeze({}), True
    )
    assert result.stop_reason == "tool_use"


def test_reasoning_keeps_its_text_and_its_signature_or_its_redacted_content() -> None:
    redacted = [
        start(),
        reasoning(0, redactedContent="AAEC"),
        reasoning(0, redactedContent="AwQ="),
        stop_block(0),
        stop(),
        metadata(),
    ]

    assert judged(reasoning_body()).content[0] == ConverseReasoningBlock(
        "Twenty plus twenty-two.", "sig-abc", None, True
    )
    assert judged(redacted).content == (ConverseReasoningBlock("", None, "AAECAwQ=", True),)


def test_citations_tool_results_and_images_are_kept_as_sent() -> None:
    citation: dict[str, object] = {"title": "doc", "sourceContent": [{"text": "x"}], "location": {}}
    events = [
        start(),
        text("a"),
        delta(0, {"citation": citation}),
        stop_block(0),
        ev(
            "contentBlockStart",
            {"contentBlockIndex": 1, "start": {"toolResult": {"toolUseId": "t"}}},
        ),
        delta(1, {"toolResult": [{"text": "42"}]}),
        stop_block(1),
        ev("contentBlockStart", {"contentBlockIndex": 2, "start": {"image": {"format": "png"}}}),
        delta(2, {"image": {"source": {"bytes": "iVBO"}}}),
        stop_block(2),
        stop(),
        metadata(),
    ]

    content = judged(events).content

    assert content[0] == ConverseTextBlock("a", (freeze(citation),), True)
    assert content[1] == ConverseOpaqueBlock(
        "toolResult", freeze({"toolUseId": "t"}), (freeze({"text": "42"}),), True
    )
    assert content[2] == ConverseOpaqueBlock(
        "image", freeze({"format": "png"}), (freeze({"source": {"bytes": "iVBO"}}),), True
    )


def test_a_max_tokens_stop_may_cut_a_block_which_stays_incomplete() -> None:
    events = [start(), tool_start(0), tool_input('{"left": '), stop("max_tokens"), metadata()]

    (block,) = judged(events).content

    assert type(block) is ConverseToolUseBlock
    assert (block.input, block.partial_input, block.complete) == (None, '{"left": ', False)


@pytest.mark.parametrize(
    "kind",
    [
        "internalServerException",
        "modelStreamErrorException",
        "validationException",
        "throttlingException",
        "serviceUnavailableException",
    ],
)
def test_each_documented_exception_ends_the_stream_and_the_result_holds_it(kind: str) -> None:
    events = [start(), text("a"), exception(kind, "it failed", originalStatusCode=500)]

    result = judged(events)

    assert result.exception == ConverseException(
        kind, "it failed", freeze({"originalStatusCode": 500})
    )
    assert result.content == (ConverseTextBlock("a", (), False),)


def test_an_error_message_ends_the_stream_too() -> None:
    result = judged([SseEvent("error:InternalFailure", '{"message": "broke"}')])

    assert result.exception == ConverseException("InternalFailure", "broke", freeze({}))
    assert result.role is None


def test_the_result_is_immutable() -> None:
    result = judged(tool_body())
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.stop_reason = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        result.content[1].input["left"] = 1  # type: ignore[index,union-attr]


OFF_GRAMMAR = {
    "not-json": ([start(), SseEvent("contentBlockDelta", "{not json")], 1, C.VENDOR_INVALID_EVENT),
    "unknown-event": ([start(), ev("ping", {})], 1, C.VENDOR_UNKNOWN_EVENT),
    "unknown-exception": ([exception("teapotException", "x")], 0, C.VENDOR_UNKNOWN_EVENT),
    "role-user": ([ev("messageStart", {"role": "user"})], 0, C.VENDOR_INVALID_EVENT),
    "second-start": ([start(), start()], 1, C.VENDOR_EVENT_ORDER),
    "delta-before-start": ([text("a")], 0, C.VENDOR_EVENT_ORDER),
    "tool-delta-never-started": ([start(), tool_input("{}")], 1, C.VENDOR_EVENT_ORDER),
    "delta-after-stop-of-block": (
        [start(), text("a"), stop_block(0), text("b")],
        3,
        C.VENDOR_EVENT_ORDER,
    ),
    "block-skips-ahead": ([start(), text("a", 1)], 1, C.VENDOR_EVENT_ORDER),
    "start-twice": ([start(), tool_start(0), tool_start(0)], 2, C.VENDOR_EVENT_ORDER),
    "stop-never-started": ([start(), stop_block(0)], 1, C.VENDOR_EVENT_ORDER),
    "kind-mismatch": ([start(), text("a"), tool_input("{}")], 2, C.VENDOR_EVENT_ORDER),
    "two-delta-members": (
        [start(), delta(0, {"text": "a", "toolUse": {"input": ""}})],
        1,
        C.VENDOR_INVALID_EVENT,
    ),
    "unknown-delta": ([start(), delta(0, {"audio": {}})], 1, C.VENDOR_UNKNOWN_EVENT),
    "unknown-start": (
        [start(), ev("contentBlockStart", {"contentBlockIndex": 0, "start": {"video": {}}})],
        1,
        C.VENDOR_UNKNOWN_EVENT,
    ),
    "reasoning-two-members": (
        [start(), reasoning(0, text="a", signature="s")],
        1,
        C.VENDOR_INVALID_EVENT,
    ),
    "text-not-string": ([start(), delta(0, {"text": 1})], 1, C.VENDOR_INVALID_EVENT),
    "index-bool": (
        [start(), ev("contentBlockDelta", {"contentBlockIndex": True, "delta": {"text": "a"}})],
        1,
        C.VENDOR_INVALID_EVENT,
    ),
    "tool-id-blank": ([start(), tool_start(0, call_id=" ")], 1, C.VENDOR_INVALID_EVENT),
    "tool-id-twice": (
        [start(), tool_start(0), stop_block(0), tool_start(1)],
        3,
        C.VENDOR_INVALID_EVENT,
    ),
    "bad-arguments": (
        [start(), tool_start(0), tool_input("[1]"), stop_block(0)],
        3,
        C.VENDOR_INVALID_TOOL_ARGUMENTS,
    ),
    "stop-with-block-open": ([start(), text("a"), stop()], 2, C.VENDOR_EVENT_ORDER),
    "second-message-stop": ([start(), stop(), stop()], 2, C.VENDOR_EVENT_ORDER),
    "stop-reason-missing": ([start(), ev("messageStop", {})], 1, C.VENDOR_INVALID_EVENT),
    "text-after-stop": ([start(), stop(), text("a")], 2, C.VENDOR_EVENT_ORDER),
    "metadata-before-stop": ([start(), metadata()], 1, C.VENDOR_EVENT_ORDER),
    "second-metadata": ([start(), stop(), metadata(), metadata()], 3, C.VENDOR_EVENT_ORDER),
    "usage-count-missing": (
        [start(), stop(), ev("metadata", {"usage": {"inputTokens": 1}, "metrics": {}})],
        2,
        C.VENDOR_INVALID_EVENT,
    ),
    "usage-count-negative": (
        [start(), stop(), metadata({**usage(), "cacheReadInputTokens": -1})],
        2,
        C.VENDOR_INVALID_EVENT,
    ),
    "metrics-missing": (
        [start(), stop(), ev("metadata", {"usage": usage()})],
        2,
        C.VENDOR_INVALID_EVENT,
    ),
    "anything-after-exception": (
        [exception("throttlingException", "x"), start()],
        1,
        C.VENDOR_EVENT_ORDER,
    ),
    "exception-message-not-text": (
        [SseEvent("exception:validationException", '{"message": 1}')],
        0,
        C.VENDOR_INVALID_EVENT,
    ),
    "ended-before-stop": ([start(), text("a"), stop_block(0)], 3, C.VENDOR_MISSING_TERMINAL),
}


@pytest.mark.parametrize("name", list(OFF_GRAMMAR))
def test_each_off_grammar_mutation_fails_at_its_event_with_its_code(name: str) -> None:
    events, index, code = OFF_GRAMMAR[name]

    error = failure(events)

    assert (error.code, error.event_index, error.vendor) == (code, index, "bedrock-converse")


def test_the_grammar_is_spent_after_its_first_error() -> None:
    grammar = ConverseGrammar()
    grammar.feed(start(), 0)
    with pytest.raises(VendorError) as first:
        grammar.feed(start(), 1)
    for index, event in enumerate(text_body(), start=2):
        with pytest.raises(VendorError) as again:
            grammar.feed(event, index)
        assert again.value is first.value
    assert grammar.failure is first.value


def test_a_body_without_metadata_is_still_the_grammar_s() -> None:
    # botocore reads a stream that ends at messageStop; only the mapping needs usage.
    result = judged([start(), text("a"), stop_block(0), stop()])

    assert result.metadata is None
    assert result.stop_reason == "end_turn"
