"""The content parts of a Responses item, from ``content_part.added`` to ``.done``.

A message holds ``output_text`` and ``refusal`` parts, a reasoning item
``reasoning_text`` parts, each keyed by ``content_index`` and added in
order, empty: its text streams in deltas, is repeated whole by its text's
``.done`` event and again by the part's ``done``, each time exactly. An
output text also streams its annotations (citations, numbered from 0) and,
when asked for, its logprobs. Each function handles one event type over the
stream's `OutputItems` and raises `VendorError` with the first thing wrong.
"""

from __future__ import annotations

from typing import Any, Final

from course_http import VendorErrorCode
from course_protocol.untrusted import shown
from course_provider_openai._failures import OpenAIFailures
from course_provider_openai._responses_envelopes import INTEGER, STRING, Fields, check_fields
from course_provider_openai._responses_items import OutputItems, open_entry
from course_provider_openai._responses_states import MessageState, ReasoningState, TextPart

__all__ = [
    "ANNOTATIONS",
    "annotation_added",
    "close_part",
    "output_text_delta",
    "output_text_done",
    "part_added",
    "part_done",
    "refusal_delta",
    "refusal_done",
    "stream_delta",
    "stream_done",
]

_Code = VendorErrorCode

_TEXT_KEYS: Final = {
    "output_text": "text",
    "refusal": "refusal",
    "reasoning_text": "text",
    "summary_text": "text",
}
"""Each part type, and the key its whole text is repeated under."""

ANNOTATIONS: Final[dict[str, Fields]] = {
    "url_citation": (("url", STRING), ("start_index", INTEGER), ("end_index", INTEGER)),
    "file_citation": (("file_id", STRING), ("index", INTEGER)),
    "container_file_citation": (
        ("container_id", STRING),
        ("file_id", STRING),
        ("start_index", INTEGER),
        ("end_index", INTEGER),
    ),
    "file_path": (("file_id", STRING), ("index", INTEGER)),
}
"""Each annotation type the vendor documents, and the fields every one holds."""


def _parts_of(
    items: OutputItems, data: dict[str, Any], index: int
) -> tuple[list[TextPart], tuple[str, ...]]:
    """The parts list of the item a part event names, and the part types it may hold."""
    item = items.current(data.get("output_index"), index)
    if type(item) is ReasoningState:
        return items.open_item(data, index, ReasoningState).content, ("reasoning_text",)
    return items.open_item(data, index, MessageState).parts, ("output_text", "refusal")


def part_added(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """``response.content_part.added``: the next part of a message or a reasoning item, empty."""
    parts, kinds = _parts_of(items, data, index)
    position = data.get("content_index")
    if position != len(parts) or type(position) is not int:
        if type(position) is not int:
            items.failures.invalid(index, "content_index", "an integer", position)
        items.failures.fail(
            _Code.VENDOR_EVENT_ORDER, index, f"adds content part {position}, not {len(parts)}"
        )
    part = items.failures.object_at(data, "part", index)
    kind = items.failures.text_at(part, "type", index, parent="part")
    if kind not in kinds:
        if kind in _TEXT_KEYS:
            items.failures.fail(_Code.VENDOR_EVENT_ORDER, index, f"a {kind!r} part in this item")
        items.failures.fail(
            _Code.VENDOR_UNKNOWN_EVENT, index, f"part.type {shown(kind)!r} is not one it knows"
        )
    key = _TEXT_KEYS[kind]
    if items.failures.text_at(part, key, index, parent="part"):
        items.failures.fail(
            _Code.VENDOR_INVALID_EVENT,
            index,
            f"part.{key} is not empty: its text streams in deltas",
        )
    if kind == "output_text":
        _annotations_list(items.failures, part, index, "part")
    parts.append(TextPart(kind))


def part_done(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """``response.content_part.done``: the part repeats its whole text and closes."""
    parts, _ = _parts_of(items, data, index)
    part = open_entry(
        items.failures, parts, data.get("content_index"), "content_index", "content part", index
    )
    close_part(items.failures, part, items.failures.object_at(data, "part", index), index, "part")


def close_part(
    failures: OpenAIFailures, part: TextPart, repeated: dict[str, Any], index: int, path: str
) -> None:
    """Close ``part`` with ``repeated``, the part as its ``done`` (at ``path``) repeats it.

    Raises ``VENDOR_INVALID_EVENT`` when ``repeated`` is of another type or
    its text is not the part's.
    """
    kind = repeated.get("type")
    if kind != part.kind:
        failures.fail(_Code.VENDOR_INVALID_EVENT, index, f"{path}.type is not {part.kind!r}")
    key = _TEXT_KEYS[part.kind]
    text = failures.text_at(repeated, key, index, parent=path)
    if part.text is None:
        if not part.close_with(text):
            failures.fail(
                _Code.VENDOR_INVALID_EVENT, index, f"{path}.{key} is not the deltas joined"
            )
    elif text != part.text:
        failures.fail(_Code.VENDOR_INVALID_EVENT, index, f"{path}.{key} is not the part's text")
    if part.kind == "output_text":
        _annotations_list(failures, repeated, index, path)
    part.open = False


def _annotations_list(
    failures: OpenAIFailures, part: dict[str, Any], index: int, path: str
) -> None:
    annotations = part.get("annotations")
    if type(annotations) is not list:
        failures.invalid(index, f"{path}.annotations", "an array", annotations)


def stream_delta(
    failures: OpenAIFailures, part: TextPart, data: dict[str, Any], index: int, done_type: str
) -> None:
    """Add ``data``'s ``delta`` to ``part``, which must still stream (before ``done_type``)."""
    if part.text is not None:
        failures.fail(_Code.VENDOR_EVENT_ORDER, index, f"follows {done_type}")
    part.fragments.append(failures.text_at(data, "delta", index))


def stream_done(
    failures: OpenAIFailures, part: TextPart, data: dict[str, Any], key: str, index: int
) -> None:
    """Close ``part``'s text with ``data[key]``, which must be its deltas joined; once only."""
    if part.text is not None:
        failures.fail(_Code.VENDOR_EVENT_ORDER, index, f"a second {data.get('type')}")
    if not part.close_with(failures.text_at(data, key, index)):
        failures.fail(_Code.VENDOR_INVALID_EVENT, index, f"{key} is not the deltas joined")


def _message_part(items: OutputItems, data: dict[str, Any], index: int, kind: str) -> TextPart:
    item = items.open_item(data, index, MessageState)
    part = open_entry(
        items.failures,
        item.parts,
        data.get("content_index"),
        "content_index",
        "content part",
        index,
    )
    if part.kind != kind:
        items.failures.fail(
            _Code.VENDOR_EVENT_ORDER, index, f"{data.get('type')!r} in a {part.kind!r} part"
        )
    return part


def output_text_delta(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """``response.output_text.delta``: more text, and its logprobs when it has some."""
    # The dominant event, a text delta for the open text part, takes the short
    # path; anything else, failures included, the checked one below.
    part = items.streaming_part(data)
    if part is not None:
        delta = data.get("delta")
        logprobs = data.get("logprobs")
        if type(delta) is str and (logprobs is None or logprobs == []):
            part.fragments.append(delta)
            return
    part = _message_part(items, data, index, "output_text")
    stream_delta(items.failures, part, data, index, "response.output_text.done")
    _logprobs(items.failures, part, data, index)


def output_text_done(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """``response.output_text.done``: its ``text`` must be the deltas joined."""
    part = _message_part(items, data, index, "output_text")
    stream_done(items.failures, part, data, "text", index)
    logprobs = data.get("logprobs")
    if logprobs is not None and type(logprobs) is not list:
        items.failures.invalid(index, "logprobs", "an array", logprobs)


def _logprobs(failures: OpenAIFailures, part: TextPart, data: dict[str, Any], index: int) -> None:
    logprobs = data.get("logprobs")
    if logprobs is None:
        return
    if type(logprobs) is not list:
        failures.invalid(index, "logprobs", "an array", logprobs)
    for position, logprob in enumerate(logprobs):
        path = f"logprobs[{position}]"
        if type(logprob) is not dict:
            failures.invalid(index, path, "an object", logprob)
        failures.text_at(logprob, "token", index, parent=path)
        number = logprob.get("logprob")
        if type(number) is not float and type(number) is not int:
            failures.invalid(index, f"{path}.logprob", "a number", number)
        if part.logprobs is None:
            part.logprobs = []
        part.logprobs.append(failures.frozen_object(logprob, index, path))


def annotation_added(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """``response.output_text.annotation.added``: the part's next annotation, checked and kept."""
    part = _message_part(items, data, index, "output_text")
    annotations = part.annotations if part.annotations is not None else []
    position = data.get("annotation_index")
    if position != len(annotations) or type(position) is not int:
        if type(position) is not int:
            items.failures.invalid(index, "annotation_index", "an integer", position)
        items.failures.fail(
            _Code.VENDOR_EVENT_ORDER, index, f"adds annotation {position}, not {len(annotations)}"
        )
    annotation = data.get("annotation")
    if annotation is None:
        annotations.append(None)
    else:
        if type(annotation) is not dict:
            items.failures.invalid(index, "annotation", "an object", annotation)
        kind = items.failures.text_at(annotation, "type", index, parent="annotation")
        fields = ANNOTATIONS.get(kind)
        if fields is None:
            items.failures.fail(
                _Code.VENDOR_UNKNOWN_EVENT,
                index,
                f"annotation.type {shown(kind)!r} is not one it knows",
            )
        check_fields(
            items.failures, fields, annotation, index, "annotation", f"{kind!r} annotation"
        )
        annotations.append(items.failures.frozen_object(annotation, index, "annotation"))
    part.annotations = annotations


def refusal_delta(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """``response.refusal.delta``: more refusal text."""
    part = _message_part(items, data, index, "refusal")
    stream_delta(items.failures, part, data, index, "response.refusal.done")


def refusal_done(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """``response.refusal.done``: its ``refusal`` must be the deltas joined."""
    stream_done(
        items.failures, _message_part(items, data, index, "refusal"), data, "refusal", index
    )
