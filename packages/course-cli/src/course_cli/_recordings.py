"""Recorded vendor bodies: ``course replay --wire X FILE`` plays, ``course check --wire X`` judges.

A file is the body of one HTTP response as received: an SSE body (any name
but the two below), or a ``.jsonl`` file that kept only the data of each
event, one per line, which is read as the SSE body of one unnamed
``data:`` frame per line. A ``.json`` file (an HTTP error body, or a request)
is not a stream and is refused before anything is read. ``replay`` plays
each file as one model call through the wire's model over a
``RecordedTransport`` (the port: what it carries, or the kind it cannot);
``check`` judges each file with the wire's grammar alone (the vendor's
whole stream language, whatever the port can carry).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path

from course_cli._cassette_check import check_cassette_file
from course_cli._cassettes import claims_to_be_a_cassette_file
from course_cli._check import CheckReport, unreadable_problem
from course_cli._files import unreadable_reason
from course_cli._output import json_line
from course_cli._problems import Problem
from course_http import RecordedResponse, VendorError
from course_protocol import CourseValue, to_json
from course_vendor import VendorPlugin, judge_body, play_recorded

__all__ = [
    "DATA_ONLY_SUFFIX",
    "NOT_A_STREAM_SUFFIX",
    "check_recordings",
    "play_recording",
    "recorded_body",
    "replay_recording",
    "unplayable_reason",
]

DATA_ONLY_SUFFIX = ".jsonl"
NOT_A_STREAM_SUFFIX = ".json"


def unplayable_reason(path: str, wire: VendorPlugin) -> str | None:
    """Why ``path`` cannot be played on ``wire``, judged by its name; ``None`` when it can."""
    suffix = Path(path).suffix
    if suffix == NOT_A_STREAM_SUFFIX:
        return (
            "a .json file holds an HTTP error body or a request, not an event stream; "
            f"--wire {wire.name} plays the SSE body of a response"
        )
    if suffix == DATA_ONLY_SUFFIX and wire.named_events:
        return (
            "a .jsonl file keeps only the data of each event, and every "
            f"{wire.name} event is named; play the SSE body as received"
        )
    return None


def recorded_body(path: str) -> bytes:
    """The HTTP body the file at ``path`` records (a ``.jsonl`` file reframed as SSE)."""
    raw = Path(path).read_bytes()
    if Path(path).suffix != DATA_ONLY_SUFFIX:
        return raw
    lines = (line.rstrip(b"\r") for line in raw.split(b"\n"))
    return b"".join(b"data: " + line + b"\n\n" for line in lines if line.strip())


async def play_recording(
    path: str, wire: VendorPlugin, request_id: str, write: Callable[[str], object] | None
) -> Problem | None:
    """Play the body recorded at ``path`` through ``wire``'s model as one call.

    Writes each chunk, then the response, as a JSON line (when ``write`` is
    given). Returns the call's `VendorError` as a `Problem` of ``path``, or
    ``None`` when the call ended with a response.
    """
    served = RecordedResponse(200, {"content-type": _media_type(wire)}, recorded_body(path))
    played = await play_recorded(
        wire, served, request_id, None if write is None else lambda chunk: _written(write, chunk)
    )
    if isinstance(played, VendorError):
        return Problem(path, None, None, played.code.value, played.message)
    if write is not None:
        _written(write, played)
    return None


def _media_type(wire: VendorPlugin) -> str:
    """The media type a recorded body of ``wire`` is served with: SSE, or its framing's own."""
    media_types = wire.wire.framing.media_types
    return _SSE if _SSE in media_types else min(media_types)


_SSE = "text/event-stream"


def _written(write: Callable[[str], object], value: CourseValue) -> None:
    write(json_line(to_json(value)) + "\n")


async def replay_recording(
    path: str, wire: VendorPlugin, request_prefix: str, write: Callable[[str], object]
) -> Problem | None:
    """``course replay --wire``: the one call of ``path`` as JSON Lines, request ``PREFIX-1``."""
    return await play_recording(path, wire, f"{request_prefix}-1", write)


def check_recordings(paths: Sequence[str], wire: VendorPlugin) -> CheckReport:
    """``course check --wire``: judge every file with the wire's grammar, one problem per bad file.

    A body is valid when it is the vendor's traffic, whether or not the
    course port can carry what it holds. A cassette named among them is
    checked as one (``check_cassette_file``), its calls that record no wire
    judged as ``wire``; a call recorded by another wire is one
    ``VENDOR_WIRE_MISMATCH`` problem, never judged by either.
    A path that cannot be read at all, or holds no event stream for ``wire``
    (a ``.json`` error body, a ``.jsonl`` file on a wire whose events are
    named), is one ``FILE_UNREADABLE`` problem and plays nothing.
    """
    problems: list[Problem] = []
    responses = 0
    unreadable = 0
    cassettes = 0
    for _index, path in enumerate(paths):
        if unreadable_reason(path) is None and claims_to_be_a_cassette_file(path):
            checked = asyncio.run(check_cassette_file(path, wire=wire.name))
            responses += checked.calls
            cassettes += 1
            problems.extend(checked.problems)
            continue
        reason = unreadable_reason(path) or unplayable_reason(path, wire)
        if reason is not None:
            problems.append(unreadable_problem(path, reason))
            unreadable += 1
            continue
        responses += 1
        problem = _judged(path, wire)
        if problem is not None:
            problems.append(problem)
    return CheckReport(
        files=len(paths),
        responses=responses,
        problems=tuple(problems),
        unreadable=unreadable,
        cassettes=cassettes,
    )


def _judged(path: str, wire: VendorPlugin) -> Problem | None:
    error = judge_body(wire, recorded_body(path)).swap().value_or(None)
    if error is None:
        return None
    return Problem(path, None, None, error.code.value, error.message)
