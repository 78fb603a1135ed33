"""Each option in both OpenAI APIs' documented JSON, and what each API refuses.

One golden entry per option and API; the rules every vendor shares are
tested over every wire in ``tests/course_vendor/test_options_*.py``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from course_http import RecordedTransport
from course_protocol import CourseModelRequest, CourseToolSpec, CourseUserMessage
from course_provider_openai import (
    OpenAIChatModel,
    OpenAIConfig,
    OpenAIResponsesModel,
    chat_request_body,
    responses_request_body,
)
from course_vendor import (
    NamedTool,
    ReasoningEffort,
    ThinkingBudget,
    ToolChoice,
    VendorConfigError,
    VendorConfigErrorCode,
)

ADD = CourseToolSpec("add", "Adds.", {"type": "object"})
MUL = CourseToolSpec("mul", "Multiplies.", {"type": "object"})
INVALID = VendorConfigErrorCode.VENDOR_INVALID_CONFIG
REQUEST = CourseModelRequest("request-1", (CourseUserMessage("u-1", "What is 20 + 22?"),))
Builder = Callable[[CourseModelRequest, OpenAIConfig], dict[str, object]]
ALWAYS = {
    "chat": ("model", "messages", "tools", "stream", "stream_options"),
    "responses": ("model", "input", "tools", "stream"),
}


def options_of(build: Builder, kind: str, **options: Any) -> dict[str, Any]:
    """The body without what every request carries: the options' entries alone, as JSON."""
    body: dict[str, Any] = json.loads(json.dumps(build(REQUEST, OpenAIConfig("gpt", **options))))
    for key in ALWAYS[kind]:
        body.pop(key, None)
    return body


def chat(**options: Any) -> dict[str, Any]:
    return options_of(chat_request_body, "chat", **options)


def responses(**options: Any) -> dict[str, Any]:
    body = options_of(responses_request_body, "responses", **options)
    assert "store" in body, "the Responses API body always says whether to store"
    return body


SHARED = [
    ({"temperature": 1.5}, {"temperature": 1.5}),
    ({"temperature": 0}, {"temperature": 0.0}),
    ({"top_p": 0.5}, {"top_p": 0.5}),
    ({"user_id": "user-7f3a"}, {"safety_identifier": "user-7f3a"}),
    ({"prompt_cache_key": "agent-v2"}, {"prompt_cache_key": "agent-v2"}),
    ({"service_tier": "flex"}, {"service_tier": "flex"}),
    ({"tools": (ADD,), "parallel_tool_calls": False}, {"parallel_tool_calls": False}),
    ({"tools": (ADD,), "tool_choice": ToolChoice.AUTO}, {"tool_choice": "auto"}),
    ({"tools": (ADD,), "tool_choice": "none"}, {"tool_choice": "none"}),
    ({"tools": (ADD,), "tool_choice": ToolChoice.REQUIRED}, {"tool_choice": "required"}),
]
SHARED_IDS = [
    "temperature",
    "temperature-int",
    "top_p",
    "user-is-safety-identifier",
    "prompt-cache-key",
    "service-tier",
    "parallel",
    "auto",
    "none",
    "required",
]


@pytest.mark.parametrize(("options", "entries"), SHARED, ids=SHARED_IDS)
def test_chat_sends_each_shared_option_under_its_documented_name(
    options: dict[str, Any], entries: dict[str, Any]
) -> None:
    assert chat(**options) == entries


@pytest.mark.parametrize(("options", "entries"), SHARED, ids=SHARED_IDS)
def test_responses_sends_each_shared_option_under_its_documented_name(
    options: dict[str, Any], entries: dict[str, Any]
) -> None:
    assert responses(**options) == {**entries, "store": False}


@pytest.mark.parametrize(
    ("options", "entries"),
    [
        ({"stop_sequences": ("END", "STOP")}, {"stop": ["END", "STOP"]}),
        ({"seed": 42}, {"seed": 42}),
        ({"reasoning": ReasoningEffort.LOW}, {"reasoning_effort": "low"}),
        ({"reasoning": "minimal"}, {"reasoning_effort": "minimal"}),
        ({"store": True}, {"store": True}),
        ({"store": False}, {"store": False}),
        (
            {"tools": (ADD, MUL), "tool_choice": NamedTool("mul")},
            {"tool_choice": {"type": "function", "function": {"name": "mul"}}},
        ),
    ],
    ids=["stop", "seed", "effort", "effort-str", "store", "no-store", "named"],
)
def test_chat_only_spellings(options: dict[str, Any], entries: dict[str, Any]) -> None:
    assert chat(**options) == entries


@pytest.mark.parametrize(
    ("options", "entries"),
    [
        (
            {"reasoning": ReasoningEffort.HIGH},
            {
                "reasoning": {"effort": "high"},
                "include": ["reasoning.encrypted_content"],
                "store": False,
            },
        ),
        ({"store": True}, {"store": True}),
        (
            {"tools": (ADD, MUL), "tool_choice": NamedTool("mul")},
            {"tool_choice": {"type": "function", "name": "mul"}, "store": False},
        ),
    ],
    ids=["effort", "store", "named"],
)
def test_responses_only_spellings(options: dict[str, Any], entries: dict[str, Any]) -> None:
    assert responses(**options) == entries


def test_without_options_neither_body_changes() -> None:
    assert chat() == {}
    assert responses() == {"store": False}


@pytest.mark.parametrize(
    ("options", "path", "message"),
    [
        (
            {"stop_sequences": ("END",)},
            "OpenAIConfig.stop_sequences",
            "is not supported by openai-responses: leave it ()",
        ),
        ({"seed": 7}, "OpenAIConfig.seed", "is not supported by openai-responses: leave it None"),
    ],
)
def test_the_responses_model_refuses_what_only_chat_takes(
    options: dict[str, Any], path: str, message: str
) -> None:
    config = OpenAIConfig("gpt", **options)
    OpenAIChatModel(config, transport=RecordedTransport([]))

    with pytest.raises(VendorConfigError) as caught:
        OpenAIResponsesModel(config, transport=RecordedTransport([]))

    assert (caught.value.code, caught.value.path) == (INVALID, path)
    assert caught.value.message == f"{path} {message}"


@pytest.mark.parametrize(
    ("options", "path", "message"),
    [
        (
            {"temperature": 2.5},
            "OpenAIConfig.temperature",
            "must be from 0 to 2 for OpenAI, got 2.5",
        ),
        (
            {"stop_sequences": ("a", "b", "c", "d", "e")},
            "OpenAIConfig.stop_sequences",
            "holds 5 stop sequences; OpenAI takes at most 4",
        ),
        (
            {"reasoning": ThinkingBudget(2048)},
            "OpenAIConfig.reasoning",
            "is a ThinkingBudget, which OpenAI does not take (it takes ReasoningEffort)",
        ),
        ({"seed": 2**63}, "OpenAIConfig.seed", "must be a 64-bit signed int or None"),
        ({"seed": True}, "OpenAIConfig.seed", "must be a 64-bit signed int or None"),
        ({"store": 1}, "OpenAIConfig.store", "must be a bool or None, got 1"),
        (
            {"service_tier": " "},
            "OpenAIConfig.service_tier",
            "must be a non-blank str or None, got ' '",
        ),
        (
            {"prompt_cache_key": 5},
            "OpenAIConfig.prompt_cache_key",
            "must be a non-blank str or None, got 5",
        ),
        (
            {"extra_body": {"reasoning_effort": "low"}},
            "OpenAIConfig.extra_body['reasoning_effort']",
            "is written by the OpenAI adapter itself: set it through the configuration's own "
            "field, or not at all",
        ),
        (
            {"extra_body": {"stream_options": {}}},
            "OpenAIConfig.extra_body['stream_options']",
            "is written by the OpenAI adapter itself: set it through the configuration's own "
            "field, or not at all",
        ),
    ],
)
def test_what_openai_refuses_is_refused_when_the_config_is_built(
    options: dict[str, Any], path: str, message: str
) -> None:
    with pytest.raises(VendorConfigError) as caught:
        OpenAIConfig("gpt", **options)

    assert (caught.value.code, caught.value.path) == (INVALID, path)
    assert caught.value.message == f"{path} {message}"
