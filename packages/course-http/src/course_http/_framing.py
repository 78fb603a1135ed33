"""How a vendor's response body is cut into events: `EventFraming`, server-sent events by default.

Every vendor but one streams server-sent events; Gemini also streams one
JSON array, element by element, and may put a bare JSON error object
between its ``data:`` frames. A vendor adapter whose body is not plain SSE
names its own framing (the media types it answers with and a decoder of
its body) instead of teaching `stream_events` its vocabulary.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, final

from course_http._errors import VendorError
from course_http._sse import SseDecoder, SseEvent

__all__ = ["SSE_FRAMING", "EventDecoder", "EventFraming"]


class EventDecoder(Protocol):
    """An incremental decoder of one response body into `SseEvent` s, as `SseDecoder` is.

    `feed_bytes` takes the next chunk and returns the events it completes;
    `close` ends the body and returns the rest. A failure (``VendorError``
    ``VENDOR_INVALID_EVENT``) found inside a chunk is kept in `failure`
    (the events before it are still returned) and raised by the next call.
    """

    @property
    def event_count(self) -> int:
        """The number of events returned so far."""
        ...

    @property
    def failure(self) -> VendorError | None:
        """The failure the next call raises, or ``None`` while the body is well formed."""
        ...

    def feed_bytes(self, data: bytes) -> list[SseEvent]:
        """The events the next chunk of the body completes, in order."""
        ...

    def close(self) -> list[SseEvent]:
        """End of body: the events still pending; raises the kept failure, if any."""
        ...


@final
@dataclass(frozen=True, slots=True, repr=False)
class EventFraming:
    """A body framing: the ``media_types`` a 2xx stream may have, and its ``decoder``.

    ``media_types`` are lower-case media types without parameters; a 2xx
    answer of any other is ``HTTP_NOT_EVENT_STREAM``. ``decoder`` makes a
    fresh `EventDecoder` for one body, given the vendor's wire name (for its
    errors).
    """

    media_types: frozenset[str]
    decoder: Callable[[str], EventDecoder]

    def __repr__(self) -> str:
        # The decoder by name, never by address: the repr is stable across runs.
        decoder = getattr(self.decoder, "__qualname__", type(self.decoder).__name__)
        return f"EventFraming(media_types={sorted(self.media_types)!r}, decoder={decoder})"


def _sse_decoder(vendor: str) -> EventDecoder:
    return SseDecoder(vendor=vendor)


SSE_FRAMING = EventFraming(frozenset({"text/event-stream"}), _sse_decoder)
"""Server-sent events (``text/event-stream``, `SseDecoder`): every vendor's default."""
