"""An AWS event-stream body in a cassette: readable frames that encode its exact bytes again."""

from __future__ import annotations

import base64
import copy
from typing import Any

import pytest

from course_cassettes import cassette_to_json, parse_cassette
from course_http import RecordedResponse, VendorErrorCode
from tests.course_cassettes.cassettes import call, cassette
from tests.course_provider_bedrock import bodies, frames

STREAM = {"content-type": frames.MEDIA_TYPE}
BODY = frames.body_of(bodies.tool_body()) + frames.frame(frames.every_type_headers(), b"\xff\x00")


def written(body: bytes) -> dict[str, Any]:
    document = cassette_to_json(cassette(call({}, RecordedResponse(200, STREAM, body))))
    response: dict[str, Any] = document["calls"][0]["response"]  # type: ignore[index]
    return response


def read(response: dict[str, Any]) -> bytes:
    document = cassette_to_json(cassette(call({}, RecordedResponse(200, STREAM, b"x"))))
    document["calls"][0]["response"] = response  # type: ignore[index]
    return parse_cassette(document).unwrap().calls[0].response.body


def test_a_binary_stream_is_written_as_readable_frames_that_give_back_its_bytes() -> None:
    response = written(BODY)

    assert "body_base64" not in response
    first = response["body_frames"][0]
    assert first == {
        "headers": [
            [":event-type", 7, "messageStart"],
            [":content-type", 7, "application/json"],
            [":message-type", 7, "event"],
        ],
        "payload": '{"role": "assistant"}',
    }
    last = response["body_frames"][-1]
    assert last["payload_base64"] == base64.b64encode(b"\xff\x00").decode()
    assert last["headers"][6] == ["y", 6, base64.b64encode(b"\x00\xff").decode()]
    assert last["headers"][9] == ["id", 9, "12345678-1234-5678-1234-567812345678"]
    assert read(response) == BODY


def test_a_cut_or_corrupt_stream_is_kept_as_it_came_in_base64() -> None:
    corrupt = bytearray(BODY)
    corrupt[20] ^= 1
    for body in (BODY[:-3], bytes(corrupt)):
        response = written(body)
        assert response["body_base64"] == base64.b64encode(body).decode()
        assert read(response) == body


def test_the_crcs_are_computed_on_reading_so_an_edited_payload_stays_consistent() -> None:
    response = written(BODY)
    edited = copy.deepcopy(response)
    edited["body_frames"][1]["payload"] = edited["body_frames"][1]["payload"].replace("Let", "So")

    body = read(edited)

    assert b"So me add." in body


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda r: r.__setitem__("body_frames", []), "must be a non-empty array of frames"),
        (lambda r: r["body_frames"][0].pop("payload"), "exactly one of payload and payload_base64"),
        (lambda r: r["body_frames"][0]["headers"].append(["x", 7]), "must be [name, type, value]"),
        (lambda r: r["body_frames"][0]["headers"].append(["x", 2, 999]), "header 'x'"),
        (lambda r: r["body_frames"][0]["headers"].append(["x", 9, "nope"]), "a UUID's text"),
        (lambda r: r["body_frames"][0]["headers"].append(["x", 6, "!!"]), "not valid base64"),
        (lambda r: r["body_frames"][0].__setitem__("payload", 1), "must be a string"),
        (lambda r: r.__setitem__("body", ["x"]), "exactly one of body"),
    ],
)
def test_a_frame_the_encoding_refuses_is_a_typed_problem_naming_its_path(
    change: Any, problem: str
) -> None:
    response = written(BODY)
    change(response)
    document = cassette_to_json(cassette(call({}, RecordedResponse(200, STREAM, b"x"))))
    document["calls"][0]["response"] = response  # type: ignore[index]

    failure = parse_cassette(document).failure()

    assert failure.code is VendorErrorCode.HTTP_RECORDING_INVALID
    assert "calls[0].response" in failure.message
    assert problem in failure.message
