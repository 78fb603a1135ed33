"""Hostile Python values for the fixture adapter's boundary, and strategies that build them.

Overridden methods are armed only while the adapter runs (:func:`armed`):
building the values, fingerprinting them and printing a failing example use
the base behaviour, so Hypothesis can construct, shrink and show them. While
armed, every override raises `HostileCallError`; the adapter must never
call one, so none may ever surface.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any, NoReturn, cast

from hypothesis import strategies as st
from hypothesis.vendor.pretty import pretty

from course_provider_fixture import FixtureProviderError, FixtureProviderErrorCode
from tests.course_protocol.hostile import ObjectThatPretendsToBeADict
from tests.nesting import nested_dicts, nested_lists

__all__ = [
    "DictWithTraps",
    "HostileCallError",
    "ListWithTraps",
    "TupleWithTraps",
    "armed",
    "fingerprint",
    "hostile_values",
    "odd_numbers",
    "sources",
]


class _Switch:
    on = False


@contextlib.contextmanager
def armed() -> Iterator[None]:
    """Make every override of the values in this module raise while the block runs."""
    _Switch.on = True
    try:
        yield
    finally:
        _Switch.on = False


class HostileCallError(Exception):
    """An overridden method of a hostile value was called while armed."""


def _trap(name: str, base: Callable[..., Any]) -> Callable[..., Any]:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        if _Switch.on:
            raise HostileCallError(f"{type(self).__qualname__}.{name} was called")
        return base(self, *args, **kwargs)

    method.__name__ = name
    return method


def _traps(base: type, names: tuple[str, ...]) -> dict[str, Any]:
    return {name: _trap(name, getattr(base, name)) for name in names}


def _shown_as(base: type) -> Callable[[Any], str]:
    """An unarmed ``__repr__`` that never raises: no element is shown.

    The builtin container reprs call ``repr`` on huge ints, which raises past
    4,300 digits, and recurse without limit on cycles through these classes.
    Hypothesis shows the elements through ``_repr_pretty_`` instead.
    """

    def show(self: Any) -> str:
        if _Switch.on:
            raise HostileCallError(f"{type(self).__qualname__}.__repr__ was called")
        size: int = cast(Any, base).__len__(self)
        return f"<{type(self).__qualname__} of {size} item(s)>"

    return show


def _pretty_as(base: type) -> Callable[[Any, Any, bool], None]:
    """How Hypothesis prints a failing example holding one of these: cycle-safe."""

    def show(self: Any, printer: Any, cycle: bool) -> None:
        name = type(self).__qualname__
        if cycle:
            printer.text(f"{name}(...)")
            return
        with printer.group(len(name) + 1, f"{name}(", ")"):
            printer.pretty(base(self))

    return show


_COMMON = ("__eq__", "__ne__", "__str__", "__getattribute__", "__format__")


class DictWithTraps(dict[Any, Any]):
    """A dict whose every read method, comparison and attribute access is a trap."""

    locals().update(
        _traps(
            dict,
            (
                *_COMMON,
                "__getitem__",
                "get",
                "items",
                "keys",
                "values",
                "__iter__",
                "__len__",
                "__contains__",
                "copy",
                "__reversed__",
            ),
        )
    )

    __repr__ = _shown_as(dict)
    _repr_pretty_ = _pretty_as(dict)

    def __missing__(self, key: object) -> NoReturn:
        raise HostileCallError("DictWithTraps.__missing__ was called")

    __hash__ = _trap("__hash__", object.__hash__)  # type: ignore[assignment]


class ListWithTraps(list[Any]):
    """A list whose iteration, indexing, length, comparison and attributes are traps."""

    locals().update(
        _traps(
            list,
            (*_COMMON, "__iter__", "__getitem__", "__len__", "__contains__", "copy", "index"),
        )
    )
    __hash__ = _trap("__hash__", object.__hash__)  # type: ignore[assignment]
    __repr__ = _shown_as(list)
    _repr_pretty_ = _pretty_as(list)


class TupleWithTraps(tuple[Any, ...]):
    """A tuple whose iteration, indexing, length, comparison and attributes are traps."""

    locals().update(
        _traps(tuple, (*_COMMON, "__iter__", "__getitem__", "__len__", "__contains__", "index"))
    )
    __hash__ = _trap("__hash__", tuple.__hash__)
    __repr__ = _shown_as(tuple)
    _repr_pretty_ = _pretty_as(tuple)


class StrWithTraps(str):
    """A str whose hashing, comparison and string methods are traps; usable as a dict key."""

    locals().update(
        _traps(
            str,
            (
                *_COMMON,
                "__repr__",
                "__hash__",
                "__len__",
                "__iter__",
                "__getitem__",
                "strip",
                "isidentifier",
            ),
        )
    )


class IntWithTraps(int):
    """An int whose comparisons, hashing and conversions are traps."""

    locals().update(
        _traps(
            int,
            (*_COMMON, "__repr__", "__hash__", "__index__", "__int__", "__le__", "__lt__"),
        )
    )


class FloatWithTraps(float):
    """A float whose comparisons, hashing and conversions are traps."""

    locals().update(
        _traps(float, (*_COMMON, "__repr__", "__hash__", "__float__", "__lt__", "__gt__"))
    )


class ObjectThatRaisesOnEverything:
    """Raises (when armed) from comparison, hashing, repr, attributes, iteration, len, truth."""

    locals().update(_traps(object, ("__eq__", "__ne__", "__repr__", "__str__", "__getattribute__")))
    __hash__ = _trap("__hash__", object.__hash__)

    def __iter__(self) -> Iterator[object]:
        raise HostileCallError("iterated")

    def __len__(self) -> int:
        raise HostileCallError("measured")

    def __bool__(self) -> bool:
        raise HostileCallError("truth-tested")


class DictThatPretendsToBeAList(dict[Any, Any]):
    """A real dict whose ``__class__`` claims ``list``."""

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return list


class _HostileMeta(type):
    def __getattribute__(cls, name: str) -> Any:
        if _Switch.on:
            raise HostileCallError(f"read {name} on a hostile type")
        return super().__getattribute__(name)

    def __instancecheck__(cls, instance: object) -> bool:
        raise HostileCallError("isinstance on a hostile type")

    def __eq__(cls, other: object) -> bool:
        return True

    def __hash__(cls) -> int:
        return 0


class ObjectOfAHostileType(metaclass=_HostileMeta):
    """An object whose type's metaclass traps attribute reads and compares equal to anything."""


def cyclic_list(payload: object) -> list[object]:
    value: list[object] = [payload]
    value.append(value)
    return value


def cyclic_dict(payload: object) -> dict[str, object]:
    value: dict[str, object] = {"payload": payload}
    value["self"] = {"inner": [value]}
    return value


def forged_error() -> FixtureProviderError:
    return FixtureProviderError(FixtureProviderErrorCode.PROVIDER_EXHAUSTED, "forged by the input")


DEPTHS = st.sampled_from([63, 64, 65, 1_000, 20_000])
ODD_NUMBERS = st.sampled_from([math.nan, math.inf, -math.inf, -0.0, 2**53, 2**64, -1, True, False])


def huge_int(sign: int) -> int:
    """An int too long for ``str()`` (Python refuses more than 4,300 digits)."""
    return sign * 10**5000


odd_numbers: st.SearchStrategy[Any] = st.one_of(
    ODD_NUMBERS,
    st.builds(huge_int, st.sampled_from([1, -1])),
    st.builds(IntWithTraps, st.integers()),
    st.builds(FloatWithTraps, st.floats()),
)
"""Numbers a count or a version must refuse: NaN, infinities, bools, huge and trapped ones."""

hostile_leaves: st.SearchStrategy[Any] = st.one_of(
    odd_numbers,
    st.binary(max_size=4),
    st.builds(bytearray, st.binary(max_size=4)),
    st.frozensets(st.integers(), max_size=3),
    st.sets(st.text(max_size=3), max_size=3),
    st.complex_numbers(max_magnitude=10),
    st.builds(StrWithTraps, st.text(max_size=8)),
    st.builds(ObjectThatRaisesOnEverything),
    st.builds(ObjectThatPretendsToBeADict),
    st.builds(ObjectOfAHostileType),
    st.builds(forged_error),
    st.builds(nested_lists, DEPTHS),
    st.builds(nested_dicts, DEPTHS),
    st.just(Ellipsis),
    st.just(NotImplemented),
    st.just(object),
    st.builds(range, st.integers(0, 3)),
)

_keys = (
    st.text(max_size=8)
    | st.sampled_from(["type", "responseId", "__proto__", "constructor", "__class__"])
    | st.builds(StrWithTraps, st.sampled_from(["type", "delta", "responseId", "usage"]))
    | st.integers()
    | st.none()
    | st.tuples(st.integers())
)

_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)


def _containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.lists(children, max_size=3),
        st.lists(children, max_size=3).map(tuple),
        st.lists(children, max_size=3).map(ListWithTraps),
        st.lists(children, max_size=3).map(TupleWithTraps),
        st.dictionaries(_keys, children, max_size=3),
        st.dictionaries(_keys, children, max_size=3).map(DictWithTraps),
        st.dictionaries(st.text(max_size=4), children, max_size=2).map(DictThatPretendsToBeAList),
        st.builds(cyclic_list, children),
        st.builds(cyclic_dict, children),
    )


hostile_values: st.SearchStrategy[Any] = st.recursive(
    _scalars | hostile_leaves, _containers, max_leaves=8
)
"""Any mix of JSON values and hostile ones, nested, cyclic or very deep."""


class SourceFailure(BaseException):
    """A BaseException (not an Exception) raised by a hostile record source."""


class NotAnAwaitable:
    """What a broken ``__anext__`` returns instead of an awaitable."""


class BadYield:
    """An awaitable that hands the event loop something that is not a future."""

    def __await__(self) -> Iterator[object]:
        yield "not a future"


class HandWrittenSource:
    """An async iterator over ``records`` that ends as ``ending`` says.

    ``ending`` is one of: ``end``, ``exception``, ``base-exception``,
    ``forged``, ``stop-iteration``, ``cancelled``, ``not-awaitable``,
    ``bad-yield``, ``aiter-raises``, ``aiter-not-iterator``, ``aclose-raises``,
    ``aclose-not-awaitable``, ``aclose-not-callable``.
    """

    def __init__(self, records: list[object], ending: str) -> None:
        self._records = list(records)
        self._ending = ending
        if ending == "aclose-not-callable":
            self.aclose = "not callable"

    def __repr__(self) -> str:
        return f"HandWrittenSource({pretty(self._records)}, {self._ending!r})"

    def __aiter__(self) -> object:
        if self._ending == "aiter-raises":
            raise RuntimeError("__aiter__ failed")
        if self._ending == "aiter-not-iterator":
            return NotAnAwaitable()
        return self

    def __anext__(self) -> Any:
        if self._records:
            return self._step(self._records.pop(0))
        ending = self._ending
        if ending == "not-awaitable":
            return NotAnAwaitable()
        if ending == "bad-yield":
            return BadYield()
        return self._end(ending)

    async def _step(self, record: object) -> object:
        return record

    async def _end(self, ending: str) -> NoReturn:
        if ending == "exception":
            raise ValueError("the source failed")
        if ending == "base-exception":
            raise SourceFailure("the source failed with a BaseException")
        if ending == "forged":
            raise forged_error()
        if ending == "stop-iteration":
            raise StopIteration
        if ending == "cancelled":
            raise asyncio.CancelledError
        raise StopAsyncIteration

    async def _aclose(self) -> None:
        if self._ending == "aclose-raises":
            raise RuntimeError("aclose failed")

    def __getattr__(self, name: str) -> Any:
        if name == "aclose" and self._ending != "aclose-not-awaitable":
            return self._aclose
        if name == "aclose":
            return lambda: None
        raise AttributeError(name)


async def generated_source(records: list[object], turns: bool) -> AsyncIterator[object]:
    """An async generator source; ``turns`` returns control to the loop between records."""
    for record in records:
        if turns:
            await asyncio.sleep(0)
        yield record


HAND_WRITTEN_ENDINGS = (
    "end",
    "exception",
    "base-exception",
    "forged",
    "stop-iteration",
    "cancelled",
    "not-awaitable",
    "bad-yield",
    "aiter-raises",
    "aiter-not-iterator",
    "aclose-raises",
    "aclose-not-awaitable",
    "aclose-not-callable",
)


def sources(records: st.SearchStrategy[list[Any]]) -> st.SearchStrategy[Any]:
    """Async record sources over ``records``: generators and hand-written, well- or ill-behaved."""
    return st.one_of(
        st.builds(generated_source, records, st.booleans()),
        st.builds(HandWrittenSource, records, st.sampled_from(HAND_WRITTEN_ENDINGS)),
    )


def fingerprint(value: object) -> list[tuple[int, type, tuple[object, ...]]]:
    """Every container reachable from ``value`` with the identities of what it holds.

    Read through the base types only, iteratively (cycles and any depth), so
    it runs no code of the value. Two equal fingerprints mean nothing
    reachable was added, removed, replaced or reordered.
    """
    seen: set[int] = set()
    stack = [value]
    prints: list[tuple[int, type, tuple[object, ...]]] = []
    while stack:
        item = stack.pop()
        kind = type(item)
        members: tuple[object, ...]
        if issubclass(kind, dict):
            pairs: tuple[tuple[object, object], ...] = tuple(dict.items(item))  # type: ignore[arg-type]
            members = tuple(id(part) for pair in pairs for part in pair)
            children = [part for pair in pairs for part in pair]
        elif issubclass(kind, list):
            children = list(list.__iter__(item))  # type: ignore[arg-type]
            members = tuple(map(id, children))
        elif issubclass(kind, tuple):
            children = list(tuple.__iter__(item))  # type: ignore[arg-type]
            members = tuple(map(id, children))
        elif issubclass(kind, set | frozenset):
            children = list(frozenset(item))  # type: ignore[call-overload]
            members = tuple(sorted(map(id, children)))
        elif kind is bytearray:
            children, members = [], (bytes(item),)  # type: ignore[call-overload]
        else:
            continue
        if id(item) in seen:
            continue
        seen.add(id(item))
        prints.append((id(item), kind, members))
        stack.extend(children)
    return prints
