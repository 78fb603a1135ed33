"""A cassette: the calls of one test, each request as sent and each response as received.

The values only; reading and writing the file is `_cassette_file`, recording
`_recording`, replaying `_replay`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal, final, get_args

from course_cassettes._json_paths import JsonPath, parse_json_path, rewrite_at_paths
from course_http import RecordedRequest, RecordedResponse
from course_protocol.slots import slot_setter

__all__ = [
    "CASSETTE_VERSION",
    "CASSETTE_VERSIONS_READ",
    "CASSETTE_VERSION_KEY",
    "Cassette",
    "CassetteCall",
    "MatchOn",
    "Redaction",
    "RequestMatching",
]

CASSETTE_VERSION: Final = 2
"""The cassette format this package writes (it reads `CASSETTE_VERSIONS_READ`).

Version 2 keeps, with each call's request, the ``host`` it went to and the
``wire`` that made it; version 1 kept neither, and its calls' wires are
found from their paths alone."""

CASSETTE_VERSIONS_READ: Final = (1, 2)
"""The cassette formats this package reads."""

CASSETTE_VERSION_KEY: Final = "course_cassette"
"""The top-level key of a cassette file, holding its format version; what tells a cassette apart."""

MatchOn = Literal["request", "order"]
"""How a replayed call is matched with its recorded one: its whole request
(method, path, JSON body), or its position only."""


def _names(value: object, what: str, *, paths: bool) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{what} must be a list or tuple of str, not {type(value).__name__}")
    names = tuple(value)
    for index, name in enumerate(names):
        if type(name) is not str:
            raise TypeError(f"{what}[{index}] must be a str, not {type(name).__name__}")
        if not name:
            raise ValueError(f"{what}[{index}] must not be empty")
        if paths:
            parse_json_path(name)
    if len(set(names)) != len(names):
        raise ValueError(f"{what} names the same thing twice")
    return names


@final
@dataclass(frozen=True, slots=True, init=False)
class Redaction:
    """What is masked in recorded request bodies, on top of what is always kept out.

    ``fields`` are key names whose values are masked wherever they occur
    (``"user_id"``); ``paths`` are JSON paths masked where they point
    (``"metadata.user_id"``, ``"messages[*].content[0].text"``). A masked
    value is written as ``"[redacted]"``. Whatever this says, secret headers
    (`course_http.SECRET_HEADERS`) and headers outside the allow-list never
    reach a cassette, key-like query parameters are masked, and every
    credential the request carried is scrubbed from whatever is written.

    Raises ``TypeError`` or ``ValueError`` for names that are not non-empty
    ``str`` (in a list or tuple, each once) or paths that do not parse.
    """

    fields: tuple[str, ...]
    paths: tuple[str, ...]

    def __init__(self, *, fields: Sequence[str] = (), paths: Sequence[str] = ()) -> None:
        _set_redaction_fields(self, _names(fields, "Redaction.fields", paths=False))
        _set_redaction_paths(self, _names(paths, "Redaction.paths", paths=True))


_set_redaction_fields = slot_setter(Redaction, "fields")
_set_redaction_paths = slot_setter(Redaction, "paths")


@final
@dataclass(frozen=True, slots=True, init=False)
class RequestMatching:
    """How a replay compares each request with the recorded one.

    ``on="request"`` (the default) compares the method, the path and the
    canonical JSON of the body, leaving out the ``ignore`` paths;
    ``on="order"`` serves the calls in order and compares nothing. Raises
    ``ValueError`` for another ``on``, or ``ignore`` paths with ``"order"``,
    and ``TypeError``/``ValueError`` for paths that do not parse.
    """

    on: MatchOn
    ignore: tuple[str, ...]

    def __init__(self, on: MatchOn = "request", *, ignore: Sequence[str] = ()) -> None:
        if on not in get_args(MatchOn):
            raise ValueError(f"RequestMatching.on must be one of {get_args(MatchOn)}")
        checked = _names(ignore, "RequestMatching.ignore", paths=True)
        if on == "order" and checked:
            raise ValueError("RequestMatching(on='order') compares nothing: it takes no ignore")
        _set_request_matching_on(self, on)
        _set_request_matching_ignore(self, checked)


_set_request_matching_on = slot_setter(RequestMatching, "on")
_set_request_matching_ignore = slot_setter(RequestMatching, "ignore")


@final
@dataclass(frozen=True, slots=True, init=False)
class CassetteCall:
    """One recorded call: the ``request`` as sent (redacted) and the ``response`` as received.

    The response's ``end`` says how its body ended: ``"complete"``,
    ``"interrupted"`` (the connection failed mid-body) or ``"stalled"``
    (nothing more came before the client stopped reading or timed out).
    Raises ``TypeError`` for fields of the wrong type.
    """

    request: RecordedRequest
    response: RecordedResponse

    def __init__(self, request: RecordedRequest, response: RecordedResponse) -> None:
        if type(request) is not RecordedRequest:
            raise TypeError(f"request must be a RecordedRequest, not {type(request).__name__}")
        if type(response) is not RecordedResponse:
            raise TypeError(f"response must be a RecordedResponse, not {type(response).__name__}")
        _set_cassette_call_request(self, request)
        _set_cassette_call_response(self, response)


_set_cassette_call_request = slot_setter(CassetteCall, "request")
_set_cassette_call_response = slot_setter(CassetteCall, "response")


@final
@dataclass(frozen=True, slots=True, init=False)
class Cassette:
    """The calls of one test, in the order they were made, and how to replay them.

    ``matching`` is how a replay compares requests; ``redaction`` what was
    masked when recording (a replay masks each request it receives the same
    way before comparing); ``strict`` whether its streams are judged by
    their wire's grammar (``False``: recorded with ``strict=False``, so no
    replay and no ``course check`` judges them). Raises ``TypeError`` for
    fields of the wrong type.
    """

    calls: tuple[CassetteCall, ...]
    matching: RequestMatching
    redaction: Redaction
    strict: bool

    def __init__(
        self,
        calls: Sequence[CassetteCall] = (),
        *,
        matching: RequestMatching | None = None,
        redaction: Redaction | None = None,
        strict: bool = True,
    ) -> None:
        if not isinstance(calls, (list, tuple)):
            raise TypeError(f"calls must be a list or tuple, not {type(calls).__name__}")
        for index, call in enumerate(calls):
            if type(call) is not CassetteCall:
                raise TypeError(f"calls[{index}] must be a CassetteCall")
        matching = RequestMatching() if matching is None else matching
        redaction = Redaction() if redaction is None else redaction
        if type(matching) is not RequestMatching:
            raise TypeError("matching must be a RequestMatching")
        if type(redaction) is not Redaction:
            raise TypeError("redaction must be a Redaction")
        if type(strict) is not bool:
            raise TypeError(f"strict must be a bool, not {type(strict).__name__}")
        _set_cassette_calls(self, tuple(calls))
        _set_cassette_matching(self, matching)
        _set_cassette_redaction(self, redaction)
        _set_cassette_strict(self, strict)

    def paths_matching_nothing(self, paths: Sequence[str]) -> tuple[str, ...]:
        """Those of the JSON ``paths`` that point at nothing in any recorded request body.

        In the order given. An ``ignore`` path that points at nothing leaves
        nothing out of matching: most likely it is misspelt. Raises
        ``TypeError`` or ``ValueError`` for ``paths`` that are not non-empty
        ``str`` paths that parse, each once (as `RequestMatching` does).
        """
        unmatched = []
        for text in _names(paths, "paths", paths=True):
            path = parse_json_path(text)
            if not any(_points_at_something(call.request.body, path) for call in self.calls):
                unmatched.append(text)
        return tuple(unmatched)


_set_cassette_calls = slot_setter(Cassette, "calls")
_set_cassette_matching = slot_setter(Cassette, "matching")
_set_cassette_redaction = slot_setter(Cassette, "redaction")
_set_cassette_strict = slot_setter(Cassette, "strict")


def _points_at_something(body: object, path: JsonPath) -> bool:
    found = False

    def seen(value: object) -> object:
        nonlocal found
        found = True
        return value

    rewrite_at_paths(body, [path], seen)
    return found
