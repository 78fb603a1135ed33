"""The one exception ScriptedModel raises through its streams, and its codes."""

from __future__ import annotations

from enum import StrEnum, unique

from course_protocol import CourseError

__all__ = ["ScriptedModelError", "ScriptedModelErrorCode"]


@unique
class ScriptedModelErrorCode(StrEnum):
    """Why a scripted call failed. Each code means exactly one thing."""

    SCRIPT_EXHAUSTED = "SCRIPT_EXHAUSTED"
    """The queue held no response factory for this call; no default answer is invented."""

    SCRIPT_REQUEST_MISMATCH = "SCRIPT_REQUEST_MISMATCH"
    """A chunk or the response carried a request id other than the active request's."""

    SCRIPT_INVALID_RESPONSE = "SCRIPT_INVALID_RESPONSE"
    """The factory broke its contract: wrong output, no response, or output after it."""

    SCRIPT_ITERATOR_REUSED = "SCRIPT_ITERATOR_REUSED"
    """The factory returned an iterator that already served (or serves) another call."""

    SCRIPT_INVALID_REQUEST = "SCRIPT_INVALID_REQUEST"
    """With ``validate_requests=True``: the request's transcript fails ``validate_transcript``."""


class ScriptedModelError(CourseError):
    """A scripted call failed in a way the double detected itself.

    ``code`` is the stable, machine-readable reason; ``message`` says what was
    found and where (which call, which yielded item). Both the stream's
    iteration and its ``result`` raise the same instance.
    """

    code: ScriptedModelErrorCode

    def __init__(self, code: ScriptedModelErrorCode, message: str) -> None:
        super().__init__(ScriptedModelErrorCode(code), message)
