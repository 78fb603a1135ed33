"""Strict reading of fixture files: the JSON the standard library would let slide fails here."""

from __future__ import annotations

import os

from returns.result import Failure, Result

from course_protocol.strict_json import loads_strict_json
from course_provider_fixture._errors import FixtureProviderError, FixtureProviderErrorCode

__all__ = ["load_fixture"]


def _invalid_error(name: str, reason: str) -> FixtureProviderError:
    return FixtureProviderError(
        FixtureProviderErrorCode.PROVIDER_INVALID_FIXTURE, f"Fixture file {name} {reason}"
    )


def _invalid(name: str, reason: str) -> Failure[FixtureProviderError]:
    return Failure(_invalid_error(name, reason))


def load_fixture(path: str | os.PathLike[str]) -> Result[object, FixtureProviderError]:
    """Read and strictly parse the fixture file at ``path`` into plain JSON values.

    Returns ``Success`` with the parsed document (dicts, lists, str, int,
    float, bool, None), ready for ``FixtureProviderAdapter.from_fixture``.
    Numbers are read as the reference's ``JSON.parse`` reads them: one past
    the largest float (``1e400``, an integer of 310 digits or more) is the
    infinity of its sign, judged where the fixture's reader uses it (refused
    as a count or in Tool-call arguments when the record plays, ignored in
    a field nobody reads). Returns ``Failure`` with
    ``PROVIDER_INVALID_FIXTURE`` when the file is missing or unreadable (the
    OS reason is in the message), is not valid UTF-8, or is not strict
    JSON: duplicate keys, ``NaN``/``Infinity`` (no JSON numbers, for
    ``JSON.parse`` either), nesting too deep to parse. Never raises.
    """
    given: object = path
    if not isinstance(given, str | os.PathLike):
        # open() would treat an int as a file descriptor.
        return _invalid(repr(given), "is not given as a path")
    name = repr(os.fsdecode(path))
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError as error:
        return _invalid(name, f"cannot be read: {error.strerror or error}")
    except (TypeError, ValueError) as error:
        return _invalid(name, f"cannot be opened: {error}")
    return loads_strict_json(data, overflow_to_infinity=True).alt(
        lambda reason: _invalid_error(name, f"is {reason}")
    )
