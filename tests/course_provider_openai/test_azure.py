"""Azure OpenAI: its two path forms, its credentials, its content-filter annotations, its errors.

Paths and headers are the ones Azure's REST reference documents: the
deployment form ``{endpoint}/openai/deployments/{deployment}/chat/completions
?api-version=...`` (``/openai/responses?api-version=...``), the v1 form under
``{endpoint}/openai/v1``, ``api-key`` or ``authorization: Bearer`` (Entra ID).
The content-filter bodies follow Azure's content-streaming guide.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx2
import pytest
from frozendict import frozendict

from course_http import HttpTransport, Timeouts, VendorError, VendorErrorBody, VendorErrorCode
from course_protocol import CourseStopReason, thaw_json
from course_provider_openai import (
    AZURE_OPENAI_CHAT,
    OPENAI_CHAT,
    AzureOpenAIChatModel,
    AzureOpenAIResponsesModel,
    ChatMapping,
    ChatResult,
    OpenAIConfig,
    describe_azure_error,
)
from course_vendor import VendorConfigError, VendorConfigErrorCode, vendor_for_path
from tests.course_cassettes.replays import replay
from tests.course_provider_openai.bodies import (
    DONE,
    chat_events,
    chat_text_stream,
    chunk,
    finish,
    responses_text_stream,
    text,
    usage,
)
from tests.course_provider_openai.dialect_grammar import folded
from tests.course_provider_openai.driving import replay as replay_events
from tests.course_vendor.wire import sse_bytes

ENDPOINT = "https://contoso.openai.azure.com"
SAFE = {"filtered": False, "severity": "safe"}
RESULTS = {"hate": SAFE, "self_harm": SAFE, "sexual": SAFE, "violence": SAFE}
Code = VendorErrorCode


class Captured(HttpTransport):
    """A transport answering every call with ``body`` and keeping each request's URL and headers."""

    def __init__(self, body: bytes, base_url: str = ENDPOINT) -> None:
        self.seen: list[httpx2.Request] = []

        def answer(request: httpx2.Request) -> httpx2.Response:
            self.seen.append(request)
            return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=body)

        self._mock = httpx2.MockTransport(answer)
        super().__init__(base_url, timeouts=Timeouts(), trust_env=False)

    def _exchange(self) -> httpx2.AsyncBaseTransport:
        return self._mock


def chat_body() -> bytes:
    return sse_bytes(chat_text_stream("Hi"))


async def sent(model: Any, transport: Captured) -> httpx2.Request:
    async with transport:
        played = await replay(model)
    assert played.error is None, played.error
    [request] = transport.seen
    return request


@pytest.mark.parametrize(
    ("api_version", "base_url", "target"),
    [
        (
            "2024-10-21",
            ENDPOINT,
            "/openai/deployments/gpt-4o-prod/chat/completions?api-version=2024-10-21",
        ),
        (None, f"{ENDPOINT}/openai/v1", "/openai/v1/chat/completions"),
    ],
    ids=["deployment", "v1"],
)
async def test_chat_goes_to_the_documented_path_with_the_key_in_api_key(
    api_version: str | None, base_url: str, target: str
) -> None:
    transport = Captured(chat_body(), base_url)
    config = OpenAIConfig("gpt-4o-prod", base_url=base_url)
    model = AzureOpenAIChatModel(
        config, api_version=api_version, api_key="azure-key-1", transport=transport
    )

    request = await sent(model, transport)

    assert request.url.raw_path.decode() == target
    assert request.headers["api-key"] == "azure-key-1"
    assert "authorization" not in request.headers
    assert json.loads(request.content)["model"] == "gpt-4o-prod"


@pytest.mark.parametrize(
    ("api_version", "base_url", "target"),
    [
        ("2025-04-01-preview", ENDPOINT, "/openai/responses?api-version=2025-04-01-preview"),
        (None, f"{ENDPOINT}/openai/v1", "/openai/v1/responses"),
    ],
    ids=["deployment", "v1"],
)
async def test_responses_go_to_the_documented_path(
    api_version: str | None, base_url: str, target: str
) -> None:
    transport = Captured(sse_bytes(responses_text_stream("Hi")), base_url)
    config = OpenAIConfig("gpt-4o-prod", base_url=base_url)
    model = AzureOpenAIResponsesModel(
        config, api_version=api_version, api_key="azure-key-1", transport=transport
    )

    request = await sent(model, transport)

    assert request.url.raw_path.decode() == target
    assert request.headers["api-key"] == "azure-key-1"
    assert json.loads(request.content)["store"] is False


async def test_an_entra_id_token_string_is_a_bearer_and_no_api_key_is_sent() -> None:
    transport = Captured(chat_body())
    model = AzureOpenAIChatModel(
        OpenAIConfig("d", base_url=ENDPOINT),
        api_version="2024-10-21",
        entra_token="eyJ0eXAi.token",
        transport=transport,
    )

    request = await sent(model, transport)

    assert request.headers["authorization"] == "Bearer eyJ0eXAi.token"
    assert "api-key" not in request.headers


async def test_an_entra_id_token_provider_is_asked_at_each_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("AZURE_OPENAI_AD_TOKEN", raising=False)
    tokens = iter(["token-1", "token-2"])
    transport = Captured(chat_body())
    model = AzureOpenAIChatModel(
        OpenAIConfig("d", base_url=f"{ENDPOINT}/openai/v1"),
        entra_token=lambda: next(tokens),
        transport=transport,
    )

    async with transport:
        for _ in range(2):
            assert (await replay(model)).error is None

    assert [r.headers["authorization"] for r in transport.seen] == [
        "Bearer token-1",
        "Bearer token-2",
    ]


async def test_without_a_given_key_the_resource_key_is_read_from_its_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", "from-env-1")
    monkeypatch.setenv("OPENAI_API_KEY", "not-this-one")
    transport = Captured(chat_body())
    model = AzureOpenAIChatModel(
        OpenAIConfig("d", base_url=ENDPOINT), api_version="2024-10-21", transport=transport
    )

    request = await sent(model, transport)

    assert request.headers["api-key"] == "from-env-1"


@pytest.mark.parametrize(
    ("options", "path", "says"),
    [
        ({"api_version": ""}, "api_version", "must be a non-empty str"),
        ({"api_version": "2024-10-21&x=1"}, "api_version", "lower-case letters, digits"),
        ({"api_version": 20241021}, "api_version", "must be a non-empty str"),
        ({"api_key": "k", "entra_token": "t"}, "entra_token", "give api_key or it"),
        ({"entra_token": 7}, "entra_token", "must be a str or a callable"),
    ],
    ids=["empty-version", "query-in-version", "int-version", "two-credentials", "bad-token"],
)
@pytest.mark.parametrize("model", [AzureOpenAIChatModel, AzureOpenAIResponsesModel])
def test_a_bad_form_or_credential_is_refused_where_the_model_is_built(
    model: Callable[..., Any], options: dict[str, Any], path: str, says: str
) -> None:
    with pytest.raises(VendorConfigError) as caught:
        model(OpenAIConfig("d", base_url=ENDPOINT), **options)

    assert caught.value.code is VendorConfigErrorCode.VENDOR_INVALID_CONFIG
    assert caught.value.path == path
    assert says in caught.value.message


def test_the_deployment_forms_are_their_own_wires_by_path() -> None:
    for path, wire in (
        ("/openai/deployments/gpt-4o-prod/chat/completions", "azure-openai-chat"),
        ("/openai/responses", "azure-openai-responses"),
        ("/proxy/openai/deployments/d/chat/completions", "azure-openai-chat"),
    ):
        plugin = vendor_for_path(path)
        assert plugin is not None
        assert plugin.name == wire, path


def prompt_annotation(key: str = "prompt_filter_results") -> dict[str, Any]:
    return {
        "id": "",
        "object": "",
        "created": 0,
        "model": "",
        key: [{"prompt_index": 0, "content_filter_results": RESULTS}],
        "choices": [],
        "usage": None,
    }


def annotation(finish_reason: object = None, **fields: object) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "index": 0,
        "finish_reason": finish_reason,
        "content_filter_results": RESULTS,
        "content_filter_offsets": {"check_offset": 44, "start_offset": 44, "end_offset": 198},
        **fields,
    }
    return {"id": "", "object": "", "created": 0, "model": "", "choices": [entry], "usage": None}


def filtered_text(content: str) -> dict[str, Any]:
    body = text(content)
    body["choices"][0]["content_filter_results"] = RESULTS
    return body


def test_azures_annotated_stream_passes_its_dialect_and_keeps_every_result() -> None:
    body = (
        prompt_annotation(),
        chunk({"role": "assistant", "content": ""}),
        filtered_text("Color"),
        filtered_text(" is"),
        annotation(),
        finish("stop"),
        annotation(),
        DONE,
    )

    result = folded(AZURE_OPENAI_CHAT, *body)

    assert type(result) is ChatResult
    assert result.prompt_filter_results == (
        frozendict({"prompt_index": 0, "content_filter_results": RESULTS}),
    )
    [choice] = result.choices
    assert (choice.content, choice.finish_reason) == ("Color is", "stop")
    assert len(choice.content_filter_results) == 4
    assert all(type(each) is frozendict for each in choice.content_filter_results)
    assert result.id == "chatcmpl-own-1"
    plain = folded(OPENAI_CHAT, *body)
    assert type(plain) is VendorError
    assert (plain.code, plain.event_index) == (Code.VENDOR_INVALID_EVENT, 0)


def test_repeated_results_are_kept_as_one_frozen_object_and_any_difference_as_its_own() -> None:
    flagged = {**RESULTS, "hate": {"filtered": False, "severity": "low"}}
    counted = {**RESULTS, "hate": {"filtered": 0, "severity": "safe"}}
    body = (
        chunk({"role": "assistant", "content": ""}),
        filtered_text("a"),
        annotation(),
        annotation(),
        annotation(content_filter_results=flagged),
        annotation(content_filter_results=counted),
        filtered_text("b"),
        finish("stop"),
    )

    result = folded(AZURE_OPENAI_CHAT, *body)

    assert type(result) is ChatResult
    first, second, third, low, number, fifth = result.choices[0].content_filter_results
    assert first is second is third
    assert thaw_json(first) == thaw_json(fifth) == RESULTS
    assert thaw_json(low) == flagged
    assert low is not first
    # 0 and false are equal in Python, never in JSON: the number is kept as sent.
    assert number is not first
    assert thaw_json(number) == counted
    assert type(thaw_json(number)["hate"]["filtered"]) is int  # type: ignore[index]


def test_results_nested_to_the_decoders_limit_after_results_kept_are_refused_by_path() -> None:
    # Every depth up to the decoder's own limit, wherever the stack puts it: each one
    # the decoder takes is compared with the results kept before, then refused by path.
    template = json.dumps(annotation(content_filter_results={**RESULTS, "hate": "deep"}))
    said: list[str] = []
    for depth in range(800, 1_001):
        data = template.replace('"deep"', "[" * depth + "1" + "]" * depth)
        error = folded(AZURE_OPENAI_CHAT, filtered_text("a"), data, finish("stop"))

        assert type(error) is VendorError, depth
        assert (error.code, error.event_index) == (Code.VENDOR_INVALID_EVENT, 1)
        said.append(error.message)
    assert any("content_filter_results.hate[0]" in message for message in said)


def test_the_older_prompt_annotations_name_is_read_too() -> None:
    result = folded(
        AZURE_OPENAI_CHAT, prompt_annotation("prompt_annotations"), text("x"), finish("stop")
    )

    assert type(result) is ChatResult
    assert len(result.prompt_filter_results) == 1


def test_a_content_filter_finish_in_an_annotation_ends_the_choice_and_maps_as_its_finish() -> None:
    body = (
        prompt_annotation(),
        chunk({"role": "assistant", "content": ""}),
        text("Hey Jude"),
        annotation(
            "content_filter",
            content_filter_results={
                "protected_material_text": {"detected": True, "filtered": True}
            },
        ),
        usage(),
        DONE,
    )

    result = folded(AZURE_OPENAI_CHAT, *body)

    assert type(result) is ChatResult
    assert result.choices[0].finish_reason == "content_filter"
    assert result.usage is not None
    played = replay_events(ChatMapping("request-1", AZURE_OPENAI_CHAT), chat_events(*body))
    assert played.error is None, played.error
    assert played.response is not None
    assert played.response.stop_reason is CourseStopReason.REFUSAL


OFF_GRAMMAR: dict[str, tuple[tuple[object, ...], VendorErrorCode, int, str]] = {
    "delta": (
        (text("x"), annotation(delta={"content": "y"})),
        Code.VENDOR_INVALID_EVENT,
        1,
        "carries no text",
    ),
    "not-started": (
        (annotation(),),
        Code.VENDOR_EVENT_ORDER,
        0,
        "annotates choice 0, which has not started",
    ),
    "filter-after-stop": (
        (text("x"), finish("stop"), annotation("content_filter")),
        Code.VENDOR_EVENT_ORDER,
        2,
        "follows the finish_reason",
    ),
    "other-finish": (
        (text("x"), annotation("stop")),
        Code.VENDOR_INVALID_EVENT,
        1,
        "'content_filter' or null",
    ),
    "offset": (
        (text("x"), annotation(content_filter_offsets={"check_offset": -1})),
        Code.VENDOR_INVALID_EVENT,
        1,
        "content_filter_offsets.check_offset",
    ),
    "results": (
        (text("x"), annotation(content_filter_results=[])),
        Code.VENDOR_INVALID_EVENT,
        1,
        "content_filter_results must be an object",
    ),
    "prompts": (
        ({**prompt_annotation(), "prompt_filter_results": {}},),
        Code.VENDOR_INVALID_EVENT,
        0,
        "prompt_filter_results must be an array",
    ),
    "object": (
        ({**prompt_annotation(), "object": "chat.completion.chunk"},),
        Code.VENDOR_INVALID_EVENT,
        0,
        "object must be '' in a content-filter annotation",
    ),
    "after-done": (
        (text("x"), finish("stop"), DONE, annotation()),
        Code.VENDOR_EVENT_ORDER,
        3,
        "follows [DONE]",
    ),
}


@pytest.mark.parametrize(("payloads", "code", "at", "says"), OFF_GRAMMAR.values(), ids=OFF_GRAMMAR)
def test_an_annotation_off_azures_grammar_is_refused_at_its_event(
    payloads: tuple[object, ...], code: VendorErrorCode, at: int, says: str
) -> None:
    error = folded(AZURE_OPENAI_CHAT, *payloads)

    assert type(error) is VendorError
    assert (error.code, error.event_index, error.vendor) == (code, at, "azure-openai-chat")
    assert says in error.message


def test_an_azure_error_body_gives_its_inner_code_as_the_type() -> None:
    body = {
        "error": {
            "code": "content_filter",
            "message": "The response was filtered",
            "param": "prompt",
            "status": 400,
            "innererror": {"code": "ResponsibleAIPolicyViolation", "content_filter_result": {}},
        }
    }

    assert describe_azure_error(json.dumps(body).encode()) == VendorErrorBody(
        "ResponsibleAIPolicyViolation", "content_filter", "The response was filtered"
    )
    plain = {"error": {"code": "DeploymentNotFound", "message": "no such deployment"}}
    assert describe_azure_error(json.dumps(plain).encode()) == VendorErrorBody(
        None, "DeploymentNotFound", "no such deployment"
    )
    typed = {"error": {"type": "invalid_request_error", "code": "x", "innererror": {"code": "y"}}}
    assert describe_azure_error(json.dumps(typed).encode()) == VendorErrorBody(
        "invalid_request_error", "x", None
    )
    assert describe_azure_error(b"<html>") is None
    with pytest.raises(TypeError):
        describe_azure_error("text")  # type: ignore[arg-type]


async def test_an_azure_error_status_carries_the_bodys_codes() -> None:
    body = json.dumps(
        {"error": {"code": "401", "message": "Access denied due to invalid subscription key."}}
    ).encode()

    class Refusing(Captured):
        def _exchange(self) -> httpx2.AsyncBaseTransport:
            return httpx2.MockTransport(
                lambda request: httpx2.Response(
                    401, headers={"content-type": "application/json"}, content=body
                )
            )

    transport = Refusing(b"")
    model = AzureOpenAIChatModel(
        OpenAIConfig("d", base_url=ENDPOINT),
        api_version="2024-10-21",
        api_key="azure-key-1",
        transport=transport,
    )
    async with transport:
        played = await replay(model)

    assert played.error is not None
    assert (played.error.code, played.error.status, played.error.vendor) == (
        Code.HTTP_UNAUTHORIZED,
        401,
        "azure-openai-chat",
    )
    assert played.error.vendor_code == "401"
    assert "azure-key-1" not in repr(played.error)


async def test_a_responses_stream_that_fails_names_azures_wire() -> None:
    body = sse_bytes(responses_text_stream("Hi"))[:-40]
    transport = Captured(body)
    model = AzureOpenAIResponsesModel(
        OpenAIConfig("d", base_url=ENDPOINT), api_version="2025-04-01-preview", transport=transport
    )
    async with transport:
        played = await replay(model)

    assert played.error is not None
    assert played.error.vendor == "azure-openai-responses"
