"""The registry of vendor wires: every installed vendor package, found by entry point.

A vendor package declares each of its wires under the ``course.vendors``
entry-point group, named after the wire and pointing at a `VendorPlugin`:

```toml
[project.entry-points."course.vendors"]
anthropic-messages = "course_provider_anthropic:MESSAGES_PLUGIN"
```

The names are read from the installed packages' metadata alone; a plug-in
is imported only when its wire is used (`load_vendor`), so a command that
plays no vendor imports none.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import Any, final

from course_http import HttpTransport, VendorError, VendorErrorCode
from course_vendor._grammar import WireGrammar
from course_vendor._vendor_model import VendorModel
from course_vendor._vendor_wire import VendorWire

__all__ = [
    "VENDOR_ENTRY_POINT_GROUP",
    "VendorPlugin",
    "load_vendor",
    "vendor_for_path",
    "vendor_names",
]

VENDOR_ENTRY_POINT_GROUP = "course.vendors"
"""The entry-point group every vendor package registers its wires under."""


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
    """

    wire: VendorWire
    sdk: str
    base_url: str
    base_url_variable: str
    named_events: bool
    replay_model: Callable[[HttpTransport], VendorModel[Any]]
    grammar: Callable[[], WireGrammar[Any]] | None = None

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


def _registered() -> dict[str, EntryPoint]:
    return {point.name: point for point in entry_points(group=VENDOR_ENTRY_POINT_GROUP)}


def vendor_names() -> tuple[str, ...]:
    """The wire names every installed vendor package registers, sorted; imports none of them."""
    return tuple(sorted(_registered()))


def load_vendor(name: str) -> VendorPlugin:
    """Import the plug-in registered as ``name`` and return it.

    Raises `VendorError` ``VENDOR_UNKNOWN_WIRE`` (naming the installed wires)
    when no installed package registers ``name``, and ``TypeError`` when the
    entry point is not a `VendorPlugin` named ``name`` (a broken vendor
    package, not a user error).
    """
    point = _registered().get(name)
    if point is None:
        installed = ", ".join(vendor_names()) or "none"
        raise VendorError(
            VendorErrorCode.VENDOR_UNKNOWN_WIRE,
            f"no installed vendor package registers the wire {name!r}; installed: {installed}",
            vendor=name,
        )
    plugin = point.load()
    if not isinstance(plugin, VendorPlugin) or plugin.name != name:
        raise TypeError(
            f"the entry point {name!r} of group {VENDOR_ENTRY_POINT_GROUP!r} ({point.value}) "
            f"must be a VendorPlugin named {name!r}, not {type(plugin).__name__}"
        )
    return plugin


def vendor_for_path(path: str) -> VendorPlugin | None:
    """The plug-in whose endpoint the recorded ``path`` (its query left out) calls.

    Loads every installed plug-in (a cassette's call names only its path).
    A call under a wire's default base URL wins over one under a base URL
    with a path of its own (``/openai/v1/chat/completions``), and then the
    wire with the longest endpoint path; ``None`` when no wire claims the
    path (`VendorWire.base_path`).
    """
    plugins = [load_vendor(name) for name in vendor_names()]
    claims = [
        (plugin, base) for plugin in plugins if (base := plugin.wire.base_path(path)) is not None
    ]
    exact = [plugin for plugin, base in claims if base == plugin.default_base_path]
    if exact:
        return exact[0]
    return max(
        (plugin for plugin, _ in claims), key=lambda plugin: len(plugin.wire.path), default=None
    )
