"""The tests' own SSE framer: the few rules the recorded bodies need, so replays mean something."""

from __future__ import annotations

from course_http import SseEvent
from tests.course_provider_openai.framing import jsonl_events
from tests.sse_frames import frame


def test_frames_are_split_on_blank_lines_and_comments_are_skipped() -> None:
    body = ': PROCESSING\n\ndata: {"a":1}\n\n: again\ndata: [DONE]\n\n'

    assert frame(body) == [SseEvent("message", '{"a":1}'), SseEvent("message", "[DONE]")]


def test_event_names_multi_line_data_and_crlf_line_ends_are_kept() -> None:
    body = 'event: error\r\ndata: {"x":\r\ndata:1}\r\n\r\nevent: ping\r\n\r\n'

    assert frame(body) == [SseEvent("error", '{"x":\n1}')]


def test_a_frame_still_pending_at_the_end_of_the_body_is_dispatched() -> None:
    assert frame('data: {"last":true}') == [SseEvent("message", '{"last":true}')]


def test_only_one_leading_space_of_a_value_is_removed() -> None:
    assert frame("data:  two spaces\n\n") == [SseEvent("message", " two spaces")]


def test_json_lines_become_unnamed_events_and_blank_lines_are_skipped() -> None:
    assert jsonl_events('{"a":1}\n\n{"b":2}\n') == [
        SseEvent("message", '{"a":1}'),
        SseEvent("message", '{"b":2}'),
    ]
