"""How the command writes: JSON Lines, problem lines and trace lines.

Everything the command prints is built here, so the byte-for-byte promises
(stable JSON Lines, one line per problem) live in one place.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import TextIO

from course_cli._problems import Problem

__all__ = [
    "compact_json",
    "format_command_problem",
    "format_problem",
    "json_line",
    "one_line",
    "quoted",
    "trace_line",
    "writer_for",
]

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def json_line(value: object) -> str:
    """One JSON Lines record for a plain JSON value, without the newline.

    The encoding is fixed so output is identical byte for byte on every run
    and platform: keys keep the order the course codec gives them, separators
    are compact, and every non-ASCII character is escaped (so a stdout with
    any encoding can carry it, and a lone surrogate from a fixture's
    ``\\ud800`` escape cannot break the write). Raises ``ValueError`` for a
    non-finite float, which a course value never holds.
    """
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"), allow_nan=False)


def one_line(text: str) -> str:
    """``text`` with control and line-separator characters escaped.

    A message can quote untrusted fixture text; escaping keeps the promise
    of one line per problem.
    """
    return _CONTROL.sub(lambda match: match.group().encode("unicode_escape").decode(), text)


def format_problem(problem: Problem) -> str:
    """The single line that reports ``problem``.

    Shape: ``FILE: response R, record K: CODE: MESSAGE``; the response and
    record parts are left out when unknown, so a grep for the code or the
    file always finds the line.
    """
    where = [one_line(problem.file)]
    position = []
    if problem.response_index is not None:
        position.append(f"response {problem.response_index}")
    if problem.record_index is not None:
        position.append(f"record {problem.record_index}")
    if position:
        where.append(", ".join(position))
    return f"{': '.join(where)}: {problem.code}: {one_line(problem.message)}"


def format_command_problem(command: str, code: str, message: str) -> str:
    """The single line of a problem that belongs to no file: ``course COMMAND: CODE: MESSAGE``.

    What the installed vendor plug-ins are found to be (one that cannot be
    loaded, a wire name two packages register) is said this way, on stderr.
    """
    return f"course {command}: {code}: {one_line(message)}"


_LABEL_WIDTH = 10


def trace_line(label: str, text: str) -> str:
    """One line of the demo trace: a fixed-width label, then ``text`` kept on one line."""
    return f"{label:<{_LABEL_WIDTH}}{one_line(text)}".rstrip() + "\n"


def quoted(text: str) -> str:
    """``text`` as a readable JSON string literal.

    Non-ASCII characters stay as they are for a human reader; a lone
    surrogate (which no output encoding can carry) is written as its
    backslash escape instead of failing the write.
    """
    literal = json.dumps(text, ensure_ascii=False)
    return literal.encode("utf-8", "backslashreplace").decode("utf-8")


def compact_json(value: object) -> str:
    """``value`` (plain JSON values) as compact, readable JSON text.

    A value that cannot be written as JSON text (an integer with more
    digits than Python will convert) is shown as a placeholder rather than
    failing the trace.
    """
    try:
        literal = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except ValueError:
        return "<too large to print>"
    return literal.encode("utf-8", "backslashreplace").decode("utf-8")


def writer_for(stream: TextIO) -> Callable[[str], None]:
    """A ``write`` for ``stream`` that never fails on a character its encoding cannot carry.

    Such characters (a lone surrogate from a fixture's ``\\ud800`` escape, a
    file name that is not valid UTF-8, any non-ASCII text on an ASCII
    terminal) are written as their backslash escapes, so every line the
    command prints reaches the reader in any locale.
    """
    encoding = getattr(stream, "encoding", None) or "utf-8"

    def write(text: str) -> None:
        stream.write(text.encode(encoding, "backslashreplace").decode(encoding))

    return write
