"""The real-provider guide, followed to the letter: every file it shows, every command it gives.

The guide is read block by block, in order, in a fresh project: a python
block whose first line names a file writes it (``, continued`` appends), a
diff block edits it, every ``sh`` line runs (``export`` and ``unset`` change
the environment of the next ones, as a shell would), and each ``text`` block
must appear in the output of the command before it. A loopback server stands
in for the Anthropic API; replays must not reach it.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

from course_http import RecordedResponse
from course_http.loopback import LoopbackRequest, LoopbackServer
from tests.children import child_env
from tests.course_provider_anthropic import bodies
from tests.course_vendor.wires import sse_bytes

REPO = Path(__file__).resolve().parents[2]
GUIDE = REPO / "docs" / "testing-against-a-real-provider.md"
STEP_SECONDS = 60.0
"""Far longer than one command takes; only a hang ever reaches it."""

# The workspace's other pytest plugins are not the guide's; they only slow each run.
TEST_ONLY_ADDOPTS = "addopts = -p no:hypothesispytest -p no:anyio\n"
SSE = {"content-type": "text/event-stream"}
_BLOCK = re.compile(r"^```(\w+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Block:
    language: str
    text: str


def guide_blocks() -> list[Block]:
    return [Block(language, text) for language, text in _BLOCK.findall(GUIDE.read_text())]


def vendor(request: LoopbackRequest) -> RecordedResponse:
    """The stand-in Anthropic API: a Tool call to ``add``, then, given its result, the answer."""
    last = request.json()["messages"][-1]["content"][0]  # type: ignore[index]
    if last["type"] == "tool_result":
        return RecordedResponse(200, SSE, sse_bytes(bodies.text_body("20 + 22 ", "= 42.")))
    call = bodies.tool_body('{"left": 20, ', '"right": 22}', call_id="toolu_01A")
    return RecordedResponse(200, SSE, sse_bytes(call))


def normalized(text: str) -> str:
    return " ".join(text.split())


class Shell:
    """Runs the guide's command lines in ``root``, keeping ``export``/``unset`` between them."""

    def __init__(self, root: Path, env: dict[str, str]) -> None:
        self.root = root
        self.env = env
        self.ran: list[str] = []

    async def run(self, line: str) -> str:
        command, _, comment = line.partition("  # ")
        self.ran.append(command)
        if command.startswith("export "):
            name, _, value = command.removeprefix("export ").partition("=")
            self.env[name] = value
            return ""
        if command.startswith("unset "):
            self.env.pop(command.removeprefix("unset "), None)
            return ""
        if command.startswith("course serve "):
            return await self._serve(command)
        process = await asyncio.create_subprocess_exec(
            "bash",
            "-c",
            command,
            cwd=self.root,
            env=self.env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        async with asyncio.timeout(STEP_SECONDS):
            output, _ = await process.communicate()
        text = output.decode()
        should_fail = comment.startswith("fails")
        assert (process.returncode != 0) is should_fail, f"{command}:\n{text}"
        return text

    async def _serve(self, command: str) -> str:
        process = await asyncio.create_subprocess_exec(
            "bash",
            "-c",
            f"exec {command}",
            cwd=self.root,
            env=self.env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            async with asyncio.timeout(STEP_SECONDS):
                assert process.stdout is not None
                first = (await process.stdout.readline()).decode()
                process.send_signal(signal.SIGINT)
                out, err = await process.communicate()
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
        assert process.returncode == 130, err
        assert err.decode().splitlines() == ["course serve: interrupted"]
        return first + out.decode()


async def test_every_file_and_command_of_the_guide_works_in_a_fresh_project(
    tmp_path: Path,
) -> None:
    blocks = guide_blocks()
    env = child_env()
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    shell = Shell(tmp_path, env)
    async with LoopbackServer(vendor) as server:
        env["ANTHROPIC_BASE_URL"] = server.base_url
        await shell.run("git init --quiet")
        last_file: Path | None = None
        output = ""
        for block in blocks:
            if block.language == "ini":
                (tmp_path / "pytest.ini").write_text(block.text + TEST_ONLY_ADDOPTS)
            elif block.language == "python":
                first, _, body = block.text.partition("\n")
                name = first.removeprefix("# ").removesuffix(", continued")
                last_file = tmp_path / name
                if first.endswith(", continued"):
                    last_file.write_text(last_file.read_text() + "\n\n" + body)
                else:
                    last_file.parent.mkdir(parents=True, exist_ok=True)
                    last_file.write_text(body)
            elif block.language == "diff":
                assert last_file is not None
                old = [line[1:] for line in block.text.splitlines() if line.startswith("-")]
                new = [line[1:] for line in block.text.splitlines() if line.startswith("+")]
                text = last_file.read_text()
                for before, after in zip(old, new, strict=True):
                    assert text.count(before) == 1, before
                    text = text.replace(before, after)
                last_file.write_text(text)
            elif block.language == "sh":
                for line in block.text.splitlines():
                    if line.strip() and not line.startswith("#"):
                        calls_before = len(server.requests)
                        output = await shell.run(line)
                        if line.startswith("pytest") and "--course-record-mode" not in line:
                            assert len(server.requests) == calls_before, f"{line} went out"
            elif block.language == "text":
                for expected in block.text.splitlines():
                    assert normalized(expected) in normalized(output), (expected, output)
        recorded = len(server.requests)

    commands = [
        line.partition("  # ")[0]
        for block in blocks
        if block.language == "sh"
        for line in block.text.splitlines()
        if line.strip()
    ]
    assert shell.ran == ["git init --quiet", *commands]
    assert len(commands) >= 10
    assert recorded == 4, "two recordings of the loop's two calls"
    cassette = tmp_path / "tests" / "cassettes" / "test_agent" / "adds-with-a-tool.json"
    assert "show your work" in cassette.read_text()
