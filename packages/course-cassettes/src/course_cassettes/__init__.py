"""Record real provider calls once and replay them in tests: cassettes.

- A `Cassette` of `CassetteCall` s (each request as sent, each response as
  received), versioned (`CASSETTE_VERSION` under `CASSETTE_VERSION_KEY`),
  read with `load_cassette` (`read_cassette_file`, a regular file of at most
  `MAX_CASSETTE_BYTES`; `loads_cassette`, `parse_cassette`) and written
  with `write_cassette` (`dumps_cassette`, `cassette_to_json`): readable JSON,
  SSE bodies as lines.
- `RecordingTransport` records through a live transport, redacted as a
  `Redaction` says on top of what is always kept out (`KEPT_REQUEST_HEADERS`,
  `KEPT_RESPONSE_HEADERS` are the headers kept; ``course_http.MASKED_QUERY_KEYS``
  the query keys masked); `CassetteTransport` replays, with `RequestMatching`
  (`MatchOn`) and `ReplayFault` s (`FaultKind`; `AppliedFault` says what was
  done).
- `Httpx2RecordingTransport` and `Httpx2CassetteTransport` do the same for
  any httpx2 client, sync or async (the official SDKs' ``http_client``):
  the one recording and the one replay transport, which the two above are
  built on. Each stream is judged by its wire's grammar as its bytes pass
  when they are given `StreamJudges` (a recording reads a body its client
  stopped reading to its end, within `REST_LIMIT_BYTES` and
  `REST_LIMIT_SECONDS`); `StreamCheck` is the check of one whole recorded
  response.
- `convert_vcr_cassette` turns a VCR.py (pytest-recording) YAML cassette into
  a `Cassette`, redacted as a recording would be and strict-checked, with a
  `VcrConversion` report of each interaction (`VcrNote` s: dropped, refused,
  flagged).
- `course_cassettes.responder`: the `CassetteResponder` ``course serve`` runs
  on ``course_http.loopback``, imported apart with the server stack.
"""

import inspect as _inspect

from course_cassettes._cassette import (
    CASSETTE_VERSION,
    CASSETTE_VERSION_KEY,
    CASSETTE_VERSIONS_READ,
    Cassette,
    CassetteCall,
    MatchOn,
    Redaction,
    RequestMatching,
)
from course_cassettes._cassette_file import (
    MAX_CASSETTE_BYTES,
    dumps_cassette,
    load_cassette,
    loads_cassette,
    read_cassette_file,
    write_cassette,
)
from course_cassettes._cassette_json import cassette_to_json, parse_cassette
from course_cassettes._faults import AppliedFault, FaultKind, ReplayFault
from course_cassettes._httpx2_calls import StreamCheck
from course_cassettes._httpx2_recording import Httpx2RecordingTransport
from course_cassettes._httpx2_replay import Httpx2CassetteTransport, Refusal
from course_cassettes._httpx2_tee import REST_LIMIT_BYTES, REST_LIMIT_SECONDS
from course_cassettes._judging import StreamJudges
from course_cassettes._recording import RecordingTransport
from course_cassettes._redaction import (
    KEPT_REQUEST_HEADERS,
    KEPT_RESPONSE_HEADERS,
)
from course_cassettes._replay import CassetteTransport
from course_cassettes._vcr import VcrConversion, VcrNote, convert_vcr_cassette

__all__ = [
    "CASSETTE_VERSION",
    "CASSETTE_VERSIONS_READ",
    "CASSETTE_VERSION_KEY",
    "KEPT_REQUEST_HEADERS",
    "KEPT_RESPONSE_HEADERS",
    "MAX_CASSETTE_BYTES",
    "REST_LIMIT_BYTES",
    "REST_LIMIT_SECONDS",
    "AppliedFault",
    "Cassette",
    "CassetteCall",
    "CassetteTransport",
    "FaultKind",
    "Httpx2CassetteTransport",
    "Httpx2RecordingTransport",
    "MatchOn",
    "RecordingTransport",
    "Redaction",
    "Refusal",
    "ReplayFault",
    "RequestMatching",
    "StreamCheck",
    "StreamJudges",
    "VcrConversion",
    "VcrNote",
    "cassette_to_json",
    "convert_vcr_cassette",
    "dumps_cassette",
    "load_cassette",
    "loads_cassette",
    "parse_cassette",
    "read_cassette_file",
    "write_cassette",
]

# Exported names carry this public module: tracebacks and reprs never show a private one.
for _name in __all__:
    if isinstance(_value := globals()[_name], type) or _inspect.isfunction(_value):
        _value.__module__ = __name__
del _name, _value
