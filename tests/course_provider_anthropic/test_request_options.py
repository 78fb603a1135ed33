"""Each option in the Messages API's documented JSON, and the options the API refuses together.

One golden body (or header) per option; the rules every vendor shares are
tested over every wire in ``tests/course_vendor/test_options_*.py``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from course_http import VendorError, VendorErrorCode
from course_protocol import (
    CourseAssistantMessage,
    CourseMessage,
    CourseModelRequest,
    CourseOpaque,
    CourseReasoningBlock,
    CourseResponseFormat,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseToolSpec,
    CourseUserMessage,
)
from course_provider_anthropic import AnthropicConfig, messages_request_body, request_headers
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
EPHEMERAL = {"type": "ephemeral"}
QUESTION = (CourseUserMessage("u-1", "What is 20 + 22?"),)
ROUND_TRIP = (
    CourseUserMessage("u-1", "What is 20 + 22?"),
    CourseAssistantMessage(
        "a-1", (CourseTextBlock("Adding."), CourseToolCall("toolu_1", "add", {"a": 20}))
    ),
    CourseToolResultMessage("r-1", "toolu_1", "add", "42"),
)


def config(**options: Any) -> AnthropicConfig:
    return AnthropicConfig("claude-test", 4096, **options)


def body_of(settings: AnthropicConfig, messages: tuple[CourseMessage, ...] = QUESTION) -> Any:
    body = messages_request_body(CourseModelRequest("request-1", messages), settings)
    # What is sent is JSON: compare what the wire carries, not Python values.
    return json.loads(json.dumps(body))


def options_of(settings: AnthropicConfig) -> dict[str, Any]:
    """The body without what every request carries, to compare an option's entries alone."""
    body = body_of(settings)
    for key in ("model", "max_tokens", "messages", "stream", "tools"):
        body.pop(key, None)
    return dict(body)


def refusal(**options: Any) -> VendorConfigError:
    with pytest.raises(VendorConfigError) as caught:
        config(**options)
    assert caught.value.code is INVALID
    return caught.value


@pytest.mark.parametrize(
    ("options", "entries"),
    [
        ({"temperature": 0.25}, {"temperature": 0.25}),
        ({"temperature": 1}, {"temperature": 1.0}),
        ({"top_p": 0.9}, {"top_p": 0.9}),
        ({"top_k": 40}, {"top_k": 40}),
        ({"stop_sequences": ["END", "\n\nHuman:"]}, {"stop_sequences": ["END", "\n\nHuman:"]}),
        ({"user_id": "user-7f3a"}, {"metadata": {"user_id": "user-7f3a"}}),
        (
            {"reasoning": ThinkingBudget(2048)},
            {"thinking": {"type": "enabled", "budget_tokens": 2048}},
        ),
    ],
    ids=["temperature", "temperature-int", "top_p", "top_k", "stop", "user", "thinking"],
)
def test_each_sampling_and_identity_option_is_its_documented_field(
    options: dict[str, Any], entries: dict[str, Any]
) -> None:
    assert options_of(config(**options)) == entries


@pytest.mark.parametrize(
    ("options", "choice"),
    [
        ({"tool_choice": ToolChoice.AUTO}, {"type": "auto"}),
        ({"tool_choice": "none"}, {"type": "none"}),
        ({"tool_choice": ToolChoice.REQUIRED}, {"type": "any"}),
        ({"tool_choice": NamedTool("mul")}, {"type": "tool", "name": "mul"}),
        (
            {"tool_choice": NamedTool("add"), "parallel_tool_calls": False},
            {"type": "tool", "name": "add", "disable_parallel_tool_use": True},
        ),
        (
            {"tool_choice": "required", "parallel_tool_calls": True},
            {"type": "any", "disable_parallel_tool_use": False},
        ),
        ({"parallel_tool_calls": False}, {"type": "auto", "disable_parallel_tool_use": True}),
    ],
    ids=["auto", "none", "required-is-any", "named", "named-serial", "any-parallel", "serial"],
)
def test_tool_choice_and_parallel_calls_are_one_tool_choice_object(
    options: dict[str, Any], choice: dict[str, Any]
) -> None:
    assert options_of(config(tools=(ADD, MUL), **options)) == {"tool_choice": choice}


def test_prompt_caching_marks_the_system_prompt_the_last_tool_and_the_chosen_messages() -> None:
    settings = config(
        system_prompt="Be brief.",
        tools=(ADD, MUL),
        cache_system=True,
        cache_tools=True,
        cache_messages=(0, -1),
    )

    body = body_of(settings, ROUND_TRIP)

    assert body["system"] == [{"type": "text", "text": "Be brief.", "cache_control": EPHEMERAL}]
    assert [tool.get("cache_control") for tool in body["tools"]] == [None, EPHEMERAL]
    assert body["messages"] == [
        {
            "role": "user",
            "content": [{"type": "text", "text": "What is 20 + 22?", "cache_control": EPHEMERAL}],
        },
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Adding."},
                {"type": "tool_use", "id": "toolu_1", "name": "add", "input": {"a": 20}},
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_1",
                    "content": "42",
                    "cache_control": EPHEMERAL,
                }
            ],
        },
    ]


def test_a_cache_ttl_goes_on_every_breakpoint_and_an_assistant_message_is_marked_last() -> None:
    settings = config(cache_messages=(1,), cache_ttl="1h")

    body = body_of(settings, ROUND_TRIP)

    assert body["messages"][1]["content"][-1] == {
        "type": "tool_use",
        "id": "toolu_1",
        "name": "add",
        "input": {"a": 20},
        "cache_control": {"type": "ephemeral", "ttl": "1h"},
    }
    assert "cache_control" not in body["messages"][1]["content"][0]


@pytest.mark.parametrize(
    ("chosen", "message"),
    [
        (3, "cache_messages[0] (3) chooses no message of the 3 in the request"),
        (-4, "cache_messages[0] (-4) chooses no message of the 3 in the request"),
    ],
)
def test_a_cached_message_the_request_lacks_fails_the_call_without_sending(
    chosen: int, message: str
) -> None:
    with pytest.raises(VendorError) as caught:
        body_of(config(cache_messages=(chosen,)), ROUND_TRIP)

    assert caught.value.code is VendorErrorCode.VENDOR_INVALID_REQUEST
    assert caught.value.message == message


def test_a_cached_message_that_sends_nothing_fails_the_call() -> None:
    messages = (*QUESTION, CourseAssistantMessage("a-1", (CourseTextBlock("  "),)))

    with pytest.raises(VendorError) as caught:
        body_of(config(cache_messages=(-1,)), messages)

    assert caught.value.message == (
        "cache_messages[0] (-1) chooses messages[1], which sends nothing to cache"
    )


def test_betas_are_one_comma_separated_header_and_none_sends_no_header() -> None:
    assert request_headers("sk-ant-test-key", ("a-2025-01-01", "b-2025-02-02")) == {
        "x-api-key": "sk-ant-test-key",
        "anthropic-version": "2023-06-01",
        "anthropic-beta": "a-2025-01-01,b-2025-02-02",
    }
    assert "anthropic-beta" not in request_headers("sk-ant-test-key")


@pytest.mark.parametrize(
    ("options", "path", "message"),
    [
        (
            {"temperature": 1.5},
            "AnthropicConfig.temperature",
            "must be from 0 to 1 for anthropic-messages, got 1.5",
        ),
        (
            {"reasoning": ReasoningEffort.LOW},
            "AnthropicConfig.reasoning",
            "is a ReasoningEffort, which anthropic-messages does not take (it takes "
            "ThinkingBudget)",
        ),
        (
            {"reasoning": ThinkingBudget(1023)},
            "AnthropicConfig.reasoning.tokens",
            "must be from 1024 to max_output_tokens - 1 (4095), got 1023",
        ),
        (
            {"reasoning": ThinkingBudget(4096)},
            "AnthropicConfig.reasoning.tokens",
            "must be from 1024 to max_output_tokens - 1 (4095), got 4096",
        ),
        (
            {"reasoning": ThinkingBudget(2048), "tools": (ADD,), "tool_choice": "required"},
            "AnthropicConfig.tool_choice",
            "must be 'auto', 'none' or None with extended thinking (the API forces no Tool "
            "while the model thinks)",
        ),
        (
            {"reasoning": ThinkingBudget(2048), "tools": (ADD,), "tool_choice": NamedTool("add")},
            "AnthropicConfig.tool_choice",
            "must be 'auto', 'none' or None with extended thinking (the API forces no Tool "
            "while the model thinks)",
        ),
        (
            {"response_format": CourseResponseFormat("answer", {}, description="The answer.")},
            "AnthropicConfig.response_format.description",
            "is not supported by anthropic-messages: its output format has no description; "
            "leave it None",
        ),
        (
            {"server_tools": {"type": "web_search_20250305", "name": "web_search"}},
            "AnthropicConfig.server_tools",
            "must be a tuple of JSON objects, got dict",
        ),
        (
            {"server_tools": ({"type": "custom", "name": "add"},)},
            "AnthropicConfig.server_tools[0].type",
            "must name a tool the vendor runs (web_search_20250305, ...); "
            "a Tool the loop runs goes in tools",
        ),
        (
            {"server_tools": ({"name": "web_search"},)},
            "AnthropicConfig.server_tools[0].type",
            "must name a tool the vendor runs (web_search_20250305, ...); "
            "a Tool the loop runs goes in tools",
        ),
        (
            {"server_tools": ({"type": "web_search_20250305", "name": " "},)},
            "AnthropicConfig.server_tools[0].name",
            "must be a non-blank str",
        ),
        (
            {"tools": (ADD,), "server_tools": ({"type": "bash_20250124", "name": "add"},)},
            "AnthropicConfig.server_tools[0].name",
            "repeats the tool name 'add'",
        ),
        (
            {"reasoning": ThinkingBudget(2048), "temperature": 0.5},
            "AnthropicConfig.temperature",
            "cannot be set with extended thinking",
        ),
        (
            {"reasoning": ThinkingBudget(2048), "top_k": 5},
            "AnthropicConfig.top_k",
            "cannot be set with extended thinking",
        ),
        (
            {"reasoning": ThinkingBudget(2048), "top_p": 0.9},
            "AnthropicConfig.top_p",
            "must be from 0.95 to 1 with extended thinking",
        ),
        ({"top_k": 0}, "AnthropicConfig.top_k", "must be an int of 1 or more or None, got 0"),
        ({"top_k": True}, "AnthropicConfig.top_k", "must be an int of 1 or more or None, got True"),
        ({"cache_system": True}, "AnthropicConfig.cache_system", "needs a system_prompt to cache"),
        (
            {"cache_tools": True},
            "AnthropicConfig.cache_tools",
            "needs tools or server_tools to cache",
        ),
        ({"cache_system": 1}, "AnthropicConfig.cache_system", "must be a bool, got 1"),
        (
            {"cache_messages": -1},
            "AnthropicConfig.cache_messages",
            "must be a tuple of int message indexes, got -1",
        ),
        (
            {"cache_messages": (0, 0)},
            "AnthropicConfig.cache_messages",
            "repeats a message index",
        ),
        (
            {"cache_messages": (0, True)},
            "AnthropicConfig.cache_messages[1]",
            "must be an int message index, got True",
        ),
        (
            {"cache_messages": (0, 1, 2, 3), "system_prompt": "Hi.", "cache_system": True},
            "AnthropicConfig.cache_messages",
            "makes 5 cache breakpoints; the API takes at most 4",
        ),
        ({"cache_ttl": "1h"}, "AnthropicConfig.cache_ttl", "needs something to cache"),
        (
            {"cache_ttl": "2h", "cache_messages": (-1,)},
            "AnthropicConfig.cache_ttl",
            "must be '5m', '1h' or None, got '2h'",
        ),
        (
            {"betas": ("a,b",)},
            "AnthropicConfig.betas[0]",
            "must be a beta name (an HTTP token without a comma)",
        ),
        ({"betas": ("x", "x")}, "AnthropicConfig.betas", "repeats a beta name"),
    ],
)
def test_what_the_messages_api_refuses_is_refused_at_construction(
    options: dict[str, Any], path: str, message: str
) -> None:
    error = refusal(**options)

    assert (error.path, error.message) == (path, f"{path} {message}")


@pytest.mark.parametrize(
    ("options", "key"),
    [
        ({"extra_body": {"temperature": 0.5}}, "temperature"),
        ({"extra_body": {"metadata": {}}}, "metadata"),
        ({"extra_body": {"max_tokens": 1}}, "max_tokens"),
        ({"extra_body": {"thinking": {}}}, "thinking"),
    ],
)
def test_extra_body_may_not_hold_a_key_the_adapter_writes(
    options: dict[str, Any], key: str
) -> None:
    error = refusal(**options)

    assert error.path == f"AnthropicConfig.extra_body[{key!r}]"
    assert error.message.endswith(
        "is written by the anthropic-messages adapter itself: set it through the "
        "configuration's own field, or not at all"
    )


@pytest.mark.parametrize("name", ["anthropic-version", "Anthropic-Beta"])
def test_extra_headers_may_not_hold_a_header_the_adapter_writes(name: str) -> None:
    error = refusal(extra_headers={name: "x"})

    assert error.path == f"AnthropicConfig.extra_headers[{name.lower()!r}]"


WEB_SEARCH = {"type": "web_search_20250305", "name": "web_search", "max_uses": 3}


def test_server_tools_follow_the_tools_as_given_and_the_last_one_is_cached() -> None:
    strict_add = CourseToolSpec("add", "Adds.", {"type": "object"}, strict=True)
    settings = config(tools=(strict_add, MUL), server_tools=(WEB_SEARCH,), cache_tools=True)

    assert body_of(settings)["tools"] == [
        {"name": "add", "description": "Adds.", "input_schema": {"type": "object"}, "strict": True},
        {"name": "mul", "description": "Multiplies.", "input_schema": {"type": "object"}},
        {**WEB_SEARCH, "cache_control": EPHEMERAL},
    ]


def test_server_tools_alone_are_the_tools_and_are_kept_frozen() -> None:
    given = dict(WEB_SEARCH)
    settings = config(server_tools=[given])
    given["max_uses"] = 99

    assert body_of(settings)["tools"] == [WEB_SEARCH]
    assert type(settings.server_tools) is tuple
    with pytest.raises(TypeError):
        settings.server_tools[0]["max_uses"] = 1  # type: ignore[index]


def test_server_tools_nested_past_the_json_limit_are_refused_naming_the_path() -> None:
    deep: dict[str, Any] = {"type": "web_search_20250305", "name": "web_search"}
    cursor = deep
    for _ in range(200):
        cursor["x"] = {}
        cursor = cursor["x"]

    error = refusal(server_tools=(deep,))

    assert error.path.startswith("AnthropicConfig.server_tools[0].x.x")


def test_a_response_format_is_output_config_format_with_its_json_schema() -> None:
    schema = {"type": "object", "properties": {"answer": {"type": "integer"}}}
    for strict in (True, False):
        settings = config(response_format=CourseResponseFormat("answer", schema, strict=strict))

        assert options_of(settings) == {
            "output_config": {"format": {"type": "json_schema", "schema": schema}}
        }


def test_thinking_with_tools_is_sent_with_tool_choice_auto() -> None:
    settings = config(reasoning=ThinkingBudget(2048), tools=(ADD,), tool_choice="auto")

    assert options_of(settings) == {
        "tool_choice": {"type": "auto"},
        "thinking": {"type": "enabled", "budget_tokens": 2048},
    }


@pytest.mark.parametrize("key", ["output_config", "tools"])
def test_extra_body_may_not_hold_the_output_config_nor_tools(key: str) -> None:
    error = refusal(extra_body={key: {}})

    assert error.path == f"AnthropicConfig.extra_body[{key!r}]"


def test_a_cache_breakpoint_on_an_assistant_message_skips_its_thinking_blocks() -> None:
    signed = CourseOpaque("anthropic-messages", {"type": "thinking", "signature": "c2ln"})
    thought = CourseReasoningBlock("Hm.", opaque=signed)
    messages = (
        *QUESTION,
        CourseAssistantMessage("a-1", (CourseTextBlock("42."), thought)),
        CourseUserMessage("u-2", "Why?"),
    )

    body = body_of(config(cache_messages=(1,)), messages)

    assert body["messages"][1]["content"] == [
        {"type": "text", "text": "42.", "cache_control": EPHEMERAL},
        {"type": "thinking", "thinking": "Hm.", "signature": "c2ln"},
    ]
    with pytest.raises(VendorError) as caught:
        body_of(
            config(cache_messages=(1,)),
            (*QUESTION, CourseAssistantMessage("a-1", (thought,)), messages[-1]),
        )
    assert caught.value.message == (
        "cache_messages[0] (1) chooses messages[1], which sends nothing to cache"
    )
