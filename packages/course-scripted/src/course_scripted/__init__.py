"""ScriptedModel: a deterministic, finite FIFO model double for the CourseModel port.

A test queues response factories; each model call plays the next one, and
every id, chunk, usage value and stop reason comes from the test. An empty
queue fails closed with ``SCRIPT_EXHAUSTED``: no default answer, ever.
"""

import inspect as _inspect

from course_scripted._errors import ScriptedModelError, ScriptedModelErrorCode
from course_scripted._factories import reply_chunks, reply_error, reply_text, reply_tool_call
from course_scripted._model import ScriptedModel
from course_scripted._producer import ScriptedResponseFactory

__all__ = [
    "ScriptedModel",
    "ScriptedModelError",
    "ScriptedModelErrorCode",
    "ScriptedResponseFactory",
    "reply_chunks",
    "reply_error",
    "reply_text",
    "reply_tool_call",
]

# Exported names carry this public module: tracebacks and reprs never show a private one.
for _name in __all__:
    if isinstance(_value := globals()[_name], type) or _inspect.isfunction(_value):
        _value.__module__ = __name__
del _name, _value
