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
from course_vendor import VendorModel, VendorPlay, VendorWire

__all__ = ["GEMINI_WIRE", "SIGNATURES_KEPT", "GeminiModel"]

GEMINI_WIRE = VendorWire(
    vendor=_wire.WIRE,
    key_variable=_wire.API_KEY_VARIABLE,
    more_key_variables=_wire.MORE_API_KEY_VARIABLES,
    path=_wire.STREAM_PATH,
    query=_wire.SSE_QUERY,
    describe_error=describe_error,
    framing=GEMINI_FRAMING,
    options=GEMINI_OPTIONS,
)

SIGNATURES_KEPT: Final = 4096
"""How many Tool calls' thought signatures a model keeps, the newest, to send them back."""


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

    The model remembers the ``thoughtSignature`` of the newest
    `SIGNATURES_KEPT` Tool calls it received, by course call id, and sends
    each back with its call in a later request (Gemini 3 refuses a call
    without it). Raises ``TypeError`` when ``config`` is not a `GeminiConfig`
    or ``transport`` not a transport, and ``course_vendor.VendorConfigError``
    for a bad key or config timeouts given with a transport.
    """

    __slots__ = ("_signatures",)

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
        self._signatures = _Signatures()

    def _body(self, request: CourseModelRequest) -> Mapping[str, object]:
        return generate_content_body(request, self._config, self._signatures)

    def _headers(self, api_key: str | None) -> Mapping[str, str]:
        if api_key is None:
            return {}
        return request_headers(api_key)

    def _parser(self, request_id: str) -> VendorPlay:
        return GeminiMapping(request_id, signatures=self._signatures)


class _Signatures(dict[str, str]):
    """Call id -> thought signature, the newest `SIGNATURES_KEPT` only."""

    __slots__ = ()

    def __setitem__(self, key: str, value: str) -> None:
        super().__setitem__(key, value)
        while len(self) > SIGNATURES_KEPT:
            del self[next(iter(self))]
