"""What a recorded host says of a call's wire: whose default base URL it is, if anyone's.

A cassette keeps the host each call went to (``api.mistral.ai``). Where
several wires share an endpoint (every OpenAI-compatible server answers
``/chat/completions``), the host tells them apart: it is the host of one
wire's default base URL. Two kinds of host say nothing:

- a loopback host (``localhost``, ``127.0.0.1``, ``[::1]``): any local server
  listens on any port (``course serve``, a test's stand-in API, a proxy,
  Ollama on 11434 or vLLM on 8000 by default, and either on another), so a
  default port is no evidence;
- a host no wire's default base URL has (a proxy, a gateway, a server of
  the user's own).

A label written in capitals in a default base URL is a placeholder the
vendor's documentation writes for the user's own name (Azure's
``YOUR-RESOURCE-NAME.openai.azure.com``), and stands for any one label.
"""

from __future__ import annotations

from course_http import hostname_of

__all__ = ["base_url_host", "host_is_of"]


def base_url_host(base_url: str) -> str:
    """The host of ``base_url`` as written (its case kept), without scheme, port or path."""
    authority = base_url.split("://", 1)[-1].partition("/")[0]
    return hostname_of(authority.rpartition("@")[2])


def host_is_of(host: str, base_url: str) -> bool:
    """Whether the recorded ``host`` is the host of ``base_url`` (a capitalised label: any one)."""
    recorded = hostname_of(host).lower().rstrip(".").split(".")
    written = base_url_host(base_url).rstrip(".").split(".")
    if not written[0] or len(recorded) != len(written):
        return False
    return all(
        pattern.isupper() or label == pattern.lower()
        for label, pattern in zip(recorded, written, strict=True)
    )
