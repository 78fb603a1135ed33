"""Every code ``course serve`` answers is a documented course code, in its help and its README."""

from __future__ import annotations

import json

from course_cassettes.responder import CassetteResponder, ServedCall
from course_cli._serve import SERVE_EPILOG
from course_http import RecordedResponse, VendorErrorCode
from course_http.loopback import LoopbackRequest, LoopbackResponse
from tests.course_cassettes.cassettes import call, cassette
from tests.course_cli.helpers import REPO

QUESTION = {"model": "m"}
JSON = (("content-type", "application/json"),)


def _post(path: str, body: object) -> LoopbackRequest:
    return LoopbackRequest("POST", path, JSON, json.dumps(body).encode())


class ReportThatFailsOnAnswers:
    """A ``report`` that raises for a request a recorded call answered, and only then."""

    def __call__(self, served: ServedCall) -> None:
        if served.cassette is not None:
            raise OSError("the log is full")


def _answered_codes() -> list[tuple[int, str]]:
    """The status and body code of each kind of answer a responder gives to what it cannot serve."""
    report = ReportThatFailsOnAnswers()
    # The refused request takes calls[0], as a replay's mismatch does; calls[1] answers the next.
    ok = RecordedResponse(200, {}, b"ok")
    recorded = cassette(call(QUESTION, ok), call(QUESTION, ok))
    responder = CassetteResponder([("c.json", recorded)], report=report)
    replies = [
        responder(_post("/v1/messages", {"model": "other"})),
        responder(_post("/v1/messages", QUESTION)),
        responder(_post("/v1/messages", QUESTION)),
        responder(_post("/v1/other", QUESTION)),
    ]
    answers = [reply for reply in replies if isinstance(reply, LoopbackResponse)]
    assert answers == replies, "every answer is the responder's own, none a recorded one"
    return [
        (reply.response.status, json.loads(reply.response.body)["error"]["code"])
        for reply in answers
    ]


def test_every_code_serve_answers_is_documented_in_its_help_and_its_readme() -> None:
    readme = (REPO / "packages" / "course-cli" / "README.md").read_text()

    answered = _answered_codes()

    assert answered == [
        (400, "HTTP_REQUEST_MISMATCH"),
        (500, "HTTP_SERVER_ERROR"),
        (400, "HTTP_RECORDING_EXHAUSTED"),
        (404, "HTTP_REQUEST_MISMATCH"),
    ]
    for status, code in answered:
        assert VendorErrorCode(code).value == code
        assert f"\n  {code} " in SERVE_EPILOG, code
        assert f"| `{code}` | {status} |" in readme, (code, status)
