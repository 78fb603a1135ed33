"""Hand an exception nobody can receive to `sys.unraisablehook`."""

from __future__ import annotations

import sys
import traceback
from dataclasses import dataclass
from types import TracebackType

__all__ = ["report_unraisable"]


@dataclass(frozen=True, slots=True)
class _UnraisableArgs:
    """Duck-types `sys.UnraisableHookArgs`, which Python does not let code construct."""

    exc_type: type[BaseException]
    exc_value: BaseException
    exc_traceback: TracebackType | None
    err_msg: str
    object: object


def report_unraisable(error: BaseException, message: str, source: object) -> None:
    """Report ``error`` (raised by ``source``) the way Python reports errors in ``__del__``.

    A custom `sys.unraisablehook` receives an object with the attributes of
    `sys.UnraisableHookArgs`; with the default hook the report is printed to stderr
    in the default hook's format (the default hook only accepts Python's own type).
    Never raises.
    """
    hook = sys.unraisablehook
    args = _UnraisableArgs(type(error), error, error.__traceback__, message, source)
    try:
        if hook is not sys.__unraisablehook__:
            hook(args)  # type: ignore[arg-type]
            return
        stderr = sys.stderr
        if stderr is None:
            return
        stderr.write(f"{message}: {source!r}\n")
        traceback.print_exception(error, file=stderr)
        stderr.flush()
    except BaseException:
        # Mirrors Python's own unraisable path: a failing hook is not allowed to
        # turn a reported error into a raised one.
        return
