"""A recorded call's wire: the one it records, else its host's, else its path's, never a guess.

Every OpenAI-compatible server answers ``/chat/completions``: a Mistral
stream (content as an array of typed parts) and an OpenAI one share a path,
and only what the cassette records with each call tells their grammars apart.
"""

from __future__ import annotations

import pytest
from frozendict import frozendict

from course_http import RecordedRequest, RecordedResponse, VendorErrorCode
from course_provider_openai import (
    AZURE_CHAT_PLUGIN,
    AZURE_RESPONSES_PLUGIN,
    CHAT_PLUGIN,
    GROQ_PLUGIN,
    MISTRAL_PLUGIN,
    OLLAMA_PLUGIN,
    RESPONSES_PLUGIN,
)
from course_vendor import (
    VendorPlugin,
    call_wire,
    recorded_stream_problem,
    stream_judge_for,
    vendor_for_call,
)
from tests.course_provider_openai.bodies import chat_events, chat_text_stream, chunk
from tests.course_vendor.wire import SSE, sse_bytes

CHAT_PATH = "/v1/chat/completions"
PARTS = {"content": [{"type": "text", "text": "4"}, {"type": "text", "text": "."}]}
COUNTS = {"prompt_tokens": 12, "completion_tokens": 7, "total_tokens": 19}
MISTRAL_BODY = sse_bytes(
    chat_events(
        chunk({"role": "assistant", "content": ""}),
        chunk(PARTS),
        chunk({}, finish_reason="stop", usage=COUNTS),
        "[DONE]",
    )
)
"""Mistral's stream: ``delta.content`` as typed parts, which OpenAI's grammar refuses."""
OPENAI_BODY = sse_bytes(chat_text_stream("4."))
"""OpenAI's stream: the usage in a chunk of its own, which Mistral's grammar refuses."""


def sent(
    path: str = CHAT_PATH, *, host: str | None = None, wire: str | None = None
) -> RecordedRequest:
    return RecordedRequest("POST", path, frozendict({"model": "m"}), frozendict(), host, wire)


def answer(body: bytes) -> RecordedResponse:
    return RecordedResponse(200, SSE, body)


def test_the_two_bodies_need_their_own_grammars() -> None:
    mistral_as_openai = recorded_stream_problem(sent(wire="openai-chat"), answer(MISTRAL_BODY))
    openai_as_mistral = recorded_stream_problem(sent(wire="mistral"), answer(OPENAI_BODY))

    assert mistral_as_openai is not None
    assert mistral_as_openai.code is VendorErrorCode.VENDOR_INVALID_EVENT
    assert mistral_as_openai.message.startswith("judged on openai-chat: ")
    assert openai_as_mistral is not None
    assert openai_as_mistral.message.startswith("judged on mistral: ")


def test_a_mistral_call_and_an_openai_call_on_one_path_are_each_judged_by_their_own_grammar() -> (
    None
):
    calls = [
        (sent(host="api.openai.com", wire="mistral"), answer(MISTRAL_BODY)),
        (sent(host="api.openai.com", wire="openai-chat"), answer(OPENAI_BODY)),
        (sent(host="api.mistral.ai"), answer(MISTRAL_BODY)),
        (sent(host="api.openai.com"), answer(OPENAI_BODY)),
    ]

    assert [recorded_stream_problem(*call) for call in calls] == [None] * 4
    assert [call_wire(request) for request, _ in calls] == [
        MISTRAL_PLUGIN,
        CHAT_PLUGIN,
        MISTRAL_PLUGIN,
        CHAT_PLUGIN,
    ]


def test_a_call_that_records_neither_is_judged_by_its_path_as_before() -> None:
    assert call_wire(sent()) is CHAT_PLUGIN
    assert call_wire(CHAT_PATH) is CHAT_PLUGIN
    assert recorded_stream_problem(sent(), answer(OPENAI_BODY)) is None
    problem = recorded_stream_problem(CHAT_PATH, answer(MISTRAL_BODY))
    assert problem is not None
    assert problem.code is VendorErrorCode.VENDOR_INVALID_EVENT
    assert call_wire(sent("/openai/v1/chat/completions")) is GROQ_PLUGIN


@pytest.mark.parametrize(
    ("host", "path", "expected"),
    [
        ("api.mistral.ai", CHAT_PATH, MISTRAL_PLUGIN),
        ("API.Mistral.AI:443", CHAT_PATH, MISTRAL_PLUGIN),
        ("api.groq.com", "/openai/v1/chat/completions", GROQ_PLUGIN),
        (
            "my-resource.openai.azure.com",
            "/openai/deployments/gpt/chat/completions?api-version=2024-10-21",
            AZURE_CHAT_PLUGIN,
        ),
        # A gateway or a server of the user's own says nothing: the path decides.
        ("gateway.example", CHAT_PATH, CHAT_PLUGIN),
        ("gateway.example", "/openai/v1/chat/completions", GROQ_PLUGIN),
        # A local server listens on any port: Ollama's default one is no evidence.
        ("localhost:11434", CHAT_PATH, CHAT_PLUGIN),
        ("127.0.0.1", CHAT_PATH, CHAT_PLUGIN),
        ("[::1]:8000", CHAT_PATH, CHAT_PLUGIN),
    ],
)
def test_the_host_decides_among_the_wires_of_a_path_when_it_is_one_wires(
    host: str, path: str, expected: object
) -> None:
    assert call_wire(sent(path, host=host)) is expected


AZURE_HOST = "my-resource.openai.azure.com"
AZURE_BODY = sse_bytes(
    chat_events(
        {
            "id": "",
            "object": "",
            "created": 0,
            "model": "",
            "prompt_filter_results": [{"prompt_index": 0, "content_filter_results": {}}],
            "choices": [],
        }
    )
    + chat_text_stream("4.")
)
"""Azure's stream opens with a chunk of prompt filter results and no choices: not OpenAI's."""


def test_azures_v1_form_on_an_azure_host_is_judged_by_azures_wires_and_by_path_stays_groqs() -> (
    None
):
    chat = sent("/openai/v1/chat/completions", host=AZURE_HOST)
    responses = sent("/openai/v1/responses", host=AZURE_HOST)

    assert call_wire(chat) is AZURE_CHAT_PLUGIN
    assert call_wire(responses) is AZURE_RESPONSES_PLUGIN
    assert recorded_stream_problem(chat, answer(AZURE_BODY)) is None
    # The host paths are the host rule's alone: Groq's base path is /openai/v1 too.
    assert call_wire(sent("/openai/v1/chat/completions")) is GROQ_PLUGIN
    assert call_wire(sent("/openai/v1/responses")) is RESPONSES_PLUGIN
    assert call_wire(sent("/openai/v1/chat/completions", host="api.groq.com")) is GROQ_PLUGIN
    as_groq = recorded_stream_problem(sent("/openai/v1/chat/completions"), answer(AZURE_BODY))
    assert as_groq is not None
    assert as_groq.code is VendorErrorCode.VENDOR_INVALID_EVENT


def test_a_known_host_no_wire_of_which_serves_the_path_is_judged_by_none() -> None:
    # No Azure wire answers at /openai/v1/completions, and a guess by path (Groq's
    # /openai/v1) would judge Azure's stream by another server's grammar.
    request = sent("/openai/v1/completions", host=AZURE_HOST)

    assert vendor_for_call(request.path, host=request.host) is None
    assert call_wire(request) is None
    assert recorded_stream_problem(request, answer(OPENAI_BODY)) is None
    assert stream_judge_for(request, 200, SSE) is None


@pytest.mark.parametrize("host_paths", [["/openai/v1/x"], ("openai/v1/x",), ("/a", 1), "/a"])
def test_a_plugins_host_paths_are_a_tuple_of_absolute_paths(host_paths: object) -> None:
    with pytest.raises(TypeError, match=r"VendorPlugin\.host_paths must be a tuple of paths"):
        VendorPlugin(
            wire=CHAT_PLUGIN.wire,
            sdk="openai",
            base_url="https://example.test",
            base_url_variable="X",
            named_events=False,
            replay_model=CHAT_PLUGIN.replay_model,
            grammar=CHAT_PLUGIN.grammar,
            host_paths=host_paths,  # type: ignore[arg-type]
        )


def test_the_recorded_wire_wins_over_the_host_and_the_path() -> None:
    assert call_wire(sent(host="api.mistral.ai", wire="ollama")) is OLLAMA_PLUGIN
    assert call_wire(sent("/openai/v1/chat/completions", wire="mistral")) is MISTRAL_PLUGIN


def test_a_wire_asked_for_judges_a_call_that_records_none() -> None:
    assert call_wire(sent(), wire="mistral") is MISTRAL_PLUGIN
    assert recorded_stream_problem(sent(), answer(MISTRAL_BODY), wire="mistral") is None
    assert call_wire(sent(wire="mistral"), wire="mistral") is MISTRAL_PLUGIN


def test_a_wire_asked_for_that_disagrees_with_the_recorded_one_is_refused_with_its_code() -> None:
    request = sent(wire="mistral")

    problem = recorded_stream_problem(request, answer(MISTRAL_BODY), wire="groq")
    judge = stream_judge_for(request, 200, SSE, wire="groq")

    assert problem is not None
    assert (problem.code, problem.vendor) == (VendorErrorCode.VENDOR_WIRE_MISMATCH, "groq")
    assert "recorded by the wire 'mistral'" in problem.message
    assert "as 'groq'" in problem.message
    assert judge is not None
    assert judge.feed_bytes(MISTRAL_BODY) is not None
    refused = judge.close()
    assert refused is not None
    assert refused.code is VendorErrorCode.VENDOR_WIRE_MISMATCH


def test_a_recorded_wire_no_package_registers_is_a_typed_problem_naming_it() -> None:
    problem = recorded_stream_problem(sent(wire="mistrall"), answer(MISTRAL_BODY))

    assert problem is not None
    assert problem.code is VendorErrorCode.VENDOR_UNKNOWN_WIRE
    assert problem.message.startswith("the call records the wire 'mistrall', which cannot judge")
    assert "installed: " in problem.message


def test_what_is_not_a_stream_is_not_judged_whatever_wire_it_records() -> None:
    error_status = RecordedResponse(500, SSE, b"{}")

    assert recorded_stream_problem(sent(wire="mistrall"), error_status) is None
    assert recorded_stream_problem(sent(wire="mistral"), error_status, wire="groq") is None
