"""Strict JSON text: the one decoder for files a user hands the workspace.

``json.loads`` accepts what JSON does not: ``NaN`` and ``Infinity``,
duplicate object keys (the last silently wins), numbers that overflow a
float to ``inf``. A fixture or a cassette holding any of these is a mistake
to report, never a value to guess at.

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


def loads_strict_json(text: bytes | str) -> Result[object, str]:
    """Strict JSON ``text`` (``bytes`` must be UTF-8) as plain values.

    Returns ``Success`` with dicts, lists, str, int, float, bool and None,
    or ``Failure`` with one line saying why the text is refused, for the
    caller to put in its own error: not valid UTF-8, not JSON (with line and
    column), duplicate object keys, ``NaN``/``Infinity``, a number that
    overflows a float, an integer too long to convert, nesting too deep to
    parse. Never raises.
    """
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
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
