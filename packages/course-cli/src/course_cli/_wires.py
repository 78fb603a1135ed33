"""The composition root's other choice: which adapter plays a recorded file (``--wire``).

``fixture`` is the course transport (a schema-1 fixture file, every response
played by ``FixtureProviderAdapter``). Every other wire is a vendor's, found
in the vendor registry (``course_vendor``): each installed vendor package
registers its wires under one entry-point group, and a wire's package is
imported only when that wire is used. Listing the names imports nothing, so
``course --help`` and the commands on fixtures start without any vendor or
HTTP stack.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import TYPE_CHECKING

from course_cli._output import format_command_problem

if TYPE_CHECKING:
    from course_vendor import VendorPlugin

__all__ = [
    "FIXTURE_WIRE",
    "VENDOR_ENTRY_POINT_GROUP",
    "load_wire",
    "registry_problem_lines",
    "vendor_wire_for_path",
    "wire_names",
]

FIXTURE_WIRE = "fixture"
"""The default ``--wire``: the course transport's fixture files, as before ``--wire`` existed."""

VENDOR_ENTRY_POINT_GROUP = "course.vendors"
"""``course_vendor.VENDOR_ENTRY_POINT_GROUP``, spelled here so that listing the wires
imports no vendor kit (and so no HTTP stack); a test keeps the two equal."""


def wire_names() -> tuple[str, ...]:
    """The ``--wire`` choices of ``course replay`` and ``course check``; the first is the default.

    The vendor wires are read from the installed packages' metadata, sorted,
    none of them imported.
    """
    vendors = sorted({point.name for point in entry_points(group=VENDOR_ENTRY_POINT_GROUP)})
    return (FIXTURE_WIRE, *(name for name in vendors if name != FIXTURE_WIRE))


def load_wire(name: str) -> VendorPlugin:
    """The vendor plug-in registered as ``name``, imported now (with the HTTP stack under it).

    Raises what ``course_vendor.load_vendor`` raises: `VendorError`
    ``VENDOR_UNKNOWN_WIRE`` for a name no installed package registers,
    ``VENDOR_PLUGIN_BROKEN`` for a plug-in that cannot be loaded,
    ``VENDOR_WIRE_CONFLICT`` for a name two packages register.
    """
    from course_vendor import load_vendor

    return load_vendor(name)


def vendor_wire_for_path(path: str) -> VendorPlugin | None:
    """The vendor wire a recorded request ``path`` (its query left out) went to, or ``None``.

    A plug-in that cannot be loaded is passed over (`registry_problem_lines`
    names it). Raises `VendorError` ``VENDOR_WIRE_CONFLICT`` when two wires
    claim the path alike.
    """
    from course_vendor import vendor_for_path

    return vendor_for_path(path.partition("?")[0])


def registry_problem_lines(command: str) -> list[str]:
    """One line for each problem of the installed vendor plug-ins, for ``course COMMAND``'s stderr.

    Loads every plug-in not yet loaded; each problem is said once, as
    ``course COMMAND: CODE: MESSAGE`` (each line ends with a newline).
    """
    from course_vendor import registry_problems

    return [
        format_command_problem(command, problem.code.value, problem.message) + "\n"
        for problem in registry_problems()
    ]
