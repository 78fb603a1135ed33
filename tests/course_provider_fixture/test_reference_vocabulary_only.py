"""The fixture adapter speaks the reference's vocabulary, and no more: its seed is its contract.

The protocol carries reasoning, vendor tools, citations, opaque data, usage
parts and more stop reasons; none of them exists in a schema-1 fixture, so
none ever comes out of one, whatever extra fields its records hold, and a
stop reason the reference does not spell is refused, never mapped.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from course_protocol import (
    CourseModelResponse,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
)
from course_provider_fixture import (
    FixtureProviderAdapter,
    FixtureProviderError,
    FixtureProviderErrorCode,
    load_fixture,
)
from course_stream import AbortController
from tests.course_provider_fixture.records import (
    ROUNDTRIP_FIXTURE,
    end,
    fixture,
    start,
    text,
    tool_call,
)
from tests.requests import request
from tests.streams import settle


def assert_reference_only(chunks: Sequence[object], response: CourseModelResponse) -> None:
    assert {type(chunk) for chunk in chunks} <= {CourseTextDeltaChunk, CourseToolCallChunk}
    for block in response.message.content:
        if type(block) is CourseTextBlock:
            assert (block.citations, block.opaque) == ((), None)
        else:
            assert type(block) is CourseToolCall
            assert block.opaque is None
    usage = response.usage
    assert (usage.cache_read_tokens, usage.cache_write_tokens, usage.reasoning_tokens) == (
        None,
        None,
        None,
    )
    assert response.stop_reason in (CourseStopReason.STOP, CourseStopReason.TOOL_CALL)


async def test_the_checked_in_round_trip_holds_nothing_beyond_the_reference() -> None:
    adapter = FixtureProviderAdapter(load_fixture(ROUNDTRIP_FIXTURE).unwrap())

    for turn in (1, 2):
        played = await settle(adapter.stream(request(f"request-{turn}"), AbortController().signal))
        assert played.response is not None
        assert_reference_only(played.events, played.response)


async def test_records_that_carry_extra_fields_named_like_rich_values_give_none_of_them() -> None:
    records = [
        {**start(), "reasoning": "hidden"},
        {**text("The sum"), "citations": [{"url": "https://example.com"}], "opaque": {"x": 1}},
        {**tool_call(), "thoughtSignature": "c2ln", "opaque": {"wire": "gemini", "data": {}}},
        end(
            stop_reason="tool_call",
            usage={
                "inputTokens": 30,
                "outputTokens": 5,
                "cacheReadTokens": 20,
                "cache_read_input_tokens": 20,
                "reasoningTokens": 2,
            },
        ),
    ]
    adapter = FixtureProviderAdapter(fixture(records))

    played = await settle(adapter.stream(request("request-1"), AbortController().signal))

    assert played.response is not None
    assert_reference_only(played.events, played.response)
    assert len(played.response.message.content) == 2


@pytest.mark.parametrize("stop_reason", ["length", "refusal", "pauseTurn", "pause_turn"])
async def test_a_stop_reason_the_reference_does_not_spell_is_refused(stop_reason: str) -> None:
    adapter = FixtureProviderAdapter(fixture([start(), text(), end(stop_reason=stop_reason)]))

    played = await settle(adapter.stream(request("request-1"), AbortController().signal))

    error = played.failure
    assert isinstance(error, FixtureProviderError)
    assert error.code is FixtureProviderErrorCode.PROVIDER_INVALID_EVENT
    assert error.record_index == 2
