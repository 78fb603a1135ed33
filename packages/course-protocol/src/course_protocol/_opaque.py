"""CourseOpaque: a vendor's own data that travels through the course protocol unread."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import final

from course_protocol._checks import check_id, fail
from course_protocol._json import JsonObject, freeze_json_object_or_raise
from course_protocol.slots import slot_setter
from course_protocol.untrusted import type_name

__all__ = ["CourseOpaque", "check_opaque", "check_optional_opaque"]


@final
@dataclass(frozen=True, slots=True, init=False)
class CourseOpaque:
    """Data a vendor sent that a loop must send back to the wire that produced it, and no other.

    ``wire`` is the registry name of the wire that produced it
    (``"anthropic-messages"``); ``data`` is the vendor's own JSON object, as
    the vendor spelled it (a thinking signature, an encrypted reasoning
    item, a citation, a server tool's call), deep-snapshotted into a
    ``frozendict`` with the protocol's JSON rules and limits (see
    ``freeze_json``). The protocol never reads ``data``; the wire named by
    ``wire`` does, when it sends the block holding it back.

    Raises ``CourseProtocolError`` when ``wire`` is not a non-blank ``str``
    or ``data`` is not a JSON object (the path names the bad part, e.g.
    ``data.signature``).
    """

    wire: str
    data: JsonObject

    def __init__(self, wire: str, data: Mapping[str, object]) -> None:
        check_id(wire, "wire")
        frozen = freeze_json_object_or_raise(data, "data")
        _set_wire(self, wire)
        _set_data(self, frozen)


_set_wire = slot_setter(CourseOpaque, "wire")
_set_data = slot_setter(CourseOpaque, "data")


def check_opaque(value: object, path: str) -> None:
    """Raise ``CourseProtocolError`` at ``path`` unless ``value`` is exactly a ``CourseOpaque``."""
    if type(value) is not CourseOpaque:
        fail(path, f"must be a CourseOpaque, not {type_name(value)}")


def check_optional_opaque(value: object, path: str) -> None:
    """`check_opaque`, with ``None`` (no opaque data) allowed too."""
    if value is not None and type(value) is not CourseOpaque:
        fail(path, f"must be a CourseOpaque or None, not {type_name(value)}")
