"""Made-up vendor distributions on disk, for the registry's tests: broken, hostile and rival ones.

A `MadeUpSite` is a folder laid out as ``site-packages`` is: each
distribution a ``NAME-0.0.1.dist-info`` folder (its ``METADATA`` and its
``entry_points.txt``) beside the modules its entry points name.
``importlib.metadata`` reads it as it reads an installed package, so each
entry point has its distribution (``EntryPoint.dist``). `MadeUpSite.points`
gives the entry points of the folder alone (for a `VendorRegistry` of a
test's own); `MadeUpSite.installed` puts the folder on ``sys.path`` and scans
the process's registry again until the block ends, then takes it all away.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.metadata import EntryPoint, distributions
from pathlib import Path

from course_vendor import (
    VENDOR_ENTRY_POINT_GROUP,
    VendorRegistry,
    rescan_installed_vendors,
)

__all__ = ["BROKEN_MODULES", "MadeUpSite", "wire_module"]


def wire_module(
    name: str, path: str, base_url: str = "https://made-up.invalid", *, module_doc: str = ""
) -> str:
    """The source of a module whose ``PLUGIN`` is a working `VendorPlugin` of wire ``name``.

    Its wire posts to ``path`` under ``base_url``; its model is never built
    (nothing plays a body through it).
    """
    return f'''"""A made-up wire {name!r}{module_doc}."""

from course_vendor import VendorPlugin, VendorWire


def _no_model(transport):
    raise AssertionError("a made-up wire plays nothing")


PLUGIN = VendorPlugin(
    wire=VendorWire(
        vendor={name!r},
        key_variable="MADE_UP_KEY",
        path={path!r},
        describe_error=lambda body: None,
    ),
    sdk="made-up-sdk",
    base_url={base_url!r},
    base_url_variable="MADE_UP_BASE_URL",
    named_events=False,
    replay_model=_no_model,
    grammar=_no_model,
)
'''


BROKEN_MODULES = {
    "an import that fails": (
        "import course_no_such_package_anywhere\nPLUGIN = None\n",
        ModuleNotFoundError,
    ),
    "a RuntimeError at import": (
        "raise RuntimeError('the plug-in refuses to load')\n",
        RuntimeError,
    ),
    "a SyntaxError": ("PLUGIN = (\n", SyntaxError),
    "a missing attribute": ("OTHER = 1\n", AttributeError),
    "a VendorPlugin with a field of the wrong type": (
        "from course_vendor import VendorPlugin\n"
        "PLUGIN = VendorPlugin(wire='anthropic', sdk='x', base_url='x', base_url_variable='x',"
        " named_events=False, replay_model=print, grammar=print)\n",
        TypeError,
    ),
}
"""A plug-in module that cannot be imported, by what is wrong: its source and what it raises."""


class MadeUpSite:
    """A folder of made-up distributions, each registering wires under ``course.vendors``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.modules: list[str] = []
        root.mkdir(parents=True, exist_ok=True)

    def module(self, name: str, source: str) -> str:
        """Write the module ``name`` (its ``source``); return its name."""
        (self.root / f"{name}.py").write_text(source, encoding="utf-8")
        self.modules.append(name)
        return name

    def distribution(self, name: str, wires: dict[str, str]) -> None:
        """Install the distribution ``name`` here, registering each wire name as its entry point."""
        info = self.root / f"{name.replace('-', '_')}-0.0.1.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.0.1\n", encoding="utf-8"
        )
        lines = "".join(f"{wire} = {value}\n" for wire, value in wires.items())
        (info / "entry_points.txt").write_text(
            f"[{VENDOR_ENTRY_POINT_GROUP}]\n{lines}", encoding="utf-8"
        )

    def points(self) -> list[EntryPoint]:
        """The ``course.vendors`` entry points of this folder's distributions alone."""
        return [
            point
            for dist in distributions(path=[str(self.root)])
            for point in dist.entry_points
            if point.group == VENDOR_ENTRY_POINT_GROUP
        ]

    def registry(self, *others: EntryPoint) -> VendorRegistry:
        """A registry of ``others`` (the installed packages' entry points) and this folder's.

        The folder's modules are importable until `forget` (or `installed`'s end).
        """
        if str(self.root) not in sys.path:
            sys.path.insert(0, str(self.root))
            importlib.invalidate_caches()
        return VendorRegistry([*others, *self.points()])

    def forget(self) -> None:
        """Take the folder off ``sys.path`` and its modules out of ``sys.modules``."""
        while str(self.root) in sys.path:
            sys.path.remove(str(self.root))
        for name in self.modules:
            sys.modules.pop(name, None)

    @contextmanager
    def installed(self) -> Iterator[None]:
        """This folder installed in the process: the registry scanned again, then without it."""
        sys.path.insert(0, str(self.root))
        importlib.invalidate_caches()
        try:
            rescan_installed_vendors()
            yield
        finally:
            self.forget()
            rescan_installed_vendors()
