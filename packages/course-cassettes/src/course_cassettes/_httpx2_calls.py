"""What the httpx2 transports and ``course serve`` share: a request body as a cassette holds it.

A cassette holds a request's body as a strict JSON object: an empty body (a
GET, a model listing) is held as ``{}`` (the method tells the two apart),
and a body that is no such object (a file upload, a ``NaN``) cannot be held
at all: the transports and ``course serve`` refuse it with a typed 400.
And the strict check a transport runs on each recorded response.
"""

from __future__ import annotations

from collections.abc import Callable

import httpx2
from frozendict import frozendict
from returns.result import Result, Success

from course_http import RecordedResponse, VendorError
from course_protocol import JsonObject, freeze_json_object
from course_protocol.strict_json import loads_strict_json

__all__ = ["StreamCheck", "json_body", "located", "raw_path"]

StreamCheck = Callable[[str, RecordedResponse], VendorError | None]
"""A strict check of one whole recorded response: given the request's path and the response,
the `VendorError` its wire's grammar fails it with, or ``None`` (it passes, or no wire
claims it). ``course_vendor.recorded_stream_problem`` is the registry's. The transports,
which judge a stream as its bytes pass, take `StreamJudges` instead."""


def raw_path(request: httpx2.Request) -> str:
    """The path and query ``request`` sends, as sent."""
    return request.url.raw_path.decode("ascii")


def json_body(content: bytes) -> Result[JsonObject, str]:
    """The JSON object ``content`` holds, frozen as a cassette holds it (``{}`` when empty).

    ``Failure`` with why no cassette can hold it, naming the path of the
    bad value first (``body.temperature: is not a finite number``): text
    that is not strict JSON (not UTF-8, ``NaN`` or ``Infinity``, a number
    that overflows a float such as ``1e400``, a key given twice, nesting
    too deep to parse), a value that is not an object (a file upload), or
    one nesting more than ``course_protocol.JSON_MAX_DEPTH`` containers.
    Never raises.
    """
    if not content:
        return Success(frozendict())
    return (
        loads_strict_json(content)
        .alt(lambda reason: f"body: {reason}")
        .bind(
            lambda document: freeze_json_object(document, "body").alt(
                lambda error: f"{error.path}: {error.message}"
            )
        )
        .alt(lambda reason: f"{reason} (no cassette can hold this request body)")
    )


def located(error: VendorError, index: int) -> VendorError:
    """``error`` of a strict check, its message naming the recorded call it is about."""
    return error.with_message(f"calls[{index}].response.body: {error.message}")
