"""GeminiModel: the Gemini API behind the ``CourseModel`` port.

Request conversion (`generate_content_body`), the wire's two halves (the
grammar `GeminiGrammar` under the mapping `GeminiMapping`) over both of the
vendor's framings (`GeminiDecoder`) and the vendor's error bodies
(`describe_error`), wired to ``course_vendor.VendorModel``, which does
everything else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, final

from course_http import HttpTransport
from course_protocol import CourseModelRequest
from course_provider_gemini import _wire
from course_provider_gemini._config import GeminiConfig
from course_provider_gemini._errors import describe_error
from course_provider_gemini._framing import GEMINI_FRAMING
from course_provider_gemini._mapping import GeminiMapping
from course_provider_gemini._options import GEMINI_OPTIONS
from course_provider_gemini._request import generate_content_body, request_headers
from course_vendor import ContentSupport, MediaRule, VendorModel, VendorPlay, VendorWire

__all__ = ["GEMINI_CONTENT", "GEMINI_WIRE", "GeminiModel"]

GEMINI_CONTENT: Final = ContentSupport(
    kinds=frozenset(
        {"text", "image", "document", "reasoning", "vendorTool", "citations", "opaque"}
    ),
    # The API reference's image understanding page: PNG, JPEG, WEBP, HEIC and
    # HEIF; inline data up to 100 MB base64 encoded (75 MB of bytes) in one
    # request, and public or signed http(s) URLs as fileData.fileUri.
    images=MediaRule(
        frozenset({"image/png", "image/jpeg", "image/webp", "image/heic", "image/heif"}),
        max_bytes=75_000_000,
        urls=True,
    ),
    # Document understanding: PDF (at most 50 MB) natively, and the text
    # formats the model reads as plain text.
    documents=MediaRule(
        frozenset(
            {
                "application/pdf",
                "text/plain",
                "text/html",
                "text/css",
                "text/csv",
                "text/xml",
                "text/md",
                "text/rtf",
                "text/javascript",
                "application/x-javascript",
                "text/x-python",
                "application/x-python",
            }
        ),
        max_bytes=50_000_000,
        urls=True,
    ),
)
"""What the Gemini API takes of a transcript beyond plain text and Tool calls: all of it."""

GEMINI_WIRE = VendorWire(
    vendor=_wire.WIRE,
    key_variable=_wire.API_KEY_VARIABLE,
    more_key_variables=_wire.MORE_API_KEY_VARIABLES,
    path=_wire.STREAM_PATH,
    query=_wire.SSE_QUERY,
    describe_error=describe_error,
    framing=GEMINI_FRAMING,
    options=GEMINI_OPTIONS,
    content=GEMINI_CONTENT,
)


@final
class GeminiModel(VendorModel[GeminiConfig]):
    """The Gemini API (``POST /v1beta/models/{model}:streamGenerateContent``) as a ``CourseModel``.

    ``config`` says what every call sends besides the transcript (model,
    output limit, system prompt, Tools, options, base URL, timeouts);
    `with_config` derives a model with other options. ``api_key`` is
    the key, or ``None`` to read ``GOOGLE_API_KEY``, then ``GEMINI_API_KEY``,
    at each call (as the google-genai SDK does); it is sent in the
    ``x-goog-api-key`` header, never in the query. ``transport`` is a
    ``course_http`` transport to send through (a ``RecordedTransport`` to
    replay, needing no key), or ``None`` for a ``LiveTransport`` on
    ``config.base_url`` with ``config.timeouts``, which the model closes in
    `aclose`. See ``course_vendor.VendorModel`` for how a call runs, fails
    and aborts, and the README for every decision.

    The model keeps nothing between calls: every ``thoughtSignature`` and
    vendor call id travels in the transcript, on the block it came with
    (``GeminiMapping``), and goes back from there (Gemini 3 refuses a call
    without its signature), so a second model continues any conversation.
    Raises ``TypeError`` when ``config`` is not a `GeminiConfig`
    or ``transport`` not a transport, and ``course_vendor.VendorConfigError``
    for a bad key or config timeouts given with a transport.
    """

    __slots__ = ()

    def __init__(
        self,
        config: GeminiConfig,
        *,
        api_key: str | None = None,
        transport: HttpTransport | None = None,
    ) -> None:
        if type(config) is not GeminiConfig:
            raise TypeError(f"config must be a GeminiConfig, not {type(config).__name__}")
        super().__init__(config, GEMINI_WIRE, api_key=api_key, transport=transport)

    def _body(self, request: CourseModelRequest) -> Mapping[str, object]:
        return generate_content_body(request, self._config)

    def _headers(self, api_key: str | None) -> Mapping[str, str]:
        if api_key is None:
            return {}
        return request_headers(api_key)

    def _parser(self, request_id: str) -> VendorPlay:
        return GeminiMapping(request_id)
