"""The google-genai SDK over the same in-memory bytes: the Gemini peer row of the vendors group.

Same contract as ``benchmarks.vendor_peers`` (which lists it): a set-up
callable whose timed pass makes the call, consumes every chunk and returns
the body's delta count once the result is checked. The SDK has no helper
that collects a streamed answer into a final response (its chats keep
history, not a stream's result), so the raw stream is its one row.
"""

from __future__ import annotations

import importlib
from typing import Any

from benchmarks._gemini_bodies import GEMINI_MODEL
from benchmarks._inprocess import in_process_client
from benchmarks._timing import AsyncRun, Prepare
from benchmarks._vendor_bodies import TOOL_NAME, VendorBody
from benchmarks.peers import PeerNotInstalledError

__all__ = ["prepare_gemini_raw"]

_KEY = "bench-key-not-secret"
_BASE_URL = "http://in-process.invalid"
_NETWORK_MILLISECONDS = 60_000


def _genai() -> tuple[Any, Any]:
    try:
        genai = importlib.import_module("google.genai")
        types = importlib.import_module("google.genai.types")
    except ImportError as error:
        raise PeerNotInstalledError(f"not installed ({error.name or 'google.genai'})") from error
    return genai, types


def _client(body: VendorBody, base_url: str | None) -> tuple[Any, Any]:
    """The SDK's async client, and the httpx2 client it reads through (``None`` over a socket)."""
    genai, types = _genai()
    # Recent SDKs call /v1 unless told otherwise; the Gemini wire is /v1beta.
    if base_url is not None:
        options = types.HttpOptions(
            base_url=base_url, api_version="v1beta", timeout=_NETWORK_MILLISECONDS
        )
        return genai.Client(api_key=_KEY, http_options=options).aio, None
    http = in_process_client(body.body)
    options = types.HttpOptions(base_url=_BASE_URL, api_version="v1beta", httpx_async_client=http)
    return genai.Client(api_key=_KEY, http_options=options).aio, http


def _config(body: VendorBody) -> Any:
    _, types = _genai()
    if body.shape == "text":
        return types.GenerateContentConfig(max_output_tokens=1024)
    schema = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
    function = types.FunctionDeclaration(
        name=TOOL_NAME, description="Write a note.", parameters_json_schema=schema
    )
    return types.GenerateContentConfig(
        max_output_tokens=1024, tools=[types.Tool(function_declarations=[function])]
    )


def prepare_gemini_raw(body: VendorBody, base_url: str | None = None) -> Prepare:
    """``client.aio.models.generate_content_stream``, every chunk iterated.

    In-process, or against the server at ``base_url`` when one is given.
    """
    _genai()

    def prepare() -> AsyncRun:
        client, http = _client(body, base_url)
        config = _config(body)

        async def run() -> int:
            stream = await client.models.generate_content_stream(
                model=GEMINI_MODEL, contents="bench", config=config
            )
            seen = 0
            pieces: list[str] = []
            arguments: object = None
            async for response in stream:
                for part in response.candidates[0].content.parts:
                    if part.text is not None:
                        seen += 1
                        pieces.append(part.text)
                    elif part.function_call is not None:
                        arguments = part.function_call.args
            await client.aclose()
            if http is not None:
                await http.aclose()
            if body.shape == "text":
                result: object = "".join(pieces)
            else:
                seen, result = body.deltas, arguments
            if seen != body.deltas or result != body.expected:
                raise AssertionError(f"gemini {body.shape}: saw {seen} of {body.deltas} deltas")
            return seen

        return run

    return prepare
