"""Header values as text and back: one character per byte (Latin-1), so no byte is lost.

HTTP carries header values as bytes; a cassette, a `RecordedResponse` and a
loopback script hold them as text. httpx2 reads them as it guesses (ASCII,
else UTF-8, else Latin-1) and sends text as ASCII only, so a value outside
ASCII (a UTF-8 ``€`` from a server) would change on its way through a
recording, or fail the answer that passes it on. The course reads every
header value as Latin-1 and writes it back the same way: the bytes that
came are the bytes that go.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["header_bytes", "header_text"]


def header_text(raw: Iterable[tuple[bytes, bytes]]) -> dict[str, str]:
    """Raw header pairs (httpx2's ``headers.raw``) as text, each byte one character (Latin-1).

    Names are lower-cased; a name given more than once has its values
    joined by ``", "``, as HTTP reads a repeated header. `header_bytes`
    gives each value's bytes back.
    """
    text: dict[str, str] = {}
    for raw_name, raw_value in raw:
        name = raw_name.decode("latin-1").lower()
        value = raw_value.decode("latin-1")
        text[name] = f"{text[name]}, {value}" if name in text else value
    return text


def header_bytes(headers: Iterable[tuple[str, str]]) -> list[tuple[bytes, bytes]]:
    """Header ``(name, value)`` pairs as the bytes they are sent as.

    Latin-1 (each character one byte: the bytes `header_text` read) when
    every character of the name or value is one; otherwise UTF-8, what a
    server that writes such text sends (a value built in code holding
    ``€``). Never raises for a ``str``.
    """
    return [(_encoded(name), _encoded(value)) for name, value in headers]


def _encoded(text: str) -> bytes:
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")
