"""A long array response plays in batches: the consumer keeps up and an abort lands mid-way."""

from __future__ import annotations

from typing import Any

import pytest

from course_protocol import CourseTextDeltaChunk
from course_provider_fixture import FixtureProviderAdapter
from course_provider_fixture._sources import RECORDS_PER_TURN
from course_stream import AbortController
from tests.course_provider_fixture.records import end, fixture, start, text
from tests.requests import request

REQUEST = request("request-long", message_id="m-1")
DELTAS = 3 * RECORDS_PER_TURN + 5


def long_fixture() -> dict[str, Any]:
    return fixture(
        [
            start("response-long"),
            *(text(f"{n} ") for n in range(DELTAS)),
            end("response-long", usage={"inputTokens": 1, "outputTokens": DELTAS}),
        ]
    )


async def test_the_first_chunk_arrives_before_a_long_array_has_been_played() -> None:
    stream = FixtureProviderAdapter(long_fixture()).stream(REQUEST, AbortController().signal)
    iterator = aiter(stream)

    first = await anext(iterator)

    assert first == CourseTextDeltaChunk(request_id="request-long", delta="0 ")
    assert not stream.done, "the producer must yield between batches, not play all at once"
    rest = [chunk async for chunk in iterator]
    assert len(rest) == DELTAS - 1
    assert (await stream.result).id == "response-long"


async def test_an_abort_between_two_batches_fails_the_stream_with_the_reason() -> None:
    controller = AbortController()
    stream = FixtureProviderAdapter(long_fixture()).stream(REQUEST, controller.signal)
    reason = RuntimeError("enough")
    seen: list[str] = []

    async def consume() -> None:
        async for chunk in stream:
            assert isinstance(chunk, CourseTextDeltaChunk)
            seen.append(chunk.delta)
            if len(seen) == 1:
                controller.abort(reason)

    with pytest.raises(RuntimeError) as caught:
        await consume()

    assert caught.value is reason
    # The first batch is the start record and RECORDS_PER_TURN - 1 deltas.
    assert seen == [f"{n} " for n in range(RECORDS_PER_TURN - 1)]
    with pytest.raises(RuntimeError) as from_result:
        await stream.result
    assert from_result.value is reason
