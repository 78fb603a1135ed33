"""What one Responses stream said, apart from the port: `ResponsesResult` and its items.

Frozen, slotted and deeply immutable: text is a ``str``, an opaque payload a
frozen JSON object, every sequence a tuple. Nothing here knows the course
protocol; `ResponsesMapping` turns a result into a course response.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, TypeAlias, final

from course_protocol import JsonObject

__all__ = [
    "ResponsesError",
    "ResponsesFunctionCall",
    "ResponsesItem",
    "ResponsesMessage",
    "ResponsesOutputText",
    "ResponsesReasoning",
    "ResponsesRefusal",
    "ResponsesResult",
    "ResponsesToolItem",
    "ResponsesUsage",
]


@final
@dataclass(frozen=True, slots=True)
class ResponsesUsage:
    """The token counts of ``response.usage``, each ``None`` when the vendor did not send it.

    ``cached_tokens``, ``cache_write_tokens`` (and its ``ttl_30m_tokens`` and
    ``ttl_12h_tokens``) come from ``input_tokens_details``,
    ``reasoning_tokens`` from ``output_tokens_details``.
    """

    input_tokens: int
    output_tokens: int
    total_tokens: int | None = None
    cached_tokens: int | None = None
    cache_write_tokens: int | None = None
    cache_write_30m_tokens: int | None = None
    cache_write_12h_tokens: int | None = None
    reasoning_tokens: int | None = None


@final
@dataclass(frozen=True, slots=True)
class ResponsesError:
    """An error the vendor reported: the ``error`` event's, or ``response.failed``'s ``error``.

    ``code`` is the vendor's text (a numeric code as its text), ``None``
    when absent, as ``type`` and ``param`` are.
    """

    message: str
    code: str | None = None
    type: str | None = None
    param: str | None = None


@final
@dataclass(frozen=True, slots=True)
class ResponsesOutputText:
    """An ``output_text`` part: its text, its annotations (citations) and logprobs, in order.

    An annotation is ``None`` where ``response.output_text.annotation.added``
    carried none (the official SDK reads that field as optional).
    """

    text: str
    annotations: tuple[JsonObject | None, ...] = ()
    logprobs: tuple[JsonObject, ...] = ()
    kind: ClassVar[str] = "output_text"


@final
@dataclass(frozen=True, slots=True)
class ResponsesRefusal:
    """A ``refusal`` part: the model's refusal text."""

    refusal: str
    kind: ClassVar[str] = "refusal"


@final
@dataclass(frozen=True, slots=True)
class ResponsesMessage:
    """A ``message`` item: its ``msg_...`` id, its parts in ``content_index`` order.

    ``status`` and ``phase`` (``commentary``, ``final_answer``) as the item's
    last form spelled them, ``None`` when absent; ``done`` says that
    ``response.output_item.done`` closed it.
    """

    id: str
    parts: tuple[ResponsesOutputText | ResponsesRefusal, ...]
    status: str | None = None
    phase: str | None = None
    done: bool = True
    kind: ClassVar[str] = "message"


@final
@dataclass(frozen=True, slots=True)
class ResponsesFunctionCall:
    """A ``function_call`` item: ids, name, the argument text and the arguments it parses to.

    ``id`` is the ``fc_...`` item id the argument events name; ``call_id`` the
    id a Tool result echoes. ``arguments`` is ``None`` only for a call whose
    arguments never completed (a stream that ended ``incomplete`` or
    ``failed`` in the middle of it); ``arguments_text`` is what streamed.
    """

    id: str
    call_id: str
    name: str
    arguments_text: str
    arguments: JsonObject | None
    namespace: str | None = None
    done: bool = True
    kind: ClassVar[str] = "function_call"


@final
@dataclass(frozen=True, slots=True)
class ResponsesReasoning:
    """A ``reasoning`` item: summary texts, reasoning texts, and the opaque encrypted form.

    ``encrypted_content`` is as the item's ``done`` gave it (the terminal's
    snapshot carries a form the API encrypted again, not kept), ``None``
    when not sent.
    """

    id: str
    summary: tuple[str, ...] = ()
    content: tuple[str, ...] = ()
    encrypted_content: str | None = None
    done: bool = True
    kind: ClassVar[str] = "reasoning"


@final
@dataclass(frozen=True, slots=True)
class ResponsesToolItem:
    """Any other documented item, kept whole as frozen JSON.

    A tool the vendor or the client runs, its output, an MCP listing or
    approval, a Tool search, compaction, a program. ``kind`` is the item's
    ``type``; ``item`` the item as its
    ``response.output_item.done`` gave it (as added, when it never got done),
    its envelope checked: the type, the id and the fields the vendor
    documents as required, with their JSON types, and any text it streamed
    (custom Tool input, MCP arguments, interpreter code) equal to the item's.
    """

    kind: str
    id: str
    item: JsonObject
    done: bool = True


ResponsesItem: TypeAlias = (
    ResponsesMessage | ResponsesFunctionCall | ResponsesReasoning | ResponsesToolItem
)
"""One output item of a response, in ``output_index`` order."""


@final
@dataclass(frozen=True, slots=True)
class ResponsesResult:
    """What a whole Responses stream said.

    ``status`` is the final status the terminal event gave (``completed``,
    ``incomplete``, ``failed``), ``None`` when an ``error`` event ended the
    stream with no ``response.failed`` after it; ``id`` and ``model`` are
    ``response.created``'s (``None`` when the stream never got that far, or
    sent no model); ``items`` every output item in order; ``usage`` the
    terminal's (``None`` when it sent none); ``incomplete_reason``
    ``incomplete_details.reason``; ``error`` the ``error`` event's error,
    ``response_error`` ``response.failed``'s; ``audio`` and
    ``audio_transcript`` the joined audio deltas, ``None`` when none came.
    """

    status: str | None
    id: str | None
    model: str | None = None
    items: tuple[ResponsesItem, ...] = ()
    usage: ResponsesUsage | None = None
    incomplete_reason: str | None = None
    error: ResponsesError | None = None
    response_error: ResponsesError | None = None
    audio: str | None = None
    audio_transcript: str | None = None
