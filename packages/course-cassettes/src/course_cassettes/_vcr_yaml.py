"""A VCR.py cassette's YAML text as plain data, read as data only and within bounds.

VCR.py writes its cassettes with PyYAML: plain scalars, lists and mappings,
and ``!!binary`` (base64) for a body that is not UTF-8. That is all this
reader takes. Before anything is built, one pass over the parser's events
(PyYAML parses without recursion) refuses, naming the path of the node:

- any other tag: ``!!python/object...`` would run code in an unsafe loader,
  ``!!python/name``, ``!!set``, ``!!timestamp`` or a local ``!tag`` are not
  what VCR.py writes;
- nesting deeper than `VCR_MAX_DEPTH` (PyYAML builds nodes recursively);
- more than `VCR_MAX_NODES` nodes once every alias is expanded (a "billion
  laughs" document is a few lines that expand past any memory);
- a key given twice in one mapping, a key that is not text, more than one
  document.

Only then is the document built, by PyYAML's safe loader.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

import yaml
from returns.result import Failure, Result, Success

from course_cassettes._cassette_json import recording_invalid
from course_cassettes._json_paths import show_json_path
from course_http import VendorError
from course_protocol import JSON_MAX_DEPTH

__all__ = ["VCR_MAX_DEPTH", "VCR_MAX_NODES", "RefusedError", "loads_vcr_yaml"]

VCR_MAX_DEPTH: Final = JSON_MAX_DEPTH + 8
"""The deepest nesting of lists and mappings read: a JSON body's limit, plus the cassette's
own levels around it (``interactions[0].response.parsed_body``)."""

VCR_MAX_NODES: Final = 2_000_000
"""The most scalars, lists and mappings a cassette may hold, aliases expanded."""

_STANDARD: Final = "tag:yaml.org,2002:"
_READ_TAGS: Final = frozenset(
    {None, "!"}
    | {_STANDARD + name for name in ("str", "int", "float", "bool", "null", "binary", "seq", "map")}
)

# libyaml when the wheel has it (every common platform): the same safe loader, faster.
_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class RefusedError(Exception):
    """Why a part of a VCR.py cassette cannot be converted: ``path`` names it, ``message`` says why.

    Raised inside the conversion and caught there: it never leaves `convert_vcr_cassette`.
    """

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


@dataclass
class _Collection:
    """A list or mapping whose events are being read."""

    is_mapping: bool
    anchor: str | None
    path: tuple[str | int, ...]
    size: int = 1
    height: int = 1
    items: int = 0
    key: str | None = None
    keys: set[str] = field(default_factory=set)

    def child_path(self) -> tuple[str | int, ...]:
        if not self.is_mapping:
            return (*self.path, self.items)
        return self.path if self.key is None else (*self.path, self.key)


def loads_vcr_yaml(text: bytes | str) -> Result[object, VendorError]:
    """The plain data (``dict``, ``list``, ``str``, ``bytes``, numbers) of the YAML ``text``.

    ``bytes`` must be UTF-8 (a byte-order mark is allowed). Returns
    ``Failure`` with ``HTTP_RECORDING_INVALID`` naming the path of the first
    node it refuses (see the module) or the line and column where the text
    stops being YAML. Never raises.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            return Failure(recording_invalid(f"is not UTF-8 text (byte {error.start})"))
    try:
        _check_events(text)
        return Success(yaml.load(text, Loader=_Loader))
    except RefusedError as problem:
        return Failure(recording_invalid(str(problem)))
    except yaml.MarkedYAMLError as error:
        return Failure(recording_invalid(_marked(error)))
    except yaml.YAMLError as error:
        return Failure(recording_invalid(f"is not YAML: {error}"))


def _marked(error: yaml.MarkedYAMLError) -> str:
    mark = error.problem_mark or error.context_mark
    where = f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else "$"
    return f"{where}: is not YAML: {error.problem or error.context}"


def _check_events(text: str) -> None:
    """Raise `RefusedError` for the first node of ``text`` this reader does not take."""
    open_: list[_Collection] = []
    anchors: dict[str, tuple[int, int]] = {}
    nodes = 0
    documents = 0
    parser = _Loader(text)
    try:
        while parser.check_event():
            # The stubs leave it untyped; the parser returns one event.
            event: yaml.Event = parser.get_event()  # type: ignore[no-untyped-call]
            if isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise RefusedError("$", "holds more than one YAML document")
            elif isinstance(event, yaml.CollectionEndEvent):
                done = open_.pop()
                _placed(open_, anchors, done.anchor, (done.size, done.height), None)
            elif isinstance(event, yaml.NodeEvent):
                path = open_[-1].child_path() if open_ else ()
                # An alias counts as many nodes as the node it names: what building it makes.
                size, height = _read_node(event, path, len(open_), anchors)
                nodes += size if isinstance(event, yaml.AliasEvent) else 1
                if nodes > VCR_MAX_NODES:
                    raise RefusedError(
                        _shown(path), f"makes the cassette hold over {VCR_MAX_NODES} nodes"
                    )
                if isinstance(event, yaml.CollectionStartEvent):
                    if open_ and open_[-1].is_mapping and open_[-1].key is None:
                        raise RefusedError(_shown(path), "holds a key that is not text")
                    is_mapping = isinstance(event, yaml.MappingStartEvent)
                    open_.append(_Collection(is_mapping, event.anchor, path))
                else:
                    scalar = event.value if isinstance(event, yaml.ScalarEvent) else None
                    _placed(open_, anchors, event.anchor, (size, height), scalar)
    finally:
        parser.dispose()


def _read_node(
    event: yaml.NodeEvent,
    path: tuple[str | int, ...],
    depth: int,
    anchors: dict[str, tuple[int, int]],
) -> tuple[int, int]:
    """The nodes and levels ``event``'s node adds at ``depth`` (an open collection: itself)."""
    if isinstance(event, yaml.AliasEvent):
        if event.anchor not in anchors:
            raise RefusedError(_shown(path), f"the alias *{event.anchor} names no anchor")
        size, height = anchors[event.anchor]
    else:
        tag = getattr(event, "tag", None)
        if tag not in _READ_TAGS:
            raise RefusedError(_shown(path), f"the tag {_tag(tag)} is not data VCR.py writes")
        size, height = (1, 0) if isinstance(event, yaml.ScalarEvent) else (1, 1)
    if depth + height > VCR_MAX_DEPTH:
        raise RefusedError(_shown(path), f"nests more than {VCR_MAX_DEPTH} lists and mappings")
    return size, height


def _placed(
    open_: list[_Collection],
    anchors: dict[str, tuple[int, int]],
    anchor: str | None,
    extent: tuple[int, int],
    scalar: str | None,
) -> None:
    """A node read whole (``extent``: its nodes and levels) put in its parent: a mapping's key
    (``scalar``, its text), a mapping's value or a list's item; kept under ``anchor``."""
    if anchor is not None:
        anchors[anchor] = extent
    if not open_:
        return
    parent = open_[-1]
    size, height = extent
    parent.size += size
    parent.height = max(parent.height, height + 1)
    if not parent.is_mapping:
        parent.items += 1
    elif parent.key is not None:
        parent.key = None
    elif scalar is None:
        raise RefusedError(_shown(parent.path), "holds a key that is not text")
    elif scalar in parent.keys:
        raise RefusedError(_shown((*parent.path, scalar)), "is given twice")
    else:
        parent.keys.add(scalar)
        parent.key = scalar


def _shown(path: tuple[str | int, ...]) -> str:
    return show_json_path(path) or "$"


def _tag(tag: object) -> str:
    text = str(tag)
    return f"!!{text.removeprefix(_STANDARD)}" if text.startswith(_STANDARD) else text
