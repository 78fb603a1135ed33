"""HttpRequest and Timeouts: checked at construction, immutable, and never showing a key."""

from __future__ import annotations

import dataclasses
import json

import pytest
from frozendict import frozendict

from course_http import SECRET_HEADERS, HttpRequest, Timeouts
from course_protocol import JSON_MAX_DEPTH
from tests.course_http.helpers import KEY


def test_a_request_snapshots_its_body_and_lower_cases_its_header_names() -> None:
    body: dict[str, object] = {"messages": [{"role": "user", "content": "hi"}], "n": 1}
    headers = {"X-Api-Key": KEY, "Anthropic-Version": "2023-06-01"}
    call = HttpRequest("/v1/messages", body, headers)
    body["n"] = 2
    body["messages"].append("more")  # type: ignore[attr-defined]
    headers["X-Api-Key"] = "changed"
    assert call.body == {"messages": ({"role": "user", "content": "hi"},), "n": 1}
    assert type(call.body) is frozendict
    assert call.headers == {"x-api-key": KEY, "anthropic-version": "2023-06-01"}
    assert type(call.headers) is frozendict
    assert call.method == "POST"
    with pytest.raises(dataclasses.FrozenInstanceError):
        call.path = "/other"  # type: ignore[misc]


def test_the_content_is_compact_utf8_json() -> None:
    call = HttpRequest("/v1/x", {"text": "héllo 😀", "list": [1, 2.5, None, True], "o": {}})
    assert call.content == '{"text":"héllo 😀","list":[1,2.5,null,true],"o":{}}'.encode()


def test_a_lone_surrogate_is_escaped_so_the_content_is_still_valid_json() -> None:
    call = HttpRequest("/v1/x", {"text": "a\ud800é"})
    assert call.content == b'{"text":"a\\ud800\\u00e9"}'
    assert json.loads(call.content) == {"text": "a\ud800é"}


def test_the_repr_hides_every_secret_header() -> None:
    headers = {name: f"{KEY}-{name}" for name in SECRET_HEADERS} | {"anthropic-version": "1"}
    shown = repr(HttpRequest("/v1/x", {"a": 1}, headers))
    assert KEY not in shown
    assert "'anthropic-version': '1'" in shown
    assert shown.startswith("HttpRequest(method='POST', path='/v1/x', headers={")


@pytest.mark.parametrize(
    "path",
    ["v1/messages", "//evil.example/x", "/a b", "/a#frag", "/\u00e9", "", "/a\nb", "/a\x00"],
)
def test_a_path_that_is_not_an_absolute_path_on_the_base_url_is_refused(path: str) -> None:
    with pytest.raises(ValueError, match="path"):
        HttpRequest(path, {})


def test_a_body_that_is_not_a_json_object_is_refused_naming_its_path() -> None:
    with pytest.raises(ValueError, match="body"):
        HttpRequest("/x", [1, 2])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"body\.a\[0\]"):
        HttpRequest("/x", {"a": [float("nan")]})
    deep: dict[str, object] = {}
    cursor = deep
    for _ in range(JSON_MAX_DEPTH + 5):
        cursor["d"] = {}
        cursor = cursor["d"]  # type: ignore[assignment]
    with pytest.raises(ValueError, match="body"):
        HttpRequest("/x", deep)


@pytest.mark.parametrize(
    ("headers", "error", "match"),
    [
        ({"bad name": "v"}, ValueError, "not an HTTP token"),
        ({"": "v"}, ValueError, "not an HTTP token"),
        ({1: "v"}, TypeError, "header names"),
        ({"x-api-key": 5}, TypeError, r"headers\['x-api-key'\]"),
        ({"x-api-key": f"{KEY}\r\nx-evil: 1"}, ValueError, r"headers\['x-api-key'\]"),
        ({"x-api-key": f" {KEY}"}, ValueError, r"headers\['x-api-key'\]"),
        ({"x-api-key": f"{KEY}é"}, ValueError, r"headers\['x-api-key'\]"),
        ({"X-Api-Key": KEY, "x-api-key": KEY}, ValueError, "given twice"),
        ({"Content-Type": "text/plain"}, ValueError, "set by the transport"),
        ({"accept": "*/*"}, ValueError, "set by the transport"),
        ({"host": "elsewhere"}, ValueError, "set by the transport"),
    ],
)
def test_bad_headers_are_refused_naming_the_header_never_its_value(
    headers: dict[object, object], error: type, match: str
) -> None:
    with pytest.raises(error, match=match) as caught:
        HttpRequest("/x", {}, headers)  # type: ignore[arg-type]
    assert KEY not in str(caught.value)


@pytest.mark.parametrize(
    ("method", "error"), [("post", ValueError), ("P0ST", ValueError), (1, TypeError)]
)
def test_the_method_must_be_upper_case_letters(method: object, error: type) -> None:
    with pytest.raises(error, match="method"):
        HttpRequest("/x", {}, method=method)  # type: ignore[arg-type]


def test_a_path_of_the_wrong_type_or_headers_not_a_mapping_are_type_errors() -> None:
    with pytest.raises(TypeError, match="path"):
        HttpRequest(b"/x", {})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="headers"):
        HttpRequest("/x", {}, [("a", "b")])  # type: ignore[arg-type]


def test_the_default_timeouts_and_their_checks() -> None:
    assert Timeouts() == Timeouts(connect=10.0, read=600.0, write=30.0, pool=10.0)
    assert Timeouts(read=None).read is None
    for bad in (0, -1.0, float("inf"), float("nan")):
        with pytest.raises(ValueError, match=r"Timeouts\.read"):
            Timeouts(read=bad)
    for wrong in (True, "5", [5]):
        with pytest.raises(TypeError, match=r"Timeouts\.connect"):
            Timeouts(connect=wrong)  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        Timeouts().read = 1.0  # type: ignore[misc]
