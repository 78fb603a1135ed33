"""Keeping credentials out of all the transports show: secret headers, query keys, a scrubber.

Pure text: every repr and message of a request masks with these, and so does
what a cassette records (`course_cassettes._redaction` builds on them).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable, Mapping
from typing import Final

from frozendict import frozendict

__all__ = [
    "MASKED_QUERY_KEYS",
    "REDACTED",
    "SECRET_HEADERS",
    "masked_path",
    "percent_decoded",
    "scrub",
    "secret_values",
    "without_secrets",
]

SECRET_HEADERS = frozenset(
    {
        "authorization",
        "proxy-authorization",
        "x-api-key",
        "api-key",
        "x-goog-api-key",
        "cookie",
        "set-cookie",
    }
)
"""Header names (lower case) whose values are credentials: never recorded, shown or logged."""

REDACTED = "[redacted]"
"""What a secret is replaced with wherever a transport shows text."""

MASKED_QUERY_KEYS: Final = frozenset({"key", "api_key", "api-key", "apikey", "access_token"})
"""Query parameters whose values are masked in a recorded path (``?key=...`` keys)."""


def secret_values(headers: Mapping[str, str]) -> tuple[str, ...]:
    """The credentials held by ``headers``, longest first, to `scrub` from text.

    Each secret header's whole value, and for an ``authorization`` value such
    as ``Bearer sk-...`` also the token after the scheme, since a server may
    echo the token alone. A ``Basic`` token is base64 of ``user:password``:
    the pair, and each part of 8 characters or more (the key may be either),
    are credentials in clear.
    """
    found: set[str] = set()
    for name, value in headers.items():
        if name.lower() not in SECRET_HEADERS or not value:
            continue
        found.add(value)
        _scheme, space, token = value.partition(" ")
        if space and token.strip():
            found.add(token.strip())
            if _scheme.lower() == "basic":
                found.update(_basic_credentials(token.strip()))
    return tuple(sorted(found, key=lambda secret: (-len(secret), secret)))


_SHORTEST_BASIC_PART = 8


def _basic_credentials(token: str) -> set[str]:
    try:
        pair = base64.b64decode(token, validate=True).decode("utf-8", "replace")
    except (binascii.Error, ValueError):
        return set()
    user, _colon, password = pair.partition(":")
    # The key may be either part (some APIs take it as the user, with a dummy
    # password such as "X"); a short part is no key, and scrubbing it would
    # mangle every body it occurs in.
    parts = (part for part in (user, password) if len(part) >= _SHORTEST_BASIC_PART)
    return {pair, *parts} if pair else set()


def scrub(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every occurrence of each secret replaced by `REDACTED`."""
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, REDACTED)
    return text


def without_secrets(headers: Mapping[str, str]) -> frozendict[str, str]:
    """``headers`` (names lower-cased) without the `SECRET_HEADERS`."""
    return frozendict(
        (name.lower(), value)
        for name, value in headers.items()
        if name.lower() not in SECRET_HEADERS
    )


_PERCENT_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")


def percent_decoded(text: str) -> str:
    """``text`` as a server reads a query: ``+`` a space, ``%XX`` the character of that byte."""
    # Byte by byte is enough: a name holding anything but ASCII is no masked key.
    return _PERCENT_ESCAPE.sub(lambda found: chr(int(found.group(1), 16)), text.replace("+", " "))


def masked_path(path: str) -> str:
    """``path`` with the value of each `MASKED_QUERY_KEYS` parameter replaced by ``[redacted]``.

    A parameter's name is compared as the server reads it: percent-decoded
    (``api%5Fkey`` is ``api_key``), in any case.
    """
    target, question, query = path.partition("?")
    if not question:
        return path
    parameters = []
    for parameter in query.split("&"):
        name, equals, _value = parameter.partition("=")
        if equals and percent_decoded(name).lower() in MASKED_QUERY_KEYS:
            parameter = f"{name}={REDACTED}"
        parameters.append(parameter)
    return f"{target}?{'&'.join(parameters)}"
