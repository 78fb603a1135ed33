"""The function calls of a Responses stream: argument fragments kept, joined and parsed once.

A ``function_call`` item streams its arguments in
``response.function_call_arguments.delta`` fragments, kept per item and
never parsed on the way; the call is complete at ``.arguments.done`` (or at
the item's ``done`` when that event is missing), where the text must equal
the fragments joined and parse to a JSON object. Each function handles one
event type over the stream's `OutputItems` and raises `VendorError` with
the first thing wrong.
"""

from __future__ import annotations

from typing import Any

from course_http import VendorErrorCode
from course_provider_openai._failures import OpenAIFailures
from course_provider_openai._responses_items import OutputItems
from course_provider_openai._responses_states import CallState
from course_vendor import TextPieces
from course_vendor import tool_arguments as parse_arguments

__all__ = ["arguments_delta", "arguments_done", "complete_call"]


def arguments_delta(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """``response.function_call_arguments.delta``: one more fragment, never parsed here."""
    # The short path for the dominant case, as for text deltas.
    item = items.streaming_call(data)
    if item is not None:
        delta = data.get("delta")
        if type(delta) is str:
            item.fragments.append(delta)
            return
    _checked_arguments_delta(items, data, index)


def _checked_arguments_delta(items: OutputItems, data: dict[str, Any], index: int) -> None:
    item = items.open_item(data, index, CallState)
    if item.arguments_text is not None:
        items.failures.fail(
            VendorErrorCode.VENDOR_EVENT_ORDER,
            index,
            "follows response.function_call_arguments.done",
        )
    item.fragments.append(items.failures.text_at(data, "delta", index))


def arguments_done(items: OutputItems, data: dict[str, Any], index: int) -> None:
    """``response.function_call_arguments.done``: the call is complete, its arguments parsed."""
    item = items.open_item(data, index, CallState)
    if item.arguments_text is not None:
        items.failures.fail(
            VendorErrorCode.VENDOR_EVENT_ORDER,
            index,
            "a second response.function_call_arguments.done",
        )
    complete_call(
        items.failures, item, data.get("arguments"), data.get("output_index"), index, "arguments"
    )


def complete_call(
    failures: OpenAIFailures,
    item: CallState,
    arguments: object,
    position: object,
    index: int,
    path: str,
) -> None:
    """Complete ``item`` with the whole ``arguments`` text event ``index`` gave at ``path``.

    Raises `VendorError` ``VENDOR_INVALID_EVENT`` when ``arguments`` is not
    the fragments joined, ``VENDOR_INVALID_TOOL_ARGUMENTS`` when that text
    is not a JSON object.
    """
    # Compared with the fragments in place: the event's string is kept, not a join.
    if type(arguments) is not str or not item.fragments.equals(arguments):
        if type(arguments) is not str:
            failures.invalid(index, path, "a string", arguments)
        failures.fail_invalid(f"{path} is not the concatenation of the argument deltas", index)
    item.fragments = TextPieces()
    # Kept whole: the item's done (and the terminal) repeat it, compared exactly.
    item.arguments_text = arguments
    item.arguments = parse_arguments(
        arguments, vendor=failures.vendor, index=index, path=f"output[{position}].arguments"
    )
