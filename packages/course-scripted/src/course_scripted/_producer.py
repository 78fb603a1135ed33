"""Playing one response factory into one stream, checking its contract as it goes."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import partial
from types import AsyncGeneratorType
from typing import Any, cast

from course_protocol import (
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseTextDeltaChunk,
    CourseToolCallChunk,
    terminal_semantics_error,
)
from course_scripted._errors import ScriptedModelError, ScriptedModelErrorCode
from course_stream import (
    AbortError,
    AbortSignal,
    EventStream,
    aclose_quietly,
    claim_iterator_once,
)

__all__ = ["ScriptedResponseFactory", "play_factory"]

ScriptedResponseFactory = Callable[
    [CourseModelRequest, AbortSignal], AsyncIterator[CourseModelChunk | CourseModelResponse]
]
"""One scripted model turn.

Called with the captured request and the caller's signal, it returns a fresh
async iterator (usually an async generator) that yields the turn's chunks and
then exactly one ``CourseModelResponse`` as its last item.
"""

_INVALID = ScriptedModelErrorCode.SCRIPT_INVALID_RESPONSE
_MISMATCH = ScriptedModelErrorCode.SCRIPT_REQUEST_MISMATCH


async def play_factory(
    factory: ScriptedResponseFactory,
    request: CourseModelRequest,
    signal: AbortSignal,
    stream: EventStream[CourseModelChunk, CourseModelResponse],
) -> None:
    """Call ``factory`` and forward what it yields to ``stream``, then settle it.

    Meant to run as ``run_producer``'s ``produce``. Before any item is read
    it raises instead of settling, and ``run_producer`` fails the stream
    with that same object: the factory's own exception, or a
    ``ScriptedModelError`` (``SCRIPT_INVALID_RESPONSE`` when it returned no
    async iterator, ``SCRIPT_ITERATOR_REUSED`` when the iterator was already
    claimed). Once items flow it settles ``stream`` itself: with the
    response, with the factory's own exception (the same object), with a
    ``ScriptedModelError`` for a broken contract, or with ``signal.reason``
    whenever the signal is aborted. The stream is settled first and the
    factory's iterator closed second, so a consumer never waits on a
    factory's cleanup; errors raised by that cleanup are dropped because
    they must not replace the primary failure.
    """
    returned: object = factory(request, signal)
    if not callable(getattr(type(returned), "__anext__", None)):
        if inspect.iscoroutine(returned):
            # An `async def` factory that never yields returns a coroutine;
            # closing it keeps "coroutine was never awaited" out of the log.
            returned.close()
        raise ScriptedModelError(
            _INVALID,
            f"the factory for request {request.id!r} returned "
            f"{type(returned).__qualname__}, not an async iterator "
            "(write it as an async generator that yields chunks, then the response)",
        )
    source = cast("AsyncIterator[object]", returned)
    if not claim_iterator_once(source):
        # Never closed here: the iterator belongs to the call that claimed it first.
        raise ScriptedModelError(
            ScriptedModelErrorCode.SCRIPT_ITERATOR_REUSED,
            f"the factory for request {request.id!r} returned an iterator that already "
            "served another call; a factory must return a fresh iterator every time",
        )
    # The forwarding loop tests this local list per chunk instead of reading
    # `signal.aborted`: the listener fills it the moment the signal aborts, even
    # when the factory itself aborts between two chunks without awaiting.
    aborted: list[None] = [None] if signal.aborted else []
    mark_aborted = partial(aborted.append, None)
    signal.add_listener(mark_aborted)
    try:
        response = await _forward(source, request.id, signal, aborted, stream)
    except BaseException as error:
        cancelled = isinstance(error, asyncio.CancelledError)
        if signal.aborted:
            stream.fail(_abort_reason(signal))
        elif not cancelled:
            stream.fail(error)
        # After an abort the producer's one cancellation may already be spent,
        # so the close runs interrupted: it cannot keep the task pending.
        await aclose_quietly(source, interrupt=cancelled or signal.aborted)
        if isinstance(error, Exception):
            return
        raise
    finally:
        signal.remove_listener(mark_aborted)
    stream.finish(response)


async def _forward(
    source: AsyncIterator[object],
    request_id: str,
    signal: AbortSignal,
    aborted: list[None],
    stream: EventStream[CourseModelChunk, CourseModelResponse],
) -> CourseModelResponse:
    # The hot path: per chunk one exact-type check, one id comparison, one
    # test of the local abort flag and one push. Protocol values are immutable
    # by construction, so an exact type is proof enough; subclasses could
    # override that, so they are refused. `item` is Any because the type is
    # checked once, through `kind`, which the type checker cannot follow.
    # `async for` reaches an async generator's __anext__ through its C slot;
    # any other iterator is stepped through its bound __anext__, looked up once.
    items = source if type(source) is AsyncGeneratorType else _Steps(source, request_id)
    push = stream.push
    index = 0
    item: Any
    async for item in items:
        kind = type(item)
        if kind is CourseTextDeltaChunk or kind is CourseToolCallChunk:
            if item.request_id != request_id:
                raise _mismatch(f"item {index}", item.request_id, request_id)
            if aborted:
                raise _abort_reason(signal)
            push(item)
            index += 1
            continue
        if kind is CourseModelResponse:
            return await _accept(item, index, items, request_id, signal)
        raise ScriptedModelError(
            _INVALID,
            f"item {index} yielded by the factory for request {request_id!r} is a "
            f"{kind.__qualname__}; expected CourseTextDeltaChunk, "
            "CourseToolCallChunk or CourseModelResponse (exact types)",
        )
    raise ScriptedModelError(
        _INVALID,
        f"the factory for request {request_id!r} ended after {index} item(s) "
        "without yielding a CourseModelResponse as its last item",
    )


class _Steps:
    """An async iterator that only has ``__anext__``, made usable by ``async for``.

    A step that is not awaitable breaks the factory's contract; it is reported
    as ``SCRIPT_INVALID_RESPONSE`` rather than as the ``TypeError`` Python
    would raise from ``async for`` or ``await``.
    """

    __slots__ = ("_next", "_request_id")

    def __init__(self, source: AsyncIterator[object], request_id: str) -> None:
        self._next = source.__anext__
        self._request_id = request_id

    def __aiter__(self) -> _Steps:
        return self

    def __anext__(self) -> Awaitable[object]:
        step = self._next()
        if not inspect.isawaitable(step):
            raise ScriptedModelError(
                _INVALID,
                f"the async iterator of the factory for request {self._request_id!r} "
                f"returned {type(step).__qualname__} from __anext__, not an awaitable",
            )
        return step


async def _accept(
    response: CourseModelResponse,
    index: int,
    source: AsyncIterator[object] | _Steps,
    request_id: str,
    signal: AbortSignal,
) -> CourseModelResponse:
    signal.throw_if_aborted()
    if response.request_id != request_id:
        raise _mismatch(f"the response (item {index})", response.request_id, request_id)
    problem = terminal_semantics_error(response.stop_reason, response.message)
    if problem is not None:
        raise ScriptedModelError(
            _INVALID, f"the response (item {index}) for request {request_id!r}: {problem}"
        )
    try:
        extra = await source.__anext__()
    except StopAsyncIteration:
        pass
    else:
        raise ScriptedModelError(
            _INVALID,
            f"the factory for request {request_id!r} yielded a {type(extra).__qualname__} "
            f"after its CourseModelResponse (item {index + 1}); the response must be last",
        )
    signal.throw_if_aborted()
    return response


def _abort_reason(signal: AbortSignal) -> BaseException:
    reason = signal.reason
    return reason if reason is not None else AbortError("The operation was aborted")


def _mismatch(what: str, found: str, expected: str) -> ScriptedModelError:
    return ScriptedModelError(
        _MISMATCH, f"{what} has request_id {found!r}, but the active request is {expected!r}"
    )
