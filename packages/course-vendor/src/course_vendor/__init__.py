"""TODO docstring."""

import inspect as _inspect

from course_vendor._event_errors import EventFailures, event_error, invalid_event
from course_vendor._event_json import (
    body_object,
    event_object,
    token_count,
    tool_arguments,
    usage_counts,
)
from course_vendor._stream_parser import OneChunkStreamParser, StreamParser
from course_vendor._text_pieces import TextPieces
from course_vendor._vendor_model import VendorModel, VendorPlay, VendorWire

__all__ = [
    "EventFailures",
    "OneChunkStreamParser",
    "StreamParser",
    "TextPieces",
    "VendorModel",
    "VendorPlay",
    "VendorWire",
    "body_object",
    "event_error",
    "event_object",
    "invalid_event",
    "token_count",
    "tool_arguments",
    "usage_counts",
]

# Exported names carry this public module: tracebacks and reprs never show a private one.
for _name in __all__:
    if isinstance(_value := globals()[_name], type) or _inspect.isfunction(_value):
        _value.__module__ = __name__
del _name, _value
