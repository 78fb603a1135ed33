"""The vendor registry against broken, hostile and rival plug-ins, and its one scan per process.

Each made-up distribution (``plugins.py``) is installed beside the
workspace's real vendors: a plug-in that cannot be imported, or is not a
`VendorPlugin`, is a ``VENDOR_PLUGIN_BROKEN`` of its own wire, named once,
and every other wire still works; a wire name two distributions register,
and an endpoint two wires claim alike, are ``VENDOR_WIRE_CONFLICT`` naming
both, never a pick by install order or by name.
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

import pytest

from course_http import RecordedResponse, VendorError
from course_http import VendorErrorCode as C
from course_provider_anthropic import MESSAGES_PLUGIN
from course_provider_openai import CHAT_PLUGIN
from course_vendor import (
    VENDOR_ENTRY_POINT_GROUP,
    VendorPlugin,
    VendorRegistry,
    VendorWire,
    installed_vendors,
    load_vendor,
    recorded_stream_problem,
    registry_problems,
    rescan_installed_vendors,
    vendor_for_path,
    vendor_names,
)
from tests.course_vendor.plugins import BROKEN_MODULES, MadeUpSite, wire_module
from tests.course_vendor.wires import WIRES

HOSTILE = "course-vendor-hostile"
RIVAL = "course-vendor-rival"
SSE = {"content-type": "text/event-stream"}
ANTHROPIC_BODY = next(wire for wire in WIRES if wire.name == "anthropic-messages").text_body(
    "The sum ", "is 42."
)
RECORDED = (
    Path(__file__).resolve().parents[2]
    / ".."
    / "shared"
    / "provider-transcripts"
    / "anthropic-messages"
    / "text-pings-interleaved.sse"
)


def installed_points() -> list[EntryPoint]:
    return list(entry_points(group=VENDOR_ENTRY_POINT_GROUP))


@pytest.fixture
def site(tmp_path: Path) -> Iterator[MadeUpSite]:
    """A folder of made-up distributions, off ``sys.path`` again when the test ends."""
    made = MadeUpSite(tmp_path / "site")
    yield made
    made.forget()


def broken_site(site: MadeUpSite) -> dict[str, type[BaseException]]:
    """One distribution of every broken plug-in; each wire's name with what its import raises."""
    wires: dict[str, str] = {}
    raised: dict[str, type[BaseException]] = {}
    for position, (source, kind) in enumerate(BROKEN_MODULES.values()):
        module = site.module(f"course_broken_plugin_{position}", source)
        wires[f"broken-{position}"] = f"{module}:PLUGIN"
        raised[f"broken-{position}"] = kind
    site.distribution(HOSTILE, wires)
    return raised


@pytest.mark.parametrize("what", list(BROKEN_MODULES))
def test_a_plugin_that_cannot_load_is_a_typed_error_naming_wire_entry_point_and_distribution(
    site: MadeUpSite, what: str
) -> None:
    source, kind = BROKEN_MODULES[what]
    site.module("course_broken_plugin", source)
    site.distribution(HOSTILE, {"broken-wire": "course_broken_plugin:PLUGIN"})
    registry = site.registry(*installed_points())

    with pytest.raises(VendorError) as caught:
        registry.load("broken-wire")

    error = caught.value
    assert (error.code, error.vendor) == (C.VENDOR_PLUGIN_BROKEN, "broken-wire")
    assert error.message.startswith(
        "the wire 'broken-wire' cannot be used: its entry point "
        f"course_broken_plugin:PLUGIN of {HOSTILE} cannot be imported: {kind.__name__}"
    )
    assert type(error.__cause__) is kind
    assert registry.load("anthropic-messages") is MESSAGES_PLUGIN


@pytest.mark.parametrize(
    ("source", "said"),
    [
        ("PLUGIN = {'wire': 'not-a-plugin'}\n", "is a dict, not a VendorPlugin"),
        (
            "from course_provider_openai import CHAT_PLUGIN as PLUGIN\n",
            "is the VendorPlugin of the wire 'openai-chat', not of its name",
        ),
    ],
)
def test_an_entry_point_that_is_not_its_wires_plugin_is_broken_not_a_type_error(
    site: MadeUpSite, source: str, said: str
) -> None:
    site.module("course_not_a_plugin", source)
    site.distribution(HOSTILE, {"not-a-plugin": "course_not_a_plugin:PLUGIN"})
    registry = site.registry(*installed_points())

    with pytest.raises(VendorError) as caught:
        registry.load("not-a-plugin")

    assert caught.value.code is C.VENDOR_PLUGIN_BROKEN
    assert caught.value.message == (
        "the wire 'not-a-plugin' cannot be used: its entry point "
        f"course_not_a_plugin:PLUGIN of {HOSTILE} {said}"
    )
    assert caught.value.__cause__ is None


def test_broken_plugins_are_passed_over_by_path_and_named_once_each_in_name_order(
    site: MadeUpSite, tmp_path: Path
) -> None:
    count = tmp_path / "imports"
    counting = (
        f"with open({str(count)!r}, 'a') as imports:\n"
        "    imports.write('x')\n"
        "raise RuntimeError('counted')\n"
    )
    raised = broken_site(site)
    site.module("course_counted_plugin", counting)
    site.distribution(RIVAL, {"counted": "course_counted_plugin:PLUGIN"})
    registry = site.registry(*installed_points())

    for _ in range(3):
        assert registry.for_path("/v1/messages") is MESSAGES_PLUGIN
        assert registry.for_path("/v1/chat/completions") is CHAT_PLUGIN
        assert registry.for_path("/v1/no-wire-posts-here") is None
    problems = registry.problems()

    assert [(problem.code, problem.vendor) for problem in problems] == [
        *[(C.VENDOR_PLUGIN_BROKEN, name) for name in sorted(raised)],
        (C.VENDOR_PLUGIN_BROKEN, "counted"),
    ]
    assert [type(problem.__cause__) for problem in problems] == [
        *[raised[name] for name in sorted(raised)],
        RuntimeError,
    ]
    assert all(left is right for left, right in zip(problems, registry.problems(), strict=True))
    with pytest.raises(VendorError) as again:
        registry.load("counted")
    assert again.value is problems[-1]
    assert count.read_text() == "x"


def test_problems_imports_every_plugin_not_yet_imported_and_names_none_when_all_load() -> None:
    registry = VendorRegistry(installed_points())

    assert registry.problems() == ()
    assert registry.names() == vendor_names()


def test_a_wire_name_two_distributions_register_is_a_conflict_naming_both(
    site: MadeUpSite,
) -> None:
    site.distribution(RIVAL, {"anthropic-messages": "course_provider_anthropic:MESSAGES_PLUGIN"})
    registry = site.registry(*installed_points())

    with pytest.raises(VendorError) as caught:
        registry.load("anthropic-messages")

    error = caught.value
    assert (error.code, error.vendor) == (C.VENDOR_WIRE_CONFLICT, "anthropic-messages")
    assert error.message == (
        "the wire 'anthropic-messages' is registered by 2 distributions: "
        "course-provider-anthropic (course_provider_anthropic:MESSAGES_PLUGIN) and "
        f"{RIVAL} (course_provider_anthropic:MESSAGES_PLUGIN); uninstall all but one"
    )
    assert registry.problems() == (error,)
    with pytest.raises(VendorError) as again:
        registry.load("anthropic-messages")
    assert again.value is error
    assert registry.names().count("anthropic-messages") == 1
    assert registry.load("openai-chat") is CHAT_PLUGIN


def test_a_rival_wire_posting_to_an_endpoint_alike_is_a_conflict_whatever_its_name(
    site: MadeUpSite,
) -> None:
    site.module("course_rival_wire", wire_module("aaa-messages", "/v1/messages"))
    site.distribution(RIVAL, {"aaa-messages": "course_rival_wire:PLUGIN"})
    registry = site.registry(*installed_points())

    with pytest.raises(VendorError) as caught:
        registry.for_path("/v1/messages")

    error = caught.value
    assert (error.code, error.vendor) == (
        C.VENDOR_WIRE_CONFLICT,
        "aaa-messages, anthropic-messages",
    )
    assert error.message == (
        "the path '/v1/messages' is the endpoint of 2 wires, "
        f"'aaa-messages' of {RIVAL} (course_rival_wire:PLUGIN) and "
        "'anthropic-messages' of course-provider-anthropic "
        "(course_provider_anthropic:MESSAGES_PLUGIN), and nothing recorded tells which one "
        "was called; uninstall all but one"
    )
    assert registry.for_path("/v1/chat/completions") is CHAT_PLUGIN
    assert registry.load("aaa-messages").name == "aaa-messages"
    assert registry.problems() == ()


@pytest.mark.parametrize(
    ("path", "base_url", "asked", "answer"),
    [
        # Recorded at /messages under its own default base: the call to /v1/messages is not its.
        ("/messages", "https://rival.invalid", "/v1/messages", "anthropic-messages"),
        ("/messages", "https://rival.invalid", "/messages", "aaa-messages"),
        # A base URL with a path of its own: each wire wins under its own default base only.
        ("/v1/messages", "https://rival.invalid/gw", "/v1/messages", "anthropic-messages"),
        ("/v1/messages", "https://rival.invalid/gw", "/gw/v1/messages", "aaa-messages"),
        # Under a base neither wire has, the longer endpoint is the more specific claim.
        ("/messages", "https://rival.invalid", "/other/v1/messages", "anthropic-messages"),
    ],
)
def test_the_default_base_url_and_then_the_longer_endpoint_still_decide_a_real_difference(
    site: MadeUpSite, path: str, base_url: str, asked: str, answer: str
) -> None:
    site.module("course_rival_wire", wire_module("aaa-messages", path, base_url))
    site.distribution(RIVAL, {"aaa-messages": "course_rival_wire:PLUGIN"})
    registry = site.registry(*installed_points())

    found = registry.for_path(asked)

    assert found is not None
    assert found.name == answer


def test_two_claims_alike_under_a_base_neither_has_are_a_conflict(site: MadeUpSite) -> None:
    site.module(
        "course_rival_wire", wire_module("aaa-messages", "/v1/messages", "https://r.invalid/a")
    )
    site.distribution(RIVAL, {"aaa-messages": "course_rival_wire:PLUGIN"})
    registry = site.registry(*installed_points())

    with pytest.raises(VendorError) as caught:
        registry.for_path("/b/v1/messages")

    assert caught.value.code is C.VENDOR_WIRE_CONFLICT
    assert caught.value.message.startswith("the path '/b/v1/messages' is the endpoint of 2 wires")


def test_an_unknown_wire_names_the_registered_ones(site: MadeUpSite) -> None:
    broken_site(site)
    registry = site.registry()

    with pytest.raises(VendorError) as caught:
        registry.load("no-such-wire")

    assert caught.value.code is C.VENDOR_UNKNOWN_WIRE
    assert caught.value.message.endswith(
        "installed: broken-0, broken-1, broken-2, broken-3, broken-4"
    )
    assert VendorRegistry([]).names() == ()


def test_a_hostile_exception_whose_text_fails_is_said_by_its_type(site: MadeUpSite) -> None:
    site.module(
        "course_hostile_plugin",
        "class Hostile(Exception):\n"
        "    def __str__(self):\n"
        "        raise RuntimeError('no text')\n"
        "raise Hostile()\n",
    )
    site.distribution(HOSTILE, {"hostile": "course_hostile_plugin:PLUGIN"})
    registry = site.registry()

    with pytest.raises(VendorError) as caught:
        registry.load("hostile")

    assert caught.value.message.endswith("cannot be imported: Hostile")
    assert type(caught.value.__cause__).__name__ == "Hostile"


def test_a_huge_exception_text_is_shortened_in_the_message(site: MadeUpSite) -> None:
    site.module("course_loud_plugin", "raise RuntimeError('x' * 100_000)\n")
    site.distribution(HOSTILE, {"loud": "course_loud_plugin:PLUGIN"})

    with pytest.raises(VendorError) as caught:
        site.registry().load("loud")

    assert len(caught.value.message) < 400


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("wire", "anthropic", "VendorPlugin.wire must be a VendorWire, not str"),
        ("sdk", None, "VendorPlugin.sdk must be a str, not NoneType"),
        ("base_url", b"https://x", "VendorPlugin.base_url must be a str, not bytes"),
        ("named_events", 1, "VendorPlugin.named_events must be a bool, not int"),
        ("replay_model", "model", "VendorPlugin.replay_model must be callable"),
        ("grammar", None, "VendorPlugin.grammar must be callable"),
    ],
)
def test_a_plugin_built_with_a_field_of_the_wrong_type_fails_where_it_is_built(
    field: str, value: object, said: str
) -> None:
    fields: dict[str, object] = {
        "wire": VendorWire("w", "W_KEY", "/v1/w", lambda body: None),
        "sdk": "w-sdk",
        "base_url": "https://w.invalid",
        "base_url_variable": "W_BASE_URL",
        "named_events": False,
        "replay_model": print,
        "grammar": print,
    }
    fields[field] = value

    with pytest.raises(TypeError) as caught:
        VendorPlugin(**fields)  # type: ignore[arg-type]

    assert str(caught.value) == said


def test_the_installed_registry_is_scanned_once_per_process_until_scanned_again() -> None:
    first = installed_vendors()

    assert installed_vendors() is first
    vendor_names()
    vendor_for_path("/v1/messages")
    assert installed_vendors() is first
    again = rescan_installed_vendors()
    assert again is not first
    assert installed_vendors() is again
    assert again.names() == first.names()


def test_with_broken_and_rival_plugins_installed_an_anthropic_stream_still_checks(
    site: MadeUpSite,
) -> None:
    broken_site(site)
    site.module("course_rival_wire", wire_module("aaa-chat", "/v9/chat"))
    site.distribution(RIVAL, {"aaa-chat": "course_rival_wire:PLUGIN"})
    good = RecordedResponse(200, SSE, ANTHROPIC_BODY)
    cut = RecordedResponse(200, SSE, ANTHROPIC_BODY[: ANTHROPIC_BODY.rindex(b"event:")])

    with site.installed():
        assert "broken-0" in vendor_names()
        assert recorded_stream_problem("/v1/messages", good) is None
        problem = recorded_stream_problem("/v1/messages", cut)
        found = [(each.code, each.vendor) for each in registry_problems()]
        assert load_vendor("anthropic-messages") is MESSAGES_PLUGIN

    assert problem is not None
    assert problem.code is C.VENDOR_MISSING_TERMINAL
    # Judged by the wire's grammar, or played through its model while it has none.
    assert problem.message.startswith(
        ("judged on anthropic-messages: ", "replayed on anthropic-messages: ")
    )
    assert found == [(C.VENDOR_PLUGIN_BROKEN, f"broken-{n}") for n in range(5)]
    assert "broken-0" not in vendor_names()
    assert registry_problems() == ()


def test_a_real_recorded_anthropic_stream_checks_beside_a_broken_plugin(site: MadeUpSite) -> None:
    if not RECORDED.is_file():
        pytest.skip(f"the shared provider transcripts are not here: {RECORDED}")
    broken_site(site)
    recorded = RecordedResponse(200, SSE, RECORDED.read_bytes())

    with site.installed():
        assert recorded_stream_problem("/v1/messages", recorded) is None
        assert len(registry_problems()) == len(BROKEN_MODULES)


def test_a_stream_whose_path_two_wires_claim_is_checked_as_a_typed_conflict(
    site: MadeUpSite,
) -> None:
    site.module("course_rival_wire", wire_module("aaa-messages", "/v1/messages"))
    site.distribution(RIVAL, {"aaa-messages": "course_rival_wire:PLUGIN"})
    good = RecordedResponse(200, SSE, ANTHROPIC_BODY)

    with site.installed():
        problem = recorded_stream_problem("/v1/messages", good)
        chat = vendor_for_path("/v1/chat/completions")

    assert problem is not None
    assert problem.code is C.VENDOR_WIRE_CONFLICT
    assert "'aaa-messages' of course-vendor-rival" in problem.message
    assert chat is CHAT_PLUGIN
