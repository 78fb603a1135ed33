"""responses_request_body for what the port carries beyond text: each kind against a body written
from the API reference (``ResponseInputItemParam`` and its parts, ``text.format``, ``include``),
and each refusal before a byte is sent."""

from __future__ import annotations

import json
from typing import Any

import pytest
from frozendict import frozendict

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
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseToolSpec,
    CourseUserMessage,
    CourseVendorToolBlock,
)
from course_provider_openai import (
    OpenAIChatModel,
    OpenAIConfig,
    OpenAIResponsesModel,
    responses_request_body,
)
from course_vendor import ReasoningEffort, VendorConfigError
from tests.course_cassettes.replays import replay
from tests.nesting import nested_dicts

WIRE = "openai-responses"
CONFIG = OpenAIConfig("gpt-own")
PNG = b"\x89PNG\r\n\x1a\n-own-"
PNG_DATA_URL = "data:image/png;base64,iVBORw0KGgotb3duLQ=="
PDF = b"%PDF-1.7 own"
PDF_DATA_URL = "data:application/pdf;base64,JVBERi0xLjcgb3du"
REASONING_ITEM = {
    "type": "reasoning",
    "id": "rs_own_1",
    "summary": [{"type": "summary_text", "text": "Add them."}],
    "encrypted_content": "gAAAA-own",
}
SEARCH_ITEM = {
    "type": "web_search_call",
    "id": "ws_own_1",
    "status": "completed",
    "action": {"type": "search", "query": "capital of France"},
}


def own(data: dict[str, Any]) -> CourseOpaque:
    return CourseOpaque(WIRE, data)


def body_for(*messages: CourseMessage, config: OpenAIConfig = CONFIG) -> dict[str, Any]:
    return responses_request_body(CourseModelRequest("request-1", messages), config)


def as_json(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def test_user_images_and_documents_are_input_parts_bytes_as_data_urls() -> None:
    user = CourseUserMessage(
        "u1",
        (
            CourseTextBlock("Compare these."),
            CourseImageBlock("image/png", data=PNG),
            CourseImageBlock("image/jpeg", url="https://example.com/cat.jpg"),
            CourseDocumentBlock("application/pdf", data=PDF, title="report.pdf"),
            CourseDocumentBlock("application/pdf", data=PDF),
            CourseDocumentBlock("application/pdf", url="https://example.com/a.pdf"),
        ),
    )

    assert as_json(body_for(user)["input"]) == as_json(
        [
            {
                "type": "message",
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "Compare these."},
                    {"type": "input_image", "image_url": PNG_DATA_URL, "detail": "auto"},
                    {
                        "type": "input_image",
                        "image_url": "https://example.com/cat.jpg",
                        "detail": "auto",
                    },
                    {"type": "input_file", "filename": "report.pdf", "file_data": PDF_DATA_URL},
                    {"type": "input_file", "filename": "document", "file_data": PDF_DATA_URL},
                    {"type": "input_file", "file_url": "https://example.com/a.pdf"},
                ],
            }
        ]
    )


def test_a_tool_result_given_as_blocks_is_an_output_of_the_same_parts() -> None:
    messages = (
        CourseUserMessage("u1", "Draw it."),
        CourseAssistantMessage("a1", (CourseToolCall("call_1", "render", {}),)),
        CourseToolResultMessage(
            "r1",
            "call_1",
            "render",
            (CourseTextBlock("Rendered:"), CourseImageBlock("image/png", data=PNG)),
        ),
    )

    assert body_for(*messages)["input"][2] == {
        "type": "function_call_output",
        "call_id": "call_1",
        "output": [
            {"type": "input_text", "text": "Rendered:"},
            {"type": "input_image", "image_url": PNG_DATA_URL, "detail": "auto"},
        ],
    }


def test_reasoning_vendor_tools_and_calls_go_back_exactly_as_the_api_gave_them() -> None:
    assistant = CourseAssistantMessage(
        "a1",
        (
            CourseReasoningBlock("Add them.", opaque=own(REASONING_ITEM)),
            CourseVendorToolBlock("web_search_call", own(SEARCH_ITEM)),
            CourseTextBlock("Paris. "),
            CourseTextBlock("Now adding."),
            CourseToolCall("call_1", "add", {"a": 20, "b": 22}, opaque=own({"id": "fc_own_1"})),
        ),
    )
    messages = (
        CourseUserMessage("u1", "Capital, then 20 + 22?"),
        assistant,
        CourseToolResultMessage("r1", "call_1", "add", "42"),
    )

    assert as_json(body_for(*messages)["input"]) == as_json(
        [
            {"type": "message", "role": "user", "content": "Capital, then 20 + 22?"},
            {
                "type": "reasoning",
                "id": "rs_own_1",
                "summary": [{"type": "summary_text", "text": "Add them."}],
                "encrypted_content": "gAAAA-own",
            },
            {
                "type": "web_search_call",
                "id": "ws_own_1",
                "status": "completed",
                "action": {"type": "search", "query": "capital of France"},
            },
            {"type": "message", "role": "assistant", "content": "Paris. Now adding."},
            {
                "type": "function_call",
                "id": "fc_own_1",
                "call_id": "call_1",
                "name": "add",
                "arguments": '{"a":20,"b":22}',
            },
            {"type": "function_call_output", "call_id": "call_1", "output": "42"},
        ]
    )


def test_cited_text_goes_back_as_output_text_parts_with_their_annotations() -> None:
    citation = {
        "type": "url_citation",
        "url": "https://example.com",
        "title": "Example",
        "start_index": 0,
        "end_index": 5,
    }
    assistant = CourseAssistantMessage(
        "a1",
        (
            CourseTextBlock("Paris", citations=(own(citation),)),
            CourseTextBlock(" is the capital."),
        ),
    )

    assert body_for(CourseUserMessage("u1", "Capital?"), assistant)["input"][1] == {
        "type": "message",
        "role": "assistant",
        "content": [
            {"type": "output_text", "text": "Paris", "annotations": [citation]},
            {"type": "output_text", "text": " is the capital.", "annotations": []},
        ],
    }


def test_another_wires_citations_and_opaque_data_are_left_out_the_text_and_call_sent() -> None:
    foreign = CourseOpaque("anthropic-messages", {"type": "char_location", "cited_text": "x"})
    assistant = CourseAssistantMessage(
        "a1",
        (
            CourseTextBlock("Paris.", citations=(foreign,)),
            CourseToolCall("call_1", "add", {}, opaque=CourseOpaque("gemini", {"sig": "s"})),
        ),
    )
    messages = (
        CourseUserMessage("u1", "Capital?"),
        assistant,
        CourseToolResultMessage("r1", "call_1", "add", "0"),
    )

    assert body_for(*messages)["input"][1:3] == [
        {"type": "message", "role": "assistant", "content": "Paris."},
        {"type": "function_call", "call_id": "call_1", "name": "add", "arguments": "{}"},
    ]


def test_a_refusal_goes_back_as_a_refusal_part() -> None:
    refused = CourseTextBlock("I can't help with that.", opaque=own({"type": "refusal"}))

    assert body_for(CourseUserMessage("u1", "Help?"), CourseAssistantMessage("a1", (refused,)))[
        "input"
    ][1] == {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "refusal", "refusal": "I can't help with that."}],
    }


COMMENTARY = own({"id": "msg_own_1", "phase": "commentary"})
FINAL = own({"id": "msg_own_2", "phase": "final_answer"})


def test_each_message_goes_back_as_its_own_item_with_its_phase_and_no_id_when_unstored() -> None:
    # OpenAI asks that phase be sent back on every assistant message for the models that
    # set it; with nothing stored the API keeps no msg_ item to name.
    assistant = CourseAssistantMessage(
        "a1",
        (
            CourseTextBlock("Let me ", opaque=COMMENTARY),
            CourseTextBlock("check.", opaque=COMMENTARY),
            CourseTextBlock("It is 42.", opaque=FINAL),
        ),
    )

    assert body_for(CourseUserMessage("u1", "Sum?"), assistant)["input"][1:] == [
        {"type": "message", "role": "assistant", "content": "Let me check.", "phase": "commentary"},
        {"type": "message", "role": "assistant", "content": "It is 42.", "phase": "final_answer"},
    ]


def test_a_stored_message_goes_back_named_by_its_id_with_its_parts_and_phase() -> None:
    refused = own({"id": "msg_own_2", "type": "refusal"})
    assistant = CourseAssistantMessage(
        "a1",
        (
            CourseTextBlock("Checking.", opaque=COMMENTARY),
            CourseTextBlock("No.", opaque=refused),
            CourseTextBlock("Unmarked."),
        ),
    )
    config = OpenAIConfig("gpt-own", store=True)

    assert body_for(CourseUserMessage("u1", "Sum?"), assistant, config=config)["input"][1:] == [
        {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "Checking.", "annotations": []}],
            "id": "msg_own_1",
            "phase": "commentary",
        },
        {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "refusal", "refusal": "No."}],
            "id": "msg_own_2",
        },
        {"type": "message", "role": "assistant", "content": "Unmarked."},
    ]


def test_message_marks_that_are_not_strings_are_left_out() -> None:
    odd = own({"id": 3, "phase": ["commentary"]})
    assistant = CourseAssistantMessage("a1", (CourseTextBlock("Four.", opaque=odd),))
    config = OpenAIConfig("gpt-own", store=True)

    assert body_for(CourseUserMessage("u1", "Sum?"), assistant, config=config)["input"][1] == {
        "type": "message",
        "role": "assistant",
        "content": "Four.",
    }


def test_another_wires_message_marks_are_left_out_and_its_text_joins_the_unmarked() -> None:
    gemini = CourseOpaque("gemini", {"id": "msg_own_1", "phase": "commentary"})
    assistant = CourseAssistantMessage(
        "a1", (CourseTextBlock("Four", opaque=gemini), CourseTextBlock("."))
    )
    config = OpenAIConfig("gpt-own", store=True)

    assert body_for(CourseUserMessage("u1", "Sum?"), assistant, config=config)["input"][1] == {
        "type": "message",
        "role": "assistant",
        "content": "Four.",
    }


def test_reasoning_another_wire_or_a_script_produced_is_left_out_an_emptied_message_kept() -> None:
    thinking = CourseOpaque("anthropic-messages", {"signature": "sig"})
    assistant = CourseAssistantMessage(
        "a1",
        (CourseReasoningBlock("hmm", opaque=thinking), CourseReasoningBlock("scripted")),
    )

    assert body_for(CourseUserMessage("u1", "Hi"), assistant, CourseUserMessage("u2", "Again"))[
        "input"
    ] == [
        {"type": "message", "role": "user", "content": "Hi"},
        {"type": "message", "role": "assistant", "content": ""},
        {"type": "message", "role": "user", "content": "Again"},
    ]


def test_strict_tools_hosted_tools_and_the_response_format_in_the_responses_spelling() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}
    answer = {"type": "object", "properties": {"city": {"type": "string"}}}
    config = OpenAIConfig(
        "gpt-own",
        tools=(
            CourseToolSpec("inc", "Add one.", schema, strict=True),
            CourseToolSpec("dec", "Take one.", schema),
        ),
        hosted_tools=(
            {"type": "web_search"},
            {"type": "file_search", "vector_store_ids": ["vs_1"]},
        ),
        response_format=CourseResponseFormat("city", answer, description="Where."),
    )

    body = body_for(CourseUserMessage("u1", "Hi"), config=config)

    assert as_json(body) == as_json(
        {
            "model": "gpt-own",
            "input": [{"type": "message", "role": "user", "content": "Hi"}],
            "tools": [
                {
                    "type": "function",
                    "name": "inc",
                    "description": "Add one.",
                    "parameters": schema,
                    "strict": True,
                },
                {
                    "type": "function",
                    "name": "dec",
                    "description": "Take one.",
                    "parameters": schema,
                    "strict": False,
                },
                {"type": "web_search"},
                {"type": "file_search", "vector_store_ids": ["vs_1"]},
            ],
            "text": {
                "format": {
                    "type": "json_schema",
                    "name": "city",
                    "schema": answer,
                    "strict": True,
                    "description": "Where.",
                }
            },
            "store": False,
            "stream": True,
        }
    )


@pytest.mark.parametrize(
    ("store", "reasoning", "included"),
    [
        (None, ReasoningEffort.LOW, True),
        (False, ReasoningEffort.HIGH, True),
        (True, ReasoningEffort.LOW, False),
        (None, ReasoningEffort.NONE, False),
        (None, None, False),
    ],
)
def test_encrypted_reasoning_is_asked_for_only_when_nothing_is_stored_and_reasoning_is_on(
    store: bool | None, reasoning: ReasoningEffort | None, included: bool
) -> None:
    config = OpenAIConfig("gpt-own", store=store, reasoning=reasoning)

    body = body_for(CourseUserMessage("u1", "Hi"), config=config)

    assert ("include" in body) is included
    if included:
        assert body["include"] == ["reasoning.encrypted_content"]
        assert list(body)[-3:] == ["include", "store", "stream"]


def test_stored_reasoning_goes_back_by_its_item_without_encrypted_content() -> None:
    stored = {"type": "reasoning", "id": "rs_own_2", "summary": []}
    assistant = CourseAssistantMessage(
        "a1", (CourseReasoningBlock("", opaque=own(stored)), CourseTextBlock("Hi."))
    )
    config = OpenAIConfig("gpt-own", store=True)

    assert body_for(CourseUserMessage("u1", "Hi"), assistant, config=config)["input"][1] == stored


def test_reasoning_without_encrypted_content_is_refused_when_nothing_is_stored() -> None:
    stored = {"type": "reasoning", "id": "rs_own_2", "summary": []}
    assistant = CourseAssistantMessage(
        "a1", (CourseTextBlock("Hi."), CourseReasoningBlock("", opaque=own(stored)))
    )

    with pytest.raises(VendorError) as caught:
        body_for(CourseUserMessage("u1", "Hi"), assistant)

    assert (caught.value.code, caught.value.vendor) == (
        VendorErrorCode.VENDOR_INVALID_REQUEST,
        WIRE,
    )
    assert caught.value.message.startswith(
        "messages[1].content[1]: a reasoning item without encrypted_content cannot go back"
    )


def test_hosted_tools_are_checked_at_construction_and_chat_refuses_them() -> None:
    with pytest.raises(VendorConfigError, match=r"hosted_tools\[1\]\.type is 'function'"):
        OpenAIConfig("m", hosted_tools=({"type": "web_search"}, {"type": "function"}))
    with pytest.raises(VendorConfigError, match=r"hosted_tools\[0\]\.type must be a non-blank"):
        OpenAIConfig("m", hosted_tools=({"name": "x"},))
    with pytest.raises(VendorConfigError, match=r"hosted_tools must be a tuple or list"):
        OpenAIConfig("m", hosted_tools="web_search")  # type: ignore[arg-type]
    mutable = {"type": "web_search", "filters": {"allowed_domains": ["a.example"]}}
    config = OpenAIConfig("m", hosted_tools=[mutable])  # type: ignore[arg-type]
    mutable["filters"]["allowed_domains"].append("b.example")  # type: ignore[index]
    assert type(config.hosted_tools[0]) is frozendict
    assert config.hosted_tools[0] == {
        "type": "web_search",
        "filters": {"allowed_domains": ("a.example",)},
    }
    with pytest.raises(VendorConfigError, match="hosted_tools is not supported by openai-chat"):
        OpenAIChatModel(config, transport=RecordedTransport([]))


# bytes(n) is zeroed lazily: nothing but its length is ever read before the refusal.
IMAGE_PAST_LIMIT = bytes(512_000_001)
DOCUMENT_PAST_LIMIT = bytes(50 * 1024 * 1024 + 1)
REFUSED_BEFORE_SENDING: dict[str, tuple[CourseMessage, str]] = {
    "image-type": (
        CourseUserMessage("u1", (CourseImageBlock("image/bmp", data=b"BM"),)),
        "messages[0].content[0].media_type: openai-responses does not take an image of type "
        "image/bmp (it takes image/gif, image/jpeg, image/png, image/webp)",
    ),
    "image-size": (
        CourseUserMessage("u1", (CourseImageBlock("image/png", data=IMAGE_PAST_LIMIT),)),
        "messages[0].content[0].data: holds 512000001 bytes; openai-responses takes an "
        "image of at most 512000000 bytes",
    ),
    "document-size": (
        CourseUserMessage(
            "u1", (CourseDocumentBlock("application/pdf", data=DOCUMENT_PAST_LIMIT),)
        ),
        "messages[0].content[0].data: holds 52428801 bytes; openai-responses takes a "
        "document of at most 52428800 bytes",
    ),
    "document-type": (
        CourseUserMessage("u1", (CourseDocumentBlock("video/mp4", data=b"\0"),)),
        "messages[0].content[0].media_type: openai-responses does not take a document of "
        "type video/mp4",
    ),
    "foreign-vendor-tool": (
        CourseAssistantMessage(
            "a1",
            (
                CourseVendorToolBlock(
                    "server_tool_use", CourseOpaque("anthropic-messages", {"id": "srvtoolu_1"})
                ),
            ),
        ),
        "messages[1].content[0]: a 'server_tool_use' block of anthropic-messages cannot be "
        "sent to openai-responses",
    ),
}


@pytest.mark.parametrize("case", sorted(REFUSED_BEFORE_SENDING))
async def test_what_the_wire_cannot_take_is_refused_before_any_byte_is_sent(case: str) -> None:
    message, expected = REFUSED_BEFORE_SENDING[case]
    messages: tuple[CourseMessage, ...] = (message,)
    if type(message) is CourseAssistantMessage:
        messages = (CourseUserMessage("u0", "Search."), message)
    transport = RecordedTransport([RecordedResponse(200, {}, b"")])
    model = OpenAIResponsesModel(CONFIG, transport=transport)

    played = await replay(model, CourseModelRequest("request-1", messages))

    assert played.error is not None
    assert (played.error.code, played.error.vendor) == (
        VendorErrorCode.VENDOR_INVALID_REQUEST,
        WIRE,
    )
    assert played.error.message.startswith(expected), played.error.message
    assert transport.requests == ()
    await model.aclose()


async def test_reasoning_the_api_could_not_find_is_refused_before_any_byte_is_sent() -> None:
    stored = {"type": "reasoning", "id": "rs_own_2", "summary": []}
    assistant = CourseAssistantMessage(
        "a1", (CourseReasoningBlock("", opaque=own(stored)), CourseTextBlock("Hi."))
    )
    transport = RecordedTransport([RecordedResponse(200, {}, b"")])
    model = OpenAIResponsesModel(CONFIG, transport=transport)

    played = await replay(
        model, CourseModelRequest("request-1", (CourseUserMessage("u1", "Hi"), assistant))
    )

    assert played.error is not None
    assert played.error.code is VendorErrorCode.VENDOR_INVALID_REQUEST
    assert transport.requests == ()
    await model.aclose()


class DictThatLies(dict[str, object]):
    """A dict subclass whose own reads say something else: never called."""

    def __getitem__(self, key: str) -> object:
        raise AssertionError("an overridden __getitem__ must not run")

    def get(self, key: str, default: object = None) -> object:
        raise AssertionError("an overridden get must not run")


def test_hosted_tools_are_read_without_foreign_code_and_refused_past_the_nesting_limit() -> None:
    config = OpenAIConfig("m", hosted_tools=(DictThatLies(type="web_search"),))
    (tool,) = config.hosted_tools
    assert type(tool) is frozendict
    assert tool == {"type": "web_search"}

    with pytest.raises(VendorConfigError) as caught:
        OpenAIConfig("m", hosted_tools=({"type": "web_search", "a": nested_dicts(10_000)},))
    assert caught.value.path.startswith("OpenAIConfig.hosted_tools[0].a.a.a")
