"""The text of one frame or element still arriving, bounded in length: `PendingText`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias, final

from course_http import VendorError

__all__ = ["Fail", "PendingText"]

Fail: TypeAlias = Callable[[str, int], VendorError]
"""The decoder's ``VENDOR_INVALID_EVENT`` for a message, given the events completed before it."""


@final
class PendingText:
    """The pieces of a frame or element received so far, at most ``limit`` characters in all."""

    __slots__ = ("_length", "_parts", "limit")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._parts: list[str] = []
        self._length = 0

    def __bool__(self) -> bool:
        return bool(self._parts)

    @property
    def length(self) -> int:
        """The number of characters held."""
        return self._length

    def ends_with_newline(self) -> bool:
        """Whether the text held so far ends in ``\\n``."""
        return bool(self._parts) and self._parts[-1][-1:] == "\n"

    def hold(self, piece: str, fail: Fail, events_before: int) -> None:
        """Keep ``piece``; raise ``fail``'s error when the text held grows past `limit`."""
        self._parts.append(piece)
        self._length += len(piece)
        if self._length > self.limit:
            raise self.too_long(fail, events_before)

    def take(self, last: str) -> str:
        """The text held followed by ``last``, and nothing held any more."""
        self._parts.append(last)
        text = "".join(self._parts)
        self._parts = []
        self._length = 0
        return text

    def too_long(self, fail: Fail, events_before: int) -> VendorError:
        """The error for a frame or element longer than `limit`."""
        return fail(f"a frame is longer than {self.limit} characters", events_before)
