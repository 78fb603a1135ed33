"""A Hypothesis strategy of valid course transcripts: every Tool call answered, after it.

Built from the protocol's own strategies (``tests.course_protocol.strategies``):
turns of a user message, an assistant message whose Tool calls have fresh
ids, the results of those calls in any order, and sometimes a text answer.
"""

from __future__ import annotations

from hypothesis import strategies as st

from course_protocol import (
    CourseAssistantContent,
    CourseAssistantMessage,
    CourseMessage,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
)
from tests.course_protocol import strategies

__all__ = ["valid_transcripts"]


@st.composite
def _turn(draw: st.DrawFn, number: int) -> list[CourseMessage]:
    messages: list[CourseMessage] = [draw(strategies.user_messages)]
    names = draw(st.lists(strategies.ids, max_size=3))
    calls: list[CourseToolCall] = []
    for position, name in enumerate(names):
        call_id = f"call-{number}-{position}-{draw(strategies.ids)}"
        calls.append(CourseToolCall(call_id, name, draw(strategies.json_objects)))
    blocks: list[CourseAssistantContent] = [*draw(st.lists(strategies.text_blocks, max_size=2))]
    blocks.extend(calls)
    content = draw(st.permutations(blocks))
    keep_an_empty_message = draw(st.booleans())
    if content or keep_an_empty_message:
        messages.append(CourseAssistantMessage(draw(strategies.ids), tuple(content)))
    answered = draw(st.permutations(calls))
    for call in answered:
        result_id = draw(strategies.ids)
        content_text = draw(strategies.texts)
        messages.append(
            CourseToolResultMessage(
                result_id, call.id, call.name, content_text, draw(st.booleans())
            )
        )
    answer_in_text = draw(st.booleans())
    if answered and answer_in_text:
        text = CourseTextBlock(draw(strategies.texts))
        messages.append(CourseAssistantMessage(draw(strategies.ids), (text,)))
    return messages


@st.composite
def valid_transcripts(draw: st.DrawFn) -> tuple[CourseMessage, ...]:
    """Transcripts ``validate_transcript`` finds nothing wrong with."""
    turns = draw(st.integers(min_value=0, max_value=4))
    messages: list[CourseMessage] = []
    for number in range(turns):
        messages.extend(draw(_turn(number)))
    return tuple(messages)
