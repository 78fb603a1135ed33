"""OpenAI Chat Completions and the OpenAI Responses API behind the course port.

- `OpenAIChatModel` and `OpenAIResponsesModel`: the ``CourseModel`` s
  themselves, live or over a recorded transport.
- `OpenAIConfig`: what the adapter sends besides the transcript (model,
  output-token limit, system prompt, Tools, options, base URL); `request_headers`
  for the API key, which the configuration never holds.
- `chat_request_body` and `responses_request_body`: course request +
  configuration to each API's JSON body, data in, data out.
- The Chat Completions stream in two halves: `ChatGrammar`, the whole
  streamed language OpenAI documents, read strictly into a `ChatResult`
  (its `ChatChoice` s with their `ChatToolCall` s, `ChatFunctionCall`,
  `ChatAudio` and `ChatTokenLogprob` s, its `ChatUsage`, the vendor's
  `ChatStreamError`), apart from the port; and `ChatMapping`, those events
  as course chunks and one terminal response, refusing what the port
  cannot carry.
- The Responses wire's two halves: `ResponsesGrammar`, the API's whole
  documented stream language read strictly into a `ResponsesResult` (its
  items `ResponsesMessage`, `ResponsesFunctionCall`, `ResponsesReasoning`, `ResponsesToolItem`;
  `ResponsesOutputText`, `ResponsesRefusal`, `ResponsesUsage`, `ResponsesError`), apart from
  the port; and `ResponsesMapping`, its events as course chunks and its
  result as the response, refusing what the course cannot carry.
- `describe_error`: the vendor's type, code and message from an HTTP error
  body of either API, as a ``course_http.VendorErrorBody``.
- `ChatDialect`: an OpenAI-compatible server's differences from Chat
  Completions, declared in one value (`UsagePlace` says where its usage
  arrives); `OPENAI_CHAT` declares none, `CHAT_DIALECTS` holds OpenRouter's,
  Groq's, DeepSeek's, xAI's, Mistral's, Together's, Ollama's and vLLM's
  (``OPENROUTER`` ...), each registered as a wire of its own
  (``OPENROUTER_PLUGIN`` ...); ``OpenAIChatModel(config, dialect=GROQ)``
  speaks one.
- `ResponsesDialect`: a server's differences from the Responses API, declared
  the same way; `OPENAI_RESPONSES` declares none, `RESPONSES_DIALECTS` holds
  OpenRouter's (``OPENROUTER_RESPONSES``: ``[DONE]`` after the terminal),
  registered as ``openrouter-responses`` (``OPENROUTER_RESPONSES_PLUGIN``);
  ``OpenAIResponsesModel(config, dialect=OPENROUTER_RESPONSES)`` speaks it.
- `AzureOpenAIChatModel` and `AzureOpenAIResponsesModel`: both APIs on an
  Azure OpenAI resource, in its deployment form (``api_version``) or its
  ``/openai/v1/`` form, with an ``api-key`` or an Entra ID token;
  `describe_azure_error` reads its error bodies; ``AZURE_OPENAI_CHAT`` is
  its Chat dialect (content-filter annotations), ``AZURE_OPENAI_RESPONSES``
  its Responses dialect (OpenAI's stream under Azure's wire name).
- `CHAT_WIRE` and `RESPONSES_WIRE`: the wires' names (``"openai-chat"``,
  ``"openai-responses"``), with their endpoint paths.

Nothing here touches the network: the grammar and the parsers take events,
the request functions return plain values. Every failure is a
`course_http.VendorError` with a `course_http.VendorErrorCode`.
"""

import inspect as _inspect

from course_provider_openai._azure import (
    AZURE_AD_TOKEN_VARIABLE,
    AZURE_API_KEY_VARIABLE,
    AZURE_CHAT_API_VERSION,
    AZURE_ENDPOINT_VARIABLE,
    AZURE_RESPONSES_API_VERSION,
    AZURE_RESPONSES_WIRE,
    AzureOpenAIChatModel,
    AzureOpenAIResponsesModel,
    azure_request_headers,
    describe_azure_error,
)
from course_provider_openai._chat_dialect import (
    AZURE_OPENAI_CHAT,
    CHAT_DIALECTS,
    DEEPSEEK,
    GROQ,
    MISTRAL,
    OLLAMA,
    OPENAI_CHAT,
    OPENROUTER,
    TOGETHER,
    VLLM,
    XAI,
    ChatDialect,
    UsagePlace,
)
from course_provider_openai._chat_grammar import ChatGrammar
from course_provider_openai._chat_mapping import ChatMapping
from course_provider_openai._chat_request import chat_request_body
from course_provider_openai._chat_result import (
    ChatAudio,
    ChatChoice,
    ChatFunctionCall,
    ChatResult,
    ChatStreamError,
    ChatTokenLogprob,
    ChatToolCall,
    ChatUsage,
)
from course_provider_openai._chat_wire import PATH as CHAT_COMPLETIONS_PATH
from course_provider_openai._chat_wire import WIRE as CHAT_WIRE
from course_provider_openai._config import (
    API_KEY_VARIABLE,
    DEFAULT_BASE_URL,
    OpenAIConfig,
    request_headers,
)
from course_provider_openai._errors import describe_error
from course_provider_openai._models import OpenAIChatModel, OpenAIResponsesModel
from course_provider_openai._plugin import (
    AZURE_CHAT_PLUGIN,
    AZURE_RESPONSES_PLUGIN,
    CHAT_PLUGIN,
    DEEPSEEK_PLUGIN,
    GROQ_PLUGIN,
    MISTRAL_PLUGIN,
    OLLAMA_PLUGIN,
    OPENROUTER_PLUGIN,
    OPENROUTER_RESPONSES_PLUGIN,
    RESPONSES_PLUGIN,
    TOGETHER_PLUGIN,
    VLLM_PLUGIN,
    XAI_PLUGIN,
)
from course_provider_openai._responses_dialect import (
    AZURE_OPENAI_RESPONSES,
    OPENAI_RESPONSES,
    OPENROUTER_RESPONSES,
    RESPONSES_DIALECTS,
    ResponsesDialect,
)
from course_provider_openai._responses_grammar import ResponsesGrammar
from course_provider_openai._responses_mapping import ResponsesMapping
from course_provider_openai._responses_request import responses_request_body
from course_provider_openai._responses_result import (
    ResponsesError,
    ResponsesFunctionCall,
    ResponsesItem,
    ResponsesMessage,
    ResponsesOutputText,
    ResponsesReasoning,
    ResponsesRefusal,
    ResponsesResult,
    ResponsesToolItem,
    ResponsesUsage,
)
from course_provider_openai._responses_wire import PATH as RESPONSES_PATH
from course_provider_openai._responses_wire import WIRE as RESPONSES_WIRE

__all__ = [
    "API_KEY_VARIABLE",
    "AZURE_AD_TOKEN_VARIABLE",
    "AZURE_API_KEY_VARIABLE",
    "AZURE_CHAT_API_VERSION",
    "AZURE_CHAT_PLUGIN",
    "AZURE_ENDPOINT_VARIABLE",
    "AZURE_OPENAI_CHAT",
    "AZURE_OPENAI_RESPONSES",
    "AZURE_RESPONSES_API_VERSION",
    "AZURE_RESPONSES_PLUGIN",
    "AZURE_RESPONSES_WIRE",
    "CHAT_COMPLETIONS_PATH",
    "CHAT_DIALECTS",
    "CHAT_PLUGIN",
    "CHAT_WIRE",
    "DEEPSEEK",
    "DEEPSEEK_PLUGIN",
    "DEFAULT_BASE_URL",
    "GROQ",
    "GROQ_PLUGIN",
    "MISTRAL",
    "MISTRAL_PLUGIN",
    "OLLAMA",
    "OLLAMA_PLUGIN",
    "OPENAI_CHAT",
    "OPENAI_RESPONSES",
    "OPENROUTER",
    "OPENROUTER_PLUGIN",
    "OPENROUTER_RESPONSES",
    "OPENROUTER_RESPONSES_PLUGIN",
    "RESPONSES_DIALECTS",
    "RESPONSES_PATH",
    "RESPONSES_PLUGIN",
    "RESPONSES_WIRE",
    "TOGETHER",
    "TOGETHER_PLUGIN",
    "VLLM",
    "VLLM_PLUGIN",
    "XAI",
    "XAI_PLUGIN",
    "AzureOpenAIChatModel",
    "AzureOpenAIResponsesModel",
    "ChatAudio",
    "ChatChoice",
    "ChatDialect",
    "ChatFunctionCall",
    "ChatGrammar",
    "ChatMapping",
    "ChatResult",
    "ChatStreamError",
    "ChatTokenLogprob",
    "ChatToolCall",
    "ChatUsage",
    "OpenAIChatModel",
    "OpenAIConfig",
    "OpenAIResponsesModel",
    "ResponsesDialect",
    "ResponsesError",
    "ResponsesFunctionCall",
    "ResponsesGrammar",
    "ResponsesItem",
    "ResponsesMapping",
    "ResponsesMessage",
    "ResponsesOutputText",
    "ResponsesReasoning",
    "ResponsesRefusal",
    "ResponsesResult",
    "ResponsesToolItem",
    "ResponsesUsage",
    "UsagePlace",
    "azure_request_headers",
    "chat_request_body",
    "describe_azure_error",
    "describe_error",
    "request_headers",
    "responses_request_body",
]

# Exported names carry this public module: tracebacks and reprs never show a private one.
for _name in __all__:
    if isinstance(_value := globals()[_name], type) or _inspect.isfunction(_value):
        _value.__module__ = __name__
del _name, _value
