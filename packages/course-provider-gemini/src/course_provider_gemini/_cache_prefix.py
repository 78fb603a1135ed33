"""What Gemini caches of a request: the whole prompt implicitly, after any explicit cache.

Gemini's implicit caching reuses the longest prefix a request shares with a
recent one, with no marker: the system instruction, then the Tools and
their configuration, then the contents, in order. A request that names an
explicit cache (``cachedContent``, whose own system instruction and Tools
the request must not repeat) reads it first, its contents appended. The
model is in the request path, which the check compares calls under.
"""

from __future__ import annotations

from collections.abc import Mapping

from course_vendor import CachePrefix, PrefixPart, each_part

__all__ = ["gemini_cache_prefix"]

_SETTINGS = ("cachedContent", "systemInstruction")


def gemini_cache_prefix(body: object) -> CachePrefix:
    """The `CachePrefix` of a Gemini request ``body`` (any JSON value; never raises)."""
    if not isinstance(body, Mapping):
        return CachePrefix("", (), 0)
    parts: list[PrefixPart] = [(name, body[name]) for name in _SETTINGS if name in body]
    parts.extend(each_part("tools", body.get("tools", [])))
    if "toolConfig" in body:
        parts.append(("toolConfig", body["toolConfig"]))
    parts.extend(each_part("contents", body.get("contents", [])))
    return CachePrefix.whole("", tuple(parts))
