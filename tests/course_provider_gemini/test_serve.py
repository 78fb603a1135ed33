"""``course serve`` answers a Gemini call at the Gemini path, printing the SDK's base URL.

A cassette recorded through `GeminiModel` is served by ``course serve`` in a
subprocess; a `GeminiModel` pointed at the base URL printed for the
google-genai SDK (as that SDK's ``GOOGLE_GEMINI_BASE_URL`` would be) replays
the recorded answer over real HTTP. Every wait is bounded.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

from course_protocol import CourseTextDeltaChunk
from course_provider_gemini import GeminiConfig, GeminiModel
from tests.course_cassettes.replays import Replayed, replay
from tests.course_cli.serving import SECONDS, serving
from tests.course_cli.test_cassettes import write_wire_cassette
from tests.course_provider_gemini.harness import MODEL, WIRES


def test_course_serve_answers_the_gemini_path_under_the_printed_base_url(tmp_path: Path) -> None:
    path = write_wire_cassette(tmp_path / "gemini.json", WIRES["gemini"])

    with serving(str(path)) as child:
        assert child.line().startswith("course serve: http://127.0.0.1:")
        name, _, rest = child.line().strip().partition(": ")
        base_url, variable = rest.split()
        assert (name, variable) == ("google-genai", "(GOOGLE_GEMINI_BASE_URL)")

        async def call() -> Replayed:
            config = GeminiConfig(MODEL, 64, base_url=base_url)
            async with asyncio.timeout(SECONDS), GeminiModel(config, api_key="AIza-any") as model:
                return await replay(model)

        outcome = asyncio.run(call())
        child.process.send_signal(signal.SIGINT)
        out, _ = child.finish()

    assert outcome.error is None
    deltas = [chunk.delta for chunk in outcome.chunks if type(chunk) is CourseTextDeltaChunk]
    assert "".join(deltas) == "The sum is 42."
    assert out.splitlines() == [
        f"POST /v1beta/models/{MODEL}:streamGenerateContent?alt=sse: gemini.json calls[0]: 200"
    ]
