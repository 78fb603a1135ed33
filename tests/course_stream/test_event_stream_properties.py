"""EventStream under arbitrary interleavings of pushes, batches, reads, cancellations and closes."""

from __future__ import annotations

import asyncio
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from course_stream import EventStream

Step = tuple[str, int]


class StreamBrokeError(Exception):
    """The failure a stream is settled with when the scenario ends in fail()."""


steps = st.lists(
    st.one_of(
        st.tuples(st.just("push"), st.just(0)),
        st.tuples(st.just("push_many"), st.integers(0, 3)),
        st.tuples(st.just("read"), st.just(0)),
        st.tuples(st.just("cancel"), st.integers(0, 7)),
        st.tuples(st.just("turn"), st.just(0)),
        st.tuples(st.just("close"), st.just(0)),
    ),
    max_size=40,
)


def run(steps: list[Step], *, fail: bool) -> tuple[list[int], list[int], int]:
    """Play ``steps`` on a fresh loop, then settle the stream and drain it.

    Returns the pushed events, the events received by the reads in the order the
    reads were issued followed by what a final drain received, and how many
    times the failure was raised. A "close" closes the current iterator and opens
    the next consumer's.
    """

    async def play() -> tuple[list[int], list[int], int]:
        stream: EventStream[int, None] = EventStream()
        failure = StreamBrokeError()
        events = aiter(stream)
        pushed: list[int] = []
        reads: list[asyncio.Task[Any]] = []
        for action, argument in steps:
            if action == "push":
                pushed.append(len(pushed))
                stream.push(pushed[-1])
            elif action == "push_many":
                batch = list(range(len(pushed), len(pushed) + argument))
                pushed.extend(batch)
                stream.push_many(batch)
            elif action == "read":
                reads.append(asyncio.ensure_future(anext(events)))
            elif action == "cancel" and reads:
                reads[argument % len(reads)].cancel()
            elif action == "close":
                await events.aclose()
                events = aiter(stream)
            else:
                await asyncio.sleep(0)
        if fail:
            stream.fail(failure)
        else:
            stream.finish(None)
        outcomes = await asyncio.gather(*reads, return_exceptions=True)
        expected_kinds = int | StopAsyncIteration | asyncio.CancelledError | StreamBrokeError
        assert all(isinstance(outcome, expected_kinds) for outcome in outcomes)
        assert all(o is failure for o in outcomes if isinstance(o, StreamBrokeError))
        received = [outcome for outcome in outcomes if isinstance(outcome, int)]
        failures = sum(isinstance(outcome, StreamBrokeError) for outcome in outcomes)
        drained: list[int] = []
        raised: BaseException | None = None
        try:
            async for event in events:
                drained.append(event)
        except StreamBrokeError as error:
            raised = error
        assert raised is None or raised is failure
        return pushed, received + drained, failures + (raised is not None)

    loop = asyncio.new_event_loop()
    loop.set_debug(True)
    try:
        return loop.run_until_complete(play())
    finally:
        loop.close()


@settings(max_examples=400, deadline=None)
@given(steps)
def test_surviving_reads_receive_every_event_once_in_push_order(steps: list[Step]) -> None:
    pushed, received, failures = run(steps, fail=False)

    assert received == pushed
    assert failures == 0


@settings(max_examples=400, deadline=None)
@given(steps)
def test_a_failed_stream_delivers_every_event_once_in_push_order_then_its_failure(
    steps: list[Step],
) -> None:
    pushed, received, failures = run(steps, fail=True)

    assert received == pushed
    assert failures >= 1
