"""The JSON-lines transport's vocabulary, and nothing else: the only place it is spelled.

A turn on the wire::

    {"kind": "begin", "turn": "t-1"}
    {"kind": "say", "text": "Adding."}
    {"kind": "invoke", "call": "c-1", "tool": "add", "input": {"left": 20, "right": 22}}
    {"kind": "finish", "turn": "t-1", "why": "tool", "tokens": {"in": 12, "out": 8}}

or, instead of ``finish``, ``{"kind": "oops", "code": "overloaded", "detail": "..."}``.
"""

from typing import Final

KIND: Final = "kind"
BEGIN: Final = "begin"
SAY: Final = "say"
INVOKE: Final = "invoke"
FINISH: Final = "finish"
OOPS: Final = "oops"

TURN: Final = "turn"
TEXT: Final = "text"
CALL: Final = "call"
TOOL: Final = "tool"
INPUT: Final = "input"
WHY: Final = "why"
TOKENS: Final = "tokens"
TOKENS_IN: Final = "in"
TOKENS_OUT: Final = "out"
CODE: Final = "code"
DETAIL: Final = "detail"

WHY_DONE: Final = "done"
WHY_TOOL: Final = "tool"
