"""SseDecoder over real vendor recordings, read in place from ../shared/provider-transcripts.

Each ``.sse`` file is framed whole and byte by byte, and compared with
httpx2's EventSource over the same bytes (terminated by a blank line, and
without the frames that carry no data: the two documented differences).
The files are other projects' data: they are read where they are, never
copied; the test is skipped when the folder is absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from course_http import SseDecoder
from tests.course_http.helpers import VENDOR, frame_with_decoder, frame_with_event_source
from tests.properties.runner import run_example

TRANSCRIPTS = Path(__file__).resolve().parents[2] / ".." / "shared" / "provider-transcripts"
RECORDINGS = sorted(TRANSCRIPTS.glob("*/*.sse"))

pytestmark = pytest.mark.skipif(
    not RECORDINGS, reason=f"no recorded transcripts at {TRANSCRIPTS} (the shared folder is absent)"
)


@pytest.mark.parametrize(
    "path", RECORDINGS, ids=[f"{path.parent.name}/{path.name}" for path in RECORDINGS]
)
def test_a_recording_frames_as_httpx2_frames_it_whole_and_byte_by_byte(path: Path) -> None:
    body = path.read_bytes()
    expected = run_example(lambda: frame_with_event_source([body, b"\n\n"]))
    assert frame_with_decoder([body]) == expected
    assert frame_with_decoder([body[at : at + 1] for at in range(len(body))]) == expected


def test_anthropic_recordings_that_end_without_a_blank_line_keep_their_last_event() -> None:
    unterminated = [
        path
        for path in TRANSCRIPTS.glob("anthropic-messages/*.sse")
        if not path.read_bytes().endswith(b"\n\n")
    ]
    assert unterminated, "the folder holds recordings that end right after their last event"
    for path in unterminated:
        decoder = SseDecoder(vendor=VENDOR)
        events = decoder.feed_bytes(path.read_bytes()) + decoder.close()
        assert events[-1].event == "message_stop", path.name
