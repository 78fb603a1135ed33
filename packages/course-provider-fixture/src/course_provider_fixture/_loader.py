"""Strict reading of fixture files: the JSON the standard library would let slide fails here."""

from __future__ import annotations

import json
import math
import os
from typing import NoReturn

from returns.result import Failure, Result, Success

from course_provider_fixture._errors import FixtureProviderError, FixtureProviderErrorCode


class _StrictJsonError(ValueError):
    """Raised from inside the json hooks; translated once in :func:`load_fixture`."""


def _reject_duplicate_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    document: dict[str, object] = {}
    for key, value in pairs:
        if key in document:
            raise _StrictJsonError(f"duplicate object key {json.dumps(key)}")
        document[key] = value
    return document


def _reject_constant(name: str) -> NoReturn:
    raise _StrictJsonError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        # 1e400 overflows to inf: no more a usable number than Infinity is.
        raise _StrictJsonError(f"the number {text[:40]} overflows a float")
    return value


def _invalid(name: str, reason: str) -> Failure[FixtureProviderError]:
    return Failure(
        FixtureProviderError(
            FixtureProviderErrorCode.PROVIDER_INVALID_FIXTURE,
            f"Fixture file {name} {reason}",
        )
    )


def loads_fixture(text: bytes | str) -> object:
    """Parse strict JSON text into plain values, raising ``ValueError`` when it is not.

    Rejects duplicate object keys, ``NaN``/``Infinity``/``-Infinity``,
    numbers that overflow a float (``1e400``) and,
    for ``bytes``, anything that is not valid UTF-8. Raises ``ValueError``
    (``UnicodeDecodeError`` and ``json.JSONDecodeError`` are subclasses) or
    ``RecursionError`` for nesting deeper than the interpreter allows.
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    return json.loads(
        text,
        object_pairs_hook=_reject_duplicate_keys,
        parse_constant=_reject_constant,
        parse_float=_finite_float,
    )


def load_fixture(path: str | os.PathLike[str]) -> Result[object, FixtureProviderError]:
    """Read and strictly parse the fixture file at ``path`` into plain JSON values.

    Returns ``Success`` with the parsed document (dicts, lists, str, int,
    float, bool, None), ready for ``FixtureProviderAdapter.from_fixture``.
    Returns ``Failure`` with ``PROVIDER_INVALID_FIXTURE`` when the file is
    missing or unreadable (the OS reason is in the message), is not valid
    UTF-8, or is not strict JSON: duplicate keys, ``NaN``/``Infinity``, numbers
    that overflow a float,
    nesting too deep to parse, integers too long to convert. Never raises.
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
    try:
        return Success(loads_fixture(data))
    except UnicodeDecodeError as error:
        return _invalid(name, f"is not valid UTF-8 (invalid UTF-8 at byte {error.start})")
    except json.JSONDecodeError as error:
        return _invalid(
            name, f"is not JSON: {error.msg} at line {error.lineno} column {error.colno}"
        )
    except RecursionError:
        return _invalid(name, "is not usable JSON: nesting is too deep to parse")
    except ValueError as error:
        return _invalid(name, f"is not strict JSON: {error}")
