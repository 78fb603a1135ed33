"""Every rich protocol value, drawn at random, survives the JSON codec, pickling and copying.

One property per new value type (the seeds' values have theirs in
``tests/course_protocol``): ``to_json``, through ``json.dumps`` text and
back through its ``parse_*`` function, gives an equal value; so do pickle
and ``copy.deepcopy``, with an equal hash. A transcript of rich messages is
validated without an exception, whatever it holds.
"""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from returns.result import Result, Success

from course_protocol import (
    TranscriptIssue,
    parse_chunk,
    parse_content_block,
    parse_message,
    parse_request,
    parse_response,
    parse_usage,
    to_json,
    validate_transcript,
)
from tests.course_protocol import strategies

_ROUND_TRIPS: dict[str, tuple[st.SearchStrategy[Any], Callable[[object], Result[Any, Any]]]] = {
    "cited-text-block": (strategies.rich_text_blocks, parse_content_block),
    "opaque-tool-call": (strategies.rich_tool_calls, parse_content_block),
    "reasoning-block": (strategies.reasoning_blocks, parse_content_block),
    "vendor-tool-block": (strategies.vendor_tool_blocks, parse_content_block),
    "image-block": (strategies.image_blocks, parse_content_block),
    "document-block": (strategies.document_blocks, parse_content_block),
    "user-message-with-blocks": (strategies.rich_user_messages, parse_message),
    "assistant-message": (strategies.rich_assistant_messages, parse_message),
    "tool-result-with-blocks": (strategies.rich_tool_result_messages, parse_message),
    "request": (strategies.rich_requests, parse_request),
    "reasoning-delta-chunk": (strategies.reasoning_delta_chunks, parse_chunk),
    "tool-call-chunk": (strategies.rich_tool_call_chunks, parse_chunk),
    "usage-with-parts": (strategies.rich_usages(), parse_usage),
    "response": (strategies.rich_responses, parse_response),
}


@pytest.mark.parametrize("kind", list(_ROUND_TRIPS))
def test_each_rich_value_round_trips_through_course_json_text(kind: str) -> None:
    strategy, parse = _ROUND_TRIPS[kind]

    @given(strategy)
    def round_trip(value: Any) -> None:
        document = to_json(value)
        assert parse(document) == Success(value)
        assert parse(json.loads(json.dumps(document))) == Success(value)

    round_trip()


@pytest.mark.parametrize("kind", list(_ROUND_TRIPS))
def test_each_rich_value_pickles_and_deep_copies_to_an_equal_value(kind: str) -> None:
    strategy, _ = _ROUND_TRIPS[kind]

    @given(strategy)
    def copies(value: Any) -> None:
        for twin in (pickle.loads(pickle.dumps(value)), copy.deepcopy(value)):
            assert twin == value
            assert hash(twin) == hash(value)
            assert type(twin) is type(value)

    copies()


@given(st.lists(strategies.rich_messages, max_size=6))
def test_validating_a_rich_transcript_never_raises(messages: list[Any]) -> None:
    issues = validate_transcript(messages)

    assert all(type(issue) is TranscriptIssue for issue in issues)
    assert all(0 <= issue.message_index < len(messages) for issue in issues)  # type: ignore[operator]
