"""OpenRouter's ``reasoning_details``: a block's text fragments joined as they stream, and no more.

OpenRouter streams a reasoning block as one ``reasoning.text`` detail per
delta; what goes back is the block. These bodies are our own, in the shape of
OpenRouter's reasoning guide and its recorded streams: each fragment carries
the block's ``index`` and ``format``, the last one its ``signature``.
"""

from __future__ import annotations

from typing import Any

import pytest
from frozendict import frozendict

from course_http import VendorErrorCode
from course_protocol import CourseOpaque, CourseReasoningBlock, thaw_json
from course_provider_openai import OPENROUTER, ChatChoice
from tests.course_provider_openai.bodies import chunk, finish, text, usage
from tests.course_provider_openai.dialect_grammar import ROLE, mapped, read, refused

Code = VendorErrorCode
_FORMAT = "anthropic-claude-v1"


def fragment(piece: object, **fields: Any) -> dict[str, Any]:
    return {"type": "reasoning.text", "text": piece, "index": 0, "format": _FORMAT, **fields}


def with_details(*details: dict[str, Any]) -> tuple[object, ...]:
    """A body with one delta per detail, its ``reasoning`` the detail's text."""
    deltas = [
        chunk({"reasoning": detail.get("text"), "reasoning_details": [detail]})
        for detail in details
    ]
    return (ROLE, *deltas, text("Hi"), finish("stop"), usage())


def details_of(*details: dict[str, Any]) -> tuple[object, ...]:
    choice: ChatChoice = read(OPENROUTER, *with_details(*details)).choices[0]
    assert all(type(detail) is frozendict for detail in choice.reasoning_details)
    return tuple(thaw_json(detail) for detail in choice.reasoning_details)


def test_a_blocks_fragments_join_into_one_detail_with_its_signature_in_first_seen_key_order() -> (
    None
):
    joined = details_of(
        fragment("Two"),
        fragment(" and two"),
        fragment("", signature="sig-1"),
    )

    assert joined == (
        {
            "type": "reasoning.text",
            "text": "Two and two",
            "index": 0,
            "format": _FORMAT,
            "signature": "sig-1",
        },
    )
    assert list(joined[0]) == ["type", "text", "index", "format", "signature"]


def test_null_fields_are_filled_by_a_later_fragment_and_a_fragment_without_text_adds_none() -> None:
    first = {"type": "reasoning.text", "text": "Hm", "index": 2, "format": None, "id": None}
    later = {"type": "reasoning.text", "index": 2, "id": "rs_1", "format": _FORMAT}

    assert details_of(first, later) == (
        {"type": "reasoning.text", "text": "Hm", "index": 2, "format": _FORMAT, "id": "rs_1"},
    )


def test_a_block_whose_first_fragment_has_no_text_keeps_the_text_that_came_after() -> None:
    first = {"type": "reasoning.text", "index": 0}
    nothing = {"type": "reasoning.text", "text": None, "index": 1}

    assert details_of(first, fragment("ab", format=None), nothing, nothing) == (
        {"type": "reasoning.text", "index": 0, "text": "ab", "format": None},
        nothing,
    )


@pytest.mark.parametrize(
    ("second", "why"),
    [
        (fragment(" more", index=1), "another block's index"),
        (fragment(" more", format="openai-responses-v1"), "another format"),
        (fragment(" more", id="rs_2"), "another id"),
        (fragment(" more", extra=True), "a field OpenRouter does not document for text"),
    ],
)
def test_a_fragment_that_is_not_the_same_blocks_starts_a_detail_of_its_own(
    second: dict[str, Any], why: str
) -> None:
    first = fragment("Hm", id="rs_1")

    kept = details_of(first, second)

    assert kept == (first, second), why


def test_a_signature_closes_its_block_and_other_detail_types_are_kept_between_blocks() -> None:
    encrypted = {"type": "reasoning.encrypted", "data": "gAAA", "index": 1}
    summary = {"type": "reasoning.summary", "summary": "S", "index": 2}

    kept = details_of(
        fragment("a"),
        fragment("", signature="sig-1"),
        fragment("b"),
        encrypted,
        fragment("c", index=3),
        summary,
        fragment("d", index=3),
    )

    assert kept == (
        fragment("a", signature="sig-1"),
        fragment("b"),
        encrypted,
        fragment("c", index=3),
        summary,
        fragment("d", index=3),
    )


def test_fragments_in_one_deltas_array_join_as_across_deltas() -> None:
    delta = chunk({"reasoning": "ab", "reasoning_details": [fragment("a"), fragment("b")]})

    choice = read(OPENROUTER, ROLE, delta, text("Hi"), finish("stop"), usage()).choices[0]

    assert choice.reasoning_details == (frozendict(fragment("ab")),)


@pytest.mark.parametrize(
    ("detail", "path", "says"),
    [
        (fragment(7), "reasoning_details[0].text", "must be a string or null, got 7"),
        (fragment("a", signature=["s"]), "reasoning_details[0].signature", "string or null"),
        (fragment("a", id=1), "reasoning_details[0].id", "string or null"),
        (fragment("a", format=True), "reasoning_details[0].format", "string or null"),
        (fragment("a", index=-1), "reasoning_details[0].index", "a non-negative integer"),
        (fragment("a", index=True), "reasoning_details[0].index", "a non-negative integer"),
        (fragment("a", index=1.0), "reasoning_details[0].index", "a non-negative integer"),
        (fragment("a", index=None), "reasoning_details[0].index", "a non-negative integer"),
    ],
)
def test_a_text_details_documented_fields_of_the_wrong_type_are_refused_at_their_path(
    detail: dict[str, Any], path: str, says: str
) -> None:
    error = refused(OPENROUTER, ROLE, chunk({"reasoning_details": [fragment("ok"), detail]}))

    assert (error.code, error.event_index, error.vendor) == (
        Code.VENDOR_INVALID_EVENT,
        1,
        "openrouter",
    )
    assert path.replace("[0]", "[1]") in error.message
    assert says in error.message


@pytest.mark.parametrize(
    ("detail", "path"),
    [
        (fragment(7, extra=True), "reasoning_details[1].text"),
        (fragment("a", signature=1, extra=None), "reasoning_details[1].signature"),
        (fragment("a", index=-1, extra="x"), "reasoning_details[1].index"),
    ],
)
def test_a_text_detail_with_a_field_beyond_the_six_still_has_the_six_checked(
    detail: dict[str, Any], path: str
) -> None:
    error = refused(OPENROUTER, ROLE, chunk({"reasoning_details": [fragment("ok"), detail]}))

    assert (error.code, error.event_index) == (Code.VENDOR_INVALID_EVENT, 1)
    assert path in error.message


def test_a_text_detail_with_a_field_beyond_the_six_is_kept_whole_and_joins_nothing() -> None:
    odd = fragment(" odd", extra=[1, {"b": None}])

    assert details_of(fragment("a"), odd, fragment("b"), fragment("c")) == (
        fragment("a"),
        odd,
        fragment("bc"),
    )


def test_a_detail_nested_past_the_json_limit_is_refused_and_never_joined() -> None:
    deep: object = "x"
    for _ in range(200):
        deep = [deep]

    error = refused(OPENROUTER, ROLE, chunk({"reasoning_details": [fragment("a", extra=deep)]}))

    assert (error.code, error.event_index) == (Code.VENDOR_INVALID_EVENT, 1)
    assert "reasoning_details[0].extra" in error.message


def test_the_joined_details_are_what_the_reasoning_block_keeps_to_send_back() -> None:
    body = with_details(fragment("Two"), fragment(" and two", signature="sig-1"))

    played = mapped(OPENROUTER, *body)

    assert played.response is not None
    block = played.response.message.content[0]
    assert type(block) is CourseReasoningBlock
    assert block.opaque == CourseOpaque(
        "openrouter",
        {
            "reasoning": "Two and two",
            "reasoning_details": [fragment("Two and two", signature="sig-1")],
        },
    )
