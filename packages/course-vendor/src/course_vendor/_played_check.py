"""The check of a wire that has no grammar yet: its recorded body played through its model.

Kept while a wire's stream language is read by its model's parser alone:
`stream_judge_for` gives a `PlayedJudge` only for a plug-in whose
``grammar`` is ``None``. It judges nothing before the end of the body (a
model reads a whole call), so it refuses a bad event only once the body
ended.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Mapping
from typing import Final, final

from course_http import RecordedResponse, VendorError, VendorErrorCode
from course_vendor._playing import play_recorded
from course_vendor._vendor_plugin import VendorPlugin

__all__ = ["PlayedJudge", "played_stream_problem"]

_RECORDED_ENDS: Final = frozenset(
    {VendorErrorCode.HTTP_STREAM_INTERRUPTED, VendorErrorCode.HTTP_TIMEOUT}
)


@final
class PlayedJudge:
    """A ``course_http.BodyJudge`` for a wire without a grammar: the body played at its end.

    `feed_bytes` keeps the bytes; `close` plays the whole body through the
    wire's model (`played_stream_problem`) and returns what it fails with.
    `finished` is ``False`` until then: nothing is judged on the way.
    """

    __slots__ = ("_headers", "_parts", "_plugin", "_problem", "_status")

    def __init__(self, plugin: VendorPlugin, status: int, headers: Mapping[str, str]) -> None:
        self._plugin = plugin
        self._status = status
        self._headers = dict(headers)
        self._parts: list[bytes] = []
        self._problem: VendorError | None = None

    @property
    def finished(self) -> bool:
        """``False``: without a grammar, the terminal event is not seen on the way."""
        return False

    def feed_bytes(self, chunk: bytes) -> VendorError | None:
        """Keep ``chunk``; nothing is judged before the end."""
        self._parts.append(chunk)
        return None

    def close(self) -> VendorError | None:
        """Play the whole body through the wire's model: what the call fails with, or ``None``."""
        if self._problem is None:
            recorded = RecordedResponse(self._status, self._headers, b"".join(self._parts))
            self._problem = played_stream_problem(self._plugin, recorded)
        return self._problem


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
        # The same bytes, then the end a replay reaches at its read timeout.
        served = RecordedResponse(response.status, response.headers, response.body, "interrupted")
    played = await play_recorded(plugin, served, "check-1")
    if not isinstance(played, VendorError):
        return None
    if response.end != "complete" and played.code in _RECORDED_ENDS:
        return None
    return played.with_message(f"replayed on {plugin.name}: {played.message}")
