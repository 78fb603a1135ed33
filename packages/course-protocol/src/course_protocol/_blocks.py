"""The blocks of an assistant message: text, Tool calls, reasoning, and tools the vendor runs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeAlias, cast, final

from course_protocol._checks import check_id, check_text, fail
from course_protocol._json import JsonObject, freeze_json_object_or_raise
from course_protocol._opaque import CourseOpaque, check_opaque, check_optional_opaque
from course_protocol.slots import slot_setter
from course_protocol.untrusted import sequence_snapshot, type_name

__all__ = [
    "CourseAssistantContent",
    "CourseReasoningBlock",
    "CourseTextBlock",
    "CourseToolCall",
    "CourseVendorToolBlock",
    "is_assistant_block_type",
]


_TextParts: TypeAlias = "str | tuple[str, tuple[CourseOpaque, ...], CourseOpaque | None]"


@final
@dataclass(frozen=True, slots=True, init=False, repr=False, match_args=False)
class CourseTextBlock:
    """A block of text: the assistant's answer, or text a user or a Tool result gives.

    ``citations`` are the vendor's citations or annotations on this text,
    each the vendor's own JSON tagged with its wire (a list or tuple, kept
    as a tuple; empty for none); ``opaque`` is data a wire keeps on a text
    part and needs back with it (Gemini's ``thoughtSignature``), or
    ``None``. Text in user content and in Tool results carries neither.

    Two blocks are equal when their text, citations and opaque are. The
    three are read as attributes; the block is built only by this
    constructor (``dataclasses.replace`` is not supported: build a new one).

    Raises ``CourseProtocolError`` unless ``text`` is a ``str`` (empty text
    is allowed), ``citations`` a list or tuple of exact ``CourseOpaque``
    values (path ``citations[i]``) and ``opaque`` a ``CourseOpaque`` or
    ``None``.
    """

    # One block per streamed text delta in some adapters, nearly all of them
    # plain text: one slot holds the text alone, or the text with its
    # citations and opaque when either is set, so the plain block costs one
    # slot write (each write costs about as much as the checks together).
    _parts: _TextParts

    __match_args__ = ("text", "citations", "opaque")

    def __init__(
        self,
        text: str,
        *,
        citations: tuple[CourseOpaque, ...] | list[CourseOpaque] = (),
        opaque: CourseOpaque | None = None,
    ) -> None:
        # The plain case (an exact str, the empty tuple, None) costs three
        # identity tests.
        if type(text) is not str:
            check_text(text, "text")
        if type(citations) is not tuple or citations or opaque is not None:
            checked = _checked_citations(citations)
            if opaque is not None:
                check_opaque(opaque, "opaque")
            if checked or opaque is not None:
                _set_text_parts(self, (text, checked, opaque))
                return
        _set_text_parts(self, text)

    @property
    def text(self) -> str:
        """The text itself (possibly empty)."""
        parts = self._parts
        return parts if isinstance(parts, str) else parts[0]

    @property
    def citations(self) -> tuple[CourseOpaque, ...]:
        """The vendor's citations or annotations on this text; empty for none."""
        parts = self._parts
        return () if isinstance(parts, str) else parts[1]

    @property
    def opaque(self) -> CourseOpaque | None:
        """The data this text's wire needs back with it, or ``None``."""
        parts = self._parts
        return None if isinstance(parts, str) else parts[2]

    def __repr__(self) -> str:
        return (
            f"CourseTextBlock(text={self.text!r}, citations={self.citations!r}, "
            f"opaque={self.opaque!r})"
        )


_set_text_parts = slot_setter(CourseTextBlock, "_parts")


def _checked_citations(value: object) -> tuple[CourseOpaque, ...]:
    items = sequence_snapshot(value)
    if items is None:
        fail("citations", f"must be a list or tuple, not {type_name(value)}")
    for index, item in enumerate(items):
        check_opaque(item, f"citations[{index}]")
    return cast("tuple[CourseOpaque, ...]", items)


@final
@dataclass(frozen=True, slots=True, init=False)
class CourseToolCall:
    """A complete Tool call the assistant asks for: an opaque id, a Tool name, JSON arguments.

    ``arguments`` may be any ``dict`` (a ``frozendict`` included) of JSON
    values; it is deep-snapshotted into a fresh ``frozendict`` (see
    ``freeze_json``). ``opaque`` is data the wire that produced the call
    needs back with it (Gemini's thought signature on a function call, a
    Responses item id), or ``None``. Raises ``CourseProtocolError`` when
    ``id`` or ``name`` is not a non-blank ``str``, when ``arguments`` is not
    a JSON object (the path names the bad part, e.g.
    ``arguments.items[3].x``), or when ``opaque`` is neither a
    ``CourseOpaque`` nor ``None``.
    """

    id: str
    name: str
    arguments: JsonObject
    opaque: CourseOpaque | None = None

    def __init__(
        self,
        id: str,
        name: str,
        arguments: Mapping[str, object],
        *,
        opaque: CourseOpaque | None = None,
    ) -> None:
        check_id(id, "id")
        check_id(name, "name")
        frozen = freeze_json_object_or_raise(arguments, "arguments")
        check_optional_opaque(opaque, "opaque")
        _set_call_id(self, id)
        _set_call_name(self, name)
        _set_arguments(self, frozen)
        _set_call_opaque(self, opaque)


_set_call_id = slot_setter(CourseToolCall, "id")
_set_call_name = slot_setter(CourseToolCall, "name")
_set_arguments = slot_setter(CourseToolCall, "arguments")
_set_call_opaque = slot_setter(CourseToolCall, "opaque")


@final
@dataclass(frozen=True, slots=True, init=False)
class CourseReasoningBlock:
    """The assistant's reasoning: readable text (or a summary), and what its wire needs back.

    ``text`` is what the vendor let the loop read, possibly empty (a
    redacted thinking block has no readable text); it is never answer text
    (``text_from_assistant`` skips it). ``opaque`` is the payload that lets
    the wire that produced the reasoning accept it back (Anthropic's
    signature or redacted data, an OpenAI reasoning item with its
    ``encrypted_content``, Gemini's thought signature), or ``None``.

    Raises ``CourseProtocolError`` unless ``text`` is a ``str`` and
    ``opaque`` a ``CourseOpaque`` or ``None``.
    """

    text: str
    opaque: CourseOpaque | None = None

    def __init__(self, text: str, *, opaque: CourseOpaque | None = None) -> None:
        check_text(text, "text")
        check_optional_opaque(opaque, "opaque")
        _set_reasoning_text(self, text)
        _set_reasoning_opaque(self, opaque)


_set_reasoning_text = slot_setter(CourseReasoningBlock, "text")
_set_reasoning_opaque = slot_setter(CourseReasoningBlock, "opaque")


@final
@dataclass(frozen=True, slots=True, init=False)
class CourseVendorToolBlock:
    """A tool the vendor itself runs: its call or its result, kept as the vendor sent it.

    ``kind`` is the vendor's own type name for the block (``server_tool_use``,
    ``web_search_tool_result``, ``web_search_call``, ``executableCode``);
    ``opaque`` holds the block itself, tagged with the wire that produced
    it, so a loop sends it back as that vendor requires. The loop does not
    answer it: the vendor already ran the tool (a Tool-call block is what a
    loop answers).

    Raises ``CourseProtocolError`` when ``kind`` is not a non-blank ``str``
    or ``opaque`` is not exactly a ``CourseOpaque``.
    """

    kind: str
    opaque: CourseOpaque

    def __init__(self, kind: str, opaque: CourseOpaque) -> None:
        check_id(kind, "kind")
        check_opaque(opaque, "opaque")
        _set_vendor_kind(self, kind)
        _set_vendor_opaque(self, opaque)


_set_vendor_kind = slot_setter(CourseVendorToolBlock, "kind")
_set_vendor_opaque = slot_setter(CourseVendorToolBlock, "opaque")


CourseAssistantContent: TypeAlias = (
    CourseTextBlock | CourseToolCall | CourseReasoningBlock | CourseVendorToolBlock
)
"""One block of an assistant message: text, a Tool call, reasoning, or a tool the vendor ran."""


def is_assistant_block_type(kind: type) -> bool:
    """Whether ``kind`` is exactly one of the assistant block types (``is``, never ``==``)."""
    return (
        kind is CourseTextBlock
        or kind is CourseToolCall
        or kind is CourseReasoningBlock
        or kind is CourseVendorToolBlock
    )
