"""Playing one response factory into one stream, checking its contract as it goes."""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Awaitable, Callable
from types import AsyncGeneratorType
from typing import Any, cast

from course_protocol import (
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseReasoningDeltaChunk,
    CourseTextDeltaChunk,
    CourseToolCallChunk,
    terminal_semantics_error,
)
from course_protocol.untrusted import special_method
from course_scripted._errors import ScriptedModelError, ScriptedModelErrorCode
from course_scripted._turn import PrebuiltTurn, TurnRest, turn_batch
from course_stream import (
    AbortSignal,
    EventStream,
    aclose_quietly,
    claim_iterator_once,
    forward_source,
)

__all__ = ["ScriptedResponseFactory", "is_chunk_type", "play_factory"]

ScriptedResponseFactory = Callable[
    [CourseModelRequest, AbortSignal], AsyncIterator[CourseModelChunk | CourseModelResponse]
]
"""One scripted model turn.

Called with the captured request and the caller's signal, it returns a fresh
async iterator (usually an async generator) that yields the turn's chunks and
then exactly one ``CourseModelResponse`` as its last item.
"""


def is_chunk_type(kind: type) -> bool:
    """Whether ``kind`` is exactly one of the chunk types (``is``, never ``==``)."""
    return (
        kind is CourseTextDeltaChunk
        or kind is CourseToolCallChunk
        or kind is CourseReasoningDeltaChunk
    )


_INVALID = ScriptedModelErrorCode.SCRIPT_INVALID_RESPONSE
_MISMATCH = ScriptedModelErrorCode.SCRIPT_REQUEST_MISMATCH


async def play_factory(
    factory: ScriptedResponseFactory,
    request: CourseModelRequest,
    signal: AbortSignal,
    stream: EventStream[CourseModelChunk, CourseModelResponse],
) -> None:
    """Call ``factory`` and forward what it yields to ``stream``, then settle it.

    Meant to run as ``run_producer``'s ``produce``. A factory that returns no
    async iterator raises ``ScriptedModelError`` (``SCRIPT_INVALID_RESPONSE``)
    and ``run_producer`` fails the stream with it; the factory's own exception
    from the call propagates the same way, as the same object. Then the
    shared loop (``course_stream.forward_source``) plays the iterator: an
    iterator that already served another call is ``SCRIPT_ITERATOR_REUSED``;
    the stream settles with the response, with the factory's own exception
    (the same object), with a ``ScriptedModelError`` for a broken contract,
    or with ``signal.reason`` the moment the signal aborts. The stream is
    settled first and the factory's iterator closed second, so a consumer
    never waits on a factory's cleanup; errors raised by that cleanup are
    dropped because they must not replace the primary failure.
    """
    returned: object = factory(request, signal)
    if not callable(special_method(returned, "__anext__")):
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
    script = _ScriptPlay(request.id)
    # The claim is on what the factory returned, not on a wrapper made for it.
    if not claim_iterator_once(returned):
        raise script.reused()
    kind = type(returned)
    if kind is PrebuiltTurn:
        # Items that exist before the turn plays: one batch, one push_many,
        # every item checked all the same.
        batch = _ScriptBatchPlay(request.id, stream)
        turn = cast(PrebuiltTurn, returned)
        await forward_source(stream, signal, turn_batch(turn), batch)
        return
    source = cast("AsyncIterator[object]", returned)
    # `async for` reaches an async generator's __anext__ through its C slot;
    # any other iterator is stepped through its bound __anext__, looked up once.
    items = source if kind is AsyncGeneratorType else _Steps(source, request.id)
    await forward_source(stream, signal, items, script)


class _ScriptPlay:
    """The factory contract, checked item by item: chunks for the active request, then one response.

    Protocol values are immutable by construction, so an exact type is proof
    enough; subclasses could override that, so they are refused. Whatever the
    factory raises reaches the stream as the same object.
    """

    __slots__ = ("_open_id", "_request_id", "_response")

    def __init__(self, request_id: str) -> None:
        self._request_id = request_id
        # The id a chunk must carry: the request's until the response came,
        # then None, which no chunk's id equals.
        self._open_id: str | None = request_id
        self._response: CourseModelResponse | None = None

    def item(self, item: Any, index: int, push: Callable[[CourseModelChunk], None]) -> None:
        # The hot path: per chunk one exact-type check and one id comparison.
        # `item` is Any because its type is checked once, through `kind`.
        kind = type(item)
        if (
            kind is CourseTextDeltaChunk
            or kind is CourseToolCallChunk
            or kind is CourseReasoningDeltaChunk
        ) and item.request_id == self._open_id:
            push(item)
            return
        self._judge(item, index)

    def _judge(self, item: Any, index: int) -> None:
        """Accept the response, or raise for an item that is not a chunk of the open request."""
        kind = type(item)
        if self._response is not None:
            raise ScriptedModelError(
                _INVALID,
                f"the factory for request {self._request_id!r} yielded a {kind.__qualname__} "
                f"after its CourseModelResponse (item {index}); the response must be last",
            )
        if is_chunk_type(kind):
            raise _mismatch(f"item {index}", item.request_id, self._request_id)
        if kind is CourseModelResponse:
            self._response = self._accept(item, index)
            self._open_id = None
            return
        raise ScriptedModelError(
            _INVALID,
            f"item {index} yielded by the factory for request {self._request_id!r} is a "
            f"{kind.__qualname__}; expected CourseTextDeltaChunk, CourseToolCallChunk, "
            "CourseReasoningDeltaChunk or CourseModelResponse (exact types)",
        )

    def _accept(self, response: CourseModelResponse, index: int) -> CourseModelResponse:
        if response.request_id != self._request_id:
            raise _mismatch(f"the response (item {index})", response.request_id, self._request_id)
        problem = terminal_semantics_error(response.stop_reason, response.message)
        if problem is not None:
            raise ScriptedModelError(
                _INVALID, f"the response (item {index}) for request {self._request_id!r}: {problem}"
            )
        return response

    def end(self, count: int) -> CourseModelResponse:
        if self._response is None:
            raise ScriptedModelError(
                _INVALID,
                f"the factory for request {self._request_id!r} ended after {count} item(s) "
                "without yielding a CourseModelResponse as its last item",
            )
        return self._response

    def source_failed(self, error: BaseException, index: int) -> BaseException:
        return error

    def reused(self) -> ScriptedModelError:
        return ScriptedModelError(
            ScriptedModelErrorCode.SCRIPT_ITERATOR_REUSED,
            f"the factory for request {self._request_id!r} returned an iterator that already "
            "served another call; a factory must return a fresh iterator every time",
        )


class _ScriptBatchPlay(_ScriptPlay):
    """The same contract for a `PrebuiltTurn`, whose rest arrives as one item, a `TurnRest`.

    Every item of the batch gets the checks a streamed one gets, in the same
    order and with the same index in its errors; the chunks that pass before
    the first one that does not are published with one ``push_many``, then
    that one's error is raised, as when they stream one by one. When the
    turn's maker established the request id all its chunks carry, the
    chunks' test is that one comparison; otherwise each chunk is tested.
    """

    __slots__ = ("_count", "_stream")

    def __init__(
        self, request_id: str, stream: EventStream[CourseModelChunk, CourseModelResponse]
    ) -> None:
        super().__init__(request_id)
        self._stream = stream
        self._count = 0

    def item(self, item: Any, index: int, push: Callable[[CourseModelChunk], None]) -> None:
        rest = cast(TurnRest, item)
        batch: tuple[Any, ...] = rest.items
        count = self._count = len(batch)
        known = rest.chunks_request_id
        if known is not None and known == self._open_id:
            passed = count - 1
        else:
            passed = _chunks_for(batch, self._open_id)
        if passed:
            self._stream.push_many(batch if passed == count else batch[:passed])
        # At most two rounds: the response is accepted, anything after it raises.
        for position in range(passed, count):
            self._judge(batch[position], position)

    def end(self, count: int) -> CourseModelResponse:
        return super().end(self._count)


def _chunks_for(items: tuple[Any, ...], open_id: str | None) -> int:
    """How many items, from the first, are exact chunk types carrying ``open_id``."""
    text, tool, reasoning = CourseTextDeltaChunk, CourseToolCallChunk, CourseReasoningDeltaChunk
    # `_ScriptPlay.item`'s test, item after item. The usual batch is chunks
    # and the response last: the loop over the chunks then runs to its end,
    # with no counter, and only the last item is left to test.
    for item in items[:-1]:
        kind = type(item)
        if (kind is text or kind is tool or kind is reasoning) and item.request_id == open_id:
            continue
        break
    else:
        if not items:
            return 0
        last = items[-1]
        kind = type(last)
        passed = (kind is text or kind is tool or kind is reasoning) and last.request_id == open_id
        return len(items) if passed else len(items) - 1
    # It stopped at the first occurrence of that object (had it come earlier,
    # it would have failed there), so the object's identity gives the position.
    for position, other in enumerate(items):
        if other is item:
            return position
    raise AssertionError("unreachable: the item that failed is one of the items")


class _Steps:
    """An async iterator that only has ``__anext__``, made usable by ``async for``.

    A step that is not awaitable breaks the factory's contract; it is reported
    as ``SCRIPT_INVALID_RESPONSE`` rather than as the ``TypeError`` Python
    would raise from ``async for`` or ``await``.
    """

    __slots__ = ("_next", "_request_id", "_source")

    def __init__(self, source: AsyncIterator[object], request_id: str) -> None:
        self._source = source
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

    async def aclose(self) -> None:
        """Close the factory's own iterator (its own ``aclose``, if it has one)."""
        await aclose_quietly(self._source)


def _mismatch(what: str, found: str, expected: str) -> ScriptedModelError:
    return ScriptedModelError(
        _MISMATCH, f"{what} has request_id {found!r}, but the active request is {expected!r}"
    )
