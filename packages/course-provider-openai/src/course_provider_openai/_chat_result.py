"""What one Chat Completions stream said, as the grammar read it: `ChatResult` and its parts.

Every value is frozen, slotted and deeply immutable (tuples, frozen JSON),
spelled as the vendor spells it: finish reasons, roles and tool types are the
vendor's strings, counts the vendor did not send are ``None`` (never 0).
Nothing here is a course value: `ChatMapping` builds those from it.
"""

from __future__ import annotations

from dataclasses import dataclass

from course_protocol import JsonObject

__all__ = [
    "ChatAudio",
    "ChatChoice",
    "ChatFunctionCall",
    "ChatResult",
    "ChatStreamError",
    "ChatTokenLogprob",
    "ChatToolCall",
    "ChatUsage",
]


@dataclass(frozen=True, slots=True)
class ChatToolCall:
    """One ``delta.tool_calls`` entry of a choice, its fragments joined.

    ``type`` is ``"function"`` (also when the stream left it out) or
    ``"custom"``; ``arguments`` the joined ``function.arguments`` text (a
    custom tool's ``custom.input``); ``parsed_arguments`` that text as a JSON
    object for a function call of a choice that finished whole (``stop``,
    ``tool_calls``, ``function_call``), ``None`` otherwise (a custom tool, a
    choice cut by ``length`` or ``content_filter`` or by the vendor's error).
    """

    index: int
    id: str
    type: str
    name: str
    arguments: str
    parsed_arguments: JsonObject | None


@dataclass(frozen=True, slots=True)
class ChatFunctionCall:
    """The deprecated ``delta.function_call`` of a choice: its name and joined arguments.

    ``parsed_arguments`` as for `ChatToolCall`.
    """

    name: str
    arguments: str
    parsed_arguments: JsonObject | None


@dataclass(frozen=True, slots=True)
class ChatAudio:
    """The ``delta.audio`` fragments of a choice (audio output): ids, joined data and transcript.

    ``data`` is the joined base64 text, ``transcript`` the joined transcript;
    ``id`` and ``expires_at`` are ``None`` until sent.
    """

    id: str | None
    data: str
    transcript: str
    expires_at: int | None


@dataclass(frozen=True, slots=True)
class ChatTokenLogprob:
    """One token's log probability (``logprobs.content[]`` or ``logprobs.refusal[]``).

    ``bytes`` is the token's UTF-8 bytes as the vendor listed them, or
    ``None``; ``top_logprobs`` the most likely tokens at that place (each
    with no ``top_logprobs`` of its own).
    """

    token: str
    logprob: float
    bytes: tuple[int, ...] | None
    top_logprobs: tuple[ChatTokenLogprob, ...]


@dataclass(frozen=True, slots=True)
class ChatChoice:
    """One choice of the response (``choices[].index``), everything its deltas carried.

    ``content`` and ``refusal`` are the joined texts (``""`` when none came);
    ``role`` the role the deltas named, if any; ``finish_reason`` the
    vendor's (``stop``, ``length``, ``tool_calls``, ``content_filter``,
    ``function_call``), ``None`` for an audio answer that ended at its
    ``expires_at`` or a choice the vendor's error cut off. The log
    probabilities are ``None`` when none were sent. ``annotations`` are
    the URL citations the deltas carried (search models), each frozen as
    the vendor sent it, in order. ``reasoning`` is the joined reasoning text
    a compatible server's dialect streams (``reasoning_content``,
    ``reasoning``, ``thinking`` parts; ``""`` when none came, and always for
    OpenAI, which streams none), and ``reasoning_details`` OpenRouter's
    ``reasoning_details`` entries, in order, each block's consecutive
    ``reasoning.text`` fragments joined into one (as OpenRouter's own
    client sends them back); ``content_filter_results``
    Azure's non-empty content-filter results for the choice, in order.
    """

    index: int
    role: str | None
    content: str
    refusal: str
    tool_calls: tuple[ChatToolCall, ...]
    function_call: ChatFunctionCall | None
    audio: ChatAudio | None
    content_logprobs: tuple[ChatTokenLogprob, ...] | None
    refusal_logprobs: tuple[ChatTokenLogprob, ...] | None
    finish_reason: str | None
    annotations: tuple[JsonObject, ...] = ()
    reasoning: str = ""
    reasoning_details: tuple[JsonObject, ...] = ()
    content_filter_results: tuple[JsonObject, ...] = ()


@dataclass(frozen=True, slots=True)
class ChatUsage:
    """The usage chunk's counts; a count the vendor did not send is ``None``.

    ``cached_tokens`` and ``prompt_audio_tokens`` come from
    ``prompt_tokens_details``; ``reasoning_tokens``,
    ``completion_audio_tokens`` and the prediction counts from
    ``completion_tokens_details``.
    """

    prompt_tokens: int
    completion_tokens: int
    total_tokens: int
    cached_tokens: int | None = None
    prompt_audio_tokens: int | None = None
    reasoning_tokens: int | None = None
    completion_audio_tokens: int | None = None
    accepted_prediction_tokens: int | None = None
    rejected_prediction_tokens: int | None = None


@dataclass(frozen=True, slots=True)
class ChatStreamError:
    """The error the vendor reported inside the stream: its type, code and message, or ``None``."""

    type: str | None
    code: str | None
    message: str | None


@dataclass(frozen=True, slots=True)
class ChatResult:
    """A whole Chat Completions stream: its chunks' shared fields, its choices, usage, the end.

    ``id``, ``model``, ``created``, ``system_fingerprint`` and
    ``service_tier`` are the first chunk's (every chunk repeats them; ``id``
    is ``None`` only when the vendor's error came before any chunk);
    ``choices`` are in index order; ``usage`` is ``None`` when no usage chunk
    came (the request did not ask for one); ``moderations`` are the
    ``moderation`` objects of the chunks that had one, in order; ``error`` is
    the vendor's in-stream error that ended the stream, if one did; ``done``
    says that ``[DONE]`` came; ``prompt_filter_results`` Azure's results of
    its content filters on the prompt (``prompt_index`` and
    ``content_filter_results`` each), in order.
    """

    id: str | None
    model: str | None
    created: int | None
    system_fingerprint: str | None
    service_tier: str | None
    choices: tuple[ChatChoice, ...]
    usage: ChatUsage | None
    moderations: tuple[JsonObject, ...]
    error: ChatStreamError | None
    done: bool
    prompt_filter_results: tuple[JsonObject, ...] = ()
