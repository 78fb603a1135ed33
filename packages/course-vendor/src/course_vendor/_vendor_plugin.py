"""VendorPlugin: what a vendor package registers for one wire, under ``course.vendors``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, final

from course_http import HttpTransport
from course_protocol.untrusted import type_name
from course_vendor._cache_prefix import CachePrefix
from course_vendor._grammar import WireGrammar
from course_vendor._vendor_model import VendorModel
from course_vendor._vendor_wire import VendorWire

__all__ = ["VendorPlugin"]


@final
@dataclass(frozen=True, slots=True)
class VendorPlugin:
    """What a vendor package registers for one wire.

    ``wire`` holds the fixed facts a `VendorModel` uses (its name, the key's
    environment variable, the request path under the base URL, the error-body
    reader); ``sdk`` is the distribution name of the vendor's official SDK
    (``anthropic``); ``base_url`` is the default base URL, spelled as that SDK
    and its environment variable spell it; ``base_url_variable`` names that
    variable. ``named_events`` says that every event of the API
    carries an ``event:`` name, which a data-only recording has lost.
    ``replay_model`` builds the wire's model over a transport, for playing a
    recorded body, whose answer does not depend on the configuration.
    ``grammar`` makes a fresh `WireGrammar` of the wire, which judges one
    streamed body alone (the cassettes' strict check, ``course check``).
    ``cache_prefix`` reads a recorded request body (any JSON value; never
    raising for its shape) into the `CachePrefix` the vendor caches of it,
    for the prompt-cache check; ``None``: the wire declares none, and its
    calls are not checked.
    ``dialect_of`` names the wire this one is a dialect of (an
    OpenAI-compatible server's of ``openai-chat``), or ``None``: a dialect
    shares its base wire's endpoint, so the registry gives it a recorded
    path only under its own default base path, and never an empty one or one
    its base wire's default base path is too (`VendorRegistry.for_path`).
    ``host_paths`` are full recorded paths (no query) the wire also answers
    at on its own default host, beside its ``wire.path`` (Azure's v1 form,
    ``/openai/v1/chat/completions``, beside its deployment form); only the
    host rule reads them (`VendorRegistry.for_call`), since by path alone
    another wire's base path may be the same (Groq's ``/openai/v1``).

    Raises ``TypeError`` naming the field when one is not of its type (so a
    plug-in built wrong fails where it is built, and the registry names it).
    """

    wire: VendorWire
    sdk: str
    base_url: str
    base_url_variable: str
    named_events: bool
    replay_model: Callable[[HttpTransport], VendorModel[Any]]
    grammar: Callable[[], WireGrammar[Any]]
    cache_prefix: Callable[[object], CachePrefix] | None = None
    dialect_of: str | None = None
    host_paths: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if type(self.wire) is not VendorWire:
            raise TypeError(f"VendorPlugin.wire must be a VendorWire, not {type_name(self.wire)}")
        for field in ("vendor", "path"):
            if type(getattr(self.wire, field)) is not str:
                value = getattr(self.wire, field)
                raise TypeError(f"VendorPlugin.wire.{field} must be a str, not {type_name(value)}")
        for field in ("sdk", "base_url", "base_url_variable"):
            if type(getattr(self, field)) is not str:
                value = getattr(self, field)
                raise TypeError(f"VendorPlugin.{field} must be a str, not {type_name(value)}")
        if type(self.named_events) is not bool:
            raise TypeError(
                f"VendorPlugin.named_events must be a bool, not {type_name(self.named_events)}"
            )
        if not callable(self.replay_model):
            raise TypeError("VendorPlugin.replay_model must be callable")
        if not callable(self.grammar):
            raise TypeError("VendorPlugin.grammar must be callable")
        if self.cache_prefix is not None and not callable(self.cache_prefix):
            raise TypeError("VendorPlugin.cache_prefix must be callable or None")
        if type(self.host_paths) is not tuple or not all(
            type(path) is str and path.startswith("/") for path in self.host_paths
        ):
            raise TypeError(
                "VendorPlugin.host_paths must be a tuple of paths starting with '/', "
                f"not {type_name(self.host_paths)}"
            )
        if self.dialect_of is not None and type(self.dialect_of) is not str:
            raise TypeError(
                f"VendorPlugin.dialect_of must be a str or None, not {type_name(self.dialect_of)}"
            )

    @property
    def name(self) -> str:
        """The wire's name, as ``--wire`` takes it (``anthropic-messages``)."""
        return self.wire.vendor

    @property
    def default_request_path(self) -> str:
        """The full path a call to the default base URL sends (``/v1/chat/completions``).

        A ``{model}`` in the wire's path stays as it is, the query is left out.
        """
        prefix = self.base_url.split("://", 1)[-1].partition("/")[2].rstrip("/")
        return f"/{prefix}{self.wire.path}" if prefix else self.wire.path

    @property
    def default_base_path(self) -> str:
        """The path of the default base URL, ``""`` when it has none (``/v1`` for OpenAI's)."""
        prefix = self.base_url.split("://", 1)[-1].partition("/")[2].rstrip("/")
        return f"/{prefix}" if prefix else ""
