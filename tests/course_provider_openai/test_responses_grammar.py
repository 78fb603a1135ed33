"""ResponsesGrammar: the Responses API's whole documented stream language, apart from the port.

Every recorded body passes `course_vendor.judge_body` with the wire's
plug-in; a body of our own for each documented kind (item, part,
annotation, event, terminal, usage shape, optional field left out) passes,
and its `ResponsesResult` holds what it said; each off-grammar mutation
fails at its event with its code; feeding frames one by one and judging the
bytes agree; and the grammar's modules import no port type.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import json
from pathlib import Path
from typing import Any

import pytest
from returns.result import Failure, Success

from course_http import SseEvent, VendorError, VendorErrorCode
from course_provider_openai import (
    OPENROUTER_RESPONSES,
    RESPONSES_PLUGIN,
    ResponsesError,
    ResponsesFunctionCall,
    ResponsesGrammar,
    ResponsesMessage,
    ResponsesOutputText,
    ResponsesReasoning,
    ResponsesRefusal,
    ResponsesResult,
    ResponsesToolItem,
    ResponsesUsage,
)
from course_vendor import judge_body
from tests.course_cassettes.replays import data_only_body
from tests.course_provider_openai.bodies import (
    CALL_ID,
    CALL_ITEM_ID,
    MESSAGE_ID,
    RESPONSE_ID,
    args_delta,
    args_done,
    call_item,
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
    text_done,
    text_events,
    text_item,
    text_part,
)
from tests.course_provider_openai.responses_kinds import (
    ANNOTATIONS,
    STREAMED,
    TEXT_AND_CALL,
    TEXT_AT,
    TOOLS,
    annotated_text,
    body,
    frozen,
    judged,
    refused,
    terminal,
    tool_body,
)
from tests.course_vendor.wires import sse_bytes

Code = VendorErrorCode
TRANSCRIPTS = Path(__file__).resolve().parents[2] / ".." / "shared" / "provider-transcripts"
RECORDED = TRANSCRIPTS / "openai-responses"

RECORDINGS: dict[str, tuple[str | None, tuple[str, ...], tuple[int, int] | None]] = {
    "background-queued.sse": ("completed", ("message",), (15, 9)),
    "error-midstream-insufficient-quota.jsonl": ("failed", (), None),
    "incomplete-max-output-tokens.sse": ("incomplete", ("message",), (14, 50)),
    "parallel-function-calls.sse": ("completed", ("function_call", "function_call"), (36, 54)),
    "reasoning-text-and-function-call.sse": (
        "completed",
        ("reasoning", "message", "function_call"),
        (63, 69),
    ),
    "reasoning-then-function-call.sse": ("completed", ("reasoning", "function_call"), (53, 469)),
    "refusal.sse": ("completed", ("message",), (54, 11)),
    "text-after-function-call-output.sse": ("completed", ("message",), (136, 32)),
    "text.sse": ("completed", ("message",), (16, 11)),
}
"""Each recorded stream of the wire: its status, its items' kinds, its two main counts."""

needs_recordings = pytest.mark.skipif(
    not RECORDED.is_dir(), reason=f"the shared provider transcripts are not present at {RECORDED}"
)


def recorded_body(name: str) -> bytes:
    """The body as it came over HTTP (a ``.jsonl`` file: the data of each event, reframed)."""
    path = RECORDED / name
    if path.suffix == ".jsonl":
        return data_only_body(path.read_text(encoding="utf-8"))
    return path.read_bytes()


def recorded_result(name: str) -> ResponsesResult:
    verdict = judge_body(RESPONSES_PLUGIN, recorded_body(name))
    assert isinstance(verdict, Success), verdict.failure()
    result: ResponsesResult = verdict.unwrap()
    return result


@needs_recordings
def test_every_recorded_stream_body_of_the_wire_is_listed_here() -> None:
    streams = sorted(
        path.name
        for path in RECORDED.iterdir()
        if not path.name.endswith(".request.json") and not path.name.startswith("error-http-")
    )

    assert streams == sorted(RECORDINGS)


@needs_recordings
@pytest.mark.parametrize("name", sorted(RECORDINGS))
def test_every_recorded_body_passes_the_grammar_and_its_result_says_what_it_said(
    name: str,
) -> None:
    result = recorded_result(name)

    status, kinds, counts = RECORDINGS[name]
    assert result.status == status
    assert result.id is not None
    assert result.id.startswith("resp_")
    assert tuple(item.kind for item in result.items) == kinds
    assert all(item.done for item in result.items)
    if counts is None:
        assert result.usage is None
    else:
        assert result.usage is not None
        assert (result.usage.input_tokens, result.usage.output_tokens) == counts


@needs_recordings
def test_a_recorded_body_keeps_every_count_it_sent() -> None:
    usage = recorded_result("reasoning-text-and-function-call.sse").usage

    assert usage == ResponsesUsage(
        input_tokens=63,
        output_tokens=69,
        total_tokens=132,
        cached_tokens=0,
        cache_write_tokens=0,
        reasoning_tokens=26,
    )


@needs_recordings
def test_the_recorded_error_keeps_both_the_error_event_and_the_failed_responses_error() -> None:
    result = recorded_result("error-midstream-insufficient-quota.jsonl")

    assert result.error is not None
    assert (result.error.type, result.error.code) == ("insufficient_quota", "insufficient_quota")
    assert result.response_error is not None
    assert result.response_error.code == "insufficient_quota"
    assert result.response_error.message == result.error.message


@needs_recordings
def test_the_recorded_refusal_and_call_arguments_are_in_the_result() -> None:
    refusal = recorded_result("refusal.sse").items[0]
    calls = recorded_result("parallel-function-calls.sse").items

    assert type(refusal) is ResponsesMessage
    assert refusal.parts == (ResponsesRefusal("I'm sorry, I can't assist with that."),)
    assert [type(call) for call in calls] == [ResponsesFunctionCall, ResponsesFunctionCall]
    first = calls[0]
    assert type(first) is ResponsesFunctionCall
    assert (first.name, first.arguments) == (
        "secret_retrieval_tool",
        frozen({"password": "mellon"}),
    )
    assert first.call_id.startswith("call_")
    assert first.id.startswith("fc_")


def test_a_text_answer_is_one_message_with_its_text_and_every_count() -> None:
    text = "4200 + 42 equals 4242."
    created_event = created()
    created_event["response"]["model"] = "gpt-own"
    result = judged(
        created_event,
        in_progress(),
        *text_events("4200 + 42", " equals 4242."),
        completed([text_item(text)]),
    )

    assert result == ResponsesResult(
        "completed",
        RESPONSE_ID,
        "gpt-own",
        (ResponsesMessage(MESSAGE_ID, (ResponsesOutputText(text),), "completed"),),
        ResponsesUsage(16, 11, 27, cached_tokens=0, reasoning_tokens=0),
    )


def test_every_annotation_type_is_kept_in_order_with_its_part() -> None:
    result = judged(created(), *annotated_text([*ANNOTATIONS]), completed([]))

    message = result.items[0]
    assert type(message) is ResponsesMessage
    assert message.parts == (
        ResponsesOutputText("See this.", tuple(frozen(annotation) for annotation in ANNOTATIONS)),
    )


def test_an_annotation_event_without_its_annotation_is_kept_as_none() -> None:
    message = judged(created(), *annotated_text([None]), completed([])).items[0]

    assert type(message) is ResponsesMessage
    assert message.parts == (ResponsesOutputText("See this.", (None,)),)


def test_logprobs_are_kept_with_their_text_and_may_be_absent() -> None:
    logprob = {"token": "4", "bytes": [52], "logprob": -0.01, "top_logprobs": []}
    events = text_events("4", "2")
    events[2] = {**events[2], "logprobs": [logprob]}
    events[3] = {**events[3], "logprobs": []}

    message = judged(created(), *events, completed([])).items[0]

    assert type(message) is ResponsesMessage
    assert message.parts == (ResponsesOutputText("42", (), (frozen(logprob),)),)


def test_a_refusal_part_is_kept_as_the_model_refused() -> None:
    refusal = {"type": "refusal", "refusal": "No."}
    result = judged(
        created(),
        item_added(0, message_item(MESSAGE_ID)),
        part_added("refusal"),
        {"type": "response.refusal.delta", **TEXT_AT, "delta": "No"},
        {"type": "response.refusal.delta", **TEXT_AT, "delta": "."},
        {"type": "response.refusal.done", **TEXT_AT, "refusal": "No."},
        part_done("No.", "refusal"),
        item_done(0, message_item(MESSAGE_ID, status="completed", content=[refusal])),
        completed([]),
    )

    assert result.items == (ResponsesMessage(MESSAGE_ID, (ResponsesRefusal("No."),), "completed"),)


def test_a_commentary_message_keeps_its_phase_and_a_message_may_hold_two_parts() -> None:
    where = text_part(0, MESSAGE_ID, 1)
    done = message_item(
        MESSAGE_ID,
        status="completed",
        phase="commentary",
        content=[output_text("A"), output_text("B")],
    )
    result = judged(
        created(),
        item_added(0, message_item(MESSAGE_ID, phase="commentary")),
        part_added(),
        text_delta("A"),
        part_done("A"),
        part_added(**where),
        text_delta("B", **where),
        text_done("B", **where),
        part_done("B", **where),
        item_done(0, done),
        completed([done]),
    )

    assert result.items == (
        ResponsesMessage(
            MESSAGE_ID,
            (ResponsesOutputText("A"), ResponsesOutputText("B")),
            "completed",
            "commentary",
        ),
    )


def test_a_function_call_is_kept_with_its_text_and_parsed_arguments_and_namespace() -> None:
    added = {**function_call(CALL_ITEM_ID, CALL_ID, "add"), "namespace": "math"}
    result = judged(
        created(),
        item_added(0, added),
        args_delta('{"a": '),
        args_delta("1}"),
        args_done('{"a": 1}'),
        item_done(0, {**call_item(), "namespace": "math"}),
        completed([call_item()]),
    )

    assert result.items == (
        ResponsesFunctionCall(CALL_ITEM_ID, CALL_ID, "add", '{"a": 1}', frozen({"a": 1}), "math"),
    )


def test_reasoning_keeps_its_summary_parts_its_texts_and_its_encrypted_form() -> None:
    rs = {"item_id": "rs_1", "output_index": 0}
    empty = {"type": "summary_text", "text": ""}
    done = {
        "id": "rs_1",
        "type": "reasoning",
        "summary": [
            {"type": "summary_text", "text": "First."},
            {"type": "summary_text", "text": "Then."},
        ],
        "content": [{"type": "reasoning_text", "text": "Think."}],
        "encrypted_content": "gAAA-done",
        "status": "completed",
    }
    summary_events = [
        event
        for position, text in enumerate(["First.", "Then."])
        for event in (
            {
                "type": "response.reasoning_summary_part.added",
                **rs,
                "summary_index": position,
                "part": empty,
            },
            {
                "type": "response.reasoning_summary_text.delta",
                **rs,
                "summary_index": position,
                "delta": text,
            },
            {
                "type": "response.reasoning_summary_text.done",
                **rs,
                "summary_index": position,
                "text": text,
            },
            {
                "type": "response.reasoning_summary_part.done",
                **rs,
                "summary_index": position,
                "part": {"type": "summary_text", "text": text},
            },
        )
    ]
    text_at = {**rs, "content_index": 0}
    result = judged(
        created(),
        item_added(
            0, {"id": "rs_1", "type": "reasoning", "summary": [], "encrypted_content": "gAAA"}
        ),
        *summary_events,
        {
            "type": "response.content_part.added",
            **text_at,
            "part": {"type": "reasoning_text", "text": ""},
        },
        {"type": "response.reasoning_text.delta", **text_at, "delta": "Think."},
        {"type": "response.reasoning_text.done", **text_at, "text": "Think."},
        {
            "type": "response.content_part.done",
            **text_at,
            "part": {"type": "reasoning_text", "text": "Think."},
        },
        item_done(0, done),
        completed([{**done, "encrypted_content": "gAAA-terminal"}]),
    )

    assert result.items == (
        ResponsesReasoning("rs_1", ("First.", "Then."), ("Think.",), "gAAA-done"),
    )


def test_every_documented_item_kind_has_a_body_here() -> None:
    from course_provider_openai._responses_envelopes import ENVELOPES

    assert set(TOOLS) | {"message", "function_call", "reasoning"} == set(ENVELOPES)


@pytest.mark.parametrize("kind", sorted(TOOLS))
def test_every_tool_item_kind_passes_and_is_kept_whole_as_its_done_gave_it(kind: str) -> None:
    result = judged(*tool_body(kind))

    whole = {"id": "it_1", "type": kind, **TOOLS[kind][2]}
    assert result.items == (ResponsesToolItem(kind, "it_1", frozen(whole)),)
    assert result.status == "completed"


def test_audio_and_its_transcript_are_kept_joined() -> None:
    result = judged(
        created(),
        {"type": "response.audio.delta", "delta": "UklG"},
        {"type": "response.audio.transcript.delta", "delta": "Hi"},
        {"type": "response.audio.delta", "delta": "Rg=="},
        {"type": "response.audio.transcript.delta", "delta": " there."},
        {"type": "response.audio.done"},
        {"type": "response.audio.transcript.done"},
        completed([]),
    )

    assert (result.audio, result.audio_transcript) == ("UklGRg==", "Hi there.")


def test_an_incomplete_response_keeps_its_reason_its_open_items_and_its_usage() -> None:
    usage = {"input_tokens": 3, "output_tokens": 5}
    result = judged(
        created(),
        item_added(0, message_item(MESSAGE_ID)),
        part_added(),
        text_delta("Alab"),
        terminal(
            "incomplete", incomplete_details={"reason": "max_output_tokens"}, usage=usage, output=[]
        ),
    )

    assert (result.status, result.incomplete_reason) == ("incomplete", "max_output_tokens")
    assert result.items == (
        ResponsesMessage(MESSAGE_ID, (ResponsesOutputText("Alab"),), "in_progress", done=False),
    )
    assert result.usage == ResponsesUsage(3, 5)


def test_an_incomplete_response_without_details_has_no_reason() -> None:
    result = judged(created(), terminal("incomplete", incomplete_details=None))

    assert (result.status, result.incomplete_reason, result.usage) == ("incomplete", None, None)


def test_a_failed_response_keeps_its_error() -> None:
    error = {
        "code": "server_error",
        "message": "The server had an error",
        "type": None,
        "param": None,
    }
    result = judged(created(), terminal("failed", error=error))

    assert result.status == "failed"
    assert result.response_error == ResponsesError("The server had an error", "server_error")
    assert result.error is None


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        (
            {
                "type": "error",
                "error": {"type": "invalid_request_error", "code": 400, "message": "m"},
            },
            ResponsesError("m", "400", "invalid_request_error"),
        ),
        (
            {"type": "error", "code": "rate_limit_exceeded", "message": "slow", "param": None},
            ResponsesError("slow", "rate_limit_exceeded"),
        ),
        ({"type": "error", "message": "only a message"}, ResponsesError("only a message")),
    ],
    ids=["nested", "top-level", "message-only"],
)
def test_an_error_event_ends_the_stream_before_or_after_created(
    event: dict[str, Any], expected: ResponsesError
) -> None:
    alone = judged(event)
    after = judged(created(), in_progress(), event)

    assert (alone.status, alone.id, alone.error) == (None, None, expected)
    assert (after.status, after.id, after.error) == (None, RESPONSE_ID, expected)


def test_response_failed_may_follow_an_error_event() -> None:
    result = judged(
        created(),
        {"type": "error", "message": "quota"},
        terminal("failed", error={"code": "insufficient_quota", "message": "quota"}),
    )

    assert result.status == "failed"
    assert result.error == ResponsesError("quota")
    assert result.response_error == ResponsesError("quota", "insufficient_quota")


def test_a_queued_background_response_is_accepted() -> None:
    result = judged(
        created("queued"),
        {"type": "response.queued", "response": {"id": RESPONSE_ID, "status": "queued"}},
        in_progress(),
        *text_events("4"),
        completed([text_item("4")]),
    )

    assert result.status == "completed"
    assert [item.kind for item in result.items] == ["message"]


USAGES: dict[str, tuple[object, ResponsesUsage | None]] = {
    "every-count": (
        {
            "input_tokens": 100,
            "input_tokens_details": {
                "cached_tokens": 60,
                "cache_write_tokens": 30,
                "cache_write_tokens_details": {"ttl_30m_tokens": 20, "ttl_12h_tokens": 10},
            },
            "output_tokens": 40,
            "output_tokens_details": {"reasoning_tokens": 25},
            "total_tokens": 140,
        },
        ResponsesUsage(100, 40, 140, 60, 30, 20, 10, 25),
    ),
    "two-counts": ({"input_tokens": 1, "output_tokens": 2}, ResponsesUsage(1, 2)),
    "null-details": (
        {"input_tokens": 1, "output_tokens": 2, "input_tokens_details": None, "total_tokens": None},
        ResponsesUsage(1, 2),
    ),
    "null": (None, None),
}


@pytest.mark.parametrize("shape", sorted(USAGES))
def test_usage_keeps_every_count_sent_and_none_for_each_count_not_sent(shape: str) -> None:
    usage, expected = USAGES[shape]
    terminal_event = completed([])
    terminal_event["response"]["usage"] = usage

    assert judged(created(), terminal_event).usage == expected


def test_a_terminal_without_usage_or_output_at_all_is_on_the_grammar() -> None:
    terminal_event = {"type": "response.completed", "response": {"id": RESPONSE_ID}}

    result = judged(created(), *text_events("a"), terminal_event)

    assert (result.status, result.usage) == ("completed", None)
    assert [item.kind for item in result.items] == ["message"]


def test_a_stream_without_sequence_numbers_or_event_names_is_accepted() -> None:
    events = responses_events(created(), *text_events("a", "b"), completed([text_item("ab")]))
    bare = []
    for event in events:
        data = json.loads(event.data)
        del data["sequence_number"]
        bare.append(SseEvent("message", json.dumps(data)))

    verdict = judge_body(RESPONSES_PLUGIN, sse_bytes(bare))

    assert isinstance(verdict, Success)
    assert verdict.unwrap() == judged(
        created(), *text_events("a", "b"), completed([text_item("ab")])
    )


def test_created_without_status_or_model_and_a_delta_without_logprobs_are_accepted() -> None:
    bare_created = {"type": "response.created", "response": {"id": RESPONSE_ID}}

    result = judged(bare_created, *text_events("a"), completed([]))

    assert (result.model, result.status) == (None, "completed")


@pytest.mark.parametrize("output", [[], None], ids=["empty", "null"])
def test_a_terminal_that_repeats_no_item_leaves_the_streamed_text_and_call_standing(
    output: object,
) -> None:
    terminal_event = completed([])
    terminal_event["response"]["output"] = output

    result = judged(created(), *TEXT_AND_CALL, terminal_event)

    assert [item.kind for item in result.items] == ["message", "function_call"]
    call = result.items[1]
    assert type(call) is ResponsesFunctionCall
    assert call.arguments == frozen({"a": 1})


CONTRADICTIONS: dict[str, tuple[list[Any], str]] = {
    "call-missing": ([STREAMED[0]], "response.output lists 1 item(s), the stream 2"),
    "text-missing": ([STREAMED[1]], "response.output lists 1 item(s), the stream 2"),
    "extra-item": ([*STREAMED, call_item("fc_2", "call_2")], "lists 3 item(s), the stream 2"),
    "other-order": ([STREAMED[1], STREAMED[0]], "response.output[0] is not the 'message' item"),
    "other-id": ([STREAMED[0], call_item("fc_2")], "response.output[1] is not the 'function_call'"),
    "other-arguments": (
        [STREAMED[0], call_item(arguments='{"a": 2}')],
        "response.output[1] arguments are not the call's arguments",
    ),
    "other-call-id": (
        [STREAMED[0], call_item(call_id="call_2")],
        "response.output[1] changed the call's call_id or name",
    ),
    "other-text": (
        [text_item("Subtracting."), STREAMED[1]],
        "response.output[0] content[0].text is not the streamed text",
    ),
    "fewer-parts": (
        [message_item(MESSAGE_ID, status="completed"), STREAMED[1]],
        "response.output[0] content holds 0 part(s), the stream 1",
    ),
}


@pytest.mark.parametrize("case", sorted(CONTRADICTIONS))
def test_a_terminal_that_lists_items_must_list_every_streamed_item_as_it_streamed(
    case: str,
) -> None:
    output, message = CONTRADICTIONS[case]

    error = refused(created(), *TEXT_AND_CALL, completed(output))

    assert (error.code, error.event_index) == (Code.VENDOR_INVALID_TERMINAL, len(TEXT_AND_CALL) + 1)
    assert message in error.message


def test_a_terminal_that_lists_an_item_without_its_envelope_is_invalid() -> None:
    bare = {"id": MESSAGE_ID, "type": "message"}

    error = refused(created(), *text_events("a"), completed([bare]))

    assert (error.code, error.event_index) == (Code.VENDOR_INVALID_EVENT, 7)
    assert "response.output[0].role is missing" in error.message


def folded(data: bytes) -> ResponsesResult | VendorError:
    """The body's frames fed one by one to a fresh grammar, then its end; or the error it raised."""
    grammar = ResponsesGrammar()
    decoder = RESPONSES_PLUGIN.wire.framing.decoder("openai-responses")
    count = 0
    try:
        for chunk in (data[start : start + 7] for start in range(0, len(data), 7)):
            for frame in decoder.feed_bytes(chunk):
                grammar.feed(frame, count)
                count += 1
        for frame in decoder.close():
            grammar.feed(frame, count)
            count += 1
        return grammar.end(count)
    except VendorError as error:
        return error


def _fold_bodies() -> dict[str, bytes]:
    bodies = {
        "text": body(created(), *annotated_text([ANNOTATIONS[0]]), completed([])),
        "tools": body(*tool_body("code_interpreter_call")),
        "calls": body(created(), *TEXT_AND_CALL, completed(STREAMED)),
        "contradiction": body(created(), *TEXT_AND_CALL, completed([STREAMED[0]])),
        "cut": body(created(), *text_events("a"))[:-9],
    }
    if RECORDED.is_dir():
        bodies.update({name: recorded_body(name) for name in RECORDINGS})
    return bodies


FOLD_BODIES = _fold_bodies()


@pytest.mark.parametrize("name", sorted(FOLD_BODIES))
def test_feeding_frames_one_by_one_and_judging_the_body_agree(name: str) -> None:
    data = FOLD_BODIES[name]

    fold = folded(data)
    verdict = judge_body(RESPONSES_PLUGIN, data)

    if isinstance(fold, VendorError):
        assert isinstance(verdict, Failure)
        assert (verdict.failure().code, verdict.failure().event_index) == (
            fold.code,
            fold.event_index,
        )
    else:
        assert verdict == Success(fold)


def test_the_grammar_is_finished_at_its_terminal_and_returns_the_events_it_judged() -> None:
    grammar = ResponsesGrammar(OPENROUTER_RESPONSES)
    events = responses_events(created(), *text_events("a"), completed([]), "[DONE]")
    returned = []
    for position, event in enumerate(events):
        assert grammar.finished is (position > 7)
        returned.append(grammar.feed(event, position))

    assert [None if event is None else event["type"] for event in returned][-2:] == [
        "response.completed",
        None,
    ]
    assert returned[0] == json.loads(events[0].data)
    assert grammar.finished


def test_the_result_is_deeply_immutable() -> None:
    result = judged(*tool_body("web_search_call"))
    item = result.items[0]

    with pytest.raises(dataclasses.FrozenInstanceError):
        result.status = "failed"  # type: ignore[misc]
    assert type(result.items) is tuple
    assert type(item) is ResponsesToolItem
    with pytest.raises(TypeError):
        item.item["status"] = "failed"  # type: ignore[index]
    with pytest.raises(TypeError):
        item.item["action"]["query"] = "other"  # type: ignore[index]


GRAMMAR_MODULES = (
    "_responses_grammar",
    "_responses_result",
    "_responses_items",
    "_responses_states",
    "_responses_output",
    "_responses_parts",
    "_responses_calls",
    "_responses_reasoning",
    "_responses_tools",
    "_responses_envelopes",
    "_responses_terminal",
)
PORT_MODULES = ("_messages", "_response", "_port", "_transcript")


def test_the_grammar_modules_import_no_port_type() -> None:
    port = {
        id(value)
        for name in PORT_MODULES
        for value in vars(importlib.import_module(f"course_protocol.{name}")).values()
        if inspect.isclass(value) or inspect.isfunction(value)
    }
    import course_protocol

    offenders = []
    for name in GRAMMAR_MODULES:
        module = importlib.import_module(f"course_provider_openai.{name}")
        tree = ast.parse(inspect.getsource(module))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module is not None:
                if node.module.startswith("course_stream") or node.module.startswith(
                    tuple(f"course_protocol.{port}" for port in PORT_MODULES)
                ):
                    offenders.append(f"{name}: from {node.module}")
                if node.module == "course_protocol":
                    offenders.extend(
                        f"{name}: {alias.name}"
                        for alias in node.names
                        if id(getattr(course_protocol, alias.name)) in port
                    )
            elif isinstance(node, ast.Import):
                offenders.extend(
                    f"{name}: import {alias.name}"
                    for alias in node.names
                    if alias.name.startswith("course_stream")
                )

    assert offenders == []
