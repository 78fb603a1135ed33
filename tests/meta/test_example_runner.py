"""The per-example runner of the property tests must be able to fail; these tests prove it."""

from __future__ import annotations

import asyncio

import pytest

from tests.properties.runner import ExampleHungError, ExampleLeakedError, run_example


class ExampleOwnError(Exception):
    """Raised by an example; the runner must hand it back unchanged."""


def test_the_runner_returns_the_examples_value_from_a_debug_loop() -> None:
    async def example() -> bool:
        return asyncio.get_running_loop().get_debug()

    assert run_example(example) is True


def test_the_runner_raises_the_examples_own_error_as_the_same_object() -> None:
    error = ExampleOwnError("from the example")

    async def example() -> None:
        raise error

    with pytest.raises(ExampleOwnError) as caught:
        run_example(example)
    assert caught.value is error


def test_a_timeout_error_of_the_example_itself_is_not_reported_as_a_hang() -> None:
    async def example() -> None:
        raise TimeoutError("the example's own deadline")

    with pytest.raises(TimeoutError, match="the example's own deadline"):
        run_example(example)


def test_an_example_that_leaves_a_task_pending_fails() -> None:
    async def example() -> None:
        asyncio.get_running_loop().create_task(asyncio.sleep(3600))

    with pytest.raises(ExampleLeakedError, match="left 1 task"):
        run_example(example)


def test_an_example_whose_task_ends_within_a_few_turns_passes() -> None:
    async def example() -> None:
        asyncio.get_running_loop().create_task(asyncio.sleep(0))

    run_example(example)


def test_an_example_that_drops_a_failed_future_fails() -> None:
    async def example() -> None:
        future = asyncio.get_running_loop().create_future()
        future.set_exception(RuntimeError("nobody looks at me"))

    with pytest.raises(ExampleLeakedError, match="never retrieved"):
        run_example(example)


def test_an_example_that_hangs_fails_instead_of_hanging_the_suite() -> None:
    async def example() -> None:
        await asyncio.Event().wait()

    with pytest.raises(ExampleHungError, match="still running"):
        run_example(example, timeout=0.01)
