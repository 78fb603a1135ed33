"""One small adapter per peer double, driven at the model level, not through an agent loop.

Each ``prepare_*`` function takes the shared deltas and returns a set-up
callable (see ``benchmarks._timing.Prepare``): it builds the peer's double
and the objects it streams, and hands back the timed pass, which streams
every delta through the double and consumes every event. Peers are imported
lazily through ``importlib``, so this module imports without the bench
dependency group, and a missing peer becomes ``PeerNotInstalledError``.
"""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from benchmarks._timing import AsyncRun, Prepare

__all__ = ["PEERS", "Peer", "PeerNotInstalledError"]


class PeerNotInstalledError(Exception):
    """The peer's package is not installed; the message is the row's ``n/a`` reason."""


def _module(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise PeerNotInstalledError(f"not installed ({error.name or name})") from error


def prepare_pydantic_ai(deltas: tuple[str, ...]) -> Prepare:
    """pydantic-ai ``FunctionModel(stream_function=...)`` through ``request_stream``."""
    function = _module("pydantic_ai.models.function")
    models = _module("pydantic_ai.models")
    messages = _module("pydantic_ai.messages")
    request = [messages.ModelRequest(parts=[messages.UserPromptPart("bench")])]

    async def stream_function(_messages: object, _info: object) -> AsyncIterator[str]:
        for delta in deltas:
            yield delta

    def prepare() -> AsyncRun:
        model = function.FunctionModel(stream_function=stream_function)
        parameters = models.ModelRequestParameters()

        async def run() -> int:
            seen = 0
            async with model.request_stream(request, None, parameters) as response:
                async for _event in response:
                    seen += 1
            response.get()
            return seen

        return run

    return prepare


def _openai_call(model: Any, agents: Any, interface: Any) -> Any:
    return model.stream_response(
        None,
        "bench",
        agents.ModelSettings(),
        [],
        None,
        [],
        interface.ModelTracing.DISABLED,
        previous_response_id=None,
        conversation_id=None,
        prompt=None,
    )


def _openai_events(deltas: tuple[str, ...]) -> tuple[Any, ...]:
    responses = _module("openai.types.responses")
    return tuple(
        responses.ResponseTextDeltaEvent(
            type="response.output_text.delta",
            item_id="message-bench",
            output_index=0,
            content_index=0,
            delta=delta,
            logprobs=[],
            sequence_number=index,
        )
        for index, delta in enumerate(deltas)
    )


def prepare_openai_prebuilt(deltas: tuple[str, ...]) -> Prepare:
    """OpenAI Agents ``agents.testing.ScriptedModel`` streaming a pre-built event sequence.

    ``ModelStep.stream(events)`` deep-copies the sequence when the step is
    scripted; that happens in the untimed set-up, so the pass measures what
    the double does per streamed event.
    """
    return _prepare_openai_step(_openai_events(deltas))


def prepare_openai_factory(deltas: tuple[str, ...]) -> Prepare:
    """The same double with a stream factory that yields the pre-built events.

    This is the shape of our ``ScriptedModel`` factories: an async generator
    per call. The double wraps every step of it in its tracing scope.
    """
    events = _openai_events(deltas)

    async def factory(_call: object) -> AsyncIterator[Any]:
        for event in events:
            yield event

    return _prepare_openai_step(factory)


def _prepare_openai_step(stream_source: object) -> Prepare:
    """A fresh one-step ``ScriptedModel`` per pass, streaming ``stream_source``."""
    agents = _module("agents")
    testing = _module("agents.testing")
    interface = _module("agents.models.interface")

    def prepare() -> AsyncRun:
        model = testing.ScriptedModel([testing.ModelStep.stream(stream_source)])

        async def run() -> int:
            seen = 0
            async for _event in _openai_call(model, agents, interface):
                seen += 1
            return seen

        return run

    return prepare


def prepare_langchain(deltas: tuple[str, ...]) -> Prepare:
    """LangChain ``GenericFakeChatModel.astream`` over one message of the same text.

    The fake splits its message on whitespace; ``text_deltas`` is shaped so
    that the split gives back exactly the shared deltas.
    """
    fakes = _module("langchain_core.language_models.fake_chat_models")
    messages = _module("langchain_core.messages")
    text = "".join(deltas)

    def prepare() -> AsyncRun:
        model = fakes.GenericFakeChatModel(messages=iter([messages.AIMessage(content=text)]))

        async def run() -> int:
            seen = 0
            async for _chunk in model.astream("bench"):
                seen += 1
            return seen

        return run

    return prepare


@dataclass(frozen=True)
class Peer:
    """A peer row: its name in the table and its adapter."""

    name: str
    prepare: Callable[[tuple[str, ...]], Prepare]


PEERS = (
    Peer("pydantic-ai FunctionModel (stream_function)", prepare_pydantic_ai),
    Peer("openai-agents ScriptedModel (pre-built events)", prepare_openai_prebuilt),
    Peer("openai-agents ScriptedModel (stream factory)", prepare_openai_factory),
    Peer("langchain-core GenericFakeChatModel.astream", prepare_langchain),
)
