"""The strict check under the official SDKs: a recorded stream its vendor's parser refuses.

The SDKs read any stream they are given; `course_vendor.recorded_stream_problem`
(the check the pytest plugin and ``course serve`` pass) judges each recorded
stream with its wire's grammar, at record time and at replay time, and the
transport raises its typed error where the client reads the end of the body.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from course_cassettes import Httpx2CassetteTransport, Httpx2RecordingTransport, load_cassette
from course_http import VendorError, VendorErrorCode
from course_vendor import recorded_stream_problem, stream_judge_for
from tests.course_cassettes.sdk_upstream import ANTHROPIC_SSE, Upstream
from tests.course_cassettes.test_httpx2_transports import both_ways, run

# The vendor's stream with its terminal event left out: the SDK reads "Hello" anyway.
NO_MESSAGE_STOP = ANTHROPIC_SSE[: ANTHROPIC_SSE.index(b"event: message_stop")]
PROBLEM_START = "calls[0].response.body: judged on anthropic-messages: "


@both_ways
def test_a_stream_the_parser_refuses_fails_its_recording_and_its_replay_with_the_code(
    tmp_path: Path, way: str
) -> None:
    path = tmp_path / "cassette.json"
    recording = Httpx2RecordingTransport(
        path, inner=Upstream(anthropic_sse=NO_MESSAGE_STOP).transport, check=stream_judge_for
    )
    with recording, pytest.raises(VendorError) as raised:
        run(way, "anthropic-stream", recording)
    assert raised.value.code is VendorErrorCode.VENDOR_MISSING_TERMINAL
    assert raised.value.message.startswith(PROBLEM_START)
    assert recording.problems == (raised.value,)
    cassette = load_cassette(path).unwrap()
    assert cassette.calls[0].response.body == NO_MESSAGE_STOP, "recorded as it came"

    replay = Httpx2CassetteTransport(cassette, check=stream_judge_for)
    with pytest.raises(VendorError) as again:
        run(way, "anthropic-stream", replay)
    assert (again.value.code, again.value.message) == (raised.value.code, raised.value.message)
    assert replay.problems == (again.value,)

    unchecked = Httpx2CassetteTransport(cassette)
    assert run(way, "anthropic-stream", unchecked) == "Hello", "off: the SDK alone reads it"
    assert unchecked.problems == ()


@pytest.mark.parametrize("name", ["anthropic-stream", "openai-stream", "anthropic-plain"])
@both_ways
def test_a_stream_the_parser_accepts_and_a_plain_answer_pass_the_check(
    tmp_path: Path, way: str, name: str
) -> None:
    path = tmp_path / "cassette.json"
    with Httpx2RecordingTransport(
        path, inner=Upstream().transport, check=stream_judge_for
    ) as recording:
        assert run(way, name, recording) == "Hello"
    assert recording.problems == ()
    replay = Httpx2CassetteTransport(load_cassette(path).unwrap(), check=stream_judge_for)
    assert run(way, name, replay) == "Hello"
    assert replay.problems == ()


def test_the_check_names_no_problem_for_a_path_no_vendor_streams_from() -> None:
    from course_http import RecordedResponse

    stream = RecordedResponse(200, {"content-type": "text/event-stream"}, NO_MESSAGE_STOP)
    assert recorded_stream_problem("/v1/unknown", stream) is None
    problem = recorded_stream_problem("/v1/messages", stream)
    assert problem is not None
    assert problem.code is VendorErrorCode.VENDOR_MISSING_TERMINAL
