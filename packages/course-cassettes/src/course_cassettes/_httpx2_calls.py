"""What the httpx2 transports share: a request's body as a cassette holds it, the strict check.

A cassette holds a request's body as a JSON object: an empty body (a GET, a
model listing) is held as ``{}`` (the method tells the two apart), and a
body that is not a JSON object (a file upload) cannot be held at all: the
transports refuse it (``HTTP_RECORDING_INVALID``) without sending it.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import httpx2

from course_http import RecordedResponse, VendorError

__all__ = ["StreamCheck", "json_body", "located", "raw_path"]

StreamCheck = Callable[[str, RecordedResponse], VendorError | None]
"""A strict check of one recorded response: given the request's path and the response,
the `VendorError` a vendor's parser fails it with, or ``None`` (it passes, or no parser
claims it). ``course_vendor.recorded_stream_problem`` is the registry's."""


def raw_path(request: httpx2.Request) -> str:
    """The path and query ``request`` sends, as sent."""
    return request.url.raw_path.decode("ascii")


def json_body(content: bytes) -> object | None:
    """The JSON object ``content`` holds (``{}`` when empty), or ``None`` when it holds none."""
    if not content:
        return {}
    try:
        value = json.loads(content)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def located(error: VendorError, index: int) -> VendorError:
    """``error`` of a strict check, its message naming the recorded call it is about."""
    return error.with_message(f"calls[{index}].response.body: {error.message}")
