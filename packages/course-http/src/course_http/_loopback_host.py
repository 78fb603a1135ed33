"""Whether a recorded host names this machine: `host_is_loopback`."""

from __future__ import annotations

import ipaddress

__all__ = ["host_is_loopback", "hostname_of"]


def hostname_of(host: str) -> str:
    """``host`` (``host[:port]``) without its port and brackets, its case kept.

    ``[::1]:8000`` gives ``::1``; ``api.x.ai:443`` gives ``api.x.ai``.
    """
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if ":" in host else host


def host_is_loopback(host: str) -> bool:
    """Whether ``host`` (``host[:port]``) names this machine.

    ``localhost`` and its subdomains, a loopback address (``127.0.0.0/8``,
    ``::1``) or the unspecified one (``0.0.0.0``, ``::``). Such a host says
    nothing of what answers there: any local server listens on any port.
    """
    name = hostname_of(host).lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified
