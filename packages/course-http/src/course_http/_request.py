"""What a vendor adapter asks a transport to send: `HttpRequest`, checked and immutable."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import final

from frozendict import frozendict

from course_http._secrets import REDACTED, SECRET_HEADERS, masked_path
from course_protocol import JsonObject, freeze_json_object
from course_protocol.slots import slot_setter

__all__ = ["TRANSPORT_HEADERS", "HttpRequest"]

TRANSPORT_HEADERS = frozenset(
    {"accept", "connection", "content-length", "content-type", "host", "transfer-encoding"}
)
"""Headers the transport and its HTTP client set themselves; a request may not carry them."""

_TOKEN = frozenset("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_VISIBLE = frozenset(chr(code) for code in range(0x21, 0x7F))
_VALUE = _VISIBLE | {" ", "\t"}


@final
@dataclass(frozen=True, slots=True, init=False, repr=False)
class HttpRequest:
    """One call to a vendor: ``method`` ``path`` (joined to the transport's base URL), a JSON body.

    ``body`` is deep-snapshotted into a frozen JSON object and sent as
    compact UTF-8 JSON (`content`). ``headers`` are the vendor's own, auth
    included, with lower-cased names; the transport adds ``content-type:
    application/json`` and ``accept: text/event-stream``. The repr never
    shows the value of a secret header (`course_http.SECRET_HEADERS`).

    Raises ``TypeError`` for a field of the wrong type and ``ValueError``
    for a path that is not an absolute path on the base URL (``/...``, not
    ``//...``, visible ASCII without ``#``), a body that is not a JSON
    object, a header name that is not an HTTP token, a value that is not
    visible ASCII (spaces and tabs inside allowed), the same name twice in
    different cases, a header the transport sets itself
    (`TRANSPORT_HEADERS`), or a method that is not upper-case letters.
    Messages name the bad header, never its value; the repr shows neither a
    secret header's value nor a key query parameter's.
    """

    path: str
    body: JsonObject
    headers: frozendict[str, str]
    method: str

    def __init__(
        self,
        path: str,
        body: Mapping[str, object],
        headers: Mapping[str, str] | None = None,
        method: str = "POST",
    ) -> None:
        _set_path(self, _checked_path(path))
        _set_body(self, _checked_body(body))
        _set_headers(self, _checked_headers(headers or {}))
        _set_method(self, _checked_method(method))

    @property
    def content(self) -> bytes:
        """The body as sent: compact JSON text in UTF-8 (``NaN`` cannot occur: the body is JSON).

        A string holding a lone surrogate cannot be UTF-8; the body is then
        sent with non-ASCII characters escaped, which is the same JSON value.
        """
        try:
            return json.dumps(self.body, ensure_ascii=False, separators=(",", ":")).encode()
        except UnicodeEncodeError:
            return json.dumps(self.body, separators=(",", ":")).encode("ascii")

    def __repr__(self) -> str:
        shown = {
            name: REDACTED if name in SECRET_HEADERS else value
            for name, value in self.headers.items()
        }
        return (
            f"HttpRequest(method={self.method!r}, path={masked_path(self.path)!r}, "
            f"headers={shown!r}, "
            f"body={dict(self.body)!r})"
        )


_set_path = slot_setter(HttpRequest, "path")
_set_body = slot_setter(HttpRequest, "body")
_set_headers = slot_setter(HttpRequest, "headers")
_set_method = slot_setter(HttpRequest, "method")


def _checked_path(path: object) -> str:
    if type(path) is not str:
        raise TypeError(f"path must be a str, not {type(path).__name__}")
    if not path.startswith("/") or path.startswith("//"):
        raise ValueError("path must start with one '/': it is joined to the base URL")
    if not set(path) <= _VISIBLE or "#" in path:
        raise ValueError("path must be visible ASCII without '#' (percent-encode the rest)")
    return path


def _checked_body(body: object) -> JsonObject:
    frozen = freeze_json_object(body, "body")
    if not isinstance(frozen.value_or(None), dict):
        problem = frozen.failure()
        raise ValueError(f"{problem.path}: {problem.message}")
    return frozen.unwrap()


def _checked_headers(headers: object) -> frozendict[str, str]:
    if not isinstance(headers, Mapping):
        raise TypeError(f"headers must be a mapping, not {type(headers).__name__}")
    checked: dict[str, str] = {}
    for name, value in headers.items():
        if type(name) is not str:
            raise TypeError(f"header names must be str, not {type(name).__name__}")
        if not name or not set(name) <= _TOKEN:
            raise ValueError(f"header name {name!r} is not an HTTP token")
        lower = name.lower()
        if type(value) is not str:
            raise TypeError(f"headers[{lower!r}] must be a str, not {type(value).__name__}")
        if not set(value) <= _VALUE or value != value.strip(" \t"):
            raise ValueError(
                f"headers[{lower!r}] must be visible ASCII, with spaces or tabs only inside"
            )
        if lower in TRANSPORT_HEADERS:
            raise ValueError(f"headers[{lower!r}] is set by the transport")
        if lower in checked:
            raise ValueError(f"headers[{lower!r}] is given twice")
        checked[lower] = value
    return frozendict(checked)


def _checked_method(method: object) -> str:
    if type(method) is not str:
        raise TypeError(f"method must be a str, not {type(method).__name__}")
    if not (method.isascii() and method.isalpha() and method.isupper()):
        raise ValueError("method must be upper-case ASCII letters, such as 'POST'")
    return method
