"""Fault injection on replay: a recorded response cut, dropped, paused or replaced.

Each fault turns a recorded response into what a failing network or vendor
would have sent, so the client runs into the same typed failure it would
meet live: a body that just ends (the parser's missing terminal), a
connection dropped mid-body (``HTTP_STREAM_INTERRUPTED``), a pause longer
than the read timeout (``HTTP_TIMEOUT``), an error status with its body (the
status's ``HTTP_*`` code, with the vendor's error read from the body).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, final

from course_http import RecordedResponse, ResponseEnd, SseDecoder, VendorError
from course_protocol.slots import slot_setter

__all__ = ["AppliedFault", "FaultKind", "ReplayFault", "event_end_offsets"]

FaultKind = Literal["cut", "drop", "delay", "replace"]
"""What a `ReplayFault` does: end the body early, drop the connection, pause, replace."""

_AFTER_LINE_END = re.compile(rb"(?<=[\r\n])")


def event_end_offsets(body: bytes) -> list[int]:
    """The byte offset just after each event of the SSE ``body``, in order.

    An event ends where the framing dispatches it (the blank line after
    its ``data``, or the end of the body for a frame left pending), counted
    exactly as `stream_events` counts them; counting stops at the first
    framing failure.
    """
    decoder = SseDecoder(vendor="cassette")
    offsets: list[int] = []
    at = 0
    try:
        for piece in _AFTER_LINE_END.split(body):
            at += len(piece)
            offsets.extend(at for _event in decoder.feed_bytes(piece))
            if decoder.failure is not None:
                return offsets
        offsets.extend(len(body) for _event in decoder.close())
    except VendorError:
        pass
    return offsets


@final
@dataclass(frozen=True, slots=True)
class AppliedFault:
    """A recorded response with a fault applied: what to serve, and where to pause how long."""

    response: RecordedResponse
    pause_at: int | None = None
    pause_seconds: float = 0.0


@final
@dataclass(frozen=True, slots=True, init=False)
class ReplayFault:
    """One fault to inject into one replayed call; build it with the class methods.

    - `cut_after` ``(events)``: the body ends cleanly after its first
      ``events`` events, as if the vendor had stopped there: the parser fails
      with its missing terminal (``VENDOR_MISSING_TERMINAL``).
    - `drop_after` ``(events)``: the connection drops after them:
      ``HTTP_STREAM_INTERRUPTED``, ``event_index`` = ``events``.
    - `delay` ``(seconds, after_events=0)``: the body pauses after that many
      events (0: before its first byte); past the read timeout, ``HTTP_TIMEOUT``
      at once (a replay never waits for the timeout to pass).
    - `replace` ``(status, body, headers)``: another response entirely, such as
      a 529 or a 429 with ``retry-after``: the status's ``HTTP_*`` code with the
      vendor's error type and message read from ``body``.

    Faults that count events need a plain (not content-encoded) SSE body
    with that many events: `apply` raises ``ValueError`` otherwise.
    """

    kind: FaultKind
    events: int
    seconds: float
    response: RecordedResponse | None

    def __init__(
        self,
        kind: FaultKind,
        *,
        events: int = 0,
        seconds: float = 0.0,
        response: RecordedResponse | None = None,
    ) -> None:
        if kind not in ("cut", "drop", "delay", "replace"):
            raise ValueError(f"unknown fault kind {kind!r}")
        if type(events) is not int or events < 0:
            raise ValueError("events must be an int, 0 or more")
        if type(seconds) not in (int, float) or not (math.isfinite(seconds) and seconds >= 0):
            raise ValueError("seconds must be a finite number, 0 or more")
        if (kind == "replace") != (response is not None):
            raise ValueError("a replace fault, and only it, carries a response")
        if response is not None and type(response) is not RecordedResponse:
            raise TypeError("response must be a RecordedResponse")
        _set_kind(self, kind)
        _set_events(self, events)
        _set_seconds(self, float(seconds))
        _set_response(self, response)

    @classmethod
    def cut_after(cls, events: int) -> ReplayFault:
        """The body ends, cleanly, right after its first ``events`` events."""
        return cls("cut", events=events)

    @classmethod
    def drop_after(cls, events: int) -> ReplayFault:
        """The connection drops right after the first ``events`` events of the body."""
        return cls("drop", events=events)

    @classmethod
    def delay(cls, seconds: float, *, after_events: int = 0) -> ReplayFault:
        """The body pauses ``seconds`` after its first ``after_events`` events (0: before any)."""
        return cls("delay", events=after_events, seconds=seconds)

    @classmethod
    def replace(
        cls, status: int, body: bytes = b"", headers: Mapping[str, str] | None = None
    ) -> ReplayFault:
        """Serve ``status`` and ``body`` instead (``content-type: application/json`` by default)."""
        given = {"content-type": "application/json"} if headers is None else headers
        return cls("replace", response=RecordedResponse(status, given, body))

    def apply(self, response: RecordedResponse) -> AppliedFault:
        """What to serve instead of ``response``; ``ValueError`` when the fault cannot apply."""
        if self.response is not None:
            return AppliedFault(self.response)
        offset = self._offset(response)
        if self.kind == "delay":
            return AppliedFault(response, pause_at=offset, pause_seconds=self.seconds)
        end: ResponseEnd = "complete" if self.kind == "cut" else "interrupted"
        cut = RecordedResponse(response.status, response.headers, response.body[:offset], end)
        return AppliedFault(cut)

    def _offset(self, response: RecordedResponse) -> int:
        if self.events == 0:
            return 0
        if "content-encoding" in response.headers:
            raise ValueError(f"a {self.kind} fault counts events, and this body is content-encoded")
        offsets = event_end_offsets(response.body)
        if len(offsets) < self.events:
            raise ValueError(
                f"a {self.kind} fault after {self.events} events, but the body has {len(offsets)}"
            )
        return offsets[self.events - 1]


_set_kind = slot_setter(ReplayFault, "kind")
_set_events = slot_setter(ReplayFault, "events")
_set_seconds = slot_setter(ReplayFault, "seconds")
_set_response = slot_setter(ReplayFault, "response")
