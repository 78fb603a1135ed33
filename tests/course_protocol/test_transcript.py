"""validate_transcript: every pairing problem, with its message index, never an exception."""

from __future__ import annotations

from typing import Any

import pytest
from frozendict import frozendict
from hypothesis import given, settings
from hypothesis import strategies as st

from course_protocol import (
    CourseAssistantMessage,
    CourseMessage,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseUserMessage,
    TranscriptIssue,
    TranscriptIssueCode,
    validate_transcript,
)
from tests.course_protocol import strategies
from tests.course_protocol.hostile import (
    DictThatCountsReads,
    FrozendictThatCountsReads,
    ListThatCountsReads,
    ObjectThatRaisesOnEverything,
    StrThatHashesDifferently,
    TypeThatEqualsEveryType,
)

Code = TranscriptIssueCode


class UserMessageSubclass(CourseUserMessage):  # type: ignore[misc]
    """Not exactly a course message type."""


def user(message_id: str = "user-1") -> CourseUserMessage:
    return CourseUserMessage(message_id, "What is 20 + 22?")


def calls(message_id: str, *pairs: tuple[str, str]) -> CourseAssistantMessage:
    blocks = tuple(CourseToolCall(call_id, name, {"left": 20}) for call_id, name in pairs)
    return CourseAssistantMessage(message_id, (CourseTextBlock("Calling."), *blocks))


def result(call_id: str, name: str = "add", message_id: str = "result") -> CourseToolResultMessage:
    return CourseToolResultMessage(f"{message_id}-{call_id}", call_id, name, "42")


def codes(messages: object) -> list[tuple[TranscriptIssueCode, int | None]]:
    return [(issue.code, issue.message_index) for issue in validate_transcript(messages)]


def tampered(value: Any, **fields: object) -> Any:
    for name, field in fields.items():
        object.__setattr__(value, name, field)
    return value


def test_a_complete_tool_round_trip_has_no_issues() -> None:
    transcript: list[CourseMessage] = [
        user(),
        calls("assistant-1", ("call-1", "add"), ("call-2", "mul")),
        result("call-2", "mul"),
        result("call-1", "add"),
        CourseAssistantMessage("assistant-2", (CourseTextBlock("The sum is 42."),)),
    ]
    assert validate_transcript(transcript) == ()
    assert validate_transcript(tuple(transcript)) == ()
    assert validate_transcript([]) == ()


@pytest.mark.parametrize(
    "transcript",
    [
        None,
        "messages",
        b"x",
        {"0": user()},
        (m for m in [user()]),
        {1},
        ObjectThatRaisesOnEverything(),
    ],
    ids=lambda value: type(value).__name__,
)
def test_anything_but_a_list_or_tuple_is_an_invalid_transcript(transcript: object) -> None:
    issues = validate_transcript(transcript)
    assert [(issue.code, issue.message_index) for issue in issues] == [
        (Code.INVALID_TRANSCRIPT, None)
    ]
    assert "list or tuple" in issues[0].detail


def test_a_list_subclass_is_read_through_list_itself() -> None:
    transcript = ListThatCountsReads([user(), calls("a", ("call-1", "add"))])
    assert codes(transcript) == [(Code.MISSING_TOOL_RESULT, 1)]
    assert transcript.calls == []


@pytest.mark.parametrize(
    "element",
    [
        {"role": "user", "id": "u", "content": "hi"},
        CourseTextBlock("a block is not a message"),
        UserMessageSubclass("u", "hi"),
        TypeThatEqualsEveryType(),
        ObjectThatRaisesOnEverything(),
        DictThatCountsReads(role="user"),
        None,
    ],
    ids=lambda value: type(value).__name__,
)
def test_an_element_that_is_not_exactly_a_course_message_is_invalid(element: object) -> None:
    issues = validate_transcript([user(), element])
    assert [(issue.code, issue.message_index) for issue in issues] == [(Code.INVALID_MESSAGE, 1)]
    assert type(element).__name__ in issues[0].detail


def test_messages_built_past_their_constructor_are_invalid_not_a_crash() -> None:
    unset = object.__new__(CourseUserMessage)
    wrong_id = tampered(user(), id=5)
    hostile_id = tampered(user(), id=StrThatHashesDifferently("u"))
    list_content = tampered(calls("a"), content=[CourseTextBlock("x")])
    bad_block = tampered(calls("a"), content=(CourseTextBlock("x"), "block"))
    bad_flag = tampered(result("call-1"), is_error=ObjectThatRaisesOnEverything())
    unset_call = CourseAssistantMessage("a", (object.__new__(CourseToolCall),))
    transcript = [unset, wrong_id, hostile_id, list_content, bad_block, bad_flag, unset_call]
    issues = validate_transcript(transcript)
    assert [(issue.code, issue.message_index) for issue in issues] == [
        (Code.INVALID_MESSAGE, index) for index in range(len(transcript))
    ]
    assert issues[0].detail == "field id is unset"
    assert issues[1].detail == "field id is a int, not a str"
    assert issues[3].detail == "field content is a list, not a tuple"


def test_an_invalid_message_takes_no_part_in_pairing() -> None:
    broken = tampered(calls("a", ("call-1", "add")), id=None)
    assert codes([user(), broken, result("call-1")]) == [
        (Code.INVALID_MESSAGE, 1),
        (Code.ORPHAN_TOOL_RESULT, 2),
    ]


def test_a_tool_call_id_used_twice_is_reported_at_the_second_use() -> None:
    transcript = [
        calls("a", ("call-1", "add"), ("call-1", "add")),
        result("call-1"),
        calls("b", ("call-1", "add")),
    ]
    assert codes(transcript) == [
        (Code.DUPLICATE_TOOL_CALL_ID, 0),
        (Code.DUPLICATE_TOOL_CALL_ID, 2),
    ]


def test_a_second_result_for_one_call_is_a_duplicate_result() -> None:
    transcript = [
        calls("a", ("call-1", "add")),
        result("call-1"),
        result("call-1", message_id="r2"),
    ]
    issues = validate_transcript(transcript)
    assert [(issue.code, issue.message_index) for issue in issues] == [
        (Code.DUPLICATE_TOOL_RESULT, 2)
    ]
    assert "'call-1'" in issues[0].detail


def test_a_result_for_an_id_never_called_is_an_orphan() -> None:
    assert codes([user(), result("call-9")]) == [(Code.ORPHAN_TOOL_RESULT, 1)]


def test_a_result_before_its_call_is_reported_and_the_call_still_lacks_a_result() -> None:
    transcript = [user(), result("call-1"), calls("a", ("call-1", "add"))]
    issues = validate_transcript(transcript)
    assert [(issue.code, issue.message_index) for issue in issues] == [
        (Code.TOOL_RESULT_BEFORE_CALL, 1),
        (Code.MISSING_TOOL_RESULT, 2),
    ]
    assert issues[0].detail.endswith("message 2")


def test_a_trailing_tool_call_awaiting_its_result_counts_as_missing() -> None:
    transcript = [user(), calls("a", ("call-1", "add"), ("call-2", "add")), result("call-1")]
    assert codes(transcript) == [(Code.MISSING_TOOL_RESULT, 1)]
    assert "'call-2'" in validate_transcript(transcript)[0].detail


def test_a_result_naming_another_tool_is_a_name_mismatch() -> None:
    issues = validate_transcript([calls("a", ("call-1", "add")), result("call-1", "mul")])
    assert [(issue.code, issue.message_index) for issue in issues] == [(Code.TOOL_NAME_MISMATCH, 1)]
    assert "'mul'" in issues[0].detail
    assert "'add'" in issues[0].detail


def test_blank_tool_names_smuggled_past_the_constructor_are_reported() -> None:
    call = tampered(CourseToolCall("call-1", "add", {}), name=" ")
    answer = tampered(result("call-1"), tool_name="")
    transcript = [CourseAssistantMessage("a", (call,)), answer]
    assert codes(transcript) == [(Code.EMPTY_TOOL_NAME, 0), (Code.EMPTY_TOOL_NAME, 1)]


@pytest.mark.parametrize(
    "arguments",
    [
        {"plain": "dict"},
        frozendict({"inner": frozendict()}).set("inner", [1]),
        FrozendictThatCountsReads({"a": 1}),
        frozendict({"a": ObjectThatRaisesOnEverything()}),
        None,
    ],
    ids=["dict", "list-inside", "frozendict-subclass", "hostile-value", "none"],
)
def test_arguments_that_are_not_a_deeply_frozen_json_object_are_reported(
    arguments: object,
) -> None:
    call = tampered(CourseToolCall("call-1", "add", {}), arguments=arguments)
    transcript = [CourseAssistantMessage("a", (call,)), result("call-1")]
    assert codes(transcript) == [(Code.INVALID_TOOL_ARGUMENTS, 0)]
    assert FrozendictThatCountsReads.calls == []


def test_every_problem_is_reported_in_message_order() -> None:
    transcript: list[object] = [
        result("call-0"),
        calls("a", ("call-1", "add"), ("call-1", "add"), ("call-2", "add")),
        "not a message",
        result("call-1", "mul"),
        result("call-1"),
        result("call-3"),
        calls("b", ("call-3", "add")),
    ]
    assert codes(transcript) == [
        (Code.ORPHAN_TOOL_RESULT, 0),
        (Code.DUPLICATE_TOOL_CALL_ID, 1),
        (Code.MISSING_TOOL_RESULT, 1),
        (Code.INVALID_MESSAGE, 2),
        (Code.TOOL_NAME_MISMATCH, 3),
        (Code.DUPLICATE_TOOL_RESULT, 4),
        (Code.TOOL_RESULT_BEFORE_CALL, 5),
        (Code.MISSING_TOOL_RESULT, 6),
    ]


def test_there_are_exactly_the_ten_documented_codes() -> None:
    assert [code.value for code in TranscriptIssueCode] == [
        "INVALID_TRANSCRIPT",
        "INVALID_MESSAGE",
        "DUPLICATE_TOOL_CALL_ID",
        "DUPLICATE_TOOL_RESULT",
        "ORPHAN_TOOL_RESULT",
        "TOOL_RESULT_BEFORE_CALL",
        "MISSING_TOOL_RESULT",
        "TOOL_NAME_MISMATCH",
        "EMPTY_TOOL_NAME",
        "INVALID_TOOL_ARGUMENTS",
    ]


def test_issues_are_frozen_values() -> None:
    issue = validate_transcript(None)[0]
    assert issue == TranscriptIssue(Code.INVALID_TRANSCRIPT, None, issue.detail)
    with pytest.raises(AttributeError):
        issue.detail = "changed"  # type: ignore[misc]


def test_a_long_transcript_is_validated_in_one_pass() -> None:
    transcript: list[CourseMessage] = []
    for index in range(5_000):
        transcript.append(calls(f"a-{index}", (f"call-{index}", "add")))
        transcript.append(result(f"call-{index}"))
    assert validate_transcript(transcript) == ()


_ODD_ELEMENTS: list[object] = [
    None,
    "text",
    1,
    {},
    [],
    ObjectThatRaisesOnEverything(),
    TypeThatEqualsEveryType(),
]
# An index, not sampled_from: hypothesis hashes sampled elements, and these refuse it.
_ANYTHING = st.one_of(
    strategies.messages,
    strategies.content_blocks,
    strategies.rich_messages,
    strategies.rich_content_blocks,
    st.integers(0, len(_ODD_ELEMENTS) - 1).map(_ODD_ELEMENTS.__getitem__),
)


@settings(max_examples=100, deadline=None)
@given(st.lists(_ANYTHING, max_size=8))
def test_validation_never_raises_and_indexes_every_issue(transcript: list[object]) -> None:
    issues = validate_transcript(transcript)
    assert all(type(issue) is TranscriptIssue for issue in issues)
    indexes = [issue.message_index for issue in issues]
    assert all(type(index) is int and 0 <= index < len(transcript) for index in indexes)
    assert indexes == sorted(indexes)  # type: ignore[type-var]
