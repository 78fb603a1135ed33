"""The dialect facts checked against each server's docs, SDK or recorded streams, both ways.

Each body is our own, built in the form the source shows (named in the
dialect's docstring): the dialect reads it and carries what it says, and
plain ``openai-chat`` keeps refusing it where OpenAI's grammar does.
"""

from __future__ import annotations

from typing import Any

import pytest

from course_http import VendorError, VendorErrorCode
from course_protocol import CourseModelUsage, CourseReasoningDeltaChunk, CourseTextDeltaChunk
from course_provider_openai import (
    GROQ,
    MISTRAL,
    OLLAMA,
    OPENAI_CHAT,
    OPENROUTER,
    XAI,
    ChatDialect,
    ChatMapping,
    ChatUsage,
)
from tests.course_provider_openai.bodies import DONE, chat_events, chunk, finish, text, usage
from tests.course_provider_openai.dialect_grammar import COUNTS, ROLE, folded, mapped, read, refused
from tests.course_provider_openai.driving import replay

Code = VendorErrorCode


def openrouter_last(reason: str, **counts: object) -> dict[str, Any]:
    """OpenRouter's last chunk as recorded: the finished choice again, with the usage."""
    return chunk(
        {"content": "", "role": "assistant"},
        finish_reason=reason,
        native_finish_reason=reason,
        usage=counts or COUNTS,
    )


def test_openrouters_usage_comes_beside_the_finish_it_sends_again() -> None:
    body = (ROLE, text("Hi"), finish("stop"), openrouter_last("stop"), DONE)

    result = read(OPENROUTER, *body)

    assert result.usage == ChatUsage(12, 7, 19)
    assert [choice.finish_reason for choice in result.choices] == ["stop"]
    played = mapped(OPENROUTER, *body)
    assert played.chunks == (CourseTextDeltaChunk("request-1", "Hi"),)
    assert played.response is not None
    assert played.response.usage == CourseModelUsage(12, 7)
    error = folded(OPENAI_CHAT, *body)
    assert type(error) is VendorError
    assert (error.code, error.event_index, error.vendor) == (
        Code.VENDOR_EVENT_ORDER,
        3,
        "openai-chat",
    )


def test_openrouters_usage_beside_a_finish_it_never_sent_is_off_its_grammar() -> None:
    error = refused(OPENROUTER, ROLE, text("Hi"), finish("stop"), openrouter_last("length"))

    assert (error.code, error.event_index) == (Code.VENDOR_EVENT_ORDER, 3)


def test_openrouters_usage_after_the_usage_is_off_its_grammar() -> None:
    body = (ROLE, finish("stop"), openrouter_last("stop"), openrouter_last("stop"))

    error = refused(OPENROUTER, *body)

    assert (error.code, error.event_index) == (Code.VENDOR_EVENT_ORDER, 3)


def test_openrouters_documented_error_chunk_ends_the_stream_as_the_vendors_error() -> None:
    # The docs' form: a top-level error beside a choice finishing with "error", then [DONE].
    failed = chunk(
        {"content": ""},
        finish_reason="error",
        provider="openai",
        error={"code": "server_error", "message": "Provider disconnected unexpectedly"},
    )
    body = (ROLE, text("Hal"), failed, DONE)

    result = read(OPENROUTER, *body)

    assert result.error is not None
    assert (result.error.code, result.error.message) == (
        "server_error",
        "Provider disconnected unexpectedly",
    )
    played = mapped(OPENROUTER, *body)
    assert played.chunks == (CourseTextDeltaChunk("request-1", "Hal"),)
    assert played.error is not None
    assert (played.error.code, played.error.event_index, played.error.vendor) == (
        Code.VENDOR_ERROR_EVENT,
        2,
        "openrouter",
    )
    assert played.error.vendor_code == "server_error"


def test_only_done_follows_openrouters_error_chunk() -> None:
    failed = chunk({"content": ""}, finish_reason="error", error={"code": 502, "message": "x"})

    error = refused(OPENROUTER, ROLE, failed, openrouter_last("error"))

    assert (error.code, error.event_index) == (Code.VENDOR_EVENT_ORDER, 2)


def stamped(delta: dict[str, Any] | None, created: object, **fields: object) -> dict[str, Any]:
    return chunk(delta, created=created, **fields)


@pytest.mark.parametrize("dialect", [XAI, OLLAMA], ids=["xai", "ollama"])
def test_a_created_each_chunk_stamps_anew_passes_and_openai_refuses_it(
    dialect: ChatDialect,
) -> None:
    body = (
        stamped({"role": "assistant", "reasoning_content": "Hm"}, 1761231382),
        stamped({"content": "Oi"}, 1761231383),
        stamped({"content": "!"}, 1761231383),
        stamped({}, 1761231384, finish_reason="stop"),
        stamped(None, 1761231384, usage=COUNTS),
        DONE,
    )

    result = read(dialect, *body)

    assert result.created == 1761231382
    assert result.choices[0].content == "Oi!"
    error = folded(OPENAI_CHAT, *body)
    assert type(error) is VendorError
    assert (error.code, error.event_index) == (Code.VENDOR_INVALID_EVENT, 1)
    assert "created differs from the first chunk's (1761231382)" in error.message


@pytest.mark.parametrize(
    ("created", "says"),
    [
        (1761231381, "created 1761231381 is earlier than the chunk before's (1761231383)"),
        (-1, "created must be a non-negative integer, got -1"),
        ("1761231384", "created must be a non-negative integer"),
        (None, "created must be a non-negative integer, got null"),
        (True, "created must be a non-negative integer"),
    ],
    ids=["back-in-time", "negative", "text", "dropped", "bool"],
)
def test_a_created_that_goes_back_or_is_no_time_is_refused_where_it_varies(
    created: object, says: str
) -> None:
    body = (
        stamped({"role": "assistant", "content": ""}, 1761231382),
        stamped({"content": "Oi"}, 1761231383),
        stamped({"content": "!"}, created),
    )

    error = refused(XAI, *body)

    assert (error.code, error.event_index) == (Code.VENDOR_INVALID_EVENT, 2)
    assert says in error.message


def test_a_created_that_returns_to_the_first_chunks_after_moving_on_is_refused() -> None:
    body = (
        stamped({"role": "assistant", "content": ""}, 10),
        stamped({"content": "Oi"}, 11),
        stamped({"content": "!"}, 10),
    )

    error = refused(OLLAMA, *body)

    assert (error.code, error.event_index) == (Code.VENDOR_INVALID_EVENT, 2)
    assert "created 10 is earlier than the chunk before's (11)" in error.message


XAI_COUNTS = {
    "prompt_tokens": 213,
    "completion_tokens": 27,
    "total_tokens": 373,
    "prompt_tokens_details": {"text_tokens": 213, "cached_tokens": 192},
    "completion_tokens_details": {"reasoning_tokens": 133},
    "num_sources_used": 0,
}
"""The form of a recorded xAI usage chunk: 373 = 213 + 27 + 133, reasoning counted apart."""


def test_xais_reasoning_tokens_are_added_to_its_output_and_openai_counts_them_inside() -> None:
    body = (
        chunk({"role": "assistant", "reasoning_content": "Say hi."}),
        text("Oi!"),
        finish("stop"),
        chunk(None, usage=XAI_COUNTS),
        DONE,
    )

    played = mapped(XAI, *body)

    assert played.response is not None
    assert played.response.usage == CourseModelUsage(
        213, 160, cache_read_tokens=192, reasoning_tokens=133
    )
    assert played.chunks[0] == CourseReasoningDeltaChunk("request-1", "Say hi.")
    plain = replay(ChatMapping("request-1"), chat_events(*body))
    assert plain.error is not None
    assert (plain.error.code, plain.error.event_index) == (Code.VENDOR_INVALID_EVENT, 3)
    assert "usage" in plain.error.message


def test_a_dialect_counting_reasoning_apart_keeps_the_completion_when_none_is_sent() -> None:
    played = mapped(XAI, ROLE, text("Oi!"), finish("stop"), usage(213, 27, 240), DONE)

    assert played.response is not None
    assert played.response.usage == CourseModelUsage(213, 27)


def test_groqs_x_groq_error_ends_the_stream_as_the_vendors_error() -> None:
    stopped = chunk({}, x_groq={"id": "req_1", "error": "stream stopped: overloaded"})
    body = (chunk({"role": "assistant", "reasoning": "We"}), stopped, DONE)

    result = read(GROQ, *body)

    assert result.error is not None
    assert result.error.message == "stream stopped: overloaded"
    played = mapped(GROQ, *body)
    assert played.chunks == (CourseReasoningDeltaChunk("request-1", "We"),)
    assert played.error is not None
    assert (played.error.code, played.error.event_index) == (Code.VENDOR_ERROR_EVENT, 1)
    assert (played.error.vendor, played.error.vendor_message) == (
        "groq",
        "stream stopped: overloaded",
    )
    plain = folded(OPENAI_CHAT, *body)
    assert type(plain) is VendorError
    assert (plain.code, plain.event_index) == (Code.VENDOR_MISSING_TERMINAL, 2)


@pytest.mark.parametrize("stopped", [{"message": "x"}, 7, ["x"]], ids=["object", "int", "array"])
def test_an_x_groq_error_that_is_not_text_is_refused_at_its_path(stopped: object) -> None:
    error = refused(GROQ, ROLE, chunk({}, x_groq={"error": stopped}))

    assert (error.code, error.event_index) == (Code.VENDOR_INVALID_EVENT, 1)
    assert "x_groq.error must be a string or null" in error.message


def test_nothing_but_done_follows_groqs_x_groq_error() -> None:
    body = (ROLE, chunk({}, x_groq={"error": "stopped"}), text("more"))

    error = refused(GROQ, *body)

    assert (error.code, error.event_index) == (Code.VENDOR_EVENT_ORDER, 2)


def mistral_references() -> tuple[object, ...]:
    thinking = {
        "type": "thinking",
        "thinking": [
            {"type": "text", "text": "Per the doc, "},
            {"type": "reference", "reference_ids": [0, 2]},
            {"type": "text", "text": "it is 4."},
        ],
        "closed": True,
    }
    return (
        ROLE,
        chunk({"content": [thinking]}),
        chunk(
            {
                "content": [
                    {"type": "text", "text": "4"},
                    {"type": "reference", "reference_ids": [2]},
                ]
            }
        ),
        chunk({}, finish_reason="stop", usage=COUNTS),
        DONE,
    )


def test_mistrals_reference_parts_pass_and_carry_no_text() -> None:
    choice = read(MISTRAL, *mistral_references()).choices[0]

    assert (choice.reasoning, choice.content) == ("Per the doc, it is 4.", "4")
    played = mapped(MISTRAL, *mistral_references())
    assert played.chunks == (
        CourseReasoningDeltaChunk("request-1", "Per the doc, it is 4."),
        CourseTextDeltaChunk("request-1", "4"),
    )
    error = folded(OPENAI_CHAT, *mistral_references())
    assert type(error) is VendorError
    assert (error.code, error.event_index) == (Code.VENDOR_INVALID_EVENT, 1)


@pytest.mark.parametrize(
    ("part", "code", "path"),
    [
        ({"type": "reference"}, Code.VENDOR_INVALID_EVENT, "content[0].reference_ids must be"),
        (
            {"type": "reference", "reference_ids": [1, -1]},
            Code.VENDOR_INVALID_EVENT,
            "content[0].reference_ids[1] must be a non-negative integer, got -1",
        ),
        (
            {"type": "reference", "reference_ids": ["1"]},
            Code.VENDOR_INVALID_EVENT,
            "content[0].reference_ids[0]",
        ),
        (
            {"type": "thinking", "thinking": [{"type": "reference", "reference_ids": True}]},
            Code.VENDOR_INVALID_EVENT,
            "content[0].thinking[0].reference_ids",
        ),
        (
            {"type": "thinking", "thinking": [], "closed": "yes"},
            Code.VENDOR_INVALID_EVENT,
            "content[0].closed must be a boolean or null",
        ),
        (
            {"type": "thinking", "thinking": [{"type": "image_url", "image_url": "x"}]},
            Code.VENDOR_UNKNOWN_EVENT,
            "content[0].thinking[0].type 'image_url'",
        ),
    ],
    ids=["no-ids", "negative-id", "text-id", "ids-not-array", "closed-not-bool", "inner-image"],
)
def test_reference_and_thinking_parts_off_mistrals_grammar_are_refused_at_their_path(
    part: dict[str, Any], code: VendorErrorCode, path: str
) -> None:
    error = refused(MISTRAL, ROLE, chunk({"content": [part]}))

    assert (error.code, error.event_index) == (code, 1)
    assert path in error.message
