"""CachePrefix: what a vendor caches of one request body, as each wire declares it.

A wire's plug-in reads a recorded request body into the parts its vendor
reads as a prompt prefix, in the vendor's order (`VendorPlugin.cache_prefix`);
the prompt-cache check (`prompt_cache_moves`) compares them between the
calls of a cassette. The reads here are the ones every wire's declaration
shares, so that a body of any shape (a field of the wrong type, a
non-object body) gives parts and never an exception.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import final

from course_protocol.untrusted import type_name

__all__ = ["CachePrefix", "PrefixPart", "each_part", "without_key"]

PrefixPart = tuple[str, object]
"""One part of a prefix: its path in the body (``tools[1]``), and the JSON there."""


@final
@dataclass(frozen=True, slots=True)
class CachePrefix:
    """The parts of one request body a vendor reads as its prompt prefix, and how many it caches.

    ``parts`` are the body's cacheable parts in the order the vendor reads
    them, each a path as request mismatches print it (``tools[1]``,
    ``messages[0].content[2]``) and the JSON value there as the cache sees
    it (a wire leaves out what only marks a breakpoint: moving a marker
    moves no prefix). ``cached`` is how many leading parts the vendor caches
    for a later call: ``0`` when it caches nothing (an Anthropic request
    without a breakpoint), ``len(parts)`` when it caches the whole prompt
    (implicit caching). ``scope`` says what picks a cache apart from the
    prefix (the model, a cache key): calls of different scopes never share
    one, so they are never compared. ``resumes`` is ``None`` for a request
    that sends its whole prompt; for one that continues a conversation the
    vendor keeps (OpenAI's ``previous_response_id``), the number of leading
    parts that are the request's own settings, the only ones an earlier
    call's prefix is compared with (the rest is appended to what the vendor
    holds).

    Raises ``TypeError`` naming the field when one is not of its type, and
    ``ValueError`` when ``cached`` or ``resumes`` is not between 0 and the
    number of parts.
    """

    scope: str
    parts: tuple[PrefixPart, ...]
    cached: int
    resumes: int | None = None

    def __post_init__(self) -> None:
        if type(self.scope) is not str:
            raise TypeError(f"CachePrefix.scope must be a str, not {type_name(self.scope)}")
        if type(self.parts) is not tuple:
            raise TypeError(f"CachePrefix.parts must be a tuple, not {type_name(self.parts)}")
        for index, part in enumerate(self.parts):
            if type(part) is not tuple or len(part) != 2 or type(part[0]) is not str:
                raise TypeError(f"CachePrefix.parts[{index}] must be a (str, JSON value) pair")
        for field in ("cached", "resumes"):
            value = getattr(self, field)
            if value is None and field == "resumes":
                continue
            if type(value) is not int:
                raise TypeError(f"CachePrefix.{field} must be an int, not {type_name(value)}")
            if not 0 <= value <= len(self.parts):
                raise ValueError(
                    f"CachePrefix.{field} must be from 0 to {len(self.parts)} (the parts), "
                    f"not {value}"
                )

    @classmethod
    def whole(cls, scope: str, parts: tuple[PrefixPart, ...]) -> CachePrefix:
        """The prefix of a vendor that caches the whole prompt (implicit caching)."""
        return cls(scope, parts, len(parts))


def each_part(path: str, value: object) -> list[PrefixPart]:
    """``value`` at ``path`` as parts: one per element of an array, else the value whole.

    A field of the wrong type (an object where an array belongs) is one part,
    compared whole; an empty array is no part.
    """
    if type(value) is list or type(value) is tuple:
        return [(f"{path}[{index}]", item) for index, item in enumerate(value)]
    return [(path, value)]


def without_key(value: object, key: str) -> object:
    """``value`` without ``key`` when it is an object holding it (plain JSON), else unchanged."""
    if isinstance(value, Mapping) and key in value:
        return {name: item for name, item in value.items() if name != key}
    return value
