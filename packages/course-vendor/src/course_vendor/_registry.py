"""The registry of vendor wires: every installed vendor package, found by entry point.

A vendor package declares each of its wires under the ``course.vendors``
entry-point group, named after the wire and pointing at a `VendorPlugin`:

```toml
[project.entry-points."course.vendors"]
anthropic-messages = "course_provider_anthropic:MESSAGES_PLUGIN"
```

The names are read from the installed packages' metadata alone, once per
process (`installed_vendors`); a plug-in is imported only when its wire is
used (`load_vendor`), so a command that plays no vendor imports none, and
at most once. A plug-in is foreign code: one that cannot be imported, or is
not what it claims, is a typed problem of its own wire
(``VENDOR_PLUGIN_BROKEN``) and never stops another wire from working; a
wire name or an endpoint that two registrations claim is a typed conflict
(``VENDOR_WIRE_CONFLICT``) naming both, never settled by install order.

Over 300 lines on purpose: which wire a name, a path or a recorded call
belongs to is one ranking over one scan of the registrations, and apart the
rules would drift (a path claimed one way by the check and another by the
call's host).
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib.metadata import EntryPoint, entry_points
from typing import final

from course_http import VendorError, VendorErrorCode, host_is_loopback
from course_protocol.untrusted import shown
from course_vendor._hosts import host_is_of
from course_vendor._registration import Registration, endpoint_conflict, loaded, name_conflict
from course_vendor._vendor_plugin import VendorPlugin

__all__ = [
    "VENDOR_ENTRY_POINT_GROUP",
    "VendorRegistry",
    "installed_vendors",
    "load_vendor",
    "registry_problems",
    "rescan_installed_vendors",
    "vendor_for_call",
    "vendor_for_path",
    "vendor_names",
]

VENDOR_ENTRY_POINT_GROUP = "course.vendors"
"""The entry-point group every vendor package registers its wires under."""


@final
class VendorRegistry:
    """The vendor wires of one scan of entry points: names, plug-ins, and what is wrong with them.

    Built from the ``course.vendors`` entry points of the installed packages
    (`installed_vendors`, once per process), or from any entry points given
    (a test's made-up distributions). The module's functions (`vendor_names`,
    `load_vendor`, `vendor_for_path`, `registry_problems`) read the installed
    one. Each plug-in is imported once, when first used, and its outcome (the
    plug-in, or why it cannot be used) is kept for the registry's life.
    """

    __slots__ = ("_by_name", "_conflicts", "_outcomes", "_registrations")

    def __init__(self, points: Iterable[EntryPoint]) -> None:
        """Read ``points`` (each one wire: its name, its value, its distribution); import nothing.

        The same name, value and distribution given twice count once.
        """
        registrations: list[Registration] = []
        seen: set[tuple[str, str, str]] = set()
        for point in points:
            registration = Registration.of(point)
            key = (point.name, point.value, registration.distribution)
            if key not in seen:
                seen.add(key)
                registrations.append(registration)
        registrations.sort(key=lambda each: (each.point.name, each.distribution, each.value))
        self._registrations: tuple[Registration, ...] = tuple(registrations)
        self._by_name: dict[str, tuple[Registration, ...]] = {}
        for registration in registrations:
            same = self._by_name.get(registration.point.name, ())
            self._by_name[registration.point.name] = (*same, registration)
        self._conflicts = {
            name: name_conflict(claims) for name, claims in self._by_name.items() if len(claims) > 1
        }
        self._outcomes: dict[Registration, VendorPlugin | VendorError] = {}

    def names(self) -> tuple[str, ...]:
        """Every registered wire name, sorted, once each; imports none of them."""
        return tuple(self._by_name)

    def load(self, name: str) -> VendorPlugin:
        """The plug-in registered as ``name``, imported on first use.

        Raises `VendorError`: ``VENDOR_UNKNOWN_WIRE`` (naming the registered
        wires) when nothing registers ``name``; ``VENDOR_WIRE_CONFLICT`` when
        more than one distribution registers it (naming each: none is picked
        by install order); ``VENDOR_PLUGIN_BROKEN`` when its entry point cannot
        be imported or is not a `VendorPlugin` named ``name`` (naming the
        wire, the entry point and its distribution; the plug-in's own
        exception is the ``__cause__``). The same error object every time.
        """
        registrations = self._by_name.get(name)
        if registrations is None:
            installed = ", ".join(self._by_name) or "none"
            raise VendorError(
                VendorErrorCode.VENDOR_UNKNOWN_WIRE,
                f"no installed vendor package registers the wire {shown(name)!r}; "
                f"installed: {installed}",
                vendor=name,
            )
        conflict = self._conflicts.get(name)
        if conflict is not None:
            raise conflict
        outcome = self._outcome(registrations[0])
        if isinstance(outcome, VendorError):
            raise outcome
        return outcome

    def for_path(self, path: str) -> VendorPlugin | None:
        """The plug-in whose endpoint the recorded ``path`` (its query left out) calls.

        Imports every plug-in not yet imported (a cassette's call names only
        its path); one that cannot be used is passed over (`problems` names
        it) and never stops another wire from claiming the path. A wire
        claims the path when the path ends with its endpoint
        (`VendorWire.base_path`); a claim under the wire's own default base
        URL ranks above one under a base URL with a path of its own (a
        compatible vendor's ``/openai/v1/chat/completions``), then the longer
        endpoint path ranks higher. A dialect (`VendorPlugin.dialect_of`)
        claims the path only when what comes before its endpoint is its own
        default base path, not empty and not its base wire's default base
        path (Groq's ``/openai/v1``, OpenRouter's ``/api/v1``); elsewhere it is
        picked by name (``--wire``), and its base wire judges the recording.
        ``None`` when no wire claims the path.
        Raises `VendorError` ``VENDOR_WIRE_CONFLICT`` naming the wires and
        their distributions when more than one claims it at the best rank:
        nothing recorded tells them apart, and a pick would be install order.
        """
        ranked: list[tuple[tuple[bool, int], Registration, VendorPlugin]] = []
        for registration in self._registrations:
            plugin = self._outcome(registration)
            if isinstance(plugin, VendorError):
                continue
            base = plugin.wire.base_path(path)
            if base is None or (plugin.dialect_of is not None and not self._claims(plugin, base)):
                continue
            rank = (base == plugin.default_base_path, len(plugin.wire.path))
            ranked.append((rank, registration, plugin))
        return _best(path, ranked)

    def for_call(
        self, path: str, *, host: str | None = None, wire: str | None = None
    ) -> VendorPlugin | None:
        """The plug-in of a recorded call to ``path`` (its query left out), sent to ``host``.

        ``wire``, the wire the cassette records for the call (the model's
        that made it, or the one its recording was told), decides: its
        plug-in, whatever the path (`load`, with its errors). Else a host
        that is not loopback decides among the wires whose default base URL
        is on it (`course_vendor`'s host rule: Mistral's ``api.mistral.ai``,
        Azure's ``*.openai.azure.com``): the one whose endpoint the path is
        (ranked as `for_path` ranks), or one of whose ``host_paths`` it is
        (Azure's v1 form), or ``None`` when none of them serves
        the path (the host is known, and no wire of it answers there). Else
        (no host, a loopback one, one no wire has) the path alone decides
        (`for_path`: a dialect only under its own base path). Raises
        `VendorError` as `load` does for a recorded wire, and
        ``VENDOR_WIRE_CONFLICT`` when two wires of the host, or of the path,
        claim it alike.
        """
        if wire is not None:
            return self.load(wire)
        if host is None or host_is_loopback(host):
            return self.for_path(path)
        ranked: list[tuple[tuple[bool, int], Registration, VendorPlugin]] = []
        known_host = False
        for registration in self._registrations:
            plugin = self._outcome(registration)
            if isinstance(plugin, VendorError) or not host_is_of(host, plugin.base_url):
                continue
            known_host = True
            base = plugin.wire.base_path(path)
            if base is not None:
                rank = (base == plugin.default_base_path, len(plugin.wire.path))
                ranked.append((rank, registration, plugin))
            elif path in plugin.host_paths:
                ranked.append(((True, len(path)), registration, plugin))
        if not known_host:
            return self.for_path(path)
        return _best(path, ranked)

    def _claims(self, dialect: VendorPlugin, base: str) -> bool:
        """Whether ``dialect`` claims a path under ``base``: its own, not its base wire's."""
        if not base or base != dialect.default_base_path:
            return False
        for registration in self._by_name.get(dialect.dialect_of or "", ()):
            plugin = self._outcome(registration)
            if not isinstance(plugin, VendorError) and plugin.default_base_path == base:
                return False
        return True

    def problems(self) -> tuple[VendorError, ...]:
        """Every problem of this registry's plug-ins, each once, in wire-name order.

        A name more than one distribution registers (``VENDOR_WIRE_CONFLICT``,
        once per name), then each plug-in that cannot be used
        (``VENDOR_PLUGIN_BROKEN``), importing every plug-in not yet imported.
        Never raises for what a plug-in does.
        """
        found: list[VendorError] = []
        for name, registrations in self._by_name.items():
            conflict = self._conflicts.get(name)
            if conflict is not None:
                found.append(conflict)
            for registration in registrations:
                outcome = self._outcome(registration)
                if isinstance(outcome, VendorError):
                    found.append(outcome)
        return tuple(found)

    def _outcome(self, registration: Registration) -> VendorPlugin | VendorError:
        outcome = self._outcomes.get(registration)
        if outcome is None:
            # Another thread may have loaded it meanwhile: the first outcome kept is everyone's.
            outcome = self._outcomes.setdefault(registration, loaded(registration))
        return outcome


def _best(
    path: str, ranked: list[tuple[tuple[bool, int], Registration, VendorPlugin]]
) -> VendorPlugin | None:
    """The one plug-in of the best rank; ``None`` for none; a conflict for several."""
    if not ranked:
        return None
    best = max(rank for rank, _, _ in ranked)
    winners = [(registration, plugin) for rank, registration, plugin in ranked if rank == best]
    if len(winners) > 1:
        raise endpoint_conflict(path, [registration for registration, _ in winners])
    return winners[0][1]


_installed: VendorRegistry | None = None


def installed_vendors() -> VendorRegistry:
    """The registry of the installed packages' ``course.vendors`` entry points.

    Scanned on first use and kept for the process: a scan reads every
    installed package's metadata (tens of milliseconds), and the cassettes
    look a wire up for every recorded stream.
    """
    global _installed
    if _installed is None:
        _installed = VendorRegistry(entry_points(group=VENDOR_ENTRY_POINT_GROUP))
    return _installed


def rescan_installed_vendors() -> VendorRegistry:
    """Scan the installed packages again, and keep the new registry for the process.

    For a process that installs or removes a vendor package while it runs
    (a test that puts a made-up distribution on ``sys.path``, and takes it
    away after); each plug-in is loaded again on its first use (a module
    already imported is not run again).
    """
    global _installed
    _installed = VendorRegistry(entry_points(group=VENDOR_ENTRY_POINT_GROUP))
    return _installed


def vendor_names() -> tuple[str, ...]:
    """The wire names every installed vendor package registers, sorted; imports none of them."""
    return installed_vendors().names()


def load_vendor(name: str) -> VendorPlugin:
    """Import the plug-in registered as ``name`` and return it (`VendorRegistry.load`).

    Raises `VendorError` ``VENDOR_UNKNOWN_WIRE`` (naming the installed wires)
    when no installed package registers ``name``, ``VENDOR_WIRE_CONFLICT``
    when more than one does, and ``VENDOR_PLUGIN_BROKEN`` when its plug-in
    cannot be imported or is not a `VendorPlugin` named ``name``.
    """
    return installed_vendors().load(name)


def vendor_for_call(
    path: str, *, host: str | None = None, wire: str | None = None
) -> VendorPlugin | None:
    """The installed plug-in of a recorded call (`VendorRegistry.for_call`): by its recorded
    ``wire``, else its ``host``, else its ``path``.

    Raises `VendorError` as `VendorRegistry.for_call` does.
    """
    return installed_vendors().for_call(path, host=host, wire=wire)


def vendor_for_path(path: str) -> VendorPlugin | None:
    """The installed plug-in whose endpoint the recorded ``path`` calls (`VendorRegistry.for_path`).

    Passes over a plug-in that cannot be used (`registry_problems` names
    it); ``None`` when no wire claims the path. Raises `VendorError`
    ``VENDOR_WIRE_CONFLICT`` when two wires claim it alike.
    """
    return installed_vendors().for_path(path)


def registry_problems() -> tuple[VendorError, ...]:
    """Every problem of the installed plug-ins, each once (`VendorRegistry.problems`).

    Imports every plug-in not yet imported. What a command prints, one line
    each, after it looked wires up by path (a broken plug-in was passed over).
    """
    return installed_vendors().problems()
