"""AnthropicMessagesModel: the Messages API behind the ``CourseModel`` port.

Request conversion (`messages_request_body`), the wire's two halves (the
grammar under `MessagesMapping`) and the vendor's error bodies
(`describe_error`), wired to ``course_vendor.VendorModel``, which does
everything else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import final

from course_http import HttpTransport
from course_protocol import CourseModelRequest
from course_provider_anthropic import _wire
from course_provider_anthropic._config import AnthropicConfig
from course_provider_anthropic._errors import describe_error
from course_provider_anthropic._mapping import MessagesMapping
from course_provider_anthropic._options import MESSAGES_OPTIONS
from course_provider_anthropic._request import (
    keyless_headers,
    messages_request_body,
    request_headers,
)
from course_vendor import ContentSupport, MediaRule, VendorModel, VendorPlay, VendorWire

__all__ = ["MESSAGES_CONTENT", "MESSAGES_WIRE", "AnthropicMessagesModel"]

_MB = 1024 * 1024
MESSAGES_CONTENT = ContentSupport(
    kinds=frozenset({"text", "image", "document", "reasoning", "vendorTool", "citations"}),
    # Vision guide: JPEG, PNG, GIF and WebP, by base64 or URL source, at most
    # 5 MB per image over the API, a limit the API holds the base64 text to
    # ("image exceeds 5 MB maximum: ... bytes > 5242880 bytes"): 3/4 of it in bytes.
    images=MediaRule(
        frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"}),
        max_bytes=5 * _MB * 3 // 4,
        urls=True,
    ),
    # PDF support guide: a PDF by base64 or URL source, plain text by a text
    # source; the maximum request size is 32 MB, so no document's base64
    # text can pass it (a text/plain document by URL is refused in the body).
    documents=MediaRule(
        frozenset({"application/pdf", _wire.PLAIN_TEXT_MEDIA_TYPE}),
        max_bytes=32 * _MB * 3 // 4,
        urls=True,
    ),
)
"""What the Messages API takes of a transcript beyond plain text and Tool calls."""

MESSAGES_WIRE = VendorWire(
    vendor=_wire.WIRE,
    key_variable=_wire.API_KEY_VARIABLE,
    path=_wire.MESSAGES_PATH,
    describe_error=describe_error,
    options=MESSAGES_OPTIONS,
    content=MESSAGES_CONTENT,
)


@final
class AnthropicMessagesModel(VendorModel[AnthropicConfig]):
    """The Anthropic Messages API (``POST /v1/messages``, streamed) as a ``CourseModel``.

    ``config`` says what every call sends besides the transcript (model,
    output limit, system prompt, Tools, options, base URL, timeouts);
    `with_config` derives a model with other options. ``api_key`` is
    the key, or ``None`` to read ``ANTHROPIC_API_KEY`` at each call;
    ``transport`` a ``course_http`` transport to send through (a
    ``RecordedTransport`` to replay, needing no key), or ``None`` for a
    ``LiveTransport`` on ``config.base_url`` with ``config.timeouts``, which
    the model closes in `aclose`. See ``course_vendor.VendorModel`` for how
    a call runs, fails and aborts, and the README for every decision.

    Raises ``TypeError`` when ``config`` is not an `AnthropicConfig` or
    ``transport`` not a transport, and ``course_vendor.VendorConfigError``
    for a bad key, or config timeouts given with a transport.
    """

    __slots__ = ()

    def __init__(
        self,
        config: AnthropicConfig,
        *,
        api_key: str | None = None,
        transport: HttpTransport | None = None,
    ) -> None:
        if type(config) is not AnthropicConfig:
            raise TypeError(f"config must be an AnthropicConfig, not {type(config).__name__}")
        super().__init__(config, MESSAGES_WIRE, api_key=api_key, transport=transport)

    def _body(self, request: CourseModelRequest) -> Mapping[str, object]:
        return messages_request_body(request, self._config)

    def _headers(self, api_key: str | None) -> Mapping[str, str]:
        if api_key is None:
            return keyless_headers(self._config.betas)
        return request_headers(api_key, self._config.betas)

    def _parser(self, request_id: str) -> VendorPlay:
        return MessagesMapping(request_id)
