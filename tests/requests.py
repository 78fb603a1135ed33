"""What most tests hand a model's ``stream()``: a one-message request and a live signal."""

from __future__ import annotations

from course_protocol import CourseModelRequest, CourseUserMessage
from course_stream import AbortController, AbortSignal

__all__ = ["live_signal", "request"]


def request(
    request_id: str = "request-1", text: str = "Go.", *, message_id: str | None = None
) -> CourseModelRequest:
    """A request of one user message saying ``text``.

    The message's id is ``message_id``, or ``message-<request_id>`` when it
    is not given.
    """
    return CourseModelRequest(
        id=request_id,
        messages=(
            CourseUserMessage(
                id=f"message-{request_id}" if message_id is None else message_id, content=text
            ),
        ),
    )


def live_signal() -> AbortSignal:
    """The signal of a controller nobody keeps: it is never aborted."""
    return AbortController().signal
