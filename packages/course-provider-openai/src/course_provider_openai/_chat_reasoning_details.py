"""OpenRouter's ``reasoning_details``, read from each delta and joined as its own client joins them.

OpenRouter streams one reasoning block as many ``reasoning.text`` details,
each a few characters of text with the block's ``index`` (and ``format``,
``id``, and at the end the ``signature``), beside ``reasoning.summary`` and
``reasoning.encrypted`` details. What a loop sends back is the block, not its
fragments: OpenRouter's own AI SDK provider joins consecutive text details
into one before it sends them back. `ReasoningDetails` does the same, more
carefully: a text detail joins the one before only when it has the same
``index``, no ``id`` or ``format`` of its own that differs, nothing beyond
the six documented fields, and the one before has no ``signature`` yet (a
signature closes its block). Anything else is kept as it came, frozen.
Joining as they stream keeps one detail per block instead of one per delta.
"""

from __future__ import annotations

from typing import Any, Final, NoReturn, final

from course_http import VendorErrorCode
from course_protocol import JsonObject, freeze_json_object
from course_protocol.untrusted import ABSENT, shown
from course_provider_openai._chat_reads import choice_path
from course_provider_openai._failures import OpenAIFailures
from course_vendor import TextPieces

__all__ = ["ReasoningDetails"]

_TEXT: Final = "reasoning.text"
_DETAIL_TYPES: Final = frozenset({_TEXT, "reasoning.summary", "reasoning.encrypted"})
_TEXT_FIELDS: Final = frozenset({"type", "text", "signature", "id", "format", "index"})


@final
class _TextDetail:
    """A ``reasoning.text`` detail being joined: its fields in first-seen order, its text."""

    __slots__ = ("fields", "index", "text")

    def __init__(self, detail: dict[str, Any]) -> None:
        self.fields: dict[str, object] = dict(detail)
        self.index = detail.get("index", ABSENT)
        self.text = TextPieces()
        self.text.append(detail.get("text") or "")

    def frozen(self) -> JsonObject:
        fields = dict(self.fields)
        if self.text:
            # Where the first fragment had no text (null or none), the joined text
            # takes its place, or comes last.
            fields["text"] = self.text.joined()
        return freeze_json_object(fields).unwrap()


@final
class ReasoningDetails:
    """One choice's ``reasoning_details`` so far; `kept` is them, text fragments joined."""

    __slots__ = ("_failures", "_joining", "_kept")

    def __init__(self, failures: OpenAIFailures) -> None:
        self._failures = failures
        self._kept: list[JsonObject] = []
        self._joining: _TextDetail | None = None

    def read(self, details: object, index: int, position: int) -> None:
        """Read ``choices[position].delta.reasoning_details`` of event ``index``.

        Raises ``VENDOR_INVALID_EVENT`` naming the path for details that
        are not an array of objects, a detail without a text ``type``, a
        text detail whose ``text``, ``signature``, ``id`` or ``format`` is
        neither text nor null or whose ``index`` is not a non-negative
        integer, and a detail that is not JSON; ``VENDOR_UNKNOWN_EVENT`` for
        a ``type`` OpenRouter does not document.
        """
        failures = self._failures
        if type(details) is not list:
            failures.invalid(index, _path(position), "an array or null", details)
        for number, detail in enumerate(details):
            if type(detail) is not dict:
                failures.invalid(index, _path(position, number), "an object", detail)
            if detail.get("type") == _TEXT:
                self._text(
                    detail, index, position, number, documented=detail.keys() <= _TEXT_FIELDS
                )
                continue
            at = _path(position, number)
            kind = failures.text_at(detail, "type", index, parent=at)
            if kind not in _DETAIL_TYPES:
                failures.fail(
                    VendorErrorCode.VENDOR_UNKNOWN_EVENT,
                    index,
                    f"{at}.type {shown(kind)!r} is not a reasoning detail OpenRouter documents",
                )
            self._close()
            self._kept.append(failures.frozen_object(detail, index, at))

    def kept(self) -> tuple[JsonObject, ...]:
        """Every detail so far, in order, frozen: consecutive text fragments of a block joined."""
        if self._joining is None:
            return tuple(self._kept)
        return (*self._kept, self._joining.frozen())

    def _close(self) -> None:
        if self._joining is not None:
            self._kept.append(self._joining.frozen())
            self._joining = None

    def _text(
        self, detail: dict[str, Any], index: int, position: int, number: int, *, documented: bool
    ) -> None:
        """Check a text detail's six fields; join it to the block before if it continues it.

        Only a detail of the six fields alone (``documented``) joins or is
        joined; one with more is kept whole, frozen. It continues the block
        unless the block has its signature, the ``index`` differs, or a field
        both have (non-null) differs; a field only it has (or has non-null) is
        taken into the block. One pass over its fields does both.
        """
        joining = self._joining
        fields: dict[str, object] = {} if joining is None else joining.fields
        joins = (
            documented
            and joining is not None
            and fields.get("signature") is None
            and detail.get("index", ABSENT) == joining.index
        )
        taken: list[str] | None = None
        for name, value in detail.items():
            if name == "index":
                if type(value) is not int or value < 0:
                    self._wrong(index, position, number, name, "a non-negative integer", value)
            elif value is not None and type(value) is not str:
                if name in _TEXT_FIELDS:  # a field beyond the six may hold anything
                    self._wrong(index, position, number, name, "a string or null", value)
            elif joins and name != "text" and name != "type":
                mine = fields.get(name, ABSENT)
                if mine is None or mine is ABSENT:
                    if value is not None or mine is ABSENT:
                        taken = [name] if taken is None else [*taken, name]
                elif value is not None and value != mine:
                    joins = False
        if not joins:
            self._close()
            if documented:
                self._joining = _TextDetail(detail)
            else:
                at = _path(position, number)
                self._kept.append(self._failures.frozen_object(detail, index, at))
            return
        assert joining is not None  # joins only onto a block
        joining.text.append(detail.get("text") or "")
        if taken is not None:
            for name in taken:
                fields[name] = detail[name]

    def _wrong(
        self, index: int, position: int, number: int, name: str, expected: str, value: object
    ) -> NoReturn:
        self._failures.invalid(index, f"{_path(position, number)}.{name}", expected, value)


def _path(position: int, number: int | None = None) -> str:
    path = choice_path(position, "delta", "reasoning_details")
    return path if number is None else f"{path}[{number}]"
