"""The port every model adapter implements."""

from __future__ import annotations

from typing import Protocol

from course_protocol._chunks import CourseModelChunk
from course_protocol._messages import CourseModelRequest
from course_protocol._response import CourseModelResponse
from course_stream import AbortSignal, EventStream

__all__ = ["CourseModel"]


class CourseModel(Protocol):
    """A language model behind the course boundary.

    ``stream`` does its synchronous boundary work (checking and capturing
    the request) before it returns, then produces on the running event loop:
    chunks in order through the returned stream's iteration, and exactly one
    terminal through ``stream.result`` (a ``CourseModelResponse``, or the
    adapter's typed error, which iteration raises too). An abort of
    ``signal`` fails both with ``signal.reason``.
    """

    def stream(
        self, request: CourseModelRequest, signal: AbortSignal
    ) -> EventStream[CourseModelChunk, CourseModelResponse]:
        """Start one model call for ``request``; see the class docstring."""
        ...
