"""How both OpenAI wires report what is wrong: one `VendorError` shape, messages with paths.

Each wire's modules raise through that wire's `OpenAIFailures` (`CHAT_FAILURES`,
`RESPONSES_FAILURES`), a ``course_vendor.EventFailures``: every error names
the wire in ``vendor`` and the event in ``event_index``, and names a bad value
by ``course_protocol.untrusted.described`` (JSON's words), never by its text.
"""

from __future__ import annotations

from typing import Final, NoReturn, final

from course_http import VendorErrorCode
from course_protocol.untrusted import shown
from course_provider_openai import _chat_wire, _responses_wire
from course_provider_openai._errors import ErrorDescription, error_account, error_fields
from course_vendor import EventFailures

__all__ = ["CHAT_FAILURES", "RESPONSES_FAILURES", "OpenAIFailures"]


@final
class OpenAIFailures(EventFailures):
    """`course_vendor.EventFailures` for one OpenAI API, with the failures both APIs share.

    Its `invalid`, `object_at` and `text_at` are the kit's.
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


CHAT_FAILURES: Final = OpenAIFailures(_chat_wire.WIRE)
"""How the Chat Completions modules fail (wire ``"openai-chat"``)."""

RESPONSES_FAILURES: Final = OpenAIFailures(_responses_wire.WIRE)
"""How the Responses API modules fail (``vendor`` ``"openai-responses"``)."""
