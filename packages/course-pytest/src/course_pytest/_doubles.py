"""The double fixtures: ``scripted_model`` and ``fixture_provider``, checked at teardown."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from returns.result import Failure

from course_provider_fixture import FixtureProviderAdapter, load_fixture
from course_pytest._outcome import check_consumed
from course_pytest._teardown import fail_unless_consumed
from course_scripted import ScriptedModel

__all__ = ["fixture_provider", "scripted_model"]


@pytest.fixture
def scripted_model(request: pytest.FixtureRequest) -> Iterator[ScriptedModel]:
    """An empty ``ScriptedModel(validate_requests=True)``; give it responses with ``set_responses``.

    At teardown, when the test passed, every scripted response must have been
    played (``assert_consumed``; models derived with ``with_config`` share
    the script, so they are checked too), unless the test is marked
    ``course_allow_unplayed``; the test then fails with the one-line message.
    """
    model = ScriptedModel(validate_requests=True)
    yield model
    if check_consumed(request):
        fail_unless_consumed(model.assert_consumed)


@pytest.fixture
def fixture_provider(
    request: pytest.FixtureRequest,
) -> Iterator[Callable[..., FixtureProviderAdapter]]:
    """``fixture_provider(source, *, match_requests=False)``: a ``FixtureProviderAdapter``.

    ``source`` is a fixture file (a path relative to the test module's folder,
    or absolute) or a fixture document. Requests are validated
    (``validate_requests=True``). At teardown, when the test passed, every
    adapter made must have played all its responses, unless the test is
    marked ``course_allow_unplayed``; the test then fails with a one-line
    message naming the fixture file and the first unplayed response.
    """
    made: list[tuple[FixtureProviderAdapter, str | None]] = []
    folder = Path(request.node.path).parent

    def make(source: object, *, match_requests: bool = False) -> FixtureProviderAdapter:
        document, name = source, None
        if isinstance(source, str | os.PathLike):
            name = os.fsdecode(source)
            loaded = load_fixture(folder / source)
            if isinstance(loaded, Failure):
                raise loaded.failure()
            document = loaded.unwrap()
        adapter = FixtureProviderAdapter(
            document, validate_requests=True, match_requests=match_requests
        )
        made.append((adapter, name))
        return adapter

    yield make
    if check_consumed(request):
        for adapter, name in made:
            fail_unless_consumed(adapter.assert_consumed, name)
