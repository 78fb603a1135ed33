"""Defects found by the property tests (tests/properties), each reproduced plainly."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from course_provider_fixture import FixtureProviderAdapter, FixtureProviderError
from course_provider_fixture import FixtureProviderErrorCode as Code
from course_stream import AbortController
from tests.course_provider_fixture.records import fixture, start
from tests.requests import request
from tests.streams import failure_of

REQUEST = request("request-1", message_id="m")


class SourceFailure(BaseException):
    """Raised by a record source: a BaseException that is not an Exception."""


async def source_that_raises(error: BaseException) -> AsyncIterator[object]:
    yield start()
    raise error


class SourceWhoseAiterRaises:
    def __aiter__(self) -> AsyncIterator[object]:
        raise SourceFailure("from __aiter__")


async def fixture_failure(records: object) -> FixtureProviderError:
    """The failure of one call playing ``records``: one object, from iteration and result."""
    stream = FixtureProviderAdapter(fixture(records)).stream(REQUEST, AbortController().signal)
    error = await failure_of(stream)
    assert isinstance(error, FixtureProviderError)
    return error


async def test_a_base_exception_raised_by_a_source_step_is_an_invalid_fixture() -> None:
    cause = SourceFailure("from a step")

    error = await fixture_failure(source_that_raises(cause))

    assert (error.code, error.record_index) == (Code.PROVIDER_INVALID_FIXTURE, 1)
    assert error.__cause__ is cause


async def test_a_base_exception_raised_by_a_sources_aiter_is_an_invalid_fixture() -> None:
    error = await fixture_failure(SourceWhoseAiterRaises())

    assert (error.code, error.record_index) == (Code.PROVIDER_INVALID_FIXTURE, 0)
    assert type(error.__cause__) is SourceFailure


async def test_a_generator_exit_raised_by_a_source_is_an_invalid_fixture() -> None:
    error = await fixture_failure(source_that_raises(GeneratorExit()))

    assert error.code is Code.PROVIDER_INVALID_FIXTURE
    assert type(error.__cause__) is GeneratorExit


@pytest.mark.parametrize("sign", [1, -1])
def test_a_schema_version_too_long_to_print_is_an_invalid_fixture(sign: int) -> None:
    version = sign * 10**5000  # str() refuses it: more than 4,300 digits
    result = FixtureProviderAdapter.from_fixture({"schemaVersion": version, "responses": []})

    error = result.failure()
    assert error.code is Code.PROVIDER_INVALID_FIXTURE
    assert error.path == "schemaVersion"
    assert str(error) == "PROVIDER_INVALID_FIXTURE: schemaVersion must be 1, got a large integer"


def test_a_short_wrong_schema_version_is_still_shown_by_value() -> None:
    error = FixtureProviderAdapter.from_fixture({"schemaVersion": 2, "responses": []}).failure()

    assert str(error) == "PROVIDER_INVALID_FIXTURE: schemaVersion must be 1, got 2"
