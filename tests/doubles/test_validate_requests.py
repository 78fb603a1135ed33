"""validate_requests=True: a double that refuses a transcript validate_transcript rejects.

The commonest agent-loop bug is forgetting to send a Tool result back; a
double made with ``validate_requests=True`` fails that call with a typed code
naming the issue, instead of answering as if nothing were wrong.
"""

from __future__ import annotations

import pytest

from course_protocol import (
    CourseAssistantMessage,
    CourseModelRequest,
    CourseModelUsage,
    CourseToolCall,
    CourseToolResultMessage,
    CourseUserMessage,
)
from course_provider_fixture import FixtureProviderAdapter, FixtureProviderError
from course_provider_fixture import FixtureProviderErrorCode as FixtureCode
from course_scripted import ScriptedModel, ScriptedModelError, reply_text
from course_scripted import ScriptedModelErrorCode as ScriptCode
from course_stream import AbortController, AbortError, AbortSignal, collect

USER = CourseUserMessage("u-1", "What is 20 + 22?")
CALL = CourseToolCall("call-1", "add", {"left": 20, "right": 22})
ASKED = CourseAssistantMessage("m-1", (CALL,))
ANSWERED = CourseToolResultMessage("t-1", "call-1", "add", "42")
FORGOT_THE_RESULT = CourseModelRequest("q-2", (USER, ASKED))
SENT_THE_RESULT = CourseModelRequest("q-2", (USER, ASKED, ANSWERED))
USAGE = CourseModelUsage(3, 2)
TEXT_FIXTURE = {
    "schemaVersion": 1,
    "responses": [
        {
            "records": [
                {"type": "response_start", "responseId": "r-1", "role": "assistant"},
                {"type": "text_delta", "text": "The sum is 42."},
                {
                    "type": "response_end",
                    "responseId": "r-1",
                    "stopReason": "stop",
                    "usage": {"inputTokens": 3, "outputTokens": 2},
                },
            ]
        }
    ],
}


def scripted(*, validate_requests: bool) -> ScriptedModel:
    reply = reply_text("The sum is 42.", response_id="r-1", message_id="message-r-1", usage=USAGE)
    return ScriptedModel([reply], validate_requests=validate_requests)


async def test_a_loop_that_forgets_the_tool_result_fails_the_scripted_call() -> None:
    model = scripted(validate_requests=True)

    with pytest.raises(ScriptedModelError) as caught:
        await collect(model.stream(FORGOT_THE_RESULT, AbortController().signal))

    assert caught.value.code is ScriptCode.SCRIPT_INVALID_REQUEST
    assert "messages[1] MISSING_TOOL_RESULT" in caught.value.message
    assert "call-1" in caught.value.message
    assert (model.call_count, model.pending_response_count) == (1, 1)
    assert model.requests == (FORGOT_THE_RESULT,)


async def test_a_loop_that_forgets_the_tool_result_fails_the_fixture_call() -> None:
    model = FixtureProviderAdapter(TEXT_FIXTURE, validate_requests=True)

    with pytest.raises(FixtureProviderError) as caught:
        await collect(model.stream(FORGOT_THE_RESULT, AbortController().signal))

    assert caught.value.code is FixtureCode.PROVIDER_INVALID_REQUEST
    assert "messages[1] MISSING_TOOL_RESULT" in caught.value.message
    assert (model.call_count, model.pending_response_count) == (1, 1)
    assert model.requests == (FORGOT_THE_RESULT,)


async def test_the_queued_response_then_answers_the_corrected_request() -> None:
    for model in (
        scripted(validate_requests=True),
        FixtureProviderAdapter(TEXT_FIXTURE, validate_requests=True),
    ):
        with pytest.raises((ScriptedModelError, FixtureProviderError)):
            await collect(model.stream(FORGOT_THE_RESULT, AbortController().signal))

        chunks, response = await collect(model.stream(SENT_THE_RESULT, AbortController().signal))

        assert [chunk.delta for chunk in chunks] == ["The sum is 42."]  # type: ignore[union-attr]
        assert response.request_id == "q-2"
        model.assert_consumed()


async def test_without_validation_the_doubles_answer_as_the_seeds_do() -> None:
    for model in (scripted(validate_requests=False), FixtureProviderAdapter(TEXT_FIXTURE)):
        _, response = await collect(model.stream(FORGOT_THE_RESULT, AbortController().signal))
        assert response.request_id == "q-2"


async def test_an_abort_wins_over_an_invalid_transcript_and_leaves_the_response_queued() -> None:
    model = scripted(validate_requests=True)
    reason = AbortError("stop")

    with pytest.raises(AbortError) as caught:
        await collect(model.stream(FORGOT_THE_RESULT, AbortSignal.aborted_signal(reason)))

    assert caught.value is reason
    assert (model.call_count, model.pending_response_count) == (1, 1)


@pytest.mark.parametrize("flag", [1, "yes", None])
def test_validate_requests_must_be_a_bool(flag: object) -> None:
    with pytest.raises(TypeError, match="validate_requests"):
        ScriptedModel([], validate_requests=flag)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="validate_requests"):
        FixtureProviderAdapter(TEXT_FIXTURE, validate_requests=flag)  # type: ignore[arg-type]
