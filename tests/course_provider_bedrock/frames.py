"""Event-stream messages built byte by byte, apart from the package's own encoder.

`frame` lays out one message as the AWS event-stream encoding documents it
(prelude, prelude CRC, headers, payload, message CRC), each header by its
type byte; `event`, `exception` and `error` build the three message types a
ConverseStream body holds. The tests check the package's decoder against
these bytes, and its encoder against them too.
"""

from __future__ import annotations

import json
import struct
import uuid
import zlib
from collections.abc import Sequence
from typing import Any

from course_http import SseEvent

MEDIA_TYPE = "application/vnd.amazon.eventstream"
STREAM = {"content-type": MEDIA_TYPE}


def header(name: str, kind: int, value: Any) -> bytes:
    """One header: the name's length (a byte), the name, the type byte, the value's layout."""
    head = bytes([len(name.encode())]) + name.encode() + bytes([kind])
    if kind in (0, 1):
        return head
    if kind == 2:
        return head + struct.pack(">b", value)
    if kind == 3:
        return head + struct.pack(">h", value)
    if kind == 4:
        return head + struct.pack(">i", value)
    if kind in (5, 8):
        return head + struct.pack(">q", value)
    if kind in (6, 7):
        raw: bytes = value.encode() if kind == 7 else value
        return head + struct.pack(">H", len(raw)) + raw
    if kind == 9:
        identifier: uuid.UUID = value
        return head + identifier.bytes
    raw_value: bytes = bytes(value)
    return head + raw_value


def string(name: str, value: str) -> bytes:
    """A string header (type 7)."""
    return header(name, 7, value)


def frame(headers: bytes, payload: bytes) -> bytes:
    """One message of the ``headers`` bytes and ``payload``, both CRCs computed."""
    total = 16 + len(headers) + len(payload)
    prelude = struct.pack(">II", total, len(headers))
    head = prelude + struct.pack(">I", zlib.crc32(prelude)) + headers + payload
    return head + struct.pack(">I", zlib.crc32(head))


def event(kind: str, payload: dict[str, Any]) -> bytes:
    """An ``event`` message of type ``kind`` whose payload is ``payload`` as JSON."""
    return raw_event(kind, json.dumps(payload, separators=(",", ":")))


def raw_event(kind: str, payload: str) -> bytes:
    """An ``event`` message of type ``kind`` whose payload is the text ``payload``, as it is."""
    headers = (
        string(":event-type", kind)
        + string(":content-type", "application/json")
        + string(":message-type", "event")
    )
    return frame(headers, payload.encode())


def exception(kind: str, payload: dict[str, Any]) -> bytes:
    """An ``exception`` message of type ``kind``."""
    return raw_exception(kind, json.dumps(payload))


def raw_exception(kind: str, payload: str) -> bytes:
    """An ``exception`` message of type ``kind`` whose payload is the text ``payload``."""
    headers = (
        string(":exception-type", kind)
        + string(":content-type", "application/json")
        + string(":message-type", "exception")
    )
    return frame(headers, payload.encode())


def error(code: str, message: str) -> bytes:
    """An ``error`` message: its code and message in headers, no payload."""
    headers = (
        string(":error-code", code)
        + string(":error-message", message)
        + string(":message-type", "error")
    )
    return frame(headers, b"")


def every_type_headers() -> bytes:
    """One header of each of the ten types, with values at the edges of their ranges."""
    return (
        header("t", 0, True)
        + header("f", 1, False)
        + header("b", 2, -128)
        + header("s", 3, 32767)
        + header("i", 4, -(2**31))
        + header("l", 5, 2**63 - 1)
        + header("y", 6, b"\x00\xff")
        + header("u8", 7, "é")
        + header("ts", 8, 1_700_000_000_000)
        + header("id", 9, uuid.UUID("12345678-1234-5678-1234-567812345678"))
    )


def body_of(events: Sequence[SseEvent]) -> bytes:
    """The ``events`` a decoder gives back, framed as the vendor sends them, payloads as given."""
    out = []
    for item in events:
        name = item.event
        if name.startswith("exception:"):
            out.append(raw_exception(name.partition(":")[2], item.data))
        elif name.startswith("error:"):
            out.append(error(name.partition(":")[2], json.loads(item.data)["message"]))
        else:
            out.append(raw_event(name, item.data))
    return b"".join(out)
