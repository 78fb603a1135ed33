"""What a compatible server's dialect adds to the Chat mapping: its reasoning, carried by the port.

A dialect's reasoning deltas (`ChatDialect.reasoning_fields`, Mistral's
``thinking`` parts), which the mapping pushes as ``CourseReasoningDeltaChunk`` s
as they come (from what the grammar's choice `said`), end as the choice's
joined reasoning in a ``CourseReasoningBlock`` before the answer
(with empty text where only OpenRouter's ``reasoning_details`` came, such
as an encrypted detail alone).
The block's ``CourseOpaque`` (wire: the dialect's) holds the fields the
server takes back on the assistant message, as it spells them
(``{"reasoning_content": ...}``; OpenRouter's ``reasoning_details`` too):
`_chat_dialect_request` sends them back to a server that requires it. A
dialect whose reasoning tokens are counted apart (`ChatDialect.reasoning_apart`)
has them added to its output count, which the port's includes them in.
"""

from __future__ import annotations

from course_protocol import (
    CourseOpaque,
    CourseReasoningBlock,
)
from course_provider_openai._chat_dialect import ChatDialect
from course_provider_openai._chat_result import ChatChoice, ChatUsage

__all__ = ["output_tokens", "reasoning_block"]

_THINKING_FIELD = "thinking"
"""What a reasoning block read from ``thinking`` content parts keeps its text under."""


def reasoning_block(choice: ChatChoice, dialect: ChatDialect) -> CourseReasoningBlock:
    """The reasoning block of a finished ``choice``, with what its server takes back."""
    field = dialect.reasoning_fields[0] if dialect.reasoning_fields else _THINKING_FIELD
    data: dict[str, object] = {field: choice.reasoning}
    if choice.reasoning_details:
        # Already frozen JSON: the opaque's own snapshot copies it without a thawed copy first.
        data["reasoning_details"] = choice.reasoning_details
    return CourseReasoningBlock(choice.reasoning, opaque=CourseOpaque(dialect.wire, data))


def output_tokens(usage: ChatUsage, dialect: ChatDialect | None) -> int:
    """The port's output count: ``completion_tokens``, plus the reasoning tokens where
    ``dialect`` counts them apart (``None``, OpenAI's own, counts them inside)."""
    reasoning = usage.reasoning_tokens
    if dialect is None or not dialect.reasoning_apart or reasoning is None:
        return usage.completion_tokens
    return usage.completion_tokens + reasoning
