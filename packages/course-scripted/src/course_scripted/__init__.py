"""ScriptedModel: a deterministic, finite FIFO model double for the CourseModel port.

A test queues response factories; each model call plays the next one, and
every id, chunk, usage value and stop reason comes from the test. An empty
queue fails closed with ``SCRIPT_EXHAUSTED``: no default answer, ever.
"""

from course_scripted._errors import ScriptedModelError, ScriptedModelErrorCode
from course_scripted._factories import reply_error, reply_text, reply_tool_call
from course_scripted._model import ScriptedModel
from course_scripted._producer import ScriptedResponseFactory

__all__ = [
    "ScriptedModel",
    "ScriptedModelError",
    "ScriptedModelErrorCode",
    "ScriptedResponseFactory",
    "reply_error",
    "reply_text",
    "reply_tool_call",
]
