"""Every error a course package raises on purpose is a CourseError with a StrEnum code."""

from __future__ import annotations

import importlib
import pickle
from enum import StrEnum
from types import ModuleType

from course_protocol import CourseError

# course_stream sits below the protocol and knows no domain: its misuse error is a
# RuntimeError and AbortError is an abort's default reason (documented on CourseError).
PACKAGES = [
    "course_protocol",
    "course_scripted",
    "course_provider_fixture",
    "course_conformance",
    "course_http",
    "course_vendor",
    "course_provider_anthropic",
    "course_provider_openai",
    "course_cli",
]
# The two signals a replaying transport raises inside httpx2 are never a user's to catch:
# stream_events turns each into a VendorError with its code (documented on both).
NOT_COURSE_ERRORS = {
    ("course_stream", "EventStreamStateError"),
    ("course_stream", "AbortError"),
    ("course_http", "RecordingExhaustedError"),
    ("course_http", "RequestMismatchError"),
}


def misfiled_errors(package: str, module: ModuleType) -> list[str]:
    """Every exception ``module`` exports that is not a CourseError, or is one it should not be.

    The exceptions of `NOT_COURSE_ERRORS` must not be CourseErrors; every
    other one must be.
    """
    found = []
    for attribute in module.__all__:
        value = getattr(module, attribute)
        if not (isinstance(value, type) and issubclass(value, BaseException)):
            continue
        course_error = issubclass(value, CourseError)
        if (package, attribute) in NOT_COURSE_ERRORS:
            if course_error:
                found.append(f"{package}.{attribute}: a CourseError, documented as not one")
        elif not course_error:
            found.append(f"{package}.{attribute}: not a CourseError")
    return found


def test_every_exported_error_is_a_course_error_or_a_documented_exception() -> None:
    offences = [
        offence
        for package in [*PACKAGES, "course_stream"]
        for offence in misfiled_errors(package, importlib.import_module(package))
    ]

    assert offences == [], "\n".join(["", *offences])


def test_a_misfiled_error_is_named() -> None:
    planted = ModuleType("course_http")
    planted.__dict__.update(
        __all__=["PlainError", "RequestMismatchError", "Good", "VALUE"],
        PlainError=type("PlainError", (ValueError,), {}),
        RequestMismatchError=type("RequestMismatchError", (CourseError,), {}),
        Good=type("Good", (CourseError,), {}),
        VALUE=ValueError("an instance, not a class"),
    )

    assert misfiled_errors("course_http", planted) == [
        "course_http.PlainError: not a CourseError",
        "course_http.RequestMismatchError: a CourseError, documented as not one",
    ]


def test_the_package_errors_carry_a_str_enum_code_and_survive_pickling() -> None:
    from course_cli._demo import DemoStopCode, DemoStoppedError
    from course_conformance import ConformanceError, Invariant, NetworkAccessError, Scenario
    from course_http import VendorError, VendorErrorCode
    from course_protocol import CourseProtocolError, JsonError, JsonErrorCode
    from course_provider_fixture import FixtureProviderError, FixtureProviderErrorCode
    from course_scripted import ScriptedModelError, ScriptedModelErrorCode
    from course_vendor import VendorConfigError, VendorConfigErrorCode

    errors: list[CourseError] = [
        ScriptedModelError(ScriptedModelErrorCode.SCRIPT_EXHAUSTED, "none left"),
        FixtureProviderError(FixtureProviderErrorCode.PROVIDER_EXHAUSTED, "none left"),
        VendorError(VendorErrorCode.HTTP_TIMEOUT, "slow", vendor="openai-chat"),
        CourseProtocolError("id", "must not be blank"),
        JsonError(JsonErrorCode.NOT_JSON, "$", "is not JSON"),
        ConformanceError(Invariant.NO_NETWORK, Scenario.COMPLETE, "dialled out", None),
        NetworkAccessError("socket.connect is blocked"),
        DemoStoppedError(DemoStopCode.TURN_LIMIT, "stopped"),
        VendorConfigError(
            VendorConfigErrorCode.VENDOR_INVALID_CONFIG, "OpenAIConfig.model", "must not be blank"
        ),
    ]
    for error in errors:
        assert str(error).startswith(f"{error.code}: "), "one string form: CODE: message"
        assert isinstance(error.code, StrEnum), error
        assert isinstance(error.message, str), error
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is type(error)
        assert (copy.code, copy.message) == (error.code, error.message)
