"""What every model does with a ``stream()`` call before producing, and the doubles' one queue.

`check_stream_call` is the argument check every ``CourseModel`` of the
workspace makes first; `CallQueue` is the finite FIFO queue, the captured
calls and the counts that both test doubles (``ScriptedModel``,
``FixtureProviderAdapter``) keep, so the two behave the same way; a
`ModelCall` is one captured call, its request and the options in effect.

A public module: the doubles import it as ``course_protocol.calls``.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Iterable
from typing import Generic, TypeVar

from course_protocol._call_options import NO_OPTIONS, CallOptions, ModelCall, call_options
from course_protocol._messages import CourseModelRequest
from course_protocol._transcript import validate_transcript
from course_protocol.untrusted import type_name
from course_stream import AbortSignal

__all__ = [
    "NO_OPTIONS",
    "CallOptions",
    "CallQueue",
    "ModelCall",
    "QueuedDouble",
    "call_options",
    "check_stream_call",
    "invalid_transcript_message",
]

T = TypeVar("T")


def check_stream_call(model: str, request: object, signal: object) -> None:
    """Check the arguments of ``model``'s ``stream(request, signal)`` before anything is counted.

    Raises ``TypeError`` when ``request`` is not exactly a
    ``CourseModelRequest`` (a subclass could carry mutable state) or
    ``signal`` is not an ``AbortSignal``, and ``RuntimeError`` when no event
    loop is running (production is a task on it). ``model`` names the class
    in the messages.
    """
    if type(request) is not CourseModelRequest:
        raise TypeError(f"request: expected a CourseModelRequest, got {type_name(request)}")
    if not isinstance(signal, AbortSignal):
        raise TypeError(f"signal: expected an AbortSignal, got {type_name(signal)}")
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        raise RuntimeError(
            f"{model}.stream() needs a running event loop; call it from async code"
        ) from None


def invalid_transcript_message(request: CourseModelRequest) -> str | None:
    """Why ``request``'s transcript is not ready for a model call, or None when it is.

    Lists every issue ``validate_transcript`` finds, each with its code and
    message index: what a double with ``validate_requests=True`` fails with.
    """
    issues = validate_transcript(request.messages)
    if not issues:
        return None
    listed = "; ".join(
        f"messages[{issue.message_index}] {issue.code}: {issue.detail}"
        if issue.message_index is not None
        else f"{issue.code}: {issue.detail}"
        for issue in issues
    )
    return f"request {request.id!r} has an invalid transcript: {listed}"


class CallQueue(Generic[T]):
    """A double's finite FIFO queue of responses, with the calls it has seen.

    ``T`` is whatever one call plays (a scripted factory, a fixture response).
    Not thread-safe; use one event loop.
    """

    __slots__ = ("_call_count", "_calls", "_noun", "_queue", "_validate_requests")

    def __init__(self, items: Iterable[T], noun: str, *, validate_requests: bool = False) -> None:
        """A queue holding ``items`` in order; ``noun`` names them in messages (``"fixture"``).

        ``validate_requests`` makes `request_problem` check each transcript.
        Raises ``TypeError`` when it is not a ``bool``.
        """
        if type(validate_requests) is not bool:
            raise TypeError(
                f"validate_requests: expected a bool, got {type_name(validate_requests)}"
            )
        self._queue: deque[T] = deque(items)
        self._calls: list[ModelCall] = []
        self._call_count = 0
        self._noun = noun
        self._validate_requests = validate_requests

    @property
    def call_count(self) -> int:
        """How many calls were accepted, including aborted and exhausted ones."""
        return self._call_count

    @property
    def pending_count(self) -> int:
        """How many responses are still queued (one leaves once a call takes it)."""
        return len(self._queue)

    @property
    def requests(self) -> tuple[CourseModelRequest, ...]:
        """Every accepted request, in call order, as a new tuple each time."""
        return tuple(call.request for call in self._calls)

    @property
    def calls(self) -> tuple[ModelCall, ...]:
        """Every accepted call, its request and options, in call order, as a new tuple each time."""
        return tuple(self._calls)

    def accept(self, request: CourseModelRequest, options: CallOptions = NO_OPTIONS) -> int:
        """Capture ``request`` with ``options`` and count the call; return its number (from 1).

        Raises what `ModelCall` raises for them; nothing is captured or counted then.
        """
        self._calls.append(ModelCall(request, options))
        self._call_count += 1
        return self._call_count

    def request_problem(self, request: CourseModelRequest) -> str | None:
        """With ``validate_requests``: why ``request``'s transcript is invalid, or None.

        Always None when the queue was made without ``validate_requests``.
        """
        if not self._validate_requests:
            return None
        return invalid_transcript_message(request)

    def peek(self) -> T | None:
        """The oldest queued response, left in the queue; None when it is empty."""
        queue = self._queue
        return queue[0] if queue else None

    def take(self) -> T | None:
        """The oldest queued response, removed from the queue; None when it is empty."""
        queue = self._queue
        return queue.popleft() if queue else None

    def replace(self, items: Iterable[T]) -> None:
        """Replace every queued response with ``items`` (already validated by the caller)."""
        self._queue.clear()
        self._queue.extend(items)

    def append(self, item: T) -> None:
        """Queue ``item`` after the others."""
        self._queue.append(item)

    def exhausted_message(self, call_number: int, request: CourseModelRequest) -> str:
        """What a call that found the queue empty says: which call, which request."""
        return (
            f"call {call_number} (request {request.id!r}) found no {self._noun} response "
            "left; a double never invents an answer"
        )

    def assert_consumed(self, where: Callable[[T], str] | None = None) -> None:
        """Raise ``AssertionError`` when queued responses were never played.

        A double that is only partly played usually means the code under test
        asked the model fewer times than the test expected. ``where``, when
        given, says where the first unplayed response comes from.
        """
        left = len(self._queue)
        if not left:
            return
        message = f"{left} {self._noun} response(s) never played after {self._call_count} call(s)"
        if where is not None:
            message += f"; the first unplayed is {where(self._queue[0])}"
        raise AssertionError(message)


class QueuedDouble(Generic[T]):
    """The public face both doubles share: their counts and captured requests, from a `CallQueue`.

    A subclass sets ``_calls`` in its ``__init__``.
    """

    __slots__ = ("_calls",)

    _calls: CallQueue[T]

    @property
    def call_count(self) -> int:
        """How many calls ``stream`` accepted, including aborted, failed and exhausted ones."""
        return self._calls.call_count

    @property
    def pending_response_count(self) -> int:
        """How many responses are still queued (one leaves once its call starts playing it)."""
        return self._calls.pending_count

    @property
    def requests(self) -> tuple[CourseModelRequest, ...]:
        """Every captured request, in call order, as a new tuple each time."""
        return self._calls.requests


# Names re-exported from the private module carry this public one, as the package's do.
ModelCall.__module__ = call_options.__module__ = __name__
