"""The ScriptedModel script for the demo: the same two turns the checked-in fixture records."""

from __future__ import annotations

from course_protocol import CourseModelUsage
from course_scripted import ScriptedResponseFactory, reply_text, reply_tool_call

__all__ = ["demo_script"]


def demo_script() -> tuple[ScriptedResponseFactory, ...]:
    """Fresh factories for the demo's two model calls, in order.

    First a call of ``add`` with ``{"left": 20, "right": 22}`` under the
    provider-style call id ``call-add-001``, then the text
    ``The sum is 42.``. Every id and usage value is the one the fixture
    adapter produces from ``provider-tool-roundtrip.json`` (message ids are
    ``message-<responseId>``), so both models print the same trace.
    """
    return (
        reply_tool_call(
            "call-add-001",
            "add",
            {"left": 20, "right": 22},
            response_id="response-tool-001",
            message_id="message-response-tool-001",
            usage=CourseModelUsage(input_tokens=12, output_tokens=8),
        ),
        reply_text(
            "The sum is 42.",
            response_id="response-text-002",
            message_id="message-response-text-002",
            usage=CourseModelUsage(input_tokens=20, output_tokens=6),
        ),
    )
