"""One recorded body played through its wire's model: `play_recorded`.

The one "play a recorded body through a wire": ``course replay --wire``
prints what it makes, and the bench plays a recording with it. The body is served by a
``RecordedTransport`` to the wire's replay model: the code path of a live
call, with no socket and no key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from course_http import RecordedResponse, RecordedTransport, VendorError
from course_protocol import (
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseUserMessage,
)
from course_stream import AbortController
from course_vendor._vendor_plugin import VendorPlugin

__all__ = ["play_recorded"]

# A vendor model refuses an empty transcript; a recorded body answers any question.
_QUESTION: Final = CourseUserMessage("played-user-1", "(the recorded answer is played)")


async def play_recorded(
    plugin: VendorPlugin,
    response: RecordedResponse,
    request_id: str,
    on_chunk: Callable[[CourseModelChunk], object] | None = None,
) -> CourseModelResponse | VendorError:
    """Serve ``response`` to ``plugin``'s model as the answer to one call of ``request_id``.

    ``on_chunk`` gets each chunk the call makes, as it is made. Returns the
    call's response, or the `VendorError` it failed with (the port's
    refusal of what it cannot carry included). Raises
    ``course_protocol.CourseProtocolError`` for a blank ``request_id``.
    """
    async with RecordedTransport([response]) as transport:
        model = plugin.replay_model(transport)
        stream = model.stream(
            CourseModelRequest(request_id, (_QUESTION,)), AbortController().signal
        )
        try:
            async for chunk in stream:
                if on_chunk is not None:
                    on_chunk(chunk)
            return await stream.result
        except VendorError as error:
            return error
