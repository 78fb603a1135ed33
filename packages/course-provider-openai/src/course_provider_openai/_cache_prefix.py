"""What OpenAI caches of a Chat Completions or Responses request: the whole prompt, implicitly.

OpenAI caches the longest prefix a request shares with a recent one, with
no marker: a later call reads the cache as far as its prompt starts with
an earlier one's. The prompt is the Tools, then the structured-output
schema (which the vendor puts before the system message), then the
messages (Chat) or the instructions and the input items (Responses), in
order. The model and ``prompt_cache_key`` (which routes a request to a
cache) pick the cache: they are the scope, not parts. A Responses request
that continues a stored response (``previous_response_id``) or a
conversation (``conversation``) sends only its new input: only its settings
(Tools, schema, instructions) are compared with an earlier call.
"""

from __future__ import annotations

from collections.abc import Mapping

from course_vendor import CachePrefix, PrefixPart, each_part

__all__ = ["chat_cache_prefix", "responses_cache_prefix"]

_CONTINUATIONS = ("previous_response_id", "conversation")
_FORMAT = "format"


def chat_cache_prefix(body: object) -> CachePrefix:
    """The `CachePrefix` of a Chat Completions request ``body`` (any JSON value; never raises)."""
    if not isinstance(body, Mapping):
        return CachePrefix("", (), 0)
    parts: list[PrefixPart] = each_part("tools", body.get("tools", []))
    if "response_format" in body:
        parts.append(("response_format", body["response_format"]))
    parts.extend(each_part("messages", body.get("messages", [])))
    return CachePrefix.whole(_scope(body), tuple(parts))


def responses_cache_prefix(body: object) -> CachePrefix:
    """The `CachePrefix` of a Responses request ``body`` (any JSON value; never raises)."""
    if not isinstance(body, Mapping):
        return CachePrefix("", (), 0)
    parts: list[PrefixPart] = each_part("tools", body.get("tools", []))
    text = body.get("text")
    if isinstance(text, Mapping):
        if _FORMAT in text:
            parts.append((f"text.{_FORMAT}", text[_FORMAT]))
    elif "text" in body:
        parts.append(("text", text))
    if "instructions" in body:
        parts.append(("instructions", body["instructions"]))
    settings = len(parts)
    continued = [name for name in _CONTINUATIONS if name in body]
    parts.extend((name, body[name]) for name in continued)
    parts.extend(each_part("input", body.get("input", [])))
    return CachePrefix(
        _scope(body), tuple(parts), len(parts), resumes=settings if continued else None
    )


def _scope(body: Mapping[str, object]) -> str:
    return repr((body.get("model"), body.get("prompt_cache_key")))
