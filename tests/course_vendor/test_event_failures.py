"""EventFailures: every event failure of a vendor names the vendor, the event and the code."""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

import pytest

from course_http import VendorError, VendorErrorCode
from course_vendor import EventFailures

FAILURES = EventFailures("acme")


def raised(failing: Callable[[], NoReturn]) -> VendorError:
    with pytest.raises(VendorError) as caught:
        failing()
    return caught.value


@pytest.mark.parametrize(
    ("failing", "code", "message"),
    [
        (
            lambda: FAILURES.fail_invalid("delta.text must be a string", 4),
            VendorErrorCode.VENDOR_INVALID_EVENT,
            "event 4: delta.text must be a string",
        ),
        (
            lambda: FAILURES.fail_order("a delta before its block started", 2),
            VendorErrorCode.VENDOR_EVENT_ORDER,
            "event 2: a delta before its block started",
        ),
        (
            lambda: FAILURES.invalid(7, "usage.output_tokens", "an integer", "12"),
            VendorErrorCode.VENDOR_INVALID_EVENT,
            "event 7: usage.output_tokens must be an integer, got string",
        ),
    ],
)
def test_each_failure_names_its_code_the_vendor_and_the_event(
    failing: Callable[[], NoReturn], code: VendorErrorCode, message: str
) -> None:
    error = raised(failing)

    assert (error.code, error.vendor, error.message) == (code, "acme", message)
    assert error.event_index == int(message.split()[1].rstrip(":"))
    assert (error.vendor_type, error.vendor_code, error.vendor_message) == (None, None, None)
