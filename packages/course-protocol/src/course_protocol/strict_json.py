"""Strict JSON text: the one decoder for files a user hands the workspace.

``json.loads`` accepts what JSON does not: ``NaN`` and ``Infinity``,
duplicate object keys (the last silently wins), numbers that overflow a
float to ``inf``. A cassette holding any of these is a mistake to report,
never a value to guess at; a course fixture reads an overflowing number as
the reference course's JavaScript does (``overflow_to_infinity``).

A public module: the fixture adapter and the cassettes import it as
``course_protocol.strict_json``.
"""

from __future__ import annotations

import json
import math
from typing import NoReturn

from returns.result import Failure, Result, Success

from course_protocol.untrusted import shown

__all__ = ["loads_strict_json"]


class _NotStrictError(ValueError):
    """Raised from inside the decoder's hooks; turned into a reason by `loads_strict_json`."""


def _unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    document: dict[str, object] = {}
    for key, value in pairs:
        if key in document:
            raise _NotStrictError(f"duplicate object key {json.dumps(key)}")
        document[key] = value
    return document


def _no_constant(name: str) -> NoReturn:
    raise _NotStrictError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        # 1e400 overflows to inf: no more a usable number than Infinity is.
        raise _NotStrictError(f"the number {shown(text)} overflows a float")
    return value


# The largest double, 1.797...e308, has 309 integer digits: a literal with
# fewer can never overflow one.
_DOUBLE_DIGITS = 309


def _int_or_infinity(text: str) -> int | float:
    # What JSON.parse reads: an integer past the largest double is an infinity;
    # below it, Python's exact int (float() rounds as JavaScript does).
    if len(text.lstrip("-")) >= _DOUBLE_DIGITS:
        value = float(text)
        if math.isinf(value):
            return value
    return int(text)


def loads_strict_json(
    text: bytes | str, *, overflow_to_infinity: bool = False
) -> Result[object, str]:
    """Strict JSON ``text`` (``bytes`` must be UTF-8) as plain values.

    Returns ``Success`` with dicts, lists, str, int, float, bool and None,
    or ``Failure`` with one line saying why the text is refused, for the
    caller to put in its own error: not valid UTF-8, not JSON (with line and
    column), duplicate object keys, ``NaN``/``Infinity``, a number that
    overflows a float, an integer too long to convert, nesting too deep to
    parse. Never raises.

    ``overflow_to_infinity=True`` reads a number past the largest float
    (``1e400``, ``-1E+999``, an integer of 310 digits or more) as the
    infinity of its sign, as JavaScript's ``JSON.parse`` does, instead of
    refusing it: for documents a JavaScript program reads too, whose reader
    judges each number where it is used. ``NaN`` and ``Infinity``, which
    are not JSON, are refused all the same.
    """
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        if overflow_to_infinity:
            return Success(
                json.loads(
                    text,
                    object_pairs_hook=_unique_keys,
                    parse_constant=_no_constant,
                    parse_int=_int_or_infinity,
                )
            )
        return Success(
            json.loads(
                text,
                object_pairs_hook=_unique_keys,
                parse_constant=_no_constant,
                parse_float=_finite_float,
            )
        )
    except UnicodeDecodeError as error:
        return Failure(f"not valid UTF-8 (invalid UTF-8 at byte {error.start})")
    except json.JSONDecodeError as error:
        return Failure(f"not JSON: {error.msg} at line {error.lineno} column {error.colno}")
    except RecursionError:
        return Failure("not usable JSON: nesting is too deep to parse")
    except ValueError as error:
        return Failure(f"not strict JSON: {error}")
