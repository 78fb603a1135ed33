"""The example adapter's one exception and its stable codes."""

from enum import StrEnum, unique

from course_protocol import CourseError


@unique
class JsonlProviderErrorCode(StrEnum):
    """Why a JSON-lines turn was rejected; values never change."""

    JSONL_INVALID_LINE = "JSONL_INVALID_LINE"
    """A line is not a JSON object, or one of its fields has the wrong shape."""

    JSONL_UNKNOWN_KIND = "JSONL_UNKNOWN_KIND"
    """A line's ``kind`` names no known line."""

    JSONL_OUT_OF_ORDER = "JSONL_OUT_OF_ORDER"
    """A line came before ``begin``, after ``finish``, or ``begin`` came twice."""

    JSONL_TURN_MISMATCH = "JSONL_TURN_MISMATCH"
    """``finish`` names another turn than ``begin``."""

    JSONL_INVALID_TERMINAL = "JSONL_INVALID_TERMINAL"
    """The finish reason contradicts the Tool calls of the turn."""

    JSONL_MISSING_FINISH = "JSONL_MISSING_FINISH"
    """The transport ended without ``finish``."""

    JSONL_PROVIDER_ERROR = "JSONL_PROVIDER_ERROR"
    """The provider reported a failure (``oops``); ``provider_code`` carries its code."""

    JSONL_TRANSPORT_FAILED = "JSONL_TRANSPORT_FAILED"
    """Reading the transport raised; the original exception is the ``__cause__``."""


class JsonlProviderError(CourseError):
    """A JSON-lines turn failed, with a stable ``code`` and the 0-based ``line`` at fault.

    A ``CourseError`` like every course package's error, so a loop handles it
    by its ``code``. ``line`` is ``None`` when no single line is at fault;
    ``provider_code`` is set only for ``JSONL_PROVIDER_ERROR``.
    """

    code: JsonlProviderErrorCode

    def __init__(
        self,
        code: JsonlProviderErrorCode,
        message: str,
        *,
        line: int | None = None,
        provider_code: str | None = None,
    ) -> None:
        super().__init__(JsonlProviderErrorCode(code), message)
        self.line = line
        self.provider_code = provider_code
