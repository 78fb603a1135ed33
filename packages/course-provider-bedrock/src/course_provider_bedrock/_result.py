"""What one ConverseStream response said, as frozen values of the vendor's own terms.

`ConverseGrammar` folds a stream into a `ConverseResult`: the role, every
content block in index order as the vendor sent it, the stop reason as the
vendor spelled it, the metadata (usage with every count, metrics, trace),
and the exception that ended the stream, if one did. Nothing here is a
course value: what the course protocol can carry of it is the mapping's
business (`ConverseMapping`). Every value is deeply immutable.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias, final

from course_protocol import JsonObject, JsonValue

__all__ = [
    "ConverseBlock",
    "ConverseException",
    "ConverseMetadata",
    "ConverseOpaqueBlock",
    "ConverseReasoningBlock",
    "ConverseResult",
    "ConverseTextBlock",
    "ConverseToolUseBlock",
    "ConverseUsage",
]


@final
@dataclass(frozen=True, slots=True)
class ConverseTextBlock:
    """A text block: its ``text`` deltas joined, its ``citation`` deltas in order.

    ``complete`` is ``False`` for a block the stream cut before its
    ``contentBlockStop`` (a ``max_tokens`` stop).
    """

    text: str
    citations: tuple[JsonObject, ...]
    complete: bool


@final
@dataclass(frozen=True, slots=True)
class ConverseReasoningBlock:
    """A ``reasoningContent`` block: its readable ``text`` joined, and what authenticates it.

    ``signature`` is the last ``signature`` delta's (``None`` when none
    came); ``redacted_content`` the ``redactedContent`` deltas joined (the
    base64 of reasoning the vendor encrypted), ``None`` when none came.
    """

    text: str
    signature: str | None
    redacted_content: str | None
    complete: bool


@final
@dataclass(frozen=True, slots=True)
class ConverseToolUseBlock:
    """A ``toolUse`` block: the call's ``id`` (``toolUseId``), ``name`` and arguments.

    ``input`` is the ``toolUse.input`` fragments joined and parsed once at
    the block's stop (``""`` means ``{}``); a block cut before its stop has
    ``input`` ``None`` and its fragments in ``partial_input``. ``fields``
    holds the start's other fields as sent (``type``).
    """

    id: str
    name: str
    input: JsonObject | None
    partial_input: str | None
    fields: JsonObject
    complete: bool


@final
@dataclass(frozen=True, slots=True)
class ConverseOpaqueBlock:
    """A block kept whole: ``kind`` (``toolResult``, ``image``), its start, its deltas."""

    kind: str
    start: JsonObject | None
    deltas: tuple[JsonObject, ...]
    complete: bool


ConverseBlock: TypeAlias = (
    ConverseTextBlock | ConverseReasoningBlock | ConverseToolUseBlock | ConverseOpaqueBlock
)
"""One content block of a `ConverseResult`."""


@final
@dataclass(frozen=True, slots=True)
class ConverseUsage:
    """The ``metadata`` event's ``usage``: every count the vendor sent (``None``: not sent).

    ``input_tokens`` does not count the cached input: the vendor's total
    input is it plus ``cache_read_input_tokens`` and
    ``cache_write_input_tokens``. ``details`` holds the other fields as sent.
    """

    input_tokens: int
    output_tokens: int
    total_tokens: int
    cache_read_input_tokens: int | None
    cache_write_input_tokens: int | None
    details: JsonObject


@final
@dataclass(frozen=True, slots=True)
class ConverseMetadata:
    """The ``metadata`` event: its ``usage``, ``metrics``, and the rest (trace, ...) as sent."""

    usage: ConverseUsage
    metrics: JsonObject
    fields: JsonObject


@final
@dataclass(frozen=True, slots=True)
class ConverseException:
    """The exception (or ``error`` message) that ended the stream.

    ``type`` is the ``:exception-type`` (``throttlingException``) or the
    ``:error-code``; ``message`` the vendor's text; ``fields`` the payload's
    other fields as sent (``originalStatusCode``, ``originalMessage``).
    """

    type: str
    message: str
    fields: JsonObject


@final
@dataclass(frozen=True, slots=True)
class ConverseResult:
    """What one ConverseStream response said, from ``messageStart`` to its end.

    ``role`` is ``messageStart``'s (``None`` when an exception came first);
    ``content`` every block, in index order; ``stop_reason`` ``messageStop``'s
    as the vendor spelled it, with its ``additional_fields``
    (``additionalModelResponseFields``); ``metadata`` the ``metadata`` event,
    ``None`` when none came; ``exception`` what ended the stream instead of
    ``messageStop``, or ``None``.
    """

    role: str | None
    content: tuple[ConverseBlock, ...]
    stop_reason: str | None
    additional_fields: JsonValue
    metadata: ConverseMetadata | None
    exception: ConverseException | None
