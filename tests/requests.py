"""The model request most tests send: one user message, with ids derived from the request id."""

from __future__ import annotations

from course_protocol import CourseModelRequest, CourseUserMessage

__all__ = ["request"]


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
