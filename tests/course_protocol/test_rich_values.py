"""The rich values: opaque vendor data, reasoning, vendor tools, images, documents, usage parts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import pytest
from frozendict import frozendict

from course_protocol import (
    JSON_MAX_DEPTH,
    CourseAssistantMessage,
    CourseDocumentBlock,
    CourseImageBlock,
    CourseModelUsage,
    CourseOpaque,
    CourseProtocolError,
    CourseReasoningBlock,
    CourseReasoningDeltaChunk,
    CourseResponseFormat,
    CourseStopReason,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseToolSpec,
    CourseUserMessage,
    CourseVendorToolBlock,
    terminal_semantics_error,
    text_from_assistant,
)
from tests.course_protocol.hostile import (
    DictThatCountsReads,
    ListThatCountsReads,
    StrThatHashesDifferently,
)
from tests.nesting import nested_dicts

SIGNATURE = CourseOpaque("anthropic-messages", {"signature": "c2ln"})
PNG = b"\x89PNG\r\n\x1a\n"


class BytesSubclass(bytes):
    """Not exactly bytes: its methods are foreign code."""


class BytearraySubclass(bytearray):
    """Not exactly a bytearray: ``bytes()`` would run its ``__bytes__``."""

    def __bytes__(self) -> bytes:
        raise AssertionError("a subclass's __bytes__ ran")


class OpaqueSubclass(CourseOpaque):  # type: ignore[misc]
    """Not exactly a CourseOpaque: it could carry mutable state."""


def test_opaque_data_is_a_deep_frozen_snapshot_of_the_callers_dict() -> None:
    items: list[object] = [1, {"deep": "value"}]
    data: dict[str, object] = {"items": items}
    opaque = CourseOpaque("gemini", data)
    items.append(2)
    data["new"] = True

    assert opaque.data == frozendict({"items": (1, frozendict({"deep": "value"}))})
    assert type(opaque.data) is frozendict
    assert opaque.wire == "gemini"


def test_opaque_data_in_a_dict_subclass_is_read_through_dict_itself() -> None:
    data = DictThatCountsReads(signature="c2ln")

    assert CourseOpaque("anthropic-messages", data).data == {"signature": "c2ln"}
    assert data.calls == []


def test_opaque_data_nests_to_the_json_limit_and_no_further() -> None:
    assert CourseOpaque("w", nested_dicts(JSON_MAX_DEPTH)).data is not None
    with pytest.raises(CourseProtocolError) as raised:
        CourseOpaque("w", nested_dicts(JSON_MAX_DEPTH + 1))
    assert raised.value.path.startswith("data")
    assert "JSON_MAX_DEPTH" in raised.value.message


def test_a_text_block_holds_no_citations_and_no_opaque_data_unless_given() -> None:
    plain = CourseTextBlock("x")
    cited = CourseTextBlock("x", citations=[SIGNATURE], opaque=SIGNATURE)

    assert (plain.citations, plain.opaque) == ((), None)
    assert cited.citations == (SIGNATURE,)
    assert type(cited.citations) is tuple
    assert cited != plain
    assert cited.citations[0] is SIGNATURE


def test_citations_in_a_list_subclass_are_read_through_list_itself() -> None:
    citations = ListThatCountsReads([SIGNATURE])

    block = CourseTextBlock("x", citations=citations)  # type: ignore[arg-type]

    assert block.citations == (SIGNATURE,)
    assert citations.calls == []


def test_a_tool_call_keeps_its_opaque_data_and_compares_by_it() -> None:
    call = CourseToolCall("c", "add", {}, opaque=SIGNATURE)

    assert call.opaque is SIGNATURE
    assert call != CourseToolCall("c", "add", {})


def test_a_reasoning_block_may_be_empty_text_with_an_opaque_payload() -> None:
    redacted = CourseReasoningBlock("", opaque=CourseOpaque("anthropic-messages", {"data": "x"}))

    assert redacted.text == ""
    assert redacted.opaque is not None
    assert CourseReasoningBlock("plain").opaque is None


def test_reasoning_is_not_answer_text_and_does_not_count_as_a_tool_call() -> None:
    message = CourseAssistantMessage(
        "m",
        (
            CourseReasoningBlock("I should add."),
            CourseTextBlock("The sum "),
            CourseVendorToolBlock("server_tool_use", SIGNATURE),
            CourseTextBlock("is 42."),
        ),
    )

    assert text_from_assistant(message) == "The sum is 42."
    assert terminal_semantics_error(CourseStopReason.STOP, message) is None
    assert terminal_semantics_error(CourseStopReason.TOOL_CALL, message) == (
        "stop reason toolCall requires at least one Tool-call block, found none"
    )


def test_a_bytearray_is_copied_to_bytes_and_later_changes_reach_nothing() -> None:
    data = bytearray(PNG)

    image = CourseImageBlock("image/png", data=data)
    document = CourseDocumentBlock("application/pdf", data=data)
    data[0] = 0

    assert image.data == PNG
    assert document.data == PNG
    assert type(image.data) is bytes


def test_exact_bytes_are_kept_as_the_same_object() -> None:
    data = bytes(PNG)

    assert CourseImageBlock("image/png", data=data).data is data


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/a.png",
        "http://example.com",
        "HTTPS://Example.com/A.png?x=1#top",
        "https://[::1]:8443/a",
        "https://example.com/caf\u00e9.png",
    ],
)
def test_an_http_or_https_url_with_a_host_is_kept_as_given(url: str) -> None:
    assert CourseImageBlock("image/png", url=url).url == url
    assert CourseDocumentBlock("application/pdf", url=url).url == url


def test_the_repr_names_the_size_of_the_bytes_never_the_bytes() -> None:
    image = CourseImageBlock("image/png", data=b"\x00" * 1_000_000)
    document = CourseDocumentBlock("text/plain", url="https://example.com/a.txt", title="A")

    assert repr(image) == "CourseImageBlock(media_type='image/png', data=<1000000 bytes>)"
    assert repr(document) == (
        "CourseDocumentBlock(media_type='text/plain', url='https://example.com/a.txt', title='A')"
    )


def test_user_content_and_tool_results_take_blocks_as_a_tuple() -> None:
    blocks: list[Any] = [CourseTextBlock("Look:"), CourseImageBlock("image/png", data=PNG)]

    user = CourseUserMessage("u", blocks)
    result = CourseToolResultMessage("r", "c", "look", blocks, is_error=True)
    blocks.clear()

    assert type(user.content) is tuple
    assert len(user.content) == 2
    assert result.content == user.content
    assert CourseUserMessage("u", "plain").content == "plain"


def test_usage_parts_are_absent_unless_sent_and_kept_when_they_fit_their_whole() -> None:
    bare = CourseModelUsage(10, 5)
    full = CourseModelUsage(
        10, 5, cache_read_tokens=cast(Any, 6.0), cache_write_tokens=4, reasoning_tokens=5
    )

    assert (bare.cache_read_tokens, bare.cache_write_tokens, bare.reasoning_tokens) == (
        None,
        None,
        None,
    )
    assert (full.cache_read_tokens, full.cache_write_tokens, full.reasoning_tokens) == (6, 4, 5)
    assert type(full.cache_read_tokens) is int
    assert CourseModelUsage(0, 0, cache_read_tokens=0, reasoning_tokens=0).cache_read_tokens == 0


@pytest.mark.parametrize(
    ("stop_reason", "problem"),
    [
        (CourseStopReason.LENGTH, None),
        (CourseStopReason.PAUSE_TURN, None),
        (CourseStopReason.TOOL_CALL, None),
        (CourseStopReason.REFUSAL, "stop reason refusal forbids Tool-call blocks, found 1"),
        (CourseStopReason.STOP, "stop reason stop forbids Tool-call blocks, found 1"),
    ],
)
def test_each_stop_reason_has_its_terminal_rule_for_a_message_with_a_tool_call(
    stop_reason: CourseStopReason, problem: str | None
) -> None:
    message = CourseAssistantMessage(
        "m", (CourseReasoningBlock("r"), CourseTextBlock("Partial"), CourseToolCall("c", "n", {}))
    )

    assert terminal_semantics_error(stop_reason, message) == problem


@pytest.mark.parametrize(
    "stop_reason",
    [CourseStopReason.LENGTH, CourseStopReason.REFUSAL, CourseStopReason.PAUSE_TURN],
)
def test_the_new_stop_reasons_allow_a_message_without_tool_calls_even_an_empty_one(
    stop_reason: CourseStopReason,
) -> None:
    assert terminal_semantics_error(stop_reason, CourseAssistantMessage("m", ())) is None
    text = CourseAssistantMessage("m", (CourseTextBlock("I can't help with that."),))
    assert terminal_semantics_error(stop_reason, text) is None


def test_a_tool_spec_is_not_strict_unless_asked_and_compares_by_it() -> None:
    loose = CourseToolSpec("add", "Adds.", {"type": "object"})
    strict = CourseToolSpec("add", "Adds.", {"type": "object"}, strict=True)

    assert (loose.strict, strict.strict) == (False, True)
    assert loose != strict


def test_a_response_format_is_strict_unless_told_and_snapshots_its_schema() -> None:
    schema: dict[str, object] = {"type": "object", "required": ["sum"]}

    answer = CourseResponseFormat("sum", schema)
    described = CourseResponseFormat("sum", schema, strict=False, description="The sum.")
    schema["required"] = []

    assert (answer.strict, answer.description) == (True, None)
    assert (described.strict, described.description) == (False, "The sum.")
    assert answer.schema == frozendict({"type": "object", "required": ("sum",)})
    assert CourseResponseFormat("sum", {}, description="").description == ""


_ANY: Any = None

_BAD_RICH_CONSTRUCTIONS: list[tuple[str, Callable[[], object], str, str]] = [
    ("opaque-blank-wire", lambda: CourseOpaque(" ", {}), "wire", "empty"),
    ("opaque-wire-subclass", lambda: CourseOpaque(StrThatHashesDifferently("w"), {}), "wire",
     "not StrThatHashesDifferently"),
    ("opaque-data-list", lambda: CourseOpaque("w", cast(Any, [])), "data",
     "must be a JSON object, not list"),
    ("opaque-data-nan", lambda: CourseOpaque("w", {"x": [float("nan")]}), "data.x[0]", "finite"),
    ("text-citations-tuple-of-dict", lambda: CourseTextBlock("x", citations=cast(Any, ({},))),
     "citations[0]", "must be a CourseOpaque, not dict"),
    ("text-citations-generator", lambda: CourseTextBlock(
     "x", citations=cast(Any, (c for c in [SIGNATURE]))), "citations",
     "must be a list or tuple, not generator"),
    ("text-citation-subclass", lambda: CourseTextBlock(
     "x", citations=[SIGNATURE, OpaqueSubclass("w", {})]), "citations[1]", "not OpaqueSubclass"),
    ("text-opaque-dict", lambda: CourseTextBlock("x", opaque=cast(Any, {"wire": "w"})), "opaque",
     "must be a CourseOpaque, not dict"),
    ("call-opaque-str", lambda: CourseToolCall("c", "n", {}, opaque=cast(Any, "sig")), "opaque",
     "must be a CourseOpaque or None, not str"),
    ("reasoning-text-none", lambda: CourseReasoningBlock(_ANY), "text", "not NoneType"),
    ("reasoning-opaque-dict", lambda: CourseReasoningBlock("r", opaque=cast(Any, {})), "opaque",
     "must be a CourseOpaque or None, not dict"),
    ("vendor-tool-blank-kind", lambda: CourseVendorToolBlock("\u3000", SIGNATURE), "kind",
     "empty"),
    ("vendor-tool-no-opaque", lambda: CourseVendorToolBlock("server_tool_use", _ANY), "opaque",
     "must be a CourseOpaque, not NoneType"),
    ("image-upper-case-type", lambda: CourseImageBlock("image/PNG", data=PNG), "media_type",
     "lower-case"),
    ("image-type-parameters", lambda: CourseImageBlock("image/png; q=1", data=PNG),
     "media_type", "no parameters"),
    ("image-no-subtype", lambda: CourseImageBlock("image", data=PNG), "media_type",
     "type/subtype"),
    ("image-newline-after-type", lambda: CourseImageBlock("image/png\n", data=PNG),
     "media_type", "type/subtype"),
    ("image-of-a-pdf", lambda: CourseImageBlock("application/pdf", data=PNG), "media_type",
     "must be an image/ type, not application/"),
    ("image-type-bytes", lambda: CourseImageBlock(cast(Any, b"image/png"), data=PNG),
     "media_type", "must be a str, not bytes"),
    ("image-neither-source", lambda: CourseImageBlock("image/png"), "data",
     "give exactly one of data"),
    ("image-both-sources", lambda: CourseImageBlock("image/png", data=PNG, url="https://a.b"),
     "url", "give exactly one of data"),
    ("image-empty-bytes", lambda: CourseImageBlock("image/png", data=b""), "data",
     "must not be empty"),
    ("image-bytes-subclass", lambda: CourseImageBlock("image/png", data=BytesSubclass(PNG)),
     "data", "must be bytes or a bytearray, not BytesSubclass"),
    ("image-bytearray-subclass", lambda: CourseImageBlock(
     "image/png", data=BytearraySubclass(PNG)), "data", "not BytearraySubclass"),
    ("image-memoryview", lambda: CourseImageBlock("image/png", data=cast(Any, memoryview(PNG))),
     "data", "not memoryview"),
    ("image-base64-str", lambda: CourseImageBlock("image/png", data=cast(Any, "iVBORw==")),
     "data", "not str"),
    ("image-data-url", lambda: CourseImageBlock("image/png", url="data:image/png;base64,iVBO"),
     "url", "never in a data: URL"),
    ("image-ftp-url", lambda: CourseImageBlock("image/png", url="ftp://example.com/a.png"),
     "url", "http:// or https://"),
    ("image-url-without-host", lambda: CourseImageBlock("image/png", url="https:///a.png"),
     "url", "with a host"),
    ("image-url-with-space", lambda: CourseImageBlock("image/png", url="https://a.b/x y.png"),
     "url", "no white space"),
    ("image-url-with-nbsp", lambda: CourseImageBlock("image/png", url="https://a.b/x\xa0y"),
     "url", "no white space"),
    ("image-url-with-newline", lambda: CourseImageBlock("image/png", url="https://a.b/\n"),
     "url", "control characters"),
    ("image-url-bytes", lambda: CourseImageBlock("image/png", url=cast(Any, b"https://a.b")),
     "url", "must be a str, not bytes"),
    ("document-blank-title", lambda: CourseDocumentBlock("text/plain", data=b"x", title=" "),
     "title", "empty"),
    ("document-title-int", lambda: CourseDocumentBlock("text/plain", data=b"x",
     title=cast(Any, 1)), "title", "not int"),
    ("user-empty-blocks", lambda: CourseUserMessage("u", ()), "content",
     "must hold at least one block"),
    ("user-content-bytes", lambda: CourseUserMessage("u", cast(Any, b"hi")), "content",
     "must be a str or a list or tuple of blocks, not bytes"),
    ("user-content-str-subclass", lambda: CourseUserMessage("u", StrThatHashesDifferently("x")),
     "content", "not StrThatHashesDifferently"),
    ("user-reasoning-block", lambda: CourseUserMessage("u", cast(Any, (
     CourseReasoningBlock("r"),))), "content[0]",
     "must be a CourseTextBlock, CourseImageBlock or CourseDocumentBlock, not "
     "CourseReasoningBlock"),
    ("user-tool-call", lambda: CourseUserMessage("u", cast(Any, [
     CourseTextBlock("a"), CourseToolCall("c", "n", {})])), "content[1]", "not CourseToolCall"),
    ("user-cited-text", lambda: CourseUserMessage("u", (CourseTextBlock(
     "x", citations=(SIGNATURE,)),)), "content[0].citations", "only an answer has citations"),
    ("user-opaque-text", lambda: CourseUserMessage("u", (CourseTextBlock(
     "x", opaque=SIGNATURE),)), "content[0].opaque", "only an answer has opaque data"),
    ("result-empty-blocks", lambda: CourseToolResultMessage("r", "c", "n", []), "content",
     "must hold at least one block"),
    ("result-vendor-tool", lambda: CourseToolResultMessage("r", "c", "n", cast(Any, (
     CourseVendorToolBlock("k", SIGNATURE),))), "content[0]", "not CourseVendorToolBlock"),
    ("assistant-image", lambda: CourseAssistantMessage("m", cast(Any, (
     CourseImageBlock("image/png", data=PNG),))), "content[0]", "not CourseImageBlock"),
    ("usage-cache-read-bool", lambda: CourseModelUsage(1, 1, cache_read_tokens=cast(Any, True)),
     "cache_read_tokens", "must be an int or an integral float, not bool"),
    ("usage-reasoning-fraction", lambda: CourseModelUsage(1, 1, reasoning_tokens=cast(
     Any, 0.5)), "reasoning_tokens", "not a float with a fraction"),
    ("usage-cache-write-negative", lambda: CourseModelUsage(1, 1, cache_write_tokens=-1),
     "cache_write_tokens", "must be between 0 and 2**53 - 1"),
    ("usage-cache-read-over-input", lambda: CourseModelUsage(5, 1, cache_read_tokens=6),
     "cache_read_tokens", "the cached input (6) exceeds input_tokens (5)"),
    ("usage-cache-sum-over-input", lambda: CourseModelUsage(
     5, 1, cache_read_tokens=3, cache_write_tokens=3), "cache_write_tokens",
     "the cached input (6) exceeds input_tokens (5)"),
    ("usage-reasoning-over-output", lambda: CourseModelUsage(5, 1, reasoning_tokens=2),
     "reasoning_tokens", "(2) exceeds output_tokens (1)"),
    ("reasoning-delta-blank-id", lambda: CourseReasoningDeltaChunk("\ufeff", "x"), "request_id",
     "empty"),
    ("reasoning-delta-bytes", lambda: CourseReasoningDeltaChunk("r", cast(Any, b"x")), "delta",
     "not bytes"),
    ("tool-spec-strict-int", lambda: CourseToolSpec("n", "d", {}, strict=cast(Any, 1)),
     "strict", "must be a bool, not int"),
    ("format-blank-name", lambda: CourseResponseFormat("", {}), "name", "empty"),
    ("format-schema-list", lambda: CourseResponseFormat("f", cast(Any, [])), "schema",
     "must be a JSON object, not list"),
    ("format-schema-key", lambda: CourseResponseFormat("f", {"a": {1: 2}}), "schema.a",
     "keys must be str"),
    ("format-strict-none", lambda: CourseResponseFormat("f", {}, strict=_ANY), "strict",
     "must be a bool, not NoneType"),
    ("format-description-bytes", lambda: CourseResponseFormat("f", {}, description=cast(
     Any, b"d")), "description", "not bytes"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("build", "path", "fragment"),
    [case[1:] for case in _BAD_RICH_CONSTRUCTIONS],
    ids=[case[0] for case in _BAD_RICH_CONSTRUCTIONS],
)
def test_bad_rich_fields_raise_a_protocol_error_naming_their_path(
    build: Callable[[], object], path: str, fragment: str
) -> None:
    with pytest.raises(CourseProtocolError) as raised:
        build()
    assert raised.value.path == path
    assert fragment in raised.value.message
