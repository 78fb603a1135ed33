"""The output items of one Responses stream, from added to done, and what repeats them.

Items are keyed by ``output_index`` and added in order, each of a kind the
vendor documents (`ENVELOPES`). Its ``done`` repeats it whole: the same
type and id, the envelope of its kind, and exactly what streamed (a
message's part texts, a call's arguments, a tool's text). The terminal's
``output`` may repeat every item again; `check_terminal_output` holds it to
the same agreement (the rule of the package README, "A terminal that
repeats the stream"). Each function works on the stream's `OutputItems` and
raises `VendorError` with the first thing wrong.
"""

from __future__ import annotations

from typing import Any

from course_http import VendorErrorCode
from course_protocol.untrusted import shown
from course_provider_openai._failures import OpenAIFailures
from course_provider_openai._responses_calls import complete_call
from course_provider_openai._responses_envelopes import ENVELOPES, check_envelope
from course_provider_openai._responses_items import OutputItems
from course_provider_openai._responses_states import (
    CallState,
    ItemState,
    MessageState,
    ReasoningState,
    TextPart,
    ToolState,
    kind_of,
)
from course_provider_openai._responses_tools import STREAMED_TEXT

__all__ = ["check_terminal_output", "item_added", "item_done"]

_Code = VendorErrorCode


def _optional_text(
    failures: OpenAIFailures, item: dict[str, Any], key: str, index: int
) -> str | None:
    value = item.get(key)
    if value is not None and type(value) is not str:
        failures.invalid(index, f"item.{key}", "a string", value)
    return value


def item_added(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """``response.output_item.added``: the next item, of a kind the vendor documents.

    Raises ``VENDOR_EVENT_ORDER`` for an item out of order or a message
    added with parts, ``VENDOR_UNKNOWN_EVENT`` for an item type the vendor
    does not document, ``VENDOR_INVALID_EVENT`` for a field of the wrong type
    or a function call whose ``call_id`` an earlier call of the response has.
    """
    position = data.get("output_index")
    if position != len(items) or type(position) is not int:
        if type(position) is not int:
            items.failures.invalid(index, "output_index", "an integer", position)
        items.failures.fail(
            _Code.VENDOR_EVENT_ORDER, index, f"adds output item {position}, not {len(items)}"
        )
    item = items.failures.object_at(data, "item", index)
    kind = items.failures.text_at(item, "type", index, parent="item")
    if kind not in ENVELOPES:
        items.failures.fail(
            _Code.VENDOR_UNKNOWN_EVENT, index, f"item.type {shown(kind)!r} is not one it knows"
        )
    item_id = items.failures.text_at(item, "id", index, parent="item", non_blank=True)
    status = _optional_text(items.failures, item, "status", index)
    state: ItemState
    if kind == "message":
        if item.get("role") != "assistant":
            items.failures.invalid(index, "item.role", "'assistant'", item.get("role"))
        content = item.get("content", [])
        if type(content) is not list:
            items.failures.invalid(index, "item.content", "an array", content)
        if content:
            items.failures.fail(_Code.VENDOR_EVENT_ORDER, index, "a message is added with parts")
        state = MessageState(item_id, status, _optional_text(items.failures, item, "phase", index))
    elif kind == "function_call":
        call_id = items.failures.text_at(item, "call_id", index, parent="item", non_blank=True)
        name = items.failures.text_at(item, "name", index, parent="item", non_blank=True)
        items.call_ids.claim(call_id, index, "item.call_id")
        state = CallState(
            item_id, call_id, name, _optional_text(items.failures, item, "namespace", index)
        )
        state.fragments.append(_optional_text(items.failures, item, "arguments", index) or "")
    elif kind == "reasoning":
        state = ReasoningState(
            item_id, _optional_text(items.failures, item, "encrypted_content", index)
        )
    else:
        state = ToolState(kind, item_id, items.failures.frozen_object(item, index, "item"))
        key = STREAMED_TEXT.get(kind)
        if key is not None:
            first = _optional_text(items.failures, item, key, index)
            if first:
                state.text = TextPart(kind, first)
    items.append(state)


def item_done(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """``response.output_item.done``: the item repeats what streamed, and closes.

    A function call whose arguments had no ``.done`` completes here. Raises
    ``VENDOR_INVALID_EVENT`` when the item's type, id or envelope is off or
    it disagrees with what streamed, ``VENDOR_EVENT_ORDER`` when one of its
    parts (or commands, or outputs) is still open, and what `complete_call`
    raises.
    """
    position = data.get("output_index")
    item = items.current(position, index)
    done = items.failures.object_at(data, "item", index)
    _same_item(items.failures, item, done, index, "item", _Code.VENDOR_INVALID_EVENT)
    check_envelope(items.failures, kind_of(item), done, index, "item")
    if type(item) is MessageState:
        _all_closed(items.failures, item.parts, "part", index)
        item.status = done["status"]
        item.phase = _optional_text(items.failures, done, "phase", index)
    elif type(item) is CallState:
        if item.arguments_text is None:
            complete_call(
                items.failures, item, done["arguments"], position, index, "item.arguments"
            )
    elif type(item) is ReasoningState:
        _all_closed(items.failures, item.summary, "summary part", index)
        _all_closed(items.failures, item.content, "content part", index)
        item.encrypted_content = _optional_text(items.failures, done, "encrypted_content", index)
    elif type(item) is ToolState:
        _all_closed(items.failures, item.commands, "command", index)
        if any(item.outputs):
            items.failures.fail(_Code.VENDOR_EVENT_ORDER, index, "a command's output is still open")
        if item.text is not None and item.text.text is None:
            key = STREAMED_TEXT[item.kind]
            if not item.text.close_with(items.failures.text_at(done, key, index, parent="item")):
                items.failures.fail(
                    _Code.VENDOR_INVALID_EVENT, index, f"item.{key} is not the deltas joined"
                )
        item.item = items.failures.frozen_object(done, index, "item")
    disagreement = _disagreement(item, done)
    if disagreement is not None:
        items.failures.fail(_Code.VENDOR_INVALID_EVENT, index, f"item {disagreement}")
    item.open = False


def _all_closed(failures: OpenAIFailures, parts: list[TextPart], what: str, index: int) -> None:
    for position, part in enumerate(parts):
        if part.open:
            failures.fail(_Code.VENDOR_EVENT_ORDER, index, f"its {what} {position} is still open")


def _same_item(
    failures: OpenAIFailures,
    item: ItemState,
    repeated: dict[str, Any],
    index: int,
    path: str,
    code: VendorErrorCode,
) -> None:
    kind = kind_of(item)
    if repeated.get("type") != kind or repeated.get("id") != item.id:
        failures.fail(code, index, f"{path} is not the {kind!r} item {item.id!r} that streamed")


def _texts_differ(parts: list[TextPart], repeated: object, key: str) -> str | None:
    """Why the repeated parts list differs from the streamed ``parts``, or ``None``."""
    if type(repeated) is not list:
        return f"{key} is not an array"
    if len(repeated) != len(parts):
        return f"{key} holds {len(repeated)} part(s), the stream {len(parts)}"
    for position, (part, again) in enumerate(zip(parts, repeated, strict=True)):
        text_key = "refusal" if part.kind == "refusal" else "text"
        if type(again) is not dict or again.get("type") != part.kind:
            return f"{key}[{position}] is not a {part.kind!r} part"
        if again.get(text_key) != part.text:
            return f"{key}[{position}].{text_key} is not the streamed text"
    return None


def _disagreement(item: ItemState, repeated: dict[str, Any]) -> str | None:
    """Why ``repeated`` (the item again, once done) disagrees with what streamed, or ``None``."""
    if type(item) is MessageState:
        return _texts_differ(item.parts, repeated.get("content"), "content")
    if type(item) is CallState:
        if repeated.get("call_id") != item.call_id or repeated.get("name") != item.name:
            return "changed the call's call_id or name"
        if repeated.get("arguments") != item.arguments_text:
            return "arguments are not the call's arguments"
        return None
    if type(item) is ReasoningState:
        differs = None
        if item.summary:
            differs = _texts_differ(item.summary, repeated.get("summary"), "summary")
        if differs is None and item.content:
            differs = _texts_differ(item.content, repeated.get("content"), "content")
        return differs
    if type(item) is ToolState and item.text is not None:
        key = STREAMED_TEXT[item.kind]
        if repeated.get(key) != item.text.text:
            return f"{key} is not the streamed {key}"
    return None


def check_terminal_output(items: OutputItems, output: object, index: int) -> None:
    """The terminal's ``response.output`` (``output``, of event ``index``) agrees with the stream.

    Absent, ``null`` or empty, it repeats nothing and the streamed items
    stand. Listed, it must list every streamed item in order, each as its
    ``done`` repeated it: ``VENDOR_INVALID_TERMINAL`` when the count, a type,
    an id or a streamed text differs; ``VENDOR_INVALID_EVENT`` when
    ``output`` is not an array or an item's envelope is off. An item the
    stream left open (``response.incomplete``, ``response.failed``) is held
    to its type and id only.
    """
    if output is None:
        return
    if type(output) is not list:
        items.failures.invalid(index, "response.output", "an array", output)
    if not output:
        return
    if len(output) != len(items):
        items.failures.fail(
            _Code.VENDOR_INVALID_TERMINAL,
            index,
            f"response.output lists {len(output)} item(s), the stream {len(items)}",
        )
    for position, repeated in enumerate(output):
        path = f"response.output[{position}]"
        if type(repeated) is not dict:
            items.failures.invalid(index, path, "an object", repeated)
        item = items[position]
        _same_item(items.failures, item, repeated, index, path, _Code.VENDOR_INVALID_TERMINAL)
        if item.open:
            continue
        check_envelope(items.failures, kind_of(item), repeated, index, path)
        disagreement = _disagreement(item, repeated)
        if disagreement is not None:
            items.failures.fail(_Code.VENDOR_INVALID_TERMINAL, index, f"{path} {disagreement}")
