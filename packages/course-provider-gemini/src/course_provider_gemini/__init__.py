"""The Google Gemini API (Generative Language ``streamGenerateContent``) behind the course port.

- `GeminiModel`: the ``CourseModel`` itself, live or over a recorded transport.
- `GeminiConfig`: the adapter's model, token limit, system prompt, Tools and base URL.
- `generate_content_body`, `request_headers`: a course request in the vendor's
  terms (pure data in, data out); `INLINE_LIMIT`, the most inline data one
  request holds.
- The wire's two halves: `GeminiGrammar`, the vendor's whole documented
  stream language read strictly into a `GeminiResult` (its candidates as
  `GeminiCandidate` s of `GeminiText`, `GeminiFunctionCall` and
  `GeminiOpaquePart` content, `GeminiUsage` with its `GeminiModalityCount`
  s, `GeminiPromptFeedback`, `GeminiStreamError`), whatever the course can
  carry; and `GeminiMapping`, those chunks as course chunks and one
  terminal response; `course_call_id`, the course id of a call the vendor
  gave no id.
- `GeminiDecoder`: the vendor's two body framings (``alt=sse`` server-sent
  events, and the streamed JSON array) cut into chunks; `GEMINI_FRAMING`,
  the ``course_http.EventFraming`` of the wire.
- `describe_error`: the vendor's JSON error body, read into a ``course_http.VendorErrorBody``.
- `WIRE`: this wire format's name, ``"gemini"``; `STREAM_PATH`, the
  endpoint it posts to under the base URL; `GEMINI_PLUGIN`, its registry entry.

Every failure is a `course_http.VendorError` with a `course_http.VendorErrorCode`.
This package imports no network module: the transport lives in ``course_http``.
"""

import inspect as _inspect

from course_provider_gemini._config import GeminiConfig
from course_provider_gemini._course_values import course_call_id
from course_provider_gemini._errors import describe_error
from course_provider_gemini._framing import GEMINI_FRAMING, GeminiDecoder
from course_provider_gemini._grammar import GeminiGrammar
from course_provider_gemini._mapping import GeminiMapping
from course_provider_gemini._model import GeminiModel
from course_provider_gemini._plugin import GEMINI_PLUGIN
from course_provider_gemini._request import generate_content_body, request_headers
from course_provider_gemini._request_media import INLINE_LIMIT
from course_provider_gemini._result import (
    GeminiCandidate,
    GeminiContent,
    GeminiFunctionCall,
    GeminiModalityCount,
    GeminiOpaquePart,
    GeminiPromptFeedback,
    GeminiResult,
    GeminiStreamError,
    GeminiText,
    GeminiUsage,
)
from course_provider_gemini._wire import STREAM_PATH, WIRE

__all__ = [
    "GEMINI_FRAMING",
    "GEMINI_PLUGIN",
    "INLINE_LIMIT",
    "STREAM_PATH",
    "WIRE",
    "GeminiCandidate",
    "GeminiConfig",
    "GeminiContent",
    "GeminiDecoder",
    "GeminiFunctionCall",
    "GeminiGrammar",
    "GeminiMapping",
    "GeminiModalityCount",
    "GeminiModel",
    "GeminiOpaquePart",
    "GeminiPromptFeedback",
    "GeminiResult",
    "GeminiStreamError",
    "GeminiText",
    "GeminiUsage",
    "course_call_id",
    "describe_error",
    "generate_content_body",
    "request_headers",
]

# Exported names carry this public module: tracebacks and reprs never show a private one.
for _name in __all__:
    if isinstance(_value := globals()[_name], type) or _inspect.isfunction(_value):
        _value.__module__ = __name__
del _name, _value
