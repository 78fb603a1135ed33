"""Status codes, retry-after values and secrets, read without any transport."""

from __future__ import annotations

import pytest

from course_http import VendorError, VendorErrorBody, VendorErrorCode, code_for_status
from course_http._error_scrub import scrub_error
from course_http._secrets import scrub, secret_values, without_secrets
from course_http._status import retry_after_seconds, status_error
from course_protocol.untrusted import SHOWN_LENGTH

Code = VendorErrorCode
NOW = 1_445_412_480.0  # Wed, 21 Oct 2015 07:28:00 GMT


@pytest.mark.parametrize(
    ("status", "code"),
    [
        (100, Code.HTTP_UNEXPECTED_STATUS),
        (199, Code.HTTP_UNEXPECTED_STATUS),
        (200, None),
        (204, None),
        (299, None),
        (300, Code.HTTP_UNEXPECTED_STATUS),
        (399, Code.HTTP_UNEXPECTED_STATUS),
        (400, Code.HTTP_REQUEST_REJECTED),
        (401, Code.HTTP_UNAUTHORIZED),
        (402, Code.HTTP_REQUEST_REJECTED),
        (403, Code.HTTP_UNAUTHORIZED),
        (428, Code.HTTP_REQUEST_REJECTED),
        (429, Code.HTTP_RATE_LIMITED),
        (499, Code.HTTP_REQUEST_REJECTED),
        (500, Code.HTTP_SERVER_ERROR),
        (503, Code.HTTP_OVERLOADED),
        (504, Code.HTTP_SERVER_ERROR),
        (529, Code.HTTP_OVERLOADED),
        (599, Code.HTTP_SERVER_ERROR),
        (600, Code.HTTP_UNEXPECTED_STATUS),
        (999, Code.HTTP_UNEXPECTED_STATUS),
    ],
)
def test_every_status_range_has_its_code(status: int, code: VendorErrorCode | None) -> None:
    assert code_for_status(status) is code


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [
        ({"retry-after": "12"}, 12.0),
        ({"retry-after": " 12 "}, 12.0),
        ({"retry-after": "0"}, 0.0),
        ({"retry-after": "2.25"}, 2.25),
        ({"retry-after-ms": "250"}, 0.25),
        ({"retry-after-ms": "250", "retry-after": "9"}, 0.25),
        ({"retry-after-ms": "later", "retry-after": "9"}, 9.0),
        ({"retry-after": "Wed, 21 Oct 2015 07:28:45 GMT"}, 45.0),
        ({"retry-after": "Wed, 21 Oct 2015 07:28:45 -0000"}, 45.0),
        ({"retry-after": "Wed, 21 Oct 2015 09:28:45 +0200"}, 45.0),
        ({"retry-after": "Wed, 21 Oct 2015 07:27:00 GMT"}, 0.0),
        (
            {
                "retry-after": "Wed, 21 Oct 2015 07:30:00 GMT",
                "date": "Wed, 21 Oct 2015 07:29:00 GMT",
            },
            60.0,
        ),
        ({"retry-after": "Wed, 21 Oct 2015 07:28:45 GMT", "date": "yesterday"}, 45.0),
        ({"retry-after": "-1"}, None),
        ({"retry-after": "1e3"}, None),
        ({"retry-after": "nan"}, None),
        ({"retry-after": "inf"}, None),
        ({"retry-after": "0x10"}, None),
        ({"retry-after": "\u0661\u0662"}, None),
        ({"retry-after": "1" * 400}, None),
        ({"retry-after": "9" * 60}, float("9" * 60)),
        ({"retry-after": ""}, None),
        ({"retry-after": "."}, None),
        ({"retry-after": "Wed, 99 Foo 2015 07:28:45 GMT"}, None),
        ({"retry-after": "Mon, 01 Jan 10000 00:00:00 GMT"}, None),
        ({}, None),
    ],
)
def test_retry_after_reads_seconds_milliseconds_and_dates_and_ignores_the_rest(
    headers: dict[str, str], seconds: float | None
) -> None:
    assert retry_after_seconds(headers, now=NOW) == seconds


def test_an_error_message_says_status_type_and_message_cut_short_then_scrubbed() -> None:
    key = "k3y-0123456789"
    # The key straddles the cut (SHOWN_LENGTH - 1 characters are quoted): the
    # message keeps only its start, then the ellipsis.
    before = SHOWN_LENGTH - 1 - 10
    long_message = "m" * before + key + "m" * 100
    error = status_error(
        Code.HTTP_REQUEST_REJECTED,
        vendor="v",
        status=400,
        described=VendorErrorBody("invalid_request_error", f"{key}-code", long_message),
        retry_after=None,
    )
    assert error.message == (
        "HTTP 400: invalid_request_error: " + "m" * before + key[:10] + "\u2026"
    ), "as the vendor said it, cut"

    assert scrub_error(error, (key,)) is error
    assert error.vendor_message == "m" * before + "[redacted]" + "m" * 100
    assert error.vendor_code == "[redacted]-code"
    assert error.message == "HTTP 400: invalid_request_error: " + "m" * before + "[redacted]\u2026"
    assert key[:8] not in str(error)
    assert key not in repr(error)


def test_a_vendor_error_body_holds_strings_or_nothing() -> None:
    assert VendorErrorBody() == VendorErrorBody(None, None, None)
    with pytest.raises(TypeError, match="vendor_message"):
        VendorErrorBody("t", None, 5)  # type: ignore[arg-type]


def test_the_secrets_of_a_request_are_its_auth_values_and_bearer_tokens() -> None:
    headers = {
        "Authorization": "Bearer tok-123456",
        "x-api-key": "key-4567890",
        "x-other": "visible",
        "cookie": "",
    }
    # Longest first.
    assert secret_values(headers) == ("Bearer tok-123456", "key-4567890", "tok-123456")
    assert scrub("sent tok-123456 and key-4567890", secret_values(headers)) == (
        "sent [redacted] and [redacted]"
    )
    assert without_secrets(headers) == {"x-other": "visible"}


def test_an_error_with_another_message_keeps_its_code_and_every_vendor_field() -> None:
    error = VendorError(
        Code.HTTP_RATE_LIMITED,
        "slow down",
        vendor="v",
        status=429,
        vendor_type="rate_limit",
        vendor_code="r-1",
        vendor_message="too many",
        retry_after=2.5,
        event_index=3,
    )
    moved = error.with_message("calls[0]: slow down")
    assert moved is not error
    assert (moved.code, moved.message) == (Code.HTTP_RATE_LIMITED, "calls[0]: slow down")
    assert (
        moved.vendor,
        moved.status,
        moved.vendor_type,
        moved.vendor_code,
        moved.vendor_message,
        moved.retry_after,
        moved.event_index,
    ) == ("v", 429, "rate_limit", "r-1", "too many", 2.5, 3)
    assert error.message == "slow down"
