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
      as long as bytes keep arriving); the recorded transport applies it to
      a stalled recorded response;
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

A replay has no network to wait for: the only long read is a recorded
``"stalled"`` response (or a fault's delay), which fails with
``HTTP_TIMEOUT`` once ``read`` has passed. The live default (600 s) would
let a test that now reads past where its recording stopped hold CI for ten
minutes; an abort still ends the wait at once.
"""
