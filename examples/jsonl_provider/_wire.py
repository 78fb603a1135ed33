"""The JSON-lines transport's vocabulary, and nothing else: the only place it is spelled.

A turn on the wire::

    {"kind": "begin", "turn": "t-1"}
    {"kind": "say", "text": "Adding."}
    {"kind": "invoke", "call": "c-1", "tool": "add", "input": {"left": 20, "right": 22}}
    {"kind": "finish", "turn": "t-1", "why": "tool", "tokens": {"in": 12, "out": 8}}

or, instead of ``finish``, ``{"kind": "oops", "code": "overloaded", "detail": "..."}``.
"""

from typing import Final

KIND_KEY: Final = "kind"
BEGIN: Final = "begin"
SAY: Final = "say"
INVOKE: Final = "invoke"
FINISH: Final = "finish"
OOPS: Final = "oops"

TURN_KEY: Final = "turn"
TEXT_KEY: Final = "text"
CALL_KEY: Final = "call"
TOOL_KEY: Final = "tool"
INPUT_KEY: Final = "input"
WHY_KEY: Final = "why"
TOKENS_KEY: Final = "tokens"
TOKENS_IN_KEY: Final = "in"
TOKENS_OUT_KEY: Final = "out"
CODE_KEY: Final = "code"
DETAIL_KEY: Final = "detail"

WHY_DONE: Final = "done"
WHY_TOOL: Final = "tool"
