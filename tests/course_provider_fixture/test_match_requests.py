"""Requests recorded beside each response, and matched on replay with match_requests=True."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from course_protocol import (
    CourseModelRequest,
    CourseModelUsage,
    CourseUserMessage,
    to_json,
)
from course_provider_fixture import (
    FixtureProviderAdapter,
    FixtureProviderError,
    FixtureProviderErrorCode,
    FixtureRecorder,
    load_fixture,
)
from course_scripted import ScriptedModel, reply_text
from course_stream import AbortController, collect

Code = FixtureProviderErrorCode
USAGE = CourseModelUsage(3, 2)
ASKED = CourseModelRequest("q-1", (CourseUserMessage("u-1", "What is 20 + 22?"),))
ASKED_OTHERWISE = CourseModelRequest("q-1", (CourseUserMessage("u-1", "What is 20 + 23?"),))


async def recorded_fixture() -> dict[str, object]:
    recorder = FixtureRecorder(
        ScriptedModel([reply_text("42.", response_id="r-1", message_id="message-r-1", usage=USAGE)])
    )
    await collect(recorder.stream(ASKED, AbortController().signal))
    return recorder.fixture()


async def test_the_recorder_writes_each_request_as_course_json_beside_its_records() -> None:
    fixture = await recorded_fixture()

    responses: Any = fixture["responses"]
    [response] = responses
    assert list(response) == ["request", "records"]
    assert response["request"] == to_json(ASKED)


async def test_a_matching_request_replays_the_recorded_response() -> None:
    adapter = FixtureProviderAdapter(await recorded_fixture(), match_requests=True)

    chunks, response = await collect(adapter.stream(ASKED, AbortController().signal))

    assert [chunk.delta for chunk in chunks] == ["42."]  # type: ignore[union-attr]
    assert response.request_id == "q-1"
    adapter.assert_consumed()


async def test_a_different_request_fails_naming_the_first_differing_path_and_both_values() -> None:
    adapter = FixtureProviderAdapter(await recorded_fixture(), match_requests=True)

    with pytest.raises(FixtureProviderError) as caught:
        await collect(adapter.stream(ASKED_OTHERWISE, AbortController().signal))

    assert caught.value.code is Code.PROVIDER_REQUEST_MISMATCH
    assert caught.value.message.endswith(
        'messages[0].content: recorded "What is 20 + 22?", sent "What is 20 + 23?"'
    )
    assert caught.value.path == "responses[0].request"
    assert (adapter.call_count, adapter.pending_response_count) == (1, 1)
    assert adapter.requests == (ASKED_OTHERWISE,)


async def test_without_match_requests_the_recorded_request_is_ignored() -> None:
    adapter = FixtureProviderAdapter(await recorded_fixture())

    _, response = await collect(adapter.stream(ASKED_OTHERWISE, AbortController().signal))

    assert response.id == "r-1"


def test_match_requests_needs_a_recorded_request_in_every_response() -> None:
    fixture = {"schemaVersion": 1, "responses": [{"records": []}]}

    with pytest.raises(FixtureProviderError) as caught:
        FixtureProviderAdapter(fixture, match_requests=True)

    assert caught.value.code is Code.PROVIDER_INVALID_FIXTURE
    assert caught.value.path == "responses[0]"
    assert "FixtureRecorder" in caught.value.message


def test_a_recorded_request_that_is_not_json_is_an_invalid_fixture() -> None:
    fixture = {"schemaVersion": 1, "responses": [{"request": {"id": {1, 2}}, "records": []}]}

    with pytest.raises(FixtureProviderError) as caught:
        FixtureProviderAdapter(fixture, match_requests=True)

    assert caught.value.code is Code.PROVIDER_INVALID_FIXTURE
    assert caught.value.path == "responses[0].request.id"


async def test_a_written_recording_matches_after_loading(tmp_path: Path) -> None:
    recorder = FixtureRecorder(
        ScriptedModel([reply_text("42.", response_id="r-1", message_id="message-r-1", usage=USAGE)])
    )
    await collect(recorder.stream(ASKED, AbortController().signal))
    path = tmp_path / "recorded.json"
    recorder.write(path)
    adapter = (
        load_fixture(path)
        .bind(lambda document: FixtureProviderAdapter.from_fixture(document, match_requests=True))
        .unwrap()
    )

    _, response = await collect(adapter.stream(ASKED, AbortController().signal))

    assert response.id == "r-1"
