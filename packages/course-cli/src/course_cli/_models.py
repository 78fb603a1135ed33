"""The composition root's one choice: which adapter stands behind the port in the demo."""

from __future__ import annotations

from importlib import resources

from returns.result import Failure, Success

from course_cli._scripts import demo_script
from course_provider_fixture import FixtureProviderAdapter, load_fixture
from course_scripted import ScriptedModel

__all__ = ["DEMO_FIXTURE", "MODEL_NAMES", "DemoModel", "build_demo_model", "fixture_demo_model"]

MODEL_NAMES = ("fixture", "scripted")
"""The ``--model`` choices of ``course demo``; the first is the default."""

DEMO_FIXTURE = "provider-tool-roundtrip.json"
"""The packaged copy of the repository's ``fixtures/provider-tool-roundtrip.json``."""

DemoModel = FixtureProviderAdapter | ScriptedModel


def build_demo_model(name: str) -> tuple[DemoModel, str]:
    """A fresh model named ``name`` for the demo, and a one-line description of it.

    ``fixture`` replays the packaged copy of the checked-in round-trip
    fixture through ``FixtureProviderAdapter``; ``scripted`` plays
    :func:`demo_script` through ``ScriptedModel``. Raises ``ValueError`` for
    any other name, and the adapter's ``FixtureProviderError`` if the
    packaged fixture is broken (an installation defect, not a user error).
    """
    if name == "fixture":
        with resources.as_file(resources.files(__package__) / DEMO_FIXTURE) as path:
            loaded = load_fixture(path).bind(FixtureProviderAdapter.from_fixture)
        match loaded:
            case Success(adapter):
                return adapter, f"fixture (FixtureProviderAdapter replaying {DEMO_FIXTURE})"
            case Failure(error):
                raise error
    if name == "scripted":
        return ScriptedModel(demo_script()), "scripted (ScriptedModel playing the demo script)"
    raise ValueError(f"unknown demo model {name!r}; expected one of {', '.join(MODEL_NAMES)}")


def fixture_demo_model(path: str) -> FixtureProviderAdapter:
    """The demo's model over the user's own fixture file at ``path``.

    Raises the adapter's ``FixtureProviderError`` (``PROVIDER_INVALID_FIXTURE``)
    when the file is not a strict schema-1 fixture.
    """
    loaded = load_fixture(path).bind(FixtureProviderAdapter.from_fixture)
    if isinstance(loaded, Failure):
        raise loaded.failure()
    adapter: FixtureProviderAdapter = loaded.unwrap()
    return adapter
