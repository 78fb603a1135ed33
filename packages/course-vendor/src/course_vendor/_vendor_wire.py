"""VendorWire: the fixed facts of one vendor API, options it sends included."""

from __future__ import annotations

from dataclasses import dataclass
from typing import final

from course_http import ErrorBodyReader
from course_vendor._config import VendorConfig
from course_vendor._support import OptionSupport

__all__ = ["VendorWire"]


@final
@dataclass(frozen=True, slots=True)
class VendorWire:
    """The fixed facts of one vendor API: what a `VendorModel` needs besides its configuration.

    ``vendor`` names the wire format in every `VendorError`
    (``"anthropic-messages"``); ``key_variable`` is the environment variable
    holding the API key (``ANTHROPIC_API_KEY``); ``path`` is the endpoint
    under the base URL (``/v1/messages``); ``describe_error`` reads the
    vendor's HTTP error bodies; ``options`` says which configuration options
    the API sends (``None``: none, so a model refuses every one that is set).
    """

    vendor: str
    key_variable: str
    path: str
    describe_error: ErrorBodyReader
    options: OptionSupport | None = None

    def check_options(self, config: VendorConfig) -> None:
        """Refuse what of ``config`` this API cannot send (see `OptionSupport.check`).

        Raises `VendorConfigError` ``VENDOR_INVALID_CONFIG`` naming the field and `vendor`.
        """
        (self.options or OptionSupport(self.vendor)).check(config)
