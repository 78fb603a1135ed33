"""AnthropicConfig: the kit's `VendorConfig` with the Messages API's default base URL."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, final

from course_provider_anthropic import _wire
from course_vendor import VendorConfig

__all__ = ["AnthropicConfig"]


@final
@dataclass(frozen=True, slots=True)
class AnthropicConfig(VendorConfig):
    """The adapter's side of every Messages API request: ``course_vendor.VendorConfig``.

    The fields, their names and their checks are the kit's, the same for
    every vendor; this class adds what is the Messages API's own:

    - ``max_output_tokens`` is required (the API needs ``max_tokens``, which
      it is sent as): an ``int`` from 1 to 2**53 - 1, never ``None``;
    - ``system_prompt`` is sent as ``system``;
    - ``base_url`` defaults to ``https://api.anthropic.com``, spelled as the
      official SDK and ``ANTHROPIC_BASE_URL`` spell it: the endpoint path
      (``/v1/messages``) is joined after it.

    Raises ``course_vendor.VendorConfigError`` ``VENDOR_INVALID_CONFIG`` for
    the first bad field, its message naming it
    (``AnthropicConfig.max_output_tokens must be ...``).
    """

    OUTPUT_LIMIT_REQUIRED: ClassVar[bool] = True

    max_output_tokens: int
    base_url: str = _wire.DEFAULT_BASE_URL

    @property
    def messages_url(self) -> str:
        """The absolute URL of the Messages endpoint under ``base_url``."""
        return self.base_url + _wire.MESSAGES_PATH
