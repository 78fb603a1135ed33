"""The demo's one local Tool, ``add``, with its arguments checked before it runs."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TypeGuard

from course_cli._output import compact_json
from course_protocol import CourseToolCall

__all__ = ["ADD", "ToolOutcome", "run_tool"]

ADD = "add"
_PARAMETERS = ("left", "right")


@dataclass(frozen=True, slots=True)
class ToolOutcome:
    """What running one Tool call gave: the Tool result's content and whether it is an error.

    ``explanation`` is the human line for the trace (what ran, or why not).
    """

    content: str
    is_error: bool
    explanation: str


def run_tool(call: CourseToolCall) -> ToolOutcome:
    """Run ``call`` locally if it is a well-formed ``add`` call.

    ``add`` takes exactly two arguments, ``left`` and ``right``, each an
    ``int`` (not ``bool``) or a finite ``float``, and returns their sum as
    text. An unknown Tool, a missing, extra or mistyped argument, or a sum
    that is not a finite printable number gives an error outcome (the loop
    turns it into a Tool result with ``is_error=True``). Never raises.
    """
    if call.name != ADD:
        return _refused(f"unknown Tool {compact_json(call.name)}: this demo runs only {ADD!r}")
    arguments = call.arguments
    for name in _PARAMETERS:
        if name not in arguments:
            return _refused(f"arguments.{name} is missing: {ADD} takes exactly left and right")
    for key in arguments:
        if key not in _PARAMETERS:
            return _refused(
                f"arguments.{key} is not a parameter: {ADD} takes exactly left and right"
            )
    left, right = arguments["left"], arguments["right"]
    if not _is_number(left):
        return _not_a_number("left", left)
    if not _is_number(right):
        return _not_a_number("right", right)
    try:
        total = left + right
    except OverflowError:
        # An int past float range plus a float: Python cannot even add them.
        return _refused("the sum is too large for a float")
    if type(total) is float and not math.isfinite(total):
        return _refused("the sum is not a finite number")
    try:
        text = str(total)
    except ValueError:
        return _refused("the sum has too many digits to print")
    return ToolOutcome(
        content=text,
        is_error=False,
        explanation=f"ran locally: {compact_json(left)} + {compact_json(right)} = {text}",
    )


def _is_number(value: object) -> TypeGuard[int | float]:
    # Exact types: a bool is an int subclass, and no other subclass can come
    # out of a frozen JSON object anyway.
    return type(value) is int or (type(value) is float and math.isfinite(value))


def _not_a_number(name: str, value: object) -> ToolOutcome:
    return _refused(
        f"arguments.{name} must be an int or a finite float, not {type(value).__name__}"
    )


def _refused(reason: str) -> ToolOutcome:
    return ToolOutcome(content=reason, is_error=True, explanation=f"refused: {reason}")
