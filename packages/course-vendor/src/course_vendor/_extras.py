"""The escape hatch: ``extra_body`` and ``extra_headers``, checked so they cannot break a call.

``extra_body`` is a JSON object merged into the request body, for a vendor
field this package does not model; ``extra_headers`` are headers added to
every call. Neither may hold what the adapter writes itself (each vendor's
`OptionSupport` lists its body keys and headers), a credential header (the
key has its own path, and a credential here would be recorded) or a header
the transport sets.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from course_http import SECRET_HEADERS, TRANSPORT_HEADERS, VendorError, VendorErrorCode
from course_protocol import JsonObject, freeze_json_object
from course_protocol.untrusted import described_setting
from course_vendor._config_errors import config_error

__all__ = ["checked_extra_body", "checked_extra_headers", "merged"]

_TOKEN = frozenset("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_VALUE = frozenset(chr(code) for code in range(0x20, 0x7F)) | {"\t"}


def checked_extra_body(value: object, path: str) -> JsonObject | None:
    """``value`` frozen as a JSON object (the protocol's strict JSON checks), or ``None``.

    Raises `VendorConfigError` ``VENDOR_INVALID_CONFIG`` naming the first bad
    part (``<path>.thing[2]``) when it is not a JSON object of JSON values.
    """
    if value is None:
        return None
    frozen = freeze_json_object(value, path)
    error = frozen.failure() if not isinstance(frozen.value_or(None), dict) else None
    if error is not None:
        raise config_error(error.path, error.message)
    return frozen.unwrap()


def checked_extra_headers(value: object, path: str) -> Mapping[str, str] | None:
    """``value`` as headers with lower-case names, or ``None``.

    Each name must be an HTTP token and each value visible ASCII with
    spaces or tabs only inside; a name may come once, whatever its case,
    and must not be a credential (``authorization``, ``x-api-key``,
    ``api-key``, ``x-goog-api-key``, ...) or one the transport sets
    (``content-type``, ``accept``, ...). Raises `VendorConfigError`
    ``VENDOR_INVALID_CONFIG`` naming the header otherwise; a refused value
    is never shown.
    """
    if value is None:
        return None
    # A subclass's items() is not ours to run: the base type's is read.
    if not issubclass(type(value), dict):
        raise config_error(
            path, f"must be a dict of str to str or None, got {described_setting(value)}"
        )
    checked: dict[str, str] = {}
    pairs: list[tuple[object, object]] = list(dict.items(value))  # type: ignore[arg-type]
    for name, header in pairs:
        if type(name) is not str or not name or not set(name) <= _TOKEN:
            raise config_error(
                path, f"holds a header name that is not an HTTP token: {described_setting(name)}"
            )
        lower = name.lower()
        where = f"{path}[{lower!r}]"
        if lower in SECRET_HEADERS:
            raise config_error(
                where, "is a credential header: give the key to the model, never in a header"
            )
        if lower in TRANSPORT_HEADERS:
            raise config_error(where, "is set by the transport")
        if lower in checked:
            raise config_error(where, "is given twice")
        if type(header) is not str or not set(header) <= _VALUE or header != header.strip(" \t"):
            raise config_error(
                where, "must be a str of visible ASCII, with spaces or tabs only inside"
            )
        checked[lower] = header
    # Frozen as JSON (an immutable mapping of str to str), as extra_body is.
    return cast(Mapping[str, str], freeze_json_object(checked, path).unwrap())


def merged(
    written: Mapping[str, Any], extra: Mapping[str, Any] | None, field: str, vendor: str
) -> dict[str, Any]:
    """``written`` (what the adapter wrote) with the ``extra`` entries added after it.

    An extra entry never replaces a written one: the configuration check
    refuses every key a vendor declares, and a key it forgot to declare
    fails the call here with `VendorError` ``VENDOR_INVALID_REQUEST``
    (nothing is sent) instead of quietly changing what the adapter wrote.
    """
    combined = dict(written)
    for key, value in (extra or {}).items():
        if key in combined:
            raise VendorError(
                VendorErrorCode.VENDOR_INVALID_REQUEST,
                f"{field}[{key!r}] would replace what the {vendor} adapter writes itself",
                vendor=vendor,
            )
        combined[key] = value
    return combined
