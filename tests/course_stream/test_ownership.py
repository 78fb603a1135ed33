"""claim_iterator_once: one claim per physical object, for the life of the process."""

from __future__ import annotations

import gc
import weakref
from collections.abc import AsyncGenerator

from course_stream import claim_iterator_once


class SlottedWithoutWeakref:
    """An object that cannot be weakly referenced; records when it is destroyed."""

    __slots__ = ("destroyed",)

    def __init__(self, destroyed: list[str]) -> None:
        self.destroyed = destroyed

    def __del__(self) -> None:
        self.destroyed.append("gone")


class EqualToEverything:
    """Claims must go by identity: this object's equality and hash must never be used."""

    def __eq__(self, other: object) -> bool:
        raise AssertionError("__eq__ must not be called")

    def __hash__(self) -> int:
        raise AssertionError("__hash__ must not be called")


async def numbers() -> AsyncGenerator[int, None]:
    yield 1


async def test_an_async_generator_is_claimed_once() -> None:
    generator = numbers()

    assert claim_iterator_once(generator) is True
    assert claim_iterator_once(generator) is False
    assert claim_iterator_once(generator) is False
    await generator.aclose()


def test_two_distinct_objects_are_claimed_independently() -> None:
    first, second = object.__new__(EqualToEverything), object.__new__(EqualToEverything)

    assert claim_iterator_once(first) is True
    assert claim_iterator_once(second) is True
    assert claim_iterator_once(first) is False


def test_an_object_without_weakref_support_is_claimed_once() -> None:
    obj = SlottedWithoutWeakref([])

    assert claim_iterator_once(obj) is True
    assert claim_iterator_once(obj) is False


def test_an_int_is_claimed_once() -> None:
    # A value unlikely to be shared with any other test of the process.
    number = 10**40 + 7

    assert claim_iterator_once(number) is True
    assert claim_iterator_once(number) is False


def test_a_claimed_object_without_weakref_support_is_kept_alive() -> None:
    destroyed: list[str] = []
    obj = SlottedWithoutWeakref(destroyed)
    claim_iterator_once(obj)

    del obj
    gc.collect()

    assert destroyed == []


def test_the_registry_does_not_keep_a_weakly_referenceable_object_alive() -> None:
    class Iterator:
        pass

    obj = Iterator()
    watcher = weakref.ref(obj)
    claim_iterator_once(obj)

    del obj
    gc.collect()

    assert watcher() is None


def test_a_new_object_is_unclaimed_after_a_claimed_one_died() -> None:
    class Iterator:
        pass

    for _ in range(1_000):
        assert claim_iterator_once(Iterator()) is True
