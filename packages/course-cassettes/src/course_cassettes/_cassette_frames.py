"""An AWS event-stream body in a cassette as readable frames (``body_frames``), and back.

A binary ``application/vnd.amazon.eventstream`` body (Bedrock's Converse
stream) is written as one object per message: its headers in order, each
``[name, type, value]`` (the type byte of the encoding, 0 to 9; a ``bytes``
value in base64, a UUID as its text), and its payload as text (the JSON the
vendor sent) or, when it is not UTF-8, ``payload_base64``. The CRCs and
lengths are not written: reading encodes each message again and computes
them. A body is written this way only when its messages re-encode to its
exact bytes, so a body cut inside a message or holding a bad CRC (what a
strict check must see as it came) stays ``body_base64``.
"""

from __future__ import annotations

import base64
import binascii
import uuid
from collections.abc import Callable
from typing import Any, NoReturn

from course_http import (
    EventStreamDecoder,
    EventStreamHeader,
    HeaderValue,
    VendorError,
    encode_event_message,
)
from course_protocol.untrusted import described

__all__ = ["frames_body", "frames_of"]

_BYTES, _STRING, _UUID = 6, 7, 9


def frames_of(body: bytes) -> list[dict[str, Any]] | None:
    """``body`` as readable frames, or ``None`` when it is not whole event-stream messages.

    ``None`` too for an empty body and for one whose frames would not
    re-encode to its exact bytes.
    """
    if not body:
        return None
    decoder = EventStreamDecoder(vendor="cassette")
    try:
        messages = decoder.feed(body)
        decoder.close()
    except VendorError:
        return None
    if decoder.failure is not None:
        return None
    frames = []
    for message in messages:
        frame: dict[str, Any] = {
            "headers": [[h.name, h.type, _header_json(h.type, h.value)] for h in message.headers]
        }
        try:
            frame["payload"] = message.payload.decode("utf-8")
        except UnicodeDecodeError:
            frame["payload_base64"] = base64.b64encode(message.payload).decode("ascii")
        frames.append(frame)
    try:
        again = frames_body(frames, "", _never)
    except ValueError:
        return None
    return frames if again == body else None


def _header_json(kind: int, value: HeaderValue) -> object:
    if kind == _BYTES:
        assert type(value) is bytes
        return base64.b64encode(value).decode("ascii")
    if kind == _UUID:
        return str(value)
    return value


def _never(path: str, message: str) -> NoReturn:
    raise ValueError(f"{path}: {message}")


def frames_body(value: object, path: str, fail: Callable[[str, str], NoReturn]) -> bytes:
    """The bytes the readable frames ``value`` (at ``path``) encode, CRCs computed.

    Calls ``fail(path, message)`` for anything that is not a frame list:
    not an array of objects of ``headers`` and ``payload`` (or
    ``payload_base64``), a header that is not ``[name, type, value]`` with
    a value of its type, bad base64, a message the encoding refuses.
    """
    if type(value) is not list or not value:
        fail(path, f"must be a non-empty array of frames, not {described(value)}")
    out = []
    for index, frame in enumerate(value):
        where = f"{path}[{index}]"
        if type(frame) is not dict or "headers" not in frame:
            fail(where, "must be an object of headers and payload (or payload_base64)")
        if set(frame) not in ({"headers", "payload"}, {"headers", "payload_base64"}):
            fail(where, "must hold headers and exactly one of payload and payload_base64")
        headers = _headers(frame["headers"], f"{where}.headers", fail)
        if "payload" in frame:
            text = frame["payload"]
            if type(text) is not str:
                fail(f"{where}.payload", f"must be a string, not {described(text)}")
            try:
                payload = text.encode("utf-8")
            except UnicodeEncodeError:
                fail(f"{where}.payload", "holds a lone surrogate: use payload_base64")
        else:
            payload = _base64(frame["payload_base64"], f"{where}.payload_base64", fail)
        try:
            out.append(encode_event_message(headers, payload))
        except ValueError as error:
            fail(where, str(error))
    return b"".join(out)


def _headers(
    value: object, path: str, fail: Callable[[str, str], NoReturn]
) -> tuple[EventStreamHeader, ...]:
    if type(value) is not list:
        fail(path, f"must be an array of [name, type, value], not {described(value)}")
    headers = []
    for index, item in enumerate(value):
        where = f"{path}[{index}]"
        if type(item) is not list or len(item) != 3:
            fail(where, "must be [name, type, value]")
        name, kind, raw = item
        if type(name) is not str or type(kind) is not int:
            fail(where, "must be [name, type, value] with a string name and an integer type")
        header_value: HeaderValue
        if kind == _BYTES:
            header_value = _base64(raw, f"{where}[2]", fail)
        elif kind == _UUID:
            try:
                header_value = uuid.UUID(raw) if type(raw) is str else None  # type: ignore[assignment]
            except ValueError:
                header_value = None  # type: ignore[assignment]
            if header_value is None:
                fail(f"{where}[2]", "must be a UUID's text")
        elif type(raw) in (bool, int, str):
            header_value = raw
        else:
            fail(f"{where}[2]", f"must be a value of type {kind}, not {described(raw)}")
        headers.append(EventStreamHeader(name, kind, header_value))
    return tuple(headers)


def _base64(value: object, path: str, fail: Callable[[str, str], NoReturn]) -> bytes:
    if type(value) is not str:
        fail(path, f"must be a base64 string, not {described(value)}")
    try:
        return base64.b64decode(value.encode("ascii"), validate=True)
    except (UnicodeEncodeError, binascii.Error):
        fail(path, "is not valid base64")
