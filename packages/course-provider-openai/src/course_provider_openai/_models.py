"""OpenAIChatModel and OpenAIResponsesModel: both OpenAI streaming APIs behind the port.

Each is its request conversion and its stream reader (Chat: the
`ChatMapping` over its grammar), wired to ``course_vendor.VendorModel``,
which does everything else. Both share the
configuration, the key (``OPENAI_API_KEY``) and the error bodies.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import ClassVar, final

from course_http import HttpTransport
from course_protocol import CourseModelRequest
from course_provider_openai import _chat_wire, _responses_wire
from course_provider_openai._chat_dialect import OPENAI_CHAT, ChatDialect
from course_provider_openai._chat_dialect_request import dialect_messages
from course_provider_openai._chat_mapping import ChatMapping
from course_provider_openai._chat_request import CHAT_CONTENT, chat_request_body
from course_provider_openai._config import OpenAIConfig, request_headers
from course_provider_openai._errors import describe_error
from course_provider_openai._options import CHAT_OPTIONS, RESPONSES_OPTIONS
from course_provider_openai._responses_content import RESPONSES_CONTENT
from course_provider_openai._responses_dialect import OPENAI_RESPONSES, ResponsesDialect
from course_provider_openai._responses_mapping import ResponsesMapping
from course_provider_openai._responses_request import responses_request_body
from course_vendor import VendorModel, VendorPlay, VendorWire

__all__ = [
    "CHAT_VENDOR_WIRE",
    "RESPONSES_VENDOR_WIRE",
    "OpenAIChatModel",
    "OpenAIResponsesModel",
    "chat_vendor_wire",
    "responses_vendor_wire",
]


def chat_vendor_wire(dialect: ChatDialect) -> VendorWire:
    """The `VendorWire` of a Chat Completions server: its wire and key variable, Chat's path.

    It sends what OpenAI's Chat sends, and a dialect that streams reasoning
    takes its own reasoning blocks back too.
    """
    content = CHAT_CONTENT
    if dialect.reasoning_fields or dialect.content_parts:
        content = replace(CHAT_CONTENT, kinds=CHAT_CONTENT.kinds | {"reasoning"})
    return VendorWire(
        vendor=dialect.wire,
        key_variable=dialect.key_variable,
        path=_chat_wire.PATH,
        describe_error=describe_error,
        options=CHAT_OPTIONS,
        content=content,
    )


def responses_vendor_wire(dialect: ResponsesDialect) -> VendorWire:
    """The `VendorWire` of a Responses server: its wire and key variable, the Responses path."""
    return VendorWire(
        vendor=dialect.wire,
        key_variable=dialect.key_variable,
        path=_responses_wire.PATH,
        describe_error=describe_error,
        options=RESPONSES_OPTIONS,
        content=RESPONSES_CONTENT,
    )


CHAT_VENDOR_WIRE = chat_vendor_wire(OPENAI_CHAT)
RESPONSES_VENDOR_WIRE = responses_vendor_wire(OPENAI_RESPONSES)


class _OpenAIModel(VendorModel[OpenAIConfig]):
    """What both OpenAI models share: the constructor, which checks the configuration, and headers.

    A subclass names its API's `VendorWire` (``_WIRE``) and supplies its
    request body (`_body`) and parser (`_parser`).
    """

    __slots__ = ()

    _WIRE: ClassVar[VendorWire]

    def __init__(
        self,
        config: OpenAIConfig,
        *,
        api_key: str | None = None,
        transport: HttpTransport | None = None,
        wire: VendorWire | None = None,
    ) -> None:
        if type(config) is not OpenAIConfig:
            raise TypeError(f"config must be an OpenAIConfig, not {type(config).__name__}")
        super().__init__(config, wire or self._WIRE, api_key=api_key, transport=transport)

    def _headers(self, api_key: str | None) -> Mapping[str, str]:
        return {} if api_key is None else request_headers(api_key)


@final
class OpenAIChatModel(_OpenAIModel):
    """OpenAI Chat Completions (``POST /v1/chat/completions``, streamed) as a ``CourseModel``.

    ``config`` says what every call sends besides the transcript (model,
    output limit, system prompt, Tools, base URL: an OpenAI-compatible
    vendor's works too). ``dialect`` is the server's `ChatDialect`
    (``OPENAI_CHAT``, or a compatible server's from ``CHAT_DIALECTS``): its
    stream is read by its grammar, its errors name its wire, its key is read
    from its variable, and its own reasoning blocks are taken in a
    transcript (sent back where it requires them; another wire's are
    left out) (use
    ``dialect.base_url`` as ``config.base_url`` unless the server lives
    elsewhere). ``api_key`` is the key, or ``None`` to read
    the dialect's variable (``OPENAI_API_KEY``) at each call; ``transport`` a ``course_http``
    transport to send through (a ``RecordedTransport`` to replay, needing no
    key), or ``None`` for a ``LiveTransport`` on ``config.base_url`` with
    ``config.timeouts``, which the model closes in `aclose`. See
    ``course_vendor.VendorModel`` for how a call runs, fails and aborts.

    Raises ``TypeError`` when ``config`` is not an `OpenAIConfig`,
    ``dialect`` not a `ChatDialect` or ``transport`` not a transport, and
    ``course_vendor.VendorConfigError`` for a bad key or config timeouts
    given with a transport.
    """

    __slots__ = ("_dialect",)

    _WIRE = CHAT_VENDOR_WIRE

    def __init__(
        self,
        config: OpenAIConfig,
        *,
        dialect: ChatDialect = OPENAI_CHAT,
        api_key: str | None = None,
        transport: HttpTransport | None = None,
    ) -> None:
        if type(dialect) is not ChatDialect:
            raise TypeError(f"dialect must be a ChatDialect, not {type(dialect).__name__}")
        self._dialect = dialect
        wire = None if dialect is OPENAI_CHAT else chat_vendor_wire(dialect)
        super().__init__(config, api_key=api_key, transport=transport, wire=wire)

    @property
    def dialect(self) -> ChatDialect:
        """The server's dialect this model speaks."""
        return self._dialect

    def _body(self, request: CourseModelRequest) -> Mapping[str, object]:
        body = chat_request_body(request, self._config, vendor=self._dialect.wire)
        if self._dialect is not OPENAI_CHAT:
            dialect_messages(body, request, self._dialect)
        return body

    def _parser(self, request_id: str) -> VendorPlay:
        return ChatMapping(request_id, self._dialect)


@final
class OpenAIResponsesModel(_OpenAIModel):
    """The OpenAI Responses API (``POST /v1/responses``, streamed) as a ``CourseModel``.

    The same configuration, key and transport as `OpenAIChatModel`; every
    call sends ``store: false`` (unless ``config.store`` is ``True``), so a
    replayed conversation never depends on state kept by the server.
    ``dialect`` is the server's `ResponsesDialect` (``OPENAI_RESPONSES``,
    or a compatible server's from ``RESPONSES_DIALECTS``): its stream is
    read by its grammar, its errors name its wire and its key is read from
    its variable (use ``dialect.base_url`` as ``config.base_url`` unless
    the server lives elsewhere). See ``course_vendor.VendorModel`` for how
    a call runs, fails and aborts.

    Raises ``TypeError`` when ``config`` is not an `OpenAIConfig`,
    ``dialect`` not a `ResponsesDialect` or ``transport`` not a transport,
    and ``course_vendor.VendorConfigError`` for a bad key, config timeouts
    given with a transport, or an option the Responses API does not take
    (``stop_sequences``, ``seed``).
    """

    __slots__ = ("_dialect",)

    _WIRE = RESPONSES_VENDOR_WIRE

    def __init__(
        self,
        config: OpenAIConfig,
        *,
        dialect: ResponsesDialect = OPENAI_RESPONSES,
        api_key: str | None = None,
        transport: HttpTransport | None = None,
    ) -> None:
        if type(dialect) is not ResponsesDialect:
            raise TypeError(f"dialect must be a ResponsesDialect, not {type(dialect).__name__}")
        self._dialect = dialect
        wire = None if dialect is OPENAI_RESPONSES else responses_vendor_wire(dialect)
        super().__init__(config, api_key=api_key, transport=transport, wire=wire)

    @property
    def dialect(self) -> ResponsesDialect:
        """The server's dialect this model speaks."""
        return self._dialect

    def _body(self, request: CourseModelRequest) -> Mapping[str, object]:
        return responses_request_body(request, self._config)

    def _parser(self, request_id: str) -> VendorPlay:
        return ResponsesMapping(request_id, self._dialect)
