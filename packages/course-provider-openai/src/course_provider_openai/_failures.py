"""How both OpenAI wires report what is wrong: one `VendorError` shape, messages with paths.

A grammar and a mapping make one `OpenAIFailures` for the wire they speak for
(OpenAI's own, a compatible server's dialect, Azure's) and hand it to every
part that reads the stream, so each error is built once, where it is raised,
in that wire's name: ``vendor`` names the wire, ``event_index`` the event,
and a bad value is named by ``course_protocol.untrusted.described`` (JSON's
words), never by its text.
"""

from __future__ import annotations

from typing import NoReturn, final

from course_http import VendorErrorCode
from course_protocol.untrusted import shown
from course_provider_openai._errors import ErrorDescription, error_account, error_fields
from course_vendor import EventFailures

__all__ = ["OpenAIFailures"]


@final
class OpenAIFailures(EventFailures):
    """`course_vendor.EventFailures` for one wire of an OpenAI API, with the failures both share.

    ``OpenAIFailures(wire)`` raises every error with ``vendor`` ``wire``. Its
    `invalid`, `object_at` and `text_at` are the kit's.
    """

    __slots__ = ()

    def refused(self, refusal: str, index: int, vendor_type: str) -> NoReturn:
        """Raise ``VENDOR_REFUSAL`` with the refusal text (whole in ``vendor_message``)."""
        self.fail(
            VendorErrorCode.VENDOR_REFUSAL,
            index,
            f"the model refused: {shown(refusal)}",
            vendor_type=vendor_type,
            vendor_message=refusal,
        )

    def reported(self, error: object, index: int) -> NoReturn:
        """Raise ``VENDOR_ERROR_EVENT`` for the error object the vendor sent in event ``index``.

        `error_event` of the error's type, code and message as ``error_fields`` reads them.
        """
        self.error_event(error_fields(error), index)

    def error_event(self, description: ErrorDescription, index: int) -> NoReturn:
        """Raise ``VENDOR_ERROR_EVENT`` for the vendor's error of event ``index``.

        Its ``(type, code, message)``, each ``None`` when absent, are the
        `VendorError`'s ``vendor_type``, ``vendor_code`` and ``vendor_message``.
        """
        kind, code, message = description
        self.fail(
            VendorErrorCode.VENDOR_ERROR_EVENT,
            index,
            f"the vendor reported an error in the stream ({error_account(description)})",
            vendor_type=kind,
            vendor_code=code,
            vendor_message=message,
        )
