"""A Bedrock event-stream body as the grammar reads it: one `SseEvent` per binary message.

``course_http.EventStreamDecoder`` cuts the body into messages and checks
their lengths and CRCs; `ConverseDecoder` names each message for the
grammar by its ``:message-type``: an ``event`` by its ``:event-type``, an
``exception`` as ``exception:`` and its ``:exception-type``, an ``error``
as ``error:`` and its ``:error-code``. The event's data is the payload as
text (the JSON the grammar decodes); an ``error`` message carries its
``:error-message`` header as ``{"message": ...}``, since its payload is empty.
"""

from __future__ import annotations

import json
from typing import Final, final

from course_http import (
    EVENTSTREAM_MEDIA_TYPE,
    EventDecoder,
    EventFraming,
    EventStreamDecoder,
    EventStreamMessage,
    SseEvent,
    VendorError,
    VendorErrorCode,
)
from course_protocol.untrusted import described, shown
from course_provider_bedrock._wire import ERROR_PREFIX, EXCEPTION_PREFIX

__all__ = ["CONVERSE_FRAMING", "ConverseDecoder"]

_MESSAGE_TYPE = ":message-type"
_NAME_HEADERS: Final = {
    "event": (":event-type", ""),
    "exception": (":exception-type", EXCEPTION_PREFIX),
    "error": (":error-code", ERROR_PREFIX),
}
"""Each message type, the header that names its event, and the prefix of that name."""


@final
class ConverseDecoder:
    """Incremental decoder of a ConverseStream body into `SseEvent` s (an ``EventDecoder``).

    Raises (from `feed_bytes` or `close`, the failure kept as
    ``EventStreamDecoder`` keeps it) `VendorError` ``VENDOR_INVALID_EVENT``
    for what ``course_http.EventStreamDecoder`` refuses (naming the byte),
    and for a message without a string ``:message-type`` of ``event``,
    ``exception`` or ``error``, without the string header naming it
    (``:event-type``, ``:exception-type``, ``:error-code``), with a name
    holding ``:``, or with a payload that is not UTF-8.
    """

    __slots__ = ("_decoder", "_failure", "_vendor")

    def __init__(self, *, vendor: str) -> None:
        self._vendor = vendor
        self._decoder = EventStreamDecoder(vendor=vendor)
        self._failure: VendorError | None = None

    @property
    def event_count(self) -> int:
        """The number of events returned so far."""
        return self._decoder.message_count

    @property
    def failure(self) -> VendorError | None:
        """The failure the next call raises, or ``None`` while the body is well formed."""
        return self._failure or self._decoder.failure

    def feed_bytes(self, data: bytes) -> list[SseEvent]:
        """The events the next chunk of the body completes, in order."""
        if self._failure is not None:
            raise self._failure
        messages = self._decoder.feed(data)
        events: list[SseEvent] = []
        first = self._decoder.message_count - len(messages)
        for offset, message in enumerate(messages):
            event = self._event(message, first + offset)
            if isinstance(event, VendorError):
                # The events before it are returned; the next call raises it.
                self._failure = event
                break
            events.append(event)
        return events

    def close(self) -> list[SseEvent]:
        """End of body: raises the kept failure, or the failure of a body cut inside a message."""
        if self._failure is not None:
            raise self._failure
        self._decoder.close()
        return []

    def _event(self, message: EventStreamMessage, index: int) -> SseEvent | VendorError:
        # One pass over the (three) headers: this runs for every event.
        values = {header.name: header.value for header in message.headers}
        kind = values.get(_MESSAGE_TYPE)
        naming = _NAME_HEADERS.get(kind) if type(kind) is str else None
        if naming is None:
            return self._refused(
                index, f"{_MESSAGE_TYPE} must be event, exception or error, got {_told(kind)}"
            )
        header, prefix = naming
        name = values.get(header)
        if type(name) is not str or not name or ":" in name:
            return self._refused(index, f"{header} must be a name without ':', got {_told(name)}")
        if prefix:
            if prefix == ERROR_PREFIX:
                text = values.get(":error-message")
                return SseEvent(
                    prefix + name, json.dumps({"message": text if type(text) is str else ""})
                )
            name = prefix + name
        try:
            return SseEvent(name, message.payload.decode())
        except UnicodeDecodeError:
            return self._refused(index, "the payload is not UTF-8")

    def _refused(self, index: int, problem: str) -> VendorError:
        return VendorError(
            VendorErrorCode.VENDOR_INVALID_EVENT,
            f"event {index}: {problem}",
            vendor=self._vendor,
            event_index=index,
        )


def _told(value: object) -> str:
    """A header's value as a message shows it: ``missing``, a quoted text, or what it is."""
    if value is None:
        return "missing"
    return repr(shown(value)) if type(value) is str else described(value)


def _decoder(vendor: str) -> EventDecoder:
    return ConverseDecoder(vendor=vendor)


CONVERSE_FRAMING: Final = EventFraming(frozenset({EVENTSTREAM_MEDIA_TYPE}), _decoder)
"""ConverseStream's bodies: AWS event-stream messages under their own media type."""
