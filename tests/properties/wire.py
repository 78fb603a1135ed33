"""The transport grammar of fixture responses, as Hypothesis strategies.

A `ResponsePlan` is what a provider meant to say (a response id, text and
Tool-call items in order, usage); `ResponsePlan.records` spells it in the
wire vocabulary, choosing usage aliases and adding unknown fields the
adapter must ignore (whatever number they hold, infinities included). The
expected course values are derived from the plan by the tests, never from
the records, so the parser is checked against an independent model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from course_protocol import is_blank

__all__ = [
    "ResponsePlan",
    "TextItem",
    "ToolItem",
    "ignored_values",
    "json_values",
    "response_plans",
]

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)

DANGEROUS_KEYS = ("__proto__", "constructor", "__class__", "prototype", "toString", "")
keys = st.sampled_from(DANGEROUS_KEYS) | st.text(max_size=8)

json_values: st.SearchStrategy[Any] = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(keys, children, max_size=3),
    max_leaves=8,
)
"""Plain JSON values as ``json.loads`` gives them (arbitrary ints, finite floats)."""

ignored_values: st.SearchStrategy[Any] = st.recursive(
    json_scalars | st.sampled_from([math.inf, -math.inf, math.nan]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(keys, children, max_size=3),
    max_leaves=8,
)
"""What an unknown field may hold: any JSON value, or a number that is not finite.

The reference's ``JSON.parse`` reads ``1e400`` as an infinity, and a field
nobody reads may hold one (or a NaN, from Python): it is ignored all the same.
"""

ids = st.text(min_size=1, max_size=10).filter(lambda text: not is_blank(text))
counts = st.integers(min_value=0, max_value=2**53 - 1)
UNKNOWN_FIELDS = ("extra", "__proto__", "constructor", "meta", "index")


@dataclass(frozen=True)
class TextItem:
    delta: str


@dataclass(frozen=True)
class ToolItem:
    call_id: str
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class ResponsePlan:
    """One well-formed response, before it is spelled as wire records."""

    response_id: str
    items: tuple[TextItem | ToolItem, ...]
    input_tokens: int
    output_tokens: int
    snake_input: bool
    snake_output: bool
    unknown: dict[int, dict[str, Any]] = field(default_factory=dict)
    float_input: bool = False
    """Spell the input count as the float it equals (``12.0``): still that integer."""
    float_output: bool = False

    @property
    def calls_tools(self) -> bool:
        return any(isinstance(item, ToolItem) for item in self.items)

    def records(self) -> list[dict[str, Any]]:
        """The wire records, freshly built (the caller may keep or mutate them)."""
        records: list[dict[str, Any]] = [
            {"type": "response_start", "responseId": self.response_id, "role": "assistant"}
        ]
        for item in self.items:
            if isinstance(item, TextItem):
                records.append({"type": "text_delta", "text": item.delta})
            else:
                records.append(
                    {
                        "type": "tool_call",
                        "id": item.call_id,
                        "name": item.name,
                        "arguments": item.arguments,
                    }
                )
        # Every count up to 2**53 - 1 is exactly a float, so float(count) == count.
        usage = {
            "input_tokens" if self.snake_input else "inputTokens": (
                float(self.input_tokens) if self.float_input else self.input_tokens
            ),
            "output_tokens" if self.snake_output else "outputTokens": (
                float(self.output_tokens) if self.float_output else self.output_tokens
            ),
        }
        usage.update(self.unknown.get(-1, {}))
        records.append(
            {
                "type": "response_end",
                "responseId": self.response_id,
                "stopReason": "tool_call" if self.calls_tools else "stop",
                "usage": usage,
            }
        )
        for index, extra in self.unknown.items():
            if 0 <= index < len(records):
                records[index].update(extra)
        return records


@st.composite
def _items(draw: st.DrawFn) -> tuple[TextItem | ToolItem, ...]:
    kinds = draw(st.lists(st.booleans(), max_size=8))
    call_ids = draw(st.lists(ids, min_size=len(kinds), max_size=len(kinds), unique=True))
    items: list[TextItem | ToolItem] = []
    for is_tool, call_id in zip(kinds, call_ids, strict=True):
        if is_tool:
            arguments = draw(st.dictionaries(keys, json_values, max_size=3))
            items.append(ToolItem(call_id, draw(ids), arguments))
        else:
            items.append(TextItem(draw(st.text(max_size=12))))
    return tuple(items)


@st.composite
def response_plans(draw: st.DrawFn) -> ResponsePlan:
    """Any well-formed response: text and Tool calls in any order, any usage spelling."""
    items = draw(_items())
    unknown = draw(
        st.dictionaries(
            st.integers(min_value=-1, max_value=len(items) + 1),
            st.dictionaries(
                st.sampled_from(UNKNOWN_FIELDS), ignored_values, min_size=1, max_size=2
            ),
            max_size=3,
        )
    )
    return ResponsePlan(
        response_id=draw(ids),
        items=items,
        input_tokens=draw(counts),
        output_tokens=draw(counts),
        snake_input=draw(st.booleans()),
        snake_output=draw(st.booleans()),
        unknown=unknown,
        float_input=draw(st.booleans()),
        float_output=draw(st.booleans()),
    )
