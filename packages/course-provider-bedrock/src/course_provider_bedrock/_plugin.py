"""The Converse stream as the vendor registry knows it (the ``course.vendors`` entry point)."""

from __future__ import annotations

from course_http import HttpTransport
from course_provider_bedrock import _wire
from course_provider_bedrock._config import BedrockConfig
from course_provider_bedrock._grammar import ConverseGrammar
from course_provider_bedrock._model import CONVERSE_WIRE, BedrockConverseModel
from course_vendor import VendorPlugin

__all__ = ["CONVERSE_PLUGIN"]

# A recorded body answers whatever was asked: the configuration of a replay
# model is never sent anywhere nor compared with anything.
_REPLAYED_MODEL = "recorded"


def _replay_model(transport: HttpTransport) -> BedrockConverseModel:
    return BedrockConverseModel(
        BedrockConfig(_REPLAYED_MODEL, region=_wire.DEFAULT_REGION), transport=transport
    )


CONVERSE_PLUGIN = VendorPlugin(
    wire=CONVERSE_WIRE,
    sdk="boto3",
    base_url=_wire.DEFAULT_BASE_URL,
    base_url_variable=_wire.BASE_URL_VARIABLE,
    named_events=True,
    replay_model=_replay_model,
    grammar=ConverseGrammar,
)
"""The Bedrock Converse wire for the vendor registry: every event is named by its message's
headers; its grammar judges a recorded body alone."""
