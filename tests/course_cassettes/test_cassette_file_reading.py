"""Reading a cassette file: a regular file, bounded; one that never ends is refused at once.

A named pipe with no writer would block the open itself, and a link to
``/dev/zero`` would be read until memory runs out: the reads of those run in
a child process bounded in time and in memory, so that a regression fails
the test instead of hanging the suite or the machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from course_cassettes import MAX_CASSETTE_BYTES, load_cassette
from tests.children import child_env

SECONDS = 30.0
"""Far longer than the child takes (its imports); only a hang reaches it."""

# The child's address space is capped: a read that never ends fails there.
_LOAD_EACH = """\
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))
from course_cassettes import load_cassette
print(json.dumps([load_cassette(path).failure().message for path in sys.argv[1:]]))
"""


def test_a_pipe_a_device_or_a_folder_is_refused_at_once_naming_what_it_is(
    tmp_path: Path,
) -> None:
    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)
    zeros = tmp_path / "zeros.json"
    zeros.symlink_to("/dev/zero")
    linked = tmp_path / "linked.json"
    linked.symlink_to(pipe)
    paths = [pipe, zeros, linked, tmp_path]

    child = subprocess.run(
        [sys.executable, "-c", _LOAD_EACH, *map(str, paths)],
        env=child_env(),
        capture_output=True,
        timeout=SECONDS,
        check=False,
    )

    assert (child.returncode, child.stderr) == (0, b"")
    assert json.loads(child.stdout) == [
        f"{pipe}: cannot be read: is not a regular file (a named pipe)",
        f"{zeros}: cannot be read: is not a regular file (a character device)",
        f"{linked}: cannot be read: is not a regular file (a named pipe)",
        f"{tmp_path}: cannot be read: is not a regular file (a folder)",
    ]


def test_a_file_past_the_bound_is_refused_unread_and_one_at_the_bound_is_read(
    tmp_path: Path,
) -> None:
    larger = tmp_path / "larger.json"
    largest = tmp_path / "largest.json"
    # Sparse files of NUL bytes: nothing is written to the disk.
    for path, size in ((larger, MAX_CASSETTE_BYTES + 1), (largest, MAX_CASSETTE_BYTES)):
        with path.open("wb") as file:
            file.truncate(size)

    refused = load_cassette(larger).failure()
    read = load_cassette(largest).failure()

    assert refused.code.value == read.code.value == "HTTP_RECORDING_INVALID"
    assert refused.message == (
        f"{larger}: cannot be read: is larger than MAX_CASSETTE_BYTES ({MAX_CASSETTE_BYTES} bytes)"
    )
    assert read.message == f"{largest}: not JSON: Expecting value at line 1 column 1"
