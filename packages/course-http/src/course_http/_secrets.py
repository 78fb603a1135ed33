"""Keeping credentials out of all the transports show: secret headers, query keys, a scrubber.

Pure text: every repr and message of a request masks with these, and so does
what a cassette records (`course_cassettes._redaction` builds on them), what an
error says (`course_http._error_scrub`) and what is logged
(`course_http._log_masking`). A credential is what `request_secrets` finds
in a request, `SHORTEST_CREDENTIAL` characters or more, in each form a
server may echo it in (as sent, percent-decoded, base64); `scrub` replaces
it wherever it occurs, `scrub_shown` also where a text cut to length ends in it.
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
    "SHORTEST_CREDENTIAL",
    "masked_path",
    "percent_decoded",
    "query_credentials",
    "request_secrets",
    "scrub",
    "scrub_shown",
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
        "x-amz-security-token",
        "cookie",
        "set-cookie",
    }
)
"""Header names (lower case) whose values are credentials: never recorded, shown or logged."""

REDACTED = "[redacted]"
"""What a secret is replaced with wherever a transport shows text."""

MASKED_QUERY_KEYS: Final = frozenset({"key", "api_key", "api-key", "apikey", "access_token"})
"""Query parameters whose values are masked in a recorded path (``?key=...`` keys)."""

SHORTEST_CREDENTIAL: Final = 8
"""The fewest characters a value must have to be scrubbed from text as a credential.

A shorter one (``api_key="x"``, what a client pointed at a local server is
given) cannot be told apart from text: scrubbing it would mangle every body
and message it occurs in (``max_tokens`` would become ``ma[redacted]_tokens``).
It is still never sent to a cassette, a repr or a log as a header or query
value: those are masked by name. A piece of a credential's start shorter
than this is no more than a vendor's public key prefix (``sk-ant-``)."""


# An authorization scheme ("Bearer", "Basic", "AWS4-HMAC-SHA256"): an HTTP token without "=".
_AUTH_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*")


def secret_values(headers: Mapping[str, str]) -> tuple[str, ...]:
    """The credentials held by ``headers``, longest first, to `scrub` from text.

    Each secret header's whole value, and for an ``authorization`` value such
    as ``Bearer sk-...`` also the token after the scheme, since a server may
    echo the token alone. A ``Basic`` token is base64 of ``user:password``:
    the pair, and each of its parts, are credentials in clear (the key may
    be either). Only values of `SHORTEST_CREDENTIAL` characters or more
    count; a value whose token is shorter (``Bearer x``) holds none.
    """
    found: set[str] = set()
    for name, value in headers.items():
        if name.lower() not in SECRET_HEADERS or not value:
            continue
        scheme, space, token = value.partition(" ")
        token = token.strip()
        if not (space and token and _AUTH_SCHEME.fullmatch(scheme)):
            # One credential, whatever its spaces (a cookie: "a=1; b=2").
            found.add(value)
            continue
        if len(token) < SHORTEST_CREDENTIAL:
            # The scheme is public: "Bearer x" holds no more secret than "x".
            continue
        found.update((value, token))
        if scheme.lower() == "basic":
            found.update(_basic_credentials(token))
    return _credentials(found)


def request_secrets(headers: Mapping[str, str], path: str) -> tuple[str, ...]:
    """The credentials a request carries, in every form shown, longest first: all to scrub.

    Those of its headers (`secret_values`), and the value of each
    `MASKED_QUERY_KEYS` parameter of ``path`` (`query_credentials`), as
    written and percent-decoded: a vendor that takes its key in the query
    may echo it in an error. Each of them also as base64 shows it, in the
    standard and the URL-safe alphabet: whole, with or without its ``=``
    padding, and the part that stays the same inside a longer base64 text
    (``base64("Bearer " + key)``, a Basic token of ``"user:" + key``), all
    but the characters it shares with its neighbours (at most 2 of its bytes
    at each end). Values shorter than `SHORTEST_CREDENTIAL` are left out.
    """
    found = set(secret_values(headers))
    for _name, value in query_credentials(path):
        found.update({value, percent_decoded(value)})
    clear = _credentials(found)
    return _credentials({*clear, *(form for secret in clear for form in _base64_forms(secret))})


def _credentials(found: Iterable[str]) -> tuple[str, ...]:
    kept = (secret for secret in found if len(secret) >= SHORTEST_CREDENTIAL)
    return tuple(sorted(kept, key=lambda secret: (-len(secret), secret)))


def _basic_credentials(token: str) -> set[str]:
    try:
        pair = base64.b64decode(token, validate=True).decode("utf-8", "replace")
    except (binascii.Error, ValueError):
        return set()
    user, _colon, password = pair.partition(":")
    # The key may be either part (some APIs take it as the user, with a dummy
    # password such as "X"); a short part is dropped with the other short values.
    return {pair, user, password} if pair else set()


def _base64_forms(secret: str) -> frozenset[str]:
    """``secret`` (its UTF-8 bytes) as base64 shows it, in the standard and the URL-safe alphabet.

    Whole, with and without its ``=`` padding; and, for a secret encoded
    inside a longer text (``base64("user:" + key)``), the run of characters
    that encodes it whatever comes before or after: base64 writes 3 bytes as
    4 characters, so the secret's bytes start at one of 3 places in a group,
    and the groups it fills alone read the same every time. The characters
    of the groups it shares with its neighbours (at most 2 of its bytes at
    each end) are not among the forms. Forms shorter than
    `SHORTEST_CREDENTIAL` are left to the caller to drop.
    """
    data = secret.encode("utf-8", "surrogatepass")
    forms: set[str] = set()
    for encode in (base64.b64encode, base64.urlsafe_b64encode):
        whole = encode(data).decode("ascii")
        forms.update((whole, whole.rstrip("=")))
        for shared in range(3):
            alone = data[shared:]
            forms.add(encode(alone[: len(alone) - len(alone) % 3]).decode("ascii"))
    forms.discard("")
    return frozenset(forms)


def scrub(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every occurrence of each secret replaced by `REDACTED`.

    A secret shorter than `SHORTEST_CREDENTIAL` is no credential and is left alone.
    """
    for secret in secrets:
        if len(secret) >= SHORTEST_CREDENTIAL and secret in text:
            text = text.replace(secret, REDACTED)
    return text


def scrub_shown(text: str, secrets: Iterable[str]) -> str:
    """`scrub` for a text shown to a person (an error's message): cut pieces go too.

    A message quotes the vendor's words cut to a length, and the cut may fall
    inside an echoed key: besides each whole secret, every run of text that
    is the start of one, `SHORTEST_CREDENTIAL` characters or more, is
    replaced by `REDACTED` (the longest such run, whichever secret it starts).
    """
    keys = [secret for secret in secrets if len(secret) >= SHORTEST_CREDENTIAL]
    text = scrub(text, keys)
    pieces: list[str] = []
    done = 0
    while True:
        starts = (text.find(key[:SHORTEST_CREDENTIAL], done) for key in keys)
        at = min((start for start in starts if start >= 0), default=-1)
        if at < 0:
            break
        # Two secrets may share a start (a key and its percent-encoded form):
        # the run ends where the last of them parts from the text.
        end = max(at + _shared_length(text, at, key) for key in keys)
        pieces += (text[done:at], REDACTED)
        done = end
    pieces.append(text[done:])
    return "".join(pieces)


def _shared_length(text: str, at: int, key: str) -> int:
    length = 0
    for expected, found in zip(key, text[at : at + len(key)], strict=False):
        if expected != found:
            break
        length += 1
    return length


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


# A query parameter: after a "?" or "&", a name, "=", and a value that runs to
# the next "&" (or, in a line of a log, to the space after the URL).
_PARAMETER = re.compile(r"(?<=[?&])([^=&?#\s]+)=([^&#\s]*)")


def query_credentials(text: str) -> list[tuple[str, str]]:
    """The ``(name, value)`` of each `MASKED_QUERY_KEYS` parameter in ``text``, as written.

    ``text`` is a path with its query, a URL, or a line that holds one. A
    parameter's name is compared as the server reads it: percent-decoded
    (``api%5Fkey`` is ``api_key``), in any case.
    """
    return [
        (found.group(1), found.group(2))
        for found in _PARAMETER.finditer(text)
        if percent_decoded(found.group(1)).lower() in MASKED_QUERY_KEYS
    ]


def masked_path(text: str) -> str:
    """``text`` with the value of each `MASKED_QUERY_KEYS` parameter replaced by ``[redacted]``.

    ``text`` is a path with its query, a URL, or a line of a log holding
    either; parameters are found as `query_credentials` finds them.
    """
    if "=" not in text:
        return text
    return _PARAMETER.sub(_masked_parameter, text)


def _masked_parameter(found: re.Match[str]) -> str:
    name = found.group(1)
    if percent_decoded(name).lower() not in MASKED_QUERY_KEYS:
        return found.group(0)
    return f"{name}={REDACTED}"
