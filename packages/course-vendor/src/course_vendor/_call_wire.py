"""The wire a recorded call speaks: `call_wire`, the one rule every cassette reader uses.

The wire the cassette records with the call (the model's that made it, or
the one its recording was told), else the one its recorded host belongs
to, else the one its path belongs to (`VendorRegistry.for_call`); a wire
asked for (``course check --wire``) judges a call that records none, and
never one that records another.
"""

from __future__ import annotations

from course_http import RecordedRequest, VendorError, VendorErrorCode
from course_protocol.untrusted import shown
from course_vendor._registry import vendor_for_call
from course_vendor._vendor_plugin import VendorPlugin

__all__ = ["call_wire"]


def call_wire(call: RecordedRequest | str, *, wire: str | None = None) -> VendorPlugin | None:
    """The wire a recorded call speaks: the one it records, else its host's, else its path's.

    ``call`` is the recorded request, or its path alone; ``wire`` is the
    wire asked for (``course check --wire``), which judges a call that
    records none. The rule is `VendorRegistry.for_call`'s (its query left
    out of the path). Raises `VendorError`: ``VENDOR_WIRE_MISMATCH`` when
    the call records another wire than ``wire`` (neither is picked);
    ``VENDOR_UNKNOWN_WIRE``, ``VENDOR_PLUGIN_BROKEN`` or
    ``VENDOR_WIRE_CONFLICT`` for a recorded (or asked) wire that cannot be
    used, the message naming it as the call's; ``VENDOR_WIRE_CONFLICT`` when
    two wires claim the call alike.
    """
    path, host, recorded = (
        (call, None, None) if isinstance(call, str) else (call.path, call.host, call.wire)
    )
    if wire is not None and recorded is not None and wire != recorded:
        raise VendorError(
            VendorErrorCode.VENDOR_WIRE_MISMATCH,
            f"the call was recorded by the wire {shown(recorded)!r}, and is asked to be judged "
            f"as {shown(wire)!r}: neither is picked (leave the wire out to judge it as recorded)",
            vendor=wire,
        )
    named = recorded or wire
    try:
        return vendor_for_call(path.partition("?")[0], host=host, wire=named)
    except VendorError as error:
        if named is None or error.code is VendorErrorCode.VENDOR_WIRE_MISMATCH:
            raise
        whose = "records" if recorded is not None else "is asked to be judged as"
        raise error.with_message(
            f"the call {whose} the wire {shown(named)!r}, which cannot judge it: {error.message}"
        ) from None
