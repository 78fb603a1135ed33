"""ConverseDecoder: a ConverseStream body's binary messages named for the grammar."""

from __future__ import annotations

import pytest

from course_http import SseEvent, VendorError, VendorErrorCode
from course_provider_bedrock import CONVERSE_FRAMING, ConverseDecoder
from tests.course_provider_bedrock import frames

C = VendorErrorCode


def decoded(body: bytes) -> list[SseEvent] | VendorError:
    decoder = ConverseDecoder(vendor="bedrock-converse")
    events: list[SseEvent] = []
    try:
        for at in range(len(body)):
            events.extend(decoder.feed_bytes(body[at : at + 1]))
        events.extend(decoder.close())
    except VendorError as error:
        return error
    return events


def test_each_message_type_is_named_for_the_grammar() -> None:
    body = (
        frames.event("messageStart", {"role": "assistant"})
        + frames.exception("throttlingException", {"message": "slow down"})
        + frames.error("InternalFailure", "it broke")
    )

    assert decoded(body) == [
        SseEvent("messageStart", '{"role":"assistant"}'),
        SseEvent("exception:throttlingException", '{"message": "slow down"}'),
        SseEvent("error:InternalFailure", '{"message": "it broke"}'),
    ]


def test_the_framing_answers_to_the_eventstream_media_type_only() -> None:
    assert CONVERSE_FRAMING.media_types == frozenset({frames.MEDIA_TYPE})
    assert type(CONVERSE_FRAMING.decoder("bedrock-converse")) is ConverseDecoder


NO_TYPE = frames.frame(frames.string(":event-type", "messageStart"), b"{}")
BOOL_TYPE = frames.frame(frames.header(":message-type", 0, True), b"{}")
OTHER_TYPE = frames.frame(frames.string(":message-type", "ping"), b"{}")
NO_NAME = frames.frame(frames.string(":message-type", "event"), b"{}")
COLON = frames.frame(
    frames.string(":message-type", "event") + frames.string(":event-type", "a:b"), b"{}"
)
NOT_UTF8 = frames.frame(
    frames.string(":message-type", "event") + frames.string(":event-type", "a"), b"\xff"
)


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (NO_TYPE, ":message-type must be event, exception or error, got missing"),
        (BOOL_TYPE, ":message-type must be event, exception or error, got true"),
        (OTHER_TYPE, ":message-type must be event, exception or error, got 'ping'"),
        (NO_NAME, ":event-type must be a name without ':', got missing"),
        (COLON, ":event-type must be a name without ':', got 'a:b'"),
        (NOT_UTF8, "the payload is not UTF-8"),
    ],
)
def test_a_message_the_grammar_cannot_be_named_for_is_refused_at_its_index(
    body: bytes, problem: str
) -> None:
    first = frames.event("messageStart", {"role": "assistant"})
    decoder = ConverseDecoder(vendor="bedrock-converse")

    events = decoder.feed_bytes(first + body + first)

    assert [event.event for event in events] == ["messageStart"]
    failure = decoder.failure
    assert failure is not None
    assert (failure.code, failure.event_index) == (C.VENDOR_INVALID_EVENT, 1)
    assert failure.message == f"event 1: {problem}"
    with pytest.raises(VendorError) as again:
        decoder.close()
    assert again.value is failure


def test_a_torn_body_fails_at_close_naming_its_byte() -> None:
    first = frames.event("messageStart", {"role": "assistant"})
    result = decoded(first + first[:7])

    assert isinstance(result, VendorError)
    assert result.code is C.VENDOR_INVALID_EVENT
    assert f"at byte {len(first)}: the body ends inside a message" in result.message
