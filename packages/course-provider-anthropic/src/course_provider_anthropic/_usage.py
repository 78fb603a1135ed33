"""The usage objects of ``message_start`` and ``message_delta``, read into one `MessagesUsage`."""

from __future__ import annotations

import dataclasses
from typing import Any

from course_protocol import JsonObject
from course_provider_anthropic._reads import (
    count_at,
    fail_invalid,
    frozen,
    invalid,
    optional_object,
    optional_text,
)
from course_provider_anthropic._result import MessagesUsage
from course_provider_anthropic._wire import WIRE
from course_vendor import token_count

__all__ = ["merged_usage", "start_usage"]

_COUNTS = (
    "input_tokens",
    "output_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
)
_COUNT_OBJECTS = ("cache_creation", "server_tool_use", "output_tokens_details")
"""The usage fields that are objects of counts, each count named by its key."""
_TEXTS = ("service_tier", "inference_geo")


def start_usage(usage: dict[str, Any], index: int) -> MessagesUsage:
    """The usage of a ``message_start`` (``message.usage``, decoded as ``usage``).

    ``input_tokens`` is required; every other field may be absent or null.
    Raises ``VENDOR_INVALID_EVENT`` naming the field for a count that is not
    an ``int`` from 0 to 2**53 - 1, an object of counts holding anything
    else, a text that is not a string, ``iterations`` that are not an array
    of objects.
    """
    read = _read(usage, index, "message.usage")
    input_tokens = read.pop("input_tokens", None)
    if input_tokens is None:
        fail_invalid("message.usage.input_tokens must be an integer, got null", index)
    return MessagesUsage(
        input_tokens=input_tokens,
        output_tokens=read.get("output_tokens"),
        cache_creation_input_tokens=read.get("cache_creation_input_tokens"),
        cache_read_input_tokens=read.get("cache_read_input_tokens"),
        cache_creation=read.get("cache_creation"),
        server_tool_use=read.get("server_tool_use"),
        output_tokens_details=read.get("output_tokens_details"),
        service_tier=read.get("service_tier"),
        inference_geo=read.get("inference_geo"),
        iterations=read.get("iterations"),
    )


def merged_usage(previous: MessagesUsage, usage: dict[str, Any], index: int) -> MessagesUsage:
    """``previous`` with the fields a ``message_delta`` 's ``usage`` carries replaced.

    ``output_tokens`` is required there (the cumulative output); a null or
    absent field changes nothing. Raises ``VENDOR_INVALID_EVENT`` as
    `start_usage` does, and for a missing ``output_tokens``.
    """
    read = _read(usage, index, "usage")
    if "output_tokens" not in read:
        invalid(index, "usage.output_tokens", "an integer from 0 to 2**53 - 1", None)
    return dataclasses.replace(previous, **read)


def _read(usage: dict[str, Any], index: int, parent: str) -> dict[str, Any]:
    """Every usage field ``usage`` sends (neither absent nor null), read, by its name."""
    read: dict[str, Any] = {}
    for key in _COUNTS:
        count = count_at(usage, key, index, parent=parent)
        if count is not None:
            read[key] = count
    for key in _COUNT_OBJECTS:
        counts = optional_object(usage, key, index, parent=parent)
        if counts is not None:
            read[key] = _counts(counts, index, f"{parent}.{key}")
    for key in _TEXTS:
        text = optional_text(usage, key, index, parent=parent)
        if text is not None:
            read[key] = text
    iterations = usage.get("iterations")
    if iterations is not None:
        read["iterations"] = _iterations(iterations, index, f"{parent}.iterations")
    return read


def _counts(counts: dict[str, Any], index: int, path: str) -> JsonObject:
    for key, count in counts.items():
        token_count(count, vendor=WIRE, index=index, path=f"{path}.{key}")
    return frozen(counts, index, path)


def _iterations(value: object, index: int, path: str) -> tuple[JsonObject, ...]:
    if type(value) is not list:
        invalid(index, path, "an array of objects or null", value)
    entries = []
    for position, entry in enumerate(value):
        if type(entry) is not dict:
            invalid(index, f"{path}[{position}]", "an object", entry)
        entries.append(frozen(entry, index, f"{path}[{position}]"))
    return tuple(entries)
