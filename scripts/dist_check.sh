#!/usr/bin/env bash
# Each package installs alone. Builds every workspace package (wheel and
# sdist) into a temporary directory, then installs one package at a time
# from the built wheels into a fresh virtualenv (its declared dependencies
# come along, nothing else), runs its README's first python example (and a
# round trip where there is one), and proves that what it does not declare
# is absent: the CLI, the conformance kit, pytest, and every vendor wire but
# its own. The vendor packages are not listed here: they are the workspace
# packages that register wires under the vendor registry's entry-point group
# (course.vendors), each installed alone in turn.
# Last, course-pytest alone (it brings the built-in wires) in a
# separate project: the README's example test records against a stand-in
# API (the standard library's HTTP server), then replays with no API at all.
set -euo pipefail
cd "$(dirname "$0")/.."
UV=${UV:-uv}
# The throw-away venvs below run each import once: no bytecode cache for them.
unset PYTHONPYCACHEPREFIX
export PYTHONDONTWRITEBYTECODE=1
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$UV" build --all-packages --out-dir "$work/dist" --quiet
for pyproject in packages/*/pyproject.toml; do
    package=$(basename "$(dirname "$pyproject")")
    module=${package//-/_}
    for artifact in "$work/dist/$module"-*.whl "$work/dist/$module"-*.tar.gz; do
        [[ -f $artifact ]] || { echo "dist-check: $package did not build $artifact" >&2; exit 1; }
    done
done
python=$("$UV" run --frozen --no-sync python -c 'import sys; print(sys.executable)')
# The vendor packages: every distribution registering a wire in the synced workspace.
mapfile -t vendors < <("$python" -c '
from importlib.metadata import entry_points
print("\n".join(sorted({point.dist.name for point in entry_points(group="course.vendors")})))
')
[[ ${#vendors[@]} -ge 1 ]] || { echo "dist-check: no vendor package registers a wire" >&2; exit 1; }

# Usage: install_alone PACKAGE[+PACKAGE] ABSENT_MODULE... ; leaves the venv in $venv.
install_alone() {
    local package=$1
    shift
    venv="$work/venv-$package"
    "$UV" venv --quiet --python "$python" "$venv"
    # shellcheck disable=SC2086 # PACKAGE+PACKAGE is split on purpose
    "$UV" pip install --quiet --python "$venv/bin/python" --find-links "$work/dist" ${package//+/ }
    "$venv/bin/python" - "$package" "$@" <<'PY'
import importlib.metadata
import importlib.util
import sys

asked = set(sys.argv[1].split("+"))
for module in sys.argv[2:]:
    if importlib.util.find_spec(module) is not None:
        sys.exit(f"dist-check: {module} is installed but nothing asked for it")
# A vendor installed alone brings its own wires and no other vendor's; a
# package that declares vendors (course-pytest) brings those it declares.
declared = set(asked)
for name in asked:
    for requirement in importlib.metadata.requires(name) or ():
        if "extra ==" not in requirement:
            declared.add(requirement.split(";")[0].split("[")[0].split(">")[0].split("=")[0].strip())
wires = importlib.metadata.entry_points(group="course.vendors")
strangers = sorted({point.dist.name for point in wires} - declared)
if strangers:
    sys.exit(f"dist-check: {', '.join(strangers)} installed, but nothing asked for it")
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

install_alone course-scripted course_provider_fixture course_http course_cli course_conformance pytest
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

install_alone course-provider-fixture course_scripted course_http course_cli course_conformance pytest
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

for vendor in "${vendors[@]}"; do
    # botocore is Bedrock's sigv4 extra: no package brings it without being asked.
    install_alone "$vendor" course_scripted course_provider_fixture course_cli course_conformance pytest botocore
    run_readme_example "$vendor"
    echo "dist-check: $vendor installs and runs alone"
done

install_alone course-vendor course_cassettes course_scripted course_provider_fixture course_cli course_conformance pytest uvicorn
run_readme_example course-vendor
echo "dist-check: course-vendor installs and runs alone"

install_alone course-cassettes course_vendor course_scripted course_provider_fixture course_cli course_conformance pytest uvicorn
echo "dist-check: course-cassettes installs and runs alone"

install_alone course-http course_vendor course_cassettes course_scripted course_provider_fixture course_cli course_conformance pytest uvicorn
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

install_alone course-pytest course_cli course_conformance uvicorn hypothesis botocore
run_readme_example course-pytest
# course-pytest alone judges every built-in wire's streams, Bedrock's with no botocore.
"$venv/bin/python" - <<'PY'
import sys

from course_vendor import load_vendor, vendor_names

wires = set(vendor_names())
assert {"anthropic-messages", "openai-chat", "gemini", "bedrock-converse"} <= wires, wires
assert load_vendor("bedrock-converse").grammar() is not None
assert "botocore" not in sys.modules
PY
project="$work/pytest-project"
mkdir -p "$project/tests"
printf '[pytest]\nasyncio_default_fixture_loop_scope = function\nfilterwarnings = error\n' >"$project/pytest.ini"
"$venv/bin/python" "$root/scripts/run_snippets.py" --print "$root/packages/course-pytest/README.md" >"$project/tests/test_agent.py"
# The stand-in API: every POST gets one streamed Messages answer, "42".
"$venv/bin/python" - "$work/port" <<'PY' &
import json
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer


def event(data):
    return f"event: {data['type']}\ndata: {json.dumps(data)}\n\n"


BODY = "".join(
    event(data)
    for data in (
        {"type": "message_start", "message": {"id": "msg_1", "role": "assistant", "content": [], "usage": {"input_tokens": 9}}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "42"}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 1}},
        {"type": "message_stop"},
    )
).encode()


class Answer(BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers["content-length"]))
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("content-length", str(len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)

    def log_message(self, *args):
        pass


server = HTTPServer(("127.0.0.1", 0), Answer)
server.timeout = 30  # one request is expected; never wait longer for it
with open(sys.argv[1] + ".tmp", "w") as file:
    file.write(str(server.server_port))
__import__("os").rename(sys.argv[1] + ".tmp", sys.argv[1])
server.handle_request()
PY
api=$!
for _ in $(seq 50); do [[ -f $work/port ]] && break; sleep 0.1; done
[[ -f $work/port ]] || { echo "dist-check: the stand-in API did not start" >&2; kill "$api"; exit 1; }
(cd "$project" && ANTHROPIC_BASE_URL="http://127.0.0.1:$(cat "$work/port")" ANTHROPIC_API_KEY=sk-ant-dist-check \
    "$venv/bin/python" -m pytest -q -p no:cacheprovider --course-record-mode=once >"$work/record.log" 2>&1) \
    || { cat "$work/record.log" >&2; kill "$api" 2>/dev/null; exit 1; }
wait "$api"
cassette="$project/tests/cassettes/test_agent/adds-two-numbers.json"
[[ -f $cassette ]] || { echo "dist-check: no cassette at $cassette" >&2; exit 1; }
! grep -q sk-ant-dist-check "$cassette" || { echo "dist-check: the key reached the cassette" >&2; exit 1; }
(cd "$project" && "$venv/bin/python" -m pytest -q -p no:cacheprovider >"$work/replay.log" 2>&1) \
    || { cat "$work/replay.log" >&2; exit 1; }
echo "dist-check: course-pytest alone (the built-in wires with it) records and replays in a separate project"
