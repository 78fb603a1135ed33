"""Hypothesis strategies for every course protocol value.

Kept with the tests (not shipped): other test trees import them as
``tests.course_protocol.strategies``.
"""

from __future__ import annotations

from hypothesis import strategies as st

from course_protocol import (
    MAX_TOKEN_COUNT,
    CourseAssistantContent,
    CourseAssistantMessage,
    CourseMessage,
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseModelUsage,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    CourseToolResultMessage,
    CourseUserMessage,
    JsonObject,
    is_blank,
)
from course_protocol import freeze_json_object as _freeze_object

ids = st.text(min_size=1, max_size=12).filter(lambda text: not is_blank(text))
"""Ids and names: any text that is not blank, odd characters included."""

texts = st.text(max_size=20)

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=10)
)

plain_json: st.SearchStrategy[object] = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
"""Plain (mutable) JSON values as ``json.loads`` would give them."""

plain_json_objects: st.SearchStrategy[dict[str, object]] = st.dictionaries(
    st.text(max_size=8), plain_json, max_size=4
)


def _frozen(value: dict[str, object]) -> JsonObject:
    return _freeze_object(value).unwrap()


json_objects: st.SearchStrategy[JsonObject] = plain_json_objects.map(_frozen)

text_blocks = st.builds(CourseTextBlock, texts)
tool_calls = st.builds(CourseToolCall, ids, ids, json_objects)
content_blocks: st.SearchStrategy[CourseAssistantContent] = text_blocks | tool_calls

user_messages = st.builds(CourseUserMessage, ids, texts)
assistant_messages = st.builds(
    CourseAssistantMessage, ids, st.lists(content_blocks, max_size=4).map(tuple)
)
tool_result_messages = st.builds(CourseToolResultMessage, ids, ids, ids, texts, st.booleans())
messages: st.SearchStrategy[CourseMessage] = (
    user_messages | assistant_messages | tool_result_messages
)

requests = st.builds(CourseModelRequest, ids, st.lists(messages, max_size=4).map(tuple))

text_delta_chunks = st.builds(CourseTextDeltaChunk, ids, texts)
tool_call_chunks = st.builds(CourseToolCallChunk, ids, tool_calls)
chunks: st.SearchStrategy[CourseModelChunk] = text_delta_chunks | tool_call_chunks

token_counts = st.integers(min_value=0, max_value=MAX_TOKEN_COUNT)
usages = st.builds(CourseModelUsage, token_counts, token_counts)
stop_reasons = st.sampled_from(CourseStopReason)
responses: st.SearchStrategy[CourseModelResponse] = st.builds(
    CourseModelResponse, ids, ids, assistant_messages, stop_reasons, usages
)

__all__ = [
    "assistant_messages",
    "chunks",
    "content_blocks",
    "ids",
    "json_objects",
    "json_scalars",
    "messages",
    "plain_json",
    "plain_json_objects",
    "requests",
    "responses",
    "stop_reasons",
    "text_blocks",
    "text_delta_chunks",
    "texts",
    "tool_call_chunks",
    "tool_calls",
    "tool_result_messages",
    "usages",
    "user_messages",
]
