"""TODO docstring."""

import inspect as _inspect

from course_cassettes._cassette import (
    CASSETTE_VERSION,
    CASSETTE_VERSION_KEY,
    Cassette,
    CassetteCall,
    MatchOn,
    Redaction,
    RequestMatching,
)
from course_cassettes._cassette_file import (
    dumps_cassette,
    load_cassette,
    loads_cassette,
    write_cassette,
)
from course_cassettes._cassette_json import cassette_to_json, parse_cassette
from course_cassettes._faults import AppliedFault, FaultKind, ReplayFault
from course_cassettes._recording import RecordingTransport
from course_cassettes._redaction import (
    KEPT_REQUEST_HEADERS,
    KEPT_RESPONSE_HEADERS,
    MASKED_QUERY_KEYS,
)
from course_cassettes._replay import CassetteTransport
from course_cassettes._responder import CassetteResponder, ServedCall

__all__ = [
    "CASSETTE_VERSION",
    "CASSETTE_VERSION_KEY",
    "KEPT_REQUEST_HEADERS",
    "KEPT_RESPONSE_HEADERS",
    "MASKED_QUERY_KEYS",
    "AppliedFault",
    "Cassette",
    "CassetteCall",
    "CassetteResponder",
    "CassetteTransport",
    "FaultKind",
    "MatchOn",
    "RecordingTransport",
    "Redaction",
    "ReplayFault",
    "RequestMatching",
    "ServedCall",
    "cassette_to_json",
    "dumps_cassette",
    "load_cassette",
    "loads_cassette",
    "parse_cassette",
    "write_cassette",
]

# Exported names carry this public module: tracebacks and reprs never show a private one.
for _name in __all__:
    if isinstance(_value := globals()[_name], type) or _inspect.isfunction(_value):
        _value.__module__ = __name__
del _name, _value
