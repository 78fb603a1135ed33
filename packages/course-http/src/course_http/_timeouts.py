"""How long a transport waits: `Timeouts`, one limit per phase of a call."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final, final

__all__ = ["REPLAY_TIMEOUTS", "Timeouts"]


@final
@dataclass(frozen=True, slots=True)
class Timeouts:
    """The limits, in seconds, a transport puts on each phase of a call; ``None`` means no limit.

    - ``connect``: to open the connection (name resolution, TCP, TLS);
    - ``read``: the longest wait for the next bytes of the response, its
      headers or any part of its body (a stream may last longer in total,
      as long as bytes keep arriving); a replaying transport fails a pause
      longer than it at once, and a stalled recorded response whatever it is;
    - ``write``: to send the request;
    - ``pool``: to get a connection from the pool.

    Any of them expiring fails the call with ``HTTP_TIMEOUT``. Nothing is
    retried. Raises ``TypeError`` or ``ValueError`` for a limit that is not
    a positive finite number (or ``None``).
    """

    connect: float | None = 10.0
    read: float | None = 600.0
    write: float | None = 30.0
    pool: float | None = 10.0

    def __post_init__(self) -> None:
        for name in ("connect", "read", "write", "pool"):
            value = getattr(self, name)
            if value is None:
                continue
            if type(value) not in (int, float):
                raise TypeError(
                    f"Timeouts.{name} must be a number or None, not {type(value).__name__}"
                )
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"Timeouts.{name} must be positive and finite, got {value!r}")


REPLAY_TIMEOUTS: Final = Timeouts(read=10.0)
"""The replaying transports' limits unless given: a read waits 10 s at most.

A replay has no network to wait for: a recorded ``"stalled"`` response fails
with ``HTTP_TIMEOUT`` at once, and a fault's delay longer than ``read``
fails so at once too; only a shorter delay is waited for. The live default
(600 s) would let such a delay hold CI for ten minutes.
"""
