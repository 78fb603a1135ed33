"""One API-key rule: every wire's header builder and model refuse a key the same way.

The rule is the kit's `checked_api_key`: a non-empty ``str`` of visible
ASCII. Anything else is `VendorConfigError` ``VENDOR_INVALID_API_KEY`` (path
``api_key``) with the same message whoever checks it, and the key is never in
it. The wires are every registered one (`every_wire`); where each puts a good
key is tested with its headers in the vendor's own folder.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from course_http import RecordedTransport
from course_vendor import VendorConfigError, VendorConfigErrorCode, checked_api_key
from tests.course_vendor.wires import Wire, every_wire

SECRET = "sk-NEVER-SHOWN-0123456789"


BAD_KEYS = {
    "int": 42,
    "bytes": SECRET.encode(),
    "empty": "",
    "blank": "   ",
    "space": f"{SECRET} tail",
    "tab": f"{SECRET}\t",
    "cr": f"{SECRET}\rx-injected: 1",
    "lf": f"{SECRET}\nx-injected: 1",
    "crlf": f"{SECRET}\r\nx-injected: 1",
    "nul": f"{SECRET}\x00",
    "del": f"{SECRET}\x7f",
    "non-ascii": f"{SECRET}\u00e9",
    "non-breaking-space": f"{SECRET}\u00a0",
    "line-separator": f"{SECRET}\u2028",
}


def _refusal(check: Callable[[Any], object], key: object) -> VendorConfigError:
    with pytest.raises(VendorConfigError) as caught:
        check(key)
    return caught.value


def _assert_refused_unshown(error: VendorConfigError) -> None:
    assert (error.code, error.path) == (VendorConfigErrorCode.VENDOR_INVALID_API_KEY, "api_key")
    assert error.message.startswith("api_key ")
    assert error.message.endswith("; the key itself is not shown")
    for shown in (str(error), repr(error), *map(str, error.args)):
        assert "NEVER-SHOWN" not in shown


bad_key = pytest.mark.parametrize("key", list(BAD_KEYS.values()), ids=list(BAD_KEYS))


@bad_key
def test_the_kit_refuses_a_bad_key_without_showing_it(key: object) -> None:
    _assert_refused_unshown(_refusal(checked_api_key, key))


@every_wire
@bad_key
def test_a_bad_key_is_refused_the_same_way_by_every_vendor_without_showing_it(
    wire: Wire, key: object
) -> None:
    def build_model(given: object) -> object:
        return wire.model(api_key=given, transport=RecordedTransport([]))  # type: ignore[arg-type]

    kit = _refusal(checked_api_key, key).message
    for check in (wire.request_headers, build_model):
        error = _refusal(check, key)

        _assert_refused_unshown(error)
        assert error.message == kit


@every_wire
def test_a_header_builder_refuses_no_key_which_a_model_reads_from_the_environment(
    wire: Wire,
) -> None:
    error = _refusal(wire.request_headers, None)

    assert (error.code, error.message) == (
        VendorConfigErrorCode.VENDOR_INVALID_API_KEY,
        "api_key must be a str, got None; the key itself is not shown",
    )


@pytest.mark.parametrize(
    ("key", "problem"),
    [
        (None, "must be a str, got None"),
        (b"sk-ant-api03-secret", "must be a str, got bytes;"),
        (123456789, "must be a str, got int;"),
        ("", "is empty"),
        ("sk key", "holds a character that is not visible ASCII"),
        ("sk-\u00e9", "holds a character that is not visible ASCII"),
    ],
)
def test_the_message_says_what_is_wrong(key: object, problem: str) -> None:
    assert _refusal(checked_api_key, key).message.startswith(f"api_key {problem}")


@every_wire
def test_every_visible_ascii_character_is_a_usable_key_character(wire: Wire) -> None:
    key = "".join(chr(code) for code in range(0x21, 0x7F))

    assert checked_api_key(key) is key
    assert wire.request_headers(key)[wire.key_header] == wire.key_value(key)
