"""Bedrock's Converse stream per event: our strict check and our mapping against the floor.

The body is ``n`` text deltas (and a tool body: one call in ``n`` argument
fragments) as AWS event-stream messages, built once. The floor decodes the
same frames as plainly as the encoding allows: each message's prelude,
both CRCs checked with ``zlib.crc32``, its string headers read into a
dict, its payload given to ``json.loads``. Ours: the strict check
(``ConverseDecoder`` and ``ConverseGrammar``, what a cassette and ``course
check --wire bedrock-converse`` run) and the port (``ConverseMapping`` over
the decoder: every course chunk made). The target is at most 2x the floor
per event, as every wire's.
"""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from benchmarks._timing import Spread, measure_sync_side_by_side, per_round_ratios
from benchmarks.report import Row
from course_protocol import CourseModelChunk
from course_provider_bedrock import ConverseDecoder, ConverseGrammar, ConverseMapping

__all__ = ["BedrockBudget", "converse_body", "run_bedrock"]

GROUP = "bedrock"
FLOOR = "floor: CRC-checked frames + json.loads"
LIMIT = 2.0
_WORDS = ("lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit")
_PRELUDE = struct.Struct(">III")


@dataclass(frozen=True)
class BedrockBudget:
    """How many deltas a body streams and how many rounds are timed."""

    deltas: int
    rounds: int
    warmup: int


def _message(kind: str, payload: object) -> bytes:
    headers = b"".join(
        bytes([len(name)]) + name + b"\x07" + struct.pack(">H", len(value)) + value
        for name, value in (
            (b":event-type", kind.encode()),
            (b":content-type", b"application/json"),
            (b":message-type", b"event"),
        )
    )
    body = json.dumps(payload, separators=(",", ":")).encode()
    prelude = struct.pack(">II", 16 + len(headers) + len(body), len(headers))
    head = prelude + struct.pack(">I", zlib.crc32(prelude)) + headers + body
    return head + struct.pack(">I", zlib.crc32(head))


def _events(shape: str, n: int) -> Iterator[bytes]:
    yield _message("messageStart", {"role": "assistant"})
    if shape == "text":
        for index in range(n):
            text = {"text": f" {_WORDS[index % len(_WORDS)]}"}
            yield _message("contentBlockDelta", {"contentBlockIndex": 0, "delta": text})
    else:
        start = {"toolUse": {"toolUseId": "tooluse_bench0001", "name": "write_note"}}
        yield _message("contentBlockStart", {"contentBlockIndex": 0, "start": start})
        fragments = ['{"text": "', *(f" {_WORDS[i % 8]}" for i in range(n - 2)), '"}']
        for fragment in fragments:
            piece = {"toolUse": {"input": fragment}}
            yield _message("contentBlockDelta", {"contentBlockIndex": 0, "delta": piece})
    yield _message("contentBlockStop", {"contentBlockIndex": 0})
    yield _message("messageStop", {"stopReason": "end_turn" if shape == "text" else "tool_use"})
    usage = {"inputTokens": 10, "outputTokens": n, "totalTokens": 10 + n}
    yield _message("metadata", {"usage": usage, "metrics": {"latencyMs": 1}})


def converse_body(shape: str, n: int) -> tuple[bytes, int]:
    """A whole ConverseStream body (``"text"`` or ``"tool"``) of ``n`` deltas, and its events."""
    messages = list(_events(shape, n))
    return b"".join(messages), len(messages)


def _floor(body: bytes) -> int:
    """Decode ``body``'s frames as plainly as the encoding allows; the number of events.

    Each frame: its prelude, both CRCs checked with ``zlib.crc32``, its
    headers read into a dict (every header of these bodies is a string), its
    payload given to ``json.loads``. No check beyond the CRCs, no error
    wording, no state across frames.
    """
    position, end, count = 0, len(body), 0
    loads, crc32, unpack = json.loads, zlib.crc32, _PRELUDE.unpack_from
    while position < end:
        total, headers_length, prelude_crc = unpack(body, position)
        last = position + total - 4
        if crc32(body[position : position + 8]) != prelude_crc:
            raise ValueError("prelude CRC")
        if crc32(body[position:last]) != int.from_bytes(body[last : last + 4], "big"):
            raise ValueError("message CRC")
        at = position + 12
        headers_end = at + headers_length
        headers = {}
        while at < headers_end:
            name_end = at + 1 + body[at]
            length = (body[name_end + 1] << 8) | body[name_end + 2]
            value_at = name_end + 3
            headers[body[at + 1 : name_end].decode()] = body[value_at : value_at + length].decode()
            at = value_at + length
        loads(body[headers_end:last])
        count += 1 if headers[":event-type"] else 0
        position += total
    return count


def _judged(body: bytes) -> object:
    decoder = ConverseDecoder(vendor="bedrock-converse")
    grammar = ConverseGrammar()
    events = decoder.feed_bytes(body) + decoder.close()
    for index, event in enumerate(events):
        grammar.feed(event, index)
    return grammar.end(len(events))


def _mapped(body: bytes) -> object:
    decoder = ConverseDecoder(vendor="bedrock-converse")
    mapping = ConverseMapping("bench-request")
    chunks: list[CourseModelChunk] = []
    events = decoder.feed_bytes(body) + decoder.close()
    for index, event in enumerate(events):
        mapping.item(event, index, chunks.append)
    return mapping.end(len(events)), chunks


def _timed(read: Callable[[bytes], object], body: bytes) -> Callable[[], Callable[[], object]]:
    """A side-by-side candidate: its (empty) set-up, then ``read(body)`` timed."""
    return lambda: lambda: read(body)


def run_bedrock(budget: BedrockBudget) -> list[Row]:
    """The floor, our strict check and our mapping over the same bodies, side by side."""
    rows: list[Row] = []
    for shape in ("text", "tool"):
        body, events = converse_body(shape, budget.deltas)
        floor = f"{FLOOR}, {shape}"
        ours: dict[str, Callable[[bytes], object]] = {
            f"bedrock-converse {shape}: ours, strict check (grammar)": _judged,
            f"bedrock-converse {shape}: ours, through the port (mapping)": _mapped,
        }
        candidates = {floor: _timed(_floor, body)}
        for name, read in ours.items():
            read(body)
            candidates[name] = _timed(read, body)
        seconds = measure_sync_side_by_side(candidates, rounds=budget.rounds, warmup=budget.warmup)
        base = Spread.of(seconds[floor]).median
        rows.append(
            Row(
                GROUP,
                floor,
                f"{events} events",
                None,
                f"{base / events * 1e6:.2f} us/event",
                status="baseline",
                figures={"seconds_per_event": base / events},
            )
        )
        for name in ours:
            ratio = Spread.of(per_round_ratios(seconds[name], seconds[floor]))
            mine = Spread.of(seconds[name]).median
            rows.append(
                Row(
                    GROUP,
                    name,
                    floor,
                    ratio,
                    f"{mine / events * 1e6:.2f} us/event",
                    target=f"<= {LIMIT:.0f}x floor",
                    status="met" if ratio.median <= LIMIT else "missed",
                    figures={"seconds_per_event": mine / events},
                )
            )
    return rows
