"""Hypothesis strategies for every course protocol value.

Kept with the tests (not shipped): other test trees import them as
``tests.course_protocol.strategies``. The unprefixed strategies draw the
seeds' values only (text, Tool calls, str content, two usage counts), which
every wire sends; the ``rich_`` ones draw every value the protocol holds.
"""

from __future__ import annotations

from hypothesis import strategies as st

from course_protocol import (
    MAX_TOKEN_COUNT,
    CourseAssistantContent,
    CourseAssistantMessage,
    CourseContentBlock,
    CourseDocumentBlock,
    CourseImageBlock,
    CourseMessage,
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseModelUsage,
    CourseOpaque,
    CourseReasoningBlock,
    CourseReasoningDeltaChunk,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    CourseToolResultMessage,
    CourseUserBlock,
    CourseUserMessage,
    CourseVendorToolBlock,
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


opaques = st.builds(
    CourseOpaque,
    st.sampled_from(("anthropic-messages", "openai-responses", "gemini")) | ids,
    json_objects,
)
optional_opaques = st.none() | opaques
rich_text_blocks = st.builds(
    CourseTextBlock,
    texts,
    citations=st.lists(opaques, max_size=2).map(tuple),
    opaque=optional_opaques,
)
"""Text blocks as an answer holds them: with citations and opaque data, or without."""
rich_tool_calls = st.builds(CourseToolCall, ids, ids, json_objects, opaque=optional_opaques)
reasoning_blocks = st.builds(CourseReasoningBlock, texts, opaque=optional_opaques)
vendor_tool_blocks = st.builds(
    CourseVendorToolBlock,
    st.sampled_from(("server_tool_use", "web_search_call", "executableCode")) | ids,
    opaques,
)
rich_assistant_blocks: st.SearchStrategy[CourseAssistantContent] = (
    rich_text_blocks | rich_tool_calls | reasoning_blocks | vendor_tool_blocks
)

_RESTRICTED_NAME = r"[a-z0-9][a-z0-9!#$&^_.+-]{0,8}"
media_types = st.from_regex(f"{_RESTRICTED_NAME}/{_RESTRICTED_NAME}", fullmatch=True)
image_types = st.from_regex(f"image/{_RESTRICTED_NAME}", fullmatch=True)
urls = st.builds(
    "{}://{}{}".format,
    st.sampled_from(("http", "https", "HTTPS")),
    st.from_regex(r"[a-z0-9.-]{1,12}(:[0-9]{1,5})?", fullmatch=True),
    st.from_regex(r"(/[A-Za-z0-9._~%!$&'()*+,;=:@-]{0,8}){0,3}(\?[a-z=&]{0,8})?", fullmatch=True),
)
media_bytes = st.binary(min_size=1, max_size=48)
image_blocks = st.builds(CourseImageBlock, image_types, data=media_bytes) | st.builds(
    CourseImageBlock, image_types, url=urls
)
document_blocks = st.builds(
    CourseDocumentBlock, media_types, data=media_bytes, title=st.none() | ids
) | st.builds(CourseDocumentBlock, media_types, url=urls, title=st.none() | ids)
user_blocks: st.SearchStrategy[CourseUserBlock] = text_blocks | image_blocks | document_blocks
user_contents: st.SearchStrategy[str | tuple[CourseUserBlock, ...]] = texts | st.lists(
    user_blocks, min_size=1, max_size=3
).map(tuple)
rich_content_blocks: st.SearchStrategy[CourseContentBlock] = (
    rich_assistant_blocks | image_blocks | document_blocks
)

rich_user_messages = st.builds(CourseUserMessage, ids, user_contents)
rich_assistant_messages = st.builds(
    CourseAssistantMessage, ids, st.lists(rich_assistant_blocks, max_size=4).map(tuple)
)
rich_tool_result_messages = st.builds(
    CourseToolResultMessage, ids, ids, ids, user_contents, st.booleans()
)
rich_messages: st.SearchStrategy[CourseMessage] = (
    rich_user_messages | rich_assistant_messages | rich_tool_result_messages
)
rich_requests = st.builds(CourseModelRequest, ids, st.lists(rich_messages, max_size=4).map(tuple))

reasoning_delta_chunks = st.builds(CourseReasoningDeltaChunk, ids, texts)
rich_tool_call_chunks = st.builds(CourseToolCallChunk, ids, rich_tool_calls)
rich_chunks: st.SearchStrategy[CourseModelChunk] = (
    text_delta_chunks | rich_tool_call_chunks | reasoning_delta_chunks
)


@st.composite
def rich_usages(draw: st.DrawFn) -> CourseModelUsage:
    """Usage with each optional count sent or not, every part within its whole."""
    input_tokens = draw(token_counts)
    output_tokens = draw(token_counts)
    cache_read = draw(st.none() | st.integers(min_value=0, max_value=input_tokens))
    left = input_tokens - (cache_read or 0)
    cache_write = draw(st.none() | st.integers(min_value=0, max_value=left))
    reasoning = draw(st.none() | st.integers(min_value=0, max_value=output_tokens))
    return CourseModelUsage(
        input_tokens,
        output_tokens,
        cache_read_tokens=cache_read,
        cache_write_tokens=cache_write,
        reasoning_tokens=reasoning,
    )


rich_responses: st.SearchStrategy[CourseModelResponse] = st.builds(
    CourseModelResponse, ids, ids, rich_assistant_messages, stop_reasons, rich_usages()
)

__all__ = [
    "assistant_messages",
    "chunks",
    "content_blocks",
    "document_blocks",
    "ids",
    "image_blocks",
    "image_types",
    "json_objects",
    "json_scalars",
    "media_bytes",
    "media_types",
    "messages",
    "opaques",
    "optional_opaques",
    "plain_json",
    "plain_json_objects",
    "reasoning_blocks",
    "reasoning_delta_chunks",
    "requests",
    "responses",
    "rich_assistant_blocks",
    "rich_assistant_messages",
    "rich_chunks",
    "rich_content_blocks",
    "rich_messages",
    "rich_requests",
    "rich_responses",
    "rich_text_blocks",
    "rich_tool_call_chunks",
    "rich_tool_calls",
    "rich_tool_result_messages",
    "rich_usages",
    "rich_user_messages",
    "stop_reasons",
    "text_blocks",
    "text_delta_chunks",
    "texts",
    "tool_call_chunks",
    "tool_calls",
    "tool_result_messages",
    "urls",
    "usages",
    "user_blocks",
    "user_contents",
    "user_messages",
    "vendor_tool_blocks",
]
