"""BedrockConfig: the kit's `VendorConfig` with the Converse API's region, base URL and options."""

from __future__ import annotations

import os
from dataclasses import KW_ONLY, dataclass
from typing import ClassVar, Final, final

from course_protocol.slots import slot_setter
from course_protocol.untrusted import described
from course_provider_bedrock import _wire
from course_vendor import OptionSupport, ToolChoice, VendorConfig, config_error

__all__ = ["CONVERSE_OPTIONS", "BedrockConfig"]

CONVERSE_OPTIONS: Final = OptionSupport(
    _wire.WIRE,
    sends=frozenset({"temperature", "top_p", "stop_sequences", "tool_choice", "region"}),
    temperature_max=1.0,
    stop_sequences_max=4,
    body_keys=frozenset({"messages", "system", "inferenceConfig", "toolConfig"}),
)
"""The options the Converse API takes in ``inferenceConfig`` and ``toolConfig``."""

_REGION_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")


@final
@dataclass(frozen=True, slots=True)
class BedrockConfig(VendorConfig):
    """The adapter's side of every ConverseStream request: ``course_vendor.VendorConfig``.

    The fields, their names and their checks are the kit's; this class adds
    what is the Converse API's own:

    - ``model`` is the model id, inference-profile id or ARN the path names
      (``anthropic.claude-3-5-haiku-20241022-v1:0``), printable ASCII, sent
      percent-encoded as boto3 sends it (``...-v1%3A0``);
    - ``tool_choice`` ``none`` is refused: the API has no such choice;
    - ``max_output_tokens`` is sent as ``inferenceConfig.maxTokens`` when set;
    - ``region`` (keyword-only) is the AWS region the call goes to and its
      signature is scoped to; ``None`` reads ``AWS_REGION``, then
      ``AWS_DEFAULT_REGION``, at construction, then ``us-east-1``;
    - ``base_url`` defaults to ``https://bedrock-runtime.<region>.amazonaws.com``
      (the default written for ``us-east-1`` follows the region).

    Raises ``course_vendor.VendorConfigError`` ``VENDOR_INVALID_CONFIG`` for
    the first bad field, its message naming it.
    """

    OPTIONS: ClassVar[OptionSupport | None] = CONVERSE_OPTIONS

    base_url: str = _wire.DEFAULT_BASE_URL
    _: KW_ONLY
    region: str | None = None

    def _check_own_options(self) -> None:
        if self.tool_choice == ToolChoice.NONE:
            raise config_error(
                "BedrockConfig.tool_choice",
                "'none' is not a choice the Converse API takes (auto, required or a NamedTool)",
            )
        if not self.model.isascii() or not self.model.isprintable():
            raise config_error(
                "BedrockConfig.model",
                f"must be a model id of printable ASCII, got {described(self.model)}",
            )
        region = self.region
        if region is None:
            region = next(
                (os.environ[name] for name in _wire.REGION_VARIABLES if os.environ.get(name)),
                _wire.DEFAULT_REGION,
            )
        if type(region) is not str or not region or not set(region) <= _REGION_CHARACTERS:
            raise config_error(
                "BedrockConfig.region",
                f"must be an AWS region name (us-east-1), got {described(region)}",
            )
        _set_region(self, region)
        if self.base_url == _wire.DEFAULT_BASE_URL:
            _set_base_url(self, _wire.BASE_URL_TEMPLATE.format(region=region))

    @property
    def signing_region(self) -> str:
        """The region the call's signature is scoped to (`region`, as read at construction)."""
        region = self.region
        # _check_own_options set it.
        assert region is not None
        return region


_set_region = slot_setter(BedrockConfig, "region")
_set_base_url = slot_setter(VendorConfig, "base_url")
