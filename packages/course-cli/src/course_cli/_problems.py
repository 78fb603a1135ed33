"""What ``replay`` and ``check`` report: one typed failure, located in its file."""

from __future__ import annotations

import re
from dataclasses import dataclass

from course_provider_fixture import FixtureProviderError

__all__ = ["Problem", "problem_from_error"]

_RESPONSE_PATH = re.compile(r"responses\[(\d+)\]")


@dataclass(frozen=True, slots=True)
class Problem:
    """One typed failure found in a fixture file.

    ``response_index`` is the zero-based position of the response in the
    file's ``responses`` (``None`` when the failure belongs to the file as a
    whole); ``record_index`` is the adapter's zero-based record index
    (``None`` when no single record is at fault).
    """

    file: str
    response_index: int | None
    record_index: int | None
    code: str
    message: str


def problem_from_error(
    file: str, response_index: int | None, error: FixtureProviderError
) -> Problem:
    """The problem ``error`` reports for ``file``.

    ``response_index`` is the response that was playing, or ``None`` for a
    failure while loading or constructing; then the response is recovered
    from the error's path (``responses[3].records`` names response 3), when
    it names one.
    """
    if response_index is None:
        response_index = _response_index_from_path(error.path)
    return Problem(
        file=file,
        response_index=response_index,
        record_index=error.record_index,
        code=error.code.value,
        message=error.message,
    )


def _response_index_from_path(path: str | None) -> int | None:
    if path is None:
        return None
    found = _RESPONSE_PATH.match(path)
    return int(found.group(1)) if found else None
