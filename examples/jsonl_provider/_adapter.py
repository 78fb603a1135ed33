"""JsonlProviderAdapter: the ``CourseModel`` that reads a JSON-lines transport."""

from __future__ import annotations

from collections.abc import AsyncIterable, Callable
from functools import partial

from course_protocol import CourseModelChunk, CourseModelRequest, CourseModelResponse
from course_stream import AbortSignal, EventStream, forward_source, run_producer
from examples.jsonl_provider._errors import JsonlProviderError, JsonlProviderErrorCode
from examples.jsonl_provider._parse import TurnParser, parse_line

Transport = Callable[[CourseModelRequest], AsyncIterable[object]]
"""Opens one turn for a request and yields its raw lines (a real one would POST and stream)."""

_Stream = EventStream[CourseModelChunk, CourseModelResponse]


class _TurnPlay:
    """What one turn's lines mean, as ``course_stream.forward_source`` plays them."""

    def __init__(self, request_id: str) -> None:
        self._parser = TurnParser(request_id)

    def item(self, raw: object, index: int, push: Callable[[CourseModelChunk], None]) -> None:
        chunk = self._parser.feed(parse_line(raw, index), index)
        if chunk is not None:
            push(chunk)

    def end(self, count: int) -> CourseModelResponse:
        return self._parser.end(count)

    def source_failed(self, error: BaseException, index: int) -> BaseException:
        # Translate foreign failures once, here, at the edge.
        failure = JsonlProviderError(
            JsonlProviderErrorCode.JSONL_TRANSPORT_FAILED,
            f"reading line {index} failed: {type(error).__name__}",
            line=index,
        )
        failure.__cause__ = error
        return failure


class JsonlProviderAdapter:
    """A ``CourseModel`` over a JSON-lines ``transport``.

    ``stream(request, signal)`` opens one turn and returns its stream at
    once; production is ``course_stream.forward_source`` run as one task by
    ``run_producer``, so an abort interrupts whichever read is pending, fails
    the stream with ``signal.reason`` and closes the transport's lines.
    Every other failure is a ``JsonlProviderError``.
    """

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def stream(self, request: CourseModelRequest, signal: AbortSignal) -> _Stream:
        """Start one turn for ``request``; see the class docstring for how it settles."""
        stream: _Stream = EventStream()
        lines = aiter(self._transport(request))
        play = _TurnPlay(request.id)
        run_producer(stream, signal, partial(forward_source, stream, signal, lines, play))
        return stream
