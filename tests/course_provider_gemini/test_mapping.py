"""GeminiMapping on bodies of our own: what each chunk becomes in the course, and every refusal.

Only what passed the grammar reaches the mapping; the mapping carries one
candidate's answer text, thoughts, whole function calls, the parts of tools
the vendor runs and its citations, each signature on the block it came on,
and refuses what the course cannot carry, naming the kind and the wire.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from course_http import VendorError, VendorErrorCode
from course_protocol import (
    CourseModelResponse,
    CourseModelUsage,
    CourseOpaque,
    CourseReasoningBlock,
    CourseReasoningDeltaChunk,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    CourseVendorToolBlock,
    thaw_json,
)
from course_provider_gemini import GeminiMapping, GeminiResult, course_call_id
from tests.course_provider_gemini.bodies import (
    REQUEST_ID,
    RESPONSE_ID,
    call,
    chunk,
    error_object,
    event,
    judged,
    play,
    raw,
    streamed_call,
    text,
    thought,
    usage,
)

C = VendorErrorCode


def signed(signature: str, **more: str) -> CourseOpaque:
    return CourseOpaque("gemini", {**more, "thoughtSignature": signature})


def failed(events: list[Any]) -> VendorError:
    _, outcome = play(events)
    assert isinstance(outcome, VendorError), outcome
    assert outcome.vendor == "gemini"
    return outcome


def answered(events: list[Any]) -> tuple[list[Any], CourseModelResponse]:
    chunks, outcome = play(events)
    assert isinstance(outcome, CourseModelResponse), outcome
    return chunks, outcome


def test_text_parts_are_text_deltas_and_one_text_block() -> None:
    chunks, response = answered(
        [chunk(text("The sum ")), chunk(text("is 42."), finish="STOP", counts=usage(12, 7))]
    )

    assert chunks == [
        CourseTextDeltaChunk(REQUEST_ID, "The sum "),
        CourseTextDeltaChunk(REQUEST_ID, "is 42."),
    ]
    assert response.message.content == (CourseTextBlock("The sum is 42."),)
    assert (response.id, response.request_id) == (RESPONSE_ID, REQUEST_ID)
    assert response.stop_reason is CourseStopReason.STOP
    assert (response.usage.input_tokens, response.usage.output_tokens) == (12, 7)


def test_thoughts_are_reasoning_deltas_and_a_reasoning_block_their_tokens_output() -> None:
    chunks, response = answered(
        [
            chunk(thought("**Thinking**"), counts=usage(5, None, 30)),
            chunk(thought(" more"), text("Yes."), finish="STOP", counts=usage(5, 2, 30)),
        ]
    )

    assert chunks == [
        CourseReasoningDeltaChunk(REQUEST_ID, "**Thinking**"),
        CourseReasoningDeltaChunk(REQUEST_ID, " more"),
        CourseTextDeltaChunk(REQUEST_ID, "Yes."),
    ]
    assert response.message.content == (
        CourseReasoningBlock("**Thinking** more"),
        CourseTextBlock("Yes."),
    )
    assert response.usage == CourseModelUsage(5, 32, reasoning_tokens=30)


def test_a_signature_goes_on_the_block_of_the_part_that_carried_it() -> None:
    _, response = answered(
        [
            chunk(thought("plan"), {"thought": True, "thoughtSignature": "T1"}),
            chunk(text("Done."), text("", thoughtSignature="A1"), finish="STOP"),
        ]
    )

    assert response.message.content == (
        CourseReasoningBlock("plan", opaque=signed("T1")),
        CourseTextBlock("Done.", opaque=signed("A1")),
    )


def test_cached_and_tool_use_prompt_tokens_are_input_and_absent_counts_stay_none() -> None:
    counts = {
        "promptTokenCount": 100,
        "cachedContentTokenCount": 60,
        "toolUsePromptTokenCount": 7,
        "candidatesTokenCount": 5,
        "thoughtsTokenCount": 3,
    }
    _, cached = answered([chunk(text("a"), finish="STOP", counts=counts)])
    _, plain = answered([chunk(text("a"), finish="STOP", counts=usage(9, 4))])

    assert cached.usage == CourseModelUsage(107, 8, cache_read_tokens=60, reasoning_tokens=3)
    assert plain.usage == CourseModelUsage(9, 4)
    assert (plain.usage.cache_read_tokens, plain.usage.reasoning_tokens) == (None, None)


def test_a_cached_count_above_the_prompts_is_an_invalid_event() -> None:
    counts = {"promptTokenCount": 5, "cachedContentTokenCount": 6, "candidatesTokenCount": 1}

    error = failed([chunk(text("a"), finish="STOP", counts=counts)])

    assert (error.code, error.event_index) == (C.VENDOR_INVALID_EVENT, 0)
    assert "cachedContentTokenCount (6) exceeds promptTokenCount (5)" in error.message


def test_the_last_usage_counts() -> None:
    _, response = answered(
        [chunk(text("a"), counts=usage(100, 50, 9)), chunk(finish="STOP", counts=usage(3, 4))]
    )

    assert (response.usage.input_tokens, response.usage.output_tokens) == (3, 4)


def test_each_whole_function_call_is_one_tool_call_with_a_derived_id() -> None:
    parser = GeminiMapping(REQUEST_ID)
    events = [
        chunk(text("Looking. ")),
        chunk(
            call("lookup", {"q": "a"}, thoughtSignature="sig-1"),
            call("lookup", {"q": "b"}),
            finish="STOP",
        ),
    ]
    made = [parser.feed(item, index) for index, item in enumerate(events)]
    response = parser.end(len(events))

    first, second = (course_call_id(RESPONSE_ID, n) for n in (0, 1))
    assert (first, second) == (f"{RESPONSE_ID}-call-0", f"{RESPONSE_ID}-call-1")
    signed_call = CourseToolCall(first, "lookup", {"q": "a"}, opaque=signed("sig-1"))
    assert made[1] == (
        CourseToolCallChunk(REQUEST_ID, signed_call),
        CourseToolCallChunk(REQUEST_ID, CourseToolCall(second, "lookup", {"q": "b"})),
    )
    assert response.stop_reason is CourseStopReason.TOOL_CALL
    assert [type(block) for block in response.message.content] == [
        CourseTextBlock,
        CourseToolCall,
        CourseToolCall,
    ]


def test_a_call_without_args_has_empty_arguments() -> None:
    _, response = answered([chunk(call("now"), finish="STOP")])

    [only] = response.message.content
    assert type(only) is CourseToolCall
    assert thaw_json(only.arguments) == {}


def test_a_chunk_with_no_candidates_only_updates_usage() -> None:
    usage_only = event({"usageMetadata": usage(8, 1), "responseId": RESPONSE_ID})
    _, response = answered([chunk(text("x")), usage_only, chunk(finish="STOP", counts=usage(8, 2))])

    assert response.usage.output_tokens == 2


@pytest.mark.parametrize("reason", ["MALFORMED_FUNCTION_CALL", "OTHER", "FAKE_ENUM"])
def test_a_finish_reason_without_a_course_stop_reason_fails_naming_it(reason: str) -> None:
    error = failed([chunk(text("cut")), chunk(finish=reason, finishMessage=f"stopped: {reason}")])

    assert (error.code, error.vendor_type, error.event_index) == (
        C.VENDOR_INCOMPLETE,
        reason,
        1,
    )
    assert error.vendor_message == f"stopped: {reason}"


def test_the_output_limit_is_length_with_what_came_whole_as_the_message() -> None:
    chunks, response = answered(
        [chunk(text("Part "), call("f", {"a": 1})), chunk(text("of it"), finish="MAX_TOKENS")]
    )

    assert response.stop_reason is CourseStopReason.LENGTH
    call_id = course_call_id(RESPONSE_ID, 0)
    assert response.message.content == (
        CourseTextBlock("Part "),
        CourseToolCall(call_id, "f", {"a": 1}),
        CourseTextBlock("of it"),
    )
    assert [type(item) for item in chunks] == [
        CourseTextDeltaChunk,
        CourseToolCallChunk,
        CourseTextDeltaChunk,
    ]


def test_a_blocked_prompt_is_a_refusal_with_an_empty_message() -> None:
    feedback = {"blockReason": "PROHIBITED_CONTENT", "blockReasonMessage": "no"}
    body = {"promptFeedback": feedback, "usageMetadata": usage(12, None), "responseId": "r-9"}

    chunks, response = answered([event(body)])

    assert chunks == []
    assert (response.id, response.stop_reason) == ("r-9", CourseStopReason.REFUSAL)
    assert response.message.content == ()
    assert response.usage == CourseModelUsage(12, 0)


def test_a_blocked_prompt_without_an_id_or_usage_fails_as_a_refusal_naming_the_reason() -> None:
    feedback = {"blockReason": "PROHIBITED_CONTENT", "blockReasonMessage": "no"}
    error = failed([event({"promptFeedback": feedback})])

    assert (error.code, error.vendor_type, error.vendor_message) == (
        C.VENDOR_REFUSAL,
        "PROHIBITED_CONTENT",
        "no",
    )


def test_an_error_object_mid_stream_is_an_error_event() -> None:
    error_text = error_object("CANCELLED", "The operation was cancelled.")
    error = failed([chunk(text("First ")), raw(error_text)])

    assert (error.code, error.event_index, error.vendor_type, error.vendor_message) == (
        C.VENDOR_ERROR_EVENT,
        1,
        "CANCELLED",
        "The operation was cancelled.",
    )


def test_a_stream_without_a_finish_reason_is_missing_its_terminal() -> None:
    chunks, outcome = play([chunk(text("a")), chunk(text("b"))])

    assert len(chunks) == 2
    assert isinstance(outcome, VendorError)
    assert (outcome.code, outcome.event_index) == (C.VENDOR_MISSING_TERMINAL, 2)


def test_nothing_may_follow_the_finishing_chunk() -> None:
    error = failed([chunk(text("a"), finish="STOP"), chunk(text("more"))])

    assert (error.code, error.event_index) == (C.VENDOR_EVENT_ORDER, 1)


@pytest.mark.parametrize(
    ("events", "code", "index"),
    [
        ([raw("[1]")], C.VENDOR_INVALID_EVENT, 0),
        ([raw('{"candidates": {"0": {}}}')], C.VENDOR_INVALID_EVENT, 0),
        ([raw(json.dumps({"candidates": [{}, {"index": 1}]}))], C.VENDOR_UNSUPPORTED_CONTENT, 0),
        ([raw(json.dumps({"candidates": [{"index": 1}]}))], C.VENDOR_UNSUPPORTED_CONTENT, 0),
        ([raw(json.dumps({"candidates": [{"index": True}]}))], C.VENDOR_INVALID_EVENT, 0),
        ([raw(json.dumps({"candidates": ["text"]}))], C.VENDOR_INVALID_EVENT, 0),
        ([chunk({"hologram": {}})], C.VENDOR_UNKNOWN_EVENT, 0),
        ([chunk({"text": "a", "functionCall": {"name": "f"}})], C.VENDOR_INVALID_EVENT, 0),
        ([chunk({"text": 3})], C.VENDOR_INVALID_EVENT, 0),
        ([chunk({"text": "a", "thought": "yes"})], C.VENDOR_INVALID_EVENT, 0),
        ([chunk({"text": "a", "thoughtSignature": 1})], C.VENDOR_INVALID_EVENT, 0),
        ([chunk(call("f", [1, 2]))], C.VENDOR_INVALID_TOOL_ARGUMENTS, 0),
        ([chunk(call("f", "{}"))], C.VENDOR_INVALID_TOOL_ARGUMENTS, 0),
        ([chunk(call(""))], C.VENDOR_INVALID_EVENT, 0),
        ([chunk({"functionCall": {"name": "f", "ID": "x"}})], C.VENDOR_UNKNOWN_EVENT, 0),
        ([chunk({"functionCall": {"partialArgs": []}})], C.VENDOR_EVENT_ORDER, 0),
        (
            [chunk({"functionCall": {"name": "f", "willContinue": True}})],
            C.VENDOR_MISSING_TERMINAL,
            1,
        ),
        ([chunk(call("f"), response_id=None)], C.VENDOR_INVALID_EVENT, 0),
        ([chunk(text("a"), finish="STOP", response_id=None)], C.VENDOR_INVALID_EVENT, 0),
        ([chunk(text("a")), chunk(finish="STOP", response_id="other")], C.VENDOR_INVALID_EVENT, 1),
        ([chunk(finish="STOP", counts={"candidatesTokenCount": 1})], C.VENDOR_INVALID_EVENT, 0),
        ([chunk(text("a"), counts={"promptTokenCount": -1})], C.VENDOR_INVALID_EVENT, 0),
        ([chunk(text("a"), counts={"promptTokenCount": True})], C.VENDOR_INVALID_EVENT, 0),
        ([chunk(text("a"), counts={"promptTokenCount": 2**53})], C.VENDOR_INVALID_EVENT, 0),
        (
            [
                chunk(
                    finish="STOP",
                    counts={
                        "promptTokenCount": 1,
                        "candidatesTokenCount": 2**53 - 1,
                        "thoughtsTokenCount": 1,
                    },
                )
            ],
            C.VENDOR_INVALID_EVENT,
            0,
        ),
        ([chunk(text("a"), finish="")], C.VENDOR_INVALID_EVENT, 0),
        ([raw(json.dumps({"error": {"code": 500}}))], C.VENDOR_INVALID_EVENT, 0),
        ([raw(json.dumps({"promptFeedback": []}))], C.VENDOR_INVALID_EVENT, 0),
        (
            [raw(json.dumps({"candidates": [{"content": {"role": "user"}}]}))],
            C.VENDOR_INVALID_EVENT,
            0,
        ),
        (
            [raw(json.dumps({"candidates": [{"content": {"parts": {"0": {}}}}]}))],
            C.VENDOR_INVALID_EVENT,
            0,
        ),
        ([raw("{}", name="message_start")], C.VENDOR_INVALID_EVENT, 0),
    ],
)
def test_a_malformed_chunk_fails_with_its_code_at_its_event(
    events: list[Any], code: VendorErrorCode, index: int
) -> None:
    error = failed(events)

    assert (error.code, error.event_index) == (code, index)
    if code is not C.VENDOR_MISSING_TERMINAL:
        assert error.message.startswith(f"event {index}: ")


def test_deeply_nested_arguments_are_refused_as_tool_arguments() -> None:
    deep: Any = {}
    for _ in range(200):
        deep = {"a": deep}

    error = failed([chunk(call("f", deep), finish="STOP")])

    assert error.code is C.VENDOR_INVALID_TOOL_ARGUMENTS


UNCARRIED = {
    "inlineData": {"mimeType": "image/png", "data": "AA=="},
    "fileData": {"fileUri": "gs://bucket/a.pdf", "mimeType": "application/pdf"},
    "functionResponse": {"name": "lookup", "response": {"output": "a"}},
}
VENDOR_TOOLS = {
    "executableCode": {"language": "PYTHON", "code": "print(1 + 1)", "id": "c-1"},
    "codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "2\n", "id": "c-1"},
    "toolCall": {"id": "t-1", "toolType": "GOOGLE_SEARCH_WEB", "args": {"q": "x"}},
    "toolResponse": {"id": "t-1", "toolType": "GOOGLE_SEARCH_WEB", "response": {}},
}


def test_the_parts_of_a_tool_the_vendor_runs_are_vendor_tool_blocks_as_sent() -> None:
    events = [
        chunk(text("Computing. ")),
        chunk({"executableCode": VENDOR_TOOLS["executableCode"]}),
        chunk(
            {"codeExecutionResult": VENDOR_TOOLS["codeExecutionResult"], "thoughtSignature": "S"}
        ),
        chunk(
            {"toolCall": VENDOR_TOOLS["toolCall"]}, {"toolResponse": VENDOR_TOOLS["toolResponse"]}
        ),
        chunk(text("It is 2."), finish="STOP"),
    ]

    chunks, response = answered(events)

    assert chunks == [
        CourseTextDeltaChunk(REQUEST_ID, "Computing. "),
        CourseTextDeltaChunk(REQUEST_ID, "It is 2."),
    ]
    code, result = VENDOR_TOOLS["executableCode"], VENDOR_TOOLS["codeExecutionResult"]
    assert response.message.content == (
        CourseTextBlock("Computing. "),
        CourseVendorToolBlock("executableCode", CourseOpaque("gemini", {"executableCode": code})),
        CourseVendorToolBlock(
            "codeExecutionResult",
            CourseOpaque("gemini", {"codeExecutionResult": result, "thoughtSignature": "S"}),
        ),
        *(
            CourseVendorToolBlock(kind, CourseOpaque("gemini", {kind: VENDOR_TOOLS[kind]}))
            for kind in ("toolCall", "toolResponse")
        ),
        CourseTextBlock("It is 2."),
    )
    assert response.stop_reason is CourseStopReason.STOP


def test_the_candidates_citation_and_grounding_metadata_are_its_last_texts_citations() -> None:
    cited = {"citationSources": [{"startIndex": 0, "endIndex": 5, "uri": "https://a.example"}]}
    grounded = {"webSearchQueries": ["capital of France"], "groundingChunks": []}
    events = [
        chunk(text("Paris"), call("f")),
        chunk(text(" is the capital."), citationMetadata=cited),
        chunk(text("", thoughtSignature="Z"), finish="STOP", groundingMetadata=grounded),
    ]

    _, response = answered(events)

    *_, last = response.message.content
    assert last == CourseTextBlock(
        " is the capital.",
        citations=(
            CourseOpaque("gemini", {"citationMetadata": cited}),
            CourseOpaque("gemini", {"groundingMetadata": grounded}),
        ),
        opaque=signed("Z"),
    )
    assert response.message.content[0] == CourseTextBlock("Paris")


def test_citations_of_an_answer_without_text_end_it_on_an_empty_text_block() -> None:
    grounded = {"webSearchQueries": ["q"]}

    _, response = answered([chunk(call("f"), finish="STOP", groundingMetadata=grounded)])

    assert response.message.content[-1] == CourseTextBlock(
        "", citations=(CourseOpaque("gemini", {"groundingMetadata": grounded}),)
    )
    assert response.stop_reason is CourseStopReason.TOOL_CALL


@pytest.mark.parametrize("kind", sorted(UNCARRIED))
def test_a_kind_the_course_cannot_carry_is_refused_where_it_first_appears_naming_it(
    kind: str,
) -> None:
    events = [chunk(text("Looking. ")), chunk({kind: UNCARRIED[kind]}), chunk(finish="STOP")]
    assert isinstance(judged(events), GeminiResult)

    chunks, outcome = play(events)

    assert chunks == [CourseTextDeltaChunk(REQUEST_ID, "Looking. ")]
    assert isinstance(outcome, VendorError)
    assert (outcome.code, outcome.event_index, outcome.vendor_type) == (
        C.VENDOR_UNSUPPORTED_CONTENT,
        1,
        kind,
    )
    assert f"part kind '{kind}' is " in outcome.message
    assert outcome.message.endswith("which the course protocol cannot carry (gemini)")


def test_a_thought_image_is_still_media_the_course_cannot_carry() -> None:
    image = {"inlineData": UNCARRIED["inlineData"], "thought": True}

    error = failed([chunk(image, finish="STOP")])

    assert (error.code, error.vendor_type) == (C.VENDOR_UNSUPPORTED_CONTENT, "inlineData")


def test_a_second_candidate_is_refused_naming_the_wire() -> None:
    pair = {"candidates": [{"content": {"parts": [{"text": "a"}]}}, {"index": 1}]}

    error = failed([event(pair)])

    assert (error.code, error.vendor_type) == (C.VENDOR_UNSUPPORTED_CONTENT, "candidates")
    assert error.message == (
        "event 0: 2 candidates: the course carries one answer (ask for one) (gemini)"
    )


def test_gemini_3s_own_call_ids_are_the_tool_call_ids_derived_only_when_absent() -> None:
    events = [
        chunk(
            {"functionCall": {"name": "f", "args": {"a": 1}, "id": "x7k2"}},
            call("g"),
            finish="STOP",
        )
    ]

    chunks, response = answered(events)

    own = CourseOpaque("gemini", {"id": "x7k2"})
    assert chunks == [
        CourseToolCallChunk(REQUEST_ID, CourseToolCall("x7k2", "f", {"a": 1}, opaque=own)),
        CourseToolCallChunk(REQUEST_ID, CourseToolCall(course_call_id(RESPONSE_ID, 1), "g", {})),
    ]
    assert response.message.content == tuple(chunk.tool_call for chunk in chunks)
    assert all(
        block is chunk.tool_call
        for block, chunk in zip(response.message.content, chunks, strict=True)
    )


def test_a_call_with_its_own_id_needs_no_response_id_before_it() -> None:
    events = [
        chunk({"functionCall": {"name": "f", "id": "x7k2"}}, response_id=None),
        chunk(finish="STOP"),
    ]

    _, response = answered(events)

    own = CourseOpaque("gemini", {"id": "x7k2"})
    assert response.message.content == (CourseToolCall("x7k2", "f", {}, opaque=own),)


def test_a_vendor_id_that_a_derived_id_repeats_is_refused_at_the_second_call() -> None:
    clash = course_call_id(RESPONSE_ID, 1)
    events = [chunk(call("f"), {"functionCall": {"name": "g", "id": clash}}, finish="STOP")]
    assert isinstance(judged(events), GeminiResult)
    events = [chunk({"functionCall": {"name": "g", "id": clash}}), chunk(call("f"), finish="STOP")]

    error = failed(events)

    assert (error.code, error.event_index) == (C.VENDOR_INVALID_EVENT, 1)
    assert "is the id of an earlier Tool call" in error.message


def test_a_streamed_call_is_one_tool_call_pushed_at_the_part_that_closes_it() -> None:
    parts = streamed_call(
        "read_screen",
        [{"jsonPath": "$.id", "stringValue": "A", "willContinue": True}],
        [{"jsonPath": "$.id", "stringValue": ""}],
    )
    events = [chunk(part) for part in parts] + [chunk(text(""), finish="STOP")]
    parser = GeminiMapping(REQUEST_ID)

    made = [parser.feed(item, index) for index, item in enumerate(events)]
    response = parser.end(len(events))

    expected = CourseToolCall(course_call_id(RESPONSE_ID, 0), "read_screen", {"id": "A"})
    assert made == [None, None, None, CourseToolCallChunk(REQUEST_ID, expected), None]
    assert response.message.content == (expected,)
    assert response.stop_reason is CourseStopReason.TOOL_CALL


def test_a_signature_ends_a_text_block_and_a_thought_comes_between_as_reasoning() -> None:
    events = [
        chunk(text("a", thoughtSignature="AA==")),
        chunk(thought("hmm"), text("b")),
        chunk({"thoughtSignature": "BB=="}, text("c"), finish="STOP"),
    ]

    chunks, response = answered(events)

    assert chunks == [
        CourseTextDeltaChunk(REQUEST_ID, "a"),
        CourseReasoningDeltaChunk(REQUEST_ID, "hmm"),
        CourseTextDeltaChunk(REQUEST_ID, "b"),
        CourseTextDeltaChunk(REQUEST_ID, "c"),
    ]
    assert response.message.content == (
        CourseTextBlock("a", opaque=signed("AA==")),
        CourseReasoningBlock("hmm"),
        CourseTextBlock("b", opaque=signed("BB==")),
        CourseTextBlock("c"),
    )


@pytest.mark.parametrize(
    "reason",
    [
        "SAFETY",
        "RECITATION",
        "BLOCKLIST",
        "PROHIBITED_CONTENT",
        "MODEL_ARMOR",
        "ESCALATION",
        "SPII",
        "IMAGE_SAFETY",
    ],
)
def test_an_answer_a_filter_withheld_is_a_refusal_holding_what_came(reason: str) -> None:
    _, response = answered([chunk(text("cut")), chunk(finish=reason)])

    assert response.stop_reason is CourseStopReason.REFUSAL
    assert response.message.content == (CourseTextBlock("cut"),)


def test_a_refusals_finish_message_and_safety_ratings_are_left_out_of_the_message() -> None:
    # The port has no place for metadata about a stop (the README's "What a refusal drops").
    rating = {"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "probability": "HIGH"}
    withheld = chunk(finish="SAFETY", finishMessage="Withheld.", safetyRatings=[rating])

    _, response = answered([chunk(text("cut")), withheld])

    assert response.stop_reason is CourseStopReason.REFUSAL
    assert response.message.content == (CourseTextBlock("cut"),)


def test_a_refusal_after_a_tool_call_is_an_invalid_terminal() -> None:
    error = failed([chunk(call("f")), chunk(finish="SAFETY")])

    assert (error.code, error.vendor_type, error.event_index) == (
        C.VENDOR_INVALID_TERMINAL,
        "SAFETY",
        1,
    )


@pytest.mark.parametrize("reason", ["TOO_MANY_TOOL_CALLS", "CONTINUATION", "NO_IMAGE"])
def test_a_stop_the_course_cannot_express_is_incomplete(reason: str) -> None:
    error = failed([chunk(text("cut"), finish=reason)])

    assert (error.code, error.vendor_type) == (C.VENDOR_INCOMPLETE, reason)


def test_the_grammar_accepts_a_body_without_response_id_and_the_mapping_refuses_it() -> None:
    events = [chunk(text("a"), finish="STOP", response_id=None)]
    assert isinstance(judged(events), GeminiResult)

    error = failed(events)

    assert (error.code, error.event_index) == (C.VENDOR_INVALID_EVENT, 0)
    assert error.message == "event 0: no chunk gave a responseId"


def test_a_mapping_is_spent_after_a_refusal_and_its_grammar_never_saw_more() -> None:
    parser = GeminiMapping(REQUEST_ID)
    with pytest.raises(VendorError) as first:
        parser.feed(chunk({"inlineData": UNCARRIED["inlineData"]}), 0)

    with pytest.raises(VendorError) as again:
        parser.feed(chunk(text("a"), finish="STOP"), 1)
    assert again.value is first.value
    assert parser.grammar.failure is None
    assert not parser.finished


def test_a_streamed_call_the_output_limit_cut_is_never_a_call() -> None:
    parts = streamed_call("read_screen", [{"jsonPath": "$.id", "stringValue": "A"}])[:-1]
    events = [chunk(text("Reading. ")), *(chunk(part) for part in parts)]
    events.append(chunk(finish="MAX_TOKENS"))
    cut_short = [*events[:-1], chunk(finish="STOP")]

    chunks, response = answered(events)

    assert chunks == [CourseTextDeltaChunk(REQUEST_ID, "Reading. ")]
    assert response.stop_reason is CourseStopReason.LENGTH
    assert response.message.content == (CourseTextBlock("Reading. "),)
    assert failed(cut_short).code is C.VENDOR_EVENT_ORDER


def test_a_thought_run_continues_only_with_thought_text_parts() -> None:
    events = [
        chunk(thought("a")),
        chunk({"text": "b", "thought": False}),
        chunk(thought("c"), thought("d"), finish="STOP"),
    ]

    chunks, response = answered(events)

    assert [type(item) for item in chunks] == [
        CourseReasoningDeltaChunk,
        CourseTextDeltaChunk,
        CourseReasoningDeltaChunk,
        CourseReasoningDeltaChunk,
    ]
    assert response.message.content == (
        CourseReasoningBlock("a"),
        CourseTextBlock("b"),
        CourseReasoningBlock("cd"),
    )
    error = failed([chunk(thought("a")), chunk({"text": 5, "thought": True})])
    assert (error.code, error.event_index) == (C.VENDOR_INVALID_EVENT, 1)
    assert "candidates[0].content.parts[0].text" in error.message
