"""BedrockConverseModel: the ConverseStream API behind the ``CourseModel`` port.

Request conversion (`converse_request_body`), the wire's two halves (the
grammar under `ConverseMapping`), the event-stream framing
(`CONVERSE_FRAMING`), the vendor's error bodies (`describe_error`) and the
signing of each live request, wired to ``course_vendor.VendorModel``, which
does everything else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import final

from course_http import HttpRequest, HttpTransport
from course_protocol import CourseModelRequest
from course_provider_bedrock import _wire
from course_provider_bedrock._auth import chain_credentials, request_headers, signed_headers
from course_provider_bedrock._config import CONVERSE_OPTIONS, BedrockConfig
from course_provider_bedrock._errors import describe_error
from course_provider_bedrock._framing import CONVERSE_FRAMING
from course_provider_bedrock._mapping import ConverseMapping
from course_provider_bedrock._request import converse_request_body
from course_vendor import ContentSupport, VendorModel, VendorPlay, VendorWire

__all__ = ["CONVERSE_WIRE", "BedrockConverseModel"]

CONVERSE_WIRE = VendorWire(
    vendor=_wire.WIRE,
    key_variable=_wire.API_KEY_VARIABLE,
    path=_wire.STREAM_PATH,
    describe_error=describe_error,
    framing=CONVERSE_FRAMING,
    options=CONVERSE_OPTIONS,
    content=ContentSupport(kinds=frozenset({"reasoning"})),
    signs=True,
    encode_model=True,
)


@final
class BedrockConverseModel(VendorModel[BedrockConfig]):
    """AWS Bedrock's ConverseStream (``POST /model/{model}/converse-stream``) as a ``CourseModel``.

    ``config`` says what every call sends besides the transcript;
    ``api_key`` is a Bedrock API key, sent as ``Authorization: Bearer``, or
    ``None`` to read ``AWS_BEARER_TOKEN_BEDROCK`` at each call and, when it
    is unset, to sign the call with AWS SigV4 (botocore's signer, with the
    credentials botocore's default chain finds at that call, session
    tokens included, scoped to ``config.region``). Over a recorded
    transport nothing is read or signed. See ``course_vendor.VendorModel``
    for how a call runs, fails and aborts.

    Raises ``TypeError`` when ``config`` is not a `BedrockConfig` or
    ``transport`` not a transport, and ``course_vendor.VendorConfigError``
    for a bad key, or config timeouts given with a transport. A live call
    without a key nor credentials fails its stream with
    ``VENDOR_MISSING_API_KEY``.
    """

    __slots__ = ()

    def __init__(
        self,
        config: BedrockConfig,
        *,
        api_key: str | None = None,
        transport: HttpTransport | None = None,
    ) -> None:
        if type(config) is not BedrockConfig:
            raise TypeError(f"config must be a BedrockConfig, not {type(config).__name__}")
        super().__init__(config, CONVERSE_WIRE, api_key=api_key, transport=transport)

    def _body(self, request: CourseModelRequest) -> Mapping[str, object]:
        return converse_request_body(request, self._config)

    def _headers(self, api_key: str | None) -> Mapping[str, str]:
        return {} if api_key is None else request_headers(api_key)

    def _signed(self, request: HttpRequest) -> HttpRequest:
        url = self.transport.base_url.rstrip("/") + request.path
        headers = signed_headers(
            url,
            request.content,
            request.headers,
            credentials=chain_credentials(),
            region=self._config.signing_region,
        )
        return HttpRequest(request.path, request.body, headers, request.method)

    def _parser(self, request_id: str) -> VendorPlay:
        return ConverseMapping(request_id)
