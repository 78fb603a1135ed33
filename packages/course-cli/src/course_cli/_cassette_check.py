"""``course check`` of a cassette: the file, its format, then every recorded stream judged.

Every problem is said in the cassette's terms, with ``course_http``'s codes:
a file that cannot be read or is not a valid cassette is
``HTTP_RECORDING_INVALID``; a recorded stream that its wire's grammar
refuses is the `VendorError` a replay of that call fails with. A cassette
recorded with ``strict=False`` (``"strict": false`` in the file) is read
but its streams are not judged, as no replay judges them. On demand, the
calls are also compared for prompt caching (``course_vendor``'s
``prompt_cache_moves``): a call that moved the prefix its wire cached for
an earlier call is a ``HTTP_PROMPT_CACHE_MOVED`` problem naming the path.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from course_cassettes import (
    Cassette,
    CassetteCall,
    load_cassette,
)
from course_cli._problems import Problem
from course_http import VendorError, VendorErrorCode
from course_vendor import prompt_cache_moves, recorded_stream_problem

__all__ = [
    "CassetteCheck",
    "check_cassette_file",
    "unreadable_cassette_problem",
]

_CALL_PATH = re.compile(r"calls\[(\d+)\]")


@dataclass(frozen=True, slots=True)
class CassetteCheck:
    """What checking one cassette file found: its calls, its problems, whether it was judged.

    ``judged`` is ``False`` for a cassette that says ``strict: false`` (and
    for a file that is no valid cassette: nothing of it was judged).
    """

    calls: int
    problems: list[Problem]
    judged: bool


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


async def check_cassette_file(
    path: str, *, prompt_cache: bool = False, wire: str | None = None
) -> CassetteCheck:
    """How many calls the cassette file at ``path`` holds, and its problems in call order.

    A file that is not a valid cassette (strict JSON, the format, no secret
    header) is one problem, its first, and no calls. Otherwise, unless the
    cassette says ``strict: false``, each call whose response is a 2xx
    stream a wire claims is judged by that wire's grammar, and a stream it
    refuses is one problem naming the call. A call's wire is the one the
    cassette records with it, else its host's, else its path's
    (``course_vendor.call_wire``); ``wire`` (``course check --wire W``)
    judges the calls that record none, and a call that records another is
    one ``VENDOR_WIRE_MISMATCH`` problem: neither wire is picked. Other
    responses (an error status, a JSON body, a call no wire claims) are
    what was recorded, not judged. With
    ``prompt_cache`` (whatever ``strict`` says: it judges the requests, not
    the streams), each call that moved the request prefix its wire cached for
    an earlier call is one more problem, in call order with the others; a
    wire whose plug-in cannot say what it caches is one problem of the file.
    """
    cassette = _cassette_in(path)
    if isinstance(cassette, Problem):
        return CassetteCheck(0, [cassette], judged=False)
    problems: list[Problem] = []
    if cassette.strict:
        for index, call in enumerate(cassette.calls):
            problem = _judged_problem(path, index, call, wire)
            if problem is not None:
                problems.append(problem)
    if prompt_cache:
        problems.extend(_prompt_cache_problems(path, cassette))
        problems.sort(
            key=lambda problem: -1 if problem.response_index is None else problem.response_index
        )
    return CassetteCheck(len(cassette.calls), problems, judged=cassette.strict)


def _prompt_cache_problems(path: str, cassette: Cassette) -> list[Problem]:
    try:
        moves = prompt_cache_moves([call.request for call in cassette.calls])
    except VendorError as broken:
        return [Problem(path, None, None, broken.code.value, broken.message)]
    return [
        Problem(path, move.index, None, VendorErrorCode.HTTP_PROMPT_CACHE_MOVED.value, move.message)
        for move in moves
    ]


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


def _judged_problem(path: str, index: int, call: CassetteCall, wire: str | None) -> Problem | None:
    error = recorded_stream_problem(call.request, call.response, wire=wire)
    if error is None:
        return None
    return Problem(
        path, index, None, error.code.value, f"calls[{index}].response.body: {error.message}"
    )
