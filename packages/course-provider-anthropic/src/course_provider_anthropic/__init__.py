"""The Anthropic Messages API behind the course port.

- `AnthropicMessagesModel`: the ``CourseModel`` itself, live or over a recorded transport.
- `AnthropicConfig`: the adapter's model, token limit, system prompt, Tools, options
  (sampling, Tool choice, thinking, prompt caching, betas) and base URL.
- `messages_request_body`, `request_headers`: a course request in the vendor's terms
  (pure data in, data out).
- `MessagesGrammar`: the wire's grammar, the vendor's whole streaming language read
  strictly as untrusted input, apart from the port, into a `MessagesResult` (its
  blocks: `MessagesTextBlock`, `MessagesThinkingBlock`, `MessagesRedactedThinkingBlock`,
  `MessagesToolUseBlock`, `MessagesCompactionBlock`, `MessagesOpaqueBlock`, any of them
  a `MessagesBlock`; its `MessagesUsage`; the `MessagesErrorEvent` that ended it).
- `MessagesMapping`: the wire's mapping, the grammar's events as course chunks and one
  terminal response, refusing what the course protocol cannot carry.
- `describe_error`: the vendor's JSON error body, read into a ``course_http.VendorErrorBody``.
- `WIRE`: this wire format's name, ``"anthropic-messages"``; `MESSAGES_PATH`, the
  endpoint it posts to, ``"/v1/messages"``; `MESSAGES_PLUGIN`, the wire as the vendor
  registry knows it.

Every failure is a `course_http.VendorError` with a `course_http.VendorErrorCode`.
This package imports no network module: the transport lives in ``course_http``.
"""

import inspect as _inspect

from course_provider_anthropic._config import AnthropicConfig
from course_provider_anthropic._errors import describe_error
from course_provider_anthropic._grammar import MessagesGrammar
from course_provider_anthropic._mapping import MessagesMapping
from course_provider_anthropic._model import AnthropicMessagesModel
from course_provider_anthropic._plugin import MESSAGES_PLUGIN
from course_provider_anthropic._request import messages_request_body, request_headers
from course_provider_anthropic._result import (
    MessagesBlock,
    MessagesCompactionBlock,
    MessagesErrorEvent,
    MessagesOpaqueBlock,
    MessagesRedactedThinkingBlock,
    MessagesResult,
    MessagesTextBlock,
    MessagesThinkingBlock,
    MessagesToolUseBlock,
    MessagesUsage,
)
from course_provider_anthropic._wire import MESSAGES_PATH, WIRE

__all__ = [
    "MESSAGES_PATH",
    "MESSAGES_PLUGIN",
    "WIRE",
    "AnthropicConfig",
    "AnthropicMessagesModel",
    "MessagesBlock",
    "MessagesCompactionBlock",
    "MessagesErrorEvent",
    "MessagesGrammar",
    "MessagesMapping",
    "MessagesOpaqueBlock",
    "MessagesRedactedThinkingBlock",
    "MessagesResult",
    "MessagesTextBlock",
    "MessagesThinkingBlock",
    "MessagesToolUseBlock",
    "MessagesUsage",
    "describe_error",
    "messages_request_body",
    "request_headers",
]

# Exported names carry this public module: tracebacks and reprs never show a private one.
for _name in __all__:
    if isinstance(_value := globals()[_name], type) or _inspect.isfunction(_value):
        _value.__module__ = __name__
del _name, _value
