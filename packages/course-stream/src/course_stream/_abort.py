"""AbortController / AbortSignal / AbortError: the course's cancellation signal for asyncio."""

from __future__ import annotations

import asyncio
import math
import weakref
from collections.abc import Callable, Iterable

from course_stream._unraisable import report_unraisable

__all__ = ["AbortController", "AbortError", "AbortSignal"]

AbortListener = Callable[[], object]


class AbortError(Exception):
    """The default abort reason: an abort was requested without a reason of its own.

    An ordinary `Exception`, deliberately not `asyncio.CancelledError`: an aborted
    operation is an error the caller handles, not a cancellation of the caller's task.
    """


class AbortSignal:
    """Tells an operation whether, and why, it should stop.

    Obtain one from `AbortController.signal`, `AbortSignal.aborted_signal`,
    `AbortSignal.timeout` or `AbortSignal.any`; a bare ``AbortSignal()`` never aborts.
    A signal aborts at most once; it is bound to no event loop (except the timer of
    `AbortSignal.timeout`) and is not thread-safe.
    """

    __slots__ = ("__weakref__", "_aborted", "_listeners", "_reason")

    def __init__(self) -> None:
        self._aborted = False
        self._reason: BaseException | None = None
        # A dict is an ordered set: registration order, O(1) removal, no duplicates.
        self._listeners: dict[AbortListener, None] = {}

    def __repr__(self) -> str:
        if self._aborted:
            return f"<AbortSignal aborted reason={self._reason!r}>"
        return f"<AbortSignal listeners={len(self._listeners)}>"

    @property
    def aborted(self) -> bool:
        """True once the signal has aborted."""
        return self._aborted

    @property
    def reason(self) -> BaseException | None:
        """The exception to raise for the abort; None before the abort.

        It is the reason given to the abort, or ``AbortError("The operation was
        aborted")`` when none was given; the same object on every access.
        """
        return self._reason

    def abort_reason(self) -> BaseException:
        """The reason of a signal that has aborted (see `reason`), never None.

        For code that already knows the signal aborted (an abort listener, a
        branch after `aborted`). Raises `RuntimeError` if it has not aborted.
        """
        reason = self._reason
        if reason is None:
            raise RuntimeError("abort_reason() on an AbortSignal that has not aborted")
        return reason

    def throw_if_aborted(self) -> None:
        """Raise `reason` if the signal has aborted; otherwise do nothing."""
        if self._aborted:
            raise self.abort_reason()

    def add_listener(self, callback: AbortListener) -> None:
        """Call ``callback()`` once, synchronously, when the signal aborts.

        Listeners run in registration order. Adding a listener that is already
        registered (compared by equality, so bound methods work) does nothing; a
        listener added after the abort is never called. A listener that raises does
        not stop the others; its exception goes to `sys.unraisablehook`.
        Raises `TypeError` if ``callback`` is not callable or not hashable.
        """
        if not callable(callback):
            raise TypeError(f"abort listener must be callable, got {type(callback).__name__}")
        if self._aborted:
            return
        self._listeners[callback] = None

    def remove_listener(self, callback: AbortListener) -> None:
        """Unregister ``callback``; removing an unknown listener does nothing."""
        self._listeners.pop(callback, None)

    @classmethod
    def aborted_signal(cls, reason: BaseException | None = None) -> AbortSignal:
        """Return a signal that is already aborted with ``reason``.

        Raises `TypeError` if ``reason`` is neither None nor a `BaseException` instance.
        """
        signal = cls()
        signal._abort(_checked_reason(reason))
        return signal

    @classmethod
    def timeout(cls, seconds: float) -> AbortSignal:
        """Return a signal that aborts with `TimeoutError` after ``seconds``.

        Needs a running event loop: the timer is ``loop.call_later`` on it (raises
        `RuntimeError` otherwise). The timer holds the signal only weakly and is
        cancelled when the signal is garbage-collected, so a forgotten timeout
        signal keeps nothing alive. Raises `TypeError` for a non-number and
        `ValueError` for a negative or non-finite ``seconds``.
        """
        if isinstance(seconds, bool) or not isinstance(seconds, int | float):
            raise TypeError(f"timeout seconds must be a number, got {type(seconds).__name__}")
        if not math.isfinite(seconds) or seconds < 0:
            raise ValueError(f"timeout seconds must be finite and >= 0, got {seconds!r}")
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            raise RuntimeError(
                "AbortSignal.timeout() needs a running event loop: call it from async code"
            ) from None
        signal = cls()
        handle = loop.call_later(seconds, _fire_timeout, weakref.ref(signal), seconds)
        weakref.finalize(signal, handle.cancel)
        return signal

    @classmethod
    def any(cls, signals: Iterable[AbortSignal]) -> AbortSignal:
        """Return a signal that aborts when the first of ``signals`` aborts, with its reason.

        If one of ``signals`` is already aborted, the result is returned already
        aborted with the reason of the first such signal. The sources hold the
        combined signal only weakly, and their listeners are removed once it aborts
        or is collected. Raises `TypeError` if an element is not an `AbortSignal`.
        """
        sources = tuple(signals)
        for index, source in enumerate(sources):
            if not isinstance(source, AbortSignal):
                raise TypeError(
                    f"AbortSignal.any() takes AbortSignal objects; signals[{index}] is "
                    f"{type(source).__name__}"
                )
        for source in sources:
            if source._aborted:
                return cls.aborted_signal(source._reason)
        combined = cls()
        target = weakref.ref(combined)
        links = tuple((source, _Follow(target, source)) for source in sources)
        detach = weakref.finalize(combined, _detach, links)
        combined._listeners[detach] = None
        for source, follow in links:
            source._listeners[follow] = None
        return combined

    def _abort(self, reason: BaseException | None) -> None:
        if self._aborted:
            return
        self._aborted = True
        self._reason = AbortError("The operation was aborted") if reason is None else reason
        listeners = self._listeners
        for callback in tuple(listeners):
            # A listener removed by an earlier one during this dispatch is skipped.
            if callback not in listeners:
                continue
            del listeners[callback]
            try:
                callback()
            except BaseException as error:
                report_unraisable(error, "Exception ignored in abort listener", callback)
        listeners.clear()


class AbortController:
    """Owns one `AbortSignal` and is the only way to abort it."""

    __slots__ = ("_signal",)

    def __init__(self) -> None:
        self._signal = AbortSignal()

    def __repr__(self) -> str:
        return f"<AbortController signal={self._signal!r}>"

    @property
    def signal(self) -> AbortSignal:
        """The signal this controller aborts (the same object every time)."""
        return self._signal

    def abort(self, reason: BaseException | None = None) -> None:
        """Abort the signal with ``reason`` and run its listeners; idempotent.

        The first abort wins: later calls change nothing. Listener failures never
        propagate out of this call. Raises `TypeError` if ``reason`` is neither None
        nor a `BaseException` instance (even after the abort).
        """
        self._signal._abort(_checked_reason(reason))


class _Follow:
    """A source signal's listener that aborts one combined signal, held weakly."""

    __slots__ = ("_source", "_target")

    def __init__(self, target: weakref.ref[AbortSignal], source: AbortSignal) -> None:
        self._target = target
        self._source = source

    def __call__(self) -> None:
        target = self._target()
        if target is not None:
            target._abort(self._source._reason)


def _detach(links: tuple[tuple[AbortSignal, _Follow], ...]) -> None:
    for source, follow in links:
        source.remove_listener(follow)


def _fire_timeout(target: weakref.ref[AbortSignal], seconds: float) -> None:
    signal = target()
    if signal is not None:
        signal._abort(TimeoutError(f"The operation timed out after {seconds} seconds"))


def _checked_reason(reason: object) -> BaseException | None:
    if reason is None or isinstance(reason, BaseException):
        return reason
    raise TypeError(
        f"abort reason must be None or a BaseException instance, got {type(reason).__name__}"
    )
