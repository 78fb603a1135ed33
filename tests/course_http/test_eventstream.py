"""EventStreamDecoder and encode_event_message: the AWS event-stream encoding, strictly."""

from __future__ import annotations

import struct
import uuid
import zlib

import pytest

from course_http import (
    MAX_HEADERS_LENGTH,
    MAX_MESSAGE_LENGTH,
    EventStreamDecoder,
    EventStreamHeader,
    EventStreamMessage,
    VendorError,
    VendorErrorCode,
    encode_event_message,
)
from tests.course_provider_bedrock import frames

C = VendorErrorCode
SMALL = frames.frame(frames.string(":event-type", "a"), b"{}")
EVERY_TYPE = frames.frame(frames.every_type_headers(), b"payload")


def decoded(body: bytes, cuts: list[int] | None = None) -> list[EventStreamMessage] | VendorError:
    """What the decoder makes of ``body`` fed in pieces cut at ``cuts``: messages or the fault."""
    decoder = EventStreamDecoder(vendor="w")
    messages: list[EventStreamMessage] = []
    start = 0
    try:
        for end in [*(cuts or []), len(body)]:
            messages.extend(decoder.feed(body[start:end]))
            start = end
            if decoder.failure is not None:
                raise decoder.failure
        decoder.close()
    except VendorError as error:
        return error
    return messages


def fault(body: bytes, cuts: list[int] | None = None) -> VendorError:
    result = decoded(body, cuts)
    assert isinstance(result, VendorError), result
    assert (result.code, result.vendor) == (C.VENDOR_INVALID_EVENT, "w")
    return result


def test_every_header_type_is_read_with_its_value_and_type() -> None:
    (message,) = decoded(EVERY_TYPE)  # type: ignore[misc]

    assert message.payload == b"payload"
    assert [(h.name, h.type, h.value) for h in message.headers] == [
        ("t", 0, True),
        ("f", 1, False),
        ("b", 2, -128),
        ("s", 3, 32767),
        ("i", 4, -(2**31)),
        ("l", 5, 2**63 - 1),
        ("y", 6, b"\x00\xff"),
        ("u8", 7, "é"),
        ("ts", 8, 1_700_000_000_000),
        ("id", 9, uuid.UUID("12345678-1234-5678-1234-567812345678")),
    ]
    assert message.header("u8") == "é"
    assert message.header("absent") is None


def test_a_message_read_re_encodes_to_its_own_bytes() -> None:
    (message,) = decoded(EVERY_TYPE)  # type: ignore[misc]

    assert encode_event_message(message.headers, message.payload) == EVERY_TYPE
    assert encode_event_message((), b"") == frames.frame(b"", b"")


def test_the_encoder_refuses_a_value_that_does_not_fit_its_type() -> None:
    for bad in (
        EventStreamHeader("b", 2, 128),
        EventStreamHeader("s", 7, b"bytes"),
        EventStreamHeader("t", 0, False),
        EventStreamHeader("x", 10, 1),
        EventStreamHeader("", 7, "empty name"),
        EventStreamHeader("y", 6, b"x" * 65536),
    ):
        with pytest.raises(ValueError, match="header"):
            encode_event_message((bad,), b"")
    with pytest.raises(ValueError, match="past"):
        encode_event_message((), b"x" * MAX_MESSAGE_LENGTH)


def test_a_body_split_at_every_byte_decodes_the_same() -> None:
    body = SMALL + EVERY_TYPE + SMALL
    whole = decoded(body)
    assert isinstance(whole, list)
    assert len(whole) == 3
    for at in range(len(body) + 1):
        assert decoded(body, [at]) == whole, at
    assert decoded(body, list(range(1, len(body)))) == whole


def test_a_corrupt_byte_anywhere_in_a_small_frame_is_refused_at_its_frame() -> None:
    body = SMALL + SMALL
    for at in range(len(SMALL), len(body)):
        corrupt = bytearray(body)
        corrupt[at] ^= 0x01
        error = fault(bytes(corrupt))
        assert error.event_index == 1, at
        assert f"at byte {len(SMALL)}:" in error.message, at
        assert "CRC does not match" in error.message, (at, error.message)


def test_the_prelude_is_checked_before_the_decoder_waits_for_the_rest() -> None:
    corrupt = bytearray(SMALL)
    corrupt[0] = 0x7F  # the total length, now far past the bytes that came

    decoder = EventStreamDecoder(vendor="w")
    assert decoder.feed(bytes(corrupt[:12])) == []
    assert decoder.failure is not None
    assert "prelude CRC does not match" in decoder.failure.message
    with pytest.raises(VendorError) as again:
        decoder.feed(b"")
    assert again.value is decoder.failure


def prelude(total: int, headers: int) -> bytes:
    head = struct.pack(">II", total, headers)
    return head + struct.pack(">I", zlib.crc32(head))


@pytest.mark.parametrize(
    ("total", "headers", "problem"),
    [
        (15, 0, "the total length 15 is under 16"),
        (MAX_MESSAGE_LENGTH + 1, 0, f"the total length {MAX_MESSAGE_LENGTH + 1} is past"),
        (2**32 - 1, 0, "is past"),
        (1024, MAX_HEADERS_LENGTH + 1, f"the headers length {MAX_HEADERS_LENGTH + 1} is past"),
        (20, 5, "the headers length 5 is past the message's 20 bytes"),
    ],
)
def test_lengths_out_of_bounds_are_refused_from_the_prelude(
    total: int, headers: int, problem: str
) -> None:
    assert problem in fault(SMALL + prelude(total, headers)).message


def test_a_body_that_ends_inside_a_message_is_torn_at_that_message() -> None:
    for cut in range(1, len(SMALL)):
        error = fault(SMALL + SMALL[:cut])
        assert error.event_index == 1
        assert error.message.startswith(f"event 1: the event-stream message at byte {len(SMALL)}:")
        assert f"the body ends inside a message, {cut} byte(s) into it" in error.message


def test_the_messages_before_a_fault_are_returned_and_the_fault_kept() -> None:
    corrupt = bytearray(SMALL)
    corrupt[-1] ^= 0xFF
    decoder = EventStreamDecoder(vendor="w")

    messages = decoder.feed(SMALL + bytes(corrupt))

    assert len(messages) == 1
    assert decoder.message_count == 1
    failure = decoder.failure
    assert failure is not None
    with pytest.raises(VendorError) as raised:
        decoder.close()
    assert raised.value is failure


@pytest.mark.parametrize(
    ("headers", "problem"),
    [
        (frames.header("x", 10, b""), "header 'x' has the unknown type 10"),
        (frames.header("x", 255, b""), "header 'x' has the unknown type 255"),
        (frames.string("a", "1") + frames.string("a", "2"), "header 'a' is given twice"),
        (frames.string("a", "1")[:-1], "runs past the headers section"),
        (b"\x05ab", "runs past the headers section"),
        (b"\x00" + bytes([7]) + b"\x00\x00", "runs past the headers section"),
        (b"\x01\xff\x07\x00\x00", "not UTF-8"),
        (frames.header("s", 7, "")[:-2] + b"\x00\x01\xff", "not UTF-8"),
        (frames.header("u", 9, uuid.UUID(int=0))[:-1], "runs past the headers section"),
        (frames.header("l", 5, 0)[:-1], "runs past the headers section"),
    ],
)
def test_a_bad_header_is_refused(headers: bytes, problem: str) -> None:
    assert problem in fault(frames.frame(headers, b"")).message


def test_huge_lengths_inside_the_headers_are_refused_without_reading_past_them() -> None:
    name = b"\x01x\x06\xff\xff"  # a bytes value claiming 65535 bytes, in a 5-byte section
    assert "runs past the headers section" in fault(frames.frame(name, b"payload")).message
