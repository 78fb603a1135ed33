"""VendorError: one error for every real provider, with stable codes and no secrets."""

from __future__ import annotations

import pickle

import pytest

from course_http import VendorError, VendorErrorCode
from course_protocol import CourseError


def test_vendor_error_is_a_course_error_with_its_fields() -> None:
    error = VendorError(
        VendorErrorCode.HTTP_RATE_LIMITED,
        "slow down",
        vendor="anthropic-messages",
        status=429,
        vendor_type="rate_limit_error",
        retry_after=2.5,
    )
    assert isinstance(error, CourseError)
    assert error.code is VendorErrorCode.HTTP_RATE_LIMITED
    assert (error.status, error.vendor_type, error.retry_after) == (429, "rate_limit_error", 2.5)
    assert error.vendor_code is None
    assert error.event_index is None
    assert str(error) == "HTTP_RATE_LIMITED: slow down"


@pytest.mark.parametrize(
    ("code", "retryable"),
    [
        (VendorErrorCode.HTTP_RATE_LIMITED, True),
        (VendorErrorCode.HTTP_OVERLOADED, True),
        (VendorErrorCode.HTTP_SERVER_ERROR, True),
        (VendorErrorCode.HTTP_TIMEOUT, True),
        (VendorErrorCode.HTTP_CONNECT_FAILED, True),
        (VendorErrorCode.HTTP_STREAM_INTERRUPTED, True),
        (VendorErrorCode.HTTP_UNAUTHORIZED, False),
        (VendorErrorCode.HTTP_REQUEST_REJECTED, False),
        (VendorErrorCode.VENDOR_INVALID_EVENT, False),
        (VendorErrorCode.VENDOR_INCOMPLETE, False),
        (VendorErrorCode.VENDOR_MISSING_API_KEY, False),
        (VendorErrorCode.VENDOR_INVALID_REQUEST, False),
    ],
)
def test_retryable_says_whether_the_same_request_may_succeed_later(
    code: VendorErrorCode, retryable: bool
) -> None:
    assert VendorError(code, "m", vendor="openai-chat").retryable is retryable


def test_vendor_error_pickles_with_every_field() -> None:
    error = VendorError(
        VendorErrorCode.VENDOR_ERROR_EVENT,
        "overloaded",
        vendor="anthropic-messages",
        status=200,
        vendor_type="overloaded_error",
        vendor_code="c",
        vendor_message="Overloaded",
        retry_after=None,
        event_index=7,
    )
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is VendorError
    assert (copy.code, copy.message, copy.vendor, copy.status, copy.event_index) == (
        VendorErrorCode.VENDOR_ERROR_EVENT,
        "overloaded",
        "anthropic-messages",
        200,
        7,
    )
    assert (copy.vendor_type, copy.vendor_code, copy.vendor_message) == (
        "overloaded_error",
        "c",
        "Overloaded",
    )
