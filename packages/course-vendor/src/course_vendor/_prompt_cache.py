"""The prompt-cache check: where a call of a cassette moved the prefix its wire cached before.

A loop loses money when a call changes what the vendor cached of the call
before it (a Tool's description, the system prompt, an earlier turn): the
vendor reads the whole prompt again at full price. Each wire declares what
its vendor caches of a request (`VendorPlugin.cache_prefix`, a
`CachePrefix`); this module compares, for each call, that prefix of the
previous call of the same wire, endpoint and scope (the model, a cache key)
with the call's own parts, in order, and names the first path that moved
with both values, as a request mismatch does (``first_json_difference``).
A call that only appends after the cached prefix moves nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import final

from course_http import RecordedRequest, VendorError, VendorErrorCode
from course_protocol import JsonDifference, first_json_difference
from course_protocol.untrusted import type_name
from course_vendor._cache_prefix import CachePrefix
from course_vendor._registry import vendor_for_call
from course_vendor._vendor_plugin import VendorPlugin

__all__ = ["PromptCacheMove", "cache_prefix_difference", "prompt_cache_moves"]


@final
@dataclass(frozen=True, slots=True)
class PromptCacheMove:
    """Call ``index`` (from 0) of a cassette moved the prefix ``wire`` cached for call ``earlier``.

    ``difference`` is the first moved path, the earlier call's value there
    (``recorded``) and the later call's (``sent``, ``<missing>`` when it has
    none).
    """

    index: int
    earlier: int
    wire: str
    difference: JsonDifference

    @property
    def message(self) -> str:
        """``call 2 moved the prefix anthropic-messages cached for call 1 at tools[1]...: ...``."""
        moved = self.difference
        return (
            f"call {self.index + 1} moved the prefix {self.wire} cached for call "
            f"{self.earlier + 1} at {moved.path}: recorded {moved.recorded}, then {moved.sent}"
        )

    def error(self) -> VendorError:
        """This move as the ``HTTP_PROMPT_CACHE_MOVED`` `VendorError` of its wire."""
        return VendorError(VendorErrorCode.HTTP_PROMPT_CACHE_MOVED, self.message, vendor=self.wire)


def prompt_cache_moves(requests: Sequence[RecordedRequest]) -> tuple[PromptCacheMove, ...]:
    """Every call of ``requests`` (a cassette's, in order) that moved an earlier call's prefix.

    Each call is compared with the last call before it to the same wire,
    endpoint (its query left out) and `CachePrefix.scope`: calls to other
    wires between them, or to another model, change nothing. A call's wire
    is the one it records, else its host's, else its path's
    (`vendor_for_call`). A call no installed wire claims, or one claimed by a wire that declares no
    `VendorPlugin.cache_prefix`, is not compared (nor is one two wires claim
    alike: the stream check names that conflict). Raises `VendorError`
    ``VENDOR_PLUGIN_BROKEN`` when a wire's ``cache_prefix`` raises or
    returns anything but a `CachePrefix`.
    """
    last: dict[tuple[str, str, str], tuple[int, CachePrefix]] = {}
    moves: list[PromptCacheMove] = []
    for index, request in enumerate(requests):
        path = request.path.partition("?")[0]
        try:
            plugin = vendor_for_call(path, host=request.host, wire=request.wire)
        except VendorError:
            continue
        if plugin is None or plugin.cache_prefix is None:
            continue
        prefix = _prefix_of(plugin, request.body)
        key = (plugin.name, path, prefix.scope)
        before = last.get(key)
        last[key] = (index, prefix)
        if before is None:
            continue
        difference = cache_prefix_difference(before[1], prefix)
        if difference is not None:
            moves.append(PromptCacheMove(index, before[0], plugin.name, difference))
    return tuple(moves)


def _prefix_of(plugin: VendorPlugin, body: object) -> CachePrefix:
    declared = plugin.cache_prefix
    assert declared is not None
    try:
        prefix: object = declared(body)
    except Exception as error:  # foreign code: what it raises is its own wire's problem
        raise _broken(plugin, f"raised {type_name(error)}") from error
    if type(prefix) is not CachePrefix:
        raise _broken(plugin, f"returned a {type_name(prefix)}, not a CachePrefix")
    return prefix


def _broken(plugin: VendorPlugin, problem: str) -> VendorError:
    return VendorError(
        VendorErrorCode.VENDOR_PLUGIN_BROKEN,
        f"the wire {plugin.name!r} cannot be checked for prompt caching: its cache_prefix "
        f"{problem}",
        vendor=plugin.name,
    )


def cache_prefix_difference(earlier: CachePrefix, later: CachePrefix) -> JsonDifference | None:
    """Where ``later``'s parts first move ``earlier``'s cached prefix, or ``None``.

    The first ``earlier.cached`` parts (only the first ``later.resumes`` when
    ``later`` continues a conversation the vendor keeps) are compared by
    position: the cache holds content, not indexes, so a part of the same
    kind (its path with the indexes left out: ``tools[]``) and value at
    another index moves nothing (a Tool the vendor leaves out of the prefix,
    put before the others). At a part of the same kind, the first
    difference inside it, at ``later``'s path (``tools[1].description``); at
    a part of another kind, the part ``later`` put in (recorded
    ``<missing>``) when the earlier kind still comes after it, else the part
    ``later`` left out (then ``<missing>``); past ``later``'s last part, the
    first part it left out.
    """
    compared = earlier.cached if later.resumes is None else min(earlier.cached, later.resumes)
    for at in range(compared):
        path, value = earlier.parts[at]
        if at >= len(later.parts):
            return _left_out(path, value)
        later_path, later_value = later.parts[at]
        kind = _kind(path)
        if kind == _kind(later_path):
            inside = first_json_difference(value, later_value)
            if inside is not None:
                return JsonDifference(
                    _joined(later_path, inside.path), inside.recorded, inside.sent
                )
            continue
        if any(_kind(further) == kind for further, _ in later.parts[at + 1 :]):
            return _put_in(later_path, later_value)
        return _left_out(path, value)
    return None


_INDEX = re.compile(r"\[[0-9]+\]")


def _kind(path: str) -> str:
    return _INDEX.sub("[]", path)


def _left_out(path: str, value: object) -> JsonDifference:
    # The one difference reader shows the value and the missing side alike.
    shown = first_json_difference([value], [])
    assert shown is not None
    return JsonDifference(path, shown.recorded, shown.sent)


def _put_in(path: str, value: object) -> JsonDifference:
    shown = first_json_difference([], [value])
    assert shown is not None
    return JsonDifference(path, shown.recorded, shown.sent)


def _joined(path: str, inside: str) -> str:
    if inside == "$":
        return path
    return f"{path}{inside}" if inside.startswith("[") else f"{path}.{inside}"
