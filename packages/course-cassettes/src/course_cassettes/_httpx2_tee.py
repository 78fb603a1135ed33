"""A response passed on to an httpx2 client and kept as it streams: `teed_response`."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator

import httpx2

from course_cassettes._httpx2_body import OnceStream
from course_cassettes._recording_log import RecordingCall, ended_by
from course_http import ResponseEnd, VendorError

__all__ = ["Finish", "teed_response"]

Finish = Callable[[RecordingCall, ResponseEnd], VendorError | None]
"""Ends a call as recorded; the strict check's problem of a complete one, if any."""


def teed_response(
    call: RecordingCall, response: httpx2.Response, request: httpx2.Request, finish: Finish
) -> httpx2.Response:
    """``response`` to ``request``, its body decoded, kept in ``call`` as the client reads it.

    ``finish`` runs once when the body ends (``complete``, ``interrupted``
    for a dropped connection or a body that does not decode, ``stalled``
    for one the client stopped reading or that timed out); the problem it
    returns is raised where the client reads the end of the body.
    """
    return httpx2.Response(
        status_code=response.status_code,
        headers=call.received(response),
        stream=_TeeBody(call, response, finish),
        request=request,
        extensions=response.extensions,
    )


class _TeeBody(OnceStream):
    """The inner body, decoded, passed on as it arrives and kept for the cassette."""

    def __init__(self, call: RecordingCall, response: httpx2.Response, finish: Finish) -> None:
        self._call = call
        self._response = response
        self._finish = finish

    def _chunks(self) -> Iterator[bytes]:
        end: ResponseEnd = "stalled"
        try:
            for chunk in self._response.iter_bytes():
                self._call.parts.append(chunk)
                yield chunk
            end = "complete"
        except BaseException as error:
            end = ended_by(error)
            raise
        finally:
            self._response.close()
            self._raise_problem(end)

    async def _achunks(self) -> AsyncIterator[bytes]:
        end: ResponseEnd = "stalled"
        try:
            async for chunk in self._response.aiter_bytes():
                self._call.parts.append(chunk)
                yield chunk
            end = "complete"
        except BaseException as error:
            end = ended_by(error)
            raise
        finally:
            await self._response.aclose()
            self._raise_problem(end)

    def _raise_problem(self, end: ResponseEnd) -> None:
        problem = self._finish(self._call, end)
        if problem is not None:
            raise problem

    def close(self) -> None:
        super().close()
        self._finish(self._call, "stalled")
        self._response.close()

    async def aclose(self) -> None:
        await super().aclose()
        self._finish(self._call, "stalled")
        await self._response.aclose()
