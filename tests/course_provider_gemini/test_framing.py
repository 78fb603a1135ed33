"""GeminiDecoder: both framings of a Gemini body, however they are cut, and how they fail."""

from __future__ import annotations

import json
from typing import Any

import pytest

from course_http import RecordedResponse, RecordedTransport, SseEvent, VendorError, VendorErrorCode
from course_protocol import CourseTextDeltaChunk
from course_provider_gemini import GEMINI_FRAMING, GeminiConfig, GeminiDecoder, GeminiModel
from tests.course_cassettes.replays import replay
from tests.course_provider_gemini.bodies import chunk, error_object, text

C = VendorErrorCode
FIRST: dict[str, Any] = {"candidates": [{"content": {"parts": [{"text": "a"}]}}], "responseId": "r"}
LAST: dict[str, Any] = {
    "candidates": [{"content": {"parts": [{"text": "b"}]}, "finishReason": "STOP"}],
    "usageMetadata": {"promptTokenCount": 1},
    "responseId": "r",
}


def decoded(body: bytes, cuts: list[int] | None = None) -> list[str] | VendorError:
    decoder = GeminiDecoder(vendor="gemini")
    events: list[SseEvent] = []
    points = [*(cuts or []), len(body)]
    start = 0
    try:
        for end in points:
            events.extend(decoder.feed_bytes(body[start:end]))
            start = end
            if decoder.failure is not None:
                raise decoder.failure
        events.extend(decoder.close())
    except VendorError as error:
        return error
    assert all(event.event == "message" for event in events)
    return [event.data for event in events]


def outcome(result: list[str] | VendorError) -> object:
    if isinstance(result, VendorError):
        return (result.code, result.event_index, result.message)
    return result


def every_cut(body: bytes) -> list[str] | VendorError:
    """What ``body`` decodes to, the same cut in two anywhere and cut into single bytes."""
    whole = decoded(body)
    for at in range(len(body) + 1):
        assert outcome(decoded(body, [at])) == outcome(whole), at
    assert outcome(decoded(body, list(range(1, len(body))))) == outcome(whole)
    return whole


def array(*elements: dict[str, Any]) -> bytes:
    """A JSON array as the vendor streams it: pretty-printed, ``\\n,\\r\\n`` between elements."""
    parts = [json.dumps(element, indent=2) for element in elements]
    return ("[" + "\n,\r\n".join(parts) + "\n]").encode()


@pytest.mark.parametrize("end", ["\r\n", "\n", "\r"], ids=["crlf", "lf", "cr"])
def test_sse_frames_of_any_line_end_are_one_event_each(end: str) -> None:
    body = "".join(f"data: {json.dumps(item)}{end}{end}" for item in (FIRST, LAST)).encode()

    assert every_cut(body) == [json.dumps(FIRST), json.dumps(LAST)]


def test_a_frame_still_pending_at_the_end_of_the_body_is_dispatched() -> None:
    body = f"data: {json.dumps(LAST)}\r\n".encode()

    assert every_cut(body) == [json.dumps(LAST)]


def test_comments_blank_lines_and_multi_line_data_are_read_as_sse() -> None:
    body = b': keep-alive\n\n\n\ndata: {"a":\ndata: 1}\n\n'

    assert every_cut(body) == ['{"a":\n1}']


def test_a_bare_error_object_between_frames_is_an_event() -> None:
    error = json.dumps(json.loads(error_object()), indent=2)
    body = f"data: {json.dumps(FIRST)}\n\n{error}\n".encode()

    assert every_cut(body) == [json.dumps(FIRST), error]


@pytest.mark.parametrize("line", ["event: message", "id: 1", "retry: 10", "garbage"])
def test_an_sse_line_of_another_field_is_refused(line: str) -> None:
    body = f"data: {json.dumps(FIRST)}\n\n{line}\ndata: {{}}\n\n".encode()

    error = every_cut(body)

    assert isinstance(error, VendorError)
    assert (error.code, error.event_index) == (C.VENDOR_INVALID_EVENT, 1)


def test_the_json_array_is_one_event_per_element_however_it_is_cut() -> None:
    tricky: dict[str, Any] = {
        "text": 'braces } { and "quotes" \\ and ] [ , inside',
        "nested": {"a": [{"b": {}}]},
    }

    assert every_cut(array(FIRST, tricky, LAST)) == [
        json.dumps(element, indent=2) for element in (FIRST, tricky, LAST)
    ]


def test_an_empty_array_and_a_leading_byte_order_mark_are_read() -> None:
    assert every_cut(b"  [ ]  ") == []
    assert decoded("\ufeff".encode() + array(FIRST)) == [json.dumps(FIRST, indent=2)]


@pytest.mark.parametrize(
    ("body", "index"),
    [
        (b"[1]", 0),
        (b'[{"a": 1} {"b": 2}]', 1),
        (b'[{"a": 1},]', 1),
        (b'[{"a": 1}] x', 1),
        (b'[{"a": 1}, ', 1),
        (b'[{"a": "unterminated', 0),
        (b"[,", 0),
        (b'[{"a": 1}', 1),
    ],
)
def test_a_torn_or_malformed_array_is_invalid_at_the_element_it_reached(
    body: bytes, index: int
) -> None:
    error = decoded(body)

    assert isinstance(error, VendorError)
    assert (error.code, error.event_index) == (C.VENDOR_INVALID_EVENT, index)


def test_bytes_that_are_not_utf8_or_end_inside_a_character_are_invalid() -> None:
    bad = decoded(b"data: {\xff}\n\n")
    torn = decoded('data: {"t": "é'.encode()[:-1])

    assert isinstance(bad, VendorError)
    assert bad.code is C.VENDOR_INVALID_EVENT
    assert isinstance(torn, VendorError)
    assert torn.code is C.VENDOR_INVALID_EVENT
    assert "UTF-8" in torn.message


@pytest.mark.parametrize("framing", ["sse", "array"])
def test_a_frame_past_the_bound_is_refused_without_holding_more(framing: str) -> None:
    decoder = GeminiDecoder(vendor="gemini", max_frame_length=64)
    opening = b"data: {" if framing == "sse" else b'[{"a": "'

    decoder.feed_bytes(opening)
    for _ in range(10):
        if decoder.failure is not None:
            break
        decoder.feed_bytes(b"x" * 16)

    assert decoder.failure is not None
    assert decoder.failure.code is C.VENDOR_INVALID_EVENT
    assert "longer than 64 characters" in decoder.failure.message
    with pytest.raises(VendorError) as again:
        decoder.feed_bytes(b"}")
    assert again.value is decoder.failure


def test_the_decoder_refuses_a_bad_bound_and_a_feed_after_close() -> None:
    with pytest.raises(ValueError, match="positive int"):
        GeminiDecoder(vendor="gemini", max_frame_length=0)
    decoder = GeminiDecoder(vendor="gemini")
    assert decoder.close() == []
    assert decoder.close() == []
    with pytest.raises(RuntimeError, match="after close"):
        decoder.feed_bytes(b"")


def test_the_wire_framing_accepts_both_media_types() -> None:
    assert GEMINI_FRAMING.media_types == {"text/event-stream", "application/json"}
    assert type(GEMINI_FRAMING.decoder("gemini")) is GeminiDecoder


@pytest.mark.parametrize("media_type", ["application/json", "text/event-stream"])
async def test_the_model_plays_the_array_under_either_media_type(media_type: str) -> None:
    body = array(
        json.loads(chunk(text("a")).data), json.loads(chunk(text("b"), finish="STOP").data)
    )
    served = RecordedResponse(200, {"content-type": media_type}, body)
    async with RecordedTransport([served], chunking="bytes") as transport:
        outcome = await replay(GeminiModel(GeminiConfig("gemini-test"), transport=transport))

    assert outcome.error is None
    assert [chunk.delta for chunk in outcome.chunks if type(chunk) is CourseTextDeltaChunk] == [
        "a",
        "b",
    ]


async def test_another_media_type_is_not_an_event_stream() -> None:
    served = RecordedResponse(200, {"content-type": "text/html"}, b"<html>")
    async with RecordedTransport([served]) as transport:
        outcome = await replay(GeminiModel(GeminiConfig("gemini-test"), transport=transport))

    assert outcome.error is not None
    assert outcome.error.code is C.HTTP_NOT_EVENT_STREAM
    assert "application/json or text/event-stream" in outcome.error.message


async def test_a_bare_error_after_chunks_fails_the_model_call_as_an_error_event() -> None:
    body = chunk(text("First ")).data.encode()
    error = json.dumps(json.loads(error_object("CANCELLED", "cancelled")), indent=2).encode()
    served = RecordedResponse(
        200, {"content-type": "text/event-stream"}, b"data: " + body + b"\r\n\r\n" + error
    )
    async with RecordedTransport([served], chunking="bytes") as transport:
        outcome = await replay(GeminiModel(GeminiConfig("gemini-test"), transport=transport))

    assert outcome.chunks == (CourseTextDeltaChunk("request-1", "First "),)
    assert outcome.error is not None
    assert (outcome.error.code, outcome.error.event_index, outcome.error.vendor_type) == (
        C.VENDOR_ERROR_EVENT,
        1,
        "CANCELLED",
    )


@pytest.mark.parametrize("prefix", ["data: ", "data:", "{"])
def test_frames_whole_in_one_chunk_are_bounded_as_pending_ones_are(prefix: str) -> None:
    # The frame at the bound passes and the one past it fails, after the
    # frames before it were returned, whichever way a frame is read.
    decoder = GeminiDecoder(vendor="gemini", max_frame_length=64)
    at_bound = prefix + "x" * (64 - len(prefix))
    past = prefix + "y" * (65 - len(prefix))
    body = f"data: a\n\n{at_bound}\n\n{past}\n\ndata: b\n\n".encode()

    events = decoder.feed_bytes(body)

    # A data field's prefix is not data; a bare JSON object is all data.
    data = at_bound if prefix == "{" else at_bound.removeprefix(prefix)
    assert [event.data for event in events] == ["a", data]
    assert decoder.failure is not None
    assert decoder.failure.code is C.VENDOR_INVALID_EVENT
    assert decoder.failure.event_index == 2
    assert decoder.failure.message == "event 2: a frame is longer than 64 characters"
    assert decoder.event_count == 2


def test_blank_lines_between_frames_in_one_chunk_make_no_event() -> None:
    body = b"\n\ndata: a\n\n\n\n\ndata: b\n\n: keep-alive\n\ndata: c\r\n\r\n"

    assert decoded(body) == ["a", "b", "c"]
