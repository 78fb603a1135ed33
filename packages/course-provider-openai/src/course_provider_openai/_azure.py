"""Azure OpenAI: both OpenAI APIs served by an Azure resource, each in its two path forms.

An Azure resource serves Chat Completions and the Responses API in two
forms. The deployment form addresses a deployment in the path and needs an
``api-version`` query: ``{endpoint}/openai/deployments/{deployment}/chat/completions
?api-version=...`` and ``{endpoint}/openai/responses?api-version=...``, the
base URL being the resource's endpoint (``AZURE_OPENAI_ENDPOINT``) and the
deployment the configured ``model``. The ``/openai/v1/`` form is OpenAI's
own paths under ``{endpoint}/openai/v1`` with no ``api-version``. A call
authenticates with the resource key in an ``api-key`` header
(``AZURE_OPENAI_API_KEY``), or with a Microsoft Entra ID token as
``authorization: Bearer`` (a string, ``AZURE_OPENAI_AD_TOKEN``, or a
callable asked at each call). Chat streams are read with the
``azure-openai-chat`` dialect (its content-filter annotations); the
Responses stream is OpenAI's. The variables are those ``openai-python``'s
``AzureOpenAI`` reads (``lib/azure.py``); the error body is Microsoft Learn's
"Content filtering" one (``code``, ``message``, ``param``, ``status``,
``innererror.code``).

Over 300 lines on purpose: both Azure models share one credential rule,
one path-form rule and one error reader, which apart would each be half
of a decision.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar, Final, final

from course_http import HttpTransport, VendorErrorBody
from course_protocol import CourseModelRequest
from course_provider_openai import _chat_wire, _responses_wire
from course_provider_openai._chat_dialect import AZURE_OPENAI_CHAT
from course_provider_openai._chat_dialect_request import dialect_messages
from course_provider_openai._chat_mapping import ChatMapping
from course_provider_openai._chat_request import chat_request_body
from course_provider_openai._config import OpenAIConfig
from course_provider_openai._errors import describe_error
from course_provider_openai._models import _OpenAIModel
from course_provider_openai._options import CHAT_OPTIONS, RESPONSES_OPTIONS
from course_provider_openai._responses_dialect import AZURE_OPENAI_RESPONSES
from course_provider_openai._responses_mapping import ResponsesMapping
from course_provider_openai._responses_request import responses_request_body
from course_vendor import VendorPlay, VendorWire, body_object, checked_api_key, config_error

__all__ = [
    "AZURE_AD_TOKEN_VARIABLE",
    "AZURE_API_KEY_VARIABLE",
    "AZURE_CHAT_API_VERSION",
    "AZURE_ENDPOINT_VARIABLE",
    "AZURE_RESPONSES_API_VERSION",
    "AZURE_RESPONSES_WIRE",
    "V1_CHAT_PATH",
    "V1_RESPONSES_PATH",
    "AzureOpenAIChatModel",
    "AzureOpenAIResponsesModel",
    "azure_chat_wire",
    "azure_request_headers",
    "azure_responses_wire",
    "describe_azure_error",
]

AZURE_RESPONSES_WIRE: Final = AZURE_OPENAI_RESPONSES.wire
"""The Azure Responses wire's name, as ``--wire`` and the registry take it."""
AZURE_API_KEY_VARIABLE: Final = "AZURE_OPENAI_API_KEY"
"""Where the resource key is read from, as the official SDK's ``AzureOpenAI`` reads it."""
AZURE_AD_TOKEN_VARIABLE: Final = "AZURE_OPENAI_AD_TOKEN"
"""Where an Entra ID token is read from, as the official SDK's ``AzureOpenAI`` reads it."""
AZURE_ENDPOINT_VARIABLE: Final = "AZURE_OPENAI_ENDPOINT"
"""The resource's endpoint, the deployment form's base URL, as the SDK reads it."""
AZURE_CHAT_API_VERSION: Final = "2024-10-21"
"""The generally available data-plane ``api-version`` the Chat plug-in replays under.

Microsoft Learn's "Azure OpenAI REST API reference" lists it as the latest dated GA
release of the inference API; newer resources document the ``/openai/v1`` form instead."""
AZURE_RESPONSES_API_VERSION: Final = "2025-04-01-preview"
"""The ``api-version`` the Responses plug-in replays under (the API's deployment form).

A preview version: the Responses API has no dated GA release (Microsoft Learn,
"Azure OpenAI Responses API", now points to the ``/openai/v1`` form)."""

_DEPLOYMENT_CHAT_PATH: Final = "/openai/deployments/{model}/chat/completions"
_DEPLOYMENT_RESPONSES_PATH: Final = "/openai/responses"
V1_CHAT_PATH: Final = f"/openai/v1{_chat_wire.PATH}"
"""The full Chat path of Azure's v1 form, a host path of the Azure Chat plug-in."""
V1_RESPONSES_PATH: Final = f"/openai/v1{_responses_wire.PATH}"
"""The full Responses path of Azure's v1 form, a host path of the Azure Responses plug-in."""
_API_VERSION: Final = "api-version"
_API_KEY_HEADER: Final = "api-key"
_VERSION_CHARACTERS: Final = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-.")

EntraToken = str | Callable[[], str]
"""A Microsoft Entra ID bearer token, or what gives a fresh one at each call."""


def _checked_version(api_version: object) -> str:
    if type(api_version) is not str or not api_version:
        raise config_error("api_version", "must be a non-empty str such as '2024-10-21'")
    if not set(api_version) <= _VERSION_CHARACTERS:
        raise config_error("api_version", "may hold lower-case letters, digits, '-' and '.' only")
    return api_version


def describe_azure_error(body: bytes) -> VendorErrorBody | None:
    """An Azure OpenAI error body: OpenAI's fields, the ``innererror.code`` as its type.

    Azure sends ``{"error": {"code", "message", "param", "status",
    "innererror": {"code": "ResponsibleAIPolicyViolation", ...}}}`` with no
    ``type``: the inner code (why a content filter refused the prompt) is
    then the type. Otherwise what `describe_error` reads. Never raises on
    any ``bytes``; raises ``TypeError`` when ``body`` is not ``bytes``.
    """
    described = describe_error(body)
    if described is None or described.vendor_type is not None:
        return described
    document = body_object(body)
    assert document is not None  # describe_error read it
    error = document[_chat_wire.ERROR_KEY]
    inner = error.get("innererror") if type(error) is dict else None
    inner_code = inner.get(_chat_wire.ERROR_CODE_KEY) if type(inner) is dict else None
    if type(inner_code) is not str:
        return described
    return VendorErrorBody(inner_code, described.vendor_code, described.vendor_message)


def azure_request_headers(api_key: str) -> dict[str, str]:
    """The headers that authenticate one call with a resource key: ``{"api-key": <api_key>}``.

    Raises ``course_vendor.VendorConfigError`` ``VENDOR_INVALID_API_KEY``
    (path ``api_key``) when ``api_key`` is not a usable key; the message
    never contains it.
    """
    return {_API_KEY_HEADER: checked_api_key(api_key)}


def azure_chat_wire(api_version: str | None, *, entra_id: bool = False) -> VendorWire:
    """The Azure Chat wire: the deployment form under ``api_version``, or the v1 form for ``None``.

    ``entra_id`` reads a token (``AZURE_OPENAI_AD_TOKEN``) rather than the
    key. Raises `course_vendor.VendorConfigError` ``VENDOR_INVALID_CONFIG``
    (path ``api_version``) for a version that is not a non-empty
    ``str`` of lower-case letters, digits, ``-`` and ``.``.
    """
    return _wire(
        AZURE_OPENAI_CHAT.wire,
        _chat_wire.PATH if api_version is None else _DEPLOYMENT_CHAT_PATH,
        api_version,
        entra_id,
        options=CHAT_OPTIONS,
    )


def azure_responses_wire(api_version: str | None, *, entra_id: bool = False) -> VendorWire:
    """The Azure Responses wire, as `azure_chat_wire` (deployment form: ``/openai/responses``)."""
    return _wire(
        AZURE_RESPONSES_WIRE,
        _responses_wire.PATH if api_version is None else _DEPLOYMENT_RESPONSES_PATH,
        api_version,
        entra_id,
        options=RESPONSES_OPTIONS,
    )


def _wire(
    name: str, path: str, api_version: str | None, entra_id: bool, *, options: object
) -> VendorWire:
    query = "" if api_version is None else f"{_API_VERSION}={_checked_version(api_version)}"
    return VendorWire(
        vendor=name,
        key_variable=AZURE_AD_TOKEN_VARIABLE if entra_id else AZURE_API_KEY_VARIABLE,
        path=path,
        describe_error=describe_azure_error,
        query=query,
        options=options,  # type: ignore[arg-type]
    )


class _AzureModel(_OpenAIModel):
    """What both Azure models share: the form, the credential, and its header.

    Each model names its wire's builder, ``_wire_for(api_version, entra_id=...)``.
    """

    __slots__ = ("_token",)
    _wire_for: ClassVar[Callable[..., VendorWire]]

    def __init__(
        self,
        config: OpenAIConfig,
        *,
        api_version: str | None = None,
        api_key: str | None = None,
        entra_token: EntraToken | None = None,
        transport: HttpTransport | None = None,
    ) -> None:
        wire = self._wire_for(api_version, entra_id=entra_token is not None)
        if api_key is not None and entra_token is not None:
            raise config_error("entra_token", "is a credential of its own: give api_key or it")
        if (
            entra_token is not None
            and not isinstance(entra_token, str)
            and not callable(entra_token)
        ):
            raise config_error("entra_token", "must be a str or a callable returning one")
        self._token: Callable[[], str] | None = (
            entra_token if callable(entra_token) and not isinstance(entra_token, str) else None
        )
        given = entra_token if isinstance(entra_token, str) else api_key
        super().__init__(config, api_key=given, transport=transport, wire=wire)

    def _key_for_call(self) -> str | None:
        # A token provider is asked at each call: its token is the call's credential.
        if self._token is not None and not self.transport.replays:
            return checked_api_key(self._token())
        return super()._key_for_call()

    def _headers(self, api_key: str | None) -> Mapping[str, str]:
        if api_key is None:
            return {}
        if self._wire.key_variable == AZURE_AD_TOKEN_VARIABLE:
            return {"authorization": f"Bearer {checked_api_key(api_key)}"}
        return azure_request_headers(api_key)


@final
class AzureOpenAIChatModel(_AzureModel):
    """Azure OpenAI Chat Completions (streamed) as a ``CourseModel``, read with Azure's dialect.

    ``api_version`` picks the deployment form (``config.base_url`` is the
    resource's endpoint, ``https://NAME.openai.azure.com``, and
    ``config.model`` the deployment) or, when ``None``, the ``/openai/v1/``
    form (``config.base_url`` is ``https://NAME.openai.azure.com/openai/v1``).
    ``api_key`` is the resource key, sent as ``api-key`` (``None``: read
    ``AZURE_OPENAI_API_KEY`` at each call); ``entra_token`` an Entra ID
    token sent as ``authorization: Bearer``, a ``str`` or a callable asked
    at each call (then ``AZURE_OPENAI_AD_TOKEN`` is never read). See
    ``course_vendor.VendorModel`` for how a call runs, fails and aborts.

    Raises ``TypeError`` when ``config`` is not an `OpenAIConfig` or
    ``transport`` not a transport, and ``course_vendor.VendorConfigError``
    for a bad ``api_version``, both credentials given, or what
    ``OpenAIChatModel`` refuses.
    """

    __slots__ = ()
    _wire_for = staticmethod(azure_chat_wire)

    def _body(self, request: CourseModelRequest) -> Mapping[str, object]:
        body = chat_request_body(request, self._config, vendor=AZURE_OPENAI_CHAT.wire)
        dialect_messages(body, request, AZURE_OPENAI_CHAT)
        return body

    def _parser(self, request_id: str) -> VendorPlay:
        return ChatMapping(request_id, AZURE_OPENAI_CHAT)


@final
class AzureOpenAIResponsesModel(_AzureModel):
    """Azure OpenAI's Responses API (streamed) as a ``CourseModel``.

    The forms and credentials of `AzureOpenAIChatModel`: with an
    ``api_version`` the path is ``/openai/responses?api-version=...`` under
    the resource's endpoint (``config.model`` is the deployment, sent in
    the body), without one ``/responses`` under ``.../openai/v1``. Every
    call sends ``store: false`` unless ``config.store`` is ``True``.

    Raises what `AzureOpenAIChatModel` raises, and
    ``course_vendor.VendorConfigError`` for an option the Responses API does
    not take (``stop_sequences``, ``seed``).
    """

    __slots__ = ()
    _wire_for = staticmethod(azure_responses_wire)

    def _body(self, request: CourseModelRequest) -> Mapping[str, object]:
        return responses_request_body(request, self._config)

    def _parser(self, request_id: str) -> VendorPlay:
        return ResponsesMapping(request_id, AZURE_OPENAI_RESPONSES)
