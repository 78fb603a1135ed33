"""CourseResponseFormat: the JSON schema an answer must match, a value of configuration."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import final

from course_protocol._checks import check_flag, check_id, check_text
from course_protocol._json import JsonObject, freeze_json_object_or_raise
from course_protocol.slots import slot_setter

__all__ = ["CourseResponseFormat"]


@final
@dataclass(frozen=True, slots=True, init=False)
class CourseResponseFormat:
    """Structured output: the answer text must be JSON matching ``schema``.

    Part of an adapter's configuration, never of a request, as
    ``CourseToolSpec`` is. ``name`` names the format for the vendors that
    take one (a non-blank ``str``); ``schema`` is a JSON Schema, any JSON
    object, deep-snapshotted into a ``frozendict`` and sent as given (the
    adapter never checks an answer against it); ``strict`` asks for the
    vendor's strict mode, where the answer always matches the schema under
    the vendor's own schema rules; ``description`` is ``None`` or a ``str``
    the vendors that take one are sent. Each wire sends it in its own
    spelling, or refuses it before sending.

    Raises ``CourseProtocolError`` when ``name`` is not a non-blank ``str``,
    ``schema`` is not a JSON object (the path names the bad part, e.g.
    ``schema.properties.x``), ``strict`` is not a ``bool``, or
    ``description`` is neither ``None`` nor a ``str``.
    """

    name: str
    schema: JsonObject
    strict: bool = True
    description: str | None = None

    def __init__(
        self,
        name: str,
        schema: Mapping[str, object],
        *,
        strict: bool = True,
        description: str | None = None,
    ) -> None:
        check_id(name, "name")
        frozen = freeze_json_object_or_raise(schema, "schema")
        check_flag(strict, "strict")
        if description is not None:
            check_text(description, "description")
        _set_name(self, name)
        _set_schema(self, frozen)
        _set_strict(self, strict)
        _set_description(self, description)


_set_name = slot_setter(CourseResponseFormat, "name")
_set_schema = slot_setter(CourseResponseFormat, "schema")
_set_strict = slot_setter(CourseResponseFormat, "strict")
_set_description = slot_setter(CourseResponseFormat, "description")
