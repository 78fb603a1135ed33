"""Messages API event bodies of our own, in the shapes the vendor streams, and two players.

Every builder returns one `SseEvent` whose ``event:`` name equals its data's
``type``, as the vendor sends them; `raw` builds anything else. `judge` plays
events through the grammar alone, `play` through the mapping (the model's
path). The bodies are written here, never copied from recordings.
"""

from __future__ import annotations

import json
from typing import Any

from course_http import SseEvent, VendorError
from course_protocol import CourseModelChunk, CourseModelResponse, JsonObject, freeze_json_object
from course_provider_anthropic import MessagesGrammar, MessagesMapping, MessagesResult

REQUEST_ID = "request-1"
MESSAGE_ID = "msg_01TestBody"


def frozen(value: dict[str, Any]) -> JsonObject:
    """``value`` as the frozen JSON object a result holds, to compare a result with."""
    return freeze_json_object(value).unwrap()


def event(data: dict[str, Any]) -> SseEvent:
    """An event named after its data's type, the data serialized as the vendor does."""
    return SseEvent(str(data["type"]), json.dumps(data, separators=(",", ":")))


def raw(name: str, data: str) -> SseEvent:
    """An event with any name and any data text, for hostile cases."""
    return SseEvent(name, data)


def message_start(
    message_id: str = MESSAGE_ID, input_tokens: int = 10, **usage: object
) -> SseEvent:
    return event(
        {
            "type": "message_start",
            "message": {
                "id": message_id,
                "type": "message",
                "role": "assistant",
                "model": "claude-test",
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {"input_tokens": input_tokens, "output_tokens": 1, **usage},
            },
        }
    )


def text_start(index: int, text: str = "") -> SseEvent:
    return event(
        {
            "type": "content_block_start",
            "index": index,
            "content_block": {"type": "text", "text": text},
        }
    )


def tool_start(index: int, call_id: str, name: str) -> SseEvent:
    block = {"type": "tool_use", "id": call_id, "name": name, "input": {}}
    return event({"type": "content_block_start", "index": index, "content_block": block})


def block_start(index: int, block: dict[str, Any]) -> SseEvent:
    return event({"type": "content_block_start", "index": index, "content_block": block})


def thinking_start(index: int, thinking: str = "", signature: str = "") -> SseEvent:
    return block_start(index, {"type": "thinking", "thinking": thinking, "signature": signature})


def redacted_start(index: int, data: str) -> SseEvent:
    return block_start(index, {"type": "redacted_thinking", "data": data})


def thinking_delta(index: int, thinking: str) -> SseEvent:
    return delta(index, {"type": "thinking_delta", "thinking": thinking})


def signature_delta(index: int, signature: str) -> SseEvent:
    return delta(index, {"type": "signature_delta", "signature": signature})


def server_tool_start(
    index: int, tool_id: str, name: str = "web_search", **fields: Any
) -> SseEvent:
    block = {"type": "server_tool_use", "id": tool_id, "name": name, "input": {}, **fields}
    return block_start(index, block)


def result_start(index: int, kind: str, tool_use_id: str, content: Any, **fields: Any) -> SseEvent:
    """The start of a block holding the result of a Tool the vendor ran (it streams no delta)."""
    block = {"type": kind, "tool_use_id": tool_use_id, "content": content, **fields}
    return block_start(index, block)


CITATIONS: dict[str, dict[str, Any]] = {
    "char_location": {
        "type": "char_location",
        "cited_text": "The grass is green.",
        "document_index": 0,
        "document_title": "Facts",
        "start_char_index": 0,
        "end_char_index": 19,
    },
    "page_location": {
        "type": "page_location",
        "cited_text": "Page text.",
        "document_index": 1,
        "document_title": None,
        "start_page_number": 2,
        "end_page_number": 3,
    },
    "content_block_location": {
        "type": "content_block_location",
        "cited_text": "Block text.",
        "document_index": 2,
        "document_title": "Blocks",
        "start_block_index": 0,
        "end_block_index": 1,
    },
    "web_search_result_location": {
        "type": "web_search_result_location",
        "cited_text": "Search text.",
        "url": "https://example.com/page",
        "title": "Example",
        "encrypted_index": "RW5jcnlwdGVk",
    },
    "search_result_location": {
        "type": "search_result_location",
        "cited_text": "Result text.",
        "source": "https://example.com/kb",
        "title": None,
        "search_result_index": 0,
        "start_block_index": 0,
        "end_block_index": 2,
    },
}
"""One citation of each type the Messages API streams, every field documented for it."""


BLOCKS: dict[str, dict[str, Any]] = {
    "text": {"type": "text", "text": ""},
    "tool_use": {"type": "tool_use", "id": "toolu_01K", "name": "add", "input": {}},
    "thinking": {"type": "thinking", "thinking": "", "signature": ""},
    "redacted_thinking": {"type": "redacted_thinking", "data": "RW5jcnlwdGVkIHRoaW5raW5n"},
    "server_tool_use": {
        "type": "server_tool_use",
        "id": "srvtoolu_01K",
        "name": "web_search",
        "input": {},
        "caller": {"type": "direct"},
    },
    "web_search_tool_result": {
        "type": "web_search_tool_result",
        "tool_use_id": "srvtoolu_01K",
        "content": [
            {
                "type": "web_search_result",
                "url": "https://example.com/weather",
                "title": "Weather",
                "encrypted_content": "RW5jcnlwdGVk",
                "page_age": None,
            }
        ],
        "caller": {"type": "direct"},
    },
    "web_fetch_tool_result": {
        "type": "web_fetch_tool_result",
        "tool_use_id": "srvtoolu_02K",
        "content": {
            "type": "web_fetch_result",
            "url": "https://example.com/",
            "retrieved_at": "2025-09-10T12:00:00Z",
            "content": {
                "type": "document",
                "source": {"type": "text", "media_type": "text/plain", "data": "Hello."},
            },
        },
    },
    "code_execution_tool_result": {
        "type": "code_execution_tool_result",
        "tool_use_id": "srvtoolu_03K",
        "content": {
            "type": "code_execution_result",
            "stdout": "4\n",
            "stderr": "",
            "return_code": 0,
            "content": [],
        },
    },
    "bash_code_execution_tool_result": {
        "type": "bash_code_execution_tool_result",
        "tool_use_id": "srvtoolu_04K",
        "content": {
            "type": "bash_code_execution_result",
            "stdout": "ok",
            "stderr": "",
            "return_code": 0,
            "content": [],
        },
    },
    "text_editor_code_execution_tool_result": {
        "type": "text_editor_code_execution_tool_result",
        "tool_use_id": "srvtoolu_05K",
        "content": {
            "type": "text_editor_code_execution_view_result",
            "file_type": "text",
            "content": "print(4)",
            "num_lines": 1,
            "start_line": 1,
            "total_lines": 1,
        },
    },
    "tool_search_tool_result": {
        "type": "tool_search_tool_result",
        "tool_use_id": "srvtoolu_06K",
        "content": {
            "type": "tool_search_tool_search_result",
            "tool_references": [{"type": "tool_reference", "tool_name": "get_weather"}],
        },
    },
    "advisor_tool_result": {
        "type": "advisor_tool_result",
        "tool_use_id": "srvtoolu_07K",
        "content": {"type": "advisor_result", "text": "Check the units."},
    },
    "mcp_tool_use": {
        "type": "mcp_tool_use",
        "id": "mcptoolu_01K",
        "name": "echo",
        "server_name": "echo-server",
        "input": {},
    },
    "mcp_tool_result": {
        "type": "mcp_tool_result",
        "tool_use_id": "mcptoolu_01K",
        "is_error": False,
        "content": [{"type": "text", "text": "hello"}],
    },
    "container_upload": {"type": "container_upload", "file_id": "file_01K"},
    "compaction": {"type": "compaction", "content": None, "encrypted_content": None},
    "fallback": {
        "type": "fallback",
        "from": {"model": "claude-opus-4-5"},
        "to": {"model": "claude-sonnet-4-5-20250929"},
    },
}
"""A block start of each type the Messages API streams, every field documented for it."""


def one_block_body(block: dict[str, Any], stop_reason: str = "end_turn") -> list[SseEvent]:
    """A whole response of the one block ``block``, started and stopped without a delta."""
    return [
        message_start(),
        block_start(0, block),
        block_stop(0),
        message_delta(stop_reason),
        message_stop(),
    ]


def citation_delta(index: int, citation: dict[str, Any]) -> SseEvent:
    return delta(index, {"type": "citations_delta", "citation": citation})


def text_delta(index: int, text: str) -> SseEvent:
    return delta(index, {"type": "text_delta", "text": text})


def json_delta(index: int, fragment: str) -> SseEvent:
    return delta(index, {"type": "input_json_delta", "partial_json": fragment})


def delta(index: int, payload: dict[str, Any]) -> SseEvent:
    return event({"type": "content_block_delta", "index": index, "delta": payload})


def block_stop(index: int) -> SseEvent:
    return event({"type": "content_block_stop", "index": index})


def message_delta(
    stop_reason: str | None = "end_turn", output_tokens: int = 5, **extra: object
) -> SseEvent:
    usage = {"output_tokens": output_tokens, **extra}
    return event(
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop_reason, "stop_sequence": None},
            "usage": usage,
        }
    )


def message_stop() -> SseEvent:
    return event({"type": "message_stop"})


def ping() -> SseEvent:
    return event({"type": "ping"})


def error_event(kind: str = "overloaded_error", message: str = "Overloaded") -> SseEvent:
    return event({"type": "error", "error": {"type": kind, "message": message}})


def text_body(*pieces: str, stop_reason: str = "end_turn") -> list[SseEvent]:
    """A whole response of one text block streamed in ``pieces``."""
    return [
        message_start(),
        text_start(0),
        *(text_delta(0, piece) for piece in pieces),
        block_stop(0),
        message_delta(stop_reason),
        message_stop(),
    ]


def tool_body(*fragments: str, call_id: str = "toolu_01A", name: str = "add") -> list[SseEvent]:
    """A whole response of text then one Tool call whose arguments arrive in ``fragments``."""
    return [
        message_start(),
        text_start(0),
        text_delta(0, "Adding."),
        block_stop(0),
        tool_start(1, call_id, name),
        *(json_delta(1, fragment) for fragment in fragments),
        block_stop(1),
        message_delta("tool_use"),
        message_stop(),
    ]


def judge(events: list[SseEvent]) -> MessagesResult | VendorError:
    """Feed ``events`` in order to a fresh grammar alone; its result, or its first `VendorError`."""
    grammar = MessagesGrammar()
    try:
        for index, item in enumerate(events):
            grammar.feed(item, index)
        return grammar.end(len(events))
    except VendorError as error:
        return error


def judged(events: list[SseEvent]) -> MessagesResult:
    """The grammar's result of ``events``, which must be on the grammar."""
    outcome = judge(events)
    assert isinstance(outcome, MessagesResult), f"expected a result, got {outcome!r}"
    return outcome


def refused(events: list[SseEvent]) -> VendorError:
    """The grammar's error for ``events``, which must be off the grammar."""
    outcome = judge(events)
    assert isinstance(outcome, VendorError), f"expected a VendorError, got {outcome!r}"
    return outcome


def play(
    events: list[SseEvent], request_id: str = REQUEST_ID
) -> tuple[list[CourseModelChunk], CourseModelResponse | VendorError]:
    """Play ``events`` in order through the mapping, as the model does; the chunks pushed,
    then the response or the first `VendorError`."""
    mapping = MessagesMapping(request_id)
    chunks: list[CourseModelChunk] = []
    try:
        for index, item in enumerate(events):
            mapping.item(item, index, chunks.append)
        return chunks, mapping.end(len(events))
    except VendorError as error:
        return chunks, error


def failure(events: list[SseEvent]) -> tuple[list[CourseModelChunk], VendorError]:
    """Play ``events`` that must fail; the chunks made before the failure, and the error."""
    chunks, outcome = play(events)
    assert isinstance(outcome, VendorError), f"expected a VendorError, got {outcome!r}"
    return chunks, outcome


def success(events: list[SseEvent]) -> tuple[list[CourseModelChunk], CourseModelResponse]:
    """Play ``events`` that must succeed; the chunks and the response."""
    chunks, outcome = play(events)
    assert isinstance(outcome, CourseModelResponse), f"expected a response, got {outcome!r}"
    return chunks, outcome
