"""A response passed on to an httpx2 client and kept as it streams: the one tee, sync and async.

Every recording (``Httpx2RecordingTransport``, and so ``RecordingTransport``
and ``course serve --record``) keeps a body with `TeeBody`: each chunk is kept
for the cassette and fed to the stream's judge before the client gets it, and
what the client does not read is read anyway, so the cassette holds the
whole stream and the check judges what was recorded, not what was read.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from typing import Final

import httpx2

from course_cassettes._recording_log import RecordingCall, RecordingLog, ended_by
from course_http import BodyJudge, OnceStream, ReadCut, ResponseEnd, VendorError

__all__ = ["REST_LIMIT_BYTES", "REST_LIMIT_SECONDS", "TeeBody"]

REST_LIMIT_BYTES: Final = 16 * 1024 * 1024
"""At most this many bytes of a body are read after its client stopped reading it."""

REST_LIMIT_SECONDS: Final = 10.0
"""At most this long is spent reading a body after its client stopped reading it.

A read still waiting when it passes is cut: an async one is cancelled; a
sync one over a socket (any transport that gives httpcore's
``network_stream`` extension, the default ones included) has the socket shut
down under it. A sync transport that gives no socket is checked between
chunks only."""


class TeeBody(OnceStream):
    """The inner response's body, decoded, passed on as it arrives and kept in ``call``.

    Each chunk is kept and fed to ``judge`` (when given) before the client
    gets it; a problem the judge finds is raised instead of that chunk, once
    the rest of the body was recorded. The call ends in ``log`` (and the
    cassette is saved) once, when the body ends: ``"complete"``;
    ``"interrupted"`` for a dropped connection or a body that does not
    decode; ``"stalled"`` for a read timeout. A client that stops reading
    (closes the body) leaves the rest to be read and kept, within
    `REST_LIMIT_BYTES` and `REST_LIMIT_SECONDS`: to its end, the call is
    ``"complete"``; cut by a bound or a failure, it is ``"stalled"`` (or
    how it failed), unless the judge saw the stream's terminal event, which
    makes it ``"complete"`` whatever followed. At a complete end the judge's
    `close` is asked, and its problem raised where the client reads the
    end (a client that stopped reading only finds it in the transport's
    problems). ``rest_bytes`` and ``rest_seconds`` are the bounds.
    """

    def __init__(
        self,
        log: RecordingLog,
        call: RecordingCall,
        response: httpx2.Response,
        judge: BodyJudge | None,
        *,
        rest_bytes: int = REST_LIMIT_BYTES,
        rest_seconds: float = REST_LIMIT_SECONDS,
    ) -> None:
        self._log = log
        self._call = call
        self._response = response
        self._judge = judge
        self._rest_bytes = rest_bytes
        self._rest_seconds = rest_seconds
        self._ended = False
        self._sync_body: Iterator[bytes] | None = None
        self._async_body: AsyncIterator[bytes] | None = None

    def _body(self) -> Iterator[bytes]:
        if self._sync_body is None:
            self._sync_body = self._response.iter_bytes()
        return self._sync_body

    def _abody(self) -> AsyncIterator[bytes]:
        if self._async_body is None:
            self._async_body = self._response.aiter_bytes()
        return self._async_body

    def _chunks(self) -> Iterator[bytes]:
        body = self._body()
        while True:
            try:
                chunk = next(body)
            except StopIteration:
                break
            except BaseException as error:
                self._end(self._ended_by(error))
                raise
            problem = self._kept(chunk)
            if problem is not None:
                self._rest(body)
                raise problem
            yield chunk
        self._raise(self._end("complete"))

    async def _achunks(self) -> AsyncIterator[bytes]:
        body = self._abody()
        while True:
            try:
                chunk = await anext(body)
            except StopAsyncIteration:
                break
            except BaseException as error:
                self._end(self._ended_by(error))
                raise
            problem = self._kept(chunk)
            if problem is not None:
                await self._arest(body)
                raise problem
            yield chunk
        self._raise(self._end("complete"))

    def _kept(self, chunk: bytes) -> VendorError | None:
        self._call.parts.append(chunk)
        return None if self._judge is None else self._judge.feed_bytes(chunk)

    def _rest(self, body: Iterator[bytes]) -> None:
        """Read and keep what the client will not read, within the bounds; end the call."""
        if self._ended:
            return
        end: ResponseEnd = "stalled"
        deadline = time.monotonic() + self._rest_seconds
        read = 0
        cut = ReadCut(self._response, self._rest_seconds)
        try:
            for chunk in body:
                self._kept(chunk)
                read += len(chunk)
                if read >= self._rest_bytes or time.monotonic() >= deadline:
                    break
            else:
                end = "complete"
        except Exception as error:
            end = "stalled" if cut.fired else ended_by(error)
        finally:
            cut.disarm()
            self._end(self._finished_or(end))

    async def _arest(self, body: AsyncIterator[bytes]) -> None:
        """`_rest`, for an async client: the time bound cancels a read that waits."""
        if self._ended:
            return
        end: ResponseEnd = "stalled"
        read = 0
        try:
            async with asyncio.timeout(self._rest_seconds):
                async for chunk in body:
                    self._kept(chunk)
                    read += len(chunk)
                    if read >= self._rest_bytes:
                        break
                else:
                    end = "complete"
        except Exception as error:
            end = ended_by(error)
        finally:
            self._end(self._finished_or(end))

    def _ended_by(self, error: BaseException) -> ResponseEnd:
        """How a read that raised ``error`` ended the body: a cancelled read after the
        terminal event leaves it complete; a failed connection is how it ended."""
        end = ended_by(error)
        return end if isinstance(error, httpx2.TransportError) else self._finished_or(end)

    def _finished_or(self, end: ResponseEnd) -> ResponseEnd:
        finished = self._judge is not None and self._judge.finished
        return "complete" if finished else end

    def _end(self, end: ResponseEnd) -> VendorError | None:
        """End the call as ``end`` says (once) and save; the judge's problem of a complete one."""
        if self._ended:
            return None
        self._ended = True
        self._log.finish(self._call, end)
        if end != "complete" or self._judge is None:
            return None
        return self._judge.close()

    @staticmethod
    def _raise(problem: VendorError | None) -> None:
        if problem is not None:
            raise problem

    def close(self) -> None:
        """Stop passing the body on: read and keep the rest (bounded), then close the response."""
        super().close()
        try:
            self._rest(self._body())
        finally:
            self._response.close()

    async def aclose(self) -> None:
        """`close`, for an async client."""
        await super().aclose()
        try:
            await self._arest(self._abody())
        finally:
            await self._response.aclose()
