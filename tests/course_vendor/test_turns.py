"""Turns: a transcript as alternating turns, each Tool result right after its call, in one place."""

from __future__ import annotations

import pytest

from course_http import VendorError, VendorErrorCode
from course_vendor import Turns


def turns() -> Turns:
    return Turns(
        role_key="role", parts_key="parts", user_role="user", assistant_role="model", vendor="acme"
    )


def refusal(order: Turns, step: str) -> str:
    with pytest.raises(VendorError) as raised:
        {
            "user": lambda: order.user_text("more", [{"text": "more"}], 9),
            "assistant": lambda: order.assistant([{"text": "again"}], [], 9),
            "result c-9": lambda: order.tool_result("c-9", [{"r": 9}], 9),
            "finished": order.finished,
        }[step]()
    assert (raised.value.code, raised.value.vendor) == (
        VendorErrorCode.VENDOR_INVALID_REQUEST,
        "acme",
    )
    return raised.value.message


def test_consecutive_messages_of_one_role_share_a_turn_and_results_join_the_user_turn() -> None:
    order = turns()
    order.user_text("hi", [{"text": "hi"}], 0)
    order.user_text("add", [{"text": "add"}], 1)
    order.assistant([{"call": "c-1"}, {"call": "c-2"}], ["c-1", "c-2"], 2)
    order.tool_result("c-2", [{"r": 2}], 3)
    order.tool_result("c-1", [{"r": 1}], 4)
    order.user_text("thanks", [{"text": "thanks"}], 5)

    assert order.finished() == [
        {"role": "user", "parts": [{"text": "hi"}, {"text": "add"}]},
        {"role": "model", "parts": [{"call": "c-1"}, {"call": "c-2"}]},
        {"role": "user", "parts": [{"r": 2}, {"r": 1}, {"text": "thanks"}]},
    ]


def test_the_first_turn_must_be_the_users() -> None:
    assert refusal(turns(), "assistant") == (
        "messages[9]: the transcript must open with a user message, not an assistant message"
    )


@pytest.mark.parametrize("step", ["user", "assistant"])
def test_nothing_but_results_may_follow_an_unanswered_call(step: str) -> None:
    order = turns()
    order.user_text("add", [{"text": "add"}], 0)
    order.assistant([{"call": "c-1"}, {"call": "c-2"}], ["c-1", "c-2"], 1)
    order.tool_result("c-1", [{"r": 1}], 2)

    assert refusal(order, step) == (
        "messages[9]: the Tool call 'c-2' of messages[1] must be answered by its "
        "Tool result first, right after the assistant turn"
    )


def test_an_assistant_message_right_after_another_joins_its_turn_and_its_calls() -> None:
    order = turns()
    order.user_text("add", [{"text": "add"}], 0)
    order.assistant([{"text": "let me"}], [], 1)
    order.assistant([{"call": "c-1"}], ["c-1"], 2)
    order.tool_result("c-1", [{"r": 1}], 3)

    assert [turn["role"] for turn in order.finished()] == ["user", "model", "user"]


def test_a_result_whose_call_is_not_open_is_refused() -> None:
    order = turns()
    order.user_text("add", [{"text": "add"}], 0)

    assert refusal(order, "result c-9") == (
        "messages[9]: the Tool result for 'c-9' must follow the assistant turn that made the "
        "call, with nothing in between"
    )


def test_blank_user_text_is_refused() -> None:
    order = turns()
    with pytest.raises(VendorError) as raised:
        order.user_text(" \n", [{"text": " \n"}], 3)
    assert raised.value.message == "messages[3]: a user message must not be blank"
    assert order.turns == []


def test_no_turn_at_all_is_nothing_to_send() -> None:
    assert refusal(turns(), "finished") == (
        "messages: nothing to send: every message is blank assistant text"
    )


def test_user_parts_need_no_text_and_still_wait_for_every_result() -> None:
    order = turns()
    order.user_parts([{"image": 1}], 0)
    order.assistant([{"call": "c-1"}], ["c-1"], 1)
    with pytest.raises(VendorError) as raised:
        order.user_parts([{"image": 2}], 2)
    order.tool_result("c-1", [{"r": 1}], 3)
    order.user_parts([{"image": 3}], 4)

    assert raised.value.message.startswith("messages[2]: the Tool call 'c-1' of messages[1]")
    assert order.finished() == [
        {"role": "user", "parts": [{"image": 1}]},
        {"role": "model", "parts": [{"call": "c-1"}]},
        {"role": "user", "parts": [{"r": 1}, {"image": 3}]},
    ]
