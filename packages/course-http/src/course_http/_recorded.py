"""Recorded responses served in-process, with no socket: `RecordedTransport`."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, final, get_args

import httpx2
from frozendict import frozendict

from course_http._playback import Playback, PlaybackExchange, cut_body, playback_of
from course_http._secrets import masked_path, without_secrets
from course_http._timeouts import REPLAY_TIMEOUTS, Timeouts
from course_http._transport import HttpTransport
from course_protocol import JsonObject, freeze_json_object
from course_protocol.slots import slot_setter

__all__ = [
    "Chunking",
    "RecordedRequest",
    "RecordedResponse",
    "RecordedTransport",
    "RecordingExhaustedError",
    "RequestMismatchError",
    "ResponseEnd",
    "cut_body",
    "sent_request",
]

ResponseEnd = Literal["complete", "interrupted", "stalled"]
"""How a response's body ends: normally; with the connection dropped right after
its bytes; or never (no more bytes come, the connection stays open: a replay
fails it at once as the client's read timeout)."""

Chunking = Literal["whole", "bytes", "random"]
"""How a body is cut into the chunks the client receives: in one piece, one
byte per chunk, or at seeded random cut points (chunks of 1 to 64 bytes)."""


@final
@dataclass(frozen=True, slots=True, init=False)
class RecordedResponse:
    """What a vendor answered, byte for byte: ``status``, ``headers``, ``body``, its ``end``.

    ``headers`` have lower-case names; ``content-encoding`` applies to
    ``body`` as on the wire (a gzip body is stored compressed and decoded
    by the client). ``end`` says what comes after ``body`` (`ResponseEnd`):
    ``"interrupted"`` is a connection dropped mid-body, ``"stalled"`` a
    server that stops sending (cut short by the read timeout; a replay
    raises that timeout at once). Raises
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
        _set_status(self, status)
        _set_headers(self, _checked_headers(headers or {}))
        _set_body(self, bytes(body))
        _set_end(self, end)


_set_status = slot_setter(RecordedResponse, "status")
_set_headers = slot_setter(RecordedResponse, "headers")
_set_body = slot_setter(RecordedResponse, "body")
_set_end = slot_setter(RecordedResponse, "end")


@final
@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """A request as a transport sent it: ``method``, ``path`` (query included), the JSON
    ``body`` parsed back from the bytes sent, and the ``headers`` sent (lower-case
    names, the HTTP client's own included) without the secret ones. The repr
    masks a key query parameter of ``path`` (`MASKED_QUERY_KEYS`).

    A recording also says where the call went: ``host``, the host it was
    sent to (``api.mistral.ai``, with ``:port`` when the URL gave one, a
    loopback host without it; never a user, a password or a query), and
    ``wire``, the wire that made it (``mistral``: the model that sent it,
    or the wire its recorder was told),
    each ``None`` when unknown. Neither is compared when a replay matches
    requests: a cassette replays under any base URL."""

    method: str
    path: str
    body: JsonObject
    headers: frozendict[str, str]
    host: str | None = None
    wire: str | None = None

    def __repr__(self) -> str:
        where = "".join(
            f", {name}={value!r}"
            for name, value in (("host", self.host), ("wire", self.wire))
            if value is not None
        )
        return (
            f"RecordedRequest(method={self.method!r}, path={masked_path(self.path)!r}, "
            f"body={self.body!r}, headers={self.headers!r}{where})"
        )


class RecordingExhaustedError(Exception):
    """A recorded transport was called once more than it holds responses (``call`` is 1-based).

    ``hint``, when given, follows the message: how to record the calls past the last one.
    """

    def __init__(self, call: int, *, hint: str = "") -> None:
        message = f"call {call} asked for a response; the recording holds {call - 1}"
        super().__init__(f"{message}. {hint}" if hint else message)
        self.call = call


class RequestMismatchError(Exception):
    """A replayed call (``call``, 1-based) differs from the recorded ``calls[index]``."""

    def __init__(self, call: int, index: int, difference: str) -> None:
        super().__init__(f"call {call} differs from the recorded calls[{index}]: {difference}")
        self.call = call
        self.index = index
        self.difference = difference


def sent_request(
    request: httpx2.Request, content: bytes, *, body: JsonObject | None = None
) -> RecordedRequest:
    """``request`` as a replaying transport lists it: the JSON body parsed back, no secrets.

    ``body``, when given, is ``content`` already parsed and frozen (a
    transport that read it once does not pay for a second parse).
    """
    return RecordedRequest(
        method=request.method,
        path=request.url.raw_path.decode("ascii"),
        body=freeze_json_object(json.loads(content)).unwrap() if body is None else body,
        headers=without_secrets(dict(request.headers.items())),
    )


@final
class RecordedTransport(HttpTransport):
    """Serves recorded responses in order, in-process: no socket is ever opened.

    Everything above the bytes is the live path's: the same httpx2 client
    (so ``Content-Encoding`` is decoded the same way) and the same
    `stream_events`. ``chunking`` cuts each body as the client receives it
    (`Chunking`; ``seed`` fixes the random cuts), and the transport yields
    to the event loop between chunks, as a socket would. A ``"stalled"``
    response fails with ``HTTP_TIMEOUT`` at once, as the read timeout would
    once it passed (nothing waits for it, whatever ``timeouts`` says); an
    ``"interrupted"`` one with ``HTTP_STREAM_INTERRUPTED``. A call beyond
    the last response fails with ``HTTP_RECORDING_EXHAUSTED`` (and is still
    listed in `requests`).

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
        super().__init__(base_url, timeouts=timeouts or REPLAY_TIMEOUTS, trust_env=False)

    @property
    def requests(self) -> tuple[RecordedRequest, ...]:
        """Every request sent so far, in order, secret headers left out."""
        return tuple(self._requests)

    @property
    def pending_response_count(self) -> int:
        """How many recorded responses no call has taken yet."""
        return max(0, len(self._responses) - len(self._requests))

    @property
    def replays(self) -> bool:
        """Always ``True``: the responses are served in-process and nothing is sent anywhere."""
        return True

    def _exchange(self) -> httpx2.AsyncBaseTransport:
        return PlaybackExchange(self._answer)

    def _answer(self, request: httpx2.Request, content: bytes) -> Playback:
        self._requests.append(sent_request(request, content))
        call = len(self._requests)
        if call > len(self._responses):
            raise RecordingExhaustedError(call)
        return playback_of(self._responses[call - 1], self._chunking, self._random)

    def __repr__(self) -> str:
        return (
            f"RecordedTransport(responses={len(self._responses)}, played={len(self._requests)}, "
            f"chunking={self._chunking!r}, base_url={self.base_url!r})"
        )


def _checked_headers(headers: object) -> frozendict[str, str]:
    if not isinstance(headers, Mapping):
        raise TypeError(f"headers must be a mapping, not {type(headers).__name__}")
    checked: dict[str, str] = {}
    for name, value in headers.items():
        if type(name) is not str or type(value) is not str:
            raise TypeError("header names and values must be str")
        checked[name.lower()] = value
    return frozendict(checked)
