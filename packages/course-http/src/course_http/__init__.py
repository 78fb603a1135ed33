"""The network edge of real providers behind the course port.

- `HttpRequest` (whose headers may not be the `TRANSPORT_HEADERS`, which the
  transport sets), `HttpTransport` and its two implementations, `LiveTransport`
  (the network; `NetworkExchange` is the same network as an httpx2
  transport, for a transport that wraps it) and `RecordedTransport`
  (`RecordedResponse` bodies served in-process, no socket; `RecordedRequest`
  is what it saw sent), with their `Timeouts` (`REPLAY_TIMEOUTS` for
  replays); `stream_events` sends a request through `HttpTransport.open`
  and yields its `SseEvent` s, translating every failure into a
  `VendorError`; a vendor adapter reads its error bodies with an
  `ErrorBodyReader` into a `VendorErrorBody` (`code_for_status` maps a status).
- `VendorError` and its `VendorErrorCode` set of stable codes: how every real
  provider adapter fails, before the stream (HTTP) and inside it (vendor events).
- `SseDecoder`: the incremental server-sent-events framing under `stream_events`;
  `EventFraming` (default `SSE_FRAMING`) names another body framing, an
  `EventDecoder` and the media types it answers with, for a vendor whose
  stream is not plain SSE. `EventStreamDecoder` reads the AWS event-stream
  encoding (`EVENTSTREAM_MEDIA_TYPE`: binary `EventStreamMessage` s of
  `EventStreamHeader` s and a payload, CRC-checked) and
  `encode_event_message` writes one, for such a framing and for cassettes.
- `SECRET_HEADERS`: the header names whose values are credentials; `REDACTED`
  what a masked value becomes; `request_secrets` the credentials a request
  carries (`SHORTEST_CREDENTIAL` characters or more), `scrub` removes them
  from a text, `masked_path` and `query_credentials` mask the
  `MASKED_QUERY_KEYS` of a path; `ScrubbedStream` fails with scrubbed errors.
- For transports built on this one (the cassettes): `Playback` and
  `PlaybackExchange`, an httpx2 transport for sync and async clients (how a
  recorded response is played: `playback_of`, `playback_response`,
  `cut_body`, the one `PlayedBody`, each chunk fed to a `BodyJudge` before
  the client reads it; `OnceStream`, a body read once), `ReadCut` (a sync
  read waiting on a silent socket, ended at a deadline), `sent_request` (a
  request as a replaying transport lists it), and the two signals a
  replaying transport raises,
  `RecordingExhaustedError` and `RequestMismatchError`, which `stream_events`
  turns into `VendorError` s; `ClosedOnExit`, the ``async with`` base;
  `header_text` and `header_bytes`, header values read and written one
  character per byte (Latin-1), so the bytes that came are the bytes that go.

This is the only course package that imports an HTTP client. The loopback
test server is `course_http.loopback` (the ``serve`` extra), imported apart.
What every vendor adapter shares is ``course_vendor``; cassettes are
``course_cassettes``.
"""

import inspect as _inspect

from course_http._body_judge import BodyJudge
from course_http._closing import ClosedOnExit
from course_http._error_scrub import ScrubbedStream
from course_http._errors import VendorError, VendorErrorCode
from course_http._eventstream import (
    EVENTSTREAM_MEDIA_TYPE,
    MAX_HEADERS_LENGTH,
    MAX_MESSAGE_LENGTH,
    EventStreamDecoder,
    EventStreamHeader,
    EventStreamMessage,
    HeaderValue,
    encode_event_message,
)
from course_http._framing import SSE_FRAMING, EventDecoder, EventFraming
from course_http._header_text import header_bytes, header_text
from course_http._loopback_host import host_is_loopback, hostname_of
from course_http._playback import (
    Playback,
    PlaybackExchange,
    cut_body,
    playback_of,
    playback_response,
)
from course_http._played_body import OnceStream, PlayedBody
from course_http._read_cut import ReadCut
from course_http._recorded import (
    Chunking,
    RecordedRequest,
    RecordedResponse,
    RecordedTransport,
    RecordingExhaustedError,
    RequestMismatchError,
    ResponseEnd,
    sent_request,
)
from course_http._request import TRANSPORT_HEADERS, HttpRequest
from course_http._secrets import (
    MASKED_QUERY_KEYS,
    REDACTED,
    SECRET_HEADERS,
    SHORTEST_CREDENTIAL,
    masked_path,
    query_credentials,
    request_secrets,
    scrub,
)
from course_http._sse import DEFAULT_MAX_FRAME_LENGTH, SseDecoder, SseEvent
from course_http._status import ErrorBodyReader, VendorErrorBody, code_for_status
from course_http._stream import ERROR_BODY_LIMIT, stream_events
from course_http._timeouts import REPLAY_TIMEOUTS, Timeouts
from course_http._transport import WIRE_EXTENSION, HttpTransport, LiveTransport, NetworkExchange

__all__ = [
    "DEFAULT_MAX_FRAME_LENGTH",
    "ERROR_BODY_LIMIT",
    "EVENTSTREAM_MEDIA_TYPE",
    "MASKED_QUERY_KEYS",
    "MAX_HEADERS_LENGTH",
    "MAX_MESSAGE_LENGTH",
    "REDACTED",
    "REPLAY_TIMEOUTS",
    "SECRET_HEADERS",
    "SHORTEST_CREDENTIAL",
    "SSE_FRAMING",
    "TRANSPORT_HEADERS",
    "WIRE_EXTENSION",
    "BodyJudge",
    "Chunking",
    "ClosedOnExit",
    "ErrorBodyReader",
    "EventDecoder",
    "EventFraming",
    "EventStreamDecoder",
    "EventStreamHeader",
    "EventStreamMessage",
    "HeaderValue",
    "HttpRequest",
    "HttpTransport",
    "LiveTransport",
    "NetworkExchange",
    "OnceStream",
    "Playback",
    "PlaybackExchange",
    "PlayedBody",
    "ReadCut",
    "RecordedRequest",
    "RecordedResponse",
    "RecordedTransport",
    "RecordingExhaustedError",
    "RequestMismatchError",
    "ResponseEnd",
    "ScrubbedStream",
    "SseDecoder",
    "SseEvent",
    "Timeouts",
    "VendorError",
    "VendorErrorBody",
    "VendorErrorCode",
    "code_for_status",
    "cut_body",
    "encode_event_message",
    "header_bytes",
    "header_text",
    "host_is_loopback",
    "hostname_of",
    "masked_path",
    "playback_of",
    "playback_response",
    "query_credentials",
    "request_secrets",
    "scrub",
    "sent_request",
    "stream_events",
]

# Exported names carry this public module: tracebacks and reprs never show a private one.
for _name in __all__:
    if isinstance(_value := globals()[_name], type) or _inspect.isfunction(_value):
        _value.__module__ = __name__
del _name, _value
