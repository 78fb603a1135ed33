"""ClosedOnExit: what makes a transport or a model usable as ``async with``."""

from __future__ import annotations

from abc import ABC, abstractmethod
from types import TracebackType
from typing import Self

__all__ = ["ClosedOnExit"]


class ClosedOnExit(ABC):
    """An object whose ``async with`` block ends with `aclose`, however the block ends."""

    @abstractmethod
    async def aclose(self) -> None:
        """Release what the object holds; calling it again does nothing."""

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()
