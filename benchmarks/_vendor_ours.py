"""The floor, the two SSE framings and our adapters, over one `VendorBody` each.

Same contract as the peers (``benchmarks.vendor_peers``): a set-up callable
per row, whose timed pass returns the body's delta count once it has checked
that it saw every delta and ended with the streamed text or Tool arguments.
"""

from __future__ import annotations

import json
from contextlib import aclosing
from typing import Any

import httpx2

from benchmarks._inprocess import in_process_client
from benchmarks._timing import AsyncRun, Prepare
from benchmarks._vendor_bodies import Api, VendorBody
from course_http import (
    HttpRequest,
    HttpTransport,
    RecordedResponse,
    RecordedTransport,
    stream_events,
)
from course_protocol import (
    CourseModelRequest,
    CourseModelResponse,
    CourseReasoningBlock,
    CourseReasoningDeltaChunk,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseUserMessage,
    thaw_json,
)
from course_stream import AbortController
from course_vendor import VendorModel, load_vendor

__all__ = [
    "bench_request",
    "our_model",
    "prepare_decoder_framing",
    "prepare_floor",
    "prepare_httpx_framing",
    "prepare_ours",
    "response_result",
]

_REQUEST_ID = "request-vendor-bench"


def bench_request() -> CourseModelRequest:
    """The one course request every pass sends."""
    return CourseModelRequest(
        id=_REQUEST_ID, messages=(CourseUserMessage(id="message-user", content="bench"),)
    )


def _deltas_in(body: VendorBody, events: int) -> int:
    """``body.deltas`` once ``events`` is every event of the body; raises ``AssertionError``."""
    if events != body.events:
        raise AssertionError(f"{body.api} {body.shape}: framed {events} of {body.events} events")
    return body.deltas


def prepare_floor(body: VendorBody) -> Prepare:
    """Split the body into events and ``json.loads`` each ``data:``: the least any reader does."""

    def prepare() -> AsyncRun:
        async def run() -> int:
            events = 0
            for frame in body.body.decode("utf-8").split("\n\n"):
                for line in frame.split("\n"):
                    if line.startswith("data: "):
                        data = line[6:]
                        if data != "[DONE]":
                            json.loads(data)
                        events += 1
            return _deltas_in(body, events)

        return run

    return prepare


def prepare_httpx_framing(body: VendorBody) -> Prepare:
    """``httpx2.EventSource`` over the in-memory response: the HTTP client's own SSE framing."""

    def prepare() -> AsyncRun:
        client = in_process_client(body.body)

        async def run() -> int:
            events = 0
            async with client.stream("POST", "/v1/stream", content=b"{}") as response:
                async for _event in httpx2.EventSource(response):
                    events += 1
            await client.aclose()
            return _deltas_in(body, events)

        return run

    return prepare


def prepare_decoder_framing(body: VendorBody) -> Prepare:
    """``course_http.stream_events`` over a `RecordedTransport` of the body: our SSE framing.

    The same path our adapters read through (the client, the body's chunks,
    `SseDecoder`), without a vendor parser.
    """
    recorded = RecordedResponse(200, {"content-type": "text/event-stream"}, body.body)
    outgoing = HttpRequest("/v1/stream", {"stream": True}, {})

    def prepare() -> AsyncRun:
        transport = RecordedTransport([recorded])

        async def run() -> int:
            events = 0
            source = stream_events(
                transport, outgoing, vendor=body.api, describe_error=_no_error_body
            )
            async with aclosing(source):
                async for _event in source:
                    events += 1
            await transport.aclose()
            return _deltas_in(body, events)

        return run

    return prepare


def _no_error_body(_body: bytes) -> None:
    return None


def our_model(api: Api, transport: HttpTransport) -> VendorModel[Any]:
    """Our model for the registered wire ``api`` over ``transport``, as the registry builds it."""
    return load_vendor(api).replay_model(transport)


def response_result(response: CourseModelResponse, body: VendorBody) -> object:
    """The final message's text (``"text"``), reasoning (``"reasoning"``) or Tool arguments
    (``"tool"``) as plain values."""
    content = response.message.content
    if body.shape == "text":
        return "".join(block.text for block in content if type(block) is CourseTextBlock)
    if body.shape == "reasoning":
        return "".join(block.text for block in content if type(block) is CourseReasoningBlock)
    calls = [block for block in content if type(block) is CourseToolCall]
    return thaw_json(calls[0].arguments) if len(calls) == 1 else None


def prepare_ours(body: VendorBody) -> Prepare:
    """Our model over a `RecordedTransport` of the body: every chunk iterated, result awaited."""
    request = bench_request()
    recorded = RecordedResponse(200, {"content-type": "text/event-stream"}, body.body)

    expected = body.expected
    counted = CourseReasoningDeltaChunk if body.shape == "reasoning" else CourseTextDeltaChunk

    def prepare() -> AsyncRun:
        transport = RecordedTransport([recorded])
        model = our_model(body.api, transport)

        async def run() -> int:
            stream = model.stream(request, AbortController().signal)
            deltas = 0
            async for chunk in stream:
                if type(chunk) is counted:
                    deltas += 1
            response = await stream.result
            await transport.aclose()
            seen = body.deltas if body.shape == "tool" else deltas
            if seen != body.deltas or response_result(response, body) != expected:
                raise AssertionError(f"{body.api} {body.shape}: saw {seen} of {body.deltas}")
            return seen

        return run

    return prepare
