"""Protocol values: validated, deeply immutable, snapshotted, picklable, comparable."""

from __future__ import annotations

import copy
import dataclasses
import math
import pickle
from collections.abc import Callable
from enum import IntEnum
from typing import Any, cast

import pytest
from frozendict import frozendict
from hypothesis import given, settings
from hypothesis import strategies as st

from course_protocol import (
    MAX_TOKEN_COUNT,
    CourseAssistantMessage,
    CourseModelRequest,
    CourseModelResponse,
    CourseModelUsage,
    CourseProtocolError,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    CourseToolResultMessage,
    CourseUserMessage,
    CourseValue,
    JsonError,
    JsonErrorCode,
    TranscriptIssue,
    TranscriptIssueCode,
)
from tests.course_protocol import samples, strategies
from tests.course_protocol.hostile import (
    ListThatCountsReads,
    ObjectThatRaisesOnEverything,
    StrThatHashesDifferently,
    TupleThatCountsReads,
    TypeThatEqualsEveryType,
)


class Count(IntEnum):
    ONE = 1


class TextBlockWithADict(CourseTextBlock):  # type: ignore[misc]
    """A subclass of a final protocol type: it gains a ``__dict__`` for mutable state."""


class ToolCallWithADict(CourseToolCall):  # type: ignore[misc]
    """A Tool call subclass that could carry mutable state."""


class AssistantMessageWithADict(CourseAssistantMessage):  # type: ignore[misc]
    """An assistant message subclass that could carry mutable state."""


class UsageWithADict(CourseModelUsage):  # type: ignore[misc]
    """A usage subclass that could carry mutable state."""


class UserMessageWithADict(CourseUserMessage):  # type: ignore[misc]
    """A user message subclass that could carry mutable state."""


def smuggler(cls: type[Any], *args: object) -> Any:
    value = cls(*args)
    value.__dict__["mutable"] = []
    return value


@pytest.mark.parametrize("position", range(len(samples.EVERY_VALUE_ID)), ids=samples.EVERY_VALUE_ID)
def test_every_value_pickles_deep_copies_and_equals_an_equal_value(position: int) -> None:
    value = samples.every_value()[position]
    twin = samples.every_value()[position]
    assert twin is not value
    assert value == twin
    assert hash(value) == hash(twin)
    assert pickle.loads(pickle.dumps(value)) == value
    assert copy.deepcopy(value) == value
    assert copy.copy(value) == value


@pytest.mark.parametrize("value", samples.every_value(), ids=samples.EVERY_VALUE_ID)
def test_every_value_is_frozen_and_has_no_instance_dict(value: CourseValue) -> None:
    field = dataclasses.fields(value)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, field, "changed")
    with pytest.raises(AttributeError):
        value.__dict__  # noqa: B018
    with pytest.raises((AttributeError, TypeError)):
        value.extra = 1  # type: ignore[union-attr]


@pytest.mark.parametrize("value", samples.every_value(), ids=samples.EVERY_VALUE_ID)
def test_every_value_differs_from_a_value_with_one_field_changed(value: CourseValue) -> None:
    if type(value) is CourseTextBlock:
        # A text block keeps its three attributes in one slot: no dataclass field to replace.
        changed: object = CourseTextBlock("other", citations=value.citations, opaque=value.opaque)
    else:
        first = dataclasses.fields(value)[0].name
        replacement = {"input_tokens": 1000, "media_type": "image/gif"}.get(first, "other-id")
        changed = dataclasses.replace(cast(Any, value), **{first: replacement})
    assert changed != value
    assert type(changed) is type(value)


@pytest.mark.parametrize("attribute", ["text", "citations", "opaque", "_parts"])
def test_a_text_block_refuses_every_write_and_dataclasses_replace(attribute: str) -> None:
    signature = samples.signature()
    block = CourseTextBlock("a", citations=(signature,), opaque=signature)
    # The slot is a frozen field; the three attributes are read-only properties,
    # which a slotted frozen dataclass's setattr refuses with a TypeError.
    refusal = dataclasses.FrozenInstanceError if attribute == "_parts" else TypeError
    with pytest.raises(refusal):
        setattr(block, attribute, "changed")
    with pytest.raises(TypeError, match="_parts"):
        dataclasses.replace(cast(Any, block), text="b")
    assert (block.text, block.citations, block.opaque) == ("a", (signature,), signature)


def test_a_text_block_equals_hashes_and_matches_by_its_three_attributes() -> None:
    signature = samples.signature()
    plain = CourseTextBlock("a")
    assert plain == CourseTextBlock("a", citations=[], opaque=None)
    assert hash(plain) == hash(CourseTextBlock("a", citations=()))
    cited = CourseTextBlock("a", citations=[signature])
    assert cited != plain
    assert cited != CourseTextBlock("a", opaque=signature)
    assert cited == CourseTextBlock("a", citations=(signature,))
    assert repr(cited) == f"CourseTextBlock(text='a', citations=({signature!r},), opaque=None)"
    match cited:
        case CourseTextBlock(text, citations, opaque):
            assert (text, citations, opaque) == ("a", (signature,), None)
        case _:
            pytest.fail("a text block matches positionally by text, citations and opaque")


_VALUE_STRATEGY: st.SearchStrategy[CourseValue] = st.one_of(
    strategies.content_blocks,
    strategies.messages,
    strategies.requests,
    strategies.chunks,
    strategies.usages,
    strategies.responses,
    strategies.rich_content_blocks,
    strategies.rich_messages,
    strategies.rich_requests,
    strategies.rich_chunks,
    strategies.rich_usages(),
    strategies.rich_responses,
)


@settings(max_examples=100, deadline=None)
@given(_VALUE_STRATEGY)
def test_any_generated_value_survives_pickle_and_deepcopy(value: CourseValue) -> None:
    assert pickle.loads(pickle.dumps(value)) == value
    assert copy.deepcopy(value) == value
    assert hash(copy.deepcopy(value)) == hash(value)


def test_tool_arguments_are_a_deep_snapshot_of_the_callers_dict() -> None:
    nested = [1, {"deep": "value"}]
    arguments: dict[str, object] = {"items": nested}
    call = CourseToolCall("call-1", "lookup", arguments)
    nested.append(2)
    cast(dict[str, str], nested[1])["deep"] = "changed"
    arguments["new"] = True
    assert call.arguments == frozendict({"items": (1, frozendict({"deep": "value"}))})
    assert type(call.arguments) is frozendict
    assert type(call.arguments["items"]) is tuple


def test_sequences_given_as_lists_become_tuples_unaffected_by_later_mutation() -> None:
    blocks: list[Any] = [CourseTextBlock("a")]
    message = CourseAssistantMessage("m-1", blocks)
    messages: list[Any] = [CourseUserMessage("u-1", "hi")]
    request = CourseModelRequest("r-1", messages)
    blocks.append(CourseTextBlock("b"))
    messages.clear()
    assert message.content == (CourseTextBlock("a"),)
    assert type(message.content) is tuple
    assert request.messages == (CourseUserMessage("u-1", "hi"),)
    assert type(request.messages) is tuple


def test_list_and_tuple_subclasses_are_read_through_their_base_type_only() -> None:
    listed = ListThatCountsReads([CourseTextBlock("a")])
    tupled = TupleThatCountsReads((CourseUserMessage("u-1", "hi"),))
    message = CourseAssistantMessage("m-1", listed)  # type: ignore[arg-type]
    request = CourseModelRequest("r-1", tupled)  # type: ignore[arg-type]
    assert listed.calls == []
    assert TupleThatCountsReads.calls == []
    assert type(message.content) is tuple
    assert type(request.messages) is tuple
    assert message.content == (CourseTextBlock("a"),)


@pytest.mark.parametrize(
    "sequence",
    ["text", b"bytes", {"a": 1}, frozendict(), iter([]), (n for n in range(1)), None, 3, {1}],
    ids=lambda value: type(value).__name__,
)
def test_sequences_must_be_lists_or_tuples(sequence: object) -> None:
    with pytest.raises(CourseProtocolError) as raised:
        CourseAssistantMessage("m-1", sequence)  # type: ignore[arg-type]
    assert raised.value.path == "content"
    assert "must be a list or tuple" in raised.value.message
    with pytest.raises(CourseProtocolError) as raised:
        CourseModelRequest("r-1", sequence)  # type: ignore[arg-type]
    assert raised.value.path == "messages"


def test_ids_keep_surrounding_whitespace_and_text_may_be_empty() -> None:
    assert CourseUserMessage(" id ", "").id == " id "
    assert CourseTextBlock("").text == ""
    assert CourseTextDeltaChunk("r", "").delta == ""


@pytest.mark.parametrize("count", [0, 1, MAX_TOKEN_COUNT])
def test_usage_accepts_every_safe_integer_count(count: int) -> None:
    usage = CourseModelUsage(count, count)
    assert (usage.input_tokens, usage.output_tokens) == (count, count)


_BLOCK = CourseTextBlock("x")
_MESSAGE = CourseAssistantMessage("m-1", (_BLOCK,))
_USAGE = CourseModelUsage(1, 1)


def response(**changes: object) -> Callable[[], object]:
    fields: dict[str, Any] = {
        "id": "response-1",
        "request_id": "request-1",
        "message": _MESSAGE,
        "stop_reason": CourseStopReason.STOP,
        "usage": _USAGE,
    }
    fields.update(changes)
    return lambda: CourseModelResponse(**fields)


def assistant(*blocks: object) -> Callable[[], object]:
    return lambda: CourseAssistantMessage("m-1", cast(Any, blocks))


def request(*messages: object) -> Callable[[], object]:
    return lambda: CourseModelRequest("r-1", cast(Any, messages))


def call(id: Any = "c-1", name: Any = "add", arguments: Any = None) -> Callable[[], object]:
    return lambda: CourseToolCall(id, name, {} if arguments is None else arguments)


_USER = CourseUserMessage("u-1", "x")
_NAN_ITEMS = {"items": [0, 0, 0, {"x": math.nan}]}
_ANY: Any = None

_BAD_CONSTRUCTIONS: list[tuple[str, Callable[[], object], str, str]] = [
    ("text-not-str", lambda: CourseTextBlock(cast(Any, 1)), "text", "must be a str, not int"),
    ("text-str-subclass", lambda: CourseTextBlock(StrThatHashesDifferently("x")), "text",
     "must be a str, not StrThatHashesDifferently"),
    ("call-empty-id", call(id=""), "id", "must not be empty or whitespace-only"),
    ("call-blank-id", call(id=" \t\n"), "id", "must not be empty or whitespace-only"),
    ("call-blank-name", call(name="  "), "name", "must not be empty or whitespace-only"),
    ("call-name-none", call(name=None), "name", "must be a str, not NoneType"),
    ("call-arguments-list", call(arguments=[]), "arguments", "must be a JSON object, not list"),
    ("call-arguments-nan", call(arguments=_NAN_ITEMS), "arguments.items[3].x", "finite"),
    ("call-arguments-key", call(arguments={"a": {1: 2}}), "arguments.a", "keys must be str"),
    ("user-id-bytes", lambda: CourseUserMessage(cast(Any, b"u"), "hi"), "id", "not bytes"),
    ("user-content-none", lambda: CourseUserMessage("u", _ANY), "content", "not NoneType"),
    ("assistant-block-user", assistant(_BLOCK, _USER), "content[1]",
     "must be a CourseTextBlock, CourseToolCall, CourseReasoningBlock or "
     "CourseVendorToolBlock, not CourseUserMessage"),
    ("assistant-block-dict", assistant({"type": "text"}), "content[0]", "not dict"),
    ("assistant-block-subclass", assistant(smuggler(TextBlockWithADict, "x")), "content[0]",
     "not TextBlockWithADict"),
    ("assistant-call-subclass", assistant(smuggler(ToolCallWithADict, "c", "n", {})),
     "content[0]", "not ToolCallWithADict"),
    ("assistant-block-equal-type", assistant(TypeThatEqualsEveryType()), "content[0]",
     "not TypeThatEqualsEveryType"),
    ("result-blank-call-id", lambda: CourseToolResultMessage("r", " ", "add", "42"),
     "tool_call_id", "empty"),
    ("result-empty-name", lambda: CourseToolResultMessage("r", "c", "", "42"), "tool_name",
     "empty"),
    ("result-content-int", lambda: CourseToolResultMessage("r", "c", "n", cast(Any, 42)),
     "content", "not int"),
    ("result-is-error-int", lambda: CourseToolResultMessage("r", "c", "n", "x", cast(Any, 1)),
     "is_error", "must be a bool, not int"),
    ("request-blank-id", lambda: CourseModelRequest("", ()), "id", "empty"),
    ("request-message-block", request(_USER, _BLOCK), "messages[1]", "not CourseTextBlock"),
    ("request-message-subclass", request(smuggler(UserMessageWithADict, "u", "x")),
     "messages[0]", "not UserMessageWithADict"),
    ("request-message-hostile", request(ObjectThatRaisesOnEverything()), "messages[0]",
     "not ObjectThatRaisesOnEverything"),
    ("delta-blank-request-id", lambda: CourseTextDeltaChunk("\u3000", "x"), "request_id",
     "empty"),
    ("delta-none", lambda: CourseTextDeltaChunk("r", _ANY), "delta", "not NoneType"),
    ("chunk-call-blank-request-id", lambda: CourseToolCallChunk(" \ufeff", CourseToolCall(
     "c", "n", {})), "request_id", "empty"),
    ("chunk-call-dict", lambda: CourseToolCallChunk("r", cast(Any, {"id": "c"})), "tool_call",
     "not dict"),
    ("chunk-call-subclass", lambda: CourseToolCallChunk("r", smuggler(ToolCallWithADict, "c",
     "n", {})), "tool_call", "not ToolCallWithADict"),
    ("usage-bool", lambda: CourseModelUsage(True, 1), "input_tokens",
     "must be an int or an integral float, not bool"),
    ("usage-int-enum", lambda: CourseModelUsage(Count.ONE, 1), "input_tokens", "not Count"),
    ("usage-fraction", lambda: CourseModelUsage(1, cast(Any, 1.5)), "output_tokens",
     "not a float with a fraction"),
    ("usage-negative", lambda: CourseModelUsage(-1, 1), "input_tokens",
     "must be between 0 and 2**53 - 1"),
    ("usage-too-big", lambda: CourseModelUsage(1, 2**53), "output_tokens",
     "must be between 0 and 2**53 - 1"),
    ("response-blank-id", response(id=" "), "id", "empty"),
    ("response-request-id", response(request_id=1), "request_id", "not int"),
    ("response-message-user", response(message=_USER), "message", "not CourseUserMessage"),
    ("response-message-subclass", response(message=smuggler(AssistantMessageWithADict, "m",
     ())), "message", "not AssistantMessageWithADict"),
    ("response-stop-str", response(stop_reason="stop"), "stop_reason",
     "must be a CourseStopReason, not str"),
    ("response-usage-tuple", response(usage=(1, 1)), "usage", "not tuple"),
    ("response-usage-subclass", response(usage=smuggler(UsageWithADict, 1, 1)), "usage",
     "not UsageWithADict"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("build", "path", "fragment"),
    [case[1:] for case in _BAD_CONSTRUCTIONS],
    ids=[case[0] for case in _BAD_CONSTRUCTIONS],
)
def test_bad_fields_raise_a_protocol_error_naming_their_path(
    build: Callable[[], object], path: str, fragment: str
) -> None:
    with pytest.raises(CourseProtocolError) as raised:
        build()
    assert raised.value.path == path
    assert fragment in raised.value.message
    assert str(raised.value) == f"INVALID_FIELD: {path}: {raised.value.message}"


def test_protocol_error_is_a_value_error_that_pickles_with_its_path() -> None:
    with pytest.raises(ValueError, match=r"^INVALID_FIELD: id: must not be empty") as raised:
        CourseUserMessage("", "x")
    error = raised.value
    assert isinstance(error, CourseProtocolError)
    copied = pickle.loads(pickle.dumps(error))
    assert (copied.path, copied.message, str(copied)) == (error.path, error.message, str(error))


def test_an_exact_tuple_of_blocks_is_kept_and_its_elements_are_not_copied() -> None:
    call = samples.tool_call()
    content = (CourseTextBlock("a"), call)
    message = CourseAssistantMessage("m", content)
    assert message.content is content
    assert message.content[1] is call


def test_stop_reasons_spell_the_course_vocabulary() -> None:
    assert [reason.value for reason in CourseStopReason] == [
        "stop",
        "toolCall",
        "length",
        "refusal",
        "pauseTurn",
    ]
    assert str(CourseStopReason.TOOL_CALL) == "toolCall"
    assert isinstance(CourseStopReason.STOP, str)


@pytest.mark.parametrize(
    "value",
    [
        JsonError(JsonErrorCode.NOT_JSON, "$.a", "is not a finite number"),
        JsonError(JsonErrorCode.NOT_COURSE_JSON, "$.usage", "lacks the field 'inputTokens'"),
        TranscriptIssue(TranscriptIssueCode.MISSING_TOOL_RESULT, 3, "Tool call 'c' has no result"),
        CourseStopReason.TOOL_CALL,
    ],
    ids=lambda value: type(value).__name__,
)
def test_error_and_issue_values_pickle_deep_copy_and_compare_equal(value: object) -> None:
    assert pickle.loads(pickle.dumps(value)) == value
    assert copy.deepcopy(value) == value
    assert hash(copy.deepcopy(value)) == hash(value)


@pytest.mark.parametrize("request_id", ["\x1c", "\x85", "\u180e"])
def test_a_chunk_request_id_blank_only_to_python_is_kept(request_id: str) -> None:
    # ECMAScript's trim() keeps these; str.strip() would remove them.
    text = CourseTextDeltaChunk(request_id, "x")
    call = CourseToolCallChunk(request_id, CourseToolCall("c", "n", {}))

    assert (text.request_id, call.request_id) == (request_id, request_id)
