"""Recorded responses served in-process, with no socket: `RecordedTransport`."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, final, get_args

import httpx2
from frozendict import frozendict

from course_http._secrets import without_secrets
from course_http._timeouts import Timeouts
from course_http._transport import HttpTransport
from course_protocol import JsonObject, freeze_json_object

__all__ = [
    "Chunking",
    "RecordedRequest",
    "RecordedResponse",
    "RecordedTransport",
    "RecordingExhaustedError",
    "ResponseEnd",
    "cut_body",
]

ResponseEnd = Literal["complete", "interrupted", "stalled"]
"""How a response's body ends: normally; with the connection dropped right after
its bytes; or never (no more bytes come, the connection stays open)."""

Chunking = Literal["whole", "bytes", "random"]
"""How a body is cut into the chunks the client receives: in one piece, one
byte per chunk, or at seeded random cut points (chunks of 1 to 64 bytes)."""

_LONGEST_RANDOM_CHUNK = 64


@final
@dataclass(frozen=True, slots=True, init=False)
class RecordedResponse:
    """What a vendor answered, byte for byte: ``status``, ``headers``, ``body``, its ``end``.

    ``headers`` have lower-case names; ``content-encoding`` applies to
    ``body`` as on the wire (a gzip body is stored compressed and decoded
    by the client). ``end`` says what comes after ``body`` (`ResponseEnd`):
    ``"interrupted"`` is a connection dropped mid-body, ``"stalled"`` a
    server that stops sending (cut short by the read timeout). Raises
    ``TypeError`` or ``ValueError`` for a field of the wrong type or value.
    """

    status: int
    headers: frozendict[str, str]
    body: bytes
    end: ResponseEnd

    def __init__(
        self,
        status: int,
        headers: Mapping[str, str] | None = None,
        body: bytes | bytearray = b"",
        end: ResponseEnd = "complete",
    ) -> None:
        if type(status) is not int or not 100 <= status <= 999:
            raise ValueError("status must be an int from 100 to 999")
        if not isinstance(body, (bytes, bytearray)):
            raise TypeError(f"body must be bytes, not {type(body).__name__}")
        if end not in get_args(ResponseEnd):
            raise ValueError(f"end must be one of {get_args(ResponseEnd)}")
        object.__setattr__(self, "status", status)
        object.__setattr__(self, "headers", _checked_headers(headers or {}))
        object.__setattr__(self, "body", bytes(body))
        object.__setattr__(self, "end", end)


@final
@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """A request as a transport sent it: ``method``, ``path`` (query included), the JSON
    ``body`` parsed back from the bytes sent, and the ``headers`` sent (lower-case
    names, the HTTP client's own included) without the secret ones."""

    method: str
    path: str
    body: JsonObject
    headers: frozendict[str, str]


class RecordingExhaustedError(Exception):
    """A recorded transport was called once more than it holds responses (``call`` is 1-based)."""

    def __init__(self, call: int) -> None:
        super().__init__(f"call {call} asked for a response; the recording holds {call - 1}")
        self.call = call


def cut_body(body: bytes, chunking: Chunking, rng: random.Random) -> list[bytes]:
    """``body`` cut as ``chunking`` says; ``rng`` draws the random cut points."""
    if not body:
        return []
    if chunking == "whole":
        return [body]
    if chunking == "bytes":
        return [body[at : at + 1] for at in range(len(body))]
    chunks: list[bytes] = []
    at = 0
    while at < len(body):
        size = rng.randint(1, _LONGEST_RANDOM_CHUNK)
        chunks.append(body[at : at + size])
        at += size
    return chunks


@final
class RecordedTransport(HttpTransport):
    """Serves recorded responses in order, in-process: no socket is ever opened.

    Everything above the bytes is the live path's: the same httpx2 client
    (so ``Content-Encoding`` is decoded the same way) and the same
    `stream_events`. ``chunking`` cuts each body as the client receives it
    (`Chunking`; ``seed`` fixes the random cuts), and the transport yields
    to the event loop between chunks, as a socket would. A ``"stalled"``
    response fails with ``HTTP_TIMEOUT`` after ``timeouts.read`` seconds
    (never, when it is ``None``); an ``"interrupted"`` one with
    ``HTTP_STREAM_INTERRUPTED``. A call beyond the last response fails with
    ``HTTP_RECORDING_EXHAUSTED`` (and is still listed in `requests`).

    Raises ``TypeError`` or ``ValueError`` when ``responses`` is not a list or
    tuple of `RecordedResponse`, or ``chunking`` or ``seed`` is invalid.
    """

    def __init__(
        self,
        responses: Sequence[RecordedResponse],
        *,
        base_url: str = "http://recorded.invalid",
        chunking: Chunking = "whole",
        seed: int = 0,
        timeouts: Timeouts | None = None,
    ) -> None:
        if not isinstance(responses, (list, tuple)):
            raise TypeError(f"responses must be a list or tuple, not {type(responses).__name__}")
        for index, response in enumerate(responses):
            if type(response) is not RecordedResponse:
                raise TypeError(f"responses[{index}] must be a RecordedResponse")
        if chunking not in get_args(Chunking):
            raise ValueError(f"chunking must be one of {get_args(Chunking)}")
        if type(seed) is not int:
            raise TypeError("seed must be an int")
        self._responses = tuple(responses)
        self._chunking: Chunking = chunking
        self._random = random.Random(seed)
        self._requests: list[RecordedRequest] = []
        super().__init__(base_url, timeouts=timeouts or Timeouts(), trust_env=False)

    @property
    def requests(self) -> tuple[RecordedRequest, ...]:
        """Every request sent so far, in order, secret headers left out."""
        return tuple(self._requests)

    @property
    def pending_response_count(self) -> int:
        """How many recorded responses no call has taken yet."""
        return max(0, len(self._responses) - len(self._requests))

    def _exchange(self) -> httpx2.AsyncBaseTransport:
        return _RecordedExchange(self)

    def _answer(
        self, request: httpx2.Request, content: bytes
    ) -> tuple[RecordedResponse, list[bytes]]:
        self._requests.append(
            RecordedRequest(
                method=request.method,
                path=request.url.raw_path.decode("ascii"),
                body=freeze_json_object(json.loads(content)).unwrap(),
                headers=without_secrets(dict(request.headers.items())),
            )
        )
        call = len(self._requests)
        if call > len(self._responses):
            raise RecordingExhaustedError(call)
        response = self._responses[call - 1]
        return response, cut_body(response.body, self._chunking, self._random)

    def __repr__(self) -> str:
        return (
            f"RecordedTransport(responses={len(self._responses)}, played={len(self._requests)}, "
            f"chunking={self._chunking!r}, base_url={self.base_url!r})"
        )


class _RecordedExchange(httpx2.AsyncBaseTransport):
    """The httpx2 transport under a `RecordedTransport`'s client: answers from the recording."""

    def __init__(self, owner: RecordedTransport) -> None:
        self._owner = owner

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        content = await request.aread()
        response, chunks = self._owner._answer(request, content)
        timeouts = request.extensions.get("timeout", {})
        return httpx2.Response(
            status_code=response.status,
            headers=list(response.headers.items()),
            stream=_RecordedBody(chunks, response.end, timeouts.get("read")),
        )


class _RecordedBody(httpx2.AsyncByteStream):
    def __init__(self, chunks: list[bytes], end: ResponseEnd, read_timeout: float | None) -> None:
        self._chunks = chunks
        self._end = end
        self._read_timeout = read_timeout

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for index, chunk in enumerate(self._chunks):
            if index:
                await asyncio.sleep(0)
            yield chunk
        if self._end == "interrupted":
            raise httpx2.RemoteProtocolError(
                "the recorded connection closed before the body was complete"
            )
        if self._end == "stalled":
            if self._read_timeout is None:
                await asyncio.Event().wait()  # forever: only cancellation ends it
            else:
                await asyncio.sleep(self._read_timeout)
            raise httpx2.ReadTimeout("the recorded response stalled past the read timeout")

    async def aclose(self) -> None:
        # Nothing to release: the chunks are in memory.
        return


def _checked_headers(headers: object) -> frozendict[str, str]:
    if not isinstance(headers, Mapping):
        raise TypeError(f"headers must be a mapping, not {type(headers).__name__}")
    checked: dict[str, str] = {}
    for name, value in headers.items():
        if type(name) is not str or type(value) is not str:
            raise TypeError("header names and values must be str")
        checked[name.lower()] = value
    return frozendict(checked)
