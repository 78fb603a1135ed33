"""Content blocks while they stream: what each kind of block accepts, and what it becomes.

`open_block` reads a ``content_block_start`` 's block into the `OpenBlock` of
its kind; the grammar feeds it the block's deltas and closes it at its
``content_block_stop`` (or when the stream cut it) into its
`course_provider_anthropic.MessagesBlock`. Every block kind the Messages API
streams is here, and nothing of the course protocol: what the port can carry
is the mapping's business.

Over 300 lines on purpose: each block kind's start (the envelope the vendor
documents for it) and its state while it streams (the deltas it accepts,
the value it becomes) are one job, read side by side; the kinds share the
one `OpenBlock` the grammar's short path reads.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, Final, NoReturn

from course_http import VendorErrorCode
from course_protocol import JsonObject
from course_protocol.untrusted import shown
from course_provider_anthropic._citations import read_citation
from course_provider_anthropic._reads import (
    fail,
    fail_invalid,
    frozen,
    invalid,
    object_at,
    optional_object,
    optional_text,
    text_at,
)
from course_provider_anthropic._result import (
    MessagesBlock,
    MessagesCompactionBlock,
    MessagesOpaqueBlock,
    MessagesRedactedThinkingBlock,
    MessagesTextBlock,
    MessagesThinkingBlock,
    MessagesToolUseBlock,
)
from course_provider_anthropic._wire import WIRE
from course_vendor import TextPieces, tool_arguments

__all__ = ["BLOCK_KINDS", "TOOL_USE_KINDS", "OpenBlock", "open_block"]

_BLOCK = "content_block"
_NO_DELTA: Final = object()
"""The streamed delta type of a block that keeps no streamed text: equal to no decoded value."""

_DELTA_KINDS: Final = frozenset(
    {
        "text_delta",
        "input_json_delta",
        "thinking_delta",
        "signature_delta",
        "citations_delta",
        "compaction_delta",
    }
)
"""Every delta type the Messages API streams."""

TOOL_USE_KINDS: Final = frozenset({"tool_use", "server_tool_use", "mcp_tool_use"})
"""The blocks that call a Tool, their arguments streamed as ``input_json_delta`` fragments."""
_TOOL_USE_OWN: Final = frozenset({"type", "id", "name", "input"})
"""The fields of a Tool call's start the block reads itself; the others are kept as sent."""


class OpenBlock(ABC):
    """One content block between its ``content_block_start`` and its stop.

    ``delta_type``/``delta_key`` name the one delta whose text the block
    keeps as it streams (``text_delta.text``, ``input_json_delta.partial_json``,
    ``thinking_delta.thinking``), the grammar's short path; ``parts`` holds
    those pieces in order, joined once at the close. `take` reads every
    other delta; `close` makes the block's result.
    """

    __slots__ = ("delta_key", "delta_type", "kind", "parts", "position")

    def __init__(
        self, kind: str, position: int, delta_type: object = _NO_DELTA, key: str = ""
    ) -> None:
        self.kind = kind
        self.position = position
        self.delta_type = delta_type
        self.delta_key = key
        self.parts = TextPieces()

    def take(self, delta: dict[str, Any], delta_kind: str, index: int) -> None:
        """Read ``delta`` (type ``delta_kind``) of event ``index``, one the short path did not take.

        Raises `VendorError` ``VENDOR_INVALID_EVENT`` for a known delta type
        that does not fit the block or a payload of the wrong type,
        ``VENDOR_UNKNOWN_EVENT`` for an unknown delta type.
        """
        self._refuse(delta_kind, index)

    def _refuse(self, delta_kind: str, index: int) -> NoReturn:
        if delta_kind in _DELTA_KINDS:
            fail_invalid(f"delta type {delta_kind} does not fit a {self.kind} block", index)
        fail(
            VendorErrorCode.VENDOR_UNKNOWN_EVENT,
            index,
            f"delta.type {shown(delta_kind)!r} is not a known delta type",
            vendor_type=delta_kind,
        )

    @abstractmethod
    def close(self, index: int, *, complete: bool) -> MessagesBlock:
        """The block's result, at event ``index``; ``complete`` is ``False`` for a block cut short.

        Raises `VendorError` ``VENDOR_INVALID_TOOL_ARGUMENTS`` for a
        complete Tool call whose arguments are not a JSON object.
        """


class _TextBlock(OpenBlock):
    __slots__ = ("citations",)

    def __init__(self, position: int, text: str, citations: list[JsonObject]) -> None:
        super().__init__("text", position, "text_delta", "text")
        self.citations = citations
        self.parts.append(text)

    def take(self, delta: dict[str, Any], delta_kind: str, index: int) -> None:
        if delta_kind != "citations_delta":
            self._refuse(delta_kind, index)
        self.citations.append(read_citation(delta.get("citation"), index, "delta.citation"))

    def close(self, index: int, *, complete: bool) -> MessagesBlock:
        return MessagesTextBlock(self.kind, self.parts.joined(), tuple(self.citations), complete)


class _ToolUseBlock(OpenBlock):
    __slots__ = ("fields", "given", "name", "tool_id")

    def __init__(
        self,
        kind: str,
        position: int,
        identity: tuple[str, str],
        given: JsonObject | None,
        fields: JsonObject,
    ) -> None:
        if given is None:
            super().__init__(kind, position, "input_json_delta", "partial_json")
        else:
            super().__init__(kind, position)
        self.tool_id, self.name = identity
        self.given = given
        self.fields = fields

    def take(self, delta: dict[str, Any], delta_kind: str, index: int) -> None:
        if delta_kind == "input_json_delta":
            fail_invalid(
                f"input_json_delta does not fit a {self.kind} block whose start holds its input",
                index,
            )
        self._refuse(delta_kind, index)

    def close(self, index: int, *, complete: bool) -> MessagesBlock:
        partial = None
        if self.given is not None:
            arguments: JsonObject | None = self.given
        elif complete:
            path = f"block {self.position} input"
            arguments = tool_arguments(self.parts.joined(), vendor=WIRE, index=index, path=path)
        else:
            arguments, partial = None, self.parts.joined()
        return MessagesToolUseBlock(
            self.kind, self.tool_id, self.name, arguments, partial, self.fields, complete
        )


class _ThinkingBlock(OpenBlock):
    __slots__ = ("signature",)

    def __init__(self, position: int, thinking: str, signature: str) -> None:
        super().__init__("thinking", position, "thinking_delta", "thinking")
        self.signature = signature
        self.parts.append(thinking)

    def take(self, delta: dict[str, Any], delta_kind: str, index: int) -> None:
        if delta_kind != "signature_delta":
            self._refuse(delta_kind, index)
        # The last signature wins, as the official SDK keeps it; the vendor sends one.
        self.signature = text_at(delta, "signature", index, parent="delta")

    def close(self, index: int, *, complete: bool) -> MessagesBlock:
        return MessagesThinkingBlock(self.kind, self.parts.joined(), self.signature, complete)


class _CompactionBlock(OpenBlock):
    __slots__ = ("content", "encrypted_content")

    def __init__(self, position: int, content: str | None, encrypted: str | None) -> None:
        super().__init__("compaction", position)
        self.content = content
        self.encrypted_content = encrypted

    def take(self, delta: dict[str, Any], delta_kind: str, index: int) -> None:
        if delta_kind != "compaction_delta":
            self._refuse(delta_kind, index)
        # Each field a delta carries replaces the block's (the summary comes whole).
        if "content" in delta:
            self.content = optional_text(delta, "content", index, parent="delta")
        if "encrypted_content" in delta:
            encrypted = optional_text(delta, "encrypted_content", index, parent="delta")
            self.encrypted_content = encrypted

    def close(self, index: int, *, complete: bool) -> MessagesBlock:
        return MessagesCompactionBlock(self.kind, self.content, self.encrypted_content, complete)


class _RedactedThinkingBlock(OpenBlock):
    __slots__ = ("data",)

    def __init__(self, position: int, data: str) -> None:
        super().__init__("redacted_thinking", position)
        self.data = data

    def close(self, index: int, *, complete: bool) -> MessagesBlock:
        return MessagesRedactedThinkingBlock(self.kind, self.data, complete)


class _OpaqueBlock(OpenBlock):
    __slots__ = ("body",)

    def __init__(self, kind: str, position: int, body: JsonObject) -> None:
        super().__init__(kind, position)
        self.body = body

    def close(self, index: int, *, complete: bool) -> MessagesBlock:
        return MessagesOpaqueBlock(self.kind, self.body, complete)


def _path(key: str) -> str:
    return f"{_BLOCK}.{key}"


def _caller(block: dict[str, Any], index: int) -> None:
    caller = optional_object(block, "caller", index, parent=_BLOCK)
    if caller is not None:
        text_at(caller, "type", index, parent=_path("caller"), non_blank=True)


def _text(kind: str, block: dict[str, Any], position: int, index: int) -> OpenBlock:
    text = text_at(block, "text", index, parent=_BLOCK)
    citations = block.get("citations")
    if citations is not None and type(citations) is not list:
        invalid(index, _path("citations"), "an array or null", citations)
    read = [
        read_citation(citation, index, _path(f"citations[{at}]"))
        for at, citation in enumerate(citations or ())
    ]
    return _TextBlock(position, text, read)


def _tool_use(kind: str, block: dict[str, Any], position: int, index: int) -> OpenBlock:
    tool_id = text_at(block, "id", index, parent=_BLOCK, non_blank=True)
    name = text_at(block, "name", index, parent=_BLOCK, non_blank=True)
    if kind == "mcp_tool_use":
        text_at(block, "server_name", index, parent=_BLOCK, non_blank=True)
    _caller(block, index)
    given = block.get("input")
    if type(given) is not dict:
        invalid(index, _path("input"), "an object", given)
    # The input streams as fragments after an empty start; a start that holds
    # the whole input (as the official SDK accepts) streams none.
    whole = frozen(given, index, _path("input")) if given else None
    others = {key: value for key, value in block.items() if key not in _TOOL_USE_OWN}
    return _ToolUseBlock(kind, position, (tool_id, name), whole, frozen(others, index, _BLOCK))


def _thinking(kind: str, block: dict[str, Any], position: int, index: int) -> OpenBlock:
    thinking = text_at(block, "thinking", index, parent=_BLOCK)
    return _ThinkingBlock(position, thinking, text_at(block, "signature", index, parent=_BLOCK))


def _redacted_thinking(kind: str, block: dict[str, Any], position: int, index: int) -> OpenBlock:
    return _RedactedThinkingBlock(position, text_at(block, "data", index, parent=_BLOCK))


def _compaction(kind: str, block: dict[str, Any], position: int, index: int) -> OpenBlock:
    content = optional_text(block, "content", index, parent=_BLOCK)
    encrypted = optional_text(block, "encrypted_content", index, parent=_BLOCK)
    return _CompactionBlock(position, content, encrypted)


def _tool_result(kind: str, block: dict[str, Any], position: int, index: int) -> OpenBlock:
    text_at(block, "tool_use_id", index, parent=_BLOCK, non_blank=True)
    _caller(block, index)
    content = block.get("content")
    if kind == "mcp_tool_result":
        if type(content) is not str and type(content) is not list:
            invalid(index, _path("content"), "a string or an array", content)
        if type(block.get("is_error")) is not bool:
            invalid(index, _path("is_error"), "a boolean", block.get("is_error"))
    elif kind == "web_search_tool_result":
        if type(content) is not list and type(content) is not dict:
            invalid(index, _path("content"), "an array or an object", content)
    else:
        object_at(block, "content", index, parent=_BLOCK)
    return _OpaqueBlock(kind, position, frozen(block, index, _BLOCK))


def _container_upload(kind: str, block: dict[str, Any], position: int, index: int) -> OpenBlock:
    text_at(block, "file_id", index, parent=_BLOCK, non_blank=True)
    return _OpaqueBlock(kind, position, frozen(block, index, _BLOCK))


def _fallback(kind: str, block: dict[str, Any], position: int, index: int) -> OpenBlock:
    for key in ("from", "to"):
        hop = object_at(block, key, index, parent=_BLOCK)
        text_at(hop, "model", index, parent=_path(key), non_blank=True)
    return _OpaqueBlock(kind, position, frozen(block, index, _BLOCK))


_Opener = Callable[[str, dict[str, Any], int, int], OpenBlock]
_OPENERS: Final[dict[str, _Opener]] = {
    "text": _text,
    "tool_use": _tool_use,
    "thinking": _thinking,
    "redacted_thinking": _redacted_thinking,
    "server_tool_use": _tool_use,
    "mcp_tool_use": _tool_use,
    "web_search_tool_result": _tool_result,
    "web_fetch_tool_result": _tool_result,
    "code_execution_tool_result": _tool_result,
    "bash_code_execution_tool_result": _tool_result,
    "text_editor_code_execution_tool_result": _tool_result,
    "tool_search_tool_result": _tool_result,
    "advisor_tool_result": _tool_result,
    "mcp_tool_result": _tool_result,
    "container_upload": _container_upload,
    "compaction": _compaction,
    "fallback": _fallback,
}
"""Each block type the Messages API streams, and how its start is read."""

BLOCK_KINDS: Final = frozenset(_OPENERS)
"""Every content block type the grammar reads."""


def open_block(block: dict[str, Any], position: int, index: int) -> OpenBlock:
    """The block a ``content_block_start`` (event ``index``) opens at ``position``, from its block.

    Raises `VendorError` ``VENDOR_UNKNOWN_EVENT`` (``vendor_type`` the
    type) for a block type the Messages API does not stream, and
    ``VENDOR_INVALID_EVENT`` naming the field for a field of the wrong type
    or a required one missing.
    """
    kind = block.get("type")
    if type(kind) is not str:
        invalid(index, _path("type"), "a string", kind)
    opener = _OPENERS.get(kind)
    if opener is None:
        _unknown_block(kind, index)
    return opener(kind, block, position, index)


def _unknown_block(kind: str, index: int) -> NoReturn:
    fail(
        VendorErrorCode.VENDOR_UNKNOWN_EVENT,
        index,
        f"content block type {shown(kind)!r} is not a known block type",
        vendor_type=kind,
    )
