"""Each kind of content beyond plain text, in the Messages API's documented request form.

The expected bodies are written by hand from the API reference (the
``thinking``, ``redacted_thinking``, ``server_tool_use`` and tool-result
block params, ``TextBlockParam.citations``, ``ImageBlockParam`` and
``DocumentBlockParam`` with their ``base64``, ``url`` and ``text``
sources, ``ToolResultBlockParam.content`` as blocks). What the wire cannot
take is refused before any byte is sent.
"""

from __future__ import annotations

import base64
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
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseUserMessage,
    CourseVendorToolBlock,
    thaw_json,
)
from course_provider_anthropic import WIRE, AnthropicConfig, AnthropicMessagesModel
from tests.course_cassettes.replays import replay
from tests.course_provider_anthropic.bodies import BLOCKS, CITATIONS, text_body
from tests.course_vendor.wire import sse_bytes
from tests.course_vendor.wires import SSE

CONFIG = AnthropicConfig("claude-test", 4096)
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(24))
PDF = b"%PDF-1.7\n" + bytes(range(40))
ASK = CourseUserMessage("u-1", "What is 20 + 22?")
CALL = CourseToolCall("toolu_01A", "add", {"left": 20, "right": 22})
THOUGHT = CourseReasoningBlock(
    "Add them.", opaque=CourseOpaque(WIRE, {"type": "thinking", "signature": "c2lnbmVk"})
)
REDACTED = CourseReasoningBlock(
    "", opaque=CourseOpaque(WIRE, {"type": "redacted_thinking", "data": "ZW5jcnlwdGVk"})
)


def encoded(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


async def sent(*messages: CourseMessage, config: AnthropicConfig = CONFIG) -> list[Any]:
    """The ``messages`` of the body a model sends for ``messages``, as the JSON on the wire."""
    transport = RecordedTransport([RecordedResponse(200, SSE, sse_bytes(text_body("ok")))])
    model = AnthropicMessagesModel(config, transport=transport)
    outcome = await replay(model, CourseModelRequest("request-1", messages))
    assert outcome.error is None, outcome.error
    (request,) = transport.requests
    body = thaw_json(request.body)
    assert isinstance(body, dict)
    return list(body["messages"])


async def refused(*messages: CourseMessage) -> VendorError:
    """The failure of a call the wire refuses, and the proof that nothing was sent."""
    transport = RecordedTransport([RecordedResponse(200, SSE, sse_bytes(text_body("ok")))])
    model = AnthropicMessagesModel(CONFIG, transport=transport)
    outcome = await replay(model, CourseModelRequest("request-1", messages))
    assert transport.requests == ()
    error = outcome.error
    assert error is not None
    assert (error.code, error.vendor) == (VendorErrorCode.VENDOR_INVALID_REQUEST, WIRE)
    return error


async def test_this_wires_thinking_goes_back_first_exactly_as_it_came() -> None:
    messages = await sent(
        ASK,
        CourseAssistantMessage("a-1", [THOUGHT, REDACTED, CourseTextBlock("Adding."), CALL]),
        CourseToolResultMessage("r-1", "toolu_01A", "add", "42"),
    )

    assert messages[1] == {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "Add them.", "signature": "c2lnbmVk"},
            {"type": "redacted_thinking", "data": "ZW5jcnlwdGVk"},
            {"type": "text", "text": "Adding."},
            {
                "type": "tool_use",
                "id": "toolu_01A",
                "name": "add",
                "input": {"left": 20, "right": 22},
            },
        ],
    }


async def test_another_wires_reasoning_and_unsigned_reasoning_are_left_out() -> None:
    foreign = CourseReasoningBlock(
        "Hmm.", opaque=CourseOpaque("openai-responses", {"id": "rs_1", "encrypted_content": "x"})
    )
    scripted = CourseReasoningBlock("Scripted thought.")

    messages = await sent(
        ASK, CourseAssistantMessage("a-1", [foreign, scripted, CourseTextBlock("42.")])
    )

    assert messages[1] == {"role": "assistant", "content": [{"type": "text", "text": "42."}]}


async def test_an_assistant_message_of_another_wires_reasoning_alone_is_not_sent() -> None:
    foreign = CourseReasoningBlock("Hmm.", opaque=CourseOpaque("gemini", {"signature": "c2ln"}))

    messages = await sent(
        ASK,
        CourseAssistantMessage("a-1", [foreign]),
        CourseUserMessage("u-2", "And 2 + 2?"),
    )

    assert messages == [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "What is 20 + 22?"},
                {"type": "text", "text": "And 2 + 2?"},
            ],
        }
    ]


async def test_the_vendors_own_blocks_go_back_as_the_vendor_sent_them() -> None:
    call = {
        "type": "server_tool_use",
        "id": "srvtoolu_01K",
        "name": "web_search",
        "input": {"query": "pelicans"},
        "caller": {"type": "direct"},
    }
    result = BLOCKS["web_search_tool_result"]
    compaction = {"type": "compaction", "content": "Earlier: 2 + 2.", "encrypted_content": "ZW5j"}

    messages = await sent(
        ASK,
        CourseAssistantMessage(
            "a-1",
            [
                CourseVendorToolBlock("compaction", CourseOpaque(WIRE, compaction)),
                CourseVendorToolBlock("server_tool_use", CourseOpaque(WIRE, call)),
                CourseVendorToolBlock("web_search_tool_result", CourseOpaque(WIRE, result)),
                CourseTextBlock("Pelicans fish."),
            ],
        ),
    )

    assert messages[1]["content"] == [
        compaction,
        call,
        result,
        {"type": "text", "text": "Pelicans fish."},
    ]


async def test_citations_go_back_on_their_text_and_another_wires_are_left_out() -> None:
    mine = CITATIONS["char_location"]
    theirs = CourseOpaque("openai-responses", {"type": "url_citation", "url": "https://a.example"})

    messages = await sent(
        ASK,
        CourseAssistantMessage(
            "a-1",
            [
                CourseTextBlock(
                    "The grass is green.", citations=[CourseOpaque(WIRE, mine), theirs]
                ),
                CourseTextBlock("Plain.", citations=[theirs]),
            ],
        ),
    )

    assert messages[1]["content"] == [
        {"type": "text", "text": "The grass is green.", "citations": [mine]},
        {"type": "text", "text": "Plain."},
    ]


async def test_images_and_documents_in_a_user_message_in_their_documented_forms() -> None:
    messages = await sent(
        CourseUserMessage(
            "u-1",
            [
                CourseTextBlock("Compare these."),
                CourseImageBlock("image/png", data=PNG),
                CourseImageBlock("image/webp", url="https://example.com/a.webp"),
                CourseDocumentBlock("application/pdf", data=PDF, title="Report"),
                CourseDocumentBlock("application/pdf", url="https://example.com/b.pdf"),
                CourseDocumentBlock("text/plain", data="Notes: é.".encode(), title="Notes"),
            ],
        )
    )

    assert messages == [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Compare these."},
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": encoded(PNG)},
                },
                {"type": "image", "source": {"type": "url", "url": "https://example.com/a.webp"}},
                {
                    "type": "document",
                    "source": {
                        "type": "base64",
                        "media_type": "application/pdf",
                        "data": encoded(PDF),
                    },
                    "title": "Report",
                },
                {"type": "document", "source": {"type": "url", "url": "https://example.com/b.pdf"}},
                {
                    "type": "document",
                    "source": {"type": "text", "media_type": "text/plain", "data": "Notes: é."},
                    "title": "Notes",
                },
            ],
        }
    ]


async def test_images_and_documents_in_a_tool_result_are_its_content_blocks() -> None:
    messages = await sent(
        ASK,
        CourseAssistantMessage("a-1", [CALL]),
        CourseToolResultMessage(
            "r-1",
            "toolu_01A",
            "add",
            [
                CourseTextBlock("A chart of it:"),
                CourseImageBlock("image/gif", data=PNG),
                CourseDocumentBlock("application/pdf", data=PDF),
            ],
            is_error=False,
        ),
    )

    assert messages[2] == {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": "toolu_01A",
                "content": [
                    {"type": "text", "text": "A chart of it:"},
                    {
                        "type": "image",
                        "source": {
                            "type": "base64",
                            "media_type": "image/gif",
                            "data": encoded(PNG),
                        },
                    },
                    {
                        "type": "document",
                        "source": {
                            "type": "base64",
                            "media_type": "application/pdf",
                            "data": encoded(PDF),
                        },
                    },
                ],
            }
        ],
    }


async def test_an_image_at_the_size_limit_is_sent() -> None:
    largest = bytes(5 * 1024 * 1024 * 3 // 4)

    messages = await sent(CourseUserMessage("u-1", [CourseImageBlock("image/jpeg", data=largest)]))

    assert len(messages[0]["content"][0]["source"]["data"]) == 5 * 1024 * 1024


@pytest.mark.parametrize(
    ("block", "where", "words"),
    [
        (
            CourseImageBlock("image/bmp", data=PNG),
            "messages[0].content[0].media_type",
            "anthropic-messages does not take an image of type image/bmp (it takes "
            "image/gif, image/jpeg, image/png, image/webp)",
        ),
        (
            CourseImageBlock("image/png", data=bytes(5 * 1024 * 1024 * 3 // 4 + 1)),
            "messages[0].content[0].data",
            "holds 3932161 bytes; anthropic-messages takes an image of at most 3932160 bytes",
        ),
        (
            CourseDocumentBlock("application/msword", data=PDF),
            "messages[0].content[0].media_type",
            "anthropic-messages does not take a document of type application/msword",
        ),
        (
            CourseDocumentBlock("application/pdf", data=bytes(32 * 1024 * 1024 * 3 // 4 + 1)),
            "messages[0].content[0].data",
            "holds 25165825 bytes; anthropic-messages takes a document of at most 25165824 bytes",
        ),
        (
            CourseDocumentBlock("text/plain", url="https://example.com/notes.txt"),
            "messages[0].content[0].url",
            "anthropic-messages takes a text/plain document as bytes only",
        ),
        (
            CourseDocumentBlock("text/plain", data=b"\xff\xfe"),
            "messages[0].content[0].data",
            "a text/plain document must be UTF-8",
        ),
        (
            CourseTextBlock(" \n"),
            "messages[0].content[0]",
            "a text block must not be blank (the API refuses it)",
        ),
    ],
    ids=[
        "image-type",
        "image-size",
        "document-type",
        "document-size",
        "text-url",
        "not-utf8",
        "blank",
    ],
)
async def test_what_the_wire_cannot_take_is_refused_before_sending(
    block: Any, where: str, words: str
) -> None:
    error = await refused(CourseUserMessage("u-1", [block]))

    assert error.message.startswith(f"{where}: {words}"), error.message


async def test_a_blank_text_block_in_a_tool_result_is_refused_naming_it() -> None:
    error = await refused(
        ASK,
        CourseAssistantMessage("a-1", [CALL]),
        CourseToolResultMessage("r-1", "toolu_01A", "add", [CourseTextBlock("")]),
    )

    assert error.message.startswith("messages[2].content[0]: a text block must not be blank")


async def test_another_wires_vendor_tool_block_is_refused_naming_block_and_wires() -> None:
    theirs = CourseVendorToolBlock(
        "web_search_call", CourseOpaque("openai-responses", {"id": "ws_1", "status": "completed"})
    )

    error = await refused(ASK, CourseAssistantMessage("a-1", [theirs, CourseTextBlock("Found.")]))

    assert error.message == (
        "messages[1].content[0]: a 'web_search_call' block of openai-responses cannot be sent "
        "to anthropic-messages: a tool one vendor ran has no form on another"
    )


async def test_opaque_data_this_wire_never_makes_is_refused() -> None:
    own = CourseOpaque(WIRE, {"x": 1})

    error = await refused(ASK, CourseAssistantMessage("a-1", [CourseTextBlock("Hi.", opaque=own)]))

    assert error.message == (
        "messages[1].content[0].opaque: anthropic-messages does not send opaque content"
    )


@pytest.mark.parametrize(
    ("block", "rule"),
    [
        (
            CourseReasoningBlock("Hm.", opaque=CourseOpaque(WIRE, {"type": "thinking"})),
            "reasoning's data must be a thinking block with its signature or a "
            "redacted_thinking block with its data",
        ),
        (
            CourseReasoningBlock("", opaque=CourseOpaque(WIRE, {"type": "redacted_thinking"})),
            "reasoning's data must be a thinking block with its signature or a "
            "redacted_thinking block with its data",
        ),
        (
            CourseReasoningBlock("Hm.", opaque=CourseOpaque(WIRE, {"signature": "c2ln"})),
            "reasoning's data must be a thinking block with its signature or a "
            "redacted_thinking block with its data",
        ),
        (
            CourseVendorToolBlock(
                "server_tool_use", CourseOpaque(WIRE, BLOCKS["container_upload"])
            ),
            "its data's type must be its kind 'server_tool_use'",
        ),
    ],
    ids=["unsigned-thinking", "redacted-without-data", "no-type", "kind-differs"],
)
async def test_opaque_data_of_this_wire_it_never_makes_is_refused_naming_the_block(
    block: Any, rule: str
) -> None:
    error = await refused(ASK, CourseAssistantMessage("a-1", [CourseTextBlock("Hi."), block]))

    assert error.message == f"messages[1].content[1].opaque: {rule}, as anthropic-messages makes it"
