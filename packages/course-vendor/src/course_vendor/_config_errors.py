"""VendorConfigError: the one error of a vendor model's configuration, raised before any call."""

from __future__ import annotations

from enum import StrEnum, unique

from course_protocol import CourseError

__all__ = ["VendorConfigError", "VendorConfigErrorCode", "config_error"]


@unique
class VendorConfigErrorCode(StrEnum):
    """Why a vendor model's configuration was refused; values never change."""

    VENDOR_INVALID_CONFIG = "VENDOR_INVALID_CONFIG"
    """A configuration field has the wrong type or value, or does not fit the model's transport."""

    VENDOR_INVALID_API_KEY = "VENDOR_INVALID_API_KEY"
    """The API key given is not a usable header value (empty, not visible ASCII, not a str)."""


class VendorConfigError(CourseError, ValueError):
    """A vendor configuration (a config field, the API key given to a model) was refused.

    Raised at construction, never during a call: by every `VendorConfig`
    (``VENDOR_INVALID_CONFIG``), by a `VendorModel` given config timeouts and
    a transport of its own (``VENDOR_INVALID_CONFIG``), and by the API-key
    check (``VENDOR_INVALID_API_KEY``). ``path`` names the refused value
    (``AnthropicConfig.max_output_tokens``, ``api_key``) and ``message``
    starts with it and says what is wrong; a key's message never holds the
    key. Also a ``ValueError``, as a bad argument value is in Python.
    """

    code: VendorConfigErrorCode
    path: str

    def __init__(self, code: VendorConfigErrorCode, path: str, message: str) -> None:
        super().__init__(VendorConfigErrorCode(code), message)
        self.path = path

    def __reduce__(self) -> tuple[type[VendorConfigError], tuple[str, str, str]]:
        return (type(self), (self.code.value, self.path, self.message))


def config_error(path: str, problem: str) -> VendorConfigError:
    """A ``VENDOR_INVALID_CONFIG`` error about ``path``: the message is ``"<path> <problem>"``."""
    return VendorConfigError(VendorConfigErrorCode.VENDOR_INVALID_CONFIG, path, f"{path} {problem}")
