"""Images and documents a user message or a Tool result gives the model: bytes or a URL."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, cast, final

from course_protocol._checks import check_id, fail
from course_protocol.slots import slot_setter
from course_protocol.untrusted import type_name

__all__ = ["CourseDocumentBlock", "CourseImageBlock"]

# RFC 6838's restricted names, lower-case: which types each wire accepts is
# the wire's own check before sending, never a list kept here.
_MEDIA_TYPE: Final = re.compile(
    r"[a-z0-9][a-z0-9!#$&^_.+-]{0,126}/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}"
)
_SCHEMES: Final = ("https://", "http://")
_AUTHORITY_END: Final = re.compile(r"[/?#]")
_UNSAFE_URL_CHARACTER: Final = re.compile(r"[\x00-\x20\x7f-\x9f\s]")


def _checked_media_type(value: object, top_level: str | None) -> str:
    if type(value) is not str:
        fail("media_type", f"must be a str, not {type_name(value)}")
    if _MEDIA_TYPE.fullmatch(value) is None:
        fail("media_type", "must be a lower-case type/subtype (image/png), with no parameters")
    if top_level is not None and not value.startswith(top_level + "/"):
        fail("media_type", f"must be an {top_level}/ type, not {value.partition('/')[0]}/")
    return value


def _checked_source(data: object, url: object) -> tuple[bytes | None, str | None]:
    """The block's one source: bytes (a ``bytearray`` is copied) or an http(s) URL."""
    if (data is None) == (url is None):
        fail(
            "url" if data is not None else "data",
            "give exactly one of data (the bytes) or url (where the vendor fetches them)",
        )
    if url is None:
        return _checked_bytes(data), None
    if type(url) is not str:
        fail("url", f"must be a str, not {type_name(url)}")
    if not _is_web_url(url):
        fail(
            "url",
            "must be an http:// or https:// URL with a host and no white space or control "
            "characters (inline bytes go in data, never in a data: URL)",
        )
    return None, url


def _checked_bytes(data: object) -> bytes:
    # Exact types only: a subclass's __bytes__ would be foreign code run by bytes().
    kind = type(data)
    if kind is bytearray:
        copied = bytes(cast(bytearray, data))
    elif kind is bytes:
        copied = cast(bytes, data)
    else:
        fail("data", f"must be bytes or a bytearray, not {type_name(data)}")
    if not copied:
        fail("data", "must not be empty")
    return copied


def _is_web_url(url: str) -> bool:
    head = url[:8].lower()
    for scheme in _SCHEMES:
        if head.startswith(scheme):
            authority = _AUTHORITY_END.split(url[len(scheme) :], maxsplit=1)[0]
            return bool(authority) and _UNSAFE_URL_CHARACTER.search(url) is None
    return False


def _shown_source(data: bytes | None, url: str | None) -> str:
    # The bytes are never printed: an image in an assertion message would be megabytes.
    return f"data=<{len(data)} bytes>" if data is not None else f"url={url!r}"


@final
@dataclass(frozen=True, slots=True, init=False, repr=False)
class CourseImageBlock:
    """An image, as bytes with their media type, or as a URL the vendor fetches.

    ``media_type`` is a lower-case ``image/<subtype>`` (``image/png``), the
    form only: which types and sizes each wire accepts is checked by the
    wire before sending. Exactly one of ``data`` (the image's bytes, not
    empty; a ``bytearray`` is copied to ``bytes``) and ``url`` (an
    ``http://`` or ``https://`` URL with a host; a ``data:`` URL is refused,
    inline bytes go in ``data``) is given; the other is ``None``.

    Raises ``CourseProtocolError`` naming ``media_type``, ``data`` or
    ``url`` for a bad form, both sources or neither.
    """

    media_type: str
    data: bytes | None = None
    url: str | None = None

    def __init__(
        self, media_type: str, *, data: bytes | bytearray | None = None, url: str | None = None
    ) -> None:
        checked_type = _checked_media_type(media_type, "image")
        checked_data, checked_url = _checked_source(data, url)
        _set_image_media_type(self, checked_type)
        _set_image_data(self, checked_data)
        _set_image_url(self, checked_url)

    def __repr__(self) -> str:
        return (
            f"CourseImageBlock(media_type={self.media_type!r}, "
            f"{_shown_source(self.data, self.url)})"
        )


_set_image_media_type = slot_setter(CourseImageBlock, "media_type")
_set_image_data = slot_setter(CourseImageBlock, "data")
_set_image_url = slot_setter(CourseImageBlock, "url")


@final
@dataclass(frozen=True, slots=True, init=False, repr=False)
class CourseDocumentBlock:
    """A document (a PDF, a text file), as bytes with their media type, or as a URL.

    ``media_type`` is a lower-case ``type/subtype`` (``application/pdf``,
    ``text/plain``), the form only, as for `CourseImageBlock`; so are
    ``data`` and ``url``, exactly one of them given. ``title`` is the
    document's title for the vendor, a non-blank ``str``, or ``None``.

    Raises ``CourseProtocolError`` naming ``media_type``, ``data``, ``url``
    or ``title`` for a bad field, both sources or neither.
    """

    media_type: str
    data: bytes | None = None
    url: str | None = None
    title: str | None = None

    def __init__(
        self,
        media_type: str,
        *,
        data: bytes | bytearray | None = None,
        url: str | None = None,
        title: str | None = None,
    ) -> None:
        checked_type = _checked_media_type(media_type, None)
        checked_data, checked_url = _checked_source(data, url)
        if title is not None:
            check_id(title, "title")
        _set_document_media_type(self, checked_type)
        _set_document_data(self, checked_data)
        _set_document_url(self, checked_url)
        _set_document_title(self, title)

    def __repr__(self) -> str:
        title = "" if self.title is None else f", title={self.title!r}"
        return (
            f"CourseDocumentBlock(media_type={self.media_type!r}, "
            f"{_shown_source(self.data, self.url)}{title})"
        )


_set_document_media_type = slot_setter(CourseDocumentBlock, "media_type")
_set_document_data = slot_setter(CourseDocumentBlock, "data")
_set_document_url = slot_setter(CourseDocumentBlock, "url")
_set_document_title = slot_setter(CourseDocumentBlock, "title")
