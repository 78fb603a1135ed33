"""Where a vendor model's API key comes from, checked without ever showing it.

A key is explicit (given to the model) or read from the vendor's environment
variable when a call is made. Either way it ends up in a request header, so
it must be a header value that cannot forge a second header: visible ASCII,
nothing else. No message here ever holds the key or a piece of it.
"""

from __future__ import annotations

import os
from typing import Final

from course_http import VendorError, VendorErrorCode
from course_protocol.untrusted import described_setting
from course_vendor._config_errors import VendorConfigError, VendorConfigErrorCode

__all__ = ["KEY_CHARACTERS", "checked_api_key", "environment_api_key"]

KEY_CHARACTERS: Final = frozenset(chr(code) for code in range(0x21, 0x7F))
"""What a usable key is made of: visible ASCII (no space, no control or line-break character)."""


def _problem(key: str) -> str | None:
    if not key:
        return "is empty"
    if not set(key) <= KEY_CHARACTERS:
        return "holds a character that is not visible ASCII (a space, a line break, a control)"
    return None


def checked_api_key(api_key: object) -> str:
    """``api_key`` when it is a usable key: a non-empty ``str`` of visible ASCII.

    The one rule for a key, whoever gives it: a model's ``api_key`` and every
    vendor's header builder check it here. Raises `VendorConfigError`
    ``VENDOR_INVALID_API_KEY`` (path ``api_key``) when it is not a ``str``,
    is empty, or holds any other character (a space, a line break: a header
    value that would split; a non-ASCII letter). The message never shows the key.
    """
    if type(api_key) is not str:
        raise _refused(f"must be a str, got {described_setting(api_key, private=True)}")
    problem = _problem(api_key)
    if problem is not None:
        raise _refused(problem)
    return api_key


def _refused(problem: str) -> VendorConfigError:
    return VendorConfigError(
        VendorConfigErrorCode.VENDOR_INVALID_API_KEY,
        "api_key",
        f"api_key {problem}; the key itself is not shown",
    )


def environment_api_key(variables: tuple[str, ...], *, model: str, vendor: str) -> str:
    """The key in the first of the environment ``variables`` that is set and not empty, read now.

    The variables are read in order (a vendor whose SDK reads two, as
    Gemini's reads ``GOOGLE_API_KEY`` then ``GEMINI_API_KEY``, names both).
    Raises `VendorError` ``VENDOR_MISSING_API_KEY`` (``vendor``; ``model``
    names the class asking) when none is set, or the first set holds
    something that is not a usable key; the message names the variables,
    never a value.
    """
    for variable in variables:
        value = os.environ.get(variable)
        if not value:
            continue
        problem = _problem(value)
        if problem is not None:
            raise VendorError(
                VendorErrorCode.VENDOR_MISSING_API_KEY,
                f"{variable} {problem}, so it is not a usable API key; the value is not shown",
                vendor=vendor,
            )
        return value
    raise VendorError(
        VendorErrorCode.VENDOR_MISSING_API_KEY,
        f"{model} needs an API key for a live call: pass api_key=... or set "
        + " or ".join(variables),
        vendor=vendor,
    )
