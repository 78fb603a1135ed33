"""What a cassette answers a request it will not serve: a typed JSON error no SDK retries.

``course serve`` and the httpx2 transports answer the same way: an error
status the client cannot mistake for the vendor's, marked ``x-should-retry:
false`` (the official SDKs retry 408, 409, 429 and 5xx answers, and any
exception a transport raises before the response, but never an answer so
marked), whose JSON body names the course code and the problem.
"""

from __future__ import annotations

import json
from typing import Final

from course_http import RecordedResponse, VendorErrorCode

__all__ = ["REFUSAL_ERROR_TYPE", "refusal"]

REFUSAL_ERROR_TYPE: Final = "course_cassette_error"
"""The ``error.type`` of a refusal's body: what tells it from any vendor's error."""

_REFUSAL_HEADERS: Final = {"content-type": "application/json", "x-should-retry": "false"}


def refusal(status: int, code: VendorErrorCode, problem: str) -> RecordedResponse:
    """The typed JSON error of a refused request; any ``problem``, lone surrogates too, encodes."""
    error = {"type": REFUSAL_ERROR_TYPE, "code": code.value, "message": problem}
    # ASCII escapes: a problem quoting the request (a "\ud83d" escape in its
    # JSON) may hold a lone surrogate, which no UTF-8 encoder takes.
    body = json.dumps({"type": "error", "error": error}, ensure_ascii=True).encode("ascii")
    return RecordedResponse(status, _REFUSAL_HEADERS, body)
