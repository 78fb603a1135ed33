"""VendorWire: the fixed facts of one vendor API, options it sends included."""

from __future__ import annotations

from dataclasses import dataclass
from typing import final

from course_http import SSE_FRAMING, ErrorBodyReader, EventFraming
from course_vendor._config import VendorConfig
from course_vendor._content_support import ContentSupport
from course_vendor._support import OptionSupport

__all__ = ["VendorWire"]


@final
@dataclass(frozen=True, slots=True)
class VendorWire:
    """The fixed facts of one vendor API: what a `VendorModel` needs besides its configuration.

    ``vendor`` names the wire format in every `VendorError`
    (``"anthropic-messages"``); ``key_variable`` is the environment variable
    holding the API key (``ANTHROPIC_API_KEY``), ``more_key_variables`` the
    ones read after it, in order, when it is unset or empty; ``path`` is the
    endpoint under the base URL (``/v1/messages``), where ``{model}`` (an API
    that names the model in its path) stands for the configured model;
    ``query`` the query string every call sends, without its ``?`` (``""``:
    none); ``describe_error`` reads the vendor's HTTP error bodies;
    ``framing`` says how a streamed body is cut into events
    (``course_http.SSE_FRAMING`` by default); ``options`` says which
    configuration options the API sends (``None``: none, so a model refuses
    every one that is set); ``content`` what it sends of a transcript beyond
    plain text and Tool calls (``None``: nothing, so a model refuses every
    such block before sending, see ``check_sendable``); ``signs`` says that
    the wire signs each request (AWS SigV4): a call without a key is then
    signed by the model's `VendorModel._signed`, not refused.
    """

    vendor: str
    key_variable: str
    path: str
    describe_error: ErrorBodyReader
    more_key_variables: tuple[str, ...] = ()
    query: str = ""
    framing: EventFraming = SSE_FRAMING
    options: OptionSupport | None = None
    content: ContentSupport | None = None
    signs: bool = False
    encode_model: bool = False

    @property
    def key_variables(self) -> tuple[str, ...]:
        """Every environment variable a key is read from, in the order they are read."""
        return (self.key_variable, *self.more_key_variables)

    def request_path(self, model: str) -> str:
        """The path (and query) a call to ``model`` sends under a base URL without a path."""
        named = "".join(map(_ENCODED.__getitem__, model)) if self.encode_model else model
        path = self.path.replace(_MODEL_FIELD, named)
        return f"{path}?{self.query}" if self.query else path

    def base_path(self, path: str) -> str | None:
        """What comes before this wire's endpoint in the recorded ``path`` (its query left out).

        ``""`` for a call to a base URL without a path, ``"/v1"`` for one
        whose base URL ends in ``/v1``; ``None`` when ``path`` is not this
        wire's endpoint. A ``{model}`` in the wire's path matches one path
        segment (no ``/``), and never an empty one.
        """
        head, field, tail = self.path.partition(_MODEL_FIELD)
        if not field:
            return path[: -len(self.path)] if path.endswith(self.path) else None
        if not path.endswith(tail):
            return None
        before = path[: len(path) - len(tail)]
        start = before.rfind(head) if head else len(before)
        if start < 0:
            return None
        model = before[start + len(head) :]
        if not model or "/" in model:
            return None
        return before[:start]

    def check_options(self, config: VendorConfig) -> None:
        """Refuse what of ``config`` this API cannot send (see `OptionSupport.check`).

        Raises `VendorConfigError` ``VENDOR_INVALID_CONFIG`` naming the field and `vendor`.
        """
        (self.options or OptionSupport(self.vendor)).check(config)


_MODEL_FIELD = "{model}"


class _Encoded(dict[str, str]):
    """Each character as a path segment holds it: itself when unreserved, else its UTF-8 %XX."""

    def __missing__(self, character: str) -> str:
        unreserved = character.isascii() and (character.isalnum() or character in "-._~")
        encoded = (
            character
            if unreserved
            else "".join(f"%{byte:02X}" for byte in character.encode("utf-8", "surrogatepass"))
        )
        self[character] = encoded
        return encoded


_ENCODED = _Encoded()
