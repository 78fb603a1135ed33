"""CourseToolSpec: what a model adapter tells a provider about one Tool it may call."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import final

from course_protocol._checks import check_flag, check_id, check_text
from course_protocol._json import JsonObject, freeze_json_object_or_raise
from course_protocol.slots import slot_setter

__all__ = ["CourseToolSpec"]


@final
@dataclass(frozen=True, slots=True, init=False)
class CourseToolSpec:
    """One Tool the model may call: its name, a description, and a JSON Schema of its input.

    Part of an adapter's configuration, never of a request: the course
    request carries the transcript only. ``input_schema`` is any JSON object
    (usually ``{"type": "object", "properties": {...}}``), deep-snapshotted
    into a ``frozendict``; the adapter sends it as given and never checks
    arguments against it (that is the agent loop's job).

    ``strict`` asks the vendor for its strict Tool-argument mode (arguments
    that always match ``input_schema``, under the vendor's own schema
    rules); a wire without one refuses a strict Tool before sending.

    Raises ``CourseProtocolError`` when ``name`` is not a non-blank ``str``,
    ``description`` is not a ``str``, ``input_schema`` is not a JSON object
    (the path names the bad part, e.g. ``input_schema.properties.x``), or
    ``strict`` is not a ``bool``.
    """

    name: str
    description: str
    input_schema: JsonObject
    strict: bool = False

    def __init__(
        self,
        name: str,
        description: str,
        input_schema: Mapping[str, object],
        *,
        strict: bool = False,
    ) -> None:
        check_id(name, "name")
        check_text(description, "description")
        frozen = freeze_json_object_or_raise(input_schema, "input_schema")
        check_flag(strict, "strict")
        _set_name(self, name)
        _set_description(self, description)
        _set_input_schema(self, frozen)
        _set_strict(self, strict)


_set_name = slot_setter(CourseToolSpec, "name")
_set_description = slot_setter(CourseToolSpec, "description")
_set_input_schema = slot_setter(CourseToolSpec, "input_schema")
_set_strict = slot_setter(CourseToolSpec, "strict")
