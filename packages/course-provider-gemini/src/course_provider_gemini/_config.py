"""GeminiConfig: the kit's `VendorConfig` with the Gemini API's default base URL."""

from __future__ import annotations

from dataclasses import dataclass
from typing import final

from course_provider_gemini import _wire
from course_vendor import VendorConfig, VendorConfigError, VendorConfigErrorCode

__all__ = ["GeminiConfig"]

_MODEL_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._")
"""What a model name may be made of: it is one segment of the endpoint's path."""


@final
@dataclass(frozen=True, slots=True)
class GeminiConfig(VendorConfig):
    """The adapter's side of every Gemini API request: ``course_vendor.VendorConfig``.

    The fields, their names and their checks are the kit's, the same for
    every vendor; this class adds what is the Gemini API's own:

    - ``model`` is one segment of the endpoint's path
      (``/v1beta/models/{model}:streamGenerateContent``): letters, digits,
      ``-``, ``.`` and ``_`` only (``gemini-2.5-flash``; not
      ``models/gemini-2.5-flash``);
    - ``max_output_tokens`` is optional (``None``: the model's own limit),
      sent as ``generationConfig.maxOutputTokens``;
    - ``system_prompt`` is sent as ``systemInstruction``;
    - ``base_url`` defaults to ``https://generativelanguage.googleapis.com``,
      spelled as the google-genai SDK and ``GOOGLE_GEMINI_BASE_URL`` spell it:
      the endpoint path is joined after it.

    Raises ``course_vendor.VendorConfigError`` ``VENDOR_INVALID_CONFIG`` for
    the first bad field, its message naming it
    (``GeminiConfig.model must be ...``).
    """

    base_url: str = _wire.DEFAULT_BASE_URL

    def __post_init__(self) -> None:
        VendorConfig.__post_init__(self)
        if not set(self.model) <= _MODEL_CHARACTERS:
            path = "GeminiConfig.model"
            raise VendorConfigError(
                VendorConfigErrorCode.VENDOR_INVALID_CONFIG,
                path,
                f"{path} must be a model name of letters, digits, '-', '.' and '_' "
                "(one segment of the endpoint's path, without 'models/')",
            )

    @property
    def stream_url(self) -> str:
        """The absolute URL (query included) of the streaming endpoint under ``base_url``."""
        path = _wire.STREAM_PATH.replace("{model}", self.model)
        return f"{self.base_url}{path}?{_wire.SSE_QUERY}"
