"""``course serve`` judges each stream it replays by its wire's grammar, and names the code."""

from __future__ import annotations

import signal
from pathlib import Path

import httpx2
import pytest

from course_cassettes import Cassette, write_cassette
from tests.course_cassettes.test_stream_judges import BAD_INDEX, _messages_call
from tests.course_cli.serving import SECONDS, serving


def test_a_replayed_stream_the_grammar_refuses_is_cut_and_its_code_is_on_stderr(
    tmp_path: Path,
) -> None:
    recorded = _messages_call(BAD_INDEX)
    write_cassette(tmp_path / "bad.json", Cassette([recorded]))

    with serving(str(tmp_path)) as child:
        base_url = child.banner().split()[2]
        with (
            httpx2.Client(base_url=base_url, timeout=SECONDS) as client,
            client.stream("POST", "/v1/messages", json=dict(recorded.request.body)) as response,
        ):
            assert response.status_code == 200
            with pytest.raises(httpx2.RemoteProtocolError):
                response.read()
        served = child.line()
        child.process.send_signal(signal.SIGTERM)
        _, err = child.finish()

    assert served == "POST /v1/messages: bad.json calls[0]: 200"
    [refused, terminated] = err.splitlines()
    assert refused.startswith(
        "POST /v1/messages: VENDOR_EVENT_ORDER: bad.json calls[0].response.body: judged on "
    )
    assert "content_block_delta" in refused
    assert terminated == "course serve: terminated"
