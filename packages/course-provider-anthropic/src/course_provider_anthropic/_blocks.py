"""Content blocks while they stream: what each kind of block accepts, and what it becomes."""

from __future__ import annotations

from typing import Any, NoReturn, final

from course_http import VendorErrorCode
from course_protocol.untrusted import ABSENT, described, shown
from course_provider_anthropic import _wire
from course_provider_anthropic._reads import fail, fail_invalid, invalid, text_at
from course_vendor import TextPieces

__all__ = ["OpenBlock", "open_block", "refuse_delta"]

_NO_DELTA = object()
"""The streamed delta type of a block that streams no kept text: equal to no decoded value."""

_KNOWN_DELTAS = frozenset(
    {
        _wire.TEXT_DELTA,
        _wire.INPUT_JSON_DELTA,
        _wire.THINKING_DELTA,
        _wire.SIGNATURE_DELTA,
        _wire.CITATIONS_DELTA,
    }
)


@final
class OpenBlock:
    """One content block between its ``content_block_start`` and its ``content_block_stop``.

    ``delta_type``/``delta_key`` name the one delta whose text the block keeps
    (``text_delta.text``, ``input_json_delta.partial_json``); ``parts`` holds
    those pieces in order, joined once at the stop. ``emits`` says whether
    each piece is also a course text chunk. Thinking blocks keep nothing.
    """

    __slots__ = ("delta_key", "delta_type", "emits", "kind", "name", "parts", "tool_id")

    def __init__(
        self,
        kind: str,
        delta_type: object,
        delta_key: str,
        *,
        emits: bool,
        tool_id: str = "",
        name: str = "",
    ) -> None:
        self.kind = kind
        self.delta_type = delta_type
        self.delta_key = delta_key
        self.emits = emits
        self.tool_id = tool_id
        self.name = name
        self.parts = TextPieces()


def _refuse_kind(code: VendorErrorCode, kind: str, reason: str, index: int) -> NoReturn:
    fail(code, index, f"content block type {shown(kind)!r} {reason}", vendor_type=kind)


def open_block(block: dict[str, Any], index: int) -> OpenBlock:
    """The state of the block a ``content_block_start`` opens, from its ``content_block``.

    Text keeps ``text_delta`` pieces (its initial ``text`` is the first
    piece); ``tool_use`` keeps ``input_json_delta`` fragments and must start
    with the ``input: {}`` placeholder; ``thinking`` and ``redacted_thinking``
    keep nothing (skipped on purpose). Raises `VendorError`:
    ``VENDOR_UNSUPPORTED_CONTENT`` for a server-tool block,
    ``VENDOR_UNKNOWN_EVENT`` for a block type this parser does not know,
    ``VENDOR_INVALID_EVENT`` for a field of the wrong type.
    """
    kind = block.get(_wire.TYPE_KEY, ABSENT)
    if type(kind) is not str:
        invalid(index, _path(_wire.TYPE_KEY), "a string", kind)
    if kind == _wire.TEXT:
        opened = OpenBlock(kind, _wire.TEXT_DELTA, _wire.TEXT_KEY, emits=True)
        initial = text_at(block, _wire.TEXT_KEY, index, parent=_wire.CONTENT_BLOCK_KEY)
        if initial:
            opened.parts.append(initial)
        return opened
    if kind == _wire.TOOL_USE:
        call_id = text_at(
            block, _wire.ID_KEY, index, parent=_wire.CONTENT_BLOCK_KEY, non_blank=True
        )
        name = text_at(block, _wire.NAME_KEY, index, parent=_wire.CONTENT_BLOCK_KEY, non_blank=True)
        placeholder = block.get(_wire.INPUT_KEY, ABSENT)
        # A streamed tool_use carries its arguments in input_json_delta
        # fragments only; anything but {} here would be a second, conflicting source.
        if type(placeholder) is not dict or placeholder:
            got = "a non-empty object" if type(placeholder) is dict else described(placeholder)
            fail_invalid(
                f"{_path(_wire.INPUT_KEY)} must be the empty object of a streamed "
                f"{_wire.TOOL_USE} block, got {got}",
                index,
            )
        return OpenBlock(
            kind,
            _wire.INPUT_JSON_DELTA,
            _wire.PARTIAL_JSON_KEY,
            emits=False,
            tool_id=call_id,
            name=name,
        )
    if kind == _wire.THINKING or kind == _wire.REDACTED_THINKING:
        return OpenBlock(kind, _NO_DELTA, "", emits=False)
    if kind in _wire.SERVER_TOOL_BLOCKS:
        _refuse_kind(
            VendorErrorCode.VENDOR_UNSUPPORTED_CONTENT,
            kind,
            "is a Tool the vendor runs itself; the course protocol cannot carry it",
            index,
        )
    _refuse_kind(VendorErrorCode.VENDOR_UNKNOWN_EVENT, kind, "is not a known block type", index)


def refuse_delta(block: OpenBlock, delta: dict[str, Any], index: int) -> None:
    """Accept a delta that keeps nothing, or raise why ``delta`` does not fit ``block``.

    Called for every delta the fast path did not take: thinking and signature
    deltas of a thinking block and citations of a text block are skipped on
    purpose (returns ``None``). Raises `VendorError` ``VENDOR_INVALID_EVENT``
    for a payload of the wrong type or a known delta type that does not fit
    the block, ``VENDOR_UNKNOWN_EVENT`` for an unknown delta type.
    """
    kind = delta.get(_wire.TYPE_KEY, ABSENT)
    if type(kind) is not str:
        invalid(index, f"{_wire.DELTA_KEY}.{_wire.TYPE_KEY}", "a string", kind)
    if kind == block.delta_type:
        fail_invalid(
            f"{_wire.DELTA_KEY}.{block.delta_key} must be a string, "
            f"got {described(delta.get(block.delta_key, ABSENT))}",
            index,
        )
    payload_key = _skipped_payload(block.kind, kind)
    if payload_key is not None:
        payload = delta.get(payload_key, ABSENT)
        wanted = dict if kind == _wire.CITATIONS_DELTA else str
        if type(payload) is not wanted:
            fail_invalid(
                f"{_wire.DELTA_KEY}.{payload_key} must be "
                + ("an object" if wanted is dict else "a string")
                + f", got {described(payload)}",
                index,
            )
        return
    if kind in _KNOWN_DELTAS:
        fail_invalid(f"delta type {kind} does not fit a {block.kind} block", index)
    fail(
        VendorErrorCode.VENDOR_UNKNOWN_EVENT,
        index,
        f"{_wire.DELTA_KEY}.{_wire.TYPE_KEY} {shown(kind)!r} is not a known delta type",
        vendor_type=kind,
    )


def _skipped_payload(block_kind: str, delta_kind: str) -> str | None:
    """The payload key of a delta the block skips on purpose, or ``None`` if it keeps none."""
    if block_kind == _wire.THINKING:
        if delta_kind == _wire.THINKING_DELTA:
            return _wire.THINKING_KEY
        if delta_kind == _wire.SIGNATURE_DELTA:
            return _wire.SIGNATURE_KEY
    if block_kind == _wire.TEXT and delta_kind == _wire.CITATIONS_DELTA:
        return _wire.CITATION_KEY
    return None


def _path(key: str) -> str:
    return f"{_wire.CONTENT_BLOCK_KEY}.{key}"
