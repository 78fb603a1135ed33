"""FixtureRecorder: wraps any CourseModel and writes down what it streamed as a fixture.

Record once against a real provider, replay forever with
``FixtureProviderAdapter``. The recorder passes every stream through
unchanged and keeps, per call, the transport records the adapter would need
to replay the same chunks and the same terminal.
"""

from __future__ import annotations

import asyncio
import json
import os
from functools import partial
from typing import ClassVar

from course_protocol import (
    CourseError,
    CourseModel,
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseTextDeltaChunk,
    CourseToolCallChunk,
    is_blank,
    thaw_json,
    to_json,
)
from course_provider_fixture import _wire
from course_provider_fixture._recordable import SCHEMA_HOLDS, WIRE_STOP_REASONS, check_recordable
from course_stream import AbortSignal, EventStream, run_producer

__all__ = ["FixtureRecorder"]

_Stream = EventStream[CourseModelChunk, CourseModelResponse]
_Record = dict[str, object]


class FixtureRecorder:
    """A ``CourseModel`` that delegates to ``model`` and records a schema-1 fixture.

    ``stream(request, signal)`` calls ``model.stream`` with the same
    arguments and relays its stream: the same chunk objects in the same
    order, then the same response object or the same exception object. Each
    call becomes one fixture response, in call order, whose ``request`` key
    holds the call's request in course JSON (the adapter ignores it unless
    made with ``match_requests=True``, so the fixture stays schema 1) and
    whose ``records`` are:

    - a success: a response start and end carrying the response's id, its
      stop reason and usage, around one text or Tool-call record per chunk;
    - a failure (any exception): the records of the chunks seen so far
      (after a start with the placeholder id ``recorded-call-<n>`` when
      there were any) and a transport error whose code is the exception's
      ``provider_code`` or else its ``code`` for a course error (the
      transport code a replayed transport error carried, a stable code
      otherwise), ``ABORTED_CODE`` when it is the signal's abort reason, and
      its class name for anything else; the message is ``str(exception)``
      (the class name when that is blank).

    A call whose signal was already aborted is not recorded: the replaying
    adapter leaves its queue untouched for such a call too.

    The fixture carries the stream, not the response's message: replay
    names the message ``message-<response id>`` and builds its content from
    the chunks, one block per chunk. A response whose message differs
    (another id, content that is not its chunks) replays with those.
    """

    ABORTED_CODE: ClassVar[str] = "aborted"
    """The transport code recorded for a call that failed because its signal aborted."""

    __slots__ = ("__weakref__", "_calls", "_model")

    def __init__(self, model: CourseModel) -> None:
        """Wrap ``model``; raises ``TypeError`` when it has no callable ``stream``."""
        if not callable(getattr(model, "stream", None)):
            raise TypeError(
                f"model: expected a CourseModel with a stream() method, got "
                f"{type(model).__qualname__}"
            )
        self._model = model
        self._calls: list[_RecordedCall] = []

    def stream(self, request: CourseModelRequest, signal: AbortSignal) -> _Stream:
        """Start one call of the wrapped model and relay it; record what passes.

        Whatever ``model.stream`` raises propagates, and nothing is
        recorded. Otherwise the relay runs as one task on the running loop,
        through ``run_producer``: an abort fails the returned stream with
        ``signal.reason`` (as the wrapped model's own stream should).
        """
        inner = self._model.stream(request, signal)
        outer: _Stream = EventStream()
        reason = signal.reason
        if reason is not None:
            outer.fail(reason)
            return outer
        call = _RecordedCall(len(self._calls) + 1, request)
        self._calls.append(call)
        # Registered before run_producer's own listener, which fails the stream
        # at the abort: a consumer that sees the abort already finds it recorded.
        record_abort = partial(call.settle_if_open, signal)
        signal.add_listener(record_abort)

        async def relay() -> None:
            await call.relay(inner, outer, signal)

        def relay_done(_task: object) -> None:
            # Also when the relay was cancelled before its first step and never
            # ran: run_producer's own done callback, queued just before this one,
            # has failed the stream; this records the call.
            signal.remove_listener(record_abort)
            call.settle_if_open(signal)

        run_producer(outer, signal, relay).add_done_callback(relay_done)
        return outer

    def fixture(self) -> dict[str, object]:
        """Return the recorded fixture as a fresh plain JSON document.

        ``{"schemaVersion": 1, "responses": [...]}`` with one response per
        recorded call, in call order; mutating the result changes nothing
        here. Raises ``RuntimeError`` while a recorded call has not settled
        yet (a fixture with a hole would shift every later replay).
        """
        open_calls = [call.number for call in self._calls if call.records_at_end is None]
        if open_calls:
            raise RuntimeError(
                f"FixtureRecorder.fixture(): call(s) {open_calls} have not settled yet; "
                "consume their streams (or await their result) first"
            )
        return {
            _wire.SCHEMA_VERSION_KEY: _wire.SUPPORTED_SCHEMA_VERSION,
            _wire.RESPONSES_KEY: [
                {
                    _wire.REQUEST_KEY: to_json(call.request),
                    _wire.RECORDS_KEY: json.loads(json.dumps(call.records_at_end)),
                }
                for call in self._calls
            ],
        }

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write ``fixture()`` to ``path`` as UTF-8 JSON: 2-space indent, trailing newline.

        Keys keep their record order (never sorted), so a re-recording
        diffs line by line. Raises ``RuntimeError`` like ``fixture()`` and
        ``OSError`` when the file cannot be written.
        """
        document = self.fixture()
        try:
            data = (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
        except UnicodeEncodeError:
            # A lone surrogate cannot be UTF-8; escaped, it still reads back exactly.
            data = (json.dumps(document, indent=2) + "\n").encode("ascii")
        with open(path, "wb") as file:
            file.write(data)

    def __repr__(self) -> str:
        return f"FixtureRecorder({self._model!r}, recorded_calls={len(self._calls)})"


class _RecordedCall:
    """The records of one call: chunks as they pass, closed by its terminal."""

    __slots__ = ("chunk_records", "number", "records_at_end", "request")

    def __init__(self, number: int, request: CourseModelRequest) -> None:
        self.number = number
        self.request = request
        self.chunk_records: list[_Record] = []
        self.records_at_end: list[_Record] | None = None

    async def relay(self, inner: _Stream, outer: _Stream, signal: AbortSignal) -> None:
        iterator = inner.__aiter__()
        try:
            async for chunk in iterator:
                if outer.done:
                    # The abort failed the relayed stream (and recorded the call)
                    # while the wrapped model still had chunks buffered.
                    return
                self.chunk_records.append(_chunk_record(chunk))
                outer.push(chunk)
            response = await inner.result
            check_recordable(response)
        except asyncio.CancelledError:
            self.settle_if_open(signal)
            raise
        except Exception as error:
            if self.records_at_end is None:
                self.fail(error, aborted=error is signal.reason)
            if not outer.done:
                outer.fail(error)
            return
        finally:
            await iterator.aclose()
        if outer.done:
            return
        self.finish(response)
        outer.finish(response)

    def finish(self, response: CourseModelResponse) -> None:
        usage = response.usage
        self.records_at_end = [
            _start(response.id),
            *self.chunk_records,
            {
                _wire.TYPE_KEY: _wire.RESPONSE_END,
                _wire.RESPONSE_ID_KEY: response.id,
                _wire.STOP_REASON_KEY: WIRE_STOP_REASONS[response.stop_reason],
                _wire.USAGE_KEY: {
                    _wire.INPUT_TOKENS_ALIASES[0]: usage.input_tokens,
                    _wire.OUTPUT_TOKENS_ALIASES[0]: usage.output_tokens,
                },
            },
        ]

    def fail(self, error: BaseException, *, aborted: bool) -> None:
        start = [_start(f"recorded-call-{self.number}")] if self.chunk_records else []
        self.records_at_end = [
            *start,
            *self.chunk_records,
            {
                _wire.TYPE_KEY: _wire.TRANSPORT_ERROR,
                _wire.ERROR_CODE_KEY: FixtureRecorder.ABORTED_CODE
                if aborted
                else _error_code(error),
                _wire.ERROR_MESSAGE_KEY: _error_message(error),
            },
        ]

    def settle_if_open(self, signal: AbortSignal) -> None:
        if self.records_at_end is not None:
            return
        reason = signal.reason
        if reason is not None:
            self.fail(reason, aborted=True)
        else:
            self.fail(asyncio.CancelledError(), aborted=False)


def _start(response_id: str) -> _Record:
    return {
        _wire.TYPE_KEY: _wire.RESPONSE_START,
        _wire.RESPONSE_ID_KEY: response_id,
        _wire.ROLE_KEY: _wire.ASSISTANT_ROLE,
    }


def _chunk_record(chunk: CourseModelChunk) -> _Record:
    if type(chunk) is CourseTextDeltaChunk:
        return {_wire.TYPE_KEY: _wire.TEXT_DELTA, _wire.TEXT_KEY: chunk.delta}
    if type(chunk) is not CourseToolCallChunk:
        raise ValueError(
            f"the recorded model streamed a {type(chunk).__qualname__}; {SCHEMA_HOLDS}"
        )
    tool_call = chunk.tool_call
    return {
        _wire.TYPE_KEY: _wire.TOOL_CALL,
        _wire.TOOL_CALL_ID_KEY: tool_call.id,
        _wire.TOOL_NAME_KEY: tool_call.name,
        _wire.ARGUMENTS_KEY: thaw_json(tool_call.arguments),
    }


def _error_code(error: BaseException) -> str:
    # A replayed transport error keeps the provider's code; a course error
    # (ScriptedModelError, FixtureProviderError, VendorError) its stable code;
    # anything else is named by its class.
    if isinstance(error, CourseError):
        for code in (error.provider_code, error.code):
            if isinstance(code, str) and not is_blank(code):
                return str.__str__(code)
    return type(error).__qualname__


def _error_message(error: BaseException) -> str:
    # The adapter refuses a blank transport-error message, so a failure whose
    # str() is blank (or raises) is recorded under its class name instead.
    try:
        message = str(error)
    except Exception:
        message = ""
    if type(message) is not str or is_blank(message):
        return type(error).__qualname__
    return message
