"""What the ScriptedModel tests share: a one-line turn and its usage."""

from __future__ import annotations

from course_protocol import CourseModelUsage
from course_scripted import ScriptedResponseFactory, reply_text

__all__ = ["USAGE", "reply"]

USAGE = CourseModelUsage(input_tokens=1, output_tokens=2)


def reply(response_id: str) -> ScriptedResponseFactory:
    """A turn of one text delta saying ``response_id``, answered as ``response_id``.

    The answer's message id is ``m-<response_id>``; its usage is `USAGE`.
    """
    return reply_text(
        response_id, response_id=response_id, message_id=f"m-{response_id}", usage=USAGE
    )
