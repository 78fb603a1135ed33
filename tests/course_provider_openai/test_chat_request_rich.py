"""The Chat request for each kind beyond plain text, against bodies written from the API reference.

Each expected body is written by hand from the Chat Completions reference
and the official SDK's request types: user content parts (``text``,
``image_url`` with a URL or a base64 data URL, ``file`` with ``filename``
and a base64 data URL in ``file_data``), a Tool message's text parts,
``strict`` on a function Tool, ``response_format`` of type
``json_schema``. What the wire cannot take is refused before any byte is
sent: by the kit's check against `CHAT_CONTENT` (a media type or size, a
document by URL, reasoning or a vendor tool, one of another wire's), or by
the request builder (an image or document in a Tool result). The two-turn
loop sends the first answer back as the vendor requires, and a new model
continues from the transcript alone.
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
    CourseMessage,
    CourseModelRequest,
    CourseOpaque,
    CourseReasoningBlock,
    CourseResponseFormat,
    CourseStopReason,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseToolSpec,
    CourseUserMessage,
    CourseVendorToolBlock,
    thaw_json,
)
from course_provider_openai import (
    OpenAIChatModel,
    OpenAIConfig,
    chat_request_body,
)
from course_vendor import VendorConfigError, load_vendor
from tests.course_cassettes.replays import replay
from tests.course_provider_openai.bodies import DONE, chat_events, chunk, finish, text, tool_start
from tests.course_provider_openai.plain import assert_plain_json

Code = VendorErrorCode
WIRE = "openai-chat"
CONFIG = OpenAIConfig("gpt-own")
STREAMING = {"stream": True, "stream_options": {"include_usage": True}}
PNG = b"\x89PNG\r\n\x1a\n-own-image"
PDF = b"%PDF-1.7 own document"
SSE = {"content-type": "text/event-stream"}


def body_for(*messages: CourseMessage, config: OpenAIConfig = CONFIG) -> dict[str, Any]:
    return chat_request_body(CourseModelRequest("request-1", messages), config)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def test_a_user_message_of_blocks_is_its_content_parts_in_order() -> None:
    user = CourseUserMessage(
        "u1",
        (
            CourseTextBlock("Compare these."),
            CourseImageBlock("image/png", data=PNG),
            CourseImageBlock("image/jpeg", url="https://example.com/cat.jpg"),
            CourseDocumentBlock("application/pdf", data=PDF, title="report.pdf"),
            CourseDocumentBlock("application/pdf", data=bytearray(PDF)),
        ),
    )

    body = body_for(user)

    assert body == {
        "model": "gpt-own",
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Compare these."},
                    {
                        "type": "image_url",
                        "image_url": {"url": "data:image/png;base64,iVBORw0KGgotb3duLWltYWdl"},
                    },
                    {"type": "image_url", "image_url": {"url": "https://example.com/cat.jpg"}},
                    {
                        "type": "file",
                        "file": {
                            "filename": "report.pdf",
                            "file_data": "data:application/pdf;base64,JVBERi0xLjcgb3duIGRvY3VtZW50",
                        },
                    },
                    {
                        "type": "file",
                        "file": {
                            "filename": "document.pdf",
                            "file_data": "data:application/pdf;base64,JVBERi0xLjcgb3duIGRvY3VtZW50",
                        },
                    },
                ],
            }
        ],
        **STREAMING,
    }
    assert b64(PNG) == "iVBORw0KGgotb3duLWltYWdl"
    assert_plain_json(body)


def test_a_tool_result_of_text_blocks_is_a_tool_message_of_text_parts() -> None:
    results = (
        CourseAssistantMessage("a1", (CourseToolCall("call_1", "read", {}),)),
        CourseToolResultMessage(
            "r1", "call_1", "read", (CourseTextBlock("line 1"), CourseTextBlock(""))
        ),
    )

    assert body_for(*results)["messages"][1] == {
        "role": "tool",
        "tool_call_id": "call_1",
        "content": [{"type": "text", "text": "line 1"}, {"type": "text", "text": ""}],
    }


@pytest.mark.parametrize(
    ("block", "kind"),
    [
        (CourseImageBlock("image/png", data=PNG), "an image"),
        (CourseImageBlock("image/png", url="https://example.com/a.png"), "an image"),
        (CourseDocumentBlock("application/pdf", data=PDF), "a document"),
    ],
    ids=["image-bytes", "image-url", "document"],
)
async def test_media_in_a_tool_result_is_refused_before_sending_naming_it(
    block: CourseImageBlock | CourseDocumentBlock, kind: str
) -> None:
    request = CourseModelRequest(
        "request-1",
        (
            CourseUserMessage("u1", "Look."),
            CourseAssistantMessage("a1", (CourseToolCall("call_1", "shot", {}),)),
            CourseToolResultMessage("r1", "call_1", "shot", (CourseTextBlock("here:"), block)),
        ),
    )
    async with RecordedTransport([]) as transport:
        played = await replay(OpenAIChatModel(CONFIG, transport=transport), request)

    error = played.error
    assert error is not None
    assert (error.code, error.vendor) == (Code.VENDOR_INVALID_REQUEST, WIRE)
    assert error.message == (
        f"messages[2].content[1]: openai-chat cannot send {kind} in a Tool result: "
        "a tool message takes text parts only"
    )
    assert transport.requests == ()
    with pytest.raises(VendorError) as caught:
        chat_request_body(request, CONFIG)
    assert caught.value.message == error.message


FOREIGN = "anthropic-messages"
REFUSED: list[tuple[str, CourseMessage, str]] = [
    (
        "bmp-image",
        CourseUserMessage("u1", (CourseImageBlock("image/bmp", data=b"BM"),)),
        "messages[0].content[0].media_type: openai-chat does not take an image of type "
        "image/bmp (it takes image/gif, image/jpeg, image/png, image/webp)",
    ),
    (
        "image-too-large",
        # bytes(n) is zeroed lazily: nothing but its length is read before the refusal.
        CourseUserMessage("u1", (CourseImageBlock("image/png", data=bytes(512_000_001)),)),
        "messages[0].content[0].data: holds 512000001 bytes; openai-chat takes an image of "
        "at most 512000000 bytes",
    ),
    (
        "text-document",
        CourseUserMessage("u1", (CourseDocumentBlock("text/plain", data=b"notes"),)),
        "messages[0].content[0].media_type: openai-chat does not take a document of type "
        "text/plain (it takes application/pdf)",
    ),
    (
        "document-too-large",
        CourseUserMessage("u1", (CourseDocumentBlock("application/pdf", data=bytes(32_000_001)),)),
        "messages[0].content[0].data: holds 32000001 bytes; openai-chat takes a document of "
        "at most 32000000 bytes",
    ),
    (
        "document-url",
        CourseUserMessage(
            "u1", (CourseDocumentBlock("application/pdf", url="https://example.com/a.pdf"),)
        ),
        "messages[0].content[0].url: openai-chat takes a document as bytes only, never by URL",
    ),
    (
        "own-reasoning",
        CourseAssistantMessage(
            "a1", (CourseReasoningBlock("hm", opaque=CourseOpaque(WIRE, {"x": 1})),)
        ),
        "messages[1].content[0]: openai-chat does not send reasoning content",
    ),
    (
        "own-vendor-tool",
        CourseAssistantMessage(
            "a1", (CourseVendorToolBlock("web_search_call", CourseOpaque(WIRE, {"id": "ws"})),)
        ),
        "messages[1].content[0]: openai-chat does not send vendorTool content",
    ),
    (
        "foreign-vendor-tool",
        CourseAssistantMessage(
            "a1",
            (CourseVendorToolBlock("server_tool_use", CourseOpaque(FOREIGN, {"id": "srv"})),),
        ),
        "messages[1].content[0]: openai-chat does not send vendorTool content",
    ),
]


@pytest.mark.parametrize(
    ("message", "expected"),
    [case[1:] for case in REFUSED],
    ids=[case[0] for case in REFUSED],
)
async def test_what_chat_cannot_take_is_refused_before_any_byte_is_sent(
    message: CourseMessage, expected: str
) -> None:
    messages: tuple[CourseMessage, ...] = (
        (message,)
        if type(message) is CourseUserMessage
        else (CourseUserMessage("u0", "Hi"), message)
    )
    async with RecordedTransport([]) as transport:
        played = await replay(
            OpenAIChatModel(CONFIG, transport=transport), CourseModelRequest("r", messages)
        )

    error = played.error
    assert error is not None
    assert (error.code, error.vendor) == (Code.VENDOR_INVALID_REQUEST, WIRE)
    assert error.message == expected
    assert transport.requests == ()


def test_the_wire_declares_exactly_the_documented_media() -> None:
    content = load_vendor(WIRE).wire.content
    assert content is not None
    assert content.kinds == frozenset({"text", "image", "document", "citations"})
    assert content.images is not None
    assert content.images.media_types == frozenset(
        {"image/png", "image/jpeg", "image/webp", "image/gif"}
    )
    # The images and vision guide since April 2026: no limit per image, 512 MB a request.
    assert (content.images.max_bytes, content.images.urls) == (512_000_000, True)
    assert content.documents is not None
    assert content.documents.media_types == frozenset({"application/pdf"})
    assert (content.documents.max_bytes, content.documents.urls) == (32_000_000, False)


def test_both_openai_wires_hold_images_to_the_one_documented_rule() -> None:
    chat, responses = load_vendor(WIRE).wire.content, load_vendor("openai-responses").wire.content
    assert chat is not None
    assert responses is not None

    assert chat.images is responses.images


def test_an_answers_citations_and_another_wires_reasoning_are_left_out() -> None:
    cited = {"type": "url_citation", "url_citation": {"url": "https://a.example", "title": "A"}}
    assistant = CourseAssistantMessage(
        "a1",
        (
            CourseReasoningBlock("thinking", opaque=CourseOpaque(FOREIGN, {"signature": "s"})),
            CourseReasoningBlock("scripted"),
            CourseTextBlock("See A.", citations=(CourseOpaque(WIRE, cited),)),
            CourseTextBlock(" And B.", citations=(CourseOpaque(FOREIGN, {"cited": "B"}),)),
            CourseToolCall("call_1", "open", {"url": "https://a.example"}),
        ),
    )

    assert body_for(assistant)["messages"] == [
        {
            "role": "assistant",
            "content": "See A. And B.",
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "open", "arguments": '{"url":"https://a.example"}'},
                }
            ],
        }
    ]


async def test_an_assistant_message_of_another_wires_reasoning_only_keeps_an_empty_turn() -> None:
    # Chat takes an empty content string; the turn stays, so the transcript keeps its shape.
    request = CourseModelRequest(
        "request-1",
        (
            CourseUserMessage("u1", "Think."),
            CourseAssistantMessage(
                "a1", (CourseReasoningBlock("", opaque=CourseOpaque(FOREIGN, {"data": "r"})),)
            ),
            CourseUserMessage("u2", "Go on."),
        ),
    )
    served = RecordedResponse(200, SSE, sse_body(text("Done."), finish("stop"), usage_chunk()))
    async with RecordedTransport([served]) as transport:
        played = await replay(OpenAIChatModel(CONFIG, transport=transport), request)

    assert played.error is None
    sent: Any = thaw_json(transport.requests[0].body)
    assert sent["messages"] == [
        {"role": "user", "content": "Think."},
        {"role": "assistant", "content": ""},
        {"role": "user", "content": "Go on."},
    ]


SCHEMA = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}


def test_a_strict_tool_says_strict_and_a_plain_one_says_nothing() -> None:
    config = OpenAIConfig(
        "gpt-own",
        tools=(
            CourseToolSpec("add", "Add.", SCHEMA, strict=True),
            CourseToolSpec("now", "Now.", {}),
        ),
    )

    assert body_for(CourseUserMessage("u1", "Hi"), config=config)["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "add",
                "description": "Add.",
                "parameters": SCHEMA,
                "strict": True,
            },
        },
        {"type": "function", "function": {"name": "now", "description": "Now.", "parameters": {}}},
    ]


def test_the_response_format_is_a_json_schema_response_format_before_the_stream_keys() -> None:
    config = OpenAIConfig(
        "gpt-own",
        temperature=0.5,
        response_format=CourseResponseFormat("answer", SCHEMA, description="The answer."),
    )

    body = body_for(CourseUserMessage("u1", "Hi"), config=config)

    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {
            "name": "answer",
            "description": "The answer.",
            "schema": SCHEMA,
            "strict": True,
        },
    }
    assert list(body) == [
        "model",
        "messages",
        "temperature",
        "response_format",
        "stream",
        "stream_options",
    ]
    assert_plain_json(body)


def test_a_response_format_without_description_and_not_strict_says_so() -> None:
    config = OpenAIConfig("m", response_format=CourseResponseFormat("a", {}, strict=False))

    assert body_for(CourseUserMessage("u1", "Hi"), config=config)["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "a", "schema": {}, "strict": False},
    }


def test_extra_body_may_not_write_the_response_format() -> None:
    with pytest.raises(VendorConfigError, match=r"extra_body\['response_format'\]"):
        OpenAIChatModel(OpenAIConfig("m", extra_body={"response_format": {"type": "json_object"}}))


def sse_body(*payloads: object) -> bytes:
    return b"".join(f"data: {event.data}\n\n".encode() for event in chat_events(*payloads, DONE))


def usage_chunk() -> dict[str, Any]:
    counts = {
        "prompt_tokens": 120,
        "completion_tokens": 30,
        "total_tokens": 150,
        "prompt_tokens_details": {"cached_tokens": 64},
        "completion_tokens_details": {"reasoning_tokens": 12},
    }
    return chunk(None, usage=counts)


CITED = {
    "type": "url_citation",
    "url_citation": {
        "end_index": 24,
        "start_index": 0,
        "title": "Weather in Paris",
        "url": "https://weather.example/paris",
    },
}
FIRST_ANSWER = sse_body(
    chunk({"role": "assistant", "content": ""}),
    text("Paris is sunny right now."),
    chunk({"annotations": [CITED]}),
    tool_start(0, "call_w1", "convert", '{"celsius": 21}'),
    finish("tool_calls"),
    usage_chunk(),
)
SECOND_ANSWER = sse_body(text("That is 69.8 °F."), finish("stop"), usage_chunk())
TOOLS = (CourseToolSpec("convert", "Celsius to Fahrenheit.", SCHEMA, strict=True),)


async def test_a_two_turn_loop_sends_the_first_answer_back_and_a_new_model_continues() -> None:
    config = OpenAIConfig("gpt-own", tools=TOOLS)
    served = [RecordedResponse(200, SSE, FIRST_ANSWER), RecordedResponse(200, SSE, SECOND_ANSWER)]
    transcript: list[CourseMessage] = [CourseUserMessage("u1", "Weather in Paris, in °F?")]
    async with RecordedTransport(served) as transport:
        model = OpenAIChatModel(config, transport=transport)
        first = await replay(model, CourseModelRequest("turn-1", tuple(transcript)))
        assert first.response is not None
        answer = first.response
        assert answer.stop_reason is CourseStopReason.TOOL_CALL
        assert answer.message.content == (
            CourseTextBlock("Paris is sunny right now.", citations=(CourseOpaque(WIRE, CITED),)),
            CourseToolCall("call_w1", "convert", {"celsius": 21}),
        )
        assert (answer.usage.cache_read_tokens, answer.usage.reasoning_tokens) == (64, 12)
        transcript.append(answer.message)
        transcript.append(CourseToolResultMessage("r1", "call_w1", "convert", "69.8"))
        second = await replay(model, CourseModelRequest("turn-2", tuple(transcript)))
    assert second.response is not None
    assert second.response.message.content == (CourseTextBlock("That is 69.8 °F."),)
    sent = thaw_json(transport.requests[1].body)
    expected_messages = [
        {"role": "user", "content": "Weather in Paris, in °F?"},
        {
            "role": "assistant",
            "content": "Paris is sunny right now.",
            "tool_calls": [
                {
                    "id": "call_w1",
                    "type": "function",
                    "function": {"name": "convert", "arguments": '{"celsius":21}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_w1", "content": "69.8"},
    ]
    assert sent == {
        "model": "gpt-own",
        "messages": expected_messages,
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "convert",
                    "description": "Celsius to Fahrenheit.",
                    "parameters": SCHEMA,
                    "strict": True,
                },
            }
        ],
        **STREAMING,
    }

    again = [RecordedResponse(200, SSE, SECOND_ANSWER)]
    async with RecordedTransport(again) as fresh_transport:
        fresh = OpenAIChatModel(config, transport=fresh_transport)
        continued = await replay(fresh, CourseModelRequest("turn-2", tuple(transcript)))
    assert continued.response == second.response
    assert json.dumps(thaw_json(fresh_transport.requests[0].body)) == json.dumps(sent)


@pytest.mark.parametrize("wire", ["groq", "deepseek", "openrouter", "mistral"])
async def test_a_dialects_refusal_of_media_in_a_tool_result_names_its_own_wire(wire: str) -> None:
    request = CourseModelRequest(
        "request-1",
        (
            CourseUserMessage("u1", "Look."),
            CourseAssistantMessage("a1", (CourseToolCall("call_1", "shot", {}),)),
            CourseToolResultMessage(
                "r1", "call_1", "shot", (CourseImageBlock("image/png", data=PNG),)
            ),
        ),
    )
    async with RecordedTransport([]) as transport:
        played = await replay(load_vendor(wire).replay_model(transport), request)

    error = played.error
    assert error is not None
    assert (error.code, error.vendor) == (Code.VENDOR_INVALID_REQUEST, wire)
    assert error.message.startswith(f"messages[2].content[0]: {wire} cannot send an image")
    assert transport.requests == ()
