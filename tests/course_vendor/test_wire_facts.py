"""VendorWire's facts beyond one fixed path: a model named in the path, a query, more key variables.

A wire whose endpoint names the model (``/v1beta/models/{model}:...``)
sends the configured model there, and its base path is found in a recorded
path by the template, one path segment for the model; a wire may read its
key from several variables, in order; and its framing reaches the stream.
"""

from __future__ import annotations

import pytest

from course_http import SSE_FRAMING, RecordedResponse, RecordedTransport, VendorError
from course_http import VendorErrorCode as C
from course_vendor import VendorWire, load_vendor
from course_vendor._api_key import environment_api_key
from tests.course_vendor.wires import Wire, every_wire

TEMPLATED = VendorWire("v", "V_KEY", "/v1/models/{model}:run", lambda body: None, query="alt=x")
FIXED = VendorWire("v", "V_KEY", "/v1/messages", lambda body: None)


def test_a_fixed_path_is_sent_as_is_and_a_template_names_the_model() -> None:
    assert FIXED.request_path("m") == "/v1/messages"
    assert TEMPLATED.request_path("gemini-x") == "/v1/models/gemini-x:run?alt=x"
    assert FIXED.framing is SSE_FRAMING
    assert (FIXED.key_variables, FIXED.query) == (("V_KEY",), "")


def test_a_wire_that_encodes_its_model_sends_it_as_one_percent_encoded_segment() -> None:
    encoding = VendorWire("v", "V_KEY", "/model/{model}/run", lambda body: None, encode_model=True)

    assert encoding.request_path("a.b-c_d~e:0") == "/model/a.b-c_d~e%3A0/run"
    assert encoding.request_path("arn:aws:x/y z") == "/model/arn%3Aaws%3Ax%2Fy%20z/run"
    assert encoding.request_path("\u00e9") == "/model/%C3%A9/run"
    assert encoding.base_path("/gw/model/a%3A0/run") == "/gw"
    assert TEMPLATED.request_path("a:b") == "/v1/models/a:b:run?alt=x"


@pytest.mark.parametrize(
    ("wire", "path", "base"),
    [
        (FIXED, "/v1/messages", ""),
        (FIXED, "/proxy/v1/messages", "/proxy"),
        (FIXED, "/v1/messages/", None),
        (FIXED, "/v1/other", None),
        (TEMPLATED, "/v1/models/m:run", ""),
        (TEMPLATED, "/gw/v1/models/m-1.5:run", "/gw"),
        (TEMPLATED, "/v1/models/:run", None),
        (TEMPLATED, "/v1/models/a/b:run", None),
        (TEMPLATED, "/v1/models/m:walk", None),
        (TEMPLATED, "/v2/models/m:run", None),
    ],
)
def test_the_base_path_is_what_precedes_the_wires_endpoint(
    wire: VendorWire, path: str, base: str | None
) -> None:
    assert wire.base_path(path) == base


@every_wire
def test_each_registered_wire_finds_the_base_path_before_its_endpoint(wire: Wire) -> None:
    endpoint = wire.path.partition("?")[0]
    registered = load_vendor(wire.name).wire
    prefixes = ["", "/proxy", "/openai/v1"]

    assert [registered.base_path(prefix + endpoint) for prefix in prefixes] == prefixes
    assert registered.base_path(endpoint + "/other") is None


@pytest.mark.parametrize(
    ("first", "second", "key"),
    [("k-first-123", "k-second-123", "k-first-123"), ("", "k-second-123", "k-second-123")],
)
def test_the_key_is_the_first_variable_set(
    monkeypatch: pytest.MonkeyPatch, first: str, second: str, key: str
) -> None:
    monkeypatch.setenv("V_FIRST", first)
    monkeypatch.setenv("V_SECOND", second)

    assert environment_api_key(("V_FIRST", "V_SECOND"), model="M", vendor="v") == key


def test_no_key_names_every_variable_and_a_bad_one_names_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("V_FIRST", raising=False)
    monkeypatch.delenv("V_SECOND", raising=False)
    with pytest.raises(VendorError) as missing:
        environment_api_key(("V_FIRST", "V_SECOND"), model="M", vendor="v")
    monkeypatch.setenv("V_SECOND", "bad key")
    with pytest.raises(VendorError) as bad:
        environment_api_key(("V_FIRST", "V_SECOND"), model="M", vendor="v")

    assert missing.value.code is C.VENDOR_MISSING_API_KEY
    assert "set V_FIRST or V_SECOND" in missing.value.message
    assert bad.value.message.startswith("V_SECOND holds a character")
    assert "bad key" not in bad.value.message


async def test_stream_events_refuses_a_framing_that_is_not_one() -> None:
    from course_http import HttpRequest, stream_events

    async with RecordedTransport([RecordedResponse(200, {"content-type": "x/y"}, b"")]) as sent:
        events = stream_events(
            sent,
            HttpRequest("/v1/x", {}),
            vendor="v",
            describe_error=lambda body: None,
            framing="sse",  # type: ignore[arg-type]
        )
        with pytest.raises(TypeError, match="framing must be an EventFraming"):
            await events.__anext__()
