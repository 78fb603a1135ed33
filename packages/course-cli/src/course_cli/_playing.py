"""One recorded vendor response played as one model call, for ``replay --wire`` and ``check``.

The response is served by a ``RecordedTransport`` to the vendor's own model,
the code path of a live call with no socket and no key, so what a check
reports is exactly what a replay of the same bytes fails with.
"""

from __future__ import annotations

from collections.abc import Callable

from course_cli._output import json_line
from course_http import RecordedResponse, RecordedTransport, VendorError
from course_protocol import CourseModelRequest, CourseUserMessage, to_json
from course_stream import AbortController
from course_vendor import VendorPlugin

__all__ = ["play_response"]

# A vendor model refuses an empty transcript; a recorded body answers any question.
_QUESTION = CourseUserMessage("replay-user-1", "(the recorded answer is replayed)")


async def play_response(
    served: RecordedResponse,
    wire: VendorPlugin,
    request_id: str,
    write: Callable[[str], object] | None,
) -> VendorError | None:
    """Serve ``served`` to ``wire``'s model as the answer to one call of request ``request_id``.

    Writes each chunk, then the response, as a JSON line (when ``write`` is
    given). Returns the call's `VendorError`, or ``None`` when the call
    ended with a response.
    """
    async with RecordedTransport([served]) as transport:
        model = wire.replay_model(transport)
        stream = model.stream(
            CourseModelRequest(request_id, (_QUESTION,)), AbortController().signal
        )
        try:
            async for chunk in stream:
                if write is not None:
                    write(json_line(to_json(chunk)) + "\n")
            response = await stream.result
        except VendorError as error:
            return error
    if write is not None:
        write(json_line(to_json(response)) + "\n")
    return None
