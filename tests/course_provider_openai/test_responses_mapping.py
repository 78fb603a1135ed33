"""ResponsesMapping: the Responses wire played as course chunks and one response, a case per rule.

Each rule of the stream, and each code, as the model meets it: the mapping
feeds every frame to `ResponsesGrammar` first, so the grammar's own
refusals show here too (every kind the grammar reads is in
``test_responses_grammar``).
"""

from __future__ import annotations

from typing import Any

import pytest

from course_http import SseEvent, VendorError, VendorErrorCode
from course_protocol import (
    CourseOpaque,
    CourseProtocolError,
    CourseReasoningBlock,
    CourseReasoningDeltaChunk,
    CourseStopReason,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
)
from course_provider_openai import ResponsesMapping
from tests.course_provider_openai.bodies import (
    CALL_ID,
    CALL_ITEM_ID,
    MESSAGE_ID,
    RESPONSE_ID,
    args_delta,
    args_done,
    call_events,
    call_item,
    completed,
    created,
    function_call,
    in_progress,
    item_added,
    item_done,
    message_item,
    part,
    part_added,
    part_done,
    responses_events,
    responses_text_block,
    responses_text_stream,
    text_delta,
    text_done,
    text_events,
    text_item,
    text_part,
)
from tests.course_provider_openai.driving import Replay, replay
from tests.streams import text_deltas

Code = VendorErrorCode
REQUEST = "request-1"
MSG = MESSAGE_ID
FC = CALL_ITEM_ID
CALL = CALL_ID
TEXT_AT = text_part(0, MSG)


def own_call(
    call_id: str = CALL, name: str = "add", arguments: dict[str, Any] | None = None, item: str = FC
) -> CourseToolCall:
    """The course call of a function call item: its ``call_id``, and its item id in the opaque."""
    opaque = CourseOpaque("openai-responses", {"id": item})
    return CourseToolCall(
        call_id, name, {"a": 1} if arguments is None else arguments, opaque=opaque
    )


def run_events(events: list[SseEvent]) -> Replay:
    return replay(ResponsesMapping(REQUEST), events)


def run(*payloads: dict[str, Any] | str, start: int = 0) -> Replay:
    return run_events(responses_events(*payloads, start=start))


def failed(*payloads: dict[str, Any] | str) -> VendorError:
    outcome = run(*payloads)
    assert outcome.response is None
    assert outcome.error is not None
    assert outcome.error.vendor == "openai-responses"
    return outcome.error


def test_a_text_answer_streams_its_deltas_and_completes_with_usage() -> None:
    outcome = run_events(responses_text_stream("4200 + 42", " equals ", "4242."))

    assert outcome.error is None
    assert text_deltas(outcome.chunks) == ["4200 + 42", " equals ", "4242."]
    response = outcome.response
    assert response is not None
    assert (response.id, response.request_id) == (RESPONSE_ID, REQUEST)
    assert response.message.id == f"message-{RESPONSE_ID}"
    assert response.message.content == (responses_text_block("4200 + 42 equals 4242."),)
    assert response.stop_reason is CourseStopReason.STOP
    assert (response.usage.input_tokens, response.usage.output_tokens) == (16, 11)


def test_an_empty_text_delta_yields_no_chunk() -> None:
    outcome = run(created(), *text_events("", "a", ""), completed([text_item("a")]))

    assert text_deltas(outcome.chunks) == ["a"]
    assert outcome.response is not None


def test_the_course_tool_call_id_is_the_call_id_never_the_item_id() -> None:
    parser = ResponsesMapping(REQUEST)
    events = responses_events(created(), *call_events(), completed([call_item()]))

    produced = [parser.feed(event, index) for index, event in enumerate(events)]

    expected = CourseToolCallChunk(REQUEST, own_call())
    assert [chunk for chunk in produced if chunk is not None] == [expected]
    assert produced[4] == expected, "emitted at function_call_arguments.done"
    response = parser.end(len(events))
    assert response.stop_reason is CourseStopReason.TOOL_CALL
    assert response.message.content == (own_call(),)
    assert response.message.content[0].opaque == CourseOpaque("openai-responses", {"id": FC})


def test_a_call_without_arguments_done_completes_at_its_item_done() -> None:
    events = call_events()
    del events[3]  # function_call_arguments.done
    outcome = run(created(), *events, completed([call_item()]))

    assert outcome.error is None
    assert [type(chunk) for chunk in outcome.chunks] == [CourseToolCallChunk]


def test_a_call_with_no_argument_text_has_empty_arguments() -> None:
    outcome = run(created(), *call_events(fragments=()), completed([call_item(arguments="")]))

    assert outcome.response is not None
    assert outcome.response.message.content == (own_call(arguments={}),)


def test_reasoning_text_and_parallel_calls_keep_the_output_order() -> None:
    reasoning = {"id": "rs_own", "type": "reasoning", "summary": [], "encrypted_content": "gAAA"}
    summary = {"type": "summary_text", "text": "hmm"}
    reasoned = {**reasoning, "summary": [summary]}
    reasoning_where = {"item_id": "rs_own", "output_index": 0, "summary_index": 0}
    empty = {"type": "summary_text", "text": ""}
    outcome = run(
        created(),
        in_progress(),
        item_added(0, reasoning),
        {"type": "response.reasoning_summary_part.added", **reasoning_where, "part": empty},
        {"type": "response.reasoning_summary_text.delta", **reasoning_where, "delta": "hmm"},
        {"type": "response.reasoning_summary_text.done", **reasoning_where, "text": "hmm"},
        {"type": "response.reasoning_summary_part.done", **reasoning_where, "part": summary},
        item_done(0, reasoned),
        *text_events("Checking.", output_index=1),
        *call_events(2, "fc_a", "call_a", "lookup", ('{"q": "x"}',)),
        *call_events(3, "fc_b", "call_b", "lookup", ('{"q":', ' "y"}')),
        completed(
            [
                reasoned,
                text_item("Checking."),
                call_item("fc_a", "call_a", "lookup", '{"q": "x"}'),
                call_item("fc_b", "call_b", "lookup", '{"q": "y"}'),
            ]
        ),
    )

    assert outcome.error is None
    assert [type(chunk) for chunk in outcome.chunks] == [
        CourseReasoningDeltaChunk,
        CourseTextDeltaChunk,
        CourseToolCallChunk,
        CourseToolCallChunk,
    ]
    assert outcome.response is not None
    assert outcome.response.message.content == (
        CourseReasoningBlock("hmm", opaque=CourseOpaque("openai-responses", reasoned)),
        responses_text_block("Checking."),
        own_call("call_a", "lookup", {"q": "x"}, "fc_a"),
        own_call("call_b", "lookup", {"q": "y"}, "fc_b"),
    )


def test_a_queued_background_response_streams_like_any_other() -> None:
    stream = responses_text_stream("4")
    queued = responses_events(
        created("queued"), {"type": "response.queued", "response": {"id": RESPONSE_ID}}
    )
    events = [*queued, *responses_text_stream("4", start=1)[1:]]

    outcome = run_events(events)

    assert outcome.error is None
    assert text_deltas(outcome.chunks) == text_deltas(run_events(stream).chunks) == ["4"]


def test_sequence_numbers_may_start_anywhere_and_frames_may_be_unnamed() -> None:
    named = responses_text_stream("a", start=41)
    unnamed = [SseEvent("message", event.data) for event in named]

    assert run_events(named).response is not None
    assert run_events(unnamed).response is not None


def test_annotations_are_the_citations_of_their_text_each_as_the_vendor_sent_it() -> None:
    events = text_events("See ", "this.")
    annotation = {
        "type": "response.output_text.annotation.added",
        **TEXT_AT,
        "annotation_index": 0,
        "annotation": {
            "type": "url_citation",
            "url": "https://example.com",
            "title": "Example",
            "start_index": 4,
            "end_index": 9,
        },
    }
    events.insert(3, annotation)
    outcome = run(created(), *events, completed([text_item("See this.")]))

    assert outcome.response is not None
    citation = CourseOpaque("openai-responses", annotation["annotation"])
    assert outcome.response.message.content == (
        responses_text_block("See this.", citations=(citation,)),
    )
    assert text_deltas(outcome.chunks) == ["See ", "this."]


def phased(phase: str, text: str, output_index: int, item_id: str) -> list[dict[str, Any]]:
    """A message of one output text whose item says its ``phase`` when added and when done."""
    events = text_events(text, output_index=output_index, item_id=item_id)
    events[0] = item_added(output_index, message_item(item_id, phase=phase))
    events[-1] = item_done(output_index, {**text_item(text, item_id=item_id), "phase": phase})
    return events


def test_each_text_block_keeps_its_messages_id_and_phase_in_its_opaque() -> None:
    outcome = run(
        created(),
        *phased("commentary", "Checking.", 0, "msg_own_1"),
        *phased("final_answer", "Done.", 1, "msg_own_2"),
        completed([]),
    )

    assert outcome.response is not None
    assert outcome.response.message.content == (
        responses_text_block("Checking.", "msg_own_1", phase="commentary"),
        responses_text_block("Done.", "msg_own_2", phase="final_answer"),
    )


def test_the_mapping_is_finished_only_after_completed() -> None:
    parser = ResponsesMapping(REQUEST)
    events = responses_text_stream("a")
    for index, event in enumerate(events[:-1]):
        parser.feed(event, index)
        assert not parser.finished
    parser.feed(events[-1], len(events) - 1)
    assert parser.finished


def incomplete(reason: object, *, usage: bool = True) -> dict[str, Any]:
    response: dict[str, Any] = {
        "id": RESPONSE_ID,
        "status": "incomplete",
        "incomplete_details": {"reason": reason},
    }
    if usage:
        response["usage"] = {"input_tokens": 9, "output_tokens": 4}
    return {"type": "response.incomplete", "response": response}


def test_the_output_limit_ends_length_with_the_partial_text_and_never_a_cut_call() -> None:
    cut = item_added(1, function_call("fc_cut", "call_cut", "add"))
    outcome = run(
        created(),
        *text_events("Alabama, ", "Alaska"),
        cut,
        args_delta('{"a":', 1, "fc_cut"),
        incomplete("max_output_tokens"),
    )

    assert outcome.error is None
    assert text_deltas(outcome.chunks) == ["Alabama, ", "Alaska"]
    assert not [chunk for chunk in outcome.chunks if type(chunk) is CourseToolCallChunk]
    response = outcome.response
    assert response is not None
    assert response.stop_reason is CourseStopReason.LENGTH
    assert response.message.content == (responses_text_block("Alabama, Alaska"),)
    assert (response.usage.input_tokens, response.usage.output_tokens) == (9, 4)


def test_text_the_limit_cut_mid_part_is_kept_as_it_streamed() -> None:
    events = text_events("Alabama, ", "Alaska")[:4]  # added, part added, the two deltas

    outcome = run(created(), *events, incomplete("max_output_tokens"))

    assert outcome.response is not None
    assert outcome.response.stop_reason is CourseStopReason.LENGTH
    assert outcome.response.message.content == (responses_text_block("Alabama, Alaska"),)


def test_a_complete_call_before_the_limit_stays_in_the_length_message() -> None:
    outcome = run(created(), *call_events(), incomplete("max_output_tokens"))

    assert outcome.response is not None
    assert outcome.response.stop_reason is CourseStopReason.LENGTH
    assert outcome.response.message.content == (own_call(),)


def test_the_content_filter_ends_refusal_with_what_came_before() -> None:
    outcome = run(created(), *text_events("Well"), incomplete("content_filter"))

    assert outcome.response is not None
    assert outcome.response.stop_reason is CourseStopReason.REFUSAL
    assert outcome.response.message.content == (responses_text_block("Well"),)


@pytest.mark.parametrize("reason", ["something_new", None])
def test_an_incomplete_reason_the_course_cannot_express_fails_closed(reason: object) -> None:
    outcome = run(created(), *text_events("Alabama"), incomplete(reason))

    assert text_deltas(outcome.chunks) == ["Alabama"]
    error = outcome.error
    assert error is not None
    assert (error.code, error.event_index) == (Code.VENDOR_INCOMPLETE, 7)
    assert error.vendor_type == (reason or "incomplete")


def test_a_content_filter_after_a_complete_call_fails_closed_a_refusal_asks_for_no_tool() -> None:
    error = failed(created(), *call_events(), incomplete("content_filter"))

    assert (error.code, error.vendor_type) == (Code.VENDOR_INCOMPLETE, "content_filter")


def test_an_incomplete_response_without_usage_misses_its_terminal() -> None:
    error = failed(created(), *text_events("a"), incomplete("max_output_tokens", usage=False))

    assert error.code is Code.VENDOR_MISSING_TERMINAL
    assert "response.incomplete carried no usage" in error.message


def test_an_error_event_then_failed_is_a_vendor_error_event_at_the_error() -> None:
    error_event = {
        "type": "error",
        "error": {"type": "insufficient_quota", "code": "insufficient_quota", "message": "quota"},
    }
    failed_event = {
        "type": "response.failed",
        "response": {"id": RESPONSE_ID, "status": "failed", "error": {"code": "x", "message": "y"}},
    }
    error = failed(created(), in_progress(), error_event, failed_event)

    assert error.code is Code.VENDOR_ERROR_EVENT
    assert (error.vendor_type, error.vendor_code, error.vendor_message) == (
        "insufficient_quota",
        "insufficient_quota",
        "quota",
    )
    assert error.event_index == 2


def test_response_failed_alone_carries_the_responses_error() -> None:
    failed_event = {
        "type": "response.failed",
        "response": {
            "id": RESPONSE_ID,
            "status": "failed",
            "error": {"code": "server_error", "message": "The server had an error"},
        },
    }
    error = failed(created(), failed_event)

    assert error.code is Code.VENDOR_ERROR_EVENT
    assert (error.vendor_code, error.vendor_message) == ("server_error", "The server had an error")


def test_an_error_event_with_its_fields_at_the_top_and_before_created_is_still_the_error() -> None:
    error = failed(
        {"type": "error", "code": "rate_limit_exceeded", "message": "slow", "param": None}
    )

    assert error.code is Code.VENDOR_ERROR_EVENT
    assert (error.vendor_code, error.vendor_message) == ("rate_limit_exceeded", "slow")


def refusal_stream(*deltas: str) -> list[dict[str, Any]]:
    where = TEXT_AT
    joined = "".join(deltas)
    refused = message_item(MSG, status="completed", content=[part("refusal", joined)])
    return [
        created(),
        item_added(0, message_item(MSG)),
        part_added("refusal"),
        *({"type": "response.refusal.delta", **where, "delta": delta} for delta in deltas),
        {"type": "response.refusal.done", **where, "refusal": joined},
        part_done(joined, "refusal"),
        item_done(0, refused),
        completed([refused]),
    ]


def test_a_refusal_streams_as_text_and_ends_refusal_its_part_marked_in_the_opaque() -> None:
    outcome = run(*refusal_stream("I'm sorry", ", no."))

    assert outcome.error is None
    assert text_deltas(outcome.chunks) == ["I'm sorry", ", no."]
    response = outcome.response
    assert response is not None
    assert response.stop_reason is CourseStopReason.REFUSAL
    assert response.message.content == (responses_text_block("I'm sorry, no.", refusal=True),)


def test_a_refusal_part_that_closes_without_its_done_is_still_a_refusal() -> None:
    events = refusal_stream("No.")
    del events[4]  # response.refusal.done

    outcome = run(*events)

    assert outcome.response is not None
    assert outcome.response.stop_reason is CourseStopReason.REFUSAL


UNCARRIED: dict[str, tuple[dict[str, Any], str]] = {
    "mcp_approval_request": ({}, "the vendor asking the client to approve an MCP Tool call"),
    "mcp_approval_response": ({}, "an answer to an MCP approval request"),
    "computer_call": ({}, "a computer action the client performs"),
    "computer_call_output": ({}, "the screenshot a computer action returned"),
    "local_shell_call": ({}, "a shell command the client runs"),
    "local_shell_call_output": ({}, "the output of a shell command the client ran"),
    "shell_call": ({"environment": {"type": "local"}}, "a shell command the client runs"),
    "shell_call_output": ({}, "the output of a shell command"),
    "apply_patch_call": ({}, "a file patch the client applies"),
    "apply_patch_call_output": ({}, "the result of a file patch"),
    "custom_tool_call": (
        {"call_id": "call_c", "name": "grep", "input": ""},
        "a call of a custom Tool the client runs, its input free text",
    ),
    "custom_tool_call_output": ({}, "the output of a custom Tool"),
    "function_call_output": ({}, "a function's output placed in the response"),
    "tool_search_call": ({"execution": "client"}, "a Tool search the client runs"),
    "tool_search_output": (
        {"execution": "client"},
        "the Tools a Tool search the client runs found",
    ),
    "additional_tools": ({}, "Tools the vendor adds to the conversation"),
    "program": ({}, "a program the model writes to call Tools"),
    "program_output": ({}, "the result of a program that called Tools"),
}
"""Every documented item the course cannot carry: what its added form holds, and what it is.

Each is run by the client (it awaits an answer the port has no form for),
or its pairing with its output is not carried yet (a shell call, a program).
"""


@pytest.mark.parametrize("kind", sorted(UNCARRIED))
def test_every_item_the_course_cannot_carry_is_refused_at_its_added_naming_kind_and_wire(
    kind: str,
) -> None:
    fields, what = UNCARRIED[kind]
    added = item_added(0, {"id": "it_1", "type": kind, "status": "in_progress", **fields})
    outcome = run(created(), added)

    assert outcome.error is not None
    assert (outcome.error.code, outcome.error.event_index) == (
        Code.VENDOR_UNSUPPORTED_CONTENT,
        1,
    )
    assert outcome.error.message == (
        f"event 1: output item type {kind!r} is {what}; "
        "the course protocol cannot carry it (openai-responses)"
    )
    assert "server-side" not in outcome.error.message


@pytest.mark.parametrize(
    ("fields", "what"),
    [
        ({"environment": {"type": "container_reference", "container_id": "cntr_1"}}, "the vendor"),
        ({}, "the client"),
    ],
    ids=["container", "no-environment"],
)
def test_a_shell_call_names_who_runs_it_from_its_environment(
    fields: dict[str, Any], what: str
) -> None:
    added = item_added(0, {"id": "sh_1", "type": "shell_call", "status": "in_progress", **fields})

    error = failed(created(), added)

    assert error.code is Code.VENDOR_UNSUPPORTED_CONTENT
    assert f"'shell_call' is a shell command {what} runs" in error.message


def test_a_client_run_tool_search_says_the_client_runs_it() -> None:
    added = {"id": "ts_1", "type": "tool_search_call", "execution": "client"}

    error = failed(created(), item_added(0, added))

    assert "'tool_search_call' is a Tool search the client runs" in error.message


def test_text_delivered_before_an_uncarried_item_stays_delivered() -> None:
    added = item_added(1, {"id": "cu_1", "type": "computer_call", "status": "in_progress"})

    outcome = run(created(), *text_events("Let me look.", output_index=0), added)

    assert text_deltas(outcome.chunks) == ["Let me look."]
    assert outcome.error is not None
    assert (outcome.error.code, outcome.error.event_index) == (
        Code.VENDOR_UNSUPPORTED_CONTENT,
        7,
    )


@pytest.mark.parametrize(
    "kind",
    [
        "response.audio.delta",
        "response.audio.done",
        "response.audio.transcript.delta",
        "response.audio.transcript.done",
    ],
)
def test_audio_output_is_unsupported_content_at_its_first_event(kind: str) -> None:
    event: dict[str, Any] = {"type": kind}
    if kind.endswith(".delta"):
        event["delta"] = "UklGRg=="
    error = failed(created(), event)

    assert (error.code, error.event_index) == (Code.VENDOR_UNSUPPORTED_CONTENT, 1)
    assert error.message == (
        f"event 1: event type {kind!r} is audio output; "
        "the course protocol cannot carry it (openai-responses)"
    )


def gap(events: list[SseEvent], position: int, sequence: object) -> list[SseEvent]:
    import json

    data = json.loads(events[position].data)
    data["sequence_number"] = sequence
    changed = list(events)
    changed[position] = SseEvent(events[position].event, json.dumps(data))
    return changed


@pytest.mark.parametrize(
    ("sequence", "code"),
    [
        (5, Code.VENDOR_EVENT_ORDER),
        (3, Code.VENDOR_EVENT_ORDER),
        (2, Code.VENDOR_EVENT_ORDER),
        (None, Code.VENDOR_INVALID_EVENT),
        ("4", Code.VENDOR_INVALID_EVENT),
        (4.0, Code.VENDOR_INVALID_EVENT),
    ],
    ids=["gap", "repeat", "backwards", "missing", "text", "float"],
)
def test_a_sequence_number_that_is_not_the_previous_plus_one_fails(
    sequence: object, code: VendorErrorCode
) -> None:
    outcome = run_events(gap(responses_text_stream("a", "b"), 4, sequence))

    assert outcome.error is not None
    assert outcome.error.code is code
    assert outcome.error.event_index == 4
    assert text_deltas(outcome.chunks) == []


@pytest.mark.parametrize("first", [-1, True, None], ids=["negative", "bool", "missing"])
def test_the_first_sequence_number_must_be_a_non_negative_integer(first: object) -> None:
    outcome = run_events(gap(responses_text_stream("a"), 0, first))

    assert outcome.error is not None
    assert outcome.error.code is Code.VENDOR_INVALID_EVENT


MESSAGE_OPEN = [created(), item_added(0, message_item(MSG)), part_added()]
CALL_OPEN = [created(), item_added(0, function_call(FC, CALL, "add"))]
DONE_TEXT = [*MESSAGE_OPEN, text_delta("a"), text_done("a"), part_done("a")]

FAILURES: list[tuple[str, list[dict[str, Any] | str], VendorErrorCode, int]] = [
    ("data-not-json", [created(), "nope"], Code.VENDOR_INVALID_EVENT, 1),
    ("type-missing", [created(), {"output_index": 0}], Code.VENDOR_INVALID_EVENT, 1),
    ("type-a-list", [created(), {"type": ["x"]}], Code.VENDOR_INVALID_EVENT, 1),
    ("type-unknown", [created(), {"type": "response.brand_new"}], Code.VENDOR_UNKNOWN_EVENT, 1),
    ("before-created", [in_progress()], Code.VENDOR_EVENT_ORDER, 0),
    ("second-created", [created(), created()], Code.VENDOR_EVENT_ORDER, 1),
    ("created-without-response", [{"type": "response.created"}], Code.VENDOR_INVALID_EVENT, 0),
    ("created-blank-id", [created(response_id=" ")], Code.VENDOR_INVALID_EVENT, 0),
    ("created-completed", [created("completed")], Code.VENDOR_INVALID_EVENT, 0),
    ("in-progress-other-id", [created(), in_progress("resp_other")], Code.VENDOR_INVALID_EVENT, 1),
    (
        "item-out-of-order",
        [created(), item_added(1, message_item(MSG))],
        Code.VENDOR_EVENT_ORDER,
        1,
    ),
    (
        "item-added-twice",
        [created(), item_added(0, message_item(MSG)), item_added(0, message_item(MSG))],
        Code.VENDOR_EVENT_ORDER,
        2,
    ),
    (
        "item-index-text",
        [created(), item_added("0", message_item(MSG))],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "item-not-an-object",
        [created(), {"type": "response.output_item.added", "output_index": 0}],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "item-unknown-kind",
        [created(), item_added(0, {"id": "x_1", "type": "hologram"})],
        Code.VENDOR_UNKNOWN_EVENT,
        1,
    ),
    ("item-kind-missing", [created(), item_added(0, {"id": "x_1"})], Code.VENDOR_INVALID_EVENT, 1),
    (
        "item-without-id",
        [created(), item_added(0, {"type": "message", "role": "assistant"})],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "message-role-user",
        [created(), item_added(0, message_item(MSG, role="user"))],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "call-without-call-id",
        [created(), item_added(0, {**function_call(FC, CALL, "f"), "call_id": None})],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "call-blank-name",
        [created(), item_added(0, function_call(FC, CALL, " "))],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "call-arguments-a-number",
        [created(), item_added(0, {**function_call(FC, CALL, "f"), "arguments": 1})],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    ("delta-for-no-item", [created(), text_delta("a")], Code.VENDOR_EVENT_ORDER, 1),
    (
        "delta-for-no-part",
        [created(), item_added(0, message_item(MSG)), text_delta("a")],
        Code.VENDOR_EVENT_ORDER,
        2,
    ),
    (
        "delta-wrong-item-id",
        [*MESSAGE_OPEN, text_delta("a", **text_part(0, "msg_other"))],
        Code.VENDOR_INVALID_EVENT,
        3,
    ),
    (
        "delta-index-text",
        [*MESSAGE_OPEN, text_delta("a", item_id=MSG, output_index="0", content_index=0)],
        Code.VENDOR_INVALID_EVENT,
        3,
    ),
    (
        "delta-content-index-missing",
        [*MESSAGE_OPEN, text_delta("a", item_id=MSG, output_index=0)],
        Code.VENDOR_INVALID_EVENT,
        3,
    ),
    ("delta-not-text", [*MESSAGE_OPEN, text_delta(7)], Code.VENDOR_INVALID_EVENT, 3),
    (
        "delta-after-text-done",
        [*MESSAGE_OPEN, text_done(""), text_delta("a")],
        Code.VENDOR_EVENT_ORDER,
        4,
    ),
    ("delta-after-part-done", [*DONE_TEXT, text_delta("b")], Code.VENDOR_EVENT_ORDER, 6),
    (
        "delta-in-a-call-item",
        [*CALL_OPEN, text_delta("a", **text_part(0, FC))],
        Code.VENDOR_EVENT_ORDER,
        2,
    ),
    (
        "delta-in-a-refusal-part",
        [created(), item_added(0, message_item(MSG)), part_added("refusal"), text_delta("a")],
        Code.VENDOR_EVENT_ORDER,
        3,
    ),
    (
        "text-done-differs",
        [*MESSAGE_OPEN, text_delta("a"), text_done("ab")],
        Code.VENDOR_INVALID_EVENT,
        4,
    ),
    (
        "text-done-without-text",
        [*MESSAGE_OPEN, text_delta("a"), text_done(None)],
        Code.VENDOR_INVALID_EVENT,
        4,
    ),
    ("text-done-twice", [*MESSAGE_OPEN, text_done(""), text_done("")], Code.VENDOR_EVENT_ORDER, 4),
    (
        "part-unknown-kind",
        [created(), item_added(0, message_item(MSG)), part_added("output_audio")],
        Code.VENDOR_UNKNOWN_EVENT,
        2,
    ),
    (
        "part-out-of-order",
        [created(), item_added(0, message_item(MSG)), part_added(**text_part(0, MSG, 1))],
        Code.VENDOR_EVENT_ORDER,
        2,
    ),
    ("part-done-twice", [*DONE_TEXT, part_done("a")], Code.VENDOR_EVENT_ORDER, 6),
    (
        "message-done-with-open-part",
        [*MESSAGE_OPEN, item_done(0, message_item(MSG))],
        Code.VENDOR_EVENT_ORDER,
        3,
    ),
    (
        "item-done-other-id",
        [*DONE_TEXT, item_done(0, text_item("a", item_id="msg_other"))],
        Code.VENDOR_INVALID_EVENT,
        6,
    ),
    (
        "item-done-other-type",
        [*DONE_TEXT, item_done(0, {**text_item("a"), "type": "reasoning"})],
        Code.VENDOR_INVALID_EVENT,
        6,
    ),
    (
        "item-done-twice",
        [*DONE_TEXT, item_done(0, text_item("a")), item_done(0, text_item("a"))],
        Code.VENDOR_EVENT_ORDER,
        7,
    ),
    (
        "item-done-for-no-item",
        [created(), item_done(0, message_item(MSG))],
        Code.VENDOR_EVENT_ORDER,
        1,
    ),
    ("args-delta-not-text", [*CALL_OPEN, args_delta(None)], Code.VENDOR_INVALID_EVENT, 2),
    (
        "args-delta-wrong-item-id",
        [*CALL_OPEN, args_delta("{", item_id="fc_other")],
        Code.VENDOR_INVALID_EVENT,
        2,
    ),
    (
        "args-delta-in-a-message",
        [created(), item_added(0, message_item(MSG)), args_delta("{", item_id=MSG)],
        Code.VENDOR_EVENT_ORDER,
        2,
    ),
    (
        "args-done-differs",
        [*CALL_OPEN, args_delta("{}"), args_done('{"a": 1}')],
        Code.VENDOR_INVALID_EVENT,
        3,
    ),
    (
        "args-done-not-json",
        [*CALL_OPEN, args_delta('{"a'), args_done('{"a')],
        Code.VENDOR_INVALID_TOOL_ARGUMENTS,
        3,
    ),
    (
        "args-done-an-array",
        [*CALL_OPEN, args_delta("[]"), args_done("[]")],
        Code.VENDOR_INVALID_TOOL_ARGUMENTS,
        3,
    ),
    ("args-done-twice", [*CALL_OPEN, args_done(""), args_done("")], Code.VENDOR_EVENT_ORDER, 3),
    (
        "args-delta-after-done",
        [*CALL_OPEN, args_done(""), args_delta("{")],
        Code.VENDOR_EVENT_ORDER,
        3,
    ),
    (
        "call-done-other-call-id",
        [*CALL_OPEN, args_done(""), item_done(0, function_call(FC, "call_other", "add"))],
        Code.VENDOR_INVALID_EVENT,
        3,
    ),
    (
        "call-done-other-arguments",
        [*CALL_OPEN, args_done(""), item_done(0, function_call(FC, CALL, "add", "{}"))],
        Code.VENDOR_INVALID_EVENT,
        3,
    ),
    (
        "call-done-without-arguments-done-differs",
        [*CALL_OPEN, args_delta("{}"), item_done(0, function_call(FC, CALL, "add", ""))],
        Code.VENDOR_INVALID_EVENT,
        3,
    ),
    (
        "reasoning-event-for-a-message",
        [*MESSAGE_OPEN, {"type": "response.reasoning_summary_text.delta", **TEXT_AT, "delta": "x"}],
        Code.VENDOR_EVENT_ORDER,
        3,
    ),
    ("completed-with-open-item", [*MESSAGE_OPEN, completed([])], Code.VENDOR_EVENT_ORDER, 3),
    (
        "completed-other-id",
        [created(), completed([], response_id="resp_other")],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "completed-status-failed",
        [created(), completed([], status="failed")],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "completed-usage-missing",
        [
            created(),
            {
                "type": "response.completed",
                "response": {"id": RESPONSE_ID, "status": "completed", "output": []},
            },
        ],
        Code.VENDOR_MISSING_TERMINAL,
        1,
    ),
    (
        "completed-usage-negative",
        [created(), completed([], input_tokens=-1)],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "completed-usage-bool",
        [created(), completed([], output_tokens=False)],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "completed-output-not-an-array",
        [created(), {**completed([]), "response": {**completed([])["response"], "output": {}}}],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "completed-output-has-an-unstreamed-call",
        [created(), completed([call_item()])],
        Code.VENDOR_INVALID_TERMINAL,
        1,
    ),
    ("after-completed", [created(), completed([]), in_progress()], Code.VENDOR_EVENT_ORDER, 2),
    ("ends-without-terminal", [created(), *text_events("a")], Code.VENDOR_MISSING_TERMINAL, 7),
    ("empty-stream", [], Code.VENDOR_MISSING_TERMINAL, 0),
]


@pytest.mark.parametrize(
    ("payloads", "code", "event_index"),
    [case[1:] for case in FAILURES],
    ids=[case[0] for case in FAILURES],
)
def test_each_broken_stream_fails_with_its_code_at_its_event(
    payloads: list[dict[str, Any] | str], code: VendorErrorCode, event_index: int
) -> None:
    error = failed(*payloads)

    assert error.code is code, error.message
    assert error.event_index == event_index
    assert error.message.startswith(f"event {event_index}: ")


def test_an_event_name_that_differs_from_the_type_is_invalid() -> None:
    events = responses_text_stream("a")
    events[2] = SseEvent("response.output_item.done", events[2].data)

    outcome = run_events(events)

    assert outcome.error is not None
    assert outcome.error.code is Code.VENDOR_INVALID_EVENT
    assert outcome.error.event_index == 2


def test_a_missing_terminal_after_chunks_keeps_the_chunks() -> None:
    outcome = run_events(responses_text_stream("a", "b")[:-1])

    assert text_deltas(outcome.chunks) == ["a", "b"]
    assert outcome.error is not None
    assert outcome.error.code is Code.VENDOR_MISSING_TERMINAL


@pytest.mark.parametrize("request_id", ["", "\t", None, b"id"])
def test_the_mapping_refuses_a_blank_or_non_text_request_id(request_id: Any) -> None:
    with pytest.raises(CourseProtocolError):
        ResponsesMapping(request_id)


def test_argument_text_already_in_the_added_item_is_the_first_fragment() -> None:
    added = item_added(0, function_call(FC, CALL, "add", '{"a":'))
    outcome = run(
        created(),
        added,
        args_delta(" 1}"),
        args_done('{"a": 1}'),
        item_done(0, function_call(FC, CALL, "add", '{"a": 1}')),
        completed([call_item()]),
    )

    assert outcome.response is not None
    assert outcome.response.message.content == (own_call(),)


def test_reasoning_texts_stream_as_reasoning_and_go_back_as_its_content() -> None:
    reasoning = {"id": "rs_own", "type": "reasoning", "summary": []}
    step = {"type": "reasoning_text", "text": "step one"}
    where = {"item_id": "rs_own", "output_index": 0, "content_index": 0}
    outcome = run(
        created(),
        item_added(0, reasoning),
        {"type": "response.content_part.added", **where, "part": {**step, "text": ""}},
        {"type": "response.reasoning_text.delta", **where, "delta": "step one"},
        {"type": "response.reasoning_text.done", **where, "text": "step one"},
        {"type": "response.content_part.done", **where, "part": step},
        item_done(0, {**reasoning, "content": [step]}),
        *text_events("Six.", output_index=1),
        completed([]),
    )

    assert outcome.error is None
    assert text_deltas(outcome.chunks) == ["Six."]
    assert [
        chunk.delta for chunk in outcome.chunks if type(chunk) is CourseReasoningDeltaChunk
    ] == ["step one"]
    assert outcome.response is not None
    item = {**reasoning, "content": [step]}
    assert outcome.response.message.content == (
        CourseReasoningBlock("step one", opaque=CourseOpaque("openai-responses", item)),
        responses_text_block("Six."),
    )


def test_a_part_whose_type_is_not_text_is_invalid() -> None:
    added = {"type": "response.content_part.added", **TEXT_AT, "part": {"type": 3}}
    error = failed(created(), item_added(0, message_item(MSG)), added)

    assert error.code is Code.VENDOR_INVALID_EVENT
    assert "part.type" in error.message


def test_a_terminal_that_repeats_no_item_answers_with_the_streamed_text() -> None:
    outcome = run(created(), *text_events("Four", "."), completed([]))

    assert outcome.error is None
    assert outcome.response is not None
    assert outcome.response.message.content == (responses_text_block("Four."),)
    assert outcome.response.stop_reason is CourseStopReason.STOP


def test_a_terminal_that_repeats_no_item_answers_with_the_streamed_call_too() -> None:
    outcome = run(created(), *call_events(), completed([]))

    assert outcome.error is None
    assert outcome.response is not None
    assert outcome.response.message.content == (own_call(),)
    assert outcome.response.stop_reason is CourseStopReason.TOOL_CALL
    assert [type(chunk) for chunk in outcome.chunks] == [CourseToolCallChunk]


def test_a_terminal_that_lists_the_text_but_not_the_call_contradicts_the_stream() -> None:
    events = [*text_events("Adding.", output_index=0), *call_events(1)]

    error = failed(created(), *events, completed([text_item("Adding.")]))

    assert (error.code, error.event_index) == (Code.VENDOR_INVALID_TERMINAL, len(events) + 1)
    assert "response.output lists 1 item(s), the stream 2" in error.message
