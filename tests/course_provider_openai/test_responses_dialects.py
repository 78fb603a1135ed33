"""The Responses dialects: OpenRouter's ``[DONE]`` after the terminal, accepted there only.

Each difference both ways: OpenRouter's grammar accepts its form, plain
``openai-responses`` (OpenAI sends no ``[DONE]``) keeps refusing it with its
code, at its event, in its own wire's name. Bodies are our own, built from
OpenRouter's Responses API documentation (a beta under ``/api/v1/responses``).
"""

from __future__ import annotations

import pytest
from returns.result import Failure, Success

from course_http import RecordedResponse, RecordedTransport, VendorError, VendorErrorCode
from course_provider_openai import (
    OPENAI_RESPONSES,
    OPENROUTER_RESPONSES,
    OPENROUTER_RESPONSES_PLUGIN,
    RESPONSES_DIALECTS,
    RESPONSES_PLUGIN,
    OpenAIConfig,
    OpenAIResponsesModel,
    ResponsesDialect,
    ResponsesGrammar,
    ResponsesMapping,
    ResponsesResult,
)
from course_vendor import VendorPlugin, judge_body, load_vendor, vendor_for_path
from tests.course_cassettes.replays import Replayed
from tests.course_cassettes.replays import replay as replay_model
from tests.course_provider_openai.bodies import (
    DONE,
    completed,
    created,
    responses_events,
    responses_text_block,
    responses_text_stream,
    text_events,
)
from tests.course_provider_openai.driving import Replay, replay
from tests.course_provider_openai.responses_kinds import terminal
from tests.course_vendor.wire import SSE, sse_bytes

Code = VendorErrorCode
ANSWER = (created(), *text_events("Hi"), completed([]))
FAILED_AFTER_ERROR = (
    created(),
    {"type": "error", "message": "quota"},
    terminal("failed", error={"code": "insufficient_quota", "message": "quota"}),
)


def judged(plugin: VendorPlugin, *payloads: object) -> ResponsesResult | VendorError:
    verdict = judge_body(plugin, sse_bytes(responses_events(*payloads)))  # type: ignore[arg-type]
    if isinstance(verdict, Failure):
        error: VendorError = verdict.failure()
        assert error.vendor == plugin.wire.vendor
        return error
    assert isinstance(verdict, Success)
    result = verdict.unwrap()
    assert type(result) is ResponsesResult
    return result


def refused(plugin: VendorPlugin, *payloads: object) -> VendorError:
    error = judged(plugin, *payloads)
    assert type(error) is VendorError, error
    return error


def test_openrouters_done_after_the_terminal_passes_and_openais_grammar_refuses_it() -> None:
    result = judged(OPENROUTER_RESPONSES_PLUGIN, *ANSWER, DONE)

    assert type(result) is ResponsesResult
    assert (result.status, [item.kind for item in result.items]) == ("completed", ["message"])
    error = refused(RESPONSES_PLUGIN, *ANSWER, DONE)
    assert (error.code, error.event_index, error.vendor) == (
        Code.VENDOR_EVENT_ORDER,
        len(ANSWER),
        "openai-responses",
    )
    assert "follows the terminal event; nothing may" in error.message


def test_openrouters_stream_may_also_end_without_its_done() -> None:
    result = judged(OPENROUTER_RESPONSES_PLUGIN, *ANSWER)

    assert type(result) is ResponsesResult
    assert result.status == "completed"


def test_openrouters_done_may_follow_the_failed_response_after_an_error_event() -> None:
    result = judged(OPENROUTER_RESPONSES_PLUGIN, *FAILED_AFTER_ERROR, DONE)

    assert type(result) is ResponsesResult
    assert result.status == "failed"
    error = refused(RESPONSES_PLUGIN, *FAILED_AFTER_ERROR, DONE)
    assert (error.code, error.event_index) == (Code.VENDOR_EVENT_ORDER, len(FAILED_AFTER_ERROR))


@pytest.mark.parametrize(
    ("name", "payloads", "at", "said"),
    [
        ("before-the-terminal", (created(), DONE), 1, "[DONE] comes before the terminal event"),
        ("twice", (*ANSWER, DONE, DONE), len(ANSWER) + 1, "follows [DONE]; nothing may"),
        (
            "an-event-after-it",
            (*ANSWER, DONE, completed([])),
            len(ANSWER) + 1,
            "follows [DONE]; nothing may",
        ),
        (
            "a-failed-response-after-an-error-then-done",
            (created(), {"type": "error", "message": "x"}, DONE, terminal("failed")),
            3,
            "follows [DONE]; nothing may",
        ),
        (
            "another-event-after-the-terminal",
            (*ANSWER, completed([])),
            len(ANSWER),
            "follows the terminal event; only [DONE] may",
        ),
    ],
)
def test_openrouters_done_comes_once_only_after_the_terminal_with_nothing_after_it(
    name: str, payloads: tuple[object, ...], at: int, said: str
) -> None:
    error = refused(OPENROUTER_RESPONSES_PLUGIN, *payloads)

    assert (error.code, error.event_index) == (Code.VENDOR_EVENT_ORDER, at)
    assert said in error.message
    assert error.vendor == "openrouter-responses"


def test_the_grammar_of_each_dialect_is_finished_at_the_terminal_and_returns_none_for_done() -> (
    None
):
    grammar = ResponsesGrammar(OPENROUTER_RESPONSES)
    events = responses_events(*ANSWER, DONE)
    returned = [grammar.feed(event, position) for position, event in enumerate(events)]

    assert [None if event is None else event["type"] for event in returned[-2:]] == [
        "response.completed",
        None,
    ]
    assert grammar.finished
    assert grammar.end(len(events)).status == "completed"


def assert_openrouter_answers_where_openai_refuses(
    answered: Replay | Replayed, refusing: Replay | Replayed
) -> None:
    """OpenRouter's dialect answered "Hi" after its ``[DONE]``; OpenAI's refused the
    ``[DONE]`` as out of order, in its own name."""
    assert answered.error is None
    assert answered.response is not None
    assert answered.response.message.content == (responses_text_block("Hi"),)
    assert refusing.error is not None
    assert (refusing.error.code, refusing.error.vendor) == (
        Code.VENDOR_EVENT_ORDER,
        "openai-responses",
    )


def test_openrouters_mapping_answers_after_its_done_and_openais_fails_in_its_own_name() -> None:
    events = [*responses_text_stream("Hi"), *responses_events(DONE)]

    answered = replay(ResponsesMapping("request-1", OPENROUTER_RESPONSES), events)
    refusing = replay(ResponsesMapping("request-1"), events)

    assert_openrouter_answers_where_openai_refuses(answered, refusing)


def test_openrouters_responses_dialect_declares_its_server_as_its_docs_spell_it() -> None:
    assert (
        ResponsesDialect(
            "openrouter-responses", "https://openrouter.ai/api/v1", "OPENROUTER_API_KEY", True
        )
        == OPENROUTER_RESPONSES
    )
    assert RESPONSES_DIALECTS == (OPENROUTER_RESPONSES,)
    assert OPENAI_RESPONSES.done_marker is False
    with pytest.raises(AttributeError):
        OPENROUTER_RESPONSES.done_marker = False  # type: ignore[misc]


def test_openrouters_responses_is_a_registered_wire_of_its_own_dialect_of_openai_responses() -> (
    None
):
    plugin = load_vendor("openrouter-responses")

    assert plugin is OPENROUTER_RESPONSES_PLUGIN
    assert (plugin.wire.vendor, plugin.wire.path, plugin.wire.key_variable) == (
        "openrouter-responses",
        "/responses",
        "OPENROUTER_API_KEY",
    )
    assert (plugin.base_url, plugin.dialect_of) == (
        "https://openrouter.ai/api/v1",
        "openai-responses",
    )


@pytest.mark.parametrize(
    ("path", "wire"),
    [
        ("/api/v1/responses", "openrouter-responses"),
        ("/v1/responses", "openai-responses"),
        ("/api/v1/chat/completions", "openrouter"),
        ("/proxy/v1/responses", "openai-responses"),
    ],
)
def test_openrouters_responses_claims_a_recorded_path_only_under_its_own_base_path(
    path: str, wire: str
) -> None:
    plugin = vendor_for_path(path)

    assert plugin is not None
    assert plugin.wire.vendor == wire


async def test_a_responses_model_reads_the_stream_in_the_dialect_it_is_given() -> None:
    body = sse_bytes([*responses_text_stream("Hi"), *responses_events(DONE)])

    def model(dialect: ResponsesDialect) -> OpenAIResponsesModel:
        config = OpenAIConfig("openai/gpt-test", base_url=dialect.base_url)
        transport = RecordedTransport([RecordedResponse(200, SSE, body)])
        return OpenAIResponsesModel(config, dialect=dialect, transport=transport)

    openrouter = model(OPENROUTER_RESPONSES)
    answered = await replay_model(openrouter)
    refusing = await replay_model(model(OPENAI_RESPONSES))

    assert openrouter.dialect is OPENROUTER_RESPONSES
    assert_openrouter_answers_where_openai_refuses(answered, refusing)


@pytest.mark.parametrize("dialect", ["openrouter-responses", None, {"wire": "openrouter"}])
def test_a_responses_model_refuses_a_dialect_that_is_not_a_responses_dialect(
    dialect: object,
) -> None:
    with pytest.raises(TypeError, match="dialect must be a ResponsesDialect"):
        OpenAIResponsesModel(OpenAIConfig("gpt-test"), dialect=dialect)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("plugin", "payloads"),
    [
        (RESPONSES_PLUGIN, (*ANSWER, "{not json")),
        (OPENROUTER_RESPONSES_PLUGIN, (*ANSWER, "{not json")),
        (OPENROUTER_RESPONSES_PLUGIN, (*ANSWER, DONE, "{not json")),
    ],
    ids=["openai-after-the-terminal", "openrouter-after-the-terminal", "openrouter-after-done"],
)
def test_a_frame_that_is_not_an_event_says_so_first_even_after_the_terminal(
    plugin: VendorPlugin, payloads: tuple[object, ...]
) -> None:
    error = refused(plugin, *payloads)

    assert (error.code, error.event_index) == (Code.VENDOR_INVALID_EVENT, len(payloads) - 1)
