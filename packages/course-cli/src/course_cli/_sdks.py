"""The base URL each vendor's official SDK takes to reach ``course serve``.

An SDK joins its endpoint paths to its base URL, spelled as its environment
variable spells it: ``ANTHROPIC_BASE_URL`` is the host (the path is
``/v1/messages``), ``OPENAI_BASE_URL`` ends with the version
(``https://api.openai.com/v1``; the paths are ``/chat/completions`` and
``/responses``). The adapters take their base URLs the same way, and each
vendor's plug-in says its SDK, its variable and its path under that base URL.
A cassette keeps the full path each call went to, so what comes before a
wire's path is the path its base URL had when the call was recorded
(``/v1``, or ``/openai/v1`` for a compatible vendor), and the server answers
an SDK whose base URL is the server's with that path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from course_cli._wires import load_wire, vendor_wire_for_path, wire_names

if TYPE_CHECKING:
    from course_http import VendorError
    from course_vendor import VendorPlugin

__all__ = ["SdkBaseUrl", "sdk_banner_lines", "sdk_base_urls", "upstream_sdk_base_urls"]


@dataclass(frozen=True, slots=True)
class SdkBaseUrl:
    """What one SDK is pointed at: its name, the base URL, and the variable that holds it."""

    sdk: str
    url: str
    variable: str


def sdk_base_urls(
    root: str,
    recorded_paths: Iterable[str],
    conflict: Callable[[VendorError], object] | None = None,
) -> list[SdkBaseUrl]:
    """For each SDK whose endpoints the ``recorded_paths`` call, its base URL under ``root``.

    In the order of the SDKs' names, then of the URLs; one entry per SDK and
    path prefix. A recorded path no installed vendor wire claims gives none,
    nor does one that two wires claim alike: its ``VENDOR_WIRE_CONFLICT``
    goes to ``conflict``, once per path.
    """
    from course_http import VendorError

    found: set[tuple[str, str, str]] = set()
    conflicting: set[str] = set()
    for recorded in recorded_paths:
        path = recorded.partition("?")[0]
        try:
            plugin = vendor_wire_for_path(path)
        except VendorError as error:
            if conflict is not None and path not in conflicting:
                conflict(error)
            conflicting.add(path)
            continue
        prefix = None if plugin is None else plugin.wire.base_path(path)
        if plugin is not None and prefix is not None:
            found.add((plugin.sdk, prefix, plugin.base_url_variable))
    return [SdkBaseUrl(sdk, root + prefix, variable) for sdk, prefix, variable in sorted(found)]


def upstream_sdk_base_urls(upstream: str) -> list[SdkBaseUrl]:
    """For each SDK that may record through a proxy of ``upstream``, its base URL's path there.

    The SDKs whose default API is on ``upstream``'s host, or every installed
    one when none is (a compatible vendor, a local server). The path is the
    one the SDK's base URL has by default (the OpenAI SDK's ``/v1``), unless
    ``upstream`` already ends with it: the proxy forwards each path to
    ``upstream`` + that path. In the order of `sdk_base_urls`. A plug-in
    that cannot be loaded names no SDK (the command names it apart).
    """
    plugins = _loadable(wire_names()[1:])
    host, upstream_path = _host_and_path(upstream)
    served = [plugin for plugin in plugins if _host_and_path(plugin.base_url)[0] == host]
    found = {
        (
            plugin.sdk,
            "" if upstream_path.endswith(plugin.default_base_path) else plugin.default_base_path,
            plugin.base_url_variable,
        )
        for plugin in served or plugins
    }
    return [SdkBaseUrl(sdk, prefix, variable) for sdk, prefix, variable in sorted(found)]


def sdk_banner_lines(root: str, sdks: Iterable[SdkBaseUrl]) -> str:
    """One line per SDK under the server's ``root``: ``  openai: ROOT/v1 (OPENAI_BASE_URL)``."""
    return "".join(f"  {sdk.sdk}: {root}{sdk.url} ({sdk.variable})\n" for sdk in sdks)


def _host_and_path(url: str) -> tuple[str, str]:
    """The host (lower-cased, with its port) and the path (no final ``/``) of an http(s) URL."""
    host, _, path = url.split("://", 1)[-1].partition("/")
    return host.lower(), f"/{path}".rstrip("/")


def _loadable(names: Iterable[str]) -> list[VendorPlugin]:
    from course_http import VendorError

    plugins = []
    for name in names:
        try:
            plugins.append(load_wire(name))
        except VendorError:
            continue
    return plugins
