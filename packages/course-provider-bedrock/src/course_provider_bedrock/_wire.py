"""The AWS Bedrock Runtime Converse API vocabulary that other modules share, and nothing else.

These spellings belong to the vendor's side of the boundary. They appear in
this package only; the wire-vocabulary import contract fails when one of
them shows up as a string literal in another course package. Inside the
package, the grammar and the mapping write a streamed event's keys as
literals (``"contentBlockIndex"``, ``"stopReason"``), where they read better
than a constant each.
"""

from typing import Final

__all__ = [
    "API_KEY_VARIABLE",
    "BASE_URL_TEMPLATE",
    "BASE_URL_VARIABLE",
    "DEFAULT_BASE_URL",
    "DEFAULT_REGION",
    "ERROR_PREFIX",
    "EXCEPTION_PREFIX",
    "REGION_VARIABLES",
    "SIGNING_SERVICE",
    "STREAM_PATH",
    "WIRE",
]

WIRE: Final = "bedrock-converse"
"""The course's name for this wire format (``VendorError.vendor``, ``--wire``)."""

STREAM_PATH: Final = "/model/{model}/converse-stream"
"""The ConverseStream endpoint under the base URL; ``{model}`` is the model id."""

DEFAULT_REGION: Final = "us-east-1"
"""The region of `DEFAULT_BASE_URL`, the vendor registry's default."""
BASE_URL_TEMPLATE: Final = "https://bedrock-runtime.{region}.amazonaws.com"
DEFAULT_BASE_URL: Final = BASE_URL_TEMPLATE.format(region=DEFAULT_REGION)
BASE_URL_VARIABLE: Final = "AWS_ENDPOINT_URL_BEDROCK_RUNTIME"
"""The service-specific endpoint variable botocore reads, spelled as `DEFAULT_BASE_URL` is."""
REGION_VARIABLES: Final = ("AWS_REGION", "AWS_DEFAULT_REGION")
"""Where the region is read from, in order, when the configuration names none."""
API_KEY_VARIABLE: Final = "AWS_BEARER_TOKEN_BEDROCK"
"""A Bedrock API key, sent as ``Authorization: Bearer``, as boto3 reads it."""
SIGNING_SERVICE: Final = "bedrock"
"""The service name a SigV4 signature of this endpoint scopes its credential to."""

EXCEPTION_PREFIX: Final = "exception:"
"""The event name of an ``exception`` message starts with this, then its ``:exception-type``."""
ERROR_PREFIX: Final = "error:"
"""The event name of an ``error`` message starts with this, then its ``:error-code``."""
