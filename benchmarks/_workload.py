"""The workloads every row shares: the same text deltas and the same fixture records.

Transport records are plain JSON values spelled in the fixture wire format;
they are built here, outside the course packages, exactly as a test would
write them.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path

__all__ = [
    "REQUEST_ID",
    "RESPONSE_ID",
    "fixture_document",
    "lazy_records",
    "response_records",
    "text_deltas",
    "write_fixture_file",
]

REQUEST_ID = "request-bench"
RESPONSE_ID = "response-bench"

_WORDS = ("lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit")


def _delta(index: int) -> str:
    return _WORDS[(index // 2) % len(_WORDS)] if index % 2 == 0 else " "


def text_deltas(count: int) -> tuple[str, ...]:
    """``count`` deltas alternating a word and a single space, ending on a word.

    LangChain's fake splits its text on whitespace, keeping each whitespace
    character as its own chunk; with this shape it yields exactly these
    deltas again, so every double streams the same ``count`` chunks of the
    same text. Raises ``ValueError`` for an even or non-positive ``count``,
    which could not end on a word.
    """
    if count < 1 or count % 2 == 0:
        raise ValueError(f"count must be odd and positive, got {count}")
    return tuple(_delta(index) for index in range(count))


def _start(response_id: str) -> dict[str, object]:
    return {"type": "response_start", "responseId": response_id, "role": "assistant"}


def _end(response_id: str, output_tokens: int) -> dict[str, object]:
    return {
        "type": "response_end",
        "responseId": response_id,
        "stopReason": "stop",
        "usage": {"inputTokens": 1, "outputTokens": output_tokens},
    }


def _records(deltas: tuple[str, ...], response_id: str) -> Iterator[dict[str, object]]:
    yield _start(response_id)
    for delta in deltas:
        yield {"type": "text_delta", "text": delta}
    yield _end(response_id, len(deltas))


def response_records(deltas: tuple[str, ...], response_id: str = RESPONSE_ID) -> list[object]:
    """One well-formed response: start, one ``text_delta`` per delta, end (stop)."""
    return list(_records(deltas, response_id))


async def lazy_records(
    deltas: int, *, yield_every: int = 0, response_id: str = RESPONSE_ID
) -> AsyncIterator[object]:
    """An async record source that builds each record only when it is asked for.

    It streams a start record, ``deltas`` text deltas and an end record.
    Nothing but the stream holds a record once it is consumed, so peak memory
    shows what the adapter itself keeps. With ``yield_every`` > 0 the source
    hands control back to the event loop after that many records, like a
    socket that has drained its buffer: that is what lets a consumer keep up.
    """
    yield _start(response_id)
    for index in range(deltas):
        yield {"type": "text_delta", "text": _delta(index)}
        if yield_every and index % yield_every == yield_every - 1:
            await asyncio.sleep(0)
    yield _end(response_id, deltas)


def fixture_document(responses: Sequence[object]) -> dict[str, object]:
    """A schema-1 fixture whose responses are the given ``records`` values."""
    return {"schemaVersion": 1, "responses": [{"records": records} for records in responses]}


def write_fixture_file(path: Path, target_bytes: int, *, deltas_per_response: int = 999) -> int:
    """Write a schema-1 fixture of at least ``target_bytes`` and return its size.

    The file holds as many identical-shaped responses of
    ``deltas_per_response`` text deltas as it takes to reach the size, each
    with its own response id, so a strict loader sees no duplicate keys.
    """
    deltas = text_deltas(deltas_per_response)
    sample = json.dumps({"records": response_records(deltas, "response-000000")})
    count = max(1, -(-target_bytes // (len(sample) + 2)))
    responses = [response_records(deltas, f"response-{index:06d}") for index in range(count)]
    data = json.dumps(fixture_document(responses), separators=(", ", ": ")).encode("utf-8")
    path.write_bytes(data)
    return len(data)
