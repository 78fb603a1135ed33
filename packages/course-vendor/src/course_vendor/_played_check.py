"""The check of a wire that has no grammar yet: its recorded body played through its model.

Kept while a wire's stream language is read by its model's parser alone;
`recorded_stream_problem` uses it only for a plug-in whose ``grammar`` is
``None``.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Final

from course_http import RecordedResponse, RecordedTransport, VendorError, VendorErrorCode
from course_protocol import CourseModelRequest, CourseUserMessage
from course_stream import AbortController
from course_vendor._vendor_plugin import VendorPlugin

__all__ = ["played_stream_problem"]

# A vendor model refuses an empty transcript; a recorded body answers any question.
_QUESTION: Final = CourseUserMessage("check-user-1", "(the recorded answer is checked)")
_RECORDED_ENDS: Final = frozenset(
    {VendorErrorCode.HTTP_STREAM_INTERRUPTED, VendorErrorCode.HTTP_TIMEOUT}
)


def played_stream_problem(plugin: VendorPlugin, response: RecordedResponse) -> VendorError | None:
    """The error ``plugin``'s model fails the recorded ``response`` with, or ``None``.

    Runs on an event loop of its own: in this thread, or in a new one when
    this thread already runs a loop, waiting for it.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_checked(plugin, response))
    found: list[VendorError | None] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            found.append(asyncio.run(_checked(plugin, response)))
        except BaseException as error:  # handed to the waiting thread, raised there
            failed.append(error)

    worker = threading.Thread(target=run, name="course-stream-check")
    worker.start()
    worker.join()
    if failed:
        raise failed[0]
    return found[0]


async def _checked(plugin: VendorPlugin, response: RecordedResponse) -> VendorError | None:
    served = response
    if response.end == "stalled":
        # The same bytes, then the end a replay reaches after its read timeout, at once.
        served = RecordedResponse(response.status, response.headers, response.body, "interrupted")
    error = await _played(served, plugin)
    if error is None or (response.end != "complete" and error.code in _RECORDED_ENDS):
        return None
    return error.with_message(f"replayed on {plugin.name}: {error.message}")


async def _played(served: RecordedResponse, plugin: VendorPlugin) -> VendorError | None:
    async with RecordedTransport([served]) as transport:
        model = plugin.replay_model(transport)
        stream = model.stream(CourseModelRequest("check-1", (_QUESTION,)), AbortController().signal)
        try:
            async for _chunk in stream:
                pass
            await stream.result
        except VendorError as error:
            return error
    return None
