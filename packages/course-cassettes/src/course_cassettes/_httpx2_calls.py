"""What the httpx2 transports and ``course serve`` share: a request body as a cassette holds it.

A cassette holds a request's body as a strict JSON object: an empty body (a
GET, a model listing) is held as ``{}`` (the method tells the two apart),
and a body that is no such object (a file upload, a ``NaN``) cannot be held
at all: the transports and ``course serve`` refuse it with a typed 400.
And the strict check a transport runs on each recorded response, and where
a recorded request went: its host, and the wire that sent it.
"""

from __future__ import annotations

from collections.abc import Callable

import httpx2
from frozendict import frozendict
from returns.result import Failure, Result, Success

from course_cassettes._call_wire import kept_host, wire_name_problem
from course_http import WIRE_EXTENSION, RecordedRequest, RecordedResponse, VendorError
from course_protocol import JsonObject, freeze_json_object
from course_protocol.strict_json import loads_strict_json

__all__ = ["StreamCheck", "json_body", "located", "raw_path", "recorded_host", "recorded_wire"]

StreamCheck = Callable[[RecordedRequest, RecordedResponse], VendorError | None]
"""A strict check of one whole recorded response: given the recorded request (its path,
host and wire) and the response, the `VendorError` its wire's grammar fails it with, or
``None`` (it passes, or no wire claims it). ``course_vendor.recorded_stream_problem`` is
the registry's. The transports, which judge a stream as its bytes pass, take
`StreamJudges` instead."""


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


def recorded_host(request: httpx2.Request) -> str:
    """The host ``request`` goes to as a cassette keeps it (`kept_host` of its URL's)."""
    return kept_host(request.url.netloc.decode("ascii"))


def recorded_wire(request: httpx2.Request, named: str | None) -> Result[str | None, str]:
    """The wire a cassette keeps for ``request``: its sender's, else ``named``, else ``None``.

    The sender's is the request's `course_http.WIRE_EXTENSION` (a vendor
    model's own wire): it knows what it speaks, whatever the recording was
    told. ``Failure`` says why the extension holds no wire name (a value
    that is not one is refused, never recorded nor passed over).
    """
    sent = request.extensions.get(WIRE_EXTENSION)
    if sent is None:
        return Success(named)
    problem = wire_name_problem(sent)
    if problem is not None:
        return Failure(f"the request's {WIRE_EXTENSION} extension {problem}")
    return Success(sent)
