"""GeminiConfig: the kit's `VendorConfig` with the Gemini API's default base URL and options."""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from typing import ClassVar, final

from course_provider_gemini import _wire
from course_provider_gemini._options import GEMINI_OPTIONS, checked_gemini_options
from course_vendor import OptionSupport, VendorConfig, VendorConfigError, VendorConfigErrorCode

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
      the endpoint path is joined after it;
    - ``temperature`` goes from 0 to 2; ``stop_sequences`` holds at most 5;
      ``reasoning`` takes a ``ThinkingBudget`` (at most 2**31 - 1 tokens,
      sent as ``thinkingBudget``, for the Gemini 2.5 models) or a
      ``ReasoningEffort`` of ``minimal``, ``low``, ``medium`` or ``high``
      (sent as ``thinkingLevel``, for the Gemini 3 models);
      ``parallel_tool_calls`` and ``user_id`` are refused (the API has no
      field for them); ``extra_body`` may not hold ``contents``,
      ``systemInstruction``, ``tools``, ``toolConfig`` or ``generationConfig``
      (whole: its entries are not merged with the adapter's), nor their
      protobuf spellings ``system_instruction``, ``tool_config`` and
      ``generation_config``, which the API reads as the same fields.

    Its own options, keyword-only:

    - ``top_k``: an ``int`` from 1 to 2**31 - 1, or ``None``;
    - ``seed``: an ``int`` from -2**31 to 2**31 - 1, or ``None``;
    - ``built_in_tools``: the tools the vendor runs that the model may use,
      a tuple of distinct names among ``codeExecution``, ``googleSearch``
      and ``urlContext``, each sent as an entry ``{name: {}}`` of ``tools``
      after the function declarations (``tools`` cannot go in
      ``extra_body``: the adapter writes it).

    ``response_format`` is sent as ``generationConfig.responseMimeType``
    ``application/json`` with its schema as ``responseJsonSchema`` (its
    name and description have no field; the API constrains the answer to
    the schema whatever ``strict`` says). A ``strict`` Tool is refused: the
    API has no strict mode for function declarations.

    Raises ``course_vendor.VendorConfigError`` ``VENDOR_INVALID_CONFIG`` for
    the first bad field, its message naming it
    (``GeminiConfig.model must be ...``).
    """

    OPTIONS: ClassVar[OptionSupport | None] = GEMINI_OPTIONS

    base_url: str = _wire.DEFAULT_BASE_URL
    _: KW_ONLY
    top_k: int | None = None
    seed: int | None = None
    built_in_tools: tuple[str, ...] = ()

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

    def _check_own_options(self) -> None:
        checked_gemini_options(self)

    @property
    def stream_url(self) -> str:
        """The absolute URL (query included) of the streaming endpoint under ``base_url``."""
        path = _wire.STREAM_PATH.replace("{model}", self.model)
        return f"{self.base_url}{path}?{_wire.SSE_QUERY}"
