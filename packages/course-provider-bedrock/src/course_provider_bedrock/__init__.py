"""The AWS Bedrock Runtime ConverseStream API behind the course port.

- `BedrockConverseModel`: the ``CourseModel`` itself, live (signed with AWS
  SigV4 by botocore, or sent with a Bedrock API key) or over a recorded transport.
- `BedrockConfig`: the adapter's model id, region, token limit, system prompt,
  Tools, options and base URL.
- `converse_request_body`: a course request in the vendor's terms (pure data).
- `ConverseDecoder` and `CONVERSE_FRAMING`: the ``application/vnd.amazon.eventstream``
  body, its binary messages checked and named for the grammar.
- `ConverseGrammar`: the wire's grammar, the whole ConverseStream output read
  strictly into a `ConverseResult` (its blocks: `ConverseTextBlock`,
  `ConverseReasoningBlock`, `ConverseToolUseBlock`, `ConverseOpaqueBlock`, any
  of them a `ConverseBlock`; its `ConverseMetadata` with `ConverseUsage`; the
  `ConverseException` that ended it).
- `ConverseMapping`: the wire's mapping, the grammar's events as course chunks
  and one terminal response, refusing what the course protocol cannot carry.
- `signed_headers`: botocore's SigV4 signature of one request (botocore is the
  `SIGV4_EXTRA`, ``course-provider-bedrock[sigv4]``, imported at the first
  signed call); `request_headers`, the headers of a call made with a Bedrock API key.
- `describe_error`: the vendor's JSON error body, read into a ``course_http.VendorErrorBody``.
- `WIRE` (``"bedrock-converse"``), `STREAM_PATH` (``/model/{model}/converse-stream``),
  `CONVERSE_PLUGIN`: the wire as the vendor registry knows it.

Every failure is a `course_http.VendorError` with a `course_http.VendorErrorCode`.
This package imports no network module: the transport lives in ``course_http``.
"""

import inspect as _inspect

from course_provider_bedrock._auth import SIGV4_EXTRA, request_headers, signed_headers
from course_provider_bedrock._config import BedrockConfig
from course_provider_bedrock._errors import describe_error
from course_provider_bedrock._framing import CONVERSE_FRAMING, ConverseDecoder
from course_provider_bedrock._grammar import ConverseGrammar
from course_provider_bedrock._mapping import ConverseMapping
from course_provider_bedrock._model import BedrockConverseModel
from course_provider_bedrock._plugin import CONVERSE_PLUGIN
from course_provider_bedrock._request import converse_request_body
from course_provider_bedrock._result import (
    ConverseBlock,
    ConverseException,
    ConverseMetadata,
    ConverseOpaqueBlock,
    ConverseReasoningBlock,
    ConverseResult,
    ConverseTextBlock,
    ConverseToolUseBlock,
    ConverseUsage,
)
from course_provider_bedrock._wire import STREAM_PATH, WIRE

__all__ = [
    "CONVERSE_FRAMING",
    "CONVERSE_PLUGIN",
    "SIGV4_EXTRA",
    "STREAM_PATH",
    "WIRE",
    "BedrockConfig",
    "BedrockConverseModel",
    "ConverseBlock",
    "ConverseDecoder",
    "ConverseException",
    "ConverseGrammar",
    "ConverseMapping",
    "ConverseMetadata",
    "ConverseOpaqueBlock",
    "ConverseReasoningBlock",
    "ConverseResult",
    "ConverseTextBlock",
    "ConverseToolUseBlock",
    "ConverseUsage",
    "converse_request_body",
    "describe_error",
    "request_headers",
    "signed_headers",
]

# Exported names carry this public module: tracebacks and reprs never show a private one.
for _name in __all__:
    if isinstance(_value := globals()[_name], type) or _inspect.isfunction(_value):
        _value.__module__ = __name__
del _name, _value
