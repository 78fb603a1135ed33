"""Count how often each stream an adapter makes is settled.

A second ``finish``/``fail`` raises ``EventStreamStateError`` inside the
producer, where ``run_producer`` would swallow it (the stream is already
done), so "settles exactly once" cannot be seen from the consumer side. The
adapters build their streams through the ``EventStream`` name of their own
module; :func:`counting_streams` swaps in a subclass that counts every
terminal call, including the ones that raise.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from types import ModuleType
from typing import Any, TypeVar
from unittest import mock

from course_stream import EventStream

__all__ = ["CountingEventStream", "counting_streams"]

E = TypeVar("E")
R = TypeVar("R")


class CountingEventStream(EventStream[E, R]):
    """An EventStream that remembers every instance and counts its terminal calls."""

    __slots__ = ("terminal_calls",)

    made: list[CountingEventStream[Any, Any]] = []  # noqa: RUF012

    def __init__(self) -> None:
        super().__init__()
        self.terminal_calls = 0
        CountingEventStream.made.append(self)

    def finish(self, result: R) -> None:
        self.terminal_calls += 1
        super().finish(result)

    def fail(self, error: BaseException) -> None:
        self.terminal_calls += 1
        super().fail(error)


@contextlib.contextmanager
def counting_streams(module: ModuleType) -> Iterator[list[CountingEventStream[Any, Any]]]:
    """Make ``module`` build `CountingEventStream`s; yield the list of those it made."""
    made: list[CountingEventStream[Any, Any]] = []
    with (
        mock.patch.object(CountingEventStream, "made", made),
        mock.patch.object(module, "EventStream", CountingEventStream),
    ):
        yield made
