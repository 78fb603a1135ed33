"""The workspace's own import-linter contract types.

- `WireVocabularyContract` (``wire_vocabulary`` in ``.importlinter``): a
  wire name of an adapter, spelled as a string literal outside that adapter,
  breaks the contract.
"""

from course_contracts.wire_vocabulary import WireVocabularyContract

__all__ = ["WireVocabularyContract"]
