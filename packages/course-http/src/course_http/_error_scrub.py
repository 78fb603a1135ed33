"""A `VendorError` made safe to show: the call's credentials scrubbed from all it says.

A vendor may echo the key it was sent anywhere: in an error body, in an
``error`` event inside a 200 stream, in what a proxy or the client library
says. Whoever raises the error (the status check, the client's translation,
a vendor's parser) knows nothing of the key; the one who sent the request
does, and scrubs the error with `scrub_error` before anyone sees it. A
vendor model's call fails through a `ScrubbedStream`, which does so for
every failure, whoever raised it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from course_http._errors import VendorError
from course_http._secrets import scrub, scrub_shown
from course_stream import EventStream

__all__ = ["ScrubbedStream", "scrub_error"]

E = TypeVar("E")
R = TypeVar("R")


class ScrubbedStream(EventStream[E, R]):
    """An `EventStream` whose `fail` scrubs ``secrets`` from a `VendorError` before it settles.

    Every failure of a stream reaches its consumer through `fail` (the
    producer's own, a parser's verdict, the transport's error), so a call
    that sent ``secrets`` shows none of them, whatever failed. Any other
    exception (an abort's reason) is passed as it is.
    """

    __slots__ = ("_secrets",)

    def __init__(self, secrets: tuple[str, ...]) -> None:
        super().__init__()
        self._secrets = secrets

    def fail(self, error: BaseException) -> None:
        """`EventStream.fail`, with ``error`` scrubbed first when it is a `VendorError`."""
        if isinstance(error, VendorError):
            scrub_error(error, self._secrets)
        super().fail(error)


def scrub_error(error: VendorError, secrets: Iterable[str]) -> VendorError:
    """``error``, scrubbed in place of every credential in ``secrets``; returns it.

    Its ``vendor_type``, ``vendor_code`` and ``vendor_message`` (the
    vendor's words, whole) lose each credential; its message (and so its
    ``str`` and ``repr``) and notes also any start of one
    (`course_http._secrets.scrub_shown`: a message quotes the vendor cut to
    a length, which may fall inside a key). Errors it was raised from
    (``__cause__``, ``__context__``) are scrubbed the same way when they are
    `VendorError` s; any other that shows a credential is cut off the chain,
    so no traceback prints it. The object stays the same, so an error
    already handed out (a parser's failure, raised again on each later call)
    is scrubbed too. Raises nothing.
    """
    shown = tuple(secrets)
    if shown:
        _scrub_chain(error, shown, set())
    return error


def _scrub_chain(error: BaseException, secrets: tuple[str, ...], seen: set[int]) -> None:
    seen.add(id(error))
    if isinstance(error, VendorError):
        _scrub_fields(error, secrets)
    for link in (error.__cause__, error.__context__):
        if link is None or id(link) in seen:
            continue
        if not isinstance(link, VendorError) and _shows_secret(link, secrets):
            # A foreign exception cannot be rewritten: none of the chain is kept.
            error.__cause__ = None
            error.__context__ = None
            error.__suppress_context__ = True
            return
        _scrub_chain(link, secrets, seen)


def _scrub_fields(error: VendorError, secrets: tuple[str, ...]) -> None:
    error.message = scrub_shown(error.message, secrets)
    error.args = tuple(scrub_shown(arg, secrets) if type(arg) is str else arg for arg in error.args)
    error.vendor_type = _scrubbed(error.vendor_type, secrets)
    error.vendor_code = _scrubbed(error.vendor_code, secrets)
    error.vendor_message = _scrubbed(error.vendor_message, secrets)
    error.provider_code = _scrubbed(error.provider_code, secrets)
    notes = getattr(error, "__notes__", None)
    if type(notes) is list:
        notes[:] = [scrub_shown(note, secrets) if type(note) is str else note for note in notes]


def _scrubbed(value: str | None, secrets: tuple[str, ...]) -> str | None:
    # Whole: a vendor's own masked echo ("sk-proj-****abcd") keeps its public prefix.
    return None if value is None else scrub(value, secrets)


def _shows_secret(error: BaseException, secrets: tuple[str, ...]) -> bool:
    try:
        texts = [str(error), repr(error)]
    except Exception:
        # An exception that cannot say what it is shows nothing either; it is
        # still cut off, as nothing proves it holds no key.
        return True
    texts += [note for note in getattr(error, "__notes__", ()) if type(note) is str]
    return any(scrub_shown(text, secrets) != text for text in texts)
