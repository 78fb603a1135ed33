"""JsonlProviderAdapter: the ``CourseModel`` that reads a JSON-lines transport."""

from __future__ import annotations

from collections.abc import AsyncIterable, Callable

from course_protocol import CourseModelChunk, CourseModelRequest, CourseModelResponse
from course_stream import AbortSignal, EventStream, run_producer
from examples.jsonl_provider._errors import JsonlProviderError, JsonlProviderErrorCode
from examples.jsonl_provider._parse import TurnParser, parse_line

Transport = Callable[[CourseModelRequest], AsyncIterable[object]]
"""Opens one turn for a request and yields its raw lines (a real one would POST and stream)."""

_Stream = EventStream[CourseModelChunk, CourseModelResponse]


class JsonlProviderAdapter:
    """A ``CourseModel`` over a JSON-lines ``transport``.

    ``stream(request, signal)`` opens one turn and returns its stream at
    once; production runs as one task through ``run_producer``, so an abort
    interrupts whichever read is pending and fails the stream with
    ``signal.reason``. Every other failure is a ``JsonlProviderError``.
    """

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def stream(self, request: CourseModelRequest, signal: AbortSignal) -> _Stream:
        """Start one turn for ``request``; see the class docstring for how it settles."""
        stream: _Stream = EventStream()

        async def produce() -> None:
            await self._play(request, stream)

        run_producer(stream, signal, produce)
        return stream

    async def _play(self, request: CourseModelRequest, stream: _Stream) -> None:
        parser = TurnParser(request.id)
        lines = aiter(self._transport(request))
        index = 0
        try:
            while True:
                try:
                    raw = await anext(lines)
                except StopAsyncIteration:
                    break
                except Exception as error:
                    # Translate foreign failures once, here, at the edge.
                    raise JsonlProviderError(
                        JsonlProviderErrorCode.JSONL_TRANSPORT_FAILED,
                        f"reading line {index} failed: {type(error).__name__}",
                        line=index,
                    ) from error
                chunk = parser.feed(parse_line(raw, index), index)
                if chunk is not None:
                    stream.push(chunk)
                index += 1
            stream.finish(parser.end(index))
        finally:
            aclose = getattr(lines, "aclose", None)
            if aclose is not None:
                await aclose()
