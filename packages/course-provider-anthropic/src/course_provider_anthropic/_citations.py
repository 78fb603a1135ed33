"""The citations of a text block: each type the Messages API streams, and the fields it requires.

A citation comes on a text block's start (``citations``) or in a
``citations_delta``; either way it is read here, by its ``type``, and kept
as frozen JSON.
"""

from __future__ import annotations

from typing import Final

from course_http import VendorErrorCode
from course_protocol import JsonObject
from course_protocol.untrusted import shown
from course_provider_anthropic._reads import fail, frozen, invalid, optional_text, text_at
from course_provider_anthropic._wire import WIRE
from course_vendor import token_count

__all__ = ["read_citation"]

_CITATIONS: Final = {
    "char_location": (
        ("cited_text",),
        ("document_index", "start_char_index", "end_char_index"),
    ),
    "page_location": (
        ("cited_text",),
        ("document_index", "start_page_number", "end_page_number"),
    ),
    "content_block_location": (
        ("cited_text",),
        ("document_index", "start_block_index", "end_block_index"),
    ),
    "web_search_result_location": (("cited_text", "url", "encrypted_index"), ()),
    "search_result_location": (
        ("cited_text", "source"),
        ("search_result_index", "start_block_index", "end_block_index"),
    ),
}
"""Each citation type: the text fields, then the index fields, it requires."""
_CITATION_TITLES = ("document_title", "file_id", "title")
"""The optional text fields of the citation types."""


def read_citation(value: object, index: int, path: str) -> JsonObject:
    """The citation ``value`` (at ``path`` of event ``index``), checked by its type, frozen.

    Raises `VendorError` ``VENDOR_UNKNOWN_EVENT`` (``vendor_type`` the type)
    for a citation type the Messages API does not stream, and
    ``VENDOR_INVALID_EVENT`` naming the field for a field of the wrong type
    or a required one missing.
    """
    if type(value) is not dict:
        invalid(index, path, "an object", value)
    kind = value.get("type")
    if type(kind) is not str:
        invalid(index, f"{path}.type", "a string", kind)
    fields = _CITATIONS.get(kind)
    if fields is None:
        fail(
            VendorErrorCode.VENDOR_UNKNOWN_EVENT,
            index,
            f"{path}.type {shown(kind)!r} is not a known citation type",
            vendor_type=kind,
        )
    texts, counts = fields
    for key in texts:
        text_at(value, key, index, parent=path)
    for key in counts:
        token_count(value.get(key), vendor=WIRE, index=index, path=f"{path}.{key}")
    for key in _CITATION_TITLES:
        optional_text(value, key, index, parent=path)
    return frozen(value, index, path)
