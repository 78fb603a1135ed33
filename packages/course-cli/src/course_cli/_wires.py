"""The composition root's other choice: which adapter plays a recorded file (``--wire``).

``fixture`` is the course transport (a schema-1 fixture file, every response
played by ``FixtureProviderAdapter``). The vendor wires take their names from
the adapters' own constants (the wire contract keeps them out of this
package) and play one recorded HTTP body through the vendor's model over a
``RecordedTransport``; their paths (the adapters' constants too) say which
wire a cassette's recorded call was made on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from course_http import HttpTransport
from course_provider_anthropic import MESSAGES_PATH, AnthropicConfig, AnthropicMessagesModel
from course_provider_anthropic import VENDOR as ANTHROPIC_MESSAGES
from course_provider_openai import (
    CHAT_COMPLETIONS_PATH,
    CHAT_VENDOR,
    RESPONSES_PATH,
    RESPONSES_VENDOR,
    OpenAIChatModel,
    OpenAIConfig,
    OpenAIResponsesModel,
)
from course_vendor import VendorModel

FIXTURE_WIRE = "fixture"
"""The default ``--wire``: the course transport's fixture files, as before ``--wire`` existed."""

# The configuration is sent to the recorded transport and never compared with
# anything: a recorded body answers whatever was asked.
_RECORDED_MODEL = "recorded"


@dataclass(frozen=True, slots=True)
class RecordingWire:
    """A vendor API whose recorded bodies the CLI can play.

    ``model`` builds the vendor's model over a transport; ``named_events``
    says that every event of the API carries its ``event:`` name, which a
    data-only (``.jsonl``) recording has lost; ``path`` is the endpoint the
    model posts to (``/v1/messages``).
    """

    name: str
    model: Callable[[HttpTransport], VendorModel[Any]]
    named_events: bool
    path: str


def _anthropic(transport: HttpTransport) -> VendorModel[Any]:
    return AnthropicMessagesModel(AnthropicConfig(_RECORDED_MODEL, 1), transport=transport)


def _chat(transport: HttpTransport) -> VendorModel[Any]:
    return OpenAIChatModel(OpenAIConfig(_RECORDED_MODEL), transport=transport)


def _responses(transport: HttpTransport) -> VendorModel[Any]:
    return OpenAIResponsesModel(OpenAIConfig(_RECORDED_MODEL), transport=transport)


RECORDING_WIRES: dict[str, RecordingWire] = {
    wire.name: wire
    for wire in (
        RecordingWire(ANTHROPIC_MESSAGES, _anthropic, named_events=True, path=MESSAGES_PATH),
        RecordingWire(CHAT_VENDOR, _chat, named_events=False, path=CHAT_COMPLETIONS_PATH),
        RecordingWire(RESPONSES_VENDOR, _responses, named_events=False, path=RESPONSES_PATH),
    )
}
"""Every vendor wire by its ``--wire`` name."""

_WIRES_BY_PATH = {wire.path: wire for wire in RECORDING_WIRES.values()}


def wire_for_path(path: str) -> RecordingWire | None:
    """The wire whose model posts to ``path`` (its query left out), or ``None`` for another path."""
    return _WIRES_BY_PATH.get(path.partition("?")[0])


WIRE_NAMES = (FIXTURE_WIRE, *RECORDING_WIRES)
"""The ``--wire`` choices of ``course replay`` and ``course check``; the first is the default."""
