"""The course error a failure is about: the first raised, else the first the cassette kept."""

from __future__ import annotations

from course_http import VendorError, VendorErrorCode
from course_pytest._headline import course_problem

MISMATCH = VendorError(VendorErrorCode.HTTP_REQUEST_MISMATCH, "call 1 differs", vendor="cassette")
ORDER = VendorError(VendorErrorCode.VENDOR_EVENT_ORDER, "event 3: a delta", vendor="w")


class SdkConnectionError(Exception):
    """What an SDK raises around whatever its transport raised."""


def wrapped(inner: BaseException) -> SdkConnectionError:
    try:
        try:
            raise inner
        except BaseException as error:
            raise SdkConnectionError("Connection error.") from error
    except SdkConnectionError as outer:
        return outer


def test_the_course_error_itself_is_the_problem() -> None:
    assert course_problem(ORDER, (MISMATCH,)) is ORDER


def test_a_course_error_under_an_sdk_error_is_found_through_its_cause() -> None:
    assert course_problem(wrapped(ORDER), ()) is ORDER


def test_a_course_error_in_an_exception_group_is_found() -> None:
    group = ExceptionGroup("many", [ValueError("no"), wrapped(ORDER)])
    assert course_problem(group, ()) is ORDER


def test_without_a_course_error_in_the_chain_the_first_kept_problem_is_the_problem() -> None:
    assert course_problem(SdkConnectionError("400 Bad Request"), (MISMATCH, ORDER)) is MISMATCH
    assert course_problem(None, (MISMATCH,)) is MISMATCH
    assert course_problem(ValueError("unrelated"), ()) is None


def test_a_chain_that_loops_ends() -> None:
    first, second = ValueError("a"), ValueError("b")
    first.__context__ = second
    second.__context__ = first
    assert course_problem(first, ()) is None
    assert course_problem(first, (MISMATCH,)) is MISMATCH


def test_a_chain_deeper_than_the_bound_ends_without_recursion() -> None:
    error: BaseException = ORDER
    for depth in range(10_000):
        outer = ValueError(depth)
        outer.__cause__ = error
        error = outer
    assert course_problem(error, ()) is None
