"""SseDecoder against httpx2's own EventSource: the same events from the same bytes, any chunking.

Two differences are documented and accounted for here:

- a frame still pending at the end of the body: SseDecoder dispatches it,
  EventSource drops it (WHATWG). So SseDecoder over a body equals EventSource
  over the same body followed by a blank line, and EventSource over the body
  alone gives a prefix of SseDecoder's events, one shorter at most;
- a frame with no ``data`` field: SseDecoder dispatches nothing (WHATWG),
  EventSource an event with ``data == ""``. The bodies drawn here never hold an
  empty ``data`` value, so EventSource's events with empty data are exactly
  those frames, and they are left out of the comparison.
"""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from tests.course_http.helpers import Pair, frame_with_decoder, frame_with_event_source
from tests.properties.runner import run_example

_value_characters = st.characters(codec="utf-8", exclude_characters="\r\n\ufeff")
_values = st.text(_value_characters, max_size=8)
_data_values = st.text(_value_characters, min_size=1, max_size=8).filter(
    lambda value: value[0] != " "
)
_other_names = st.sampled_from(["event", "id", "retry", "Data", "x", "data ", ""])
_lines = st.one_of(
    st.builds(
        lambda value, space: f"data:{space}{value}", _data_values, st.sampled_from(["", " "])
    ),
    st.builds(lambda name, value: f"{name}:{value}", _other_names, _values),
    st.builds(lambda name, value: f"{name}: {value}", _other_names, _values),
    st.sampled_from(["event", "id", "retry", "x"]),
    st.builds(lambda value: f":{value}", _values),
    st.integers(0, 10**6).map(lambda number: f"retry: {number}"),
)
_endings = st.sampled_from(["\n", "\r\n", "\r"])
_pieces = st.one_of(st.builds(lambda line, end: line + end, _lines, _endings), _endings)
bodies = st.builds(
    lambda pieces, tail: ("".join(pieces) + tail).encode(),
    st.lists(_pieces, max_size=40),
    st.one_of(st.just(""), _lines),
)


def _pieces_of(body: bytes, cuts: list[int]) -> list[bytes]:
    edges = [0, *sorted(set(cuts)), len(body)]
    return [body[start:stop] for start, stop in itertools.pairwise(edges)]


@given(bodies, st.data())
def test_the_decoder_gives_what_httpx2_event_source_gives(body: bytes, data: st.DataObject) -> None:
    cuts = data.draw(st.lists(st.integers(0, len(body)), max_size=12), label="cuts")
    chunks = _pieces_of(body, cuts)

    async def main() -> tuple[list[Pair], list[Pair]]:
        terminated = await frame_with_event_source([*chunks, b"\n\n"])
        as_is = await frame_with_event_source(chunks)
        return terminated, as_is

    terminated, as_is = run_example(main)
    events = frame_with_decoder(chunks)
    assert all(event_data != "" for _name, event_data in events)
    assert events == terminated
    assert events[: len(as_is)] == as_is
    assert len(events) - len(as_is) in (0, 1)


@given(bodies)
def test_the_decoder_gives_the_same_events_whole_and_byte_by_byte(body: bytes) -> None:
    assert frame_with_decoder([body]) == frame_with_decoder(
        [body[at : at + 1] for at in range(len(body))]
    )
