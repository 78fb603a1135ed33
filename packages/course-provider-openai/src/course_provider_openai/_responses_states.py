"""The output items of one Responses stream while they stream: one plain record per family.

Mutable records, private to the grammar: `TextPart`, a text that streams
in deltas and is repeated whole at its ``.done``; `MessageState`,
`CallState`, `ReasoningState` and `ToolState`, each of which gives the
frozen result item it becomes (`frozen`).
"""

from __future__ import annotations

from typing import TypeAlias, final

from course_protocol import JsonObject
from course_provider_openai import _responses_wire as wire
from course_provider_openai._responses_result import (
    ResponsesFunctionCall,
    ResponsesMessage,
    ResponsesOutputText,
    ResponsesReasoning,
    ResponsesRefusal,
    ResponsesToolItem,
)
from course_vendor import TextPieces

__all__ = [
    "CallState",
    "ItemState",
    "MessageState",
    "ReasoningState",
    "TextPart",
    "ToolState",
    "kind_of",
]


@final
class TextPart:
    """A text that streams in deltas: a message part, a reasoning text, a call's input.

    ``kind`` is the part's type (``output_text``, ``refusal``,
    ``summary_text``, ``reasoning_text``, or the event family of a tool's
    text); ``text`` is the whole text once a ``.done`` event gave it (or the
    part closed), after which no delta may come; ``open`` is false once the
    part itself is done. ``annotations`` and ``logprobs`` are an output
    text's, kept only when some came.
    """

    __slots__ = ("annotations", "fragments", "kind", "logprobs", "open", "text")

    def __init__(self, kind: str, first: str = "") -> None:
        self.kind = kind
        self.fragments = TextPieces()
        self.fragments.append(first)
        self.text: str | None = None
        self.open = True
        self.annotations: list[JsonObject | None] | None = None
        self.logprobs: list[JsonObject] | None = None

    def joined(self) -> str:
        """The text streamed so far, joined once and kept as the part's text."""
        if self.text is None:
            self.text = self.fragments.joined()
            self.fragments = TextPieces()
        return self.text

    def close_with(self, text: str) -> bool:
        """Keep ``text`` as the part's text when it is the deltas joined; whether it was.

        The deltas are compared in place and dropped, so the text is held
        once (the event's string), not joined a second time.
        """
        if not self.fragments.equals(text):
            return False
        self.text = text
        self.fragments = TextPieces()
        return True


@final
class MessageState:
    """A ``message`` item: its ``msg_...`` id and its parts, by ``content_index``."""

    __slots__ = ("id", "open", "parts", "phase", "status")

    def __init__(self, item_id: str, status: str | None, phase: str | None) -> None:
        self.id = item_id
        self.parts: list[TextPart] = []
        self.open = True
        self.status = status
        self.phase = phase

    def frozen(self) -> ResponsesMessage:
        """The message as the result holds it: each part's text joined, its extras kept."""
        parts = tuple(
            ResponsesRefusal(part.joined())
            if part.kind == "refusal"
            else ResponsesOutputText(
                part.joined(), tuple(part.annotations or ()), tuple(part.logprobs or ())
            )
            for part in self.parts
        )
        return ResponsesMessage(self.id, parts, self.status, self.phase, not self.open)


@final
class CallState:
    """A ``function_call`` item: ids, name, argument fragments, and the arguments once complete.

    ``arguments_text`` is the whole argument text once it completed (at
    ``.arguments.done`` or the item's ``done``), kept to compare exactly
    with the item's own repetition of it; ``arguments`` what it parses to.
    """

    __slots__ = (
        "arguments",
        "arguments_text",
        "call_id",
        "fragments",
        "id",
        "name",
        "namespace",
        "open",
    )

    def __init__(self, item_id: str, call_id: str, name: str, namespace: str | None) -> None:
        self.id = item_id
        self.call_id = call_id
        self.name = name
        self.namespace = namespace
        self.fragments = TextPieces()
        self.arguments_text: str | None = None
        self.arguments: JsonObject | None = None
        self.open = True

    def frozen(self) -> ResponsesFunctionCall:
        """The call as the result holds it (arguments ``None`` while they are not complete)."""
        text = self.arguments_text
        return ResponsesFunctionCall(
            self.id,
            self.call_id,
            self.name,
            self.fragments.joined() if text is None else text,
            self.arguments,
            self.namespace,
            not self.open,
        )


@final
class ReasoningState:
    """A ``reasoning`` item: its summary parts (``summary_index``) and texts (``content_index``)."""

    __slots__ = ("content", "encrypted_content", "id", "open", "summary")

    def __init__(self, item_id: str, encrypted_content: str | None) -> None:
        self.id = item_id
        self.summary: list[TextPart] = []
        self.content: list[TextPart] = []
        self.encrypted_content = encrypted_content
        self.open = True

    def frozen(self) -> ResponsesReasoning:
        """The reasoning as the result holds it: its summary and reasoning texts joined."""
        return ResponsesReasoning(
            self.id,
            tuple(part.joined() for part in self.summary),
            tuple(part.joined() for part in self.content),
            self.encrypted_content,
            not self.open,
        )


@final
class ToolState:
    """Any other item: its kind, id and latest form, and what its own events streamed.

    ``item`` is the item as ``added`` gave it, then as its ``done`` did,
    frozen; ``text`` the
    one text its events stream (custom Tool input, MCP arguments,
    interpreter code), ``None`` until one came; ``commands`` a shell call's
    commands by ``command_index``; ``outputs`` whether each of a shell
    output's command contents is still open; ``settled`` that a final
    phase event (``.completed``, ``.failed``) came; ``partial_images`` how
    many partial images an image generation sent.
    """

    __slots__ = (
        "commands",
        "id",
        "item",
        "kind",
        "open",
        "outputs",
        "partial_images",
        "settled",
        "text",
    )

    def __init__(self, kind: str, item_id: str, item: JsonObject) -> None:
        self.kind = kind
        self.id = item_id
        self.item = item
        self.open = True
        self.text: TextPart | None = None
        self.commands: list[TextPart] = []
        self.outputs: list[bool] = []
        self.settled = False
        self.partial_images = 0

    def frozen(self) -> ResponsesToolItem:
        """The item as the result holds it: its last form, whole."""
        return ResponsesToolItem(self.kind, self.id, self.item, not self.open)


ItemState: TypeAlias = MessageState | CallState | ReasoningState | ToolState


def kind_of(item: ItemState) -> str:
    """The item's ``type`` as the vendor spells it."""
    if type(item) is ToolState:
        return item.kind
    return _FAMILY_KINDS[type(item)]


_FAMILY_KINDS: dict[type[ItemState], str] = {
    MessageState: wire.MESSAGE_TYPE,
    CallState: wire.FUNCTION_CALL_TYPE,
    ReasoningState: "reasoning",
}
