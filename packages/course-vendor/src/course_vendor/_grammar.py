"""WireGrammar: one wire's whole documented stream language, read strictly and apart from the port.

A wire has two halves. Its grammar (this base) judges what the vendor sent:
every event kind the vendor documents, whether or not the course protocol
can carry it. Its mapping (`WireMapping`) turns the grammar's validated
events into course chunks and refuses what the port cannot carry. The
cassettes' strict check, ``course check --wire`` and the benchmarks run the
grammar alone; a model runs both.

A grammar is a synchronous fold: frames in, validated events out, and at the
end a typed, immutable result of what the stream said. It never starts an
event loop, a thread or an HTTP client, so judging one recorded body costs
about what decoding its frames costs.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Generic, TypeAlias, TypeVar, final

from course_http import SseEvent, VendorError

__all__ = ["WireEvent", "WireGrammar"]

R = TypeVar("R")

WireEvent: TypeAlias = dict[str, Any]
"""One event as a grammar let it pass: the frame's decoded JSON object.

Every field the grammar reads has been checked against the vendor's
documented types and order, so the wire's mapping reads it without checking
again. Nobody mutates it: the mapping only reads."""


class WireGrammar(ABC, Generic[R]):
    """One streamed body of one wire, judged one frame at a time; ``R`` is its result type.

    A subclass writes `_read` (judge one frame, return its validated event)
    and `_result` (the result once the body ended: the vendor-level value of
    what the stream said, or the ``VENDOR_MISSING_TERMINAL`` of a body that
    ended too soon); it sets ``_terminal`` once the vendor's terminal event
    was read. The contract, the same for every wire:

    - `feed` and `end` raise `course_http.VendorError` with the wire's name
      and ``event_index``: ``VENDOR_INVALID_EVENT`` (not JSON, a field of
      the wrong type), ``VENDOR_UNKNOWN_EVENT`` (an event, block, item or
      part kind the vendor does not document), ``VENDOR_EVENT_ORDER`` (an
      order the vendor never produces, anything after the terminal),
      ``VENDOR_INVALID_TOOL_ARGUMENTS`` (a Tool call's arguments that are not
      a JSON object), ``VENDOR_MISSING_TERMINAL`` (a body that ended before
      its terminal event);
    - **after the first error the grammar is spent**: every later `feed` or
      `end` raises that same error object again and reads nothing;
    - `finished` says that the vendor's terminal event was read.

    What the vendor documents as optional is accepted; what the course
    protocol can or cannot carry is not a grammar's concern. The vendor's
    own in-stream error event is on the grammar: it ends the stream as the
    vendor documents (the result says the error), and the mapping fails
    the call with ``VENDOR_ERROR_EVENT`` at that event.
    """

    __slots__ = ("_failure", "_terminal")

    def __init__(self) -> None:
        self._failure: VendorError | None = None
        self._terminal = False

    @property
    def finished(self) -> bool:
        """Whether the wire's terminal event was read."""
        return self._terminal

    @property
    def failure(self) -> VendorError | None:
        """The error that spent the grammar, or ``None`` while it judged every frame fed."""
        return self._failure

    @final
    def feed(self, frame: SseEvent, index: int) -> WireEvent | None:
        """Judge frame number ``index``; return its validated event (``None``: nothing to map).

        ``None`` is for a frame that carries no event of the vendor's (a
        keep-alive, an end marker such as ``[DONE]``). Raises
        `course_http.VendorError` for a frame off the grammar, and, once the
        grammar has raised, that same error again without reading ``frame``.
        """
        if self._failure is not None:
            raise self._failure
        try:
            return self._read(frame, index)
        except VendorError as error:
            # A half-applied frame leaves the fold torn: nothing may follow.
            self._failure = error
            raise

    @final
    def end(self, frame_count: int) -> R:
        """The result, once the body ended after ``frame_count`` frames.

        Raises `course_http.VendorError` ``VENDOR_MISSING_TERMINAL``
        (``event_index`` = ``frame_count``) when the terminal event never came,
        and the error the grammar raised before, if it did.
        """
        if self._failure is not None:
            raise self._failure
        try:
            return self._result(frame_count)
        except VendorError as error:
            self._failure = error
            raise

    @abstractmethod
    def _read(self, frame: SseEvent, index: int) -> WireEvent | None:
        """Judge frame number ``index``; set ``_terminal`` at the terminal event.

        Raises `course_http.VendorError` for a frame off the grammar.
        """

    @abstractmethod
    def _result(self, frame_count: int) -> R:
        """The result of the whole body, or raise why it has none (``VENDOR_MISSING_TERMINAL``)."""
