"""Frontend: Python source (via `ast`, never executed) to the CLP-translated program."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from pathcraft.errors import PathcraftError, TargetError, UnsupportedError, at
from pathcraft.frontend.builtins import builtin_predicates
from pathcraft.frontend.lower import FunctionLowerer
from pathcraft.frontend.module import ModuleSource, function_info, load_module
from pathcraft.ir.nodes import FunctionInfo, Predicate, Program

__all__ = ["Frontend", "TranslationResult", "load_module", "translate"]


@dataclass
class TranslationResult:
    """The program for the functions that translated, and why others did not."""

    program: Program
    targets: list[str]
    errors: dict[str, PathcraftError] = field(default_factory=dict)


class Frontend:
    """Translates functions of one module on demand, callees included."""

    def __init__(self, module: ModuleSource) -> None:
        self.module = module
        self.signatures: dict[str, FunctionInfo] = {}
        self.signature_errors: dict[str, PathcraftError] = {}
        for name, fn in module.functions.items():
            try:
                self.signatures[name] = function_info(module, fn, name)
            except PathcraftError as exc:
                self.signature_errors[name] = exc
        self.predicates: dict[str, Predicate] = builtin_predicates()
        self.done: dict[str, set[str]] = {}
        self.errors: dict[str, PathcraftError] = {}

    def all_targets(self) -> list[str]:
        names = list(self.module.functions)
        for cls_name, cls in self.module.classes.items():
            if cls_name in self.module.exception_bases:
                continue
            names.extend(f"{cls_name}.{n.name}" for n in cls.body if isinstance(n, ast.FunctionDef))
        return names

    def translate(self, qualname: str) -> None:
        """Translate `qualname` and its callees; failures land in `errors`."""
        if qualname in self.done or qualname in self.errors:
            return
        try:
            callees = self._lower(qualname)
        except PathcraftError as exc:
            self.errors[qualname] = exc
            return
        self.done[qualname] = callees
        for callee in sorted(callees):
            self.translate(callee)
            if callee in self.errors:
                err = self.errors[callee]
                self.errors[qualname] = type(err)(
                    f"calls {callee}(), which cannot be analysed: {err.message}", err.location
                )
                del self.done[qualname]
                return

    def _lower(self, qualname: str) -> set[str]:
        if "." in qualname:
            cls_name, _, method = qualname.partition(".")
            cls = self.module.classes.get(cls_name)
            if cls is None or not any(isinstance(n, ast.FunctionDef) and n.name == method for n in cls.body):
                raise TargetError(f"{self.module.path}: no function or method named '{qualname}'")
            raise UnsupportedError("unsupported method (classes and objects are not supported yet)",
                                   at(self.module.path, cls))
        fn = self.module.functions.get(qualname)
        if fn is None:
            raise TargetError(f"{self.module.path}: no function named '{qualname}'")
        if qualname in self.signature_errors:
            raise self.signature_errors[qualname]
        lowerer = FunctionLowerer(self.module, fn, self.signatures[qualname], self.signatures)
        self.predicates.update(lowerer.lower())
        return lowerer.callees

    def program(self) -> Program:
        functions = {q: self.signatures[q] for q in self.done}
        return Program(
            module=self.module.name,
            path=self.module.path,
            predicates=dict(self.predicates),
            functions=functions,
            exception_bases=dict(self.module.exception_bases),
        )


def translate(path: str, names: list[str] | None = None) -> TranslationResult:
    """Translate the named functions of a module (all of them when None)."""
    frontend = Frontend(load_module(path))
    targets = names if names is not None else frontend.all_targets()
    for name in targets:
        frontend.translate(name)
    return TranslationResult(frontend.program(), targets, frontend.errors)
