"""The workspace's own import-linter contract types.

- `WireVocabularyContract` (``wire_vocabulary`` in ``.importlinter``): a
  wire name of an adapter, spelled as a string literal outside that adapter,
  breaks the contract.
- `PrivateImportsContract` (``no_private_imports``): a module that imports
  another package's private module (`is_private_module`) breaks it; what one
  package needs of another is its public API.
"""

from course_contracts.private_imports import (
    PrivateImport,
    PrivateImportsContract,
    is_private_module,
)
from course_contracts.wire_vocabulary import WireVocabularyContract

__all__ = [
    "PrivateImport",
    "PrivateImportsContract",
    "WireVocabularyContract",
    "is_private_module",
]
