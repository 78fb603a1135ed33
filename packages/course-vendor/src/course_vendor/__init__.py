"""The vendor kit: what every real-provider adapter shares, and the registry of vendors.

- `VendorModel`: the one ``CourseModel`` implementation every vendor adapter
  builds on (key, transport, event loop, the sendable-transcript check
  `check_sendable`, production); a vendor supplies its `VendorWire` (the
  API's fixed facts), its request body and headers, and its play of one
  response (a `VendorPlay`: its `WireMapping` over a fresh `WireGrammar`).
- `VendorConfig`: the configuration fields every vendor has, one name each
  (``model``, ``max_output_tokens``, ``system_prompt``, ``tools``,
  ``base_url``, ``timeouts``, the `COMMON_OPTIONS` and the escape hatch
  ``extra_body``/``extra_headers``), checked once; a vendor subclasses it
  with its default base URL and its own options. The option values:
  `ToolChoice` and `NamedTool`, `ReasoningEffort` and `ThinkingBudget`.
  Each wire declares in an `OptionSupport` which options it sends
  (`option_fields` lists a configuration's); every other one set is
  refused. A bad field, or a bad API key (`checked_api_key`, the one key
  rule), is a `VendorConfigError` with a `VendorConfigErrorCode`
  (`config_error` makes the ``VENDOR_INVALID_CONFIG`` one a vendor's own
  checks raise).
- The reads every parser shares: `event_object`, `token_count` (`is_token_count`),
  `usage_counts`, `tool_arguments`, `body_object` (an error body's JSON);
  `event_error` and `invalid_event`, the one shape of an event's error, and
  `EventFailures`, which binds them to one vendor and reads one field of an
  event (`EventFailures.object_at`, `EventFailures.text_at`), naming a bad
  value by ``course_protocol.untrusted.described`` (JSON's words,
  ``missing`` for an absent key); `TextPieces`, a streamed text kept at
  about its own size.
- What a wire sends of a transcript: each wire declares a `ContentSupport`
  (the `CONTENT_KINDS` it sends, a `MediaRule` for its images and
  documents); `check_sendable` refuses, before any body is built, a
  transcript no vendor takes and anything the wire does not send, naming
  the block, the wire and the rule. What another wire produced goes back
  only to it: `sent_blocks` leaves another wire's reasoning out,
  `own_opaque` another wire's data on a block. `plain_content` and
  `plain_blocks` read the plain transcript a wire that sends no other kind
  accepted.
- The order of a Messages-style request: `Turns` groups a transcript into a
  vendor's alternating turns, each Tool result right after its call.
- The registry: each vendor package registers a `VendorPlugin` per wire under
  the `VENDOR_ENTRY_POINT_GROUP` entry-point group, scanned once per process
  into a `VendorRegistry` (`installed_vendors`; `rescan_installed_vendors`
  scans again); `vendor_names` lists the installed wires without importing
  them, `load_vendor` imports one, `vendor_for_path` finds the wire a
  recorded request path belongs to and `vendor_for_call` the wire of a
  recorded call (the wire it records, else its host's, else its path's),
  passing over a broken plug-in, which `registry_problems` names with
  every wire name claimed twice.
- Each wire's two halves: its `WireGrammar` (the vendor's whole documented
  stream language, a synchronous fold of frames into validated `WireEvent` s
  and a typed result) and its `WireMapping` (those events as course chunks,
  the result as the response; only the mapping refuses what the port cannot
  carry).
- The strict check of a recording, by the grammar alone: `StreamJudge`
  judges a body as its bytes pass, `judge_body` a whole one;
  `stream_judge_for` gives the judge of a response to a recorded call (the
  cassette transports' ``StreamJudges``), `recorded_stream_problem` judges a
  whole recorded response with it (the cassettes' ``StreamCheck``;
  `streamed_wire` says which wire judges it, `call_wire` which wire a call
  speaks, refusing a ``--wire`` the call's recorded wire disagrees with).
- The prompt-cache check: each wire declares what its vendor caches of a
  request (`VendorPlugin.cache_prefix`, a `CachePrefix` of `PrefixPart` s,
  read with `each_part` and `without_key`); `prompt_cache_moves` finds each
  call of a cassette that moved the prefix cached for an earlier call
  (`PromptCacheMove`, where `cache_prefix_difference` says).
- `play_recorded`: a recorded body played through its wire's model as one
  call (``course replay --wire``).
"""

import inspect as _inspect

from course_vendor._api_key import checked_api_key
from course_vendor._cache_prefix import CachePrefix, PrefixPart, each_part, without_key
from course_vendor._call_wire import call_wire
from course_vendor._config import VendorConfig
from course_vendor._config_errors import VendorConfigError, VendorConfigErrorCode, config_error
from course_vendor._content_support import CONTENT_KINDS, ContentSupport, MediaRule
from course_vendor._event_errors import EventFailures, event_error, invalid_event
from course_vendor._event_json import (
    body_object,
    event_object,
    is_token_count,
    token_count,
    tool_arguments,
    usage_counts,
)
from course_vendor._grammar import WireEvent, WireGrammar
from course_vendor._options import (
    COMMON_OPTIONS,
    NamedTool,
    ReasoningEffort,
    ThinkingBudget,
    ToolChoice,
)
from course_vendor._playing import play_recorded
from course_vendor._prompt_cache import (
    PromptCacheMove,
    cache_prefix_difference,
    prompt_cache_moves,
)
from course_vendor._registry import (
    VENDOR_ENTRY_POINT_GROUP,
    VendorRegistry,
    installed_vendors,
    load_vendor,
    registry_problems,
    rescan_installed_vendors,
    vendor_for_call,
    vendor_for_path,
    vendor_names,
)
from course_vendor._sendable import (
    check_sendable,
    own_opaque,
    plain_blocks,
    plain_content,
    sent_blocks,
)
from course_vendor._stream_check import (
    StreamJudge,
    judge_body,
    recorded_stream_problem,
    stream_judge_for,
    streamed_wire,
)
from course_vendor._support import OptionSupport, option_fields
from course_vendor._text_pieces import TextPieces
from course_vendor._tool_call_ids import ToolCallIds
from course_vendor._turns import Turns
from course_vendor._vendor_model import VendorModel, VendorPlay
from course_vendor._vendor_plugin import VendorPlugin
from course_vendor._vendor_wire import VendorWire
from course_vendor._wire_mapping import FeedResult, WireMapping

__all__ = [
    "COMMON_OPTIONS",
    "CONTENT_KINDS",
    "VENDOR_ENTRY_POINT_GROUP",
    "CachePrefix",
    "ContentSupport",
    "EventFailures",
    "FeedResult",
    "MediaRule",
    "NamedTool",
    "OptionSupport",
    "PrefixPart",
    "PromptCacheMove",
    "ReasoningEffort",
    "StreamJudge",
    "TextPieces",
    "ThinkingBudget",
    "ToolCallIds",
    "ToolChoice",
    "Turns",
    "VendorConfig",
    "VendorConfigError",
    "VendorConfigErrorCode",
    "VendorModel",
    "VendorPlay",
    "VendorPlugin",
    "VendorRegistry",
    "VendorWire",
    "WireEvent",
    "WireGrammar",
    "WireMapping",
    "body_object",
    "cache_prefix_difference",
    "call_wire",
    "check_sendable",
    "checked_api_key",
    "config_error",
    "each_part",
    "event_error",
    "event_object",
    "installed_vendors",
    "invalid_event",
    "is_token_count",
    "judge_body",
    "load_vendor",
    "option_fields",
    "own_opaque",
    "plain_blocks",
    "plain_content",
    "play_recorded",
    "prompt_cache_moves",
    "recorded_stream_problem",
    "registry_problems",
    "rescan_installed_vendors",
    "sent_blocks",
    "stream_judge_for",
    "streamed_wire",
    "token_count",
    "tool_arguments",
    "usage_counts",
    "vendor_for_call",
    "vendor_for_path",
    "vendor_names",
    "without_key",
]

# Exported names carry this public module: tracebacks and reprs never show a private one.
for _name in __all__:
    if isinstance(_value := globals()[_name], type) or _inspect.isfunction(_value):
        _value.__module__ = __name__
del _name, _value
