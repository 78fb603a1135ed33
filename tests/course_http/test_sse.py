"""SseDecoder: every event-stream rule, torn at every offset, with its bounds and UTF-8 checks."""

from __future__ import annotations

import pytest

from course_http import DEFAULT_MAX_FRAME_LENGTH, SseDecoder, SseEvent, VendorError, VendorErrorCode
from tests.course_http.helpers import FRAME_EVENTS, FRAMES, VENDOR

E = SseEvent


def decode(text: str, *, cuts: tuple[int, ...] = ()) -> list[SseEvent]:
    """All events of ``text`` fed in pieces cut at ``cuts``, then closed."""
    decoder = SseDecoder(vendor=VENDOR)
    events: list[SseEvent] = []
    start = 0
    for cut in (*cuts, len(text)):
        events += decoder.feed(text[start:cut])
        start = cut
    return events + decoder.close()


def decode_bytes(body: bytes, size: int) -> list[SseEvent]:
    """All events of ``body`` fed as bytes, ``size`` bytes at a time, then closed."""
    decoder = SseDecoder(vendor=VENDOR)
    events: list[SseEvent] = []
    for start in range(0, len(body), size):
        events += decoder.feed_bytes(body[start : start + size])
    return events + decoder.close()


def stream_in_pieces(decoder: SseDecoder, body: bytes, size: int, events: list[SseEvent]) -> None:
    """Feed ``body`` ``size`` bytes at a time as `stream_events` does, then close.

    Appends the events to ``events``; raises a kept failure as soon as there is one.
    """
    for start in range(0, len(body), size):
        events += decoder.feed_bytes(body[start : start + size])
        if decoder.failure is not None:
            raise decoder.failure
    events += decoder.close()


@pytest.mark.parametrize(
    ("text", "events"),
    [
        ("data: a\n\ndata: b\n\n", [E("message", "a"), E("message", "b")]),
        ("data: a\r\n\r\ndata: b\r\n\r\n", [E("message", "a"), E("message", "b")]),
        ("data: a\r\rdata: b\r\r", [E("message", "a"), E("message", "b")]),
        ("data: a\r\n\ndata: b\n\r\n", [E("message", "a"), E("message", "b")]),
        ("event: x\ndata: 1\n\n", [E("x", "1")]),
        ("data: 1\nevent: x\n\n", [E("x", "1")]),
        ("event: x\nevent: y\ndata: 1\n\n", [E("y", "1")]),
        ("event:\ndata: 1\n\n", [E("message", "1")]),
        ("event: x\ndata: 1\n\ndata: 2\n\n", [E("x", "1"), E("message", "2")]),
        ("data: a\ndata: b\ndata: c\n\n", [E("message", "a\nb\nc")]),
        ("data:a\n\n", [E("message", "a")]),
        ("data:  a \n\n", [E("message", " a ")]),
        ("data\n\n", [E("message", "")]),
        ("data:\n\n", [E("message", "")]),
        ("data\ndata\n\n", [E("message", "\n")]),
        ("data: a:b: c\n\n", [E("message", "a:b: c")]),
        (": comment\ndata: a\n: another\n\n", [E("message", "a")]),
        (":\n\n: only comments\n\n", []),
        ("event: x\n\n", []),
        ("id: 7\n\nretry: 10\n\n", []),
        ("id: 7\nretry: 10\ndata: a\n\n", [E("message", "a")]),
        ("Data: a\n\nDATA: b\n\n", []),
        ("unknown: z\ndata: a\nfoo\n\n", [E("message", "a")]),
        (" data: a\n\n", []),
        ("\n\n\ndata: a\n\n\n\n", [E("message", "a")]),
        ("", []),
        ("\ufeffdata: a\n\n", [E("message", "a")]),
        ("\ufeff\ufeffdata: a\n\n", []),
        ("data: \ufeffa\n\n", [E("message", "\ufeffa")]),
        ('data: {"a": 1}        \n\n', [E("message", '{"a": 1}        ')]),
        ("data: a\x00b\n\n", [E("message", "a\x00b")]),
    ],
    ids=repr,
)
def test_the_event_stream_rules(text: str, events: list[SseEvent]) -> None:
    assert decode(text) == events


@pytest.mark.parametrize(
    ("text", "events"),
    [
        ("data: last", [E("message", "last")]),
        ("data: last\n", [E("message", "last")]),
        ("data: last\r", [E("message", "last")]),
        ("event: stop\ndata: {}\n", [E("stop", "{}")]),
        ("data: a\n\nevent: stop\ndata: {}", [E("message", "a"), E("stop", "{}")]),
        ("event: stop\n", []),
        (": just a comment", []),
    ],
    ids=repr,
)
def test_a_frame_pending_at_the_end_of_the_body_is_dispatched(
    text: str, events: list[SseEvent]
) -> None:
    # The deliberate difference from WHATWG, which would drop it.
    assert decode(text) == events


def test_a_bom_is_dropped_only_at_the_very_start_of_the_stream() -> None:
    decoder = SseDecoder(vendor=VENDOR)
    assert decoder.feed("") == []
    assert decoder.feed("\ufeff") == []
    assert decoder.feed("data: a\n\n") == [E("message", "a")]
    assert decoder.feed("\ufeffdata: b\n\n") == []
    assert decoder.close() == []


def test_a_utf8_bom_torn_across_chunks_is_dropped_too() -> None:
    assert decode_bytes(b"\xef\xbb\xbfdata: a\n\n", 1) == [E("message", "a")]


def test_a_crlf_torn_between_two_chunks_is_one_line_end() -> None:
    decoder = SseDecoder(vendor=VENDOR)
    assert decoder.feed("data: a\r") == []
    assert decoder.feed("") == []
    assert decoder.feed("\n") == []
    # Had "\r" and "\n" been two line ends, the blank line would have dispatched.
    assert decoder.feed("data: b\r") == []
    assert decoder.feed("\n\r\n") == [E("message", "a\nb")]


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 64])
def test_every_chunk_size_gives_the_same_events(size: int) -> None:
    assert decode_bytes(FRAMES, size) == FRAME_EVENTS


def test_a_body_torn_at_any_two_offsets_gives_the_same_events() -> None:
    text = FRAMES.decode() + "data: é€😀\n\nevent: end\ndata: tail"
    expected = [*FRAME_EVENTS, E("message", "é€😀"), E("end", "tail")]
    assert decode(text) == expected
    for first in range(len(text) + 1):
        for second in range(first, len(text) + 1):
            assert decode(text, cuts=(first, second)) == expected, (first, second)


def test_a_body_torn_at_every_byte_offset_decodes_multibyte_characters_whole() -> None:
    body = "data: é€😀\r\n\r\nevent: ü\ndata: 🎉\n\n".encode()
    expected = [E("message", "é€😀"), E("ü", "🎉")]
    for cut in range(len(body) + 1):
        decoder = SseDecoder(vendor=VENDOR)
        events = decoder.feed_bytes(body[:cut]) + decoder.feed_bytes(body[cut:]) + decoder.close()
        assert events == expected, cut


def test_many_data_lines_and_a_large_frame_are_joined_whole() -> None:
    lines = 20_000
    text = "".join(f"data: {index}\n" for index in range(lines)) + "\n"
    assert decode(text) == [E("message", "\n".join(str(index) for index in range(lines)))]
    big = "x" * 3_000_000
    assert decode_bytes(f"data: {big}\n\n".encode(), 65_536) == [E("message", big)]


def test_event_count_counts_the_events_returned() -> None:
    decoder = SseDecoder(vendor=VENDOR)
    decoder.feed("data: a\n\ndata: b\n\ndata: c")
    assert decoder.event_count == 2
    decoder.close()
    assert decoder.event_count == 3


def test_a_frame_past_the_bound_fails_after_the_events_before_it() -> None:
    decoder = SseDecoder(vendor=VENDOR, max_frame_length=16)
    events = decoder.feed("data: short\n\ndata: 0123456789abcdef\n\ndata: late\n\n")
    assert events == [E("message", "short")]
    failure = decoder.failure
    assert failure is not None
    assert (failure.code, failure.vendor, failure.event_index) == (
        VendorErrorCode.VENDOR_INVALID_EVENT,
        VENDOR,
        1,
    )
    assert "longer than 16 characters" in failure.message
    with pytest.raises(VendorError) as caught:
        decoder.feed("data: more\n\n")
    assert caught.value is failure
    with pytest.raises(VendorError) as caught:
        decoder.close()
    assert caught.value is failure


def test_a_frame_that_keeps_growing_fails_before_it_ends() -> None:
    decoder = SseDecoder(vendor=VENDOR, max_frame_length=1_000)
    assert decoder.feed("data: ok\n\n") == [E("message", "ok")]
    for _ in range(9):
        assert decoder.feed("data: " + "y" * 100 + "\n") == []
        assert decoder.failure is None
    decoder.feed("data: " + "y" * 100 + "\n")
    assert decoder.failure is not None
    assert decoder.failure.event_index == 1


@pytest.mark.parametrize("size", [1, 3, 1_000])
def test_the_bound_fails_at_the_same_event_whatever_the_chunking(size: int) -> None:
    body = ("data: a\n\n" * 5 + "data: " + "z" * 200 + "\n\ndata: b\n\n").encode()
    decoder = SseDecoder(vendor=VENDOR, max_frame_length=100)
    events: list[SseEvent] = []
    with pytest.raises(VendorError) as caught:
        stream_in_pieces(decoder, body, size, events)
    assert events == [E("message", "a")] * 5
    assert caught.value.event_index == 5


def test_the_default_bound_is_16_mebi_characters() -> None:
    assert DEFAULT_MAX_FRAME_LENGTH == 16 * 1024 * 1024
    decoder = SseDecoder(vendor=VENDOR)
    decoder.feed("data: " + "q" * DEFAULT_MAX_FRAME_LENGTH)
    assert decoder.failure is not None
    assert decoder.failure.code is VendorErrorCode.VENDOR_INVALID_EVENT


@pytest.mark.parametrize("size", [1, 2, 1_000])
@pytest.mark.parametrize(
    ("body", "offset"),
    [
        (b"data: a\n\ndata: \xff\n\n", 15),
        (b"data: a\n\ndata: \xc3(\n\n", 15),
        (b"data: a\n\ndata: \xed\xa0\x80\n\n", 15),
        (b"data: a\n\n\x80", 9),
    ],
    ids=["ff", "bad-continuation", "surrogate", "lone-continuation"],
)
def test_invalid_utf8_fails_naming_its_offset_after_the_events_before_it(
    size: int, body: bytes, offset: int
) -> None:
    decoder = SseDecoder(vendor=VENDOR)
    events: list[SseEvent] = []
    with pytest.raises(VendorError) as caught:
        stream_in_pieces(decoder, body, size, events)
    assert events == [E("message", "a")]
    assert (caught.value.code, caught.value.event_index) == (
        VendorErrorCode.VENDOR_INVALID_EVENT,
        1,
    )
    assert f"byte {offset} " in caught.value.message


def test_a_body_that_ends_inside_a_utf8_character_fails_at_close() -> None:
    decoder = SseDecoder(vendor=VENDOR)
    assert decoder.feed_bytes(b"data: a\n\ndata: \xe2\x82") == [E("message", "a")]
    with pytest.raises(VendorError) as caught:
        decoder.close()
    assert (caught.value.code, caught.value.event_index) == (
        VendorErrorCode.VENDOR_INVALID_EVENT,
        1,
    )
    assert "ends inside a UTF-8 sequence" in caught.value.message


def test_close_twice_returns_nothing_and_feed_after_close_is_a_programming_error() -> None:
    decoder = SseDecoder(vendor=VENDOR)
    decoder.feed("data: a")
    assert decoder.close() == [E("message", "a")]
    assert decoder.close() == []
    with pytest.raises(RuntimeError, match="after close"):
        decoder.feed("data: b\n\n")
    with pytest.raises(RuntimeError, match="after close"):
        decoder.feed_bytes(b"data: b\n\n")


@pytest.mark.parametrize("bound", [0, -1, True, 1.5, "10"])
def test_the_bound_must_be_a_positive_int(bound: object) -> None:
    with pytest.raises(ValueError, match="max_frame_length"):
        SseDecoder(vendor=VENDOR, max_frame_length=bound)  # type: ignore[arg-type]


def test_sse_events_compare_by_value_and_show_both_fields() -> None:
    assert E("a", "1") == E("a", "1")
    assert E("a", "1") != E("a", "2")
    assert E("a", "1") != ("a", "1")
    assert hash(E("a", "1")) == hash(E("a", "1"))
    assert repr(E("a", "1")) == "SseEvent(event='a', data='1')"
