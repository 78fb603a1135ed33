"""The HTTP side of real providers behind the course port.

- `HttpRequest`, `HttpTransport` and its two implementations, `LiveTransport`
  (the network) and `RecordedTransport` (`RecordedResponse` bodies served
  in-process, no socket; `RecordedRequest` is what it saw sent), with their
  `Timeouts`; `stream_events` sends a request and yields its `SseEvent` s,
  translating every failure into a `VendorError`; a vendor adapter reads its
  error bodies with an `ErrorBodyReader` into a `VendorErrorBody`.
- `VendorError` and its `VendorErrorCode` set of stable codes: how every real
  provider adapter fails, before the stream (HTTP) and inside it (vendor events).
- `VendorModel`: the one ``CourseModel`` implementation every vendor adapter
  shares (key, transport, event loop, production); a vendor supplies its
  `VendorWire`, its request body and headers, and its parser (a `VendorPlay`):
  a `StreamParser` (or `OneChunkStreamParser`) subclass writes only what its
  events mean and how its stream ends.
- `SseDecoder`: the incremental server-sent-events framing under `stream_events`.
- `event_object`, `token_count`, `usage_counts`, `tool_arguments`: the
  vendor-neutral reads every vendor parser shares; `event_error` and
  `invalid_event`, the one shape of an event's error, and `EventFailures`,
  which binds it to one vendor; `body_object`, the reads' decoding for an
  error body's reader.
- `SECRET_HEADERS`: the header names whose values are credentials.

This is the only course package that imports an HTTP client. The loopback
test server is `course_http.loopback` (the ``serve`` extra), imported apart.
"""

from course_http._errors import VendorError, VendorErrorCode
from course_http._event_errors import EventFailures, event_error, invalid_event
from course_http._event_json import (
    body_object,
    event_object,
    token_count,
    tool_arguments,
    usage_counts,
)
from course_http._recorded import (
    Chunking,
    RecordedRequest,
    RecordedResponse,
    RecordedTransport,
    ResponseEnd,
)
from course_http._request import HttpRequest
from course_http._secrets import SECRET_HEADERS
from course_http._sse import DEFAULT_MAX_FRAME_LENGTH, SseDecoder, SseEvent
from course_http._status import ErrorBodyReader, VendorErrorBody, code_for_status
from course_http._stream import ERROR_BODY_LIMIT, stream_events
from course_http._stream_parser import OneChunkStreamParser, StreamParser
from course_http._timeouts import Timeouts
from course_http._transport import HttpTransport, LiveTransport
from course_http._vendor_model import VendorModel, VendorPlay, VendorWire

__all__ = [
    "DEFAULT_MAX_FRAME_LENGTH",
    "ERROR_BODY_LIMIT",
    "SECRET_HEADERS",
    "Chunking",
    "ErrorBodyReader",
    "EventFailures",
    "HttpRequest",
    "HttpTransport",
    "LiveTransport",
    "OneChunkStreamParser",
    "RecordedRequest",
    "RecordedResponse",
    "RecordedTransport",
    "ResponseEnd",
    "SseDecoder",
    "SseEvent",
    "StreamParser",
    "Timeouts",
    "VendorError",
    "VendorErrorBody",
    "VendorErrorCode",
    "VendorModel",
    "VendorPlay",
    "VendorWire",
    "body_object",
    "code_for_status",
    "event_error",
    "event_object",
    "invalid_event",
    "stream_events",
    "token_count",
    "tool_arguments",
    "usage_counts",
]
