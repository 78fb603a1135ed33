"""What a recording transport has recorded so far, and when it is written: `RecordingLog`.

One for both recording transports (`RecordingTransport` over a base URL,
`Httpx2RecordingTransport` under an httpx2 client): the calls served first
from an earlier cassette (VCR's ``new_episodes``), each new call as its
response arrives (`RecordingCall`), the cassette they make, redacted, and
the file rewritten whole when a call ends and at close.
"""

from __future__ import annotations

import dataclasses
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import final

import httpx2

from course_cassettes._cassette import Cassette, CassetteCall, Redaction, RequestMatching
from course_cassettes._cassette_file import write_cassette
from course_cassettes._httpx2_calls import raw_path, recorded_host
from course_cassettes._matching import request_difference
from course_cassettes._redaction import (
    checked_extra_headers,
    merged_redaction,
    redacted_request,
    redacted_response,
    remasked_request,
    request_secrets,
)
from course_http import RecordedRequest, ResponseEnd, header_text

__all__ = ["RecordingCall", "RecordingLog", "describes_encoded_body", "ended_by"]

_DECODED_AWAY = frozenset({"content-encoding", "content-length"})


def describes_encoded_body(name: str) -> bool:
    """Whether the response header ``name`` (any case) describes the body as the server
    encoded it: no more true once the body is kept decoded, so a cassette leaves it out."""
    return name.lower() in _DECODED_AWAY


@final
class RecordingCall:
    """One call being recorded: its redacted request, then its response as it arrives."""

    def __init__(self, request: RecordedRequest, secrets: tuple[str, ...]) -> None:
        self.request = request
        self.secrets = secrets
        self.status: int | None = None
        self.headers: dict[str, str] = {}
        self.parts: list[bytes] = []
        self.end: ResponseEnd | None = None

    def received(self, response: httpx2.Response) -> list[tuple[bytes, bytes]]:
        """Keep ``response``'s status and headers; the raw headers to pass on with its body.

        The body is passed on (and kept) decoded: a credential echoed in a
        compressed body could not be scrubbed, and the client decodes it
        anyway; so the headers that describe the encoded body go. Header
        values are kept one character per byte (``course_http.header_text``),
        so a replay sends the bytes that came, whatever their encoding.
        """
        self.status = response.status_code
        self.headers = {
            name: value
            for name, value in header_text(response.headers.raw).items()
            if not describes_encoded_body(name)
        }
        return [
            (name, value)
            for name, value in response.headers.raw
            if not describes_encoded_body(name.decode("latin-1"))
        ]


@final
class RecordingLog:
    """The calls of one recording, replayed and new, and the cassette file at ``path``.

    With ``replay_first``, its masks stay and ``redaction`` only adds to
    them (its calls are masked again the same way); its calls are served
    while each request matches the next one, and the file is written only
    once a new call was recorded. ``strict`` is written into the cassette
    (``False`` when either it or ``replay_first`` says so). Safe to share
    between threads. Raises ``TypeError`` or ``ValueError`` for bad
    arguments.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        redaction: Redaction | None,
        matching: RequestMatching | None,
        keep_headers: Sequence[str],
        replay_first: Cassette | None,
        strict: bool = True,
    ) -> None:
        if replay_first is not None and type(replay_first) is not Cassette:
            raise TypeError("replay_first must be a Cassette or None")
        if type(strict) is not bool:
            raise TypeError(f"strict must be a bool, not {type(strict).__name__}")
        self._strict = strict and (replay_first is None or replay_first.strict)
        matching = replay_first.matching if matching is None and replay_first else matching
        self._redaction = Redaction() if redaction is None else redaction
        self._matching = RequestMatching() if matching is None else matching
        if type(self._redaction) is not Redaction or type(self._matching) is not RequestMatching:
            raise TypeError("redaction and matching must be a Redaction and a RequestMatching")
        self._earlier: tuple[CassetteCall, ...] = ()
        if replay_first is not None:
            # A mask is only ever added: dropping one the cassette has would
            # write in clear what its earlier recording kept out.
            self._redaction = merged_redaction(replay_first.redaction, self._redaction)
            self._earlier = tuple(
                CassetteCall(remasked_request(call.request, self._redaction), call.response)
                for call in replay_first.calls
            )
        self._extra_headers = checked_extra_headers(keep_headers)
        self._path = Path(path)
        self._calls: list[RecordingCall | CassetteCall] = []
        self._replaying = replay_first is not None
        self._recorded_any = replay_first is None
        self._closed = False
        self._lock = threading.RLock()

    @property
    def path(self) -> Path:
        """Where the cassette is written."""
        return self._path

    @property
    def cassette(self) -> Cassette:
        """The cassette as recorded so far (a call still streaming holds what arrived)."""
        with self._lock:
            calls = [
                call if type(call) is CassetteCall else self._finished(call) for call in self._calls
            ]
        return Cassette(
            [call for call in calls if call is not None],
            matching=self._matching,
            redaction=self._redaction,
            strict=self._strict,
        )

    def redacted(self, request: httpx2.Request, body: object) -> RecordedRequest:
        """``request`` (its JSON ``body``) as the cassette holds it, masked and scrubbed.

        Raises ``ValueError`` when ``body`` is not a JSON object within the nesting limit.
        """
        return redacted_request(
            request.method,
            raw_path(request),
            header_text(request.headers.raw),
            body,
            self._redaction,
            _secrets(request),
            extra_headers=self._extra_headers,
        )

    def replayed(self, sent: Callable[[], RecordedRequest]) -> tuple[int, CassetteCall] | None:
        """The earlier call that answers the request ``sent`` builds, and its index; else ``None``.

        ``None`` says: record it. From the first request that does not
        match the next earlier call, every call is recorded.
        """
        with self._lock:
            index = len(self._calls)
            if not self._replaying or index >= len(self._earlier):
                self._replaying = False
                return None
            earlier = self._earlier[index]
            if request_difference(earlier.request, sent(), self._matching) is not None:
                self._replaying = False
                return None
            self._calls.append(earlier)
        return index, earlier

    def begin(self, request: httpx2.Request, body: object, *, wire: str | None) -> RecordingCall:
        """A new call of ``request`` (its JSON ``body``), recorded after the ones before it.

        The call keeps the host ``request`` goes to and ``wire``, the wire that makes it.
        """
        sent = dataclasses.replace(
            self.redacted(request, body), host=recorded_host(request), wire=wire
        )
        call = RecordingCall(sent, _secrets(request))
        with self._lock:
            self._calls.append(call)
            self._recorded_any = True
        return call

    def index(self, call: RecordingCall) -> int:
        """Where ``call`` stands in the cassette, now."""
        with self._lock:
            return self._calls.index(call)

    def played(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The indexes of the calls served from the earlier cassette, and of those recorded."""
        with self._lock:
            calls = list(enumerate(self._calls))
        replayed = [index for index, call in calls if type(call) is CassetteCall]
        recorded = [
            index
            for index, call in calls
            if type(call) is RecordingCall and call.status is not None
        ]
        return tuple(replayed), tuple(recorded)

    def abandon(self, call: RecordingCall) -> None:
        """Forget ``call``: it got no response at all (no connection), not a vendor's answer."""
        with self._lock:
            self._calls.remove(call)

    def finish(self, call: RecordingCall, end: ResponseEnd) -> None:
        """End ``call`` as ``end`` says and save; ending it again does nothing.

        Raises ``OSError`` when the file cannot be written.
        """
        with self._lock:
            if call.end is not None:
                return
            call.end = end
            self._save()

    def close(self) -> None:
        """Mark every call still streaming as stalled and save; again, do nothing.

        Raises ``OSError`` when the file cannot be written.
        """
        with self._lock:
            if self._closed:
                return
            self._closed = True
            for call in self._calls:
                if type(call) is RecordingCall and call.end is None and call.status is not None:
                    call.end = "stalled"
            self._save()

    def _finished(self, call: RecordingCall) -> CassetteCall | None:
        if call.status is None:
            return None
        response = redacted_response(
            call.status,
            call.headers,
            b"".join(call.parts),
            call.end or "stalled",
            call.secrets,
            extra_headers=self._extra_headers,
        )
        return CassetteCall(call.request, response)

    def _save(self) -> None:
        if self._recorded_any:
            write_cassette(self._path, self.cassette)


def _secrets(request: httpx2.Request) -> tuple[str, ...]:
    return request_secrets(dict(request.headers), raw_path(request))


def ended_by(error: BaseException) -> ResponseEnd:
    """How a recorded body ended when reading it raised ``error``.

    A body that could not be decoded, or whose connection failed, was
    ``interrupted`` (what decoded is kept; the rest was not a body). A read
    timeout is a stall: the connection stayed open, silent. Anything else
    (the reader closed it, a cancellation) left it ``stalled`` too: nothing
    more came.
    """
    if isinstance(error, httpx2.DecodingError):
        return "interrupted"
    if isinstance(error, httpx2.TransportError) and not isinstance(error, httpx2.ReadTimeout):
        return "interrupted"
    return "stalled"
