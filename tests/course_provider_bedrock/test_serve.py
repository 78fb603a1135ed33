"""``course serve`` answers boto3's ``bedrock-runtime`` client on the ConverseStream path.

A cassette recorded through `BedrockConverseModel` is served by ``course
serve`` in a subprocess (127.0.0.1, a free port); boto3's own client, pointed
at the base URL printed for it and signing with made-up credentials, calls
``converse_stream`` with the recorded request and reads the recorded binary
stream through botocore's own event-stream parser. Every wait is bounded;
the server is always stopped.
"""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import boto3
from botocore.config import Config

from course_cassettes import load_cassette
from course_protocol import thaw_json
from tests.course_cli.serving import SECONDS, serving
from tests.course_cli.test_cassettes import write_wire_cassette
from tests.course_provider_bedrock.harness import MODEL, WIRES


def test_boto3_converse_stream_replays_through_course_serve(tmp_path: Path) -> None:
    path = write_wire_cassette(tmp_path / "bedrock.json", WIRES["bedrock-converse"])
    recorded: dict[str, Any] = thaw_json(load_cassette(path).unwrap().calls[0].request.body)  # type: ignore[assignment]

    with serving(str(path)) as child:
        assert child.line().startswith("course serve: http://127.0.0.1:")
        name, _, rest = child.line().strip().partition(": ")
        base_url, variable = rest.split()
        assert (name, variable) == ("boto3", "(AWS_ENDPOINT_URL_BEDROCK_RUNTIME)")
        client = boto3.client(
            "bedrock-runtime",
            endpoint_url=base_url,
            region_name="us-east-1",
            aws_access_key_id="AKIDEXAMPLE",
            aws_secret_access_key="not-a-real-secret-0123456789",
            config=Config(
                retries={"max_attempts": 1},
                connect_timeout=SECONDS,
                read_timeout=SECONDS,
            ),
        )
        try:
            answer = client.converse_stream(modelId=MODEL, **recorded)
            events = list(answer["stream"])
        finally:
            client.close()
        child.process.send_signal(signal.SIGINT)
        out, _ = child.finish()

    text = "".join(
        event["contentBlockDelta"]["delta"]["text"]
        for event in events
        if "contentBlockDelta" in event
    )
    assert text == "The sum is 42."
    assert [next(iter(event)) for event in events][-2:] == ["messageStop", "metadata"]
    assert events[-1]["metadata"]["usage"]["totalTokens"] == 15
    assert out.splitlines() == [
        "POST /model/anthropic.claude-test-v1%3A0/converse-stream: bedrock.json calls[0]: 200"
    ]
