"""ResponsesGrammar off its grammar: each mutation fails at its event, with its code.

Unknown kinds, a delta for something never started, a skipped or wrong
index, broken JSON, a second terminal, a field of the wrong type, a required
field missing; a numbering that changes its mind; and any cut or changed
byte of a rich body judged without raising.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from returns.result import Failure

from course_http import SseEvent, VendorError, VendorErrorCode
from course_protocol import JSON_MAX_DEPTH
from course_provider_openai import (
    RESPONSES_PLUGIN,
    ResponsesGrammar,
    ResponsesResult,
)
from course_vendor import judge_body
from tests.course_provider_openai.bodies import (
    CALL_ID,
    CALL_ITEM_ID,
    MESSAGE_ID,
    RESPONSE_ID,
    args_delta,
    args_done,
    call_events,
    completed,
    created,
    function_call,
    in_progress,
    item_added,
    item_done,
    message_item,
    output_text,
    part_added,
    part_done,
    responses_events,
    text_delta,
    text_events,
    text_item,
)
from tests.course_provider_openai.responses_kinds import (
    ANNOTATIONS,
    TEXT_AT,
    WHERE,
    Payload,
    annotated_text,
    body,
    phases,
    refused,
    terminal,
    tool_body,
)
from tests.course_vendor.wires import sse_bytes

Code = VendorErrorCode


def _tool_mutation(kind: str, position: int, replacement: dict[str, Any] | None) -> list[Payload]:
    """`tool_body` of ``kind`` with its event ``position`` replaced (``None``: dropped)."""
    events = tool_body(kind)
    if replacement is None:
        del events[position]
    else:
        events[position] = replacement
    return events


MESSAGE_OPEN: list[Payload] = [created(), item_added(0, message_item(MESSAGE_ID)), part_added()]
CALL_OPEN: list[Payload] = [created(), item_added(0, function_call(CALL_ITEM_ID, CALL_ID, "add"))]
RS_OPEN: list[Payload] = [
    created(),
    item_added(0, {"id": "rs_1", "type": "reasoning", "summary": []}),
]
RS = {"item_id": "rs_1", "output_index": 0}

OFF_GRAMMAR: list[tuple[str, list[Payload], VendorErrorCode, int]] = [
    ("broken-json", [created(), '{"type": "response.in_progress"'], Code.VENDOR_INVALID_EVENT, 1),
    ("not-an-object", [created(), "[1, 2]"], Code.VENDOR_INVALID_EVENT, 1),
    (
        "unknown-event",
        [created(), {"type": "response.reasoning.delta"}],
        Code.VENDOR_UNKNOWN_EVENT,
        1,
    ),
    (
        "unknown-item",
        [created(), item_added(0, {"id": "x", "type": "hologram"})],
        Code.VENDOR_UNKNOWN_EVENT,
        1,
    ),
    (
        "unknown-part",
        [created(), item_added(0, message_item(MESSAGE_ID)), part_added("output_audio")],
        Code.VENDOR_UNKNOWN_EVENT,
        2,
    ),
    (
        "unknown-annotation",
        [
            *MESSAGE_OPEN,
            {
                "type": "response.output_text.annotation.added",
                **TEXT_AT,
                "annotation_index": 0,
                "annotation": {"type": "page_citation", "page": 3},
            },
        ],
        Code.VENDOR_UNKNOWN_EVENT,
        3,
    ),
    (
        "annotation-without-url",
        [
            *MESSAGE_OPEN,
            {
                "type": "response.output_text.annotation.added",
                **TEXT_AT,
                "annotation_index": 0,
                "annotation": {"type": "url_citation", "start_index": 0, "end_index": 1},
            },
        ],
        Code.VENDOR_INVALID_EVENT,
        3,
    ),
    (
        "annotation-index-skips",
        [
            *MESSAGE_OPEN,
            {
                "type": "response.output_text.annotation.added",
                **TEXT_AT,
                "annotation_index": 1,
                "annotation": ANNOTATIONS[3],
            },
        ],
        Code.VENDOR_EVENT_ORDER,
        3,
    ),
    (
        "logprobs-not-an-array",
        [*MESSAGE_OPEN, {**text_delta("a"), "logprobs": "x"}],
        Code.VENDOR_INVALID_EVENT,
        3,
    ),
    (
        "logprob-without-token",
        [*MESSAGE_OPEN, {**text_delta("a"), "logprobs": [{"logprob": -1.0}]}],
        Code.VENDOR_INVALID_EVENT,
        3,
    ),
    (
        "part-added-with-text",
        [
            created(),
            item_added(0, message_item(MESSAGE_ID)),
            {**part_added(), "part": output_text("a")},
        ],
        Code.VENDOR_INVALID_EVENT,
        2,
    ),
    (
        "part-without-annotations",
        [
            created(),
            item_added(0, message_item(MESSAGE_ID)),
            {**part_added(), "part": {"type": "output_text", "text": ""}},
        ],
        Code.VENDOR_INVALID_EVENT,
        2,
    ),
    (
        "part-done-other-text",
        [*MESSAGE_OPEN, text_delta("a"), part_done("b")],
        Code.VENDOR_INVALID_EVENT,
        4,
    ),
    (
        "part-done-other-type",
        [*MESSAGE_OPEN, text_delta("a"), part_done("a", "refusal")],
        Code.VENDOR_INVALID_EVENT,
        4,
    ),
    (
        "message-added-with-parts",
        [created(), item_added(0, message_item(MESSAGE_ID, content=[output_text()]))],
        Code.VENDOR_EVENT_ORDER,
        1,
    ),
    (
        "message-done-other-text",
        [*MESSAGE_OPEN, text_delta("a"), part_done("a"), item_done(0, text_item("b"))],
        Code.VENDOR_INVALID_EVENT,
        5,
    ),
    (
        "reasoning-text-in-a-message",
        [created(), item_added(0, message_item(MESSAGE_ID)), part_added("reasoning_text")],
        Code.VENDOR_EVENT_ORDER,
        2,
    ),
    (
        "summary-delta-before-its-part",
        [
            *RS_OPEN,
            {
                "type": "response.reasoning_summary_text.delta",
                **RS,
                "summary_index": 0,
                "delta": "x",
            },
        ],
        Code.VENDOR_EVENT_ORDER,
        2,
    ),
    (
        "summary-part-skips",
        [
            *RS_OPEN,
            {
                "type": "response.reasoning_summary_part.added",
                **RS,
                "summary_index": 1,
                "part": {"type": "summary_text", "text": ""},
            },
        ],
        Code.VENDOR_EVENT_ORDER,
        2,
    ),
    (
        "reasoning-done-with-a-summary-part-open",
        [
            *RS_OPEN,
            {
                "type": "response.reasoning_summary_part.added",
                **RS,
                "summary_index": 0,
                "part": {"type": "summary_text", "text": ""},
            },
            item_done(0, {"id": "rs_1", "type": "reasoning", "summary": []}),
        ],
        Code.VENDOR_EVENT_ORDER,
        3,
    ),
    (
        "reasoning-done-without-its-summary",
        [
            *RS_OPEN,
            {
                "type": "response.reasoning_summary_part.added",
                **RS,
                "summary_index": 0,
                "part": {"type": "summary_text", "text": ""},
            },
            {
                "type": "response.reasoning_summary_part.done",
                **RS,
                "summary_index": 0,
                "part": {"type": "summary_text", "text": ""},
            },
            item_done(0, {"id": "rs_1", "type": "reasoning", "summary": []}),
        ],
        Code.VENDOR_INVALID_EVENT,
        4,
    ),
    (
        "arguments-for-a-message",
        [*MESSAGE_OPEN, args_delta("{", item_id=MESSAGE_ID)],
        Code.VENDOR_EVENT_ORDER,
        3,
    ),
    (
        "arguments-not-an-object",
        [*CALL_OPEN, args_delta("[1]"), args_done("[1]")],
        Code.VENDOR_INVALID_TOOL_ARGUMENTS,
        3,
    ),
    (
        "phase-for-another-kind",
        [*tool_body("web_search_call")[:2], *phases("file_search_call", "it_1", "searching")],
        Code.VENDOR_EVENT_ORDER,
        2,
    ),
    (
        "phase-after-the-final-one",
        [*tool_body("web_search_call")[:5], *phases("web_search_call", "it_1", "searching")],
        Code.VENDOR_EVENT_ORDER,
        5,
    ),
    (
        "phase-wrong-item-id",
        [*tool_body("web_search_call")[:2], *phases("web_search_call", "it_2", "searching")],
        Code.VENDOR_INVALID_EVENT,
        2,
    ),
    (
        "envelope-missing-action",
        _tool_mutation(
            "web_search_call",
            5,
            item_done(0, {"id": "it_1", "type": "web_search_call", "status": "completed"}),
        ),
        Code.VENDOR_INVALID_EVENT,
        5,
    ),
    (
        "envelope-field-of-another-type",
        _tool_mutation(
            "mcp_approval_response",
            2,
            item_done(
                0,
                {
                    "id": "it_1",
                    "type": "mcp_approval_response",
                    "approval_request_id": "r",
                    "approve": 1,
                },
            ),
        ),
        Code.VENDOR_INVALID_EVENT,
        2,
    ),
    (
        "code-done-differs",
        _tool_mutation(
            "code_interpreter_call",
            5,
            {"type": "response.code_interpreter_call_code.done", **WHERE, "code": "print(3)"},
        ),
        Code.VENDOR_INVALID_EVENT,
        5,
    ),
    (
        "custom-input-item-differs",
        _tool_mutation(
            "custom_tool_call",
            5,
            item_done(
                0,
                {
                    "id": "it_1",
                    "type": "custom_tool_call",
                    "call_id": "call_c",
                    "name": "grep",
                    "input": "ls",
                },
            ),
        ),
        Code.VENDOR_INVALID_EVENT,
        5,
    ),
    (
        "mcp-arguments-delta-after-done",
        _tool_mutation(
            "mcp_call", 6, {"type": "response.mcp_call_arguments.delta", **WHERE, "delta": "x"}
        ),
        Code.VENDOR_EVENT_ORDER,
        6,
    ),
    (
        "partial-image-skips",
        _tool_mutation(
            "image_generation_call",
            4,
            {
                "type": "response.image_generation_call.partial_image",
                **WHERE,
                "partial_image_index": 1,
                "partial_image_b64": "x",
            },
        ),
        Code.VENDOR_EVENT_ORDER,
        4,
    ),
    (
        "shell-command-delta-before-added",
        _tool_mutation("shell_call", 2, None),
        Code.VENDOR_EVENT_ORDER,
        2,
    ),
    (
        "shell-call-done-with-a-command-open",
        _tool_mutation("shell_call", 5, None),
        Code.VENDOR_EVENT_ORDER,
        5,
    ),
    (
        "shell-output-done-with-its-content-open",
        _tool_mutation("shell_call_output", 3, None),
        Code.VENDOR_EVENT_ORDER,
        3,
    ),
    (
        "tool-event-for-a-message",
        [*MESSAGE_OPEN, *phases("mcp_call", MESSAGE_ID, "in_progress")],
        Code.VENDOR_EVENT_ORDER,
        3,
    ),
    (
        "item-index-skips",
        [created(), item_added(1, message_item(MESSAGE_ID))],
        Code.VENDOR_EVENT_ORDER,
        1,
    ),
    (
        "audio-delta-after-done",
        [
            created(),
            {"type": "response.audio.done"},
            {"type": "response.audio.delta", "delta": "x"},
        ],
        Code.VENDOR_EVENT_ORDER,
        2,
    ),
    (
        "audio-before-created",
        [{"type": "response.audio.delta", "delta": "x"}],
        Code.VENDOR_EVENT_ORDER,
        0,
    ),
    ("done-marker-before-the-terminal", [created(), "[DONE]"], Code.VENDOR_EVENT_ORDER, 1),
    (
        "done-marker-after-the-terminal",
        [created(), completed([]), "[DONE]"],
        Code.VENDOR_EVENT_ORDER,
        2,
    ),
    ("second-terminal", [created(), completed([]), completed([])], Code.VENDOR_EVENT_ORDER, 2),
    (
        "failed-after-completed",
        [created(), completed([]), terminal("failed")],
        Code.VENDOR_EVENT_ORDER,
        2,
    ),
    (
        "completed-after-an-error",
        [created(), {"type": "error", "message": "m"}, completed([])],
        Code.VENDOR_EVENT_ORDER,
        2,
    ),
    (
        "failed-after-an-error-before-created",
        [{"type": "error", "message": "m"}, terminal("failed")],
        Code.VENDOR_EVENT_ORDER,
        1,
    ),
    (
        "error-without-message",
        [created(), {"type": "error", "code": "x"}],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "error-object-not-an-object",
        [created(), {"type": "error", "error": "boom"}],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "failed-error-without-message",
        [created(), terminal("failed", error={"code": "x"})],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "incomplete-reason-not-text",
        [created(), terminal("incomplete", incomplete_details={"reason": 3})],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "terminal-other-status",
        [created(), terminal("failed", status="completed")],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "usage-count-negative",
        [created(), terminal("incomplete", usage={"input_tokens": -1, "output_tokens": 1})],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "usage-without-output-tokens",
        [created(), terminal("completed", usage={"input_tokens": 1})],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "usage-cached-tokens-text",
        [
            created(),
            terminal(
                "completed",
                usage={
                    "input_tokens": 1,
                    "output_tokens": 1,
                    "input_tokens_details": {"cached_tokens": "0"},
                },
            ),
        ],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "usage-details-not-an-object",
        [
            created(),
            terminal(
                "completed",
                usage={"input_tokens": 1, "output_tokens": 1, "output_tokens_details": []},
            ),
        ],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "created-model-not-text",
        [{**created(), "response": {"id": RESPONSE_ID, "model": 4}}],
        Code.VENDOR_INVALID_EVENT,
        0,
    ),
    ("missing-terminal", [created(), *text_events("a")], Code.VENDOR_MISSING_TERMINAL, 7),
]


@pytest.mark.parametrize(
    ("payloads", "code", "event_index"),
    [case[1:] for case in OFF_GRAMMAR],
    ids=[case[0] for case in OFF_GRAMMAR],
)
def test_each_mutation_off_the_grammar_fails_at_its_event_with_its_code(
    payloads: list[Payload], code: VendorErrorCode, event_index: int
) -> None:
    error = refused(*payloads)

    assert (error.code, error.event_index) == (code, event_index), error.message
    assert error.message.startswith(f"event {event_index}: ")


def _renumbered(events: list[SseEvent], position: int, sequence: object) -> list[SseEvent]:
    data = json.loads(events[position].data)
    if sequence is None:
        del data["sequence_number"]
    else:
        data["sequence_number"] = sequence
    changed = list(events)
    changed[position] = SseEvent(events[position].event, json.dumps(data))
    return changed


def test_a_numbered_stream_may_not_leave_a_number_out_nor_an_unnumbered_one_add_one() -> None:
    numbered = responses_events(created(), *text_events("a"), completed([]))
    unnumbered = [_renumbered([event], 0, None)[0] for event in numbered]

    left_out = judge_body(RESPONSES_PLUGIN, sse_bytes(_renumbered(numbered, 3, None)))
    added = judge_body(RESPONSES_PLUGIN, sse_bytes(_renumbered(unnumbered, 3, 3)))

    assert isinstance(left_out, Failure)
    assert isinstance(added, Failure)
    assert (left_out.failure().code, left_out.failure().event_index) == (
        Code.VENDOR_INVALID_EVENT,
        3,
    )
    assert (added.failure().code, added.failure().event_index) == (Code.VENDOR_INVALID_EVENT, 3)
    assert "sequence_number is missing" in left_out.failure().message
    assert "sequence_number appears" in added.failure().message


def test_the_grammar_is_spent_after_its_first_error() -> None:
    grammar = ResponsesGrammar()
    events = responses_events(created(), "{broken", in_progress())
    grammar.feed(events[0], 0)

    with pytest.raises(VendorError) as first:
        grammar.feed(events[1], 1)

    assert grammar.failure is first.value
    for position, event in enumerate(events):
        with pytest.raises(VendorError) as again:
            grammar.feed(event, position)
        assert again.value is first.value
    with pytest.raises(VendorError) as at_end:
        grammar.end(3)
    assert at_end.value is first.value
    assert not grammar.finished


@st.composite
def cut_or_mutated(draw: st.DrawFn) -> bytes:
    """A rich body cut anywhere, or with one byte changed anywhere."""
    data = body(created(), *annotated_text([ANNOTATIONS[1]]), *call_events(1), completed([]))
    position = draw(st.integers(min_value=0, max_value=len(data) - 1))
    if draw(st.booleans()):
        return data[:position]
    return data[:position] + bytes([draw(st.integers(0, 255))]) + data[position + 1 :]


@given(cut_or_mutated())
def test_a_cut_or_mutated_body_is_judged_without_raising(data: bytes) -> None:
    verdict = judge_body(RESPONSES_PLUGIN, data)

    if isinstance(verdict, Failure):
        assert type(verdict.failure()) is VendorError
        assert verdict.failure().event_index is not None
    else:
        assert type(verdict.unwrap()) is ResponsesResult


def _rich_events() -> list[SseEvent]:
    return responses_events(
        created(), *annotated_text([ANNOTATIONS[1]]), *call_events(1), completed([])
    )


def test_the_judge_finds_a_body_cut_between_any_two_frames_missing_its_terminal() -> None:
    events = _rich_events()

    for length in range(len(events)):
        verdict = judge_body(RESPONSES_PLUGIN, sse_bytes(events[:length]))
        assert isinstance(verdict, Failure)
        error = verdict.failure()
        assert (error.code, error.event_index) == (Code.VENDOR_MISSING_TERMINAL, length)


def test_the_judge_finds_a_frame_torn_in_the_middle_of_its_data_invalid_at_that_frame() -> None:
    events = _rich_events()

    for position, event in enumerate(events):
        torn = SseEvent(event.event, event.data[: len(event.data) // 2])
        verdict = judge_body(
            RESPONSES_PLUGIN, sse_bytes([*events[:position], torn, *events[position + 1 :]])
        )
        assert isinstance(verdict, Failure)
        error = verdict.failure()
        assert (error.code, error.event_index) == (Code.VENDOR_INVALID_EVENT, position)


def test_data_nested_past_the_decoders_limit_is_an_invalid_event_not_a_crash() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    nested = '{"type": "response.in_progress", "response": {"id": "resp_own_1", "x": ' + deep + "}}"

    error = refused(created(), nested)

    assert (error.code, error.event_index) == (Code.VENDOR_INVALID_EVENT, 1)


def test_an_item_nested_past_the_json_limit_is_an_invalid_event_at_its_done() -> None:
    deep: Any = "leaf"
    for _ in range(JSON_MAX_DEPTH + 1):
        deep = {"d": deep}
    events = tool_body("web_search_call")
    events[5] = item_done(
        0, {"id": "it_1", "type": "web_search_call", "status": "completed", "action": deep}
    )

    error = refused(*events[:6], completed([]))

    assert (error.code, error.event_index) == (Code.VENDOR_INVALID_EVENT, 5)
    assert error.message.startswith("event 5: item.action")
