"""Numbers in a fixture are read as the reference reads them: an integral number is an integer.

The reference course parses JSON into numbers and checks ``Number.isInteger``
(``Number.isSafeInteger`` for counts), so ``12.0``, ``1E1`` and ``-0.0`` are
the integers 12, 10 and 0 there. Each table row is the JSON text of one
number, spelled exactly (``json.dumps`` would respell it), played through
the adapter from a parsed document and from a file read by ``load_fixture``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from returns.result import Failure, Success

from course_provider_fixture import (
    FixtureProviderAdapter,
    FixtureProviderError,
    FixtureProviderErrorCode,
    load_fixture,
    parse_wire_usage,
)
from course_stream import AbortController
from tests.requests import request
from tests.streams import settle

Code = FixtureProviderErrorCode
ALIASES = ("inputTokens", "input_tokens", "outputTokens", "output_tokens")
_PARTNER = {
    "inputTokens": "outputTokens",
    "input_tokens": "output_tokens",
    "outputTokens": "inputTokens",
    "output_tokens": "input_tokens",
}

INTEGRAL_COUNTS = [
    ("12", 12),
    ("12.0", 12),
    ("1E1", 10),
    ("1e1", 10),
    ("1.2e1", 12),
    ("100e-2", 1),
    ("-0.0", 0),
    ("-0", 0),
    ("0.0", 0),
    ("0e5", 0),
    ("9007199254740991", 2**53 - 1),
    ("9007199254740991.0", 2**53 - 1),
    ("9.007199254740991e15", 2**53 - 1),
    # Rounds to exactly 1.0 when parsed, in JavaScript as in Python.
    ("1.0000000000000001", 1),
]
REFUSED_COUNTS = [
    "12.5",
    "0.5",
    "-1",
    "-1.0",
    "-1e0",
    "9007199254740992",
    "9007199254740992.0",
    "1e16",
    "true",
    "false",
    "null",
    '"12"',
    "[12]",
    "{}",
]

INTEGRAL_VERSIONS = ["1", "1.0", "1E0", "1e0", "100e-2", "10e-1", "0.1e1", "1.0000000000000001"]
REFUSED_VERSIONS = ["true", "1.5", "2.0", "0.0", "-1.0", "0.9999999999999999", '"1"', "null"]


def fixture_text(version: str = "1", usage: str = '"inputTokens": 3, "outputTokens": 5') -> str:
    return (
        f'{{"schemaVersion": {version}, "responses": [{{"records": ['
        '{"type": "response_start", "responseId": "r-1", "role": "assistant"}, '
        '{"type": "text_delta", "text": "hi"}, '
        '{"type": "response_end", "responseId": "r-1", "stopReason": "stop", '
        f'"usage": {{{usage}}}}}]}}]}}'
    )


def usage_text(alias: str, number: str) -> str:
    return f'"{alias}": {number}, "{_PARTNER[alias]}": 7'


def documents(text: str, tmp_path: Path) -> dict[str, object]:
    """The same fixture text as ``json.loads`` parses it and as ``load_fixture`` reads a file."""
    path = tmp_path / "fixture.json"
    path.write_text(text, encoding="utf-8")
    loaded = load_fixture(path)
    assert isinstance(loaded, Success), loaded
    return {"parsed": json.loads(text), "file": loaded.unwrap()}


async def played_usage(document: object) -> tuple[int, int] | FixtureProviderError:
    adapter = FixtureProviderAdapter(document)
    settled = await settle(adapter.stream(request("request-1"), AbortController().signal))
    if settled.result_error is not None:
        assert type(settled.result_error) is FixtureProviderError
        return settled.result_error
    assert settled.result is not None
    usage = settled.result.usage
    return usage.input_tokens, usage.output_tokens


@pytest.mark.parametrize("alias", ALIASES)
@pytest.mark.parametrize(
    ("number", "expected"), INTEGRAL_COUNTS, ids=[n for n, _ in INTEGRAL_COUNTS]
)
async def test_an_integral_count_is_the_int_it_equals_under_every_alias(
    alias: str, number: str, expected: int, tmp_path: Path
) -> None:
    for source, document in documents(
        fixture_text(usage=usage_text(alias, number)), tmp_path
    ).items():
        outcome = await played_usage(document)

        assert not isinstance(outcome, FixtureProviderError), (source, outcome)
        count = outcome[0] if alias.startswith("input") else outcome[1]
        assert (count, type(count)) == (expected, int), source
    parsed = parse_wire_usage(json.loads(f"{{{usage_text(alias, number)}}}"))
    assert isinstance(parsed, Success)
    counts = (parsed.unwrap().input_tokens, parsed.unwrap().output_tokens)
    assert counts[0 if alias.startswith("input") else 1] == expected


@pytest.mark.parametrize("alias", ALIASES)
@pytest.mark.parametrize("number", REFUSED_COUNTS)
async def test_a_count_that_is_not_a_safe_integer_is_an_invalid_event(
    alias: str, number: str, tmp_path: Path
) -> None:
    for source, document in documents(
        fixture_text(usage=usage_text(alias, number)), tmp_path
    ).items():
        outcome = await played_usage(document)

        assert isinstance(outcome, FixtureProviderError), source
        assert outcome.code is Code.PROVIDER_INVALID_EVENT
        assert outcome.record_index == 2
        assert outcome.path == f"responses[0].records[2].usage.{alias}"
    assert isinstance(parse_wire_usage(json.loads(f"{{{usage_text(alias, number)}}}")), Failure)


@pytest.mark.parametrize("version", INTEGRAL_VERSIONS)
async def test_a_schema_version_equal_to_one_is_version_one(version: str, tmp_path: Path) -> None:
    for source, document in documents(fixture_text(version), tmp_path).items():
        assert await played_usage(document) == (3, 5), source


@pytest.mark.parametrize("version", REFUSED_VERSIONS)
def test_a_schema_version_that_is_not_the_number_one_is_an_invalid_fixture(
    version: str, tmp_path: Path
) -> None:
    for source, document in documents(fixture_text(version), tmp_path).items():
        result = FixtureProviderAdapter.from_fixture(document)

        assert isinstance(result, Failure), source
        error = result.failure()
        assert (error.code, error.path) == (Code.PROVIDER_INVALID_FIXTURE, "schemaVersion")


def test_a_schema_version_message_shows_the_integer_a_float_equals() -> None:
    result = FixtureProviderAdapter.from_fixture(json.loads(fixture_text("2.0")))

    assert isinstance(result, Failure)
    assert "schemaVersion must be 1, got 2" in result.failure().message


@pytest.mark.parametrize("number", ["NaN", "Infinity"])
def test_a_constant_that_is_no_json_number_is_refused_when_the_file_is_loaded(
    number: str, tmp_path: Path
) -> None:
    path = tmp_path / "fixture.json"
    path.write_text(fixture_text(usage=usage_text("inputTokens", number)), encoding="utf-8")

    loaded = load_fixture(path)

    assert isinstance(loaded, Failure)
    assert loaded.failure().code is Code.PROVIDER_INVALID_FIXTURE
