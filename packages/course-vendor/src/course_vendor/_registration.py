"""One registration of a wire: an entry point, loaded into its plug-in or its typed problem.

Every message names the wire, the entry point's value and its
distribution, so a user knows which package to fix or uninstall; a
plug-in's own exception is the ``__cause__``, and its text in the message
is shortened (``course_protocol.untrusted.shown``): it is foreign text.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.metadata import EntryPoint
from typing import final

from course_http import VendorError, VendorErrorCode
from course_protocol.untrusted import shown, type_name
from course_vendor._vendor_plugin import VendorPlugin

__all__ = ["Registration", "endpoint_conflict", "loaded", "name_conflict"]


@final
@dataclass(frozen=True, slots=True, eq=False)
class Registration:
    """One entry point of the group: a wire name, where it points, and who installed it."""

    point: EntryPoint
    name: str
    value: str
    distribution: str

    @classmethod
    def of(cls, point: EntryPoint) -> Registration:
        """The registration ``point`` makes, its names shortened for messages; imports nothing."""
        dist = point.dist
        name = dist.name if dist is not None else None
        # Metadata without a Name field reads as None, and is still someone's package.
        distribution = shown(name) if type(name) is str and name else "an unnamed distribution"
        return cls(point, shown(point.name), shown(point.value), distribution)

    def said(self) -> str:
        """The wire, where it points and its distribution: ``'x' of dist (module:PLUGIN)``."""
        return f"{self.name!r} of {self.distribution} ({self.value})"

    def said_by_distribution(self) -> str:
        """The distribution and where it points: ``dist (module:PLUGIN)``."""
        return f"{self.distribution} ({self.value})"


def loaded(registration: Registration) -> VendorPlugin | VendorError:
    """The plug-in ``registration`` points at, or the ``VENDOR_PLUGIN_BROKEN`` saying why not."""
    try:
        plugin: object = registration.point.load()
    except Exception as error:  # foreign code: whatever it raises is its own wire's problem
        broken = _broken(registration, f"cannot be imported: {_account(error)}")
        broken.__cause__ = error
        return broken
    if type(plugin) is not VendorPlugin:
        return _broken(registration, f"is a {type_name(plugin)}, not a VendorPlugin")
    if plugin.name != registration.point.name:
        return _broken(
            registration, f"is the VendorPlugin of the wire {shown(plugin.name)!r}, not of its name"
        )
    return plugin


def _broken(registration: Registration, problem: str) -> VendorError:
    return VendorError(
        VendorErrorCode.VENDOR_PLUGIN_BROKEN,
        f"the wire {registration.name!r} cannot be used: its entry point "
        f"{registration.value} of {registration.distribution} {problem}",
        vendor=registration.point.name,
    )


def _account(error: BaseException) -> str:
    """``Type: message`` of a foreign exception, its message shortened; never raises."""
    try:
        text = str(error)
    except Exception:  # a foreign __str__ that fails is said by its type alone
        text = ""
    kind = type_name(error)
    return f"{kind}: {shown(text)}" if text else kind


def _listed(items: list[str]) -> str:
    return ", ".join(items[:-1]) + f" and {items[-1]}"


def name_conflict(registrations: tuple[Registration, ...]) -> VendorError:
    """The ``VENDOR_WIRE_CONFLICT`` of one wire name that ``registrations`` (two or more) share."""
    name = registrations[0].point.name
    return VendorError(
        VendorErrorCode.VENDOR_WIRE_CONFLICT,
        f"the wire {registrations[0].name!r} is registered by {len(registrations)} "
        f"distributions: {_listed([each.said_by_distribution() for each in registrations])}; "
        "uninstall all but one",
        vendor=name,
    )


def endpoint_conflict(path: str, registrations: list[Registration]) -> VendorError:
    """The ``VENDOR_WIRE_CONFLICT`` of a recorded ``path`` two or more wires claim alike."""
    names = [each.point.name for each in registrations]
    return VendorError(
        VendorErrorCode.VENDOR_WIRE_CONFLICT,
        f"the path {shown(path)!r} is the endpoint of {len(registrations)} wires, "
        f"{_listed([each.said() for each in registrations])}, and nothing recorded "
        "tells which one was called; uninstall all but one",
        vendor=", ".join(names),
    )
