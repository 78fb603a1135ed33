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
- Cassettes, for users' own tests: a `Cassette` of `CassetteCall` s (each
  request as sent, each response as received), recorded by
  `RecordingTransport` (redacted as a `Redaction` says, on top of what is
  always kept out), replayed by `CassetteTransport` with `RequestMatching`
  and `ReplayFault` s; files read with `load_cassette` (`loads_cassette`,
  `parse_cassette`) and written with `write_cassette` (`dumps_cassette`,
  `cassette_to_json`).
- `SseDecoder`: the incremental server-sent-events framing under `stream_events`.
- `TextPieces`: a streamed text (or Tool-argument text) kept piece by piece
  at about its own size, joined once, or compared with the vendor's whole
  text in place.
- `event_object`, `token_count`, `usage_counts`, `tool_arguments`: the
  vendor-neutral reads every vendor parser shares; `event_error` and
  `invalid_event`, the one shape of an event's error, and `EventFailures`,
  which binds it to one vendor; `ToolCallIds`, which refuses a Tool-call id
  given twice in one response; `body_object`, the reads' decoding for an
  error body's reader.
- `SECRET_HEADERS`: the header names whose values are credentials; `REDACTED`
  what a masked value becomes.

This is the only course package that imports an HTTP client. The loopback
test server is `course_http.loopback` (the ``serve`` extra), imported apart.
"""

import inspect as _inspect

from course_http._cassette import (
    CASSETTE_VERSION,
    CASSETTE_VERSION_KEY,
    Cassette,
    CassetteCall,
    MatchOn,
    Redaction,
    RequestMatching,
)
from course_http._cassette_file import (
    dumps_cassette,
    load_cassette,
    loads_cassette,
    write_cassette,
)
from course_http._cassette_json import cassette_to_json, parse_cassette
from course_http._errors import VendorError, VendorErrorCode
from course_http._event_errors import EventFailures, event_error, invalid_event
from course_http._event_json import (
    body_object,
    event_object,
    token_count,
    tool_arguments,
    usage_counts,
)
from course_http._faults import AppliedFault, FaultKind, ReplayFault
from course_http._recorded import (
    Chunking,
    RecordedRequest,
    RecordedResponse,
    RecordedTransport,
    ResponseEnd,
)
from course_http._recording import RecordingTransport
from course_http._redaction import KEPT_REQUEST_HEADERS, KEPT_RESPONSE_HEADERS, MASKED_QUERY_KEYS
from course_http._replay import CassetteTransport
from course_http._request import HttpRequest
from course_http._secrets import REDACTED, SECRET_HEADERS
from course_http._sse import DEFAULT_MAX_FRAME_LENGTH, SseDecoder, SseEvent
from course_http._status import ErrorBodyReader, VendorErrorBody, code_for_status
from course_http._stream import ERROR_BODY_LIMIT, stream_events
from course_http._stream_parser import OneChunkStreamParser, StreamParser
from course_http._text_pieces import TextPieces
from course_http._timeouts import REPLAY_TIMEOUTS, Timeouts
from course_http._tool_call_ids import ToolCallIds
from course_http._transport import HttpTransport, LiveTransport
from course_http._vendor_model import VendorModel, VendorPlay, VendorWire

__all__ = [
    "CASSETTE_VERSION",
    "CASSETTE_VERSION_KEY",
    "DEFAULT_MAX_FRAME_LENGTH",
    "ERROR_BODY_LIMIT",
    "KEPT_REQUEST_HEADERS",
    "KEPT_RESPONSE_HEADERS",
    "MASKED_QUERY_KEYS",
    "REDACTED",
    "REPLAY_TIMEOUTS",
    "SECRET_HEADERS",
    "AppliedFault",
    "Cassette",
    "CassetteCall",
    "CassetteTransport",
    "Chunking",
    "ErrorBodyReader",
    "EventFailures",
    "FaultKind",
    "HttpRequest",
    "HttpTransport",
    "LiveTransport",
    "MatchOn",
    "OneChunkStreamParser",
    "RecordedRequest",
    "RecordedResponse",
    "RecordedTransport",
    "RecordingTransport",
    "Redaction",
    "ReplayFault",
    "RequestMatching",
    "ResponseEnd",
    "SseDecoder",
    "SseEvent",
    "StreamParser",
    "TextPieces",
    "Timeouts",
    "ToolCallIds",
    "VendorError",
    "VendorErrorBody",
    "VendorErrorCode",
    "VendorModel",
    "VendorPlay",
    "VendorWire",
    "body_object",
    "cassette_to_json",
    "code_for_status",
    "dumps_cassette",
    "event_error",
    "event_object",
    "invalid_event",
    "load_cassette",
    "loads_cassette",
    "parse_cassette",
    "stream_events",
    "token_count",
    "tool_arguments",
    "usage_counts",
    "write_cassette",
]

# Exported names carry this public module: tracebacks and reprs never show a private one.
for _name in __all__:
    if isinstance(_value := globals()[_name], type) or _inspect.isfunction(_value):
        _value.__module__ = __name__
del _name, _value
