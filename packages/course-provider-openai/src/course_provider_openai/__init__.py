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
- `CHAT_WIRE` and `RESPONSES_WIRE`: the wires' names (``"openai-chat"``,
  ``"openai-responses"``), with their endpoint paths.

Nothing here touches the network: the grammar and the parsers take events,
the request functions return plain values. Every failure is a
`course_http.VendorError` with a `course_http.VendorErrorCode`.
"""

import inspect as _inspect

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
from course_provider_openai._plugin import CHAT_PLUGIN, RESPONSES_PLUGIN
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
    "CHAT_COMPLETIONS_PATH",
    "CHAT_PLUGIN",
    "CHAT_WIRE",
    "DEFAULT_BASE_URL",
    "RESPONSES_PATH",
    "RESPONSES_PLUGIN",
    "RESPONSES_WIRE",
    "ChatAudio",
    "ChatChoice",
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
    "chat_request_body",
    "describe_error",
    "request_headers",
    "responses_request_body",
]

# Exported names carry this public module: tracebacks and reprs never show a private one.
for _name in __all__:
    if isinstance(_value := globals()[_name], type) or _inspect.isfunction(_value):
        _value.__module__ = __name__
del _name, _value
