"""``course check`` of a cassette: the file, its format, then every recorded stream replayed.

Every problem is said in the cassette's terms, with ``course_http``'s codes:
a file that cannot be read or is not a valid cassette is
``HTTP_RECORDING_INVALID``; a recorded stream that the vendor's strict
parser refuses is the `VendorError` a replay of that call fails with.
"""

from __future__ import annotations

import os
import re

from course_cassettes import (
    Cassette,
    CassetteCall,
    load_cassette,
)
from course_cli._problems import Problem
from course_http import VendorError, VendorErrorCode
from course_vendor import recorded_stream_problem

__all__ = [
    "check_cassette_file",
    "unreadable_cassette_problem",
]

_CALL_PATH = re.compile(r"calls\[(\d+)\]")
_EVENT_STREAM = "text/event-stream"
# A replay of a call recorded as cut short fails the way it was recorded; only
# a failure before the cut (the parser refusing a recorded event) is a problem.
_RECORDED_ENDS = frozenset({VendorErrorCode.HTTP_STREAM_INTERRUPTED, VendorErrorCode.HTTP_TIMEOUT})


def unreadable_cassette_problem(path: str) -> Problem:
    """The problem of a path that must be a cassette and cannot be read at all."""
    message = load_cassette(path).failure().message
    return Problem(
        path,
        None,
        None,
        VendorErrorCode.HTTP_RECORDING_INVALID.value,
        message.removeprefix(f"{os.fsdecode(path)}: "),
    )


async def check_cassette_file(path: str) -> tuple[int, list[Problem]]:
    """How many calls the cassette file at ``path`` holds, and its problems in call order.

    A file that is not a valid cassette (strict JSON, the format, no secret
    header) is one problem, its first, and no calls. Otherwise each call
    whose response is a 2xx ``text/event-stream`` on a vendor's path is
    replayed through that vendor's model, and a replay that fails is one
    problem naming the call. Other responses (an error status, a JSON body,
    a path no vendor posts to) are what was recorded, not played.
    """
    cassette = _cassette_in(path)
    if isinstance(cassette, Problem):
        return 0, [cassette]
    problems: list[Problem] = []
    for index, call in enumerate(cassette.calls):
        problem = await _replay_problem(path, index, call)
        if problem is not None:
            problems.append(problem)
    return len(cassette.calls), problems


def _cassette_in(path: str) -> Cassette | Problem:
    """The cassette the file at ``path`` holds, or its first problem (strict JSON).

    The file is read as ``load_cassette`` reads it (a regular file, bounded).
    """
    loaded = load_cassette(path)
    cassette = loaded.value_or(None)
    if isinstance(cassette, Cassette):
        return cassette
    error: VendorError = loaded.failure()
    message = error.message.removeprefix(f"{os.fsdecode(path)}: ")
    found = _CALL_PATH.match(message)
    call = int(found.group(1)) if found else None
    return Problem(path, call, None, error.code.value, message)


async def _replay_problem(path: str, index: int, call: CassetteCall) -> Problem | None:
    error = recorded_stream_problem(call.request.path, call.response)
    if error is None:
        return None
    return Problem(
        path, index, None, error.code.value, f"calls[{index}].response.body: {error.message}"
    )
