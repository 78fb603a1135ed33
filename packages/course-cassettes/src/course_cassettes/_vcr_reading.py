"""One VCR.py interaction read as plain values: `read_interaction`, every body form it takes.

A request's ``body`` is ``null`` (no body), text, ``!!binary`` bytes or a
list of such pieces (an iterator body); a response's is ``body: {string:
...}`` with the same forms. pydantic-ai's serializer for VCR.py (used by
many projects) stores a JSON body parsed instead, as ``parsed_body`` beside
``headers``: it is written back as VCR.py replays it, ``json.dumps`` of the
value. A body sent with a ``content-encoding`` (the bytes VCR.py recorded
from the transport, still compressed) is decoded, as a recording keeps it.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from typing import Final

from returns.result import Failure

from course_cassettes._httpx2_calls import json_body
from course_cassettes._vcr_yaml import RefusedError
from course_http import masked_path, request_secrets, scrub
from course_protocol import JsonObject, freeze_json, freeze_json_object, thaw_json
from course_protocol.untrusted import described, shown

__all__ = ["VCR_MAX_BODY_BYTES", "VcrExchange", "read_interaction"]

VCR_MAX_BODY_BYTES: Final = 256 * 1024 * 1024
"""The most bytes a compressed response body may decode to (a small gzip body can decode to
gigabytes)."""

# zlib's window bits for each content coding read: gzip framing, or a zlib
# stream; "deflate" sent raw (no zlib header) is read too, as httpx does.
_WINDOWS: Final = {
    "gzip": (16 + zlib.MAX_WBITS,),
    "x-gzip": (16 + zlib.MAX_WBITS,),
    "deflate": (zlib.MAX_WBITS, -zlib.MAX_WBITS),
}


@dataclass(frozen=True, slots=True)
class VcrExchange:
    """One interaction as VCR.py recorded it, read: nothing redacted yet.

    ``host`` is the URI's scheme and host (user info left out), ``target``
    its path and query; header names are lower-cased, the values of one name
    joined with ``", "`` (as HTTP allows); ``secrets`` the credentials the
    request carried (`course_http.request_secrets`); ``request_body`` is the
    JSON object sent, frozen (``{}`` for none); ``response_body`` the body
    decoded.
    """

    method: str
    host: str
    target: str
    request_headers: dict[str, str]
    secrets: tuple[str, ...]
    request_body: JsonObject
    status: int
    response_headers: dict[str, str]
    response_body: bytes


def read_interaction(value: object, where: str) -> VcrExchange:
    """The interaction ``value`` found at ``where`` (``interactions[3]``), read.

    Raises `RefusedError` naming the part it cannot read; once the request's
    credentials are known, they are scrubbed from what it says (a key may be
    a key of the body, and so in a path).
    """
    fields = _mapping(value, where)
    request = _mapping(_field(fields, "request", where), f"{where}.request")
    response = _mapping(_field(fields, "response", where), f"{where}.response")
    at = f"{where}.request"
    method = _field(request, "method", at)
    if type(method) is not str or not (method.isascii() and method.isalpha() and method.isupper()):
        raise RefusedError(f"{at}.method", f"must be upper-case letters, not {_shown(method)}")
    host, target = _split_uri(_field(request, "uri", at), f"{at}.uri")
    headers = _headers(request.get("headers"), f"{at}.headers")
    secrets = request_secrets(headers, target)
    try:
        body = _request_body(request, at)
        status, response_headers, response_body = _response(response, f"{where}.response")
    except RefusedError as problem:
        raise RefusedError(scrub(problem.path, secrets), scrub(problem.message, secrets)) from None
    return VcrExchange(
        method, host, target, headers, secrets, body, status, response_headers, response_body
    )


def _request_body(request: dict[object, object], at: str) -> JsonObject:
    """The JSON object the request sent, frozen (``{}`` for none), read as a recording reads it."""
    if "parsed_body" in request:
        if request.get("body") is not None:
            raise RefusedError(at, "holds both body and parsed_body")
        frozen = freeze_json_object(request["parsed_body"], f"{at}.parsed_body")
        problem = frozen.swap().value_or(None)
        if problem is not None:
            raise RefusedError(problem.path, problem.message)
        return frozen.unwrap()
    body = json_body(_raw_body(request.get("body"), f"{at}.body"))
    if isinstance(body, Failure):
        # The recording's reason names the part from "body" on: "body.messages[0]: ...".
        part, _, message = body.failure().partition(": ")
        raise RefusedError(f"{at}.{part}", message)
    return body.unwrap()


def _response(response: dict[object, object], at: str) -> tuple[int, dict[str, str], bytes]:
    """The status, headers and decoded body VCR.py recorded."""
    if "status" not in response and "status_code" in response:
        raise RefusedError(at, "is in the form older VCR.py releases wrote for httpx: record again")
    status = _mapping(_field(response, "status", at), f"{at}.status")
    code = _field(status, "code", f"{at}.status")
    if type(code) is not int or not 100 <= code <= 999:
        raise RefusedError(f"{at}.status.code", f"must be an int from 100 to 999, not {code!r}")
    headers = _headers(response.get("headers"), f"{at}.headers")
    if "parsed_body" in response:
        if response.get("body") is not None:
            raise RefusedError(at, "holds both body and parsed_body")
        return code, headers, _parsed_body(response["parsed_body"], f"{at}.parsed_body")
    stored = _mapping(_field(response, "body", at), f"{at}.body")
    body = _raw_body(_field(stored, "string", f"{at}.body"), f"{at}.body.string")
    return code, headers, _decoded_body(body, headers.get("content-encoding", ""), f"{at}.body")


def _split_uri(uri: object, at: str) -> tuple[str, str]:
    """``uri``'s scheme and host (user info left out), and its path with the query."""
    if type(uri) is not str:
        raise RefusedError(at, f"must be text, not {described(uri)}")
    scheme, separator, rest = uri.partition("://")
    if not (separator and scheme.isascii() and scheme.isalpha()):
        raise RefusedError(at, f"must be an absolute URL, not {_shown(masked_path(uri))}")
    ends = [found for found in (rest.find("/"), rest.find("?"), rest.find("#")) if found >= 0]
    authority, target = rest[: min(ends, default=len(rest))], rest[min(ends, default=len(rest)) :]
    host = authority.rpartition("@")[2]
    if not host:
        raise RefusedError(at, f"names no host: {_shown(masked_path(uri))}")
    # The fragment is never sent; a query alone is the root's.
    target = target.partition("#")[0]
    target = f"/{target}" if not target.startswith("/") else target
    return f"{scheme.lower()}://{host}", target


def _headers(value: object, at: str) -> dict[str, str]:
    """VCR.py's headers (each a list of values) as one value per lower-cased name.

    Values of one name are joined with ``", "``, as HTTP allows.
    """
    if value is None:
        return {}
    headers: dict[str, list[str]] = {}
    for name, values in _mapping(value, at).items():
        if type(name) is not str:
            raise RefusedError(at, f"holds a header name that is not text: {_shown(name)}")
        listed: list[object] = values if type(values) is list else [values]
        texts = headers.setdefault(name.lower(), [])
        for index, item in enumerate(listed):
            if type(item) is not str:
                where = f"{at}[{json.dumps(name)}]" + (f"[{index}]" if values is listed else "")
                raise RefusedError(where, f"must be text, not {described(item)}")
            texts.append(item)
    return {name: ", ".join(values) for name, values in headers.items()}


def _mapping(value: object, at: str) -> dict[object, object]:
    if type(value) is not dict:
        raise RefusedError(at, f"must be a mapping, not {described(value)}")
    return value


def _field(fields: dict[object, object], key: str, at: str) -> object:
    if key not in fields:
        raise RefusedError(f"{at}.{key}", "is missing")
    return fields[key]


def _shown(value: object) -> str:
    return shown(repr(value))


def _raw_body(value: object, path: str) -> bytes:
    """The bytes a stored body holds: ``None`` none, text as UTF-8, bytes, a list of pieces.

    Raises `RefusedError` for anything else.
    """
    if value is None:
        return b""
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        try:
            return value.encode("utf-8")
        except UnicodeEncodeError:
            raise RefusedError(path, "holds a lone surrogate: it is not text") from None
    if isinstance(value, list):
        return b"".join(_raw_body(piece, f"{path}[{index}]") for index, piece in enumerate(value))
    raise RefusedError(path, f"must be text, !!binary bytes or null, not {described(value)}")


def _parsed_body(value: object, path: str) -> bytes:
    """A body stored parsed (``parsed_body``) as the JSON text VCR.py replays for it.

    Raises `RefusedError` naming the part that is not JSON (a date, a
    set, a number that is not finite, a key that is not text).
    """
    frozen = freeze_json(value, path)
    problem = frozen.swap().value_or(None)
    if problem is not None:
        raise RefusedError(problem.path, problem.message)
    return json.dumps(thaw_json(frozen.unwrap())).encode("utf-8")


def _decoded_body(body: bytes, content_encoding: str, path: str) -> bytes:
    """``body`` with each of its ``content_encoding`` codings undone, last applied first.

    Raises `RefusedError` for a coding other than gzip and deflate
    (``identity`` is none), data that does not decode or ends early, and
    more than `VCR_MAX_BODY_BYTES` decoded.
    """
    codings = [name.strip().lower() for name in content_encoding.split(",")]
    for coding in reversed([name for name in codings if name not in ("", "identity")]):
        if coding not in _WINDOWS:
            raise RefusedError(path, f"is encoded {coding}: only gzip and deflate are decoded")
        body = _inflated(body, coding, path)
    return body


def _inflated(body: bytes, coding: str, path: str) -> bytes:
    for window in _WINDOWS[coding]:
        inflater = zlib.decompressobj(window)
        try:
            decoded = inflater.decompress(body, VCR_MAX_BODY_BYTES + 1)
        except zlib.error:
            continue
        if len(decoded) > VCR_MAX_BODY_BYTES:
            raise RefusedError(path, f"decodes to more than {VCR_MAX_BODY_BYTES} bytes")
        if not inflater.eof or inflater.unused_data:
            raise RefusedError(path, f"is not one whole {coding} stream: cut short or followed")
        return decoded
    raise RefusedError(path, f"says content-encoding {coding} but does not decode as {coding}")
