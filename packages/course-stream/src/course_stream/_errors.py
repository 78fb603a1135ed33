"""The one exception type the stream primitives raise for misuse."""

from __future__ import annotations

__all__ = ["EventStreamStateError"]


class EventStreamStateError(RuntimeError):
    """An `EventStream` was used in a way its state does not allow.

    Raised for a producer call after the terminal call (the message contains
    "already terminal"), for a second concurrent consumer (the message contains
    "single consumer"), and by `run_producer` when ``produce`` returned without
    settling its stream.
    """
