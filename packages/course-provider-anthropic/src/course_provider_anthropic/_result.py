"""What one streamed Messages API response said, as frozen values of the vendor's own terms.

`MessagesGrammar` folds a stream into a `MessagesResult`: the message's id and
model, every content block in index order as the vendor sent it, the stop
reason as the vendor spelled it, the usage with every count the vendor sent,
and the ``error`` event that ended the stream, if one did. Nothing here is a
course value: what the course protocol can carry of it is the mapping's
business (`MessagesMapping`). Every value is deeply immutable: frozen slotted
dataclasses, tuples, and ``course_protocol.JsonObject`` (a ``frozendict``) for
the JSON the vendor sent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias, final

from course_protocol import JsonObject

__all__ = [
    "MessagesBlock",
    "MessagesCompactionBlock",
    "MessagesErrorEvent",
    "MessagesOpaqueBlock",
    "MessagesRedactedThinkingBlock",
    "MessagesResult",
    "MessagesTextBlock",
    "MessagesThinkingBlock",
    "MessagesToolUseBlock",
    "MessagesUsage",
]


@final
@dataclass(frozen=True, slots=True)
class MessagesTextBlock:
    """A ``text`` block: its text joined from its start and its ``text_delta`` s.

    ``citations`` are the block's citations in order (those of its start,
    then one per ``citations_delta``), each the vendor's citation object;
    ``complete`` is ``False`` for a block the stream ended or cut (a
    ``max_tokens`` stop) before its ``content_block_stop``.
    """

    kind: str
    text: str
    citations: tuple[JsonObject, ...]
    complete: bool


@final
@dataclass(frozen=True, slots=True)
class MessagesThinkingBlock:
    """A ``thinking`` block: its thinking text joined, and the signature that authenticates it.

    ``signature`` is the last ``signature_delta`` 's (the start's, ``""``,
    when none came).
    """

    kind: str
    thinking: str
    signature: str
    complete: bool


@final
@dataclass(frozen=True, slots=True)
class MessagesRedactedThinkingBlock:
    """A ``redacted_thinking`` block: thinking the vendor encrypted, as its opaque ``data``."""

    kind: str
    data: str
    complete: bool


@final
@dataclass(frozen=True, slots=True)
class MessagesToolUseBlock:
    """A block that calls a Tool: ``tool_use``, ``server_tool_use`` or ``mcp_tool_use`` (``kind``).

    ``input`` is the call's arguments: the ``input_json_delta`` fragments
    joined and parsed once at the block's stop (``""`` means ``{}``), or
    the start's own ``input`` when no fragment came. A block cut before its
    stop has ``input`` ``None`` and the fragments it got in
    ``partial_input`` (``None`` for a complete block): its arguments were
    never finished. ``fields`` holds the start's other fields as sent
    (``caller``, an MCP block's ``server_name``, ...).
    """

    kind: str
    id: str
    name: str
    input: JsonObject | None
    partial_input: str | None
    fields: JsonObject
    complete: bool


@final
@dataclass(frozen=True, slots=True)
class MessagesCompactionBlock:
    """A ``compaction`` block: the vendor's summary of earlier turns.

    ``content`` is the summary (``None`` when the compaction produced
    none), ``encrypted_content`` the opaque state to send back; each is the
    start's, replaced by every ``compaction_delta`` that carries it.
    """

    kind: str
    content: str | None
    encrypted_content: str | None
    complete: bool


@final
@dataclass(frozen=True, slots=True)
class MessagesOpaqueBlock:
    """A block that streams no deltas and that the grammar keeps whole: ``body`` as sent.

    The results of Tools the vendor ran (``web_search_tool_result``,
    ``code_execution_tool_result``, ``mcp_tool_result``, ...),
    ``container_upload`` and ``fallback``: their envelope is checked (the
    type, the id they answer, the fields the vendor documents as required),
    the rest kept as frozen JSON.
    """

    kind: str
    body: JsonObject
    complete: bool


MessagesBlock: TypeAlias = (
    MessagesTextBlock
    | MessagesThinkingBlock
    | MessagesRedactedThinkingBlock
    | MessagesToolUseBlock
    | MessagesCompactionBlock
    | MessagesOpaqueBlock
)
"""One content block of a `MessagesResult`."""


@final
@dataclass(frozen=True, slots=True)
class MessagesUsage:
    """Every usage count the vendor sent, merged over the stream; ``None``: never sent.

    ``message_start`` gives the first counts (``output_tokens`` there is a
    placeholder); each ``message_delta`` replaces the counts it carries
    (they are cumulative), as the official SDK merges them. The objects of
    counts (``cache_creation``, ``server_tool_use``, ``output_tokens_details``)
    hold each count the vendor named; ``iterations`` is the per-iteration
    breakdown as sent.
    """

    input_tokens: int
    output_tokens: int | None
    cache_creation_input_tokens: int | None
    cache_read_input_tokens: int | None
    cache_creation: JsonObject | None
    server_tool_use: JsonObject | None
    output_tokens_details: JsonObject | None
    service_tier: str | None
    inference_geo: str | None
    iterations: tuple[JsonObject, ...] | None


@final
@dataclass(frozen=True, slots=True)
class MessagesErrorEvent:
    """The vendor's in-stream ``error`` event: its error ``type`` and its ``message``."""

    type: str
    message: str


@final
@dataclass(frozen=True, slots=True)
class MessagesResult:
    """What one streamed Messages API response said, from ``message_start`` to its end.

    ``id`` and ``model`` are the message's (``None`` only when an ``error``
    event ended the stream before ``message_start``, or for ``model`` when
    the start had none); ``content`` every block started, in index order;
    ``stop_reason`` the last non-null one a ``message_delta`` gave, as the
    vendor spelled it, with its ``stop_sequence`` and ``stop_details``;
    ``container`` the code-execution container a ``message_delta`` named;
    ``usage`` the merged counts (``None`` before ``message_start``);
    ``error`` the ``error`` event that ended the stream, or ``None`` for a
    stream that ended with ``message_stop``.
    """

    id: str | None
    model: str | None
    content: tuple[MessagesBlock, ...]
    stop_reason: str | None
    stop_sequence: str | None
    stop_details: JsonObject | None
    container: JsonObject | None
    usage: MessagesUsage | None
    error: MessagesErrorEvent | None
