"""What of a call may reach a cassette: allow-listed headers, masked keys, scrubbed credentials.

Recording and replay both pass every request through `redacted_request`, so
a replayed request is compared with the recorded one after the same masks:
a masked value matches whatever the code sends there.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Final

from frozendict import frozendict

from course_cassettes._cassette import Redaction
from course_cassettes._json_paths import parse_json_path, rewrite_at_paths, rewrite_fields
from course_http import (
    REDACTED,
    SECRET_HEADERS,
    SHORTEST_CREDENTIAL,
    RecordedRequest,
    RecordedResponse,
    ResponseEnd,
    masked_path,
    query_credentials,
    request_secrets,
    scrub,
)
from course_protocol import JsonObject, freeze_json_object

__all__ = [
    "KEPT_REQUEST_HEADERS",
    "KEPT_RESPONSE_HEADERS",
    "checked_extra_headers",
    "merged_redaction",
    "redacted_request",
    "redacted_response",
    "remasked_request",
    "request_secrets",
    "unmasked_query_keys",
]

KEPT_REQUEST_HEADERS: Final = frozenset({"accept", "content-type"})
"""Request headers a cassette keeps, besides every ``*-version`` and ``*-beta`` header."""

# API versions and beta flags change what a vendor answers, so a reviewer
# should see them; the client's own headers (user-agent, accept-encoding)
# only make noise in a diff.
_KEPT_REQUEST_SUFFIXES: Final = ("-version", "-beta")

# The official SDKs describe themselves on every request (package and runtime
# versions, OS, retry count, timeout): ``x-stainless-package-version`` ends in
# "-version" but says nothing of what the vendor answers, and changes with
# every upgrade of the SDK.
_SDK_TELEMETRY_PREFIX: Final = "x-stainless-"

KEPT_RESPONSE_HEADERS: Final = frozenset(
    {"content-type", "content-encoding", "retry-after", "retry-after-ms"}
)
"""Response headers a cassette keeps: what the client reads (the body's type and encoding,
when to retry). Request ids, rate-limit counters and dates change on every recording."""


SIGNING_HEADERS: Final = frozenset({"x-amz-date", "x-amz-content-sha256"})
"""Request headers a signed call (AWS SigV4) sets anew each time: never kept, never matched."""


def checked_extra_headers(names: object) -> frozenset[str]:
    """More header names to keep (lower-cased).

    Raises ``TypeError`` when ``names`` is not a list or tuple of ``str``;
    ``ValueError`` for a secret one (`course_http.SECRET_HEADERS`) and for
    one a signed call sets anew each time (`SIGNING_HEADERS`: kept, it would
    make every later call a mismatch).
    """
    if not isinstance(names, (list, tuple)):
        raise TypeError(f"keep_headers must be a list or tuple, not {type(names).__name__}")
    kept: set[str] = set()
    for name in names:
        if type(name) is not str:
            raise TypeError(f"keep_headers must hold str, not {type(name).__name__}")
        if name.lower() in SECRET_HEADERS:
            raise ValueError(f"{name!r} holds credentials: it is never written to a cassette")
        if name.lower() in SIGNING_HEADERS:
            raise ValueError(
                f"{name!r} changes with every signed call: kept, no later call would match"
            )
        kept.add(name.lower())
    return frozenset(kept)


def redacted_request(
    method: str,
    path: str,
    headers: Mapping[str, str],
    body: object,
    redaction: Redaction,
    secrets: Iterable[str],
    *,
    extra_headers: frozenset[str] = frozenset(),
) -> RecordedRequest:
    """The request as a cassette holds it: kept headers, masked path and body, no credential.

    ``body`` is the JSON object sent (plain or frozen); ``secrets`` are the
    credentials the request carried (`request_secrets`), scrubbed wherever
    they appear. Recording and replay both call it, so a replayed request is
    compared as a recording of it would hold it: a key too short to be told
    from text (`course_http._secrets.SHORTEST_CREDENTIAL`) is scrubbed in
    neither. Raises ``ValueError`` when ``body`` is not a JSON
    object within the nesting limit.
    """
    shown = tuple(secrets)
    kept = {
        name.lower(): scrub(value, shown)
        for name, value in headers.items()
        if _kept_request_header(name.lower(), extra_headers)
    }
    return RecordedRequest(
        method=method,
        path=masked_path(scrub(path, shown)),
        body=masked_body(body, redaction, shown),
        headers=frozendict(sorted(kept.items())),
    )


def merged_redaction(first: Redaction, second: Redaction) -> Redaction:
    """What both ``first`` and ``second`` mask: their fields, then their paths, each once."""
    return Redaction(
        fields=tuple(dict.fromkeys((*first.fields, *second.fields))),
        paths=tuple(dict.fromkeys((*first.paths, *second.paths))),
    )


def remasked_request(request: RecordedRequest, redaction: Redaction) -> RecordedRequest:
    """``request`` (already recorded) with ``redaction``'s fields and paths masked in its body.

    Masking twice is masking once, so a call recorded under fewer masks reads
    as if recorded under these.
    """
    return dataclasses.replace(request, body=masked_body(request.body, redaction, ()))


def redacted_response(
    status: int,
    headers: Mapping[str, str],
    body: bytes,
    end: ResponseEnd,
    secrets: Iterable[str],
    *,
    extra_headers: frozenset[str] = frozenset(),
) -> RecordedResponse:
    """The response as a cassette holds it: kept headers, and any echoed credential scrubbed.

    The body is kept byte for byte, except that a credential of the request
    echoed in it is replaced with ``[redacted]``, as is a body's ending that
    is the start of one (8 bytes or more: a body cut inside an echoed key).
    """
    shown = tuple(secrets)
    kept = {
        name.lower(): scrub(value, shown)
        for name, value in headers.items()
        if name.lower() not in SECRET_HEADERS
        and (name.lower() in KEPT_RESPONSE_HEADERS or name.lower() in extra_headers)
    }
    for secret in shown:
        body = body.replace(secret.encode("utf-8", "surrogatepass"), REDACTED.encode())
    return RecordedResponse(
        status, dict(sorted(kept.items())), _without_cut_secret(body, shown), end
    )


def _without_cut_secret(body: bytes, secrets: tuple[str, ...]) -> bytes:
    # A body may stop inside an echoed key (a dropped connection, an abort):
    # its last bytes are then the start of the key. A shorter start than a
    # credential is kept, as it is no more than a vendor's public key prefix.
    for secret in secrets:
        encoded = secret.encode("utf-8", "surrogatepass")
        for length in range(len(encoded) - 1, SHORTEST_CREDENTIAL - 1, -1):
            if body.endswith(encoded[:length]):
                return body[:-length] + REDACTED.encode()
    return body


def unmasked_query_keys(path: str) -> list[str]:
    """The names, as written, of the `MASKED_QUERY_KEYS` parameters of ``path`` that hold a
    value other than ``[redacted]``: a key a cassette must never hold."""
    return [name for name, value in query_credentials(path) if value not in ("", REDACTED)]


def masked_body(body: object, redaction: Redaction, secrets: tuple[str, ...]) -> JsonObject:
    """``body`` with ``redaction``'s fields and paths masked and ``secrets`` scrubbed, frozen.

    Raises ``ValueError`` when ``body`` is not a JSON object within the
    nesting limit; it is checked before anything walks it.
    """
    masked = rewrite_fields(_frozen(body), frozenset(redaction.fields), _mask)
    masked = rewrite_at_paths(masked, [parse_json_path(path) for path in redaction.paths], _mask)
    return _frozen(_scrubbed(masked, secrets))


def _frozen(body: object) -> JsonObject:
    frozen = freeze_json_object(body, "body")
    if not isinstance(frozen.value_or(None), Mapping):
        problem = frozen.failure()
        raise ValueError(f"{problem.path}: {problem.message}")
    return frozen.unwrap()


def _mask(value: object) -> object:
    del value
    return REDACTED


def _scrubbed(value: object, secrets: tuple[str, ...]) -> object:
    if not secrets:
        return value
    if isinstance(value, str):
        return scrub(value, secrets)
    if isinstance(value, Mapping):
        return {scrub(key, secrets): _scrubbed(item, secrets) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_scrubbed(item, secrets) for item in value]
    return value


def _kept_request_header(name: str, extra: frozenset[str]) -> bool:
    if name in SECRET_HEADERS:
        return False
    if name.startswith(_SDK_TELEMETRY_PREFIX) and name not in extra:
        return False
    return name in KEPT_REQUEST_HEADERS or name in extra or name.endswith(_KEPT_REQUEST_SUFFIXES)
