"""What a compatible server's dialect adds to the Chat request: its own reasoning, sent back.

A dialect that streams reasoning takes its reasoning blocks back in a
transcript (a loop sends each assistant turn as it came). DeepSeek requires
them: it answers 400 to a follow-up in which an assistant message of a user
turn with Tool calls lacks its ``reasoning_content`` (its thinking-mode
guide says to send it back on every later request); such a message with
no reasoning of DeepSeek's own (a turn another wire or a double made) is
sent it empty (`ChatDialect.reasoning_in_tool_turns`). OpenRouter asks for its
``reasoning_details`` back unmodified (its reasoning guide, "Preserving
reasoning blocks"; some models it routes to refuse a Tool-call follow-up
without them); they go back as the grammar kept them, each block's
``reasoning.text`` fragments joined into one, as its own client sends them.
The reasoning block the
dialect's mapping made keeps those fields in a ``CourseOpaque`` of the
dialect's wire; `dialect_messages` puts them on the assistant message again
where the dialect declares ``reasoning_back``. Reasoning another wire
produced is left out, as the kit's `course_vendor.sent_blocks` rules for
every wire.
"""

from __future__ import annotations

from collections.abc import Mapping

from course_protocol import (
    CourseAssistantMessage,
    CourseModelRequest,
    CourseReasoningBlock,
    thaw_json,
)
from course_provider_openai import _chat_wire as wire
from course_provider_openai._chat_dialect import ChatDialect
from course_vendor import sent_blocks

__all__ = ["dialect_messages"]


def dialect_messages(
    body: Mapping[str, object], request: CourseModelRequest, dialect: ChatDialect
) -> None:
    """Put back on ``body``'s assistant messages the reasoning fields ``dialect`` requires.

    ``body`` is the request's Chat body (`chat_request_body`): its assistant
    messages are the request's assistant messages, in order. Only the
    reasoning blocks ``dialect``'s wire produced are read (`sent_blocks`),
    and only when the dialect declares ``reasoning_back``. Never raises.
    """
    if not dialect.reasoning_back:
        return
    messages = body[wire.MESSAGES_KEY]
    assert isinstance(messages, list)  # chat_request_body's own list
    entries = [entry for entry in messages if entry[wire.ROLE_KEY] == wire.ASSISTANT_ROLE]
    turns = [message for message in request.messages if type(message) is CourseAssistantMessage]
    for entry, turn in zip(entries, turns, strict=True):
        for block in sent_blocks(turn, dialect.wire):
            if type(block) is CourseReasoningBlock and block.opaque is not None:
                fields = thaw_json(block.opaque.data)
                assert isinstance(fields, dict)  # a JSON object thaws to a dict
                entry.update(fields)
    if dialect.reasoning_in_tool_turns:
        _fill_tool_turns(messages, dialect.reasoning_fields[0])


def _fill_tool_turns(messages: list[dict[str, object]], field: str) -> None:
    """Give ``field`` (empty) to every assistant message lacking it in a turn with Tool calls."""
    turn: list[dict[str, object]] = []
    for entry in messages:
        role = entry[wire.ROLE_KEY]
        if role == wire.USER_ROLE:
            _fill_turn(turn, field)
            turn = []
        elif role == wire.ASSISTANT_ROLE:
            turn.append(entry)
    _fill_turn(turn, field)


def _fill_turn(assistant: list[dict[str, object]], field: str) -> None:
    if any(wire.TOOL_CALLS_KEY in message for message in assistant):
        for message in assistant:
            message.setdefault(field, "")
