"""ContentSupport: what one wire sends of a transcript beyond plain text and Tool calls.

A wire declares it once (``VendorWire.content``); `check_sendable` holds
every request against it before a body is built, so what the wire cannot
take (a document where it takes none, an image type or size it refuses) is
a `VendorError` naming the block, the wire and the rule, never a block left
out of the request or a 400 that costs a round trip.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, final

from course_protocol.untrusted import type_name

__all__ = ["CONTENT_KINDS", "ContentSupport", "MediaRule"]

CONTENT_KINDS: Final = frozenset(
    {"text", "image", "document", "reasoning", "vendorTool", "citations", "opaque"}
)
"""What a transcript may hold beyond the plain one, each named as the course JSON names it.

``text``, ``image`` and ``document``: blocks of a user message or a Tool
result (content given as blocks rather than a ``str``); ``reasoning`` and
``vendorTool``: blocks of an assistant message; ``citations``: citations
on an assistant's text; ``opaque``: opaque data on an assistant's text or
Tool call. A wire names the ones it sends in `ContentSupport.kinds`.
"""


@final
@dataclass(frozen=True, slots=True)
class MediaRule:
    """What one wire takes of one kind of media block (images, or documents).

    ``media_types``: the lower-case media types it takes; ``max_bytes``:
    the largest inline ``data`` it takes, or ``None`` for no documented
    limit; ``urls``: whether it takes a block given by ``url`` (the vendor
    fetches it). Raises ``TypeError`` naming the field when one is not of
    its type.
    """

    media_types: frozenset[str]
    max_bytes: int | None = None
    urls: bool = False

    def __post_init__(self) -> None:
        if type(self.media_types) is not frozenset or any(
            type(kind) is not str for kind in self.media_types
        ):
            kind = type_name(self.media_types)
            raise TypeError(f"MediaRule.media_types must be a frozenset of str, not {kind}")
        if self.max_bytes is not None and (type(self.max_bytes) is not int or self.max_bytes < 1):
            raise TypeError("MediaRule.max_bytes must be a positive int or None")
        if type(self.urls) is not bool:
            raise TypeError(f"MediaRule.urls must be a bool, not {type_name(self.urls)}")


@final
@dataclass(frozen=True, slots=True)
class ContentSupport:
    """What one wire sends of a transcript beyond plain text and Tool calls; the rest is refused.

    ``kinds``: the `CONTENT_KINDS` it sends; ``images`` and ``documents``:
    the `MediaRule` of each, needed when ``kinds`` holds ``image`` or
    ``document``. The default sends the plain transcript only. Raises
    ``ValueError`` for a kind that is not a content kind, or an ``image``
    or ``document`` kind without its rule; ``TypeError`` for a field of
    the wrong type.
    """

    kinds: frozenset[str] = frozenset()
    images: MediaRule | None = None
    documents: MediaRule | None = None

    def __post_init__(self) -> None:
        if type(self.kinds) is not frozenset:
            raise TypeError(
                f"ContentSupport.kinds must be a frozenset, not {type_name(self.kinds)}"
            )
        unknown = self.kinds - CONTENT_KINDS
        if unknown:
            raise ValueError(
                f"kinds: {sorted(unknown)} are not content kinds ({sorted(CONTENT_KINDS)})"
            )
        for kind, rule in (("image", self.images), ("document", self.documents)):
            if rule is not None and type(rule) is not MediaRule:
                raise TypeError(f"ContentSupport.{kind}s must be a MediaRule or None")
            if kind in self.kinds and rule is None:
                raise ValueError(f"kinds holds {kind!r}: give its MediaRule ({kind}s=...)")
