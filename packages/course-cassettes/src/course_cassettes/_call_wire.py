"""Where a recorded call went: the host it was sent to and the wire that made it.

A path alone may be several wires' (every OpenAI-compatible server answers
``/chat/completions``), so a recording keeps, with each call, the host
(``api.mistral.ai``) and, when it is known, the wire: the one a vendor model
names with its request (``course_http.WIRE_EXTENSION``), else the one the
recording was told (``wire=``). Both are checked here, once, for the
recorder and for the cassette reader (reading them off an httpx2 request is
`_httpx2_calls`'s).
"""

from __future__ import annotations

import re
from typing import Final

from course_http import host_is_loopback, hostname_of
from course_protocol.untrusted import described, shown

__all__ = [
    "MAX_WIRE_NAME_LENGTH",
    "checked_wire_name",
    "host_problem",
    "kept_host",
    "wire_name_problem",
]

MAX_WIRE_NAME_LENGTH: Final = 100
"""The longest wire name a cassette keeps."""

_WIRE_NAME = re.compile(r"[a-z0-9][a-z0-9._-]*")
_HOST = re.compile(r"(?:\[[0-9a-f:.]+\]|[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?)(?::[0-9]{1,5})?")


def wire_name_problem(value: object) -> str | None:
    """Why ``value`` is no wire name a cassette keeps, or ``None`` when it is one.

    A wire name (a ``course.vendors`` entry-point name, ``azure-openai-chat``)
    is lower-case ASCII letters, digits, ``-``, ``.`` and ``_``, starting
    with a letter or digit, at most `MAX_WIRE_NAME_LENGTH` characters.
    """
    if type(value) is not str:
        return f"must be a wire name (a string), not {described(value)}"
    if len(value) > MAX_WIRE_NAME_LENGTH or _WIRE_NAME.fullmatch(value) is None:
        return (
            f"must be a wire name (lower-case letters, digits, '-', '.', '_'), not {shown(value)!r}"
        )
    return None


def checked_wire_name(value: object, what: str) -> str | None:
    """``value`` when it is ``None`` or a wire name; raises for anything else.

    Raises ``TypeError`` for a value that is not a ``str`` (nor ``None``)
    and ``ValueError`` for a ``str`` that is not a wire name, naming ``what``.
    """
    if value is None:
        return None
    if type(value) is not str:
        raise TypeError(f"{what} {wire_name_problem(value)}")
    problem = wire_name_problem(value)
    if problem is not None:
        raise ValueError(f"{what} {problem}")
    return value


def host_problem(value: object) -> str | None:
    """Why ``value`` is no host a cassette keeps, or ``None`` when it is one.

    A host is a lower-case name (IDNA, as sent) or a bracketed IPv6 address,
    with ``:port`` when the URL gave one: never a user or a password (no
    ``@``), a path, a query or a fragment.
    """
    if type(value) is not str:
        return f"must be a host (a string), not {described(value)}"
    if len(value) > 300 or _HOST.fullmatch(value) is None:
        return f"must be a host[:port] alone (no user, path or query), not {shown(value)!r}"
    return None


def kept_host(netloc: str) -> str:
    """``netloc`` (``host[:port]``, as a URL gives it) as a cassette keeps it, lower-case.

    A loopback host (``127.0.0.1``, ``localhost``, ``[::1]``) is kept without
    its port: a local server's port changes from run to run, so the same
    call would record another file each time, and it says nothing of what
    answers there.
    """
    host = netloc.lower()
    if not host_is_loopback(host):
        return host
    return f"[{hostname_of(host)}]" if host.startswith("[") else hostname_of(host)
