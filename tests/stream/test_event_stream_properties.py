"""EventStream under arbitrary interleavings of pushes, parked reads and cancellations."""

from __future__ import annotations

import asyncio
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from course_stream import EventStream

Step = tuple[str, int]

steps = st.lists(
    st.one_of(
        st.tuples(st.just("push"), st.integers(0, 0)),
        st.tuples(st.just("read"), st.integers(0, 0)),
        st.tuples(st.just("cancel"), st.integers(0, 7)),
        st.tuples(st.just("turn"), st.integers(0, 0)),
    ),
    max_size=40,
)


def run(steps: list[Step]) -> tuple[list[int], list[int], bool]:
    """Play ``steps`` on a fresh loop; return (pushed, received in read order, cancelled any)."""

    async def play() -> tuple[list[int], list[int], bool]:
        stream: EventStream[int, None] = EventStream()
        events = aiter(stream)
        pushed: list[int] = []
        reads: list[asyncio.Task[Any]] = []
        cancelled_any = False
        for action, argument in steps:
            if action == "push":
                pushed.append(len(pushed))
                stream.push(pushed[-1])
            elif action == "read":
                reads.append(asyncio.ensure_future(anext(events)))
            elif action == "cancel" and reads:
                cancelled_any = reads[argument % len(reads)].cancel() or cancelled_any
            else:
                await asyncio.sleep(0)
        stream.finish(None)
        outcomes = await asyncio.gather(*reads, return_exceptions=True)
        received = [outcome for outcome in outcomes if isinstance(outcome, int)]
        unexpected = [
            outcome
            for outcome in outcomes
            if not isinstance(outcome, int | StopAsyncIteration | asyncio.CancelledError)
        ]
        assert unexpected == []
        rest = [event async for event in events]
        return pushed, received + rest, cancelled_any

    loop = asyncio.new_event_loop()
    loop.set_debug(True)
    try:
        return loop.run_until_complete(play())
    finally:
        loop.close()


@settings(max_examples=150, deadline=None)
@given(steps)
def test_no_event_is_lost_or_duplicated_whatever_reads_are_cancelled(steps: list[Step]) -> None:
    pushed, received, _ = run(steps)

    assert sorted(received) == pushed


@settings(max_examples=150, deadline=None)
@given(steps)
def test_without_cancellation_reads_receive_events_in_push_order(steps: list[Step]) -> None:
    pushed, received, cancelled_any = run([step for step in steps if step[0] != "cancel"])

    assert not cancelled_any
    assert received == pushed
