"""`ReadCut`: a sync read waiting on a silent socket ends at the deadline, and only then."""

from __future__ import annotations

import asyncio
import threading

import httpx2

from course_http import ReadCut, RecordedResponse
from course_http.loopback import LoopbackResponse, LoopbackServer, in_order
from tests.streams import GUARD_SECONDS

SSE = {"content-type": "text/event-stream"}


def _timer_threads() -> list[str]:
    return [thread.name for thread in threading.enumerate() if thread.name == "course-read-cut"]


def test_a_response_without_a_socket_is_never_cut_and_starts_no_thread() -> None:
    transport = httpx2.MockTransport(lambda request: httpx2.Response(200, content=b"data: 1\n\n"))
    with httpx2.Client(transport=transport) as client:
        response = client.get("http://api.invalid/v1/models")
    cut = ReadCut(response, 0.0)
    assert _timer_threads() == []
    cut.disarm()
    assert cut.fired is False


def _read_until_cut(url: str, seconds: float, outcome: list[object], done: threading.Event) -> None:
    with httpx2.Client(timeout=600.0) as client, client.stream("POST", url, json={}) as response:
        chunks = response.iter_raw()
        outcome.append(next(chunks))
        cut = ReadCut(response, seconds)
        try:
            next(chunks)
        except httpx2.HTTPError as error:
            outcome.append(type(error))
        finally:
            cut.disarm()
            outcome.append(cut.fired)
    done.set()


async def test_a_read_waiting_on_a_silent_socket_fails_at_the_deadline() -> None:
    silent = LoopbackResponse(RecordedResponse(200, SSE, b"data: 1\n\n", "stalled"))
    outcome: list[object] = []
    done = threading.Event()
    async with asyncio.timeout(GUARD_SECONDS), LoopbackServer(in_order([silent])) as server:
        reader = threading.Thread(
            target=_read_until_cut, args=(f"{server.base_url}/v1/messages", 0.05, outcome, done)
        )
        reader.start()
        try:
            assert await asyncio.to_thread(done.wait, GUARD_SECONDS), "the cut never came"
        finally:
            await server.stop()
            await asyncio.to_thread(reader.join, GUARD_SECONDS)

    assert outcome[0] == b"data: 1\n\n"
    assert outcome[1] in (httpx2.RemoteProtocolError, httpx2.ReadError)
    assert outcome[2] is True
    assert _timer_threads() == []


def _two_calls_disarmed_between(url: str, outcome: list[object]) -> None:
    with httpx2.Client(timeout=GUARD_SECONDS) as client:
        with client.stream("POST", url, json={}) as response:
            cut = ReadCut(response, GUARD_SECONDS)
            outcome.append(response.read())
            cut.disarm()
            outcome.append(cut.fired)
        outcome.append(client.post(url, json={}).content)


async def test_a_cut_disarmed_in_time_never_fires_and_leaves_the_connection_usable() -> None:
    answers = [RecordedResponse(200, SSE, b"data: %d\n\n" % index) for index in (1, 2)]
    outcome: list[object] = []
    async with asyncio.timeout(GUARD_SECONDS), LoopbackServer(in_order(answers)) as server:
        await asyncio.to_thread(_two_calls_disarmed_between, f"{server.base_url}/v1", outcome)

    assert outcome == [b"data: 1\n\n", False, b"data: 2\n\n"]
    assert _timer_threads() == []
