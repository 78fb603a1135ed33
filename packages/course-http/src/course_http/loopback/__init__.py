"""A loopback HTTP server for tests of the live transport (the ``course-http[serve]`` extra).

- `LoopbackServer`: uvicorn on 127.0.0.1 and a free port, started and stopped
  in the test's own event loop, with a bounded shutdown.
- What it serves, kept apart from how: a `LoopbackResponse` (a
  `course_http.RecordedResponse`, cut into chunks and paced), chosen per request
  by a `Responder` (`in_order` serves a list), or a `LoopbackStream` relayed
  as it arrives (a recording proxy's answer); what it saw, `LoopbackRequest`;
  how each exchange ended, `LoopbackEnd`.
- `LoopbackApp`: the plain ASGI application underneath.
- `CassetteResponder`: a `Responder` answering from cassettes with request
  matching, byte for byte (what ``course serve`` runs); `ServedCall` reports
  what it did with each request.

Faults are recorded responses: ``end="interrupted"`` closes the connection
after the body's bytes, ``end="stalled"`` keeps it open and silent until the
client leaves or the server stops; statuses, headers (``retry-after``) and
bodies that are not SSE are served as given.
"""

import inspect as _inspect

from course_http.loopback._app import LoopbackApp
from course_http.loopback._script import (
    LoopbackEnd,
    LoopbackRequest,
    LoopbackResponse,
    LoopbackStream,
    Responder,
    in_order,
)
from course_http.loopback._server import LoopbackServer

__all__ = [
    "LoopbackApp",
    "LoopbackEnd",
    "LoopbackRequest",
    "LoopbackResponse",
    "LoopbackServer",
    "LoopbackStream",
    "Responder",
    "in_order",
]

# Exported names carry this public module: tracebacks and reprs never show a private one.
for _name in __all__:
    if isinstance(_value := globals()[_name], type) or _inspect.isfunction(_value):
        _value.__module__ = __name__
del _name, _value
