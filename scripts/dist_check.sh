#!/usr/bin/env bash
# Each adapter installs alone. Builds every workspace package (wheel and
# sdist) into a temporary directory, then, for course-http and each adapter
# in turn (course-scripted, course-provider-fixture, course-provider-anthropic,
# course-provider-openai), installs only that package from the built wheels
# into a fresh virtualenv (its declared dependencies come along, nothing
# else), runs its README's first python example (and a round trip where
# there is one), and proves the other adapters, the CLI and the conformance
# kit (and, for course-http without its serve extra, uvicorn) are not installed.
set -euo pipefail
cd "$(dirname "$0")/.."
UV=${UV:-uv}
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$UV" build --all-packages --out-dir "$work/dist" --quiet
for package in course-stream course-protocol course-scripted course-provider-fixture course-cli course-conformance course-http course-provider-anthropic course-provider-openai; do
    module=${package//-/_}
    for artifact in "$work/dist/$module"-*.whl "$work/dist/$module"-*.tar.gz; do
        [[ -f $artifact ]] || { echo "dist-check: $package did not build $artifact" >&2; exit 1; }
    done
done
python=$("$UV" run --frozen --no-sync python -c 'import sys; print(sys.executable)')

# Usage: install_alone PACKAGE ABSENT_MODULE... ; leaves the venv in $venv.
install_alone() {
    local package=$1
    shift
    venv="$work/venv-$package"
    "$UV" venv --quiet --python "$python" "$venv"
    "$UV" pip install --quiet --python "$venv/bin/python" --find-links "$work/dist" "$package"
    "$venv/bin/python" - "$@" <<'PY'
import importlib.metadata
import importlib.util
import sys

for module in sys.argv[1:]:
    if importlib.util.find_spec(module) is not None:
        sys.exit(f"dist-check: {module} is installed but nothing asked for it")
for distribution in importlib.metadata.distributions():
    name = distribution.metadata["Name"]
    if name.startswith("course-"):
        metadata = distribution.metadata
        assert metadata["License-Expression"] == "MIT", (name, metadata["License-Expression"])
        assert metadata["Requires-Python"] == ">=3.11", name
        assert "Typing :: Typed" in metadata.get_all("Classifier"), name
        assert metadata["Summary"] and metadata["Description"], name
        files = [str(path) for path in distribution.files or ()]
        assert any(path.endswith("py.typed") for path in files), (name, "no py.typed")
        assert any(path.endswith("licenses/LICENSE") for path in files), (name, "no LICENSE")
PY
}

# Usage: run_readme_example PACKAGE_DIR ; runs the first python snippet of its README.
run_readme_example() {
    "$venv/bin/python" "$root/scripts/run_snippets.py" --first "$root/packages/$1/README.md" >/dev/null
}

install_alone course-scripted course_provider_fixture course_provider_anthropic course_provider_openai course_http course_cli course_conformance pytest
"$venv/bin/python" - <<'PY'
import asyncio

from course_protocol import CourseModelRequest, CourseModelUsage, CourseUserMessage
from course_scripted import ScriptedModel, reply_text
from course_stream import AbortController


async def main() -> None:
    model = ScriptedModel(
        [
            reply_text(
                "The sum is 42.",
                response_id="response-1",
                message_id="message-1",
                usage=CourseModelUsage(input_tokens=3, output_tokens=5),
            )
        ]
    )
    request = CourseModelRequest(id="request-1", messages=(CourseUserMessage(id="u", content="20+22?"),))
    stream = model.stream(request, AbortController().signal)
    deltas = [chunk.delta async for chunk in stream]
    response = await stream.result
    assert deltas == ["The sum is 42."], deltas
    assert response.request_id == "request-1" and response.usage.output_tokens == 5
    model.assert_consumed()


asyncio.run(main())
PY
run_readme_example course-scripted
echo "dist-check: course-scripted installs and runs alone"

install_alone course-provider-fixture course_scripted course_provider_anthropic course_provider_openai course_http course_cli course_conformance pytest
"$venv/bin/python" - "$root/fixtures/provider-tool-roundtrip.json" <<'PY'
import asyncio
import sys

from course_protocol import CourseModelRequest, CourseStopReason, CourseUserMessage
from course_provider_fixture import FixtureProviderAdapter, load_fixture
from course_stream import AbortController


async def main() -> None:
    model = FixtureProviderAdapter(load_fixture(sys.argv[1]).unwrap())
    request = CourseModelRequest(id="request-1", messages=(CourseUserMessage(id="u", content="20+22?"),))
    stops = []
    for _ in range(2):
        stream = model.stream(request, AbortController().signal)
        chunks = [chunk async for chunk in stream]
        response = await stream.result
        assert chunks and all(chunk.request_id == "request-1" for chunk in chunks)
        stops.append(response.stop_reason)
    assert stops == [CourseStopReason.TOOL_CALL, CourseStopReason.STOP], stops
    model.assert_consumed()


asyncio.run(main())
PY
run_readme_example course-provider-fixture
echo "dist-check: course-provider-fixture installs and runs alone"

install_alone course-provider-anthropic course_provider_fixture course_scripted course_provider_openai course_cli course_conformance pytest
run_readme_example course-provider-anthropic
echo "dist-check: course-provider-anthropic installs and runs alone"

install_alone course-provider-openai course_scripted course_provider_fixture course_provider_anthropic course_cli course_conformance pytest
run_readme_example course-provider-openai
echo "dist-check: course-provider-openai installs and runs alone"

install_alone course-http course_scripted course_provider_fixture course_provider_anthropic course_provider_openai course_cli course_conformance pytest uvicorn
"$venv/bin/python" - <<'PY'
import asyncio

from course_http import HttpRequest, RecordedResponse, RecordedTransport, SseEvent, stream_events


async def main() -> None:
    body = b"event: a\r\ndata: 1\r\n\r\ndata: 2"
    async with RecordedTransport([RecordedResponse(200, {"content-type": "text/event-stream"}, body)]) as transport:
        call = stream_events(transport, HttpRequest("/v1/x", {}), vendor="v", describe_error=lambda body: None)
        events = [event async for event in call]
    assert events == [SseEvent("a", "1"), SseEvent("message", "2")], events


asyncio.run(main())
PY
run_readme_example course-http
echo "dist-check: course-http installs and runs alone"
