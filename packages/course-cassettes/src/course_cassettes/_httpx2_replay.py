"""Replaying a cassette to any httpx2 client, sync or async: `Httpx2CassetteTransport`."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Literal, final, get_args

import httpx2
from frozendict import frozendict
from returns.result import Failure

from course_cassettes._cassette import Cassette, RequestMatching
from course_cassettes._cassette_json import CASSETTE_VENDOR
from course_cassettes._faults import ReplayFault
from course_cassettes._httpx2_calls import json_body, raw_path
from course_cassettes._judging import StreamJudges
from course_cassettes._player import CassettePlayer
from course_cassettes._redaction import redacted_request, request_secrets
from course_cassettes._refusal import refusal
from course_http import (
    Chunking,
    Playback,
    PlaybackExchange,
    RecordedRequest,
    RecordingExhaustedError,
    RequestMismatchError,
    VendorError,
    VendorErrorCode,
    masked_path,
    scrub,
    sent_request,
)

__all__ = ["Httpx2CassetteTransport", "Refusal"]

Refusal = Literal["answer", "raise"]
"""How a replay refuses a request it will not serve: with a typed 400 answer no SDK retries,
or by raising (what ``course_http.stream_events`` turns into its codes)."""


@final
class Httpx2CassetteTransport(PlaybackExchange):
    """Replays a `Cassette` to an httpx2 client, sync or async: the official SDKs' transport.

    ``openai.OpenAI(http_client=httpx2.Client(transport=t))``,
    ``anthropic.AsyncAnthropic(http_client=httpx2.AsyncClient(transport=t))``:
    each request (streamed or not, a GET too) is masked as the cassette's
    ``redaction`` says and compared with the next recorded one, as
    `CassetteTransport` compares (``matching`` overrides the cassette's
    rule); the recorded response is played byte for byte by
    ``course_http``'s one played body (``chunking`` and ``seed`` cut it, at
    once by default), with ``faults`` applied as there. A recorded stall
    fails the read at once with the client's ``httpx2.ReadTimeout``, a
    dropped connection with ``httpx2.RemoteProtocolError``, whatever the
    client's timeout.

    A request that differs, one whose body a cassette cannot hold (not a
    strict JSON object: a file upload, a ``NaN``, ``Infinity`` or ``1e400``,
    a key given twice, nesting past ``course_protocol.JSON_MAX_DEPTH``),
    or one past the last recorded call is refused (``refusal="answer"``, the
    default) with a 400 whose JSON body names the code
    (``HTTP_REQUEST_MISMATCH`` for the first two, ``HTTP_RECORDING_EXHAUSTED``)
    and the problem, marked ``x-should-retry: false`` so that no SDK
    retries it: the SDK raises its own error for a 400
    (``BadRequestError``), and the problem is kept in `problems` as a
    `VendorError`. With ``refusal="raise"`` the call raises instead
    (``course_http.RequestMismatchError``, ``RecordingExhaustedError``, or
    the `VendorError` of a body no cassette holds), as `CassetteTransport`
    needs. With ``check`` (`StreamJudges`), each recorded stream played
    with no fault is judged by its wire's grammar as its chunks are
    played, unless the cassette says ``strict: false``: an event the
    grammar refuses fails the read there (a `VendorError` naming the call,
    ``calls[0].response.body: ...``, also kept in `problems`), before the
    client parses it; a complete body is judged to its end, and a body the
    client stops reading is judged whole anyway. Raises ``TypeError`` or
    ``ValueError`` for bad arguments, as `CassetteTransport` does.
    """

    def __init__(
        self,
        cassette: Cassette,
        *,
        matching: RequestMatching | None = None,
        faults: Mapping[int, ReplayFault] | None = None,
        chunking: Chunking = "whole",
        seed: int = 0,
        check: StreamJudges | None = None,
        when_exhausted: str = "",
        refusal: Refusal = "answer",
    ) -> None:
        if refusal not in get_args(Refusal):
            raise ValueError(f"refusal must be one of {get_args(Refusal)}")
        self._player = CassettePlayer(
            cassette,
            matching=matching,
            faults=faults,
            chunking=chunking,
            seed=seed,
            when_exhausted=when_exhausted,
            check=check,
        )
        self._refusal = refusal
        self._sent: list[RecordedRequest] = []
        # A sync client may be shared by threads: each call takes its place in order.
        self._lock = threading.Lock()
        super().__init__(self._answer)

    @property
    def cassette(self) -> Cassette:
        """The cassette being replayed."""
        return self._player.cassette

    @property
    def requests(self) -> tuple[RecordedRequest, ...]:
        """Every request received so far, in order, masked as a cassette would hold it."""
        return self._player.requests

    @property
    def sent_requests(self) -> tuple[RecordedRequest, ...]:
        """Every request received whose body a cassette holds, in order, as it was sent.

        Its JSON body unmasked (``{}`` when it had none), its headers the
        client's, the secret ones left out (``course_http.sent_request``).
        """
        with self._lock:
            return tuple(self._sent)

    @property
    def problems(self) -> tuple[VendorError, ...]:
        """Every refusal and strict-check failure so far, in order, as `VendorError` s.

        An SDK may turn a refusal into an error that the code under test
        catches; this is where the test still finds it.
        """
        return self._player.problems

    @property
    def replayed(self) -> tuple[int, ...]:
        """The index of each recorded call served so far, in order."""
        return self._player.served

    @property
    def judged(self) -> tuple[int, ...]:
        """The index of each recorded call whose stream its wire's grammar judged, in order."""
        return self._player.judged

    @property
    def unchecked(self) -> tuple[tuple[int, str], ...]:
        """The index and path of each served call whose 2xx event stream no installed wire judged.

        Empty without ``check``; with ``strict: false``, every 2xx event stream served.
        """
        return self._player.unchecked

    @property
    def pending_call_count(self) -> int:
        """How many recorded calls no request has taken yet."""
        return self._player.pending_call_count

    def assert_consumed(self) -> None:
        """Raise ``AssertionError`` when recorded calls were never played (naming the first)."""
        self._player.assert_consumed()

    def _answer(self, request: httpx2.Request, content: bytes) -> Playback:
        path = raw_path(request)
        secrets = request_secrets(dict(request.headers.items()), path)
        body = json_body(content)
        player = self._player
        with self._lock:
            if isinstance(body, Failure):
                shown = masked_path(scrub(path, secrets))
                index = player.count(
                    RecordedRequest(request.method, shown, frozendict(), frozendict())
                )
                problem = f"call {index + 1}: {scrub(body.failure(), secrets)}"
                return self._refused(VendorErrorCode.HTTP_REQUEST_MISMATCH, problem, None)
            held = body.unwrap()
            self._sent.append(sent_request(request, content, body=held))
            sent = redacted_request(
                request.method, path, {}, held, player.cassette.redaction, secrets
            )
            try:
                _, played = player.play(sent, sent)
            except RecordingExhaustedError as exhausted:
                code = VendorErrorCode.HTTP_RECORDING_EXHAUSTED
                return self._refused(code, str(exhausted), exhausted)
            except RequestMismatchError as mismatch:
                code = VendorErrorCode.HTTP_REQUEST_MISMATCH
                return self._refused(code, str(mismatch), mismatch)
        return played

    def _refused(self, code: VendorErrorCode, problem: str, raised: Exception | None) -> Playback:
        error = VendorError(code, problem, vendor=CASSETTE_VENDOR)
        self._player.refused(error)
        if self._refusal == "raise":
            raise error if raised is None else raised
        return self._player.whole(refusal(400, code, problem))

    def close(self) -> None:
        """Nothing to release: the cassette is in memory."""

    async def aclose(self) -> None:
        """Nothing to release: the cassette is in memory."""

    def __repr__(self) -> str:
        return f"Httpx2CassetteTransport({self._player.summary()})"
