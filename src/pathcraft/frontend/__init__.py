"""Frontend: Python source (via `ast`, never executed) to the CLP-translated program."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from pathcraft.depth import too_deep
from pathcraft.errors import PathcraftError, TargetError, UnsupportedError, at
from pathcraft.frontend import dataclass_eq
from pathcraft.frontend.builtins import builtin_predicates
from pathcraft.frontend.blocks import not_modelled_drops, silenced
from pathcraft.frontend.imports import home, unmerged_reason
from pathcraft.frontend.invariants import decorated_invariants
from pathcraft.frontend.lower import FunctionLowerer
from pathcraft.frontend.modelclasses import is_model_file
from pathcraft.frontend.total_ordering import DERIVED
from pathcraft.frontend.prelude import prelude_predicates
from pathcraft.models.int.lowering import format_predicates
from pathcraft.frontend.powers import power_predicates
from pathcraft.models.re.lowering import member_predicates
from pathcraft.models.str.lowering import str_predicates
from pathcraft.models.warnings.lowering import warning_predicates
from pathcraft.frontend.natives import load_natives
from pathcraft.frontend.stdlib import foreign_predicates
from pathcraft.frontend.module import function_info, load_module, property_setters
from pathcraft.frontend.source import NO_DEFAULT, ModuleSource
from pathcraft.ir.driver import DriverPlan
from pathcraft.ir.nodes import (
    CallMethod,
    Const,
    FunctionInfo,
    Instr,
    Predicate,
    Program,
    Return,
    Rule,
    SetField,
    Var,
)
from pathcraft.ir.types import Type

__all__ = ["Frontend", "TranslationResult", "load_module", "translate"]


@dataclass
class TranslationResult:
    """The program for the functions that translated, and why others did not."""

    program: Program
    targets: list[str]
    errors: dict[str, PathcraftError] = field(default_factory=dict)
    # `--objects constructed`: method targets whose objects stay free, and why
    free_objects: dict[str, str] = field(default_factory=dict)


@dataclass
class _Pending:
    """A function being translated, and the callees still to translate."""

    qualname: str
    callees: Iterator[str]
    waiting: str | None = None  # the callee being translated now


class Frontend:
    """Translates functions of one module on demand, callees included."""

    def __init__(self, module: ModuleSource) -> None:
        self.module = module
        self.signatures: dict[str, FunctionInfo] = {}
        self.signature_errors: dict[str, PathcraftError] = {}
        for name, fn in module.functions.items():
            try:
                self.signatures[name] = function_info(home(module, name), fn, name)
            except PathcraftError as exc:
                self.signature_errors[name] = exc
        for cls_name, info in module.class_infos.items():
            for method in info.methods:
                qualname = f"{cls_name}.{method}"
                node = module.method(cls_name, method)
                try:
                    if node is None:  # a dataclass's generated __init__
                        self.signatures[qualname] = self._dataclass_init_info(cls_name)
                    else:
                        self.signatures[qualname] = function_info(home(module, cls_name), node, qualname,
                                                                  owner=cls_name)
                except PathcraftError as exc:
                    self.signature_errors[qualname] = exc
        self.setter_nodes: dict[str, tuple[str, ast.FunctionDef]] = {}  # `C.p.setter` -> class, its def
        for cls_name, info in module.class_infos.items():
            for name, node in property_setters(module.classes[cls_name], info.setters):
                key = f"{cls_name}.{name}.setter"
                self.setter_nodes[key] = (cls_name, node)
                try:  # named `C.p` like its getter (CPython's co_qualname), entered by its own predicate
                    setter = function_info(home(module, cls_name), node, f"{cls_name}.{name}", owner=cls_name)
                    self.signatures[key] = replace(setter, entry=f"{cls_name}_{name}__setter")
                except PathcraftError as exc:
                    self.signature_errors[key] = exc
        self.predicates: dict[str, Predicate] = {**builtin_predicates(), **prelude_predicates(), **str_predicates(),
                                                   **warning_predicates(),
                                                   **member_predicates(),
                                                   **format_predicates(), **power_predicates(),
                                                   **foreign_predicates()}
        self.done: dict[str, set[str]] = {}
        self.errors: dict[str, PathcraftError] = {}
        self._soft: set[tuple[str, str]] = set()  # (caller, callee) reached only by method dispatch
        self.synthetic: dict[str, ast.FunctionDef] = {}  # functions made here (drivers), by qualname
        self.drivers: dict[str, DriverPlan] = {}
        self.driver_refusals: dict[str, str] = {}
        self.silent: set[str] = set()  # synthetic functions lowered without lines (generated methods)
        self._generated_equality()

    def define(self, info: FunctionInfo, fn: ast.FunctionDef) -> None:
        """A function the frontend wrote itself (a construction driver),
        translated like the module's own."""
        self.signatures[info.qualname] = info
        self.synthetic[info.qualname] = fn

    def _generated_equality(self) -> None:
        """The `__eq__` of each `@dataclass` that gets one generated and whose
        fields are all its own (frontend/dataclass_eq.py)."""
        for cls_name, info in list(self.module.class_infos.items()):
            node = self.module.classes[cls_name]
            if not dataclass_eq.generated(node, info) or any(
                    self.module.class_infos[b].dataclass for b in self._bases(cls_name)):
                continue
            fields = tuple(name for name, _ in self.module.dataclasses[cls_name])
            made = dataclass_eq.synthesize(node, fields, info)
            if made is None:
                continue
            self.module.class_infos[cls_name] = replace(info, methods=(*info.methods, "__eq__"))
            self.define(*made)
            self.silent.add(made[0].qualname)

    def _bases(self, cls: str) -> list[str]:
        out: list[str] = []
        base = self.module.class_infos[cls].base
        while base is not None and base in self.module.class_infos and base not in out:
            out.append(base)
            base = self.module.class_infos[base].base
        return out

    def intrinsic(self, name: str, predicate: Predicate) -> None:
        """A name synthesized code calls to enter `predicate` directly."""
        self.signatures[name] = FunctionInfo(name, name, (), (), None, (), 0, 0, predicate.name)
        self.predicates[predicate.name] = predicate
        self.done[name] = set()

    def all_targets(self) -> list[str]:
        names = [n for n in self.module.functions if n not in self.module.origins]
        for cls_name, cls in self.module.classes.items():
            if cls_name in self.module.exception_bases or cls_name.split(".")[0] in self.module.origins:
                continue  # an exception; a class of another module, or nested in one (its own module tests it)
            names.extend(f"{cls_name}.{n.name}" for n in cls.body
                         if isinstance(n, ast.FunctionDef) and not n.name.startswith("__"))
        return list(dict.fromkeys(names))  # a property's setter shares its getter's name

    def _dataclass_init_info(self, cls: str) -> FunctionInfo:
        info = self.module.class_infos[cls]
        fields = dict(info.fields)
        names = [name for name, _ in self.module.dataclasses[cls]]
        defaults = tuple((n, d) for n, d in self.module.dataclasses[cls] if d is not NO_DEFAULT)
        node = self.module.classes[cls]
        return FunctionInfo(
            name="__init__", qualname=f"{cls}.__init__", params=("self", *names),
            param_types=(Type("obj", cls), *[fields[n] for n in names]),
            return_type="None", defaults=defaults,
            lineno=node.lineno, end_lineno=node.lineno, entry=f"{cls}___init__",
            keyword_only=tuple(names) if cls in self.module.keyword_only_dataclasses else (),
        )

    def translate(self, qualname: str) -> None:
        """Translate `qualname` and its callees, depth first; failures land
        in `errors`. A caller of a function that cannot be analysed is
        analysed all the same: a path that reaches the call is dropped and
        the reason named (Program.refused), its other paths keep their tests.
        The walk keeps its own stack: call chains can be long."""
        stack: list[_Pending] = []
        self._start(qualname, stack)
        while stack:
            top = stack[-1]
            top.waiting = next(top.callees, None)
            if top.waiting is None:
                stack.pop()
            else:
                self._start(top.waiting, stack)

    def _start(self, qualname: str, stack: list[_Pending]) -> None:
        """Lower `qualname` unless done or failed; its callees come next."""
        if qualname in self.done or qualname in self.errors:
            return
        try:
            callees = self._lower(qualname)
        except PathcraftError as exc:
            self.errors[qualname] = unmerged_reason(self.module, exc)
            return
        except RecursionError as exc:  # even the deep stack (pathcraft.depth) was not deep enough
            node = self._node(qualname)
            self.errors[qualname] = UnsupportedError(
                too_deep(exc), at(self.module.path, node) if node is not None else None)
            return
        self.done[qualname] = callees
        stack.append(_Pending(qualname, iter(sorted(callees))))

    def _node(self, qualname: str) -> ast.AST | None:
        owner, _, name = qualname.rpartition(".")
        return self.module.method(owner, name) if owner else self.module.functions.get(qualname)

    def _lower(self, qualname: str) -> set[str]:
        owner: str | None = None
        if qualname in self.synthetic:
            fn: ast.FunctionDef | None = self.synthetic[qualname]
        elif qualname in self.setter_nodes:
            owner, fn = self.setter_nodes[qualname]
        elif "." in qualname:
            self._check_survives_import(qualname)
            owner, _, method = qualname.rpartition(".")
            if owner in self.module.class_errors:
                raise self.module.class_errors[owner]
            info = self.module.class_infos.get(owner)
            if info is None or method not in info.methods:
                raise TargetError(f"{self.module.path}: no function or method named '{qualname}'")
            fn = self.module.method(owner, method)
            if fn is None:
                self.predicates.update(self._dataclass_init(owner))
                post = self._post_init(owner)
                return {post} if post is not None else set()
        else:
            self._check_survives_import(qualname)
            fn = self.module.functions.get(qualname)
            if fn is None:
                raise TargetError(f"{self.module.path}: no function named '{qualname}'")
        assert fn is not None
        if qualname in self.signature_errors:
            raise self.signature_errors[qualname]
        signature = self.signatures.get(qualname)
        if signature is not None and signature.cached and any(t.kind in ("list", "dict", "set", "obj")
                                                               for t in signature.param_types):
            raise UnsupportedError("unsupported cached function with a list, dict, set or object parameter (the "
                                   "cache's TypeError for an unhashable argument is not modelled)",
                                   at(self.module.path, fn))
        if qualname in self.silent:
            owner = qualname.rpartition(".")[0]
        source = home(self.module, qualname)
        if source is not self.module and self.signatures[qualname].generator \
                and not is_model_file(source.path):  # a model's (dict's `__iter__`) is silent, as the prelude's
            raise UnsupportedError("unsupported generator of another module (its resumptions would show in the "
                                   "path)", at(source.path, fn))
        lowerer = FunctionLowerer(source, fn, self.signatures[qualname], self.signatures, owner)
        lowered = lowerer.lower()
        if qualname in self.silent or getattr(fn, DERIVED, False):  # a generated method: no events of its own
            lowered = silenced(lowered, builtin=True)
        elif is_model_file(source.path):  # a stdlib base class's model: the stdlib's code, as a path sees it
            lowered = not_modelled_drops(silenced(lowered, foreign=True))
        elif source is not self.module:  # another file's code: no events in this file's trace
            lowered = silenced(lowered, foreign=True)
        self.predicates.update(lowered)
        return self._callees(qualname, lowerer, source, fn)

    def _callees(self, qualname: str, lowerer: FunctionLowerer, source: ModuleSource, fn: ast.FunctionDef
                 ) -> set[str]:
        """What the lowered `qualname` calls, by name or by dispatch, and the
        `__init__` of each class it builds (an abstract one is refused)."""
        callees = set(lowerer.calls.callees)
        direct = set(callees)  # entered by name (`super().m()`, `C.m(self)`): its failure is the caller's
        for method in lowerer.calls.methods_called:
            for cls_name, info in self.module.class_infos.items():
                dispatched = [f"{cls_name}.{method}"] if method in info.methods else []
                if method in info.setters:  # an assignment may run the property's setter
                    dispatched.append(f"{cls_name}.{method}.setter")
                for callee in dispatched:
                    # dispatched at run time: a method that cannot be analysed
                    # fails only the paths that reach it, not its callers
                    if callee not in direct:
                        self._soft.add((qualname, callee))
                    callees.add(callee)
        for cls_name in lowerer.calls.classes_built:
            if cls_name in self.module.class_errors:
                raise self.module.class_errors[cls_name]
            abstract = self.module.class_infos[cls_name].abstract
            if abstract:  # Python refuses to build one (TypeError, its message differs by version)
                raise UnsupportedError(f"unsupported instance of abstract class '{cls_name}' (abstract method "
                                       f"{abstract[0]})", at(source.path, fn))
            if "__init__" in self.module.class_infos[cls_name].methods:
                callees.add(f"{cls_name}.__init__")
        return callees

    def _dataclass_init(self, cls: str) -> dict[str, Predicate]:
        """The `__init__` a `@dataclass` generates: set every field from its
        parameter. Generated code has no source lines, so no trace events."""
        info = self.signatures[f"{cls}.__init__"]
        body: tuple[Instr, ...] = tuple(SetField(Var("self"), p, Var(p), 0, force=True) for p in info.params[1:])
        if self._post_init(cls) is not None:  # the generated __init__ ends by calling it (its frame and events)
            body += (CallMethod(None, Var("self"), "__post_init__", (), 0),)
        rule = Rule(1, None, body + (Return(Const(None), 0),))
        pred = Predicate(info.entry, info.qualname, info.params, (rule,), is_entry=True, builtin=True)
        return {pred.name: pred}

    def _post_init(self, cls: str) -> str | None:
        """The `__post_init__` a dataclass's generated `__init__` calls, if any."""
        current: str | None = cls
        while current is not None and current in self.module.class_infos:
            if "__post_init__" in self.module.class_infos[current].methods:
                return f"{current}.__post_init__"
            current = self.module.class_infos[current].base
        return None

    def _check_survives_import(self, qualname: str) -> None:
        """The generated tests use the module as imported: a name deleted at
        import time is gone, and a class of a module that star-imports a
        private (C) module may be replaced by a type `object.__new__` cannot
        build."""
        if self.module.import_failure is not None:
            where, why = self.module.import_failure
            raise UnsupportedError(f"unsupported module: importing it fails here ({why})",
                                   at(self.module.path, where))
        top = qualname.split(".")[0]
        deleted = self.module.deleted.get(top)
        if deleted is not None:
            how = "bound again" if top in self.module.rebound else "deleted"  # module.py: _read_deletions
            raise UnsupportedError(f"unsupported '{top}': {how} when the module is imported",
                                   at(self.module.path, deleted))
        owner, _, member = qualname.rpartition(".")
        alteration = self.module.altered.get(owner) if owner else None
        if alteration is not None and not alteration.unbounded and alteration.covers(member):  # alterations.py
            raise UnsupportedError(f"unsupported method '{qualname}': {alteration.by} may delete or replace it",
                                   at(self.module.origins.get(owner, self.module.path), alteration.statement))
        star = self.module.star_import
        if star is not None and "." in qualname and top not in self.module.model_classes:  # a model's is no import
            raise UnsupportedError(f"unsupported class '{top}': the module may replace it at import "
                                   f"(from {star.module} import *)", at(self.module.path, star))

    def program(self) -> Program:
        functions = {q: self.signatures[q] for q in self.done}
        return Program(
            module=self.module.name,
            path=self.module.path,
            predicates=dict(self.predicates),
            functions=functions,
            exception_bases=dict(self.module.exception_bases),
            classes=dict(self.module.class_infos),
            replaced_at_import=frozenset(self.module.replaced_at_import),
            hidden_classes=frozenset(self.module.hidden),
            class_spellings=dict(self.module.spellings),
            class_homes=dict(self.module.homes),
            invariants=tuple(q for q in decorated_invariants(self.module.tree) if q in self.done),
            drivers=dict(self.drivers),
            refused=self._refused_entries(),
        )

    def _refused_entries(self) -> dict[str, str]:
        """Each refused function's entry predicate and why (Program.refused),
        also where its lowering got as far as its predicates before failing
        (a class it builds refused): those never run."""
        out: dict[str, str] = {}
        for qualname, error in self.errors.items():
            info = self.signatures.get(qualname)
            if info is not None:
                out[info.entry] = out[qualname] = f"call of {qualname}(), which cannot be analysed: {error.message}"
        return out


def translate(path: str, names: list[str] | None = None, invariants: tuple[str, ...] = (), *,
              objects: str = "free", setup_calls: int = 2, natives: tuple[str, ...] = ()) -> TranslationResult:
    """Translate the named functions of a module (all of them when None),
    and the class invariants (`@invariant` methods and `invariants`) the
    tests of its methods check; with `objects="constructed"`, also a
    construction driver (at most `setup_calls` setup calls) for each method
    that translated; `natives`: files of native summaries (frontend/natives.py)."""
    module = load_module(path)
    if natives:
        module.natives = load_natives(natives)
    frontend = Frontend(module)
    frontend.predicates.update(module.natives.predicates)
    targets = names if names is not None else frontend.all_targets()
    for name in targets:
        frontend.translate(name)
    for name in (*decorated_invariants(module.tree), *invariants):
        frontend.translate(name)
        if name in invariants and name in frontend.errors:
            raise PathcraftError(f"invariant {name}: {frontend.errors[name].message}",
                                 frontend.errors[name].location)
    if objects == "constructed":
        from pathcraft.frontend.driver import add_drivers

        add_drivers(frontend, [t for t in targets if t in frontend.done], setup_calls)
    return TranslationResult(frontend.program(), targets, frontend.errors, dict(frontend.driver_refusals))
