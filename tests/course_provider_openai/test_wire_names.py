"""Every OpenAI wire's errors name that wire: each is built in its name where it is raised.

A grammar and a mapping take the dialect they speak for (OpenAI's own, a
compatible server's, Azure's) and raise through one `OpenAIFailures` of its
wire. For each Chat and Responses wire, a refused event (at several depths:
the frame, the envelope, a choice or item, a Tool call, the usage) and a
refused response carry the wire's own name in ``vendor``, and in the message
where the message names the wire. Were a part to raise in its base wire's
name, the dialects' cases would fail.
"""

from __future__ import annotations

from typing import Any

import pytest

from course_http import SseEvent, VendorError, VendorErrorCode
from course_provider_openai import (
    AZURE_OPENAI_CHAT,
    AZURE_OPENAI_RESPONSES,
    CHAT_DIALECTS,
    OPENAI_CHAT,
    OPENAI_RESPONSES,
    RESPONSES_DIALECTS,
    ChatDialect,
    ChatMapping,
    ResponsesDialect,
    ResponsesMapping,
)
from tests.course_provider_openai.bodies import (
    DONE,
    args_delta,
    args_done,
    call_events,
    chat_events,
    chunk,
    completed,
    created,
    finish,
    function_call,
    item_added,
    responses_events,
    text,
    text_events,
    text_part,
    tool_arguments,
    tool_start,
    usage,
)
from tests.course_provider_openai.driving import replay

Code = VendorErrorCode

CHAT_WIRES = (OPENAI_CHAT, *CHAT_DIALECTS, AZURE_OPENAI_CHAT)
RESPONSES_WIRES = (OPENAI_RESPONSES, *RESPONSES_DIALECTS, AZURE_OPENAI_RESPONSES)
ROLE = chunk({"role": "assistant", "content": ""})

CHAT_REFUSED_EVENTS: dict[str, tuple[list[object], Code, int]] = {
    "a-frame-that-is-not-json": ([ROLE, "{not json"], Code.VENDOR_INVALID_EVENT, 1),
    "an-envelope-id-that-changes": (
        [ROLE, text("a", chunk_id="chatcmpl-other")],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    "a-role-that-is-not-text": ([chunk({"role": 7})], Code.VENDOR_INVALID_EVENT, 0),
    "a-tool-call-id-taken-twice": (
        [ROLE, tool_start(0, "call_1", "add"), tool_start(1, "call_1", "add")],
        Code.VENDOR_INVALID_EVENT,
        2,
    ),
    "tool-arguments-that-are-not-an-object": (
        [ROLE, tool_start(0, "call_1", "add"), tool_arguments(0, "[1]"), finish("tool_calls")],
        Code.VENDOR_INVALID_TOOL_ARGUMENTS,
        3,
    ),
    "log-probabilities-that-are-not-an-array": (
        [ROLE, text("a", logprobs={"content": 7})],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    "an-audio-id-that-is-blank": (
        [ROLE, chunk({"audio": {"id": " "}})],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    "a-usage-count-that-is-negative": (
        [ROLE, text("a"), finish("stop"), usage(prompt=-1), DONE],
        Code.VENDOR_INVALID_EVENT,
        3,
    ),
}


def chat_played(dialect: ChatDialect, payloads: list[object]) -> VendorError:
    played = replay(ChatMapping("request-1", dialect), chat_events(*payloads))
    assert played.response is None
    assert played.error is not None
    return played.error


@pytest.mark.parametrize("dialect", CHAT_WIRES, ids=[dialect.wire for dialect in CHAT_WIRES])
@pytest.mark.parametrize("case", CHAT_REFUSED_EVENTS, ids=list(CHAT_REFUSED_EVENTS))
def test_a_chat_event_refused_at_any_depth_names_the_wire_it_came_on(
    dialect: ChatDialect, case: str
) -> None:
    payloads, code, at = CHAT_REFUSED_EVENTS[case]
    if case == "a-usage-count-that-is-negative" and "last_chunk" not in dialect.usage:
        # Mistral sends usage beside the finishing choice only.
        payloads = [ROLE, text("a"), chunk({}, finish_reason="stop", usage={"prompt_tokens": -1})]
        at = 2

    error = chat_played(dialect, payloads)

    assert (error.code, error.event_index, error.vendor) == (code, at, dialect.wire)


@pytest.mark.parametrize("dialect", CHAT_WIRES, ids=[dialect.wire for dialect in CHAT_WIRES])
def test_a_chat_response_the_course_cannot_carry_names_the_wire_in_vendor_and_message(
    dialect: ChatDialect,
) -> None:
    error = chat_played(dialect, [ROLE, text("a", choice_index=1)])

    assert (error.code, error.event_index, error.vendor) == (
        Code.VENDOR_UNSUPPORTED_CONTENT,
        1,
        dialect.wire,
    )
    assert error.message.endswith(f"the course protocol cannot carry it ({dialect.wire})")


@pytest.mark.parametrize("dialect", CHAT_WIRES, ids=[dialect.wire for dialect in CHAT_WIRES])
def test_a_chat_response_without_its_usage_names_the_wire_it_came_on(
    dialect: ChatDialect,
) -> None:
    error = chat_played(dialect, [ROLE, text("a"), finish("stop"), DONE])

    assert (error.code, error.event_index, error.vendor) == (
        Code.VENDOR_MISSING_TERMINAL,
        4,
        dialect.wire,
    )


def _usage(**counts: object) -> dict[str, Any]:
    answer = completed([])
    answer["response"]["usage"] = {"input_tokens": 5, "output_tokens": 3, **counts}
    return answer


TEXT_AT = text_part(0, "msg_own_1")
INCOMPLETE = {"id": "resp_own_1", "status": "incomplete"}
RESPONSES_REFUSED_EVENTS: dict[str, tuple[list[object], Code, int]] = {
    "a-frame-that-is-not-json": ([created(), "{not json"], Code.VENDOR_INVALID_EVENT, 1),
    "a-response-id-that-changes": (
        [created(), completed([], response_id="resp_other")],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    "a-text-delta-that-is-not-text": (
        [created(), *text_events("a")[:2], {"type": "response.output_text.delta", **TEXT_AT}],
        Code.VENDOR_INVALID_EVENT,
        3,
    ),
    "a-call-id-taken-twice": (
        [created(), *call_events(0), item_added(1, function_call("fc_2", "call_own_1", "add"))],
        Code.VENDOR_INVALID_EVENT,
        6,
    ),
    "call-arguments-that-are-not-an-object": (
        [
            created(),
            item_added(0, function_call("fc_own_1", "call_own_1", "add")),
            args_delta("[1]"),
            args_done("[1]"),
        ],
        Code.VENDOR_INVALID_TOOL_ARGUMENTS,
        3,
    ),
    "a-usage-count-that-is-negative": (
        [created(), completed([], input_tokens=-1)],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
}


def responses_played(dialect: ResponsesDialect, payloads: list[object]) -> VendorError:
    events: list[SseEvent] = responses_events(*payloads)  # type: ignore[arg-type]
    played = replay(ResponsesMapping("request-1", dialect), events)
    assert played.response is None
    assert played.error is not None
    return played.error


@pytest.mark.parametrize(
    "dialect", RESPONSES_WIRES, ids=[dialect.wire for dialect in RESPONSES_WIRES]
)
@pytest.mark.parametrize("case", RESPONSES_REFUSED_EVENTS, ids=list(RESPONSES_REFUSED_EVENTS))
def test_a_responses_event_refused_at_any_depth_names_the_wire_it_came_on(
    dialect: ResponsesDialect, case: str
) -> None:
    payloads, code, at = RESPONSES_REFUSED_EVENTS[case]

    error = responses_played(dialect, payloads)

    assert (error.code, error.event_index, error.vendor) == (code, at, dialect.wire)


@pytest.mark.parametrize(
    "dialect", RESPONSES_WIRES, ids=[dialect.wire for dialect in RESPONSES_WIRES]
)
def test_a_responses_item_the_course_cannot_carry_names_the_wire_in_vendor_and_message(
    dialect: ResponsesDialect,
) -> None:
    computer = {"type": "computer_call", "id": "cu_1", "call_id": "call_c", "status": "in_progress"}

    error = responses_played(dialect, [created(), item_added(0, computer)])

    assert (error.code, error.event_index, error.vendor) == (
        Code.VENDOR_UNSUPPORTED_CONTENT,
        1,
        dialect.wire,
    )
    assert error.message.endswith(f"the course protocol cannot carry it ({dialect.wire})")


@pytest.mark.parametrize(
    "dialect", RESPONSES_WIRES, ids=[dialect.wire for dialect in RESPONSES_WIRES]
)
@pytest.mark.parametrize(
    ("ending", "code", "at"),
    [
        (_usage(input_tokens_details={"cached_tokens": 9}), Code.VENDOR_INVALID_TERMINAL, 1),
        ({"type": "response.failed", "response": {"id": "resp_own_1"}}, Code.VENDOR_ERROR_EVENT, 1),
        (
            {
                "type": "response.incomplete",
                "response": {"id": "resp_own_1", "status": "incomplete"},
            },
            Code.VENDOR_INCOMPLETE,
            1,
        ),
    ],
    ids=["usage-parts-above-their-whole", "a-failed-response", "an-incomplete-response"],
)
def test_a_refused_responses_response_names_the_wire_it_came_on(
    dialect: ResponsesDialect, ending: dict[str, Any], code: Code, at: int
) -> None:
    error = responses_played(dialect, [created(), ending])

    assert (error.code, error.event_index, error.vendor) == (code, at, dialect.wire)


def test_every_wire_here_has_a_name_of_its_own() -> None:
    names = [dialect.wire for dialect in (*CHAT_WIRES, *RESPONSES_WIRES)]

    assert len(set(names)) == len(names)
