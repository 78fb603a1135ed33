"""What a Gemini request sends back of a rich transcript, and what it refuses before sending.

Each body is written by hand from the API reference (``Content``, ``Part``,
``FunctionCall``, ``FunctionResponse`` with its multimodal ``parts``,
``Blob``, ``FileData``, ``GenerationConfig.responseJsonSchema``, ``Tool``);
the request built from the transcript must equal it as JSON.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from course_http import RecordedResponse, RecordedTransport, VendorError, VendorErrorCode
from course_protocol import (
    CourseAssistantMessage,
    CourseDocumentBlock,
    CourseImageBlock,
    CourseModelRequest,
    CourseOpaque,
    CourseReasoningBlock,
    CourseResponseFormat,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseToolSpec,
    CourseUserMessage,
    CourseVendorToolBlock,
    thaw_json,
)
from course_provider_gemini import GeminiConfig, GeminiModel, generate_content_body
from course_vendor import VendorConfigError, VendorConfigErrorCode
from tests.course_cassettes.replays import replay
from tests.course_provider_gemini import bodies as gemini
from tests.course_vendor.wire import sse_bytes

PNG = b"\x89PNG\r\n\x1a\n-pixels"
PDF = b"%PDF-1.7 a page"
ADD = CourseToolSpec("add", "Adds.", {"type": "object"})
INVALID = VendorErrorCode.VENDOR_INVALID_REQUEST


def own(**data: Any) -> CourseOpaque:
    return CourseOpaque("gemini", data)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def body(*messages: Any, **config: Any) -> dict[str, Any]:
    request = CourseModelRequest("request-1", messages)
    built = generate_content_body(request, GeminiConfig("gemini-test", **config))
    # What is sent is JSON: compare what the wire carries, not Python values.
    loaded: dict[str, Any] = json.loads(json.dumps(built))
    return loaded


def transport(*answers: bytes) -> RecordedTransport:
    sse = {"content-type": "text/event-stream"}
    return RecordedTransport([RecordedResponse(200, sse, answer) for answer in answers])


async def refused_before_sending(*messages: Any) -> VendorError:
    """The error a model raises for ``messages``, having sent no byte."""
    recorded = transport(sse_bytes(gemini.text_body("unused")))
    model = GeminiModel(GeminiConfig("gemini-test"), transport=recorded)
    outcome = await replay(model, CourseModelRequest("request-1", messages))
    assert recorded.requests == ()
    assert outcome.error is not None
    assert (outcome.error.code, outcome.error.vendor) == (INVALID, "gemini")
    return outcome.error


def test_reasoning_signatures_ids_and_vendor_tools_go_back_as_the_parts_they_came_from() -> None:
    code = {"language": "PYTHON", "code": "print(6 * 7)"}
    result = {"outcome": "OUTCOME_OK", "output": "42\n"}
    cited = own(citationMetadata={"citationSources": [{"startIndex": 0, "endIndex": 2}]})
    answer = CourseAssistantMessage(
        "a-1",
        (
            CourseReasoningBlock("Multiply first.", opaque=own(thoughtSignature="VA==")),
            CourseVendorToolBlock("executableCode", own(executableCode=code)),
            CourseVendorToolBlock(
                "codeExecutionResult", own(codeExecutionResult=result, thoughtSignature="Ug==")
            ),
            CourseTextBlock(
                "42, and adding:", citations=(cited,), opaque=own(thoughtSignature="QQ==")
            ),
            CourseToolCall(
                "fc-7", "add", {"a": 42}, opaque=own(id="fc-7", thoughtSignature="Qw==")
            ),
            CourseToolCall("resp-1-call-1", "add", {"a": 1}),
        ),
    )

    built = body(
        CourseUserMessage("u-1", "6 * 7, then add"),
        answer,
        CourseToolResultMessage("r-1", "fc-7", "add", "43"),
        CourseToolResultMessage("r-2", "resp-1-call-1", "add", "2"),
    )

    assert built["contents"] == [
        {"role": "user", "parts": [{"text": "6 * 7, then add"}]},
        {
            "role": "model",
            "parts": [
                {"text": "Multiply first.", "thought": True, "thoughtSignature": "VA=="},
                {"executableCode": {"language": "PYTHON", "code": "print(6 * 7)"}},
                {
                    "codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "42\n"},
                    "thoughtSignature": "Ug==",
                },
                {"text": "42, and adding:", "thoughtSignature": "QQ=="},
                {
                    "functionCall": {"name": "add", "args": {"a": 42}, "id": "fc-7"},
                    "thoughtSignature": "Qw==",
                },
                {"functionCall": {"name": "add", "args": {"a": 1}}},
            ],
        },
        {
            "role": "user",
            "parts": [
                {"functionResponse": {"name": "add", "id": "fc-7", "response": {"output": "43"}}},
                {"functionResponse": {"name": "add", "response": {"output": "2"}}},
            ],
        },
    ]


def test_a_signed_empty_text_goes_back_and_an_unsigned_blank_one_does_not() -> None:
    built = body(
        CourseUserMessage("u-1", "hi"),
        CourseAssistantMessage(
            "a-1",
            (
                CourseTextBlock("Hello."),
                CourseTextBlock(" "),
                CourseTextBlock("", opaque=own(thoughtSignature="RQ==")),
            ),
        ),
        CourseUserMessage("u-2", "more"),
    )

    assert built["contents"][1] == {
        "role": "model",
        "parts": [{"text": "Hello."}, {"text": "", "thoughtSignature": "RQ=="}],
    }


def test_another_wires_reasoning_and_opaque_data_are_left_out_and_an_empty_turn_is_not_sent() -> (
    None
):
    foreign = CourseOpaque("anthropic-messages", {"signature": "c2ln"})
    built = body(
        CourseUserMessage("u-1", "hi"),
        CourseAssistantMessage(
            "a-1",
            (
                CourseReasoningBlock("theirs", opaque=foreign),
                CourseReasoningBlock("unsigned"),
                CourseTextBlock("Hi.", citations=(foreign,), opaque=foreign),
                CourseToolCall("toolu_1", "add", {"a": 1}, opaque=foreign),
            ),
        ),
        CourseToolResultMessage("r-1", "toolu_1", "add", "1"),
        CourseAssistantMessage("a-2", (CourseReasoningBlock("only theirs", opaque=foreign),)),
        CourseUserMessage("u-2", "and?"),
    )

    assert built["contents"] == [
        {"role": "user", "parts": [{"text": "hi"}]},
        {
            "role": "model",
            "parts": [{"text": "Hi."}, {"functionCall": {"name": "add", "args": {"a": 1}}}],
        },
        {
            "role": "user",
            "parts": [
                {"functionResponse": {"name": "add", "response": {"output": "1"}}},
                {"text": "and?"},
            ],
        },
    ]


def test_images_and_documents_in_a_user_message_are_inline_data_or_file_data() -> None:
    built = body(
        CourseUserMessage(
            "u-1",
            (
                CourseTextBlock("Compare:"),
                CourseImageBlock("image/png", data=PNG),
                CourseImageBlock("image/webp", url="https://img.example/a.webp"),
                CourseDocumentBlock("application/pdf", data=PDF, title="Report"),
                CourseDocumentBlock("text/plain", url="https://docs.example/a.txt"),
            ),
        )
    )

    assert built["contents"] == [
        {
            "role": "user",
            "parts": [
                {"text": "Compare:"},
                {"inlineData": {"mimeType": "image/png", "data": b64(PNG)}},
                {"fileData": {"mimeType": "image/webp", "fileUri": "https://img.example/a.webp"}},
                {"inlineData": {"mimeType": "application/pdf", "data": b64(PDF)}},
                {"fileData": {"mimeType": "text/plain", "fileUri": "https://docs.example/a.txt"}},
            ],
        }
    ]


def test_an_image_alone_is_a_user_turn_and_blank_text_blocks_alone_are_refused() -> None:
    built = body(CourseUserMessage("u-1", (CourseImageBlock("image/jpeg", data=PNG),)))

    assert built["contents"] == [
        {"role": "user", "parts": [{"inlineData": {"mimeType": "image/jpeg", "data": b64(PNG)}}]}
    ]
    with pytest.raises(VendorError) as raised:
        body(CourseUserMessage("u-1", (CourseTextBlock(" "), CourseTextBlock(""))))
    assert raised.value.message == "messages[0]: a user message must not be blank"


def test_a_tool_results_images_and_documents_are_the_function_responses_parts() -> None:
    call = CourseToolCall("fc-1", "shoot", {}, opaque=own(id="fc-1"))
    built = body(
        CourseUserMessage("u-1", "Take a picture"),
        CourseAssistantMessage("a-1", (call,)),
        CourseToolResultMessage(
            "r-1",
            "fc-1",
            "shoot",
            (
                CourseTextBlock("Here it is"),
                CourseImageBlock("image/png", data=PNG),
                CourseDocumentBlock("application/pdf", data=PDF),
            ),
        ),
    )

    assert built["contents"][2] == {
        "role": "user",
        "parts": [
            {
                "functionResponse": {
                    "name": "shoot",
                    "id": "fc-1",
                    "response": {"output": "Here it is"},
                    "parts": [
                        {"inlineData": {"mimeType": "image/png", "data": b64(PNG)}},
                        {"inlineData": {"mimeType": "application/pdf", "data": b64(PDF)}},
                    ],
                }
            }
        ],
    }


@pytest.mark.parametrize(
    ("block", "rule"),
    [
        (
            CourseImageBlock("image/png", url="https://img.example/a.png"),
            "messages[2].content[0].url: gemini takes a function response's images and "
            "documents as bytes only (its parts have no fileData)",
        ),
        (
            CourseImageBlock("image/heic", data=PNG),
            "messages[2].content[0].media_type: gemini takes no image/heic in a function "
            "response (it takes application/pdf, image/jpeg, image/png, image/webp, text/plain)",
        ),
    ],
)
async def test_what_a_function_response_cannot_take_is_refused_naming_the_rule(
    block: CourseImageBlock, rule: str
) -> None:
    error = await refused_before_sending(
        CourseUserMessage("u-1", "Take a picture"),
        CourseAssistantMessage("a-1", (CourseToolCall("c-1", "shoot", {}),)),
        CourseToolResultMessage("r-1", "c-1", "shoot", (block,)),
    )

    assert error.message == rule


@pytest.mark.parametrize(
    ("block", "where"),
    [
        (CourseImageBlock("image/gif", data=PNG), "messages[0].content[0].media_type"),
        (
            CourseDocumentBlock("application/msword", data=PDF),
            "messages[0].content[0].media_type",
        ),
        (
            CourseDocumentBlock("application/pdf", data=bytes(50_000_001)),
            "messages[0].content[0].data",
        ),
    ],
)
async def test_a_media_type_or_size_the_api_refuses_is_refused_before_sending(
    block: CourseImageBlock | CourseDocumentBlock, where: str
) -> None:
    error = await refused_before_sending(CourseUserMessage("u-1", (block,)))

    assert error.message.startswith(where + ": ")
    assert "gemini" in error.message


def test_inline_data_past_the_requests_limit_is_refused() -> None:
    images = tuple(CourseImageBlock("image/png", data=bytes(40_000_000)) for _ in range(2))

    with pytest.raises(VendorError) as raised:
        body(CourseUserMessage("u-1", images))

    assert raised.value.code is INVALID
    assert raised.value.message == (
        "messages: the inline images and documents come to 106666672 base64 characters; "
        "gemini takes at most 100000000 in one request"
    )


async def test_another_wires_vendor_tool_block_is_refused_before_sending() -> None:
    theirs = CourseVendorToolBlock(
        "server_tool_use", CourseOpaque("anthropic-messages", {"type": "server_tool_use"})
    )

    error = await refused_before_sending(
        CourseUserMessage("u-1", "search"),
        CourseAssistantMessage("a-1", (theirs, CourseTextBlock("Found."))),
        CourseUserMessage("u-2", "thanks"),
    )

    assert error.message.startswith("messages[1].content[0]: a 'server_tool_use' block of ")


@pytest.mark.parametrize(
    ("block", "message"),
    [
        (
            CourseTextBlock("a", opaque=own(thoughtSignature=7)),
            "messages[1].content[0].opaque.data.thoughtSignature must be a non-blank string, "
            "as gemini sent it, not int",
        ),
        (
            CourseVendorToolBlock("executableCode", own(codeExecutionResult={})),
            "messages[1].content[0].opaque.data must be one 'executableCode' part as gemini "
            "sent it (its object, and thought or thoughtSignature at most)",
        ),
        (
            CourseVendorToolBlock("executableCode", own(executableCode={}, thought=False)),
            "messages[1].content[0].opaque.data must be one 'executableCode' part as gemini "
            "sent it (its object, and thought or thoughtSignature at most)",
        ),
        (
            CourseVendorToolBlock("executableCode", own(executableCode={}, text="x")),
            "messages[1].content[0].opaque.data must be one 'executableCode' part as gemini "
            "sent it (its object, and thought or thoughtSignature at most)",
        ),
    ],
)
def test_this_wires_opaque_data_that_it_never_sent_is_refused(block: Any, message: str) -> None:
    with pytest.raises(VendorError) as raised:
        body(
            CourseUserMessage("u-1", "hi"),
            CourseAssistantMessage("a-1", (block,)),
            CourseUserMessage("u-2", "more"),
        )

    assert (raised.value.code, raised.value.message) == (INVALID, message)


def test_a_response_format_is_a_json_mime_type_and_its_schema_as_given() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    built = body(
        CourseUserMessage("u-1", "n?"),
        response_format=CourseResponseFormat("answer", schema, description="one number"),
        max_output_tokens=20,
    )

    assert built["generationConfig"] == {
        "maxOutputTokens": 20,
        "responseMimeType": "application/json",
        "responseJsonSchema": {
            "type": "object",
            "properties": {"n": {"type": "integer"}},
            "required": ["n"],
        },
    }


def test_built_in_tools_are_entries_of_tools_after_the_function_declarations() -> None:
    built = body(
        CourseUserMessage("u-1", "hi"),
        tools=(ADD,),
        built_in_tools=("googleSearch", "codeExecution"),
    )

    assert built["tools"] == [
        {
            "functionDeclarations": [
                {"name": "add", "description": "Adds.", "parametersJsonSchema": {"type": "object"}}
            ]
        },
        {"googleSearch": {}},
        {"codeExecution": {}},
    ]
    assert body(CourseUserMessage("u-1", "hi"), built_in_tools=("urlContext",))["tools"] == [
        {"urlContext": {}}
    ]


@pytest.mark.parametrize(
    ("value", "path", "message"),
    [
        (["googleSearch"], "GeminiConfig.built_in_tools", "must be a tuple of tool names"),
        (("fileSearch",), "GeminiConfig.built_in_tools[0]", "must be one of 'codeExecution'"),
        (("urlContext", "urlContext"), "GeminiConfig.built_in_tools[1]", "repeats 'urlContext'"),
    ],
)
def test_a_built_in_tool_the_api_has_not_is_refused_naming_it(
    value: object, path: str, message: str
) -> None:
    with pytest.raises(VendorConfigError) as raised:
        GeminiConfig("gemini-test", built_in_tools=value)  # type: ignore[arg-type]

    assert (raised.value.code, raised.value.path) == (
        VendorConfigErrorCode.VENDOR_INVALID_CONFIG,
        path,
    )
    assert message in str(raised.value)


def test_a_strict_tool_is_refused_the_api_has_no_strict_mode() -> None:
    strict = CourseToolSpec("add", "Adds.", {"type": "object"}, strict=True)

    with pytest.raises(VendorConfigError) as raised:
        GeminiConfig("gemini-test", tools=(strict,))

    assert raised.value.path == "GeminiConfig.tools[0].strict"


FIRST_ANSWER = [
    gemini.chunk(gemini.thought("I should add."), counts=gemini.usage(20, None, 12)),
    gemini.chunk({"thought": True, "thoughtSignature": "dGhpbms="}),
    gemini.chunk(gemini.text("Adding. ")),
    gemini.chunk(
        {
            "functionCall": {"name": "add", "args": {"left": 20, "right": 22}, "id": "fc-1"},
            "thoughtSignature": "Y2FsbA==",
        },
        finish="STOP",
        counts=gemini.usage(20, 9, 12),
    ),
]


async def test_two_turns_send_the_reasoning_back_exactly_from_a_new_model() -> None:
    question = CourseModelRequest("request-1", (CourseUserMessage("u-1", "What is 20 + 22?"),))
    first = await replay(
        GeminiModel(
            GeminiConfig("gemini-test", tools=(ADD,)), transport=transport(sse_bytes(FIRST_ANSWER))
        ),
        question,
    )
    assert first.response is not None
    message = first.response.message
    assert message.content == (
        CourseReasoningBlock("I should add.", opaque=own(thoughtSignature="dGhpbms=")),
        CourseTextBlock("Adding. "),
        CourseToolCall(
            "fc-1",
            "add",
            {"left": 20, "right": 22},
            opaque=own(id="fc-1", thoughtSignature="Y2FsbA=="),
        ),
    )

    # The loop: the answer as it came, then the Tool's result; a new model sends it.
    second_transport = transport(sse_bytes(gemini.text_body("42.")))
    second_model = GeminiModel(
        GeminiConfig("gemini-test", tools=(ADD,)), transport=second_transport
    )
    loop = CourseModelRequest(
        "request-2",
        (*question.messages, message, CourseToolResultMessage("r-1", "fc-1", "add", "42")),
    )
    second = await replay(second_model, loop)

    assert second.error is None
    sent = thaw_json(second_transport.requests[0].body)
    assert isinstance(sent, dict)
    assert sent["contents"] == [
        {"role": "user", "parts": [{"text": "What is 20 + 22?"}]},
        {
            "role": "model",
            "parts": [
                {"text": "I should add.", "thought": True, "thoughtSignature": "dGhpbms="},
                {"text": "Adding. "},
                {
                    "functionCall": {
                        "name": "add",
                        "args": {"left": 20, "right": 22},
                        "id": "fc-1",
                    },
                    "thoughtSignature": "Y2FsbA==",
                },
            ],
        },
        {
            "role": "user",
            "parts": [
                {"functionResponse": {"name": "add", "id": "fc-1", "response": {"output": "42"}}}
            ],
        },
    ]
