"""What judges a body as its bytes pass: `BodyJudge`, the strict check under a played body."""

from __future__ import annotations

from typing import Protocol

from course_http._errors import VendorError

__all__ = ["BodyJudge"]


class BodyJudge(Protocol):
    """One response body judged as its bytes pass, with no event loop: a stream's strict check.

    `feed_bytes` judges what the next chunk of the body completes, `close`
    the end of the body; each returns the first problem found so far (a
    `VendorError` located at its event), or ``None``, and neither raises for
    what the body holds. A judge that found a problem keeps returning it.
    `finished` says that the stream's terminal event was judged: the stream
    is complete whatever follows it. ``course_vendor.StreamJudge`` is one
    (a wire's grammar over its framing).
    """

    @property
    def finished(self) -> bool:
        """Whether the stream's terminal event was judged."""
        ...

    def feed_bytes(self, chunk: bytes) -> VendorError | None:
        """Judge what ``chunk``, the next piece of the body, completes; the first problem so far."""
        ...

    def close(self) -> VendorError | None:
        """Judge the end of the body: the first problem of the whole body, or ``None``."""
        ...
