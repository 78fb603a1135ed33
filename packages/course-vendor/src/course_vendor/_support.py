"""OptionSupport: what one vendor API does with each option of a configuration, sends or refuses.

A vendor declares it once per wire (``VendorWire.options``); a `VendorModel`
checks its configuration against it at construction, so an option the API
cannot take is a `VendorConfigError` naming the option and the vendor, never
a field quietly left out of the request. A wire that declares nothing sends
no option: every one set is refused.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import TYPE_CHECKING, final

from course_protocol.untrusted import type_name
from course_vendor._config_errors import config_error
from course_vendor._options import COMMON_OPTIONS, ReasoningEffort, ThinkingBudget

if TYPE_CHECKING:
    from course_vendor._config import VendorConfig

__all__ = ["OptionSupport", "option_fields"]


def option_fields(config_type: type[VendorConfig]) -> tuple[str, ...]:
    """The option fields of ``config_type``: the common ones, then every field its subclass adds.

    A field a vendor's configuration adds to `VendorConfig` is one of that
    vendor's options, which each of its wires must send or refuse.
    """
    from course_vendor._config import VendorConfig

    shared = {field.name for field in fields(VendorConfig)}
    own = tuple(field.name for field in fields(config_type) if field.name not in shared)
    return COMMON_OPTIONS + own


@final
@dataclass(frozen=True, slots=True)
class OptionSupport:
    """What one vendor API sends of a configuration's options; everything else is refused.

    - ``vendor``: the wire's name, as the refusals name it (``openai-responses``);
    - ``sends``: the option fields (`option_fields`: the common ones and the
      vendor configuration's own) this API converts into its request; any
      other one set to something other than its default is refused;
    - ``temperature_max``: the highest ``temperature`` the API takes
      (Anthropic 1, OpenAI 2);
    - ``stop_sequences_max``: how many stop sequences it takes, or ``None``
      for no documented limit;
    - ``reasoning``: the kinds of ``reasoning`` value it takes
      (`ReasoningEffort`, `ThinkingBudget`);
    - ``strict_tools``: whether it sends a Tool's ``strict`` mode
      (``CourseToolSpec.strict``); a strict Tool is refused where it does not;
    - ``body_keys``: every top-level body key the adapter writes for this
      API, which ``extra_body`` may therefore not hold;
    - ``header_names``: the lower-case names of the headers the adapter
      writes (besides the credentials and the transport's own, refused for
      every vendor), which ``extra_headers`` may not hold.
    """

    vendor: str
    sends: frozenset[str] = frozenset()
    temperature_max: float = 1.0
    stop_sequences_max: int | None = None
    reasoning: frozenset[type[ReasoningEffort] | type[ThinkingBudget]] = frozenset()
    strict_tools: bool = False
    body_keys: frozenset[str] = frozenset()
    header_names: frozenset[str] = frozenset()

    def check(self, config: VendorConfig) -> None:
        """Refuse what of ``config`` this API cannot send.

        Raises `VendorConfigError` ``VENDOR_INVALID_CONFIG`` naming the first
        refused field and `vendor`: an option it does not send that is set,
        a temperature above `temperature_max`, more stop sequences than
        `stop_sequences_max`, a kind of reasoning it does not take, a strict
        Tool where it has no `strict_tools`, an
        ``extra_body`` key or ``extra_headers`` name the adapter writes.
        """
        name = type_name(config)
        defaults = {
            field.name: field.default for field in fields(config) if field.default is not MISSING
        }
        for option in option_fields(type(config)):
            value = getattr(config, option)
            if option not in self.sends and value != defaults.get(option):
                raise config_error(
                    f"{name}.{option}",
                    f"is not supported by {self.vendor}: leave it {defaults.get(option)!r}",
                )
        self._check_ranges(config, name)
        for key in config.extra_body or {}:
            if key in self.body_keys:
                raise config_error(
                    f"{name}.extra_body[{key!r}]",
                    f"is written by the {self.vendor} adapter itself: set it through the "
                    "configuration's own field, or not at all",
                )
        for header in config.extra_headers or {}:
            if header in self.header_names:
                raise config_error(
                    f"{name}.extra_headers[{header!r}]",
                    f"is written by the {self.vendor} adapter itself",
                )

    def _check_ranges(self, config: VendorConfig, name: str) -> None:
        if config.temperature is not None and config.temperature > self.temperature_max:
            raise config_error(
                f"{name}.temperature",
                f"must be from 0 to {self.temperature_max:g} for {self.vendor}, "
                f"got {config.temperature:g}",
            )
        limit = self.stop_sequences_max
        if limit is not None and len(config.stop_sequences) > limit:
            raise config_error(
                f"{name}.stop_sequences",
                f"holds {len(config.stop_sequences)} stop sequences; "
                f"{self.vendor} takes at most {limit}",
            )
        if config.reasoning is not None and type(config.reasoning) not in self.reasoning:
            taken = " or ".join(sorted(kind.__name__ for kind in self.reasoning)) or "none"
            raise config_error(
                f"{name}.reasoning",
                f"is a {type(config.reasoning).__name__}, which {self.vendor} does not take "
                f"(it takes {taken})",
            )
        if not self.strict_tools:
            for position, tool in enumerate(config.tools):
                if tool.strict:
                    raise config_error(
                        f"{name}.tools[{position}].strict",
                        f"is not supported by {self.vendor}: leave it False",
                    )
