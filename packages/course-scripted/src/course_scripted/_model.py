"""ScriptedModel: a finite FIFO queue of response factories behind the CourseModel port."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Self, cast

from course_protocol import CourseModelChunk, CourseModelRequest, CourseModelResponse
from course_protocol.calls import (
    NO_OPTIONS,
    CallOptions,
    CallQueue,
    ModelCall,
    QueuedDouble,
    call_options,
    check_stream_call,
)
from course_protocol.untrusted import sequence_snapshot, type_name
from course_scripted._errors import ScriptedModelError, ScriptedModelErrorCode
from course_scripted._producer import ScriptedResponseFactory, play_factory
from course_stream import AbortSignal, EventStream, run_producer

__all__ = ["ScriptedModel"]


class ScriptedModel(QueuedDouble[ScriptedResponseFactory]):
    """A deterministic model double: each call plays the next scripted factory.

    The test decides every response before execution. Each ``stream`` call
    captures its request and counts itself, then (unless the signal is
    already aborted) takes the oldest queued factory and plays it. An empty
    queue fails the call with ``SCRIPT_EXHAUSTED``: there is no default
    answer, so an unexpected extra model turn is always visible.

    A loop that changes options between turns with ``model.with_config(...)``,
    as it does on a vendor model, runs on it unchanged: `with_config`
    derives a double that plays the same script and records into the same
    capture, and `calls` says which options each call had.

    Not thread-safe; use one event loop.
    """

    __slots__ = ("__weakref__", "_options")

    def __init__(
        self,
        responses: Sequence[ScriptedResponseFactory] = (),
        *,
        validate_requests: bool = False,
    ) -> None:
        """Create a model whose queue holds ``responses`` in order.

        ``validate_requests=True`` runs ``validate_transcript`` on every
        request before anything is played: a request whose transcript has
        issues (a Tool call without its result, an orphan result, ...) fails
        with ``SCRIPT_INVALID_REQUEST``, listing each issue with its message
        index; the call is counted and captured and the factory stays queued.

        Raises ``TypeError`` when ``responses`` is not a list or tuple, when
        one of its elements is not callable (the message names it, as
        ``responses[2]``), or when ``validate_requests`` is not a ``bool``.
        """
        self._calls: CallQueue[ScriptedResponseFactory] = CallQueue(
            _factories(responses), "scripted", validate_requests=validate_requests
        )
        self._options: CallOptions = NO_OPTIONS

    @property
    def options(self) -> CallOptions:
        """The options each call of this model records: empty unless `with_config` made it."""
        return self._options

    @property
    def calls(self) -> tuple[ModelCall, ...]:
        """Every captured call, its request and options, in call order, as a new tuple each time.

        One capture for a model and every model `with_config` derives from
        it, at any remove, as ``requests`` and ``call_count`` are; so
        ``model.calls[-1].options["temperature"]`` is what the loop's last
        call ran with, whichever model it called.
        """
        return self._calls.calls

    def with_config(self, **changes: object) -> Self:
        """A model playing this one's script whose calls record `options` updated with ``changes``.

        Stands in for a vendor model's ``with_config``, which returns a model
        whose configuration is ``dataclasses.replace(config, **changes)``:
        the derived model shares this one's queue, captured calls, counts
        and ``validate_requests`` (a factory queued on either is played by
        either, and ``assert_consumed`` on either checks the one script); it
        differs only in the options it records, this one's with ``changes``
        applied. A double knows no vendor's configuration, so names and
        values are not checked against one, only made immutable (see
        ``course_protocol.calls.call_options``): a ``dict`` or ``list`` value
        is snapshotted, any other value must be hashable.

        Raises ``TypeError`` naming the option (``options.extra_body``) for a
        name that is not an identifier or a value that is mutable, not
        finite, cyclic or nested too deep.
        """
        options = call_options(changes, self._options)
        # A shallow copy: the one queue and capture, shared by reference.
        derived = copy.copy(self)
        derived._options = options
        return derived

    def set_responses(self, responses: Sequence[ScriptedResponseFactory]) -> None:
        """Replace every queued factory with ``responses``, in order.

        Validates the whole replacement first: on ``TypeError`` (not a list or
        tuple, or an element that is not callable) the queue is untouched.
        Calls already under way keep the factory they took.
        """
        self._calls.replace(_factories(responses))

    def append_response(self, factory: ScriptedResponseFactory) -> None:
        """Queue ``factory`` after the others.

        Raises ``TypeError`` when it is not callable; the queue is then untouched.
        """
        if not callable(factory):
            raise TypeError(f"response: expected a callable factory, got {type_name(factory)}")
        self._calls.append(factory)

    def assert_consumed(self) -> None:
        """Raise ``AssertionError`` when scripted responses were never played.

        A script that is only partly played usually means the code under test
        asked the model fewer times than the test expected.
        """
        self._calls.assert_consumed()

    def stream(
        self, request: CourseModelRequest, signal: AbortSignal
    ) -> EventStream[CourseModelChunk, CourseModelResponse]:
        """Start one scripted model call and return its stream.

        Synchronously: checks the arguments, captures ``request`` (protocol
        values are immutable, so the capture is the caller's object itself
        and no later mutation of the caller's inputs can reach it) and counts
        the call. Then production runs as one task on the running loop:
        a signal that is already aborted fails the stream with
        ``signal.reason`` and leaves the queue as it was; an empty queue
        fails it with ``SCRIPT_EXHAUSTED``; with ``validate_requests``, an
        invalid transcript fails it with ``SCRIPT_INVALID_REQUEST`` first;
        otherwise the oldest factory is taken and played (see
        ``ScriptedResponseFactory``).

        Raises ``TypeError`` when ``request`` is not exactly a
        ``CourseModelRequest`` or ``signal`` is not an ``AbortSignal``, and
        ``RuntimeError`` when no event loop is running; in those cases
        nothing is captured or counted.
        """
        check_stream_call("ScriptedModel", request, signal)
        calls = self._calls
        call_number = calls.accept(request, self._options)
        stream: EventStream[CourseModelChunk, CourseModelResponse] = EventStream()

        async def produce() -> None:
            problem = calls.request_problem(request)
            if problem is not None:
                raise ScriptedModelError(ScriptedModelErrorCode.SCRIPT_INVALID_REQUEST, problem)
            factory = calls.take()
            if factory is None:
                raise ScriptedModelError(
                    ScriptedModelErrorCode.SCRIPT_EXHAUSTED,
                    calls.exhausted_message(call_number, request)
                    + " (queue one with append_response() or set_responses())",
                )
            await play_factory(factory, request, signal, stream)

        run_producer(stream, signal, produce)
        return stream

    def __repr__(self) -> str:
        options = f", options={dict(self._options)!r}" if self._options else ""
        return (
            f"ScriptedModel(call_count={self._calls.call_count}, "
            f"pending_response_count={self._calls.pending_count}{options})"
        )


def _factories(responses: object) -> tuple[ScriptedResponseFactory, ...]:
    # Read through the base types' own C methods so that a list or tuple
    # subclass cannot show validation one sequence and the queue another.
    items = sequence_snapshot(responses)
    if items is None:
        raise TypeError(
            f"responses: expected a list or tuple of factories, got {type_name(responses)}"
            " (one-shot iterators are refused so the script is visible up front)"
        )
    for index, item in enumerate(items):
        if not callable(item):
            raise TypeError(
                f"responses[{index}]: expected a callable factory, got {type_name(item)}"
            )
    # Every element is callable; the signature beyond that is the factory's contract.
    return cast("tuple[ScriptedResponseFactory, ...]", items)
