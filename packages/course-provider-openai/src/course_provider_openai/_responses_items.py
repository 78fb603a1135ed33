"""The state of the output items of one Responses stream, keyed by ``output_index``.

Plain mutable records, private to the parser: what was announced by
``response.output_item.added``, what streamed since, and whether it is done.
"""

from __future__ import annotations

from typing import TypeAlias, final

from course_protocol import CourseToolCall

__all__ = ["CallItem", "MessageItem", "OutputItem", "Part", "SkippedItem"]


@final
class Part:
    """One content part of a message item: output text or a refusal, and its deltas."""

    __slots__ = ("fragments", "is_refusal", "open", "text")

    def __init__(self, *, is_refusal: bool) -> None:
        self.is_refusal = is_refusal
        self.fragments: list[str] = []
        self.text: str | None = None
        """The whole text once its ``.done`` event (or the part's) closed it."""
        self.open = True

    def joined(self) -> str:
        """The text streamed so far, joined once and kept."""
        if self.text is None:
            self.text = "".join(self.fragments)
            self.fragments = []
        return self.text


@final
class MessageItem:
    """A ``message`` item: its ``msg_...`` id and its content parts, by ``content_index``."""

    __slots__ = ("id", "open", "parts")

    def __init__(self, item_id: str) -> None:
        self.id = item_id
        self.parts: list[Part] = []
        self.open = True


@final
class CallItem:
    """A ``function_call`` item: ids, name, argument fragments, and the call once complete.

    ``id`` is the ``fc_...`` item id the deltas name; ``call_id`` the one a
    Tool result echoes, which becomes the course Tool-call id.
    """

    __slots__ = ("arguments", "call", "call_id", "fragments", "id", "name", "open")

    def __init__(self, item_id: str, call_id: str, name: str) -> None:
        self.id = item_id
        self.call_id = call_id
        self.name = name
        self.fragments: list[str] = []
        self.arguments: str | None = None
        """The whole argument text, once ``.done`` said the fragments are complete."""
        self.call: CourseToolCall | None = None
        self.open = True


@final
class SkippedItem:
    """An item the course IR does not carry and the adapter skips on purpose (``reasoning``)."""

    __slots__ = ("id", "open")

    def __init__(self, item_id: str) -> None:
        self.id = item_id
        self.open = True


OutputItem: TypeAlias = MessageItem | CallItem | SkippedItem
