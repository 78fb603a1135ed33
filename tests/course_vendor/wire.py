"""What a shared vendor test needs of one vendor API: `Wire`.

A `Wire` holds what a test needs to drive one vendor's model without knowing
its vocabulary: how to build the model, a text answer and a Tool-call answer
as SSE bytes (our own bodies, built from the vendor test folders' event
builders), the vendor's error body, and where its key goes. Each vendor's
test folder makes its own in its ``harness.py``; `tests.course_vendor.wires`
collects them through the vendor registry.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from course_http import HttpTransport, RecordedResponse, RecordedTransport, SseEvent, Timeouts
from course_protocol import (
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseToolSpec,
    CourseUserMessage,
)
from course_stream import EventStream
from course_vendor import FeedResult, VendorModel

KEY = "sk-wire-test-0123456789SECRET"
SSE = {"content-type": "text/event-stream"}
JSON = {"content-type": "application/json"}
REQUEST = CourseModelRequest("request-1", (CourseUserMessage("u-1", "What is 20 + 22?"),))
TOOLS = (CourseToolSpec("add", "Add two integers.", {"type": "object"}),)

AnyModel = VendorModel[Any]


class WirePlay(Protocol):
    """What the shared tests drive of one streamed response: a parser, or a wire's mapping."""

    @property
    def finished(self) -> bool: ...

    def item(
        self, event: SseEvent, index: int, push: Callable[[CourseModelChunk], None]
    ) -> None: ...

    def feed(self, event: SseEvent, index: int) -> FeedResult: ...

    def end(self, event_count: int) -> CourseModelResponse: ...

    def source_failed(self, error: BaseException, index: int) -> BaseException: ...


def sse_frame(name: str | None, data: object) -> bytes:
    """One SSE frame of ``data`` as JSON, named ``name`` unless it is ``None``, LF ends."""
    head = "" if name is None else f"event: {name}\n"
    return f"{head}data: {json.dumps(data)}\n\n".encode()


def sse_bytes(events: Sequence[SseEvent]) -> bytes:
    """``events`` framed as a vendor sends them: an ``event:`` line unless unnamed, LF ends."""
    frames = []
    for event in events:
        head = "" if event.event == "message" else f"event: {event.event}\n"
        frames.append(f"{head}data: {event.data}\n\n")
    return "".join(frames).encode()


async def read_into(
    stream: EventStream[CourseModelChunk, CourseModelResponse], chunks: list[CourseModelChunk]
) -> None:
    """Iterate ``stream`` to its end, appending every chunk to ``chunks`` as it arrives."""
    async for chunk in stream:
        chunks.append(chunk)


@dataclass(frozen=True)
class Wire:
    """One vendor API as the shared tests see it.

    ``path`` is the endpoint under the base URL, as the vendor's SDK joins it
    (what a model sends over a transport whose base URL has no path);
    ``base_url`` is the vendor's own, as its SDK and environment variable spell it;
    ``parser`` makes the wire's stream parser (or its mapping) for a request id; ``tool_call_id``
    is the course id of the call of `tool_body` (the vendor's, or the one the
    adapter makes up for a vendor that gives none); ``error_events`` gives,
    for an error message, every kind of in-stream error report the vendor
    sends, each one a whole 200 body;
    ``options`` is a configuration (besides ``tools``: `TOOLS`) setting every
    option the wire sends that can go together, ``options_body`` the
    top-level body entries the vendor documents for them, ``options_headers``
    the headers they add, and
    ``changed_option`` one option to change in it, with the line a cassette
    replay's mismatch shows for the change; ``framed`` lays events out as
    the wire's body (SSE by default) and ``media`` gives its content type;
    ``last_turn_choice`` is the ``tool_choice`` a loop's last turn sets to
    stop calling Tools (``"none"``, or ``"auto"`` where the API has no none).
    """

    name: str
    path: str
    key_variable: str
    key_header: str
    key_value: Callable[[str], str]
    build: Callable[..., AnyModel]
    text_events: Callable[..., list[SseEvent]]
    tool_events: Callable[[], list[SseEvent]]
    error_body: Callable[[str, str], bytes]
    base_url: str
    parser: Callable[[str], WirePlay]
    tool_call_id: str
    error_events: Callable[[str], list[bytes]]
    request_headers: Callable[[Any], Mapping[str, str]]
    options: Mapping[str, Any] = field(default_factory=dict)
    options_body: Mapping[str, Any] = field(default_factory=dict)
    options_headers: Mapping[str, str] = field(default_factory=dict)
    changed_option: tuple[str, Any, str] = ("", None, "")
    framed: Callable[[Sequence[SseEvent]], bytes] = field(default=lambda events: sse_bytes(events))
    media: Mapping[str, str] = field(default_factory=lambda: SSE)
    last_turn_choice: str = "none"

    def model(
        self,
        *,
        transport: HttpTransport | None = None,
        api_key: str | None = None,
        timeouts: Timeouts | None = None,
        base_url: str | None = None,
        tools: tuple[CourseToolSpec, ...] = TOOLS,
    ) -> AnyModel:
        """This vendor's model with ``tools`` (and ``timeouts``) configured, on ``base_url``.

        Without ``base_url``, the vendor's own.
        """
        config: dict[str, object] = {"tools": tools}
        if base_url is not None:
            config["base_url"] = base_url
        if timeouts is not None:
            config["timeouts"] = timeouts
        return self.build(config, api_key=api_key, transport=transport)

    def text_body(self, *deltas: str) -> bytes:
        """A whole text answer streamed in ``deltas``, as the wire's body bytes."""
        return self.framed(self.text_events(*deltas))

    def tool_body(self) -> bytes:
        """A whole answer that calls ``add`` with ``{"left": 20, "right": 22}``, as body bytes."""
        return self.framed(self.tool_events())

    def recorded(self, *bodies: bytes, **options: Any) -> RecordedTransport:
        """A recorded transport serving each body as a 200 event stream, in order."""
        return RecordedTransport(
            [RecordedResponse(200, self.media, body) for body in bodies], **options
        )

    def served(self, *deltas: str) -> RecordedResponse:
        """A text answer as a recorded 200 event stream, to serve from a loopback server."""
        return RecordedResponse(200, self.media, self.text_body(*deltas))
