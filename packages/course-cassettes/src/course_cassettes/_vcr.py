"""VCR.py cassettes into course cassettes: `convert_vcr_cassette`, and its report `VcrConversion`.

Each interaction becomes one call, redacted by the recording's own functions
(`redacted_request`, `redacted_response`: the same allow-lists, the same
credentials scrubbed), its body kept decoded as a recording keeps it, then
read back through the cassette format's strict reader and judged by the
strict check it is given. What a course cassette cannot hold is refused,
interaction by interaction, saying why; the rest is converted.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import final

from returns.result import Failure, Result, Success

from course_cassettes._call_wire import host_problem, kept_host
from course_cassettes._cassette import Cassette, CassetteCall, Redaction
from course_cassettes._cassette_json import cassette_to_json, parse_cassette, recording_invalid
from course_cassettes._httpx2_calls import StreamCheck, located
from course_cassettes._recording_log import describes_encoded_body
from course_cassettes._redaction import (
    checked_extra_headers,
    redacted_request,
    redacted_response,
    unmasked_query_keys,
)
from course_cassettes._vcr_reading import VcrExchange, read_interaction
from course_cassettes._vcr_yaml import RefusedError, loads_vcr_yaml
from course_http import SECRET_HEADERS, VendorError, VendorErrorCode, scrub
from course_protocol import thaw_json
from course_protocol.untrusted import described

__all__ = ["VcrConversion", "VcrNote", "convert_vcr_cassette"]


@final
@dataclass(frozen=True, slots=True)
class VcrNote:
    """What a conversion says of one VCR.py interaction.

    ``index`` is its position in the file's ``interactions`` (from 0);
    ``reason`` says what happened, naming the part (``interactions[2].request.body:
    ...``); ``code`` is the problem's code: ``HTTP_RECORDING_INVALID`` for an
    interaction refused, the strict check's for a stream flagged, ``None``
    for what was dropped.
    """

    index: int
    reason: str
    code: VendorErrorCode | None = None


@final
@dataclass(frozen=True, slots=True)
class VcrConversion:
    """A VCR.py cassette converted: the `Cassette`, and what became of each interaction.

    ``converted`` are the indexes of the interactions that became
    ``cassette.calls``, in order (call ``k`` is interaction ``converted[k]``);
    ``hosts`` the scheme and host (and port) they were sent to, each once, in
    order: a course cassette keeps the path, so it replays under any base
    URL. ``dropped`` says what a converted interaction lost (headers a
    recording does not keep, credentials scrubbed), ``refused`` which
    interactions were not converted and why, ``flagged`` which converted
    streams the strict check failed (kept as recorded, as a recording keeps them).
    """

    cassette: Cassette
    converted: tuple[int, ...]
    hosts: tuple[str, ...]
    dropped: tuple[VcrNote, ...]
    refused: tuple[VcrNote, ...]
    flagged: tuple[VcrNote, ...]


def convert_vcr_cassette(
    text: bytes | str,
    *,
    check: StreamCheck | None = None,
    redaction: Redaction | None = None,
    keep_headers: Sequence[str] = (),
) -> Result[VcrConversion, VendorError]:
    """The course cassette of one VCR.py cassette's YAML ``text``, and the report of it.

    Reads what VCR.py writes (``version: 1``, ``interactions`` of
    ``request`` and ``response``), bodies as text, ``!!binary``, gzip or
    deflate bytes with their ``content-encoding``, or stored parsed
    (``parsed_body``). Each call is redacted exactly as a recording of it
    would be: ``redaction`` and ``keep_headers`` as `Httpx2RecordingTransport`
    takes them, secret headers dropped, every credential of the request
    scrubbed from what is written. With ``check`` (a `StreamCheck`:
    ``course_vendor.recorded_stream_problem``), each converted response is
    judged; a failure is flagged, the call kept. An interaction is refused
    (the rest converted) when a course cassette cannot hold it: a request
    body that is not a JSON object, a body that does not decode, a part
    missing or of the wrong type.

    Returns ``Failure`` with ``HTTP_RECORDING_INVALID``, naming the path in
    the YAML, for text that is not a VCR.py cassette at all (not UTF-8, not
    YAML, a tag that is not data such as ``!!python/object``, too deep or too
    large, no ``interactions`` list, another format version). Raises
    ``TypeError`` or ``ValueError`` for bad arguments (a secret header in
    ``keep_headers``).
    """
    if check is not None and not callable(check):
        raise TypeError("check must be a callable or None")
    redaction = Redaction() if redaction is None else redaction
    if type(redaction) is not Redaction:
        raise TypeError("redaction must be a Redaction or None")
    extra = checked_extra_headers(keep_headers)
    return (
        loads_vcr_yaml(text)
        .bind(_interactions)
        .map(lambda interactions: _converted(interactions, redaction, extra, check))
    )


def _interactions(document: object) -> Result[list[object], VendorError]:
    if isinstance(document, list):
        old = "$: a list, VCR.py's format before 1.0: migrate it (python -m vcr.migration) first"
        return Failure(recording_invalid(old))
    if type(document) is not dict:
        return Failure(recording_invalid(f"$: must be a mapping, not {described(document)}"))
    version = document.get("version", 1)
    if type(version) is not int or version != 1:
        return Failure(recording_invalid(f"version: must be 1, VCR.py's format, not {version!r}"))
    if "interactions" not in document:
        ruby = (
            " (http_interactions is Ruby VCR's format)" if "http_interactions" in document else ""
        )
        return Failure(recording_invalid(f"interactions: is missing{ruby}"))
    interactions: object = document["interactions"]
    if not isinstance(interactions, list):
        return Failure(
            recording_invalid(f"interactions: must be a list, not {described(interactions)}")
        )
    return Success(interactions)


@dataclass(frozen=True, slots=True)
class _Call:
    """One interaction converted: its call, the host it went to, and what it lost."""

    call: CassetteCall
    host: str
    dropped: tuple[str, ...]


def _converted(
    interactions: list[object],
    redaction: Redaction,
    extra: frozenset[str],
    check: StreamCheck | None,
) -> VcrConversion:
    calls: list[CassetteCall] = []
    converted: list[int] = []
    hosts: dict[str, None] = {}
    dropped: list[VcrNote] = []
    refused: list[VcrNote] = []
    flagged: list[VcrNote] = []
    for index, interaction in enumerate(interactions):
        try:
            done = _interaction(interaction, f"interactions[{index}]", redaction, extra)
        except RefusedError as problem:
            refused.append(VcrNote(index, str(problem), VendorErrorCode.HTTP_RECORDING_INVALID))
            continue
        dropped.extend(VcrNote(index, reason) for reason in done.dropped)
        hosts[done.host] = None
        if check is not None:
            error = check(done.call.request, done.call.response)
            if error is not None:
                flagged.append(VcrNote(index, located(error, len(calls)).message, error.code))
        calls.append(done.call)
        converted.append(index)
    return VcrConversion(
        cassette=Cassette(calls, redaction=redaction),
        converted=tuple(converted),
        hosts=tuple(hosts),
        dropped=tuple(dropped),
        refused=tuple(refused),
        flagged=tuple(flagged),
    )


def _interaction(value: object, where: str, redaction: Redaction, extra: frozenset[str]) -> _Call:
    sent = read_interaction(value, where)
    secrets = sent.secrets
    recorded_request = redacted_request(
        sent.method,
        sent.target,
        sent.request_headers,
        sent.request_body,
        redaction,
        secrets,
        extra_headers=extra,
    )
    kept = {
        name: value
        for name, value in sent.response_headers.items()
        if not describes_encoded_body(name)
    }
    recorded_response = redacted_response(
        sent.status, kept, sent.response_body, "complete", secrets, extra_headers=extra
    )
    # The host as a recording keeps it (host[:port], lower-case); one no recording could
    # have sent to is left out, and the call's wire is then found from its path.
    host = kept_host(sent.host.partition("://")[2])
    if host_problem(host) is None:
        recorded_request = dataclasses.replace(recorded_request, host=host)
    call = CassetteCall(recorded_request, recorded_response)
    read_back = parse_cassette(cassette_to_json(Cassette([call])))
    if isinstance(read_back, Failure):
        message = scrub(read_back.failure().message.removeprefix("calls[0]."), secrets)
        raise RefusedError(where, f"a course cassette cannot hold it: {message}")
    left_out = _headers_left_out(sent, call)
    scrubbed = _scrubbed_from(sent, secrets)
    return _Call(call, sent.host, tuple(note for note in (left_out, scrubbed) if note))


def _headers_left_out(sent: VcrExchange, call: CassetteCall) -> str:
    """The headers a recording would not have kept, request then response, or ``""``."""
    request = sorted(set(sent.request_headers) - set(call.request.headers))
    response = sorted(set(sent.response_headers) - set(call.response.headers))
    parts = [
        f"{side} {', '.join(_why(name, decoded=side == 'response') for name in names)}"
        for side, names in (("request", request), ("response", response))
        if names
    ]
    return f"headers not kept: {'; '.join(parts)}" if parts else ""


def _why(name: str, *, decoded: bool) -> str:
    if name in SECRET_HEADERS:
        return f"{name} (a credential)"
    if decoded and describes_encoded_body(name):
        return f"{name} (the body is kept decoded)"
    return name


def _scrubbed_from(sent: VcrExchange, secrets: tuple[str, ...]) -> str:
    """Where the request's credentials were found (and masked), or ``""``."""
    keys = unmasked_query_keys(sent.target)
    places = [f"the query ({', '.join(keys)})"] if keys else []
    body = json.dumps(thaw_json(sent.request_body), ensure_ascii=False)
    if any(secret in body for secret in secrets):
        places.append("the request body")
    received = sent.response_body
    if any(secret.encode("utf-8", "surrogatepass") in received for secret in secrets):
        places.append("the response body")
    return f"credentials masked in {', '.join(places)}" if places else ""
