"""The one rule for a vendor's base URL, as its official SDK and environment variable spell it.

A base URL is where the vendor's endpoint paths are joined: ``https://api.anthropic.com``
(+ ``/v1/messages``), ``https://api.openai.com/v1`` (+ ``/chat/completions``), a
proxy's or a compatible vendor's with a path of its own. It is checked once, in
`VendorConfig`, by the same rules the live transport applies, so a configuration
that is accepted is one a model can be built on.
"""

from __future__ import annotations

from course_protocol.untrusted import described_setting
from course_vendor._config_errors import config_error

__all__ = ["checked_base_url"]

_SCHEMES = ("http", "https")
_MAX_PORT = 65535


def checked_base_url(value: object, path: str) -> str:
    """``value`` as a base URL, any trailing ``/`` dropped (the paths are joined after it).

    It must be a ``str``: an ``http://`` or ``https://`` URL with a host (a
    name or a bracketed IPv6 literal, and a port from 1 to 65535, if any),
    without whitespace or control characters, without credentials (send
    them in headers) and without a query or a fragment.
    Raises `VendorConfigError` ``VENDOR_INVALID_CONFIG`` naming ``path`` otherwise.
    """
    if type(value) is not str:
        raise config_error(path, f"must be a str, got {described_setting(value)}")
    if any(character.isspace() or not character.isprintable() for character in value):
        raise config_error(path, "must not hold whitespace or control characters")
    scheme, separator, _ = value.partition("://")
    if not separator or scheme not in _SCHEMES:
        raise config_error(path, "must be an http:// or https:// URL with a host")
    if "?" in value or "#" in value:
        raise config_error(path, "must not have a query or a fragment")
    authority = value[len(scheme) + 3 :].partition("/")[0]
    if "@" in authority:
        raise config_error(path, "must not hold credentials: send them in headers")
    parsed = _host_and_port(authority)
    if parsed is None:
        raise config_error(path, "is not a valid URL")
    host, port = parsed
    if not host or port == 0:
        raise config_error(path, "must be an http:// or https:// URL with a host")
    return value.rstrip("/")


def _host_and_port(authority: str) -> tuple[str, int | None] | None:
    """The host and port of ``authority`` (``None``: no port), or ``None`` when it is torn."""
    # Parsed here, not by urllib: the kit imports no network module (the
    # no-network import contract); the live transport parses the URL again.
    if authority.startswith("["):
        literal, bracket, after = authority[1:].partition("]")
        if not bracket or not literal or (after and not after.startswith(":")):
            return None
        host, port = literal, after[1:]
    else:
        host, _, port = authority.partition(":")
    if not port:
        return host, None
    if not port.isascii() or not port.isdigit() or int(port) > _MAX_PORT:
        return None
    return host, int(port)
