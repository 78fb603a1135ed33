"""Every registered SSE wire has bench bodies, and a dialect's bodies are in its own form."""

from __future__ import annotations

from typing import Any

import pytest
from returns.result import Failure, Success

from benchmarks._chat_bodies import ANNOTATED_DELTAS
from benchmarks._serve_row import SERVED
from benchmarks._vendor_bodies import APIS, UNMEASURED, body_form, shapes_of, vendor_body
from benchmarks._vendor_measure import OUR_MODELS
from course_http import VendorError, VendorErrorCode
from course_provider_openai import AZURE_OPENAI_CHAT, CHAT_DIALECTS, ChatResult
from course_vendor import judge_body, load_vendor, vendor_names

Code = VendorErrorCode
SSE_MEDIA_TYPE = "text/event-stream"

PLAIN_CHAT_REFUSES = {
    "mistral": {
        "text": (Code.VENDOR_INVALID_EVENT, "delta.content must be a string or null"),
        "tool": (Code.VENDOR_EVENT_ORDER, "usage comes in a chunk with choices"),
        "reasoning": (Code.VENDOR_INVALID_EVENT, "delta.content must be a string or null"),
    },
    "openrouter": dict.fromkeys(
        ("text", "tool", "reasoning"),
        (Code.VENDOR_EVENT_ORDER, "usage comes in a chunk with choices"),
    ),
    "together": dict.fromkeys(
        ("text", "tool", "reasoning"),
        (Code.VENDOR_EVENT_ORDER, "usage comes in a chunk with choices"),
    ),
    "vllm": dict.fromkeys(
        ("text", "tool", "reasoning"),
        (Code.VENDOR_EVENT_ORDER, "usage comes in a chunk with choices"),
    ),
    "azure-openai-chat": dict.fromkeys(
        ("text", "tool"), (Code.VENDOR_INVALID_EVENT, "id must be a non-blank string")
    ),
}
"""Where a dialect's body differs from what plain ``openai-chat`` takes, and what it says."""


def test_every_registered_sse_wire_has_bodies_and_only_other_framings_have_none() -> None:
    other_framings = {
        name
        for name in vendor_names()
        if SSE_MEDIA_TYPE not in load_vendor(name).wire.framing.media_types
    }

    assert set(UNMEASURED) == other_framings == {"bedrock-converse"}
    assert set(APIS) == set(vendor_names()) - other_framings
    for dialect in (*CHAT_DIALECTS, AZURE_OPENAI_CHAT):
        assert dialect.wire in APIS


def test_our_row_names_the_model_class_and_the_dialect_it_reads() -> None:
    assert OUR_MODELS["openai-chat"] == "ours: OpenAIChatModel"
    assert OUR_MODELS["groq"] == "ours: OpenAIChatModel (groq dialect)"
    assert OUR_MODELS["azure-openai-chat"] == "ours: AzureOpenAIChatModel"
    assert OUR_MODELS["azure-openai-responses"] == "ours: AzureOpenAIResponsesModel"
    assert set(OUR_MODELS) == set(APIS)


def test_only_wires_with_an_sdk_of_their_own_get_a_course_serve_row() -> None:
    assert {"anthropic-messages", "openai-chat", "openai-responses", "gemini"} == SERVED


def test_the_dialects_that_stream_reasoning_have_a_reasoning_body() -> None:
    reasoning = {api for api in APIS if "reasoning" in shapes_of(api)}

    assert reasoning == {
        "anthropic-messages",
        "gemini",
        "openai-responses",
        "azure-openai-responses",
        "openrouter-responses",
        *(dialect.wire for dialect in CHAT_DIALECTS),
    }
    assert "reasoning" not in shapes_of("azure-openai-chat")


DIALECT_SHAPES = [
    (dialect.wire, shape)
    for dialect in (*CHAT_DIALECTS, AZURE_OPENAI_CHAT)
    for shape in shapes_of(dialect.wire)
]


@pytest.mark.parametrize(("api", "shape"), DIALECT_SHAPES)
def test_a_dialects_body_passes_its_grammar_and_plain_chat_refuses_its_own_form(
    api: str, shape: str
) -> None:
    body = vendor_body(api, shape, 9)  # type: ignore[arg-type]

    judged = judge_body(load_vendor(api), body.body)
    plain = judge_body(load_vendor("openai-chat"), body.body)

    assert type(judged) is Success
    result: Any = judged.unwrap()
    assert type(result) is ChatResult
    [choice] = result.choices
    if shape == "reasoning":
        assert (choice.reasoning, choice.content) == (body.text, "Done.")
    elif shape == "text":
        assert (choice.reasoning, choice.content) == ("", body.text)
    assert result.usage is not None
    assert result.usage.completion_tokens == 9
    refused = PLAIN_CHAT_REFUSES.get(api, {}).get(shape)
    if refused is None:
        assert type(plain) is Success
        return
    assert type(plain) is Failure
    error = plain.failure()
    assert type(error) is VendorError
    assert (error.code, error.vendor) == (refused[0], "openai-chat")
    assert refused[1] in error.message


def test_groq_sends_its_usage_in_x_groq_and_openrouter_its_reasoning_details() -> None:
    groq = vendor_body("groq", "text", 5).body.decode()
    openrouter = vendor_body("openrouter", "reasoning", 5).body.decode()
    azure = vendor_body("azure-openai-chat", "text", 2 * ANNOTATED_DELTAS).body.decode()

    assert groq.count('"x_groq":{') == 1
    assert '"choices":[]' not in groq
    assert openrouter.count('"type":"reasoning.text"') == 5
    assert azure.startswith('data: {"id":"","object":""')
    # The prompt's, one per ANNOTATED_DELTAS deltas (the role's first), and after the finish.
    assert azure.count('"content_filter_results"') == 1 + 2 + 1
    assert azure.count('"content_filter_offsets"') == 3


def test_azures_responses_bodies_are_openais_and_a_dialect_names_its_own_form() -> None:
    assert body_form("azure-openai-responses") == "openai-responses"
    for shape in shapes_of("openai-responses"):
        azure = vendor_body("azure-openai-responses", shape, 9)
        assert azure.body == vendor_body("openai-responses", shape, 9).body
    assert body_form("groq") == "groq"
    assert body_form("openai-chat") == "openai-chat"
