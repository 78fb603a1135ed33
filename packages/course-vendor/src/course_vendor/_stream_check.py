"""A recorded response played through its vendor's strict parser: the cassettes' strict check.

What ``course check`` does to each call of a cassette, and what the httpx2
cassette transports do to each call they record or replay (given this as
their ``check``): a 2xx ``text/event-stream`` response to a path a vendor
wire claims (`vendor_for_path`) is served to that wire's own model, the
code path of a live call with no socket and no key, so a problem reported
is exactly what a replay of the same bytes fails with.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Final

from course_http import RecordedResponse, RecordedTransport, VendorError, VendorErrorCode
from course_protocol import CourseModelRequest, CourseUserMessage
from course_stream import AbortController
from course_vendor._registry import VendorPlugin, vendor_for_path

__all__ = ["check_recorded_stream", "recorded_stream_problem", "streamed_wire"]

_EVENT_STREAM: Final = "text/event-stream"
# A vendor model refuses an empty transcript; a recorded body answers any question.
_QUESTION: Final = CourseUserMessage("check-user-1", "(the recorded answer is checked)")
# A call recorded as cut short fails the way it was recorded; only a failure
# before the cut (the parser refusing a recorded event) is a problem.
_RECORDED_ENDS: Final = frozenset(
    {VendorErrorCode.HTTP_STREAM_INTERRUPTED, VendorErrorCode.HTTP_TIMEOUT}
)


def streamed_wire(path: str, response: RecordedResponse) -> VendorPlugin | None:
    """The wire whose strict parser reads ``response`` to a request to ``path``, or ``None``.

    ``None`` unless the response is a 2xx ``text/event-stream`` and a wire
    claims the path (its query left out): an error status, a JSON body, a
    path no vendor streams from is what was recorded, not a stream to parse.
    """
    if not 200 <= response.status < 300:
        return None
    media_type = response.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media_type != _EVENT_STREAM:
        return None
    return vendor_for_path(path.partition("?")[0])


async def check_recorded_stream(path: str, response: RecordedResponse) -> VendorError | None:
    """The `VendorError` the strict parser of ``path``'s wire fails ``response`` with, or ``None``.

    ``None`` too when no wire reads it (`streamed_wire`), and for a response
    recorded cut short (``end`` not ``"complete"``) that fails only where
    it was cut. The error's message says the wire: ``replayed on
    anthropic-messages: ...``. Never raises for what the body holds.
    """
    wire = streamed_wire(path, response)
    if wire is None:
        return None
    served = response
    if response.end == "stalled":
        # The same bytes, then the end a replay reaches after its read timeout, at once.
        served = RecordedResponse(response.status, response.headers, response.body, "interrupted")
    error = await _played(served, wire)
    if error is None or (response.end != "complete" and error.code in _RECORDED_ENDS):
        return None
    return error.with_message(f"replayed on {wire.name}: {error.message}")


def recorded_stream_problem(path: str, response: RecordedResponse) -> VendorError | None:
    """`check_recorded_stream`, for a caller with no event loop of its own (a sync transport).

    A `course_cassettes.StreamCheck`. Runs the check on an event loop of its
    own: in this thread, or in a new one when this thread already runs a
    loop (an async client's transport), waiting for it.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(check_recorded_stream(path, response))
    found: list[VendorError | None] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            found.append(asyncio.run(check_recorded_stream(path, response)))
        except BaseException as error:  # handed to the waiting thread, raised there
            failed.append(error)

    worker = threading.Thread(target=run, name="course-stream-check")
    worker.start()
    worker.join()
    if failed:
        raise failed[0]
    return found[0]


async def _played(served: RecordedResponse, wire: VendorPlugin) -> VendorError | None:
    async with RecordedTransport([served]) as transport:
        model = wire.replay_model(transport)
        stream = model.stream(CourseModelRequest("check-1", (_QUESTION,)), AbortController().signal)
        try:
            async for _chunk in stream:
                pass
            await stream.result
        except VendorError as error:
            return error
    return None
