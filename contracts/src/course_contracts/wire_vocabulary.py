"""An import-linter contract that keeps one adapter's wire vocabulary in that adapter.

import-linter sees imports only, so this contract walks the modules of the
graph itself, parses each source file with ``ast`` and fails when a string
literal equals one of the configured wire names outside the home package.
Source files are located with ``importlib`` finders without importing
anything. Each adapter package gets its own contract of this type; a
spelling two adapters share (``text_delta`` is both the course transport's
and Anthropic's) is declared in each contract with ``shared_names``, so the
core packages still use none.
"""

from __future__ import annotations

import ast
import importlib.machinery
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast

from importlinter import Contract, ContractCheck, fields, output
from importlinter.domain.contract import InvalidContractOptions

if TYPE_CHECKING:
    from grimp import ImportGraph


@dataclass(frozen=True, slots=True)
class WireLiteral:
    """One string literal equal to a wire name, found outside the home package (and its sharers)."""

    module: str
    line: int
    literal: str


class WireVocabularyContract(Contract):
    """Fails when a wire name appears as a string literal outside ``home_package``.

    Options:
        home_package:     the only package (with its submodules) allowed to spell the names.
        wire_names:       the transport vocabulary, one name per line.
        shared_names:     optional ``package: name`` lines, each saying that another
                          adapter ``package`` (with its submodules) owns the same
                          spelling in its own vocabulary, so it may spell ``name``.
        allowed_literals: optional ``module: name`` lines, each letting one module
                          (or package, with its submodules) spell one name for a
                          reason that is not the wire (a Python attribute that
                          happens to share the spelling).
                          A shared name or an allowance that matches nothing is
                          reported as a warning, so stale ones are noticed.
    """

    type_name = "wire_vocabulary"

    home_package = fields.StringField()
    wire_names = fields.SetField(subfield=fields.StringField())
    shared_names = fields.SetField(subfield=fields.StringField(), required=False, default=set())
    allowed_literals = fields.SetField(subfield=fields.StringField(), required=False, default=set())

    def validate(self) -> None:
        """Reject ``shared_names``/``allowed_literals`` lines that are not ``module: name``.

        A shared name must also be one of ``wire_names`` and belong to a
        package other than the home package.
        """
        errors: dict[str, str] = {}
        for option in ("shared_names", "allowed_literals"):
            lines = cast("set[str]", getattr(self, option))
            bad = sorted(line for line in lines if _allowance(line) is None)
            if bad:
                errors[option] = f"Expected 'module: name' lines, got {bad}."
        if "shared_names" not in errors:
            home = cast(str, self.home_package)
            names = cast("set[str]", self.wire_names)
            wrong = sorted(
                f"{package}: {name}"
                for package, name in _pairs(cast("set[str]", self.shared_names))
                if name not in names or package == home
            )
            if wrong:
                errors["shared_names"] = (
                    f"Each line names another package and one of wire_names, got {wrong}."
                )
        if errors:
            raise InvalidContractOptions(errors)

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        # import-linter replaces each field with its parsed value on the instance.
        home = cast(str, self.home_package)
        names = frozenset(cast("set[str]", self.wire_names))
        shared = _pairs(cast("set[str]", self.shared_names))
        allowed = shared | _pairs(cast("set[str]", self.allowed_literals))
        used: set[tuple[str, str]] = set()
        found: list[WireLiteral] = []
        unreadable: list[str] = []
        for module in sorted(graph.modules):
            if module == home or module.startswith(home + ".") or graph.is_module_squashed(module):
                continue
            path = module_source_path(module)
            if path is None:
                unreadable.append(module)
                continue
            output.verbose_print(verbose, f"Reading string literals of {module}...")
            for item in wire_literals_in(module, path.read_text(encoding="utf-8"), names):
                allowance = _matching_allowance(allowed, item)
                if allowance is None:
                    found.append(item)
                else:
                    used.add(allowance)
        warnings = [
            f"{'shared_names' if pair in shared else 'allowed_literals'} entry matches nothing: "
            f"{pair[0]}: {pair[1]}"
            for pair in sorted(allowed - used)
        ]
        return ContractCheck(
            kept=not found and not unreadable,
            metadata={"literals": found, "unreadable": unreadable},
            warnings=warnings,
        )

    def render_broken_contract(self, check: ContractCheck) -> None:
        literals: list[WireLiteral] = check.metadata["literals"]
        unreadable: list[str] = check.metadata["unreadable"]
        sharers: dict[str, list[str]] = {}
        for package, name in sorted(_pairs(cast("set[str]", self.shared_names))):
            sharers.setdefault(name, []).append(package)
        for item in literals:
            owners = " and ".join([cast(str, self.home_package), *sharers.get(item.literal, [])])
            output.print_error(
                f"{item.module}:{item.line} spells the wire name {item.literal!r}; "
                f"only {owners} may.",
                bold=False,
            )
        for module in unreadable:
            output.print_error(f"{module}: no Python source file to inspect.", bold=False)
        output.new_line()


def _pairs(lines: set[str]) -> set[tuple[str, str]]:
    return {pair for pair in map(_allowance, lines) if pair is not None}


def _allowance(line: str) -> tuple[str, str] | None:
    module, separator, name = line.partition(":")
    if not separator or not module.strip() or not name.strip():
        return None
    return module.strip(), name.strip()


def _matching_allowance(allowed: set[tuple[str, str]], item: WireLiteral) -> tuple[str, str] | None:
    for allowance in allowed:
        module, name = allowance
        inside = item.module == module or item.module.startswith(module + ".")
        if inside and item.literal == name:
            return allowance
    return None


def wire_literals_in(module: str, source: str, names: frozenset[str]) -> list[WireLiteral]:
    """Every string constant in ``source`` equal to one of ``names``, in source order.

    Raises SyntaxError when ``source`` is not valid Python.
    """
    found = [
        WireLiteral(module=module, line=node.lineno, literal=node.value)
        for node in ast.walk(ast.parse(source, filename=module))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names
    ]
    return sorted(found, key=lambda item: item.line)


def module_source_path(module: str) -> Path | None:
    """The ``.py`` file of ``module``, found without importing it or its parents.

    Returns None when no finder knows the module or it has no Python source.
    """
    parts = module.split(".")
    try:
        spec = importlib.util.find_spec(parts[0])
    except (ImportError, ValueError):
        return None
    for part in parts[1:]:
        if spec is None or spec.submodule_search_locations is None:
            return None
        spec = importlib.machinery.PathFinder.find_spec(part, list(spec.submodule_search_locations))
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)
