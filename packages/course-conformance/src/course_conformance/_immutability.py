"""Finds the first place where a model's output is not a deeply immutable protocol value."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Final, TypeAlias

from course_protocol import (
    CourseAssistantMessage,
    CourseModelResponse,
    CourseModelUsage,
    CourseOpaque,
    CourseReasoningBlock,
    CourseReasoningDeltaChunk,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    CourseVendorToolBlock,
    frozen_json_error,
)

__all__ = ["Problem", "chunk_problem", "response_problem"]

Problem = tuple[str, object]
"""A one-line explanation and the offending value."""


def chunk_problem(chunk: object, path: str) -> Problem | None:
    """Explain why ``chunk`` is not an exact, deeply frozen chunk, or return None."""
    if type(chunk) not in _CHUNKS:
        return (f"{path} is a {type(chunk).__qualname__}, not an exact protocol chunk type", chunk)
    return _fields_problem(chunk, path)


def response_problem(response: object, path: str) -> Problem | None:
    """Explain why ``response`` is not an exact, deeply frozen response, or return None."""
    if type(response) is not CourseModelResponse:
        return (f"{path} is a {type(response).__qualname__}, not CourseModelResponse", response)
    return (
        _frozen_problem(response, path)
        or _str_problem(response.id, f"{path}.id")
        or _str_problem(response.request_id, f"{path}.request_id")
        or _message_problem(response.message, f"{path}.message")
        or _stop_reason_problem(response.stop_reason, f"{path}.stop_reason")
        or _usage_problem(response.usage, f"{path}.usage")
    )


def _message_problem(message: object, path: str) -> Problem | None:
    if type(message) is not CourseAssistantMessage:
        return (f"{path} is a {type(message).__qualname__}, not CourseAssistantMessage", message)
    problem = _frozen_problem(message, path) or _str_problem(message.id, f"{path}.id")
    if problem is not None:
        return problem
    content: object = message.content
    if type(content) is not tuple:
        return (f"{path}.content is a {type(content).__qualname__}, not a tuple", content)
    for index, block in enumerate(content):
        problem = _block_problem(block, f"{path}.content[{index}]")
        if problem is not None:
            return problem
    return None


def _block_problem(block: object, path: str) -> Problem | None:
    if type(block) not in _BLOCKS:
        return (f"{path} is a {type(block).__qualname__}, not an assistant block", block)
    return _fields_problem(block, path)


def _citations_problem(citations: object, path: str) -> Problem | None:
    if type(citations) is not tuple:
        return (f"{path} is a {type(citations).__qualname__}, not a tuple", citations)
    for index, citation in enumerate(citations):
        problem = _opaque_problem(citation, f"{path}[{index}]")
        if problem is not None:
            return problem
    return None


def _optional_opaque_problem(opaque: object, path: str) -> Problem | None:
    return None if opaque is None else _opaque_problem(opaque, path)


def _opaque_problem(opaque: object, path: str) -> Problem | None:
    if type(opaque) is not CourseOpaque:
        return (f"{path} is a {type(opaque).__qualname__}, not CourseOpaque", opaque)
    return _fields_problem(opaque, path)


def _tool_call_problem(call: object, path: str) -> Problem | None:
    if type(call) is not CourseToolCall:
        return (f"{path} is a {type(call).__qualname__}, not CourseToolCall", call)
    return _fields_problem(call, path)


def _fields_problem(value: object, path: str) -> Problem | None:
    """The first problem of a value of a `_FIELDS` type: not frozen, or a field's own."""
    problem = _frozen_problem(value, path)
    # __match_args__ names every attribute a value is built from, in order,
    # however the class stores them (a text block keeps its three in one slot);
    # a class that gains one no longer zips with its checks.
    names: tuple[str, ...] = type(value).__match_args__  # type: ignore[attr-defined]
    for name, check in zip(names, _FIELDS[type(value)], strict=True):
        if problem is not None:
            break
        problem = check(getattr(value, name), f"{path}.{name}")
    return problem


def _stop_reason_problem(stop_reason: object, path: str) -> Problem | None:
    if type(stop_reason) is not CourseStopReason:
        return (f"{path} is a {type(stop_reason).__qualname__}, not CourseStopReason", stop_reason)
    return None


def _usage_problem(usage: object, path: str) -> Problem | None:
    if type(usage) is not CourseModelUsage:
        return (f"{path} is a {type(usage).__qualname__}, not CourseModelUsage", usage)
    problem = _frozen_problem(usage, path)
    if problem is not None:
        return problem
    for field in dataclasses.fields(usage):
        count: object = getattr(usage, field.name)
        # A count a vendor may leave out defaults to None; the others are always ints.
        if type(count) is not int and (count is not None or field.default is not None):
            return (f"{path}.{field.name} is a {type(count).__qualname__}, not an int", count)
    return None


def _str_problem(value: object, path: str) -> Problem | None:
    if type(value) is not str:
        return (f"{path} is a {type(value).__qualname__}, not a str", value)
    return None


def _frozen_problem(value: object, path: str) -> Problem | None:
    params = getattr(type(value), "__dataclass_params__", None)
    if params is None or not params.frozen:
        return (f"{path} is not a frozen dataclass", value)
    for field in dataclasses.fields(value):  # type: ignore[arg-type]
        current = getattr(value, field.name)
        try:
            # Writing the value back unchanged: if the write is wrongly
            # allowed, the kit still leaves the model's output as it was.
            setattr(value, field.name, current)
        except AttributeError:
            continue
        return (f"{path}.{field.name} can be reassigned", value)
    return None


def _json_problem(root: object, path: str) -> Problem | None:
    error = frozen_json_error(root, path)
    if error is None:
        return None
    return (f"{error.path} {error.message}: not an immutable JSON object", root)


_Check: TypeAlias = Callable[[object, str], "Problem | None"]

_FIELDS: Final[dict[type, tuple[_Check, ...]]] = {
    CourseTextDeltaChunk: (_str_problem, _str_problem),
    CourseReasoningDeltaChunk: (_str_problem, _str_problem),
    CourseToolCallChunk: (_str_problem, _tool_call_problem),
    CourseTextBlock: (_str_problem, _citations_problem, _optional_opaque_problem),
    CourseToolCall: (_str_problem, _str_problem, _json_problem, _optional_opaque_problem),
    CourseReasoningBlock: (_str_problem, _optional_opaque_problem),
    CourseVendorToolBlock: (_str_problem, _opaque_problem),
    CourseOpaque: (_str_problem, _json_problem),
}
"""Each protocol value the walk checks: one check per name of its ``__match_args__``."""

_CHUNKS: Final = frozenset({CourseTextDeltaChunk, CourseReasoningDeltaChunk, CourseToolCallChunk})
_BLOCKS: Final = frozenset(
    {CourseTextBlock, CourseToolCall, CourseReasoningBlock, CourseVendorToolBlock}
)
