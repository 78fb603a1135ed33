"""Course requests to Messages API bodies, one golden body per shape."""

from __future__ import annotations

import json
from typing import Any

from course_protocol import (
    CourseAssistantMessage,
    CourseMessage,
    CourseModelRequest,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseToolSpec,
    CourseUserMessage,
)
from course_provider_anthropic import AnthropicConfig, messages_request_body

CONFIG = AnthropicConfig(model="claude-test", max_output_tokens=256)
ADD = CourseToolCall("toolu_01A", "add", {"left": 20, "right": 22})
MUL = CourseToolCall("toolu_01B", "mul", {"factors": [2, 21], "exact": True, "note": None})


def body_of(*messages: CourseMessage, config: AnthropicConfig = CONFIG) -> dict[str, Any]:
    return messages_request_body(CourseModelRequest("request-1", messages), config)


def user(text: str, message_id: str = "u-1") -> CourseUserMessage:
    return CourseUserMessage(message_id, text)


def text(value: str) -> dict[str, str]:
    return {"type": "text", "text": value}


def test_user_text() -> None:
    assert body_of(user("What is 20 + 22?")) == {
        "model": "claude-test",
        "max_tokens": 256,
        "messages": [{"role": "user", "content": [text("What is 20 + 22?")]}],
        "stream": True,
    }


def test_assistant_text_and_tool_use_keep_the_providers_ids_and_arguments() -> None:
    messages = body_of(
        user("Compute."),
        CourseAssistantMessage("a-1", [CourseTextBlock("Computing."), ADD, MUL]),
        CourseToolResultMessage("r-1", "toolu_01A", "add", "42"),
        CourseToolResultMessage("r-2", "toolu_01B", "mul", "42"),
    )["messages"]

    assert messages[1] == {
        "role": "assistant",
        "content": [
            text("Computing."),
            {
                "type": "tool_use",
                "id": "toolu_01A",
                "name": "add",
                "input": {"left": 20, "right": 22},
            },
            {
                "type": "tool_use",
                "id": "toolu_01B",
                "name": "mul",
                "input": {"factors": [2, 21], "exact": True, "note": None},
            },
        ],
    }
    assert type(messages[1]["content"][2]["input"]["factors"]) is list


def test_tool_results_and_the_user_message_after_them_are_merged_into_one_user_turn() -> None:
    messages = body_of(
        user("Compute."),
        CourseAssistantMessage("a-1", [ADD, MUL]),
        CourseToolResultMessage("r-2", "toolu_01B", "mul", "42"),
        CourseToolResultMessage("r-1", "toolu_01A", "add", "42"),
        user("And now?", "u-2"),
        user("Be brief.", "u-3"),
    )["messages"]

    assert [turn["role"] for turn in messages] == ["user", "assistant", "user"]
    assert messages[2] == {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "toolu_01B", "content": "42"},
            {"type": "tool_result", "tool_use_id": "toolu_01A", "content": "42"},
            text("And now?"),
            text("Be brief."),
        ],
    }


def test_a_failed_tool_sends_is_error_true_and_a_successful_one_sends_no_is_error() -> None:
    messages = body_of(
        user("Compute."),
        CourseAssistantMessage("a-1", [ADD, MUL]),
        CourseToolResultMessage("r-1", "toolu_01A", "add", "42"),
        CourseToolResultMessage("r-2", "toolu_01B", "mul", "overflow", is_error=True),
    )["messages"]

    assert messages[2]["content"] == [
        {"type": "tool_result", "tool_use_id": "toolu_01A", "content": "42"},
        {
            "type": "tool_result",
            "tool_use_id": "toolu_01B",
            "content": "overflow",
            "is_error": True,
        },
    ]


def test_system_prompt() -> None:
    config = AnthropicConfig(
        model="claude-test", max_output_tokens=256, system_prompt="Answer in numbers."
    )

    assert body_of(user("Hi"), config=config) == {
        "model": "claude-test",
        "max_tokens": 256,
        "system": "Answer in numbers.",
        "messages": [{"role": "user", "content": [text("Hi")]}],
        "stream": True,
    }


def test_tools_from_the_configured_specs() -> None:
    schema = {
        "type": "object",
        "properties": {"left": {"type": "number"}, "right": {"type": "number"}},
        "required": ["left", "right"],
    }
    config = AnthropicConfig(
        model="claude-test",
        max_output_tokens=256,
        tools=(CourseToolSpec("add", "Adds two numbers.", schema), CourseToolSpec("now", "", {})),
    )

    body = body_of(user("Hi"), config=config)

    assert body["tools"] == [
        {"name": "add", "description": "Adds two numbers.", "input_schema": schema},
        {"name": "now", "description": "", "input_schema": {}},
    ]
    assert type(body["tools"][0]["input_schema"]["required"]) is list
    assert list(body) == ["model", "max_tokens", "messages", "tools", "stream"]


def test_a_whole_tool_round_trip_serializes_to_plain_json() -> None:
    config = AnthropicConfig(
        model="claude-test",
        max_output_tokens=256,
        system_prompt="Use the tools.",
        tools=(CourseToolSpec("add", "Adds.", {"type": "object"}),),
    )
    body = body_of(
        user("What is 20 + 22?"),
        CourseAssistantMessage("a-1", [CourseTextBlock("Adding."), ADD]),
        CourseToolResultMessage("r-1", "toolu_01A", "add", "42"),
        CourseAssistantMessage("a-2", [CourseTextBlock("The sum is 42.")]),
        user("Thanks.", "u-2"),
        config=config,
    )

    assert json.loads(json.dumps(body)) == {
        "model": "claude-test",
        "max_tokens": 256,
        "system": "Use the tools.",
        "messages": [
            {"role": "user", "content": [text("What is 20 + 22?")]},
            {
                "role": "assistant",
                "content": [
                    text("Adding."),
                    {
                        "type": "tool_use",
                        "id": "toolu_01A",
                        "name": "add",
                        "input": {"left": 20, "right": 22},
                    },
                ],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_01A", "content": "42"}],
            },
            {"role": "assistant", "content": [text("The sum is 42.")]},
            {"role": "user", "content": [text("Thanks.")]},
        ],
        "tools": [{"name": "add", "description": "Adds.", "input_schema": {"type": "object"}}],
        "stream": True,
    }


def test_a_final_assistant_message_is_sent_as_a_prefill() -> None:
    messages = body_of(
        user("Write a function."), CourseAssistantMessage("a-1", [CourseTextBlock("```python")])
    )["messages"]

    assert messages[-1] == {"role": "assistant", "content": [text("```python")]}


def test_two_assistant_messages_in_a_row_become_one_assistant_turn() -> None:
    messages = body_of(
        user("Compute."),
        CourseAssistantMessage("a-1", [CourseTextBlock("Let me see.")]),
        CourseAssistantMessage("a-2", [ADD]),
        CourseToolResultMessage("r-1", "toolu_01A", "add", "42"),
    )["messages"]

    assert messages[1] == {
        "role": "assistant",
        "content": [
            text("Let me see."),
            {
                "type": "tool_use",
                "id": "toolu_01A",
                "name": "add",
                "input": {"left": 20, "right": 22},
            },
        ],
    }
    assert [turn["role"] for turn in messages] == ["user", "assistant", "user"]


def test_blank_assistant_text_blocks_are_left_out_and_an_empty_message_is_not_sent() -> None:
    messages = body_of(
        user("Compute."),
        CourseAssistantMessage("a-1", [CourseTextBlock(""), ADD, CourseTextBlock(" \n")]),
        CourseToolResultMessage("r-1", "toolu_01A", "add", "42"),
        CourseAssistantMessage("a-2", [CourseTextBlock("")]),
        CourseAssistantMessage("a-3", []),
        user("Next.", "u-2"),
    )["messages"]

    assert messages == [
        {"role": "user", "content": [text("Compute.")]},
        {
            "role": "assistant",
            "content": [
                {
                    "type": "tool_use",
                    "id": "toolu_01A",
                    "name": "add",
                    "input": {"left": 20, "right": 22},
                }
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_01A", "content": "42"},
                text("Next."),
            ],
        },
    ]


def test_the_body_shares_nothing_with_the_course_values() -> None:
    request = CourseModelRequest("request-1", [user("Hi")])
    first = messages_request_body(request, CONFIG)
    first["messages"][0]["content"][0]["text"] = "changed"

    assert messages_request_body(request, CONFIG)["messages"][0]["content"] == [text("Hi")]
