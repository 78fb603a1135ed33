"""``course replay``: every chunk and response of one fixture file, as JSON Lines."""

from __future__ import annotations

from collections.abc import Callable

from returns.result import Failure, Success

from course_cli._output import json_line
from course_cli._problems import Problem, problem_from_error
from course_protocol import CourseModelRequest, to_json
from course_provider_fixture import FixtureProviderAdapter, FixtureProviderError, load_fixture
from course_stream import AbortController

__all__ = ["DEFAULT_REQUEST_PREFIX", "replay_file"]

DEFAULT_REQUEST_PREFIX = "replay"
"""The request-id prefix without ``--request-id``: the calls are ``replay-1``, ``replay-2``..."""


async def replay_file(
    path: str, request_prefix: str, write: Callable[[str], object]
) -> Problem | None:
    """Play every response of the fixture at ``path`` in order, writing one JSON line per value.

    Model call ``i`` (from 0) uses request id ``<request_prefix>-<i+1>`` and
    an empty transcript (the adapter reads only the id). Each chunk is
    written as it arrives, then the call's terminal response, all through
    ``course_protocol.to_json`` and :func:`json_line`. Stops at the first
    typed failure and returns it as a :class:`Problem`; returns ``None``
    when every response played cleanly.
    """
    match load_fixture(path).bind(FixtureProviderAdapter.from_fixture):
        case Failure(error):
            return problem_from_error(path, None, error)
        case Success(adapter):
            pass
    signal = AbortController().signal
    for index in range(adapter.pending_response_count):
        request = CourseModelRequest(id=f"{request_prefix}-{index + 1}", messages=())
        stream = adapter.stream(request, signal)
        try:
            async for chunk in stream:
                write(json_line(to_json(chunk)) + "\n")
            response = await stream.result
        except FixtureProviderError as error:
            return problem_from_error(path, index, error)
        write(json_line(to_json(response)) + "\n")
    return None
