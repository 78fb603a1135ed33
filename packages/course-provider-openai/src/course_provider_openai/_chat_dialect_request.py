"""What a compatible server's dialect adds to the Chat request: its own reasoning, sent back.

A dialect that streams reasoning takes its reasoning blocks back in a
transcript (a loop sends each assistant turn as it came). DeepSeek requires
them: it answers 400 to a follow-up whose assistant turn with Tool calls
lacks the ``reasoning_content`` that turn streamed (its thinking-mode guide
says to send it back on every later request). The reasoning block the
dialect's mapping made keeps those fields in a ``CourseOpaque`` of the
dialect's wire; `dialect_messages` puts them on the assistant message again
where the dialect declares ``reasoning_back``, and leaves them out where the
server does not take them. Reasoning another wire produced is refused:
nothing tells what the server would make of it.
"""

from __future__ import annotations

from collections.abc import Mapping

from course_http import VendorError, VendorErrorCode
from course_protocol import (
    CourseAssistantMessage,
    CourseModelRequest,
    CourseReasoningBlock,
    thaw_json,
)
from course_provider_openai import _chat_wire as wire
from course_provider_openai._chat_dialect import ChatDialect

__all__ = ["dialect_messages"]


def dialect_messages(
    body: Mapping[str, object], request: CourseModelRequest, dialect: ChatDialect
) -> None:
    """Put back on ``body``'s assistant messages the reasoning fields ``dialect`` requires.

    ``body`` is the request's Chat body (`chat_request_body`): its assistant
    messages are the request's assistant messages, in order. Raises
    `VendorError` ``VENDOR_INVALID_REQUEST`` (naming ``messages[N].content[M]``
    and both wires) for a reasoning block that ``dialect``'s wire did not
    produce (its ``opaque`` names another wire, or none).
    """
    messages = body[wire.MESSAGES_KEY]
    assert isinstance(messages, list)  # chat_request_body's own list
    entries = [entry for entry in messages if entry[wire.ROLE_KEY] == wire.ASSISTANT_ROLE]
    turns = [
        (index, message)
        for index, message in enumerate(request.messages)
        if type(message) is CourseAssistantMessage
    ]
    for entry, (index, turn) in zip(entries, turns, strict=True):
        for position, block in enumerate(turn.content):
            if type(block) is not CourseReasoningBlock:
                continue
            opaque = block.opaque
            if opaque is None or opaque.wire != dialect.wire:
                producer = "no wire" if opaque is None else f"the wire {opaque.wire!r}"
                raise VendorError(
                    VendorErrorCode.VENDOR_INVALID_REQUEST,
                    f"messages[{index}].content[{position}]: reasoning from {producer} "
                    f"cannot be sent to {dialect.wire}",
                    vendor=dialect.wire,
                )
            if dialect.reasoning_back:
                fields = thaw_json(opaque.data)
                assert isinstance(fields, dict)  # a JSON object thaws to a dict
                entry.update(fields)
