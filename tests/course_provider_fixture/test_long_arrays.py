"""A long array response plays in batches: the consumer keeps up and an abort lands mid-way."""

from __future__ import annotations

from typing import Any

import pytest

from course_protocol import CourseTextDeltaChunk
from course_provider_fixture import (
    FixtureProviderAdapter,
    FixtureProviderError,
    FixtureProviderErrorCode,
)
from course_provider_fixture._sources import RECORDS_PER_TURN
from course_stream import AbortController
from tests.course_provider_fixture.records import Record, end, fixture, start, text
from tests.requests import request
from tests.streams import settle

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


@pytest.mark.parametrize(
    "bad_at",
    [1, 2, RECORDS_PER_TURN - 1, RECORDS_PER_TURN, RECORDS_PER_TURN + 1, 2 * RECORDS_PER_TURN + 7],
)
async def test_a_bad_record_mid_batch_comes_after_every_chunk_before_it_in_its_batch(
    bad_at: int,
) -> None:
    # A batch's chunks reach the stream together; a record that fails the
    # batch must not take the chunks before it down with it.
    records: list[Record] = [start("response-long"), *(text(f"{n} ") for n in range(DELTAS))]
    records[bad_at] = text(5)
    records.append(end("response-long", usage={"inputTokens": 1, "outputTokens": DELTAS}))
    stream = FixtureProviderAdapter(fixture(records)).stream(REQUEST, AbortController().signal)

    settled = await settle(stream)

    assert [chunk.delta for chunk in settled.events] == [  # type: ignore[union-attr]
        f"{n} " for n in range(bad_at - 1)
    ]
    failure = settled.failure
    assert isinstance(failure, FixtureProviderError)
    assert failure.code is FixtureProviderErrorCode.PROVIDER_INVALID_EVENT
    assert failure.record_index == bad_at
