"""VCR.py cassettes written by hand: one interaction's YAML, a whole cassette of them.

The layout is the one VCR.py's YAML serializer writes (keys sorted, each
header a list of values); every part is YAML text, so a test can put a
hostile variant anywhere.
"""

from __future__ import annotations

import base64

from tests.course_cassettes.cassettes import REAL_LOOKING_KEY

__all__ = ["ASKED", "KEY", "binary", "cassette_text", "interaction"]

KEY = REAL_LOOKING_KEY
ASKED = '{"model": "claude-own", "max_tokens": 10, "stream": false}'
"""The request body of `interaction` unless told otherwise: a JSON object."""


def interaction(
    *,
    body: str = f"'{ASKED}'",
    uri: str = "https://api.anthropic.com/v1/messages",
    method: str = "POST",
    request_headers: tuple[str, ...] = (
        f"authorization: [Bearer {KEY}]",
        "content-type: [application/json]",
    ),
    status: str = "{code: 200, message: OK}",
    response_headers: tuple[str, ...] = ("content-type: [application/json]",),
    response_body: str = '{string: \'{"type": "message"}\'}',
) -> str:
    """One interaction in VCR.py's layout, each part YAML text as VCR.py writes it
    (a header a line of its own)."""
    sent = "".join(f"      {line}\n" for line in request_headers)
    received = "".join(f"      {line}\n" for line in response_headers)
    return f"""\
- request:
    body: {body}
    headers:
{sent}    method: {method}
    uri: {uri}
  response:
    body: {response_body}
    headers:
{received}    status: {status}
"""


def cassette_text(*interactions: str) -> str:
    """A whole VCR.py cassette of ``interactions``."""
    return "interactions:\n" + "".join(interactions) + "version: 1\n"


def binary(data: bytes) -> str:
    """``data`` as VCR.py writes bytes that are not UTF-8: ``!!binary`` base64."""
    return f"!!binary {base64.b64encode(data).decode()}"
