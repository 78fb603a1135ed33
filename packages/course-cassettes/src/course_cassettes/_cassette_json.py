"""A cassette as a JSON document, and back: `cassette_to_json` and `parse_cassette`.

A text body is written as one JSON string per line, line endings kept, so a
reviewer reads and diffs the vendor's SSE as it came; an AWS event-stream
body as its readable frames (`_cassette_frames`); any other body (not
UTF-8, or content-encoded) as base64. Joining the lines gives back the bytes
exactly. Parsing is strict: every key is known, every value checked, and the
first problem is named by its path (``calls[2].response.status``).

Over 300 lines on purpose: the writer and the strict reader of one format sit
together, so a field cannot change in one and not the other.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping
from typing import NoReturn, get_args

from frozendict import frozendict
from returns.result import Failure, Result, Success

from course_cassettes._call_wire import host_problem, wire_name_problem
from course_cassettes._cassette import (
    CASSETTE_VERSION,
    CASSETTE_VERSION_KEY,
    CASSETTE_VERSIONS_READ,
    Cassette,
    CassetteCall,
    MatchOn,
    Redaction,
    RequestMatching,
)
from course_cassettes._cassette_frames import frames_body, frames_of
from course_cassettes._redaction import unmasked_query_keys
from course_http import (
    SECRET_HEADERS,
    RecordedRequest,
    RecordedResponse,
    ResponseEnd,
    VendorError,
    VendorErrorCode,
)
from course_protocol import freeze_json_object, thaw_json
from course_protocol.untrusted import described, shown

__all__ = [
    "CASSETTE_VENDOR",
    "body_lines",
    "cassette_to_json",
    "parse_cassette",
    "recording_invalid",
]

CASSETTE_VENDOR = "cassette"
"""The ``vendor`` of a `VendorError` about a cassette itself (``HTTP_RECORDING_INVALID``)."""


def recording_invalid(message: str) -> VendorError:
    """The `VendorError` of a file that is not a cassette this package reads, saying why."""
    return VendorError(VendorErrorCode.HTTP_RECORDING_INVALID, message, vendor=CASSETTE_VENDOR)


_ENDS: dict[str, ResponseEnd] = {end: end for end in get_args(ResponseEnd)}
_FORBIDDEN_IN_VALUES = frozenset(chr(code) for code in (*range(0x09), *range(0x0A, 0x20)))


def cassette_to_json(cassette: Cassette) -> dict[str, object]:
    """``cassette`` as plain JSON values, keys in the documented order, header names sorted.

    ``strict`` is written only when it is ``false`` (``true`` is the default).
    """
    return {
        CASSETTE_VERSION_KEY: CASSETTE_VERSION,
        **({} if cassette.strict else {"strict": False}),
        "matching": {"on": cassette.matching.on, "ignore": list(cassette.matching.ignore)},
        "redaction": {
            "fields": list(cassette.redaction.fields),
            "paths": list(cassette.redaction.paths),
        },
        "calls": [_call_json(call) for call in cassette.calls],
    }


def _call_json(call: CassetteCall) -> dict[str, object]:
    request, response = call.request, call.response
    return {
        "request": {
            "method": request.method,
            "path": request.path,
            **({} if request.host is None else {"host": request.host}),
            **({} if request.wire is None else {"wire": request.wire}),
            "headers": dict(sorted(request.headers.items())),
            "body": thaw_json(request.body),
        },
        "response": {
            "status": response.status,
            "headers": dict(sorted(response.headers.items())),
            "end": response.end,
            **_body_json(response.body),
        },
    }


def body_lines(text: str) -> list[str]:
    """``text`` cut after each ``\\n``: joining the lines gives ``text`` back."""
    pieces = text.split("\n")
    lines = [piece + "\n" for piece in pieces[:-1]]
    if pieces[-1]:
        lines.append(pieces[-1])
    return lines


def _body_json(body: bytes) -> dict[str, object]:
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        frames = frames_of(body)
        if frames is not None:
            return {"body_frames": frames}
        return {"body_base64": base64.b64encode(body).decode("ascii")}
    return {"body": body_lines(text)}


class _InvalidError(Exception):
    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")


def _fail(path: str, message: str) -> NoReturn:
    raise _InvalidError(path, message)


def parse_cassette(document: object) -> Result[Cassette, VendorError]:
    """The `Cassette` a parsed JSON document holds (plain values, as ``json.loads`` gives).

    Returns ``Failure`` with ``HTTP_RECORDING_INVALID`` (``vendor`` =
    ``"cassette"``), its message naming the path of the first problem: not
    an object, a version other than 1 and 2, an unknown key (a request's
    ``host`` or ``wire`` in version 1), a value of the wrong type (a
    ``host`` that is not ``host[:port]`` alone, a ``wire`` that is not a
    wire name), a value of the wrong
    type, a secret header, a key query parameter not masked, a body that is
    neither lines nor valid base64.
    Never raises.
    """
    try:
        return Success(_cassette(document))
    except _InvalidError as problem:
        return Failure(recording_invalid(str(problem)))


def _object(
    value: object, path: str, required: tuple[str, ...], optional: tuple[str, ...]
) -> dict[str, object]:
    if type(value) is not dict:
        _fail(path, f"must be a JSON object, not {described(value)}")
    for key in required:
        if key not in value:
            _fail(_join(path, key), "is missing")
    for key in value:
        if key not in required and key not in optional:
            _fail(_join(path, key), "is not a key of the cassette format")
    return value


def _cassette(document: object) -> Cassette:
    top = _object(
        document, "$", (CASSETTE_VERSION_KEY, "calls"), ("strict", "matching", "redaction")
    )
    version = top[CASSETTE_VERSION_KEY]
    if type(version) is not int or version not in CASSETTE_VERSIONS_READ:
        known = " or ".join(map(str, CASSETTE_VERSIONS_READ))
        _fail(CASSETTE_VERSION_KEY, f"must be {known}, the versions this reader knows")
    strict = top.get("strict", True)
    if type(strict) is not bool:
        _fail("strict", f"must be true or false, not {described(strict)}")
    calls = top["calls"]
    if type(calls) is not list:
        _fail("calls", f"must be an array, not {described(calls)}")
    return Cassette(
        [_call(call, f"calls[{index}]", version) for index, call in enumerate(calls)],
        matching=_matching(top.get("matching", {}), "matching"),
        redaction=_redaction(top.get("redaction", {}), "redaction"),
        strict=strict,
    )


def _matching(value: object, path: str) -> RequestMatching:
    fields = _object(value, path, (), ("on", "ignore"))
    on = fields.get("on", "request")
    if type(on) is not str or on not in get_args(MatchOn):
        _fail(f"{path}.on", f'must be "request" or "order", not {_shown(on)}')
    ignore = _strings(fields.get("ignore", []), f"{path}.ignore")
    checked_on: MatchOn = "request" if on == "request" else "order"
    try:
        return RequestMatching(checked_on, ignore=ignore)
    except ValueError as error:
        _fail(path, str(error))


def _redaction(value: object, path: str) -> Redaction:
    fields = _object(value, path, (), ("fields", "paths"))
    names = _strings(fields.get("fields", []), f"{path}.fields")
    paths = _strings(fields.get("paths", []), f"{path}.paths")
    try:
        return Redaction(fields=names, paths=paths)
    except ValueError as error:
        _fail(path, str(error))


def _strings(value: object, path: str) -> list[str]:
    if type(value) is not list:
        _fail(path, f"must be an array of strings, not {described(value)}")
    for index, item in enumerate(value):
        if type(item) is not str:
            _fail(f"{path}[{index}]", f"must be a string, not {described(item)}")
    return value


def _call(value: object, path: str, version: int) -> CassetteCall:
    fields = _object(value, path, ("request", "response"), ())
    return CassetteCall(
        _request(fields["request"], f"{path}.request", version),
        _response(fields["response"], f"{path}.response"),
    )


_WHERE_KEYS: dict[int, tuple[str, ...]] = {1: (), 2: ("host", "wire")}
"""The optional keys of a request saying where the call went, by format version."""


def _request(value: object, path: str, version: int) -> RecordedRequest:
    fields = _object(value, path, ("method", "path", "headers", "body"), _WHERE_KEYS[version])
    for key, problem_of in (("host", host_problem), ("wire", wire_name_problem)):
        wrong = problem_of(fields[key]) if key in fields else None
        if wrong is not None:
            _fail(f"{path}.{key}", wrong)
    host, wire = fields.get("host"), fields.get("wire")
    method = fields["method"]
    if type(method) is not str or not (method.isascii() and method.isalpha() and method.isupper()):
        _fail(f"{path}.method", f"must be upper-case ASCII letters, not {_shown(method)}")
    target = fields["path"]
    if type(target) is not str or not target.startswith("/") or not _visible_ascii(target):
        _fail(f"{path}.path", "must be a path starting with '/', in visible ASCII")
    keys = unmasked_query_keys(target)
    if keys:
        _fail(f"{path}.path", f"holds a key in its query ({', '.join(keys)}): a cassette masks it")
    body = freeze_json_object(fields["body"], f"{path}.body")
    if not isinstance(body.value_or(None), Mapping):
        problem = body.failure()
        _fail(problem.path, problem.message)
    return RecordedRequest(
        method=method,
        path=target,
        body=body.unwrap(),
        headers=_headers(fields["headers"], f"{path}.headers"),
        host=host if type(host) is str else None,
        wire=wire if type(wire) is str else None,
    )


def _response(value: object, path: str) -> RecordedResponse:
    fields = _object(
        value, path, ("status", "headers", "end"), ("body", "body_base64", "body_frames")
    )
    status = fields["status"]
    if type(status) is not int or not 100 <= status <= 999:
        _fail(f"{path}.status", f"must be an int from 100 to 999, not {_shown(status)}")
    end = fields["end"]
    if type(end) is not str or end not in get_args(ResponseEnd):
        _fail(f"{path}.end", f"must be one of {', '.join(get_args(ResponseEnd))}")
    if sum(key in fields for key in ("body", "body_base64", "body_frames")) != 1:
        _fail(path, "must hold exactly one of body (lines of text), body_base64 and body_frames")
    if "body" in fields:
        body = _text_body(fields["body"], f"{path}.body")
    elif "body_frames" in fields:
        body = frames_body(fields["body_frames"], f"{path}.body_frames", _fail)
    else:
        body = _base64_body(fields["body_base64"], f"{path}.body_base64")
    headers = _headers(fields["headers"], f"{path}.headers")
    return RecordedResponse(status, headers, body, _ENDS[end])


def _text_body(value: object, path: str) -> bytes:
    lines = _strings(value, path)
    for index, line in enumerate(lines):
        last = index == len(lines) - 1
        inner = line[:-1] if line.endswith("\n") else line
        if not line or "\n" in inner or (not last and not line.endswith("\n")):
            _fail(f"{path}[{index}]", "must be one line: text ending in its one \\n")
    try:
        return "".join(lines).encode("utf-8")
    except UnicodeEncodeError:
        _fail(path, "holds a lone surrogate: a body that is not UTF-8 is written as body_base64")


def _base64_body(value: object, path: str) -> bytes:
    if type(value) is not str:
        _fail(path, f"must be a base64 string, not {described(value)}")
    try:
        return base64.b64decode(value.encode("ascii"), validate=True)
    except (UnicodeEncodeError, binascii.Error):
        _fail(path, "is not valid base64")


def _headers(value: object, path: str) -> frozendict[str, str]:
    if type(value) is not dict:
        _fail(path, f"must be a JSON object of strings, not {described(value)}")
    headers: dict[str, str] = {}
    for name, header in value.items():
        where = _join(path, name)
        if not name or not _visible_ascii(name) or ":" in name:
            _fail(where, "is not a header name")
        if name.lower() in SECRET_HEADERS:
            _fail(where, "holds credentials: a cassette never keeps it")
        if type(header) is not str or not set(header).isdisjoint(_FORBIDDEN_IN_VALUES):
            _fail(where, "must be a string without line breaks or control characters")
        if not header.isascii() and not _latin1(header):
            _fail(where, "must be Latin-1 text, as HTTP header values are")
        if name.lower() in headers:
            _fail(where, "is given twice (header names ignore case)")
        headers[name.lower()] = header
    return frozendict(headers)


def _latin1(text: str) -> bool:
    try:
        text.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return True


def _visible_ascii(text: str) -> bool:
    return text.isascii() and text.isprintable() and " " not in text


def _join(path: str, key: str) -> str:
    segment = f".{key}" if key.isidentifier() else f"[{json.dumps(key)}]"
    return segment[1:] if path == "$" and segment.startswith(".") else path + segment


def _shown(value: object) -> str:
    return shown(repr(value))
