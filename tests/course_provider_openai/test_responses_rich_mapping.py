"""ResponsesMapping for what the port carries beyond text and calls: the tools the vendor runs,
reasoning (summarised, raw, encrypted only, cut by the limit) and the usage parts."""

from __future__ import annotations

from typing import Any

import pytest

from course_http import VendorErrorCode
from course_protocol import (
    CourseModelUsage,
    CourseOpaque,
    CourseReasoningBlock,
    CourseReasoningDeltaChunk,
    CourseStopReason,
    CourseVendorToolBlock,
)
from course_provider_openai import ResponsesMapping
from course_provider_openai._responses_envelopes import ENVELOPES
from course_provider_openai._responses_kinds import VENDOR_TOOL_KINDS
from tests.course_provider_openai.bodies import (
    completed,
    created,
    item_added,
    item_done,
    responses_events,
    responses_text_block,
    text_events,
    text_item,
)
from tests.course_provider_openai.driving import Replay, replay
from tests.streams import text_deltas

WIRE = "openai-responses"
_SAMPLES: dict[str, object] = {
    "a string": "x",
    "an integer": 0,
    "an array": [],
    "an object": {},
    "a boolean": True,
    "a string or an array": "x",
    "a JSON value": {},
}


def run(*payloads: dict[str, Any] | str) -> Replay:
    return replay(ResponsesMapping("request-1"), responses_events(*payloads))


def done_form(kind: str) -> dict[str, Any]:
    """The smallest item of ``kind`` its envelope accepts, run by the vendor."""
    item: dict[str, Any] = {"id": f"{kind}_1", "type": kind}
    for key, expected in ENVELOPES[kind]:
        item[key] = _SAMPLES[expected]
    if "execution" in item:
        item["execution"] = "server"
    return item


@pytest.mark.parametrize("kind", sorted(VENDOR_TOOL_KINDS))
def test_each_tool_the_vendor_runs_is_a_vendor_tool_block_holding_its_done_item(kind: str) -> None:
    added = {"id": f"{kind}_1", "type": kind}
    if kind.startswith("tool_search"):
        added["execution"] = "server"
    done = done_form(kind)

    outcome = run(
        created(),
        item_added(0, added),
        item_done(0, done),
        *text_events("Found.", output_index=1),
        completed([done, text_item("Found.")]),
    )

    assert outcome.error is None, outcome.error
    assert outcome.response is not None
    assert outcome.response.stop_reason is CourseStopReason.STOP
    assert outcome.response.message.content == (
        CourseVendorToolBlock(kind, CourseOpaque(WIRE, done)),
        responses_text_block("Found."),
    )
    assert text_deltas(outcome.chunks) == ["Found."], "a vendor tool streams no chunk"


def test_a_vendor_tool_the_limit_cut_is_left_out_of_the_length_message() -> None:
    added = {"id": "ws_1", "type": "web_search_call", "status": "in_progress"}
    incomplete = {
        "type": "response.incomplete",
        "response": {
            "id": "resp_own_1",
            "status": "incomplete",
            "incomplete_details": {"reason": "max_output_tokens"},
            "usage": {"input_tokens": 3, "output_tokens": 2},
        },
    }

    outcome = run(created(), *text_events("Look."), item_added(1, added), incomplete)

    assert outcome.response is not None
    assert outcome.response.stop_reason is CourseStopReason.LENGTH
    assert outcome.response.message.content == (responses_text_block("Look."),)


def reasoning_events(*, summary: tuple[str, ...], content: tuple[str, ...]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = [
        item_added(0, {"id": "rs_1", "type": "reasoning", "summary": []})
    ]
    for position, text in enumerate(summary):
        where = {"item_id": "rs_1", "output_index": 0, "summary_index": position}
        whole = {"type": "summary_text", "text": text}
        events += [
            {
                "type": "response.reasoning_summary_part.added",
                **where,
                "part": {**whole, "text": ""},
            },
            {"type": "response.reasoning_summary_text.delta", **where, "delta": text},
            {"type": "response.reasoning_summary_part.done", **where, "part": whole},
        ]
    for position, text in enumerate(content):
        where = {"item_id": "rs_1", "output_index": 0, "content_index": position}
        whole = {"type": "reasoning_text", "text": text}
        events += [
            {"type": "response.content_part.added", **where, "part": {**whole, "text": ""}},
            {"type": "response.reasoning_text.delta", **where, "delta": text},
            {"type": "response.content_part.done", **where, "part": whole},
        ]
    return events


def test_summary_parts_then_reasoning_texts_are_one_block_in_separated_paragraphs() -> None:
    events = reasoning_events(summary=("Plan.", "Check."), content=("Step.",))
    done = {
        "id": "rs_1",
        "type": "reasoning",
        "summary": [
            {"type": "summary_text", "text": "Plan."},
            {"type": "summary_text", "text": "Check."},
        ],
        "content": [{"type": "reasoning_text", "text": "Step."}],
    }

    outcome = run(created(), *events, item_done(0, done), completed([done]))

    assert outcome.response is not None
    deltas = [chunk.delta for chunk in outcome.chunks if type(chunk) is CourseReasoningDeltaChunk]
    assert deltas == ["Plan.", "\n\n", "Check.", "\n\n", "Step."]
    assert outcome.response.message.content == (
        CourseReasoningBlock("Plan.\n\nCheck.\n\nStep.", opaque=CourseOpaque(WIRE, done)),
    )


def test_encrypted_reasoning_with_no_summary_is_an_empty_block_with_its_item() -> None:
    done = {"id": "rs_1", "type": "reasoning", "summary": [], "encrypted_content": "gAAAA"}

    outcome = run(
        created(),
        item_added(0, {"id": "rs_1", "type": "reasoning", "summary": []}),
        item_done(0, done),
        *text_events("Hi.", output_index=1),
        completed([done, text_item("Hi.")]),
    )

    assert outcome.response is not None
    assert outcome.response.message.content == (
        CourseReasoningBlock("", opaque=CourseOpaque(WIRE, done)),
        responses_text_block("Hi."),
    )
    assert not [chunk for chunk in outcome.chunks if type(chunk) is CourseReasoningDeltaChunk]


def test_reasoning_the_limit_cut_keeps_its_text_and_has_nothing_to_go_back_as() -> None:
    events = reasoning_events(summary=("Plan.",), content=())
    incomplete = {
        "type": "response.incomplete",
        "response": {
            "id": "resp_own_1",
            "status": "incomplete",
            "incomplete_details": {"reason": "max_output_tokens"},
            "usage": {"input_tokens": 3, "output_tokens": 2},
        },
    }

    outcome = run(created(), *events, incomplete)

    assert outcome.response is not None
    assert outcome.response.stop_reason is CourseStopReason.LENGTH
    assert outcome.response.message.content == (CourseReasoningBlock("Plan."),)


@pytest.mark.parametrize(
    ("details", "expected"),
    [
        ({}, CourseModelUsage(16, 11)),
        (
            {
                "input_tokens_details": {"cached_tokens": 10, "cache_write_tokens": 4},
                "output_tokens_details": {"reasoning_tokens": 7},
            },
            CourseModelUsage(
                16, 11, cache_read_tokens=10, cache_write_tokens=4, reasoning_tokens=7
            ),
        ),
        (
            {"input_tokens_details": {"cached_tokens": 0}},
            CourseModelUsage(16, 11, cache_read_tokens=0),
        ),
    ],
    ids=["absent", "all", "zero-sent"],
)
def test_cached_and_reasoning_counts_are_absent_unless_sent(
    details: dict[str, Any], expected: CourseModelUsage
) -> None:
    answer = completed([text_item("a")])
    answer["response"]["usage"] = {"input_tokens": 16, "output_tokens": 11, **details}

    outcome = run(created(), *text_events("a"), answer)

    assert outcome.response is not None
    assert outcome.response.usage == expected


@pytest.mark.parametrize(
    ("details", "named"),
    [
        ({"input_tokens_details": {"cached_tokens": 17}}, "cache_read_tokens"),
        ({"output_tokens_details": {"reasoning_tokens": 12}}, "reasoning_tokens"),
    ],
)
def test_a_usage_part_larger_than_its_whole_is_an_invalid_terminal(
    details: dict[str, Any], named: str
) -> None:
    answer = completed([text_item("a")])
    answer["response"]["usage"] = {"input_tokens": 16, "output_tokens": 11, **details}

    outcome = run(created(), *text_events("a"), answer)

    assert outcome.error is not None
    assert (outcome.error.code, outcome.error.event_index) == (
        VendorErrorCode.VENDOR_INVALID_TERMINAL,
        7,
    )
    assert f"usage: {named}" in outcome.error.message
