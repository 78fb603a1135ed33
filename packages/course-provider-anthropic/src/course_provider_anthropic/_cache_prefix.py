"""What the Messages API caches of a request: the prefix up to its last cache breakpoint.

The vendor reads a prompt as ``tools``, then ``system``, then ``messages``
(each message's settings, then its content blocks), and caches it up to and
including the last block marked with ``cache_control`` (a tool, a system
block, a content block, or a block inside a ``tool_result``). A
``cache_control`` at the top level of the request asks for automatic
caching: the breakpoint is the last cacheable block, so the whole prompt is
cached. A request with no breakpoint caches nothing, and no later call can
move it. Tools declared with ``defer_loading`` are not in the prefix.
Changing ``tool_choice`` or the ``thinking`` settings keeps the cached
tools and system prompt but not the messages: they sit between the two.
The model picks the cache (the scope); the markers themselves are left out
of the parts, since moving a breakpoint to a later turn moves no prefix.
"""

from __future__ import annotations

from collections.abc import Mapping

from course_vendor import CachePrefix, PrefixPart, each_part, without_key

__all__ = ["messages_cache_prefix"]

_MARKER = "cache_control"
_CONTENT = "content"


def messages_cache_prefix(body: object) -> CachePrefix:
    """The `CachePrefix` of a Messages request ``body`` (any JSON value; never raises)."""
    if not isinstance(body, Mapping):
        return CachePrefix("", (), 0)
    parts: list[PrefixPart] = []
    cached = 0

    def add(path: str, value: object) -> None:
        nonlocal cached
        parts.append((path, _unmarked(value)))
        if _marked(value):
            cached = len(parts)

    for path, tool in each_part("tools", body.get("tools", [])):
        if not (isinstance(tool, Mapping) and tool.get("defer_loading") is True):
            add(path, tool)
    system = body.get("system", [])
    for path, block in each_part("system", system):
        add(path, block)
    for setting in ("tool_choice", "thinking"):
        if setting in body:
            parts.append((setting, body[setting]))
    for path, message in each_part("messages", body.get("messages", [])):
        content = message.get(_CONTENT) if isinstance(message, Mapping) else None
        if type(content) is list or type(content) is tuple:
            parts.append((path, without_key(message, _CONTENT)))
            for block_path, block in each_part(f"{path}.{_CONTENT}", content):
                add(block_path, block)
        else:
            parts.append((path, message))
    if _MARKER in body:
        cached = len(parts)
    return CachePrefix(repr(body.get("model")), tuple(parts), cached)


def _marked(block: object) -> bool:
    if not isinstance(block, Mapping):
        return False
    if _MARKER in block:
        return True
    inner = block.get(_CONTENT)
    if type(inner) is list or type(inner) is tuple:
        return any(isinstance(item, Mapping) and _MARKER in item for item in inner)
    return False


def _unmarked(block: object) -> object:
    block = without_key(block, _MARKER)
    if not isinstance(block, Mapping):
        return block
    inner = block.get(_CONTENT)
    if type(inner) is list or type(inner) is tuple:
        return {**block, _CONTENT: [without_key(item, _MARKER) for item in inner]}
    return block
