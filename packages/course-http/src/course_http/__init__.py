"""The HTTP side of real providers behind the course port.

- `VendorError` and its `VendorErrorCode` set of stable codes: how every real
  provider adapter fails, before the stream (HTTP) and inside it (vendor events).
- `SseEvent`: one server-sent event, as the vendor parsers receive it.
- `event_object`, `token_count`, `tool_arguments`, `invalid_event`: the
  vendor-neutral reads every vendor parser shares.

This is the only course package that imports an HTTP client.
"""

from course_http._errors import VendorError, VendorErrorCode
from course_http._event_json import event_object, invalid_event, token_count, tool_arguments
from course_http._sse import SseEvent

__all__ = [
    "SseEvent",
    "VendorError",
    "VendorErrorCode",
    "event_object",
    "invalid_event",
    "token_count",
    "tool_arguments",
]
