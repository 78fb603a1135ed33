"""An import-linter contract: no package imports another package's private modules.

A module is private when a part of its dotted name after the package's own
name starts with an underscore (``course_protocol.untrusted``,
``course_http.loopback._script``). Inside its own package anything goes;
from another package only the public modules may be imported, so what one
package needs of another is public, documented API.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from importlinter import Contract, ContractCheck, fields, output

if TYPE_CHECKING:
    from grimp import ImportGraph

__all__ = ["PrivateImport", "PrivateImportsContract", "is_private_module"]


@dataclass(frozen=True, slots=True)
class PrivateImport:
    """``importer`` imports ``imported``, a private module of another package, at ``line``."""

    importer: str
    imported: str
    line: int


def is_private_module(module: str) -> bool:
    """Whether a part of ``module`` after its top-level package starts with an underscore."""
    return any(part.startswith("_") for part in module.split(".")[1:])


class PrivateImportsContract(Contract):
    """Fails when a module of one of ``packages`` imports a private module of another of them.

    Options:
        packages: the top-level packages checked, one per line; an import
                  from or into any other package is not this contract's.
    """

    type_name = "no_private_imports"

    packages = fields.SetField(subfield=fields.StringField())

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        packages = cast("set[str]", self.packages)
        found: list[PrivateImport] = []
        for importer in sorted(graph.modules):
            home = importer.split(".")[0]
            if home not in packages or graph.is_module_squashed(importer):
                continue
            output.verbose_print(verbose, f"Reading the imports of {importer}...")
            for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                other = imported.split(".")[0]
                if other == home or other not in packages or not is_private_module(imported):
                    continue
                for detail in graph.get_import_details(importer=importer, imported=imported):
                    found.append(PrivateImport(importer, imported, int(detail["line_number"])))
        return ContractCheck(kept=not found, metadata={"imports": found})

    def render_broken_contract(self, check: ContractCheck) -> None:
        imports: list[PrivateImport] = check.metadata["imports"]
        for item in imports:
            output.print_error(
                f"{item.importer}:{item.line} imports {item.imported}, "
                f"a private module of another package.",
                bold=False,
            )
