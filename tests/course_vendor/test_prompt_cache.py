"""The prompt-cache check: a wire's `CachePrefix`, and the first path a later call moved.

The per-wire declarations have their own tests beside each vendor package's;
these are the kit's: the value a wire returns, the comparison by position,
which calls are compared with which, and a plug-in that gets it wrong.
"""

from __future__ import annotations

from typing import Any

import pytest

from course_http import VendorError
from course_http import VendorErrorCode as C
from course_protocol import JsonDifference
from course_vendor import (
    CachePrefix,
    PromptCacheMove,
    cache_prefix_difference,
    each_part,
    prompt_cache_moves,
    without_key,
)
from tests.course_vendor.plugins import MadeUpSite, wire_module
from tests.course_vendor.prompt_cache import moves_of, recorded

MESSAGES = "/v1/messages"
CHAT = "/v1/chat/completions"
MARK = {"type": "ephemeral"}


def messages_body(*turns: str) -> dict[str, Any]:
    """A Messages request whose system block is its breakpoint, one user turn per text."""
    return {
        "model": "claude-sonnet-4-5",
        "max_tokens": 64,
        "system": [{"type": "text", "text": "Be brief.", "cache_control": MARK}],
        "messages": [{"role": "user", "content": text} for text in turns],
    }


def chat_body(*turns: str) -> dict[str, Any]:
    return {"model": "gpt-4.1", "messages": [{"role": "user", "content": t} for t in turns]}


def prefix(*parts: tuple[str, object], cached: int | None = None, **more: Any) -> CachePrefix:
    return CachePrefix("m", parts, len(parts) if cached is None else cached, **more)


@pytest.mark.parametrize(
    ("fields", "error", "said"),
    [
        ({"scope": None}, TypeError, "CachePrefix.scope must be a str, not NoneType"),
        ({"parts": [("a", 1)]}, TypeError, "CachePrefix.parts must be a tuple, not list"),
        ({"parts": (("a", 1, 2),)}, TypeError, "CachePrefix.parts[0] must be a (str, JSON"),
        ({"parts": ((1, 1),)}, TypeError, "CachePrefix.parts[0] must be a (str, JSON"),
        ({"cached": True}, TypeError, "CachePrefix.cached must be an int, not bool"),
        ({"cached": 2}, ValueError, "CachePrefix.cached must be from 0 to 1 (the parts), not 2"),
        ({"cached": -1}, ValueError, "CachePrefix.cached must be from 0 to 1"),
        ({"resumes": 1.0}, TypeError, "CachePrefix.resumes must be an int, not float"),
        ({"resumes": 5}, ValueError, "CachePrefix.resumes must be from 0 to 1"),
    ],
)
def test_a_cache_prefix_of_a_wrong_field_is_refused_naming_it(
    fields: dict[str, Any], error: type[Exception], said: str
) -> None:
    given: dict[str, Any] = {"scope": "m", "parts": (("a", 1),), "cached": 1, **fields}
    with pytest.raises(error) as raised:
        CachePrefix(**given)
    assert str(raised.value).startswith(said)


def test_each_part_splits_an_array_and_keeps_anything_else_whole() -> None:
    assert each_part("tools", ["a", {"b": 1}]) == [("tools[0]", "a"), ("tools[1]", {"b": 1})]
    assert each_part("tools", ("a",)) == [("tools[0]", "a")]
    assert each_part("tools", []) == []
    assert each_part("tools", {"a": 1}) == [("tools", {"a": 1})]
    assert each_part("tools", None) == [("tools", None)]


def test_without_key_leaves_the_value_given_untouched() -> None:
    block = {"type": "text", "cache_control": MARK}
    assert without_key(block, "cache_control") == {"type": "text"}
    assert block == {"type": "text", "cache_control": MARK}
    assert without_key("text", "cache_control") == "text"
    unmarked = {"type": "text"}
    assert without_key(unmarked, "cache_control") is unmarked


def test_a_difference_inside_a_part_is_named_at_the_later_path() -> None:
    earlier = prefix(("tools[0]", {"d": "a"}), ("messages[0]", "x"))
    later = prefix(("tools[0]", {"d": "b"}), ("messages[0]", "x"), ("messages[1]", "y"))
    assert cache_prefix_difference(earlier, later) == JsonDifference("tools[0].d", '"a"', '"b"')
    whole = prefix(("system", "a"))
    assert cache_prefix_difference(whole, prefix(("system", "b"))) == JsonDifference(
        "system", '"a"', '"b"'
    )
    listed = prefix(("system", ["a"]))
    assert cache_prefix_difference(listed, prefix(("system", ["b"]))) == JsonDifference(
        "system[0]", '"a"', '"b"'
    )


def test_a_part_put_in_or_left_out_is_named_as_such() -> None:
    earlier = prefix(("tools[0]", "a"), ("system", "s"))
    put_in = prefix(("tools[0]", "a"), ("tools[1]", "b"), ("system", "s"))
    left_out = prefix(("tools[0]", "a"))
    assert cache_prefix_difference(earlier, put_in) == JsonDifference(
        "tools[1]", "<missing>", '"b"'
    )
    assert cache_prefix_difference(earlier, left_out) == JsonDifference(
        "system", '"s"', "<missing>"
    )
    other_kind = prefix(("tools[0]", "a"), ("messages[0]", "m"))
    assert cache_prefix_difference(earlier, other_kind) == JsonDifference(
        "system", '"s"', "<missing>"
    )


def test_the_same_content_at_another_index_moves_nothing() -> None:
    earlier = prefix(("tools[0]", "a"), ("system", "s"))
    shifted = prefix(("tools[1]", "a"), ("system", "s"))
    assert cache_prefix_difference(earlier, shifted) is None


def test_only_the_cached_parts_and_the_settings_of_a_continuation_are_compared() -> None:
    earlier = prefix(("system", "s"), ("messages[0]", "x"), cached=1)
    assert cache_prefix_difference(earlier, prefix(("system", "s"), ("messages[0]", "y"))) is None
    assert cache_prefix_difference(prefix(("system", "s"), cached=0), prefix()) is None
    whole = prefix(("system", "s"), ("input[0]", "x"))
    continued = prefix(("system", "s"), ("input[0]", "new"), resumes=1)
    assert cache_prefix_difference(whole, continued) is None
    moved = prefix(("system", "t"), ("input[0]", "new"), resumes=1)
    assert cache_prefix_difference(whole, moved) == JsonDifference("system", '"s"', '"t"')


def test_a_move_is_a_typed_error_of_its_wire() -> None:
    [move] = prompt_cache_moves(
        [
            recorded(MESSAGES, messages_body("a")),
            recorded(MESSAGES, messages_body("a") | {"system": "b"}),
        ]
    )
    assert move == PromptCacheMove(
        1,
        0,
        "anthropic-messages",
        JsonDifference("system[0]", '{"type":"text","text":"Be brief."}', "<missing>"),
    )
    error = move.error()
    assert error.code is C.HTTP_PROMPT_CACHE_MOVED
    assert error.vendor == "anthropic-messages"
    assert str(error) == (
        "HTTP_PROMPT_CACHE_MOVED: call 2 moved the prefix anthropic-messages cached for "
        'call 1 at system[0]: recorded {"type":"text","text":"Be brief."}, then <missing>'
    )


def test_a_cassette_of_one_call_or_none_moves_nothing() -> None:
    assert prompt_cache_moves([]) == ()
    assert moves_of(MESSAGES, messages_body("a")) == []


def test_each_call_is_compared_with_the_last_call_to_its_own_wire() -> None:
    calls = [
        recorded(MESSAGES, messages_body("a")),
        recorded(CHAT, chat_body("x")),
        recorded(MESSAGES, messages_body("a", "b")),
        recorded(CHAT, chat_body("y")),
        recorded("/v1/embeddings", {"input": "z"}),
        recorded(MESSAGES, messages_body("a", "b") | {"system": "other"}),
    ]
    moves = prompt_cache_moves(calls)
    assert [(move.index, move.earlier, move.wire) for move in moves] == [
        (3, 1, "openai-chat"),
        (5, 2, "anthropic-messages"),
    ]


def test_the_query_of_a_path_is_left_out() -> None:
    first = recorded(CHAT + "?api-version=1", chat_body("x"))
    second = recorded(CHAT, chat_body("y"))
    [move] = prompt_cache_moves([first, second])
    assert move.difference.path == "messages[0].content"


def test_a_deep_body_and_a_long_conversation_are_compared_whole() -> None:
    deep: Any = "bottom"
    changed: Any = "changed"
    for _ in range(5_000):
        deep, changed = {"k": deep}, {"k": changed}
    first = chat_body() | {"tools": [deep]}
    second = chat_body() | {"tools": [changed]}
    calls = [recorded(CHAT, first, frozen=False), recorded(CHAT, second, frozen=False)]
    [move] = prompt_cache_moves(calls)
    assert move.difference.path == "tools[0]" + ".k" * 5_000
    turns = [f"turn {n}" for n in range(10_000)]
    assert moves_of(CHAT, chat_body(*turns), chat_body(*turns, "more")) == []
    edited = [*turns[:-1], "edited", "more"]
    [long_move] = moves_of(CHAT, chat_body(*turns), chat_body(*edited))
    assert ' at messages[9999].content: recorded "turn 9999", then "edited"' in long_move


@pytest.mark.parametrize(
    ("cache_prefix", "said"),
    [
        ("_raises", "raised KeyError"),
        ("lambda body: ('scope', (), 0)", "returned a tuple, not a CachePrefix"),
    ],
)
def test_a_cache_prefix_that_raises_or_returns_something_else_is_a_broken_plugin(
    site: MadeUpSite, cache_prefix: str, said: str
) -> None:
    source = wire_module("made-up-cache", "/v9/cache", cache_prefix=cache_prefix)
    site.module("course_made_up_cache", source)
    site.distribution("course-vendor-made-up", {"made-up-cache": "course_made_up_cache:PLUGIN"})
    with site.installed(), pytest.raises(VendorError) as raised:
        prompt_cache_moves([recorded("/v9/cache", {}), recorded("/v9/cache", {})])
    error = raised.value
    assert error.code is C.VENDOR_PLUGIN_BROKEN
    assert str(error) == (
        "VENDOR_PLUGIN_BROKEN: the wire 'made-up-cache' cannot be checked for prompt caching: "
        f"its cache_prefix {said}"
    )
    assert (error.__cause__ is not None) == (said == "raised KeyError")


def test_a_wire_that_declares_no_cache_prefix_is_not_compared(site: MadeUpSite) -> None:
    source = wire_module("made-up-plain", "/v9/plain")
    site.module("course_made_up_plain", source)
    site.distribution("course-vendor-made-up", {"made-up-plain": "course_made_up_plain:PLUGIN"})
    with site.installed():
        assert (
            prompt_cache_moves([recorded("/v9/plain", {"a": 1}), recorded("/v9/plain", {})]) == ()
        )
