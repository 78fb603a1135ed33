"""converse_request_body: the Converse request shape, against bodies written from the reference."""

from __future__ import annotations

import pytest

from course_protocol import (
    CourseAssistantMessage,
    CourseModelRequest,
    CourseOpaque,
    CourseReasoningBlock,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseToolSpec,
    CourseUserMessage,
)
from course_provider_bedrock import BedrockConfig, converse_request_body
from course_vendor import ContentSupport, NamedTool, ToolChoice, VendorConfigError, check_sendable

ADD = CourseToolSpec("add", "Add two integers.", {"type": "object", "properties": {}})
SIGNED = CourseOpaque("bedrock-converse", {"signature": "sig-1"})


def body(request: CourseModelRequest, **config: object) -> dict[str, object]:
    check_sendable(request, "bedrock-converse", content=ContentSupport(frozenset({"reasoning"})))
    return converse_request_body(request, BedrockConfig("m", region="us-east-1", **config))  # type: ignore[arg-type]


def test_a_whole_loop_is_the_documented_converse_request() -> None:
    request = CourseModelRequest(
        "r",
        (
            CourseUserMessage("u1", "What is 20 + 22?"),
            CourseAssistantMessage(
                "a1",
                (
                    CourseReasoningBlock("Add them.", opaque=SIGNED),
                    CourseTextBlock("Adding."),
                    CourseToolCall("tooluse_1", "add", {"left": 20, "right": 22}),
                ),
            ),
            CourseToolResultMessage("t1", "tooluse_1", "add", "42"),
            CourseUserMessage("u2", "Thanks"),
        ),
    )

    sent = body(
        request,
        max_output_tokens=256,
        system_prompt="Be brief.",
        tools=(ADD,),
        temperature=0.5,
        top_p=0.9,
        stop_sequences=("END",),
        tool_choice=ToolChoice.REQUIRED,
    )

    assert sent == {
        "messages": [
            {"role": "user", "content": [{"text": "What is 20 + 22?"}]},
            {
                "role": "assistant",
                "content": [
                    {
                        "reasoningContent": {
                            "reasoningText": {"text": "Add them.", "signature": "sig-1"}
                        }
                    },
                    {"text": "Adding."},
                    {
                        "toolUse": {
                            "toolUseId": "tooluse_1",
                            "name": "add",
                            "input": {"left": 20, "right": 22},
                        }
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {"toolResult": {"toolUseId": "tooluse_1", "content": [{"text": "42"}]}},
                    {"text": "Thanks"},
                ],
            },
        ],
        "system": [{"text": "Be brief."}],
        "inferenceConfig": {
            "maxTokens": 256,
            "temperature": 0.5,
            "topP": 0.9,
            "stopSequences": ["END"],
        },
        "toolConfig": {
            "tools": [
                {
                    "toolSpec": {
                        "name": "add",
                        "description": "Add two integers.",
                        "inputSchema": {"json": {"type": "object", "properties": {}}},
                    }
                }
            ],
            "toolChoice": {"any": {}},
        },
    }


def test_a_failed_tool_and_redacted_reasoning() -> None:
    request = CourseModelRequest(
        "r",
        (
            CourseUserMessage("u1", "go"),
            CourseAssistantMessage(
                "a1",
                (
                    CourseReasoningBlock(
                        "", opaque=CourseOpaque("bedrock-converse", {"redactedContent": "AAEC"})
                    ),
                    CourseToolCall("c", "add", {}),
                ),
            ),
            CourseToolResultMessage("t1", "c", "add", "boom", is_error=True),
        ),
    )

    sent = body(request, tools=(ADD,), tool_choice=NamedTool("add"))

    assert sent["messages"][1]["content"][0] == {"reasoningContent": {"redactedContent": "AAEC"}}  # type: ignore[index]
    assert sent["messages"][2] == {  # type: ignore[index]
        "role": "user",
        "content": [
            {"toolResult": {"toolUseId": "c", "content": [{"text": "boom"}], "status": "error"}}
        ],
    }
    assert sent["toolConfig"]["toolChoice"] == {"tool": {"name": "add"}}  # type: ignore[index]
    assert "inferenceConfig" not in sent


def test_reasoning_another_wire_produced_is_left_out() -> None:
    request = CourseModelRequest(
        "r",
        (
            CourseUserMessage("u1", "go"),
            CourseAssistantMessage(
                "a1",
                (
                    CourseReasoningBlock(
                        "x", opaque=CourseOpaque("anthropic-messages", {"signature": "s"})
                    ),
                    CourseReasoningBlock("unsigned"),
                    CourseTextBlock("y"),
                ),
            ),
            CourseUserMessage("u2", "again"),
        ),
    )

    sent = body(request)

    assert sent["messages"][1] == {"role": "assistant", "content": [{"text": "y"}]}  # type: ignore[index]


def test_the_configuration_refuses_what_converse_cannot_take() -> None:
    for field, value in (("tool_choice", "none"), ("region", "US EAST"), ("model", "model\u00e9")):
        config = {"model": "m", field: value}
        with pytest.raises(VendorConfigError) as refused:
            BedrockConfig(**config)  # type: ignore[arg-type]
        assert refused.value.path == f"BedrockConfig.{field}"


def test_the_region_names_the_base_url_and_is_read_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AWS_REGION", "eu-west-3")
    assert BedrockConfig("m").base_url == "https://bedrock-runtime.eu-west-3.amazonaws.com"
    assert BedrockConfig("m").region == "eu-west-3"
    assert BedrockConfig("m", region="ap-south-1").base_url == (
        "https://bedrock-runtime.ap-south-1.amazonaws.com"
    )
    monkeypatch.delenv("AWS_REGION")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-west-2")
    assert BedrockConfig("m").region == "us-west-2"
    monkeypatch.delenv("AWS_DEFAULT_REGION")
    assert BedrockConfig("m").region == "us-east-1"
    local = BedrockConfig("m", base_url="http://127.0.0.1:9", region="eu-west-1")
    assert (local.base_url, local.signing_region) == ("http://127.0.0.1:9", "eu-west-1")
