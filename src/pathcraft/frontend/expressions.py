"""Lowering expressions and conditions into a function's blocks.

Expressions become pure IR expressions; whatever can branch or fail
(division by a possibly-zero divisor, `abs`, `min`, `max`, `**`, user calls,
heap operations) is emitted as an instruction into a fresh temporary, in
Python's evaluation order. Conditions with `and`/`or`/`not` and chained
comparisons become branch chains: short-circuit is control flow.

`ExpressionLowerer` is a collaborator of the statement lowerer: it works
against the `BlockSink` interface only, and records what the code calls in
a `CallsMade` that its owner passes in.
"""

from __future__ import annotations

import ast
import copy
import sys
import builtins
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from pathcraft.errors import UnsupportedError, construct_name, unknown_name, unsupported
from pathcraft.frontend.frozen import Relocate
from pathcraft.frontend import bitops
from pathcraft.frontend import mathmod
from pathcraft.frontend.linetable import lines_after_calls
from pathcraft.frontend.blocks import BlockBuilder
from pathcraft.frontend import intformat, namedtuples, nested, powers
from pathcraft.frontend.builtins import PRINT
from pathcraft.frontend.generators import CONSUMERS
from pathcraft.frontend.mathmod import is_math
from pathcraft.frontend.module import mangle
from pathcraft.frontend.source import ModuleSource
from pathcraft.frontend.names import plainly_assigned
from pathcraft.frontend.sink import BlockSink
from pathcraft.frontend.stdlib import Stdlib
from pathcraft.frontend.strbuiltins import CONVERSIONS
from pathcraft.ir.builtin_names import (
    CONTAINS,
    LOOP_STEP,
    EQ,
    LIST_PROTOCOL,
    OBJECT_EQ,
    OBJECT_ORDER,
    ORDERINGS,
    NEW_DEFAULTDICT,
    NEW_DICT,
    NEW_SET,
    SLICE_PROTOCOL,
    SORT_BY,
    function_predicate,
)
from pathcraft.ir.nodes import (
    Assign,
    Binary,
    Call,
    CallMethod,
    CheckMethod,
    Const,
    Expr,
    FunctionInfo,
    GetField,
    ListOp,
    Mark,
    NewList,
    NewObject,
    RepeatList,
    Text,
    Unary,
    Var,
)

CALL_POSITION = "pathcraft_call_position"  # a call's place in the source, kept on copies (lower.py)
STEP_CALLS = ("__pc_len", "__pc_item", "__pc_shut")  # frontend/generators.py: a loop's own steps and close
_ARITH = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul"}
_DIVISION = {ast.FloorDiv: ("floordiv", "int_floordiv"), ast.Mod: ("mod", "int_mod"), ast.Div: ("truediv", "truediv")}
_COMPARE = {
    ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge",
    ast.Is: "is", ast.IsNot: "isnot",
}
_OPERATOR_TEXT = {
    ast.MatMult: "operator '@'",
    ast.In: "operator 'in'",
    ast.NotIn: "operator 'not in'",
}


@dataclass
class CallsMade:
    """What one function's code calls: the frontend translates these next."""

    callees: set[str] = field(default_factory=set)  # module functions, by name
    methods_called: set[str] = field(default_factory=set)  # dispatched at run time
    classes_built: set[str] = field(default_factory=set)  # instantiated classes


class ExpressionLowerer:
    """Lowers the expressions and conditions of one function into `blocks`.

    `signatures` are those of the module's functions and methods (`C.m`):
    a call by name resolves to a function, `C(...)` to `C.__init__`.
    `local_names` are the function's locals (parameters included): any
    other name must be a module constant. `owner` is the class of a method
    (private attribute names are mangled with it). Calls are recorded in
    `calls`, which the caller owns."""

    def __init__(self, blocks: BlockSink, *, module: ModuleSource, fn: ast.FunctionDef, info: FunctionInfo,
                 signatures: Mapping[str, FunctionInfo], local_names: frozenset[str], owner: str | None,
                 calls: CallsMade) -> None:
        self.blocks = blocks
        self.module = module
        self.info = info
        self.signatures = signatures
        self.functions = {q: f for q, f in signatures.items() if "." not in q}
        self.local_names = local_names
        self.owner = owner
        self.calls = calls
        self.reassigned = plainly_assigned(fn)
        # lowers a list comprehension (the statement lowerer's job: it is a loop)
        self.comprehension: Callable[[ast.ListComp | ast.DictComp | ast.SetComp], Expr] | None = None
        # lowers `sum(... for ...)` and the like (a consumer of a generator expression)
        self.generator: Callable[[str, ast.GeneratorExp], Expr] | None = None
        # `sorted(xs, key=f)` and kin (frontend/keyed.py): consumer, items, key, reverse, the call
        self.keyed: Callable[[str, ast.expr, ast.expr, bool, ast.Call], Expr] | None = None
        self.generator_value: Callable[[ast.GeneratorExp], Expr] | None = None  # a genexpr as a value
        # nested functions callable here by name: what a call binds, and the captures passed after
        self.nested_calls: Mapping[str, tuple[FunctionInfo, tuple[str, ...]]] = {}
        self.opaque: frozenset[str] = frozenset()  # parameters whose annotations decide nothing
        self.cells: Mapping[str, str] = {}  # cell -> its variable, filled around nested calls (closures.py)
        # a classmethod's `cls`: the class it names (frontend/decorators.py)
        self.class_alias: dict[str, str] = {}
        self.stdlib = Stdlib(self, fn)  # names imported from the standard library (frontend/stdlib.py)

    def error(self, node: ast.AST, what: str) -> Exception:
        return unsupported(self.module.path, node, what)

    # ------------------------------------------------------------ conditions

    def condition(self, node: ast.expr, if_true: BlockBuilder, if_false: BlockBuilder) -> None:
        """Branch to `if_true`/`if_false` on the truth of `node`, short-circuit."""
        if isinstance(node, ast.BoolOp):
            for operand, following in zip(node.values, node.values[1:]):
                middle = self.blocks.new_block("and" if isinstance(node.op, ast.And) else "or")
                if isinstance(node.op, ast.And):
                    self.condition(operand, middle, if_false)
                else:
                    self.condition(operand, if_true, middle)
                self.blocks.resume(middle)
                if self.blocks.current is None:
                    return
                self.next_operand_line(operand, following)
            self.condition(node.values[-1], if_true, if_false)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            self.condition(node.operand, if_false, if_true)
        elif isinstance(node, ast.Compare) and len(node.ops) > 1 and not self.is_type_comparison(node):
            left = self.expr(node.left)
            last = len(node.ops) - 1
            for i, (op, comparator) in enumerate(zip(node.ops, node.comparators)):
                right = self.expr(comparator)
                if i < last:
                    right = self.blocks.stable(right, node.lineno)
                    middle = self.blocks.new_block("cmp")
                    self.blocks.branch(self.compare(op, left, right, node), middle, if_false)
                    self.blocks.resume(middle)
                    if self.blocks.current is None:
                        return
                    left = right
                else:
                    self.blocks.branch(self.compare(op, left, right, node), if_true, if_false)
        else:
            self.blocks.branch(_truth(self.truth_of(node, self.expr(node))), if_true, if_false)

    def is_type_comparison(self, node: ast.Compare) -> bool:
        """`type(a) is type(b)`, `type(x) is C`, chains and `is not` too."""
        operands = [node.left, *node.comparators]
        return all(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops) \
            and any(self._type_call(o) is not None for o in operands)

    def type_comparison(self, node: ast.Compare) -> Expr | None:
        """`type(a) is type(b) is C`: each side named (the engine's `typeof`
        of a value, a class's or builtin type's name), compared pairwise as
        names; each operand evaluated once, left to right. None: not one."""
        if not self.is_type_comparison(node):
            return None
        named: list[Expr] = []
        for operand in [node.left, *node.comparators]:
            inner = self._type_call(operand)
            if inner is not None:
                value = self.blocks.stable(self.expr(inner), node.lineno)
                named.append(self.blocks.stable(Unary("typeof", value), node.lineno))
                continue
            cls = operand.id if isinstance(operand, ast.Name) and operand.id not in self.local_names \
                and operand.id in self.module.class_infos else self.nested_class(operand)
            if cls is not None:
                named.append(Const(Text(cls)))
            elif isinstance(operand, ast.Name) and operand.id in _TYPE_NAMES and operand.id not in self.local_names \
                    and operand.id not in self.module.classes:
                named.append(Const(Text(_TYPE_NAMES[operand.id])))
            else:
                raise self.error(operand, "type() compared with something other than type() or a class")
        result: Expr | None = None
        for op, left, right in zip(node.ops, named, named[1:]):
            pair = Binary("eq" if isinstance(op, ast.Is) else "ne", left, right)
            result = pair if result is None else Binary("and", result, pair)
        assert result is not None
        return result

    def _type_call(self, node: ast.expr) -> ast.expr | None:
        """The argument of `type(x)` (the builtin, one argument), if `node` is one."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "type" \
                and len(node.args) == 1 and not node.keywords and not isinstance(node.args[0], ast.Starred) \
                and "type" not in self.local_names and "type" not in self.functions \
                and "type" not in self.module.classes:
            return node.args[0]
        return None

    def truth_of(self, node: ast.expr, value: Expr) -> Expr:
        """`if x:` where `x` may be an object of a class with `__bool__` or
        `__len__`: the engine calls it (`ListOp("truth")` gives a bool);
        any other value is tested as it is."""
        if not self.module.value_truth or not isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)):
            return value
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _NO_OBJECTS \
                and node.func.id not in self.local_names and node.func.id not in self.functions \
                and node.func.id not in self.module.classes:
            return value  # `isinstance(...)`, `len(...)`: a bool or an int
        tmp = self.blocks.temp()
        self.calls.methods_called.update(("__bool__", "__len__"))
        self.blocks.emit(ListOp("truth", tmp, self.blocks.stable(value, node.lineno), (), node.lineno))
        return Var(tmp)

    def compare(self, op: ast.cmpop, left: Expr, right: Expr, node: ast.AST) -> Expr:
        """`left OP right`; `x in c` is `c.__contains__(x)`, dispatched on
        the container (a list's is in the prelude, a class may define its own)."""
        if isinstance(op, (ast.In, ast.NotIn)):
            item = self.blocks.stable(left, getattr(node, "lineno", 0))
            container = self.blocks.stable(right, getattr(node, "lineno", 0))
            tmp = self.blocks.temp()
            self.calls.methods_called.add(CONTAINS)
            self.blocks.emit(CallMethod(tmp, container, CONTAINS, (item,), getattr(node, "lineno", 0)))
            found = Unary("truth", Var(tmp))
            return found if isinstance(op, ast.In) else Unary("not", found)
        if isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(node, ast.Compare) and len(node.ops) == 1 \
                and (self.sequence(node.left, tuples=False) or self.sequence(node.comparators[0], tuples=False)):
            return self.sequence_equality(op, left, right, node)
        if isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(node, ast.Compare) and len(node.ops) == 1 \
                and self.module.value_equality and not _scalar_literal(node.left) \
                and not _scalar_literal(node.comparators[0]):
            return self.object_equality(op, left, right, node)
        if isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) and isinstance(node, ast.Compare) \
                and len(node.ops) == 1 and self.module.value_ordering and not _scalar_literal(node.left) \
                and not _scalar_literal(node.comparators[0]):
            return self.object_order(op, left, right, node)
        return Binary(self.compare_op(op, node), left, right)

    def object_order(self, op: ast.cmpop, left: Expr, right: Expr, node: ast.Compare) -> Expr:
        """`a < b` where a class of the module orders its instances: the
        engine dispatches to the method Python would call (engine/objorder.py)."""
        receiver = self.blocks.stable(left, node.lineno)
        other = self.blocks.stable(right, node.lineno)
        self.calls.methods_called.update(("__lt__", "__le__", "__gt__", "__ge__"))
        tmp = self.blocks.temp()
        which = ORDERINGS.index(self.compare_op(op, node))
        self.blocks.emit(CallMethod(tmp, receiver, OBJECT_ORDER, (other, Const(which)), node.lineno))
        return Unary("truth", Var(tmp))

    def object_equality(self, op: ast.cmpop, left: Expr, right: Expr, node: ast.Compare) -> Expr:
        """`a == b` where a class of the module compares by value: the
        engine dispatches to the `__eq__` Python would call (engine/objeq.py)."""
        receiver = self.blocks.stable(left, node.lineno)
        other = self.blocks.stable(right, node.lineno)
        self.calls.methods_called.add(EQ)
        tmp = self.blocks.temp()
        negated = isinstance(op, ast.NotEq)
        self.blocks.emit(CallMethod(tmp, receiver, OBJECT_EQ, (other, Const(negated)), node.lineno))
        same = Unary("truth", Var(tmp))
        return Unary("not", same) if negated else same

    def sequence_equality(self, op: ast.cmpop, left: Expr, right: Expr, node: ast.Compare) -> Expr:
        """`a == b` where one side is surely a list: `a.__eq__(b)`, item by
        item in the prelude (`!=` is its negation, as list's `__ne__` is)."""
        receiver = self.blocks.stable(left, node.lineno)
        other = self.blocks.stable(right, node.lineno)
        self.calls.methods_called.add(EQ)
        tmp = self.blocks.temp()
        self.blocks.emit(CallMethod(tmp, receiver, EQ, (other,), node.lineno))
        same = Unary("truth", Var(tmp))
        return same if isinstance(op, ast.Eq) else Unary("not", same)

    def compare_op(self, op: ast.cmpop, node: ast.AST) -> str:
        if isinstance(op, (ast.Is, ast.IsNot)) and isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(isinstance(o, ast.Constant) and o.value is not None and type(o.value) is not bool
                   for o in operands):
                word = "is" if isinstance(op, ast.Is) else "is not"
                raise self.error(node, f"operator '{word}' with a literal (identity of ints)")
        name = _COMPARE.get(type(op))
        if name is None:
            raise self.error(node, _OPERATOR_TEXT.get(type(op), "comparison operator"))
        return name

    # ----------------------------------------------------------- expressions

    def expr(self, node: ast.expr, discard: bool = False) -> Expr:
        if isinstance(node, ast.Attribute) and is_math(node.value, self.module.imported, self.local_names):
            if node.attr not in mathmod.CONSTANTS:
                raise self.error(node, f"math.{node.attr}")
            return Const(mathmod.CONSTANTS[node.attr])
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id not in self.local_names \
                and (node.value.id in self.class_alias or node.value.id in self.module.class_infos):
            return self.class_attribute(self.class_alias.get(node.value.id, node.value.id), node)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "sys" \
                and "sys" not in self.local_names and node.attr == "maxsize" and "sys" in self.module.imported:
            return Const(sys.maxsize)  # the running interpreter's, as the tests' is
        if isinstance(node, ast.Attribute) and (foreign := self.stdlib.read(node)) is not None:
            return foreign
        if isinstance(node, ast.Attribute):
            obj = self.expr(node.value)
            self.note_attribute(node.attr)
            tmp = self.blocks.temp()
            self.blocks.emit(GetField(tmp, obj, self.attr(node.attr), node.lineno))
            if any(node.attr in c.properties for c in self.module.class_infos.values()):
                again = self.line_after_call(node)  # a getter's frame may come in between (frontend/linetable.py)
                if again is not None and self.blocks.current is not None:
                    self.blocks.emit(Mark(again, after_call=True))
            return Var(tmp)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            return self.slice(node, node.slice)
        if isinstance(node, ast.Subscript):
            lst = self.expr(node.value)
            index = self.index(node.slice)
            tmp = self.blocks.temp()
            self.blocks.emit(ListOp("get", tmp, lst, (index,), node.lineno))
            return Var(tmp)
        if isinstance(node, (ast.List, ast.Tuple)):
            if any(isinstance(e, ast.Starred) for e in node.elts):
                if isinstance(node, ast.Tuple):
                    raise self.error(node, "starred item in a tuple")
                return self.starred_list(node)
            items = tuple(self.blocks.stable(self.expr(e), node.lineno) for e in node.elts)
            tmp = self.blocks.temp()
            self.blocks.emit(NewList(tmp, items, None, node.lineno, is_tuple=isinstance(node, ast.Tuple)))
            return Var(tmp)
        if isinstance(node, (ast.Dict, ast.Set)):
            return self.dict_or_set(node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and (
            _single_item_list(node.left) or _single_item_list(node.right)
        ):
            listed, count = (node.left, node.right) if _single_item_list(node.left) else (node.right, node.left)
            assert isinstance(listed, ast.List)
            value = self.blocks.stable(self.expr(listed.elts[0]), node.lineno)
            times = self.blocks.stable(self.expr(count), node.lineno)
            tmp = self.blocks.temp()
            self.blocks.emit(RepeatList(tmp, value, times, None, node.lineno))
            return Var(tmp)
        if isinstance(node, ast.Constant):
            if isinstance(node.value, (bool, int, float)) or node.value is None:
                return Const(node.value)
            if isinstance(node.value, str):
                return Const(Text(node.value))
            raise self.error(node, construct_name(node))
        if isinstance(node, ast.JoinedStr):
            return self.fstring(node)
        if isinstance(node, ast.Name):
            if node.id in self.local_names:
                return Var(node.id)
            if node.id in self.class_alias:
                raise self.error(node, f"the class '{node.id}' as a value")
            if self.module.from_math.get(node.id) in mathmod.CONSTANTS:
                return Const(mathmod.CONSTANTS[self.module.from_math[node.id]])
            if node.id in self.module.constants:
                return Const(self.module.constants[node.id])
            if node.id in self.module.frozen:  # a fresh copy of a container nothing changes
                return self.expr(Relocate(node).visit(copy.deepcopy(self.module.frozen[node.id])))
            if (foreign := self.stdlib.read(node)) is not None:
                return foreign
            raise unknown_name(self.module.path, node, node.id)
        if isinstance(node, ast.BinOp):
            return self.binop(node.op, self.expr(node.left), node.right, node, left_node=node.left)
        if isinstance(node, ast.UnaryOp):
            operand = self.expr(node.operand)
            if isinstance(node.op, ast.USub):
                return Unary("neg", operand)
            if isinstance(node.op, ast.UAdd):
                return Unary("int", operand)
            if isinstance(node.op, ast.Not):
                return Unary("not", self.truth_of(node.operand, operand))
            if isinstance(node.op, ast.Invert):
                return bitops.invert(operand)
            raise self.error(node, _OPERATOR_TEXT.get(type(node.op), "unary operator"))
        if isinstance(node, ast.Compare) and self.is_type_comparison(node):
            compared = self.type_comparison(node)
            assert compared is not None
            return compared
        if isinstance(node, ast.Compare):
            if len(node.ops) == 1:
                left = self.expr(node.left)
                return self.compare(node.ops[0], left, self.expr(node.comparators[0]), node)
            return self.branching_value(node)
        if isinstance(node, (ast.BoolOp, ast.IfExp)):
            return self.branching_value(node)
        if isinstance(node, ast.Call):
            value = self.call(node, discard)
            again = self.line_after_call(node)
            if again is not None and self.blocks.current is not None:
                self.blocks.emit(Mark(again, after_call=True))
            return value
        if isinstance(node, (ast.ListComp, ast.DictComp, ast.SetComp)) and self.comprehension is not None:
            return self.comprehension(node)
        if isinstance(node, ast.GeneratorExp) and self.generator_value is not None:
            return self.generator_value(node)
        raise self.error(node, construct_name(node))

    def next_operand_line(self, operand: ast.expr, following: ast.expr) -> None:
        """`a or\\n b`: the frame moves to another physical line for `b`; the
        tracer reports the statement's line again if a call (a getter) ran
        since its last line event, and the repeat collapses otherwise."""
        if following.lineno != (operand.end_lineno or operand.lineno):
            line = self.module.statement_lines.get(following.lineno)
            if line is not None and self.blocks.current is not None:
                self.blocks.emit(Mark(line, after_call=True))

    def line_after_call(self, node: ast.Call | ast.Attribute) -> int | None:
        """The statement line CPython reports when `node` returns, if it
        reports one (see frontend/linetable.py)."""
        key = getattr(node, CALL_POSITION, None) or (node.lineno, node.col_offset, node.end_lineno or node.lineno,
                                                     node.end_col_offset or 0)
        following = lines_after_calls(self.module.path).get(key)
        if following is None:
            return None
        return self.module.statement_lines.get(following)  # None: a line the tracer does not report (`try:`)

    def dict_or_set(self, node: ast.Dict | ast.Set) -> Expr:
        """`{k: v, ...}` as `$dict(k, v, ...)`, `{a, ...}` as `$set(a, ...)`:
        built by the engine, keys and values evaluated in Python's order."""
        parts: list[ast.expr] = []
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if key is None:
                    raise self.error(value, "'**' in a dict literal")
                parts += [key, value]
        else:
            parts = list(node.elts)
        if any(isinstance(p, ast.Starred) for p in parts):
            raise self.error(node, "'*' in a set literal")
        args = tuple(self.blocks.stable(self.expr(p), node.lineno) for p in parts)
        tmp = self.blocks.temp()
        self.blocks.emit(Call(tmp, NEW_DICT if isinstance(node, ast.Dict) else NEW_SET, args, node.lineno))
        return Var(tmp)

    def fstring(self, node: ast.JoinedStr) -> Expr:
        """`f"..."`: literal parts and `{name}` fields (no conversion, no
        format spec) concatenated, each field formatted by the engine (an
        int, bool, str or None has its text computed; anything else makes
        the whole string one whose text is not computed); a field with a
        conversion or a format spec makes the string not computed. Every
        field's expression runs, in order (it may raise: `{self.dist[u]}`)."""
        parts: list[Expr] = []
        computed = True
        for value in node.values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                parts.append(Const(Text(value.value)))
            elif isinstance(value, ast.FormattedValue):
                try:
                    field = self.blocks.stable(self.expr(value.value), node.lineno)
                except UnsupportedError as exc:  # the paths that get here are dropped, the function stays
                    return self.stdlib.dropped(f"an f-string field: {exc.message}", value.value)
                if value.conversion == -1 and value.format_spec is None:
                    parts.append(Unary("format", field))
                else:
                    computed = False
            else:
                computed = False
        if not computed:
            return Const(Text(None))
        result: Expr = parts[0] if parts else Const(Text(""))
        for part in parts[1:]:
            result = Binary("add", result, part)
        return result

    def slice(self, node: ast.Subscript, part: ast.Slice) -> Expr:
        """`x[a:b:c]` read: `x.__getslice__(a, has_a, b, has_b, c)`, a
        prelude method per sequence kind (a flag for each bound left out)."""
        seq = self.blocks.stable(self.expr(node.value), node.lineno)
        args: list[Expr] = []
        for bound in (part.lower, part.upper):
            args += [Const(0), Const(False)] if bound is None else \
                [self.blocks.stable(self.expr(bound), node.lineno), Const(True)]
        args.append(Const(1) if part.step is None else self.blocks.stable(self.expr(part.step), node.lineno))
        tmp = self.blocks.temp()
        self.calls.methods_called.add(SLICE_PROTOCOL)
        self.blocks.emit(CallMethod(tmp, seq, SLICE_PROTOCOL, tuple(args), node.lineno))
        return Var(tmp)

    def method_name(self, name: str) -> str:
        """The name `obj.name(...)` looks up. Methods are kept under the names
        they are defined by, so a private method (`def __step`) is called by
        that name; any other private name is mangled as Python does
        (`self.__lock(...)` reads `_C__lock`, a field the class stores, and
        an error about it names `_C__lock`)."""
        if any(name in info.methods for info in self.module.class_infos.values()):
            return name
        return self.attr(name)

    def attr(self, name: str) -> str:
        """An attribute name as stored: private names are mangled in a class."""
        return mangle(name, self.owner) if self.owner else name

    def index(self, node: ast.expr) -> Expr:
        """A list index, evaluated once and now (`a[i] += x` uses it twice)."""
        if isinstance(node, ast.Slice):
            raise self.error(node, "slice")
        return self.blocks.stable(self.expr(node), node.lineno)

    def binop(self, op: ast.operator, left: Expr, right_node: ast.expr, node: ast.expr | ast.stmt,
              left_node: ast.expr | None = None, inplace: bool = False) -> Expr:
        if isinstance(op, ast.Add) and (self.sequence(right_node) or left_node is not None
                                        and self.sequence(left_node)):
            return self.concatenation(left, right_node, node, inplace)
        right = self.expr(right_node)
        if type(op) in _ARITH:
            return Binary(_ARITH[type(op)], left, right)
        if isinstance(op, ast.Pow):
            if isinstance(right, Const) and type(right.value) is int and 0 <= right.value <= 8:
                return Binary("pow", left, right)  # x ** 3 is x * x * x on ints (the evaluator)
            tmp = self.blocks.temp()
            if isinstance(left, Const) and type(left.value) is int and left.value == 2:  # 1 << n: no loop
                self.blocks.emit(Call(tmp, powers.POW2, (right,), node.lineno))
                return Var(tmp)
            self.blocks.emit(Call(tmp, "int_pow", (left, right), node.lineno))
            return Var(tmp)
        if isinstance(op, bitops.BIT_OPERATORS):
            return bitops.lower_binop(self.blocks, op, left, right, node.lineno)
        if type(op) in _DIVISION:
            pure, predicate = _DIVISION[type(op)]
            formatting = isinstance(left, Const) and isinstance(left.value, Text)  # "%d items" % n
            if isinstance(right, Const) and isinstance(right.value, (int, float)) and right.value != 0 \
                    and not formatting:
                return Binary(pure, left, right)
            tmp = self.blocks.temp()
            self.blocks.emit(Call(tmp, predicate, (left, right), node.lineno))
            return Var(tmp)
        raise self.error(node, _OPERATOR_TEXT.get(type(op), "operator"))

    def range_call(self, node: ast.expr) -> ast.Call | None:
        """`node` if it is a call of the builtin `range` with 1 to 3 arguments."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range" \
                and node.func.id not in self.local_names and node.func.id not in self.functions \
                and not node.keywords and 1 <= len(node.args) <= 3 \
                and not any(isinstance(a, ast.Starred) for a in node.args):
            return node
        return None

    def range_bounds(self, call: ast.Call, line: int) -> tuple[Expr, Expr, Expr]:
        """`range(...)`'s start, stop and step, each an int (a float raises
        TypeError, as range does), a zero step ValueError."""
        args = []
        for node in call.args:
            value = self.expr(node)
            args.append(self.blocks.stable(value if isinstance(value, Const) else Unary("index", value), line,
                                           across_statements=True))
        start, stop, step = (Const(0), args[0], Const(1)) if len(args) == 1 else \
            (args[0], args[1], Const(1)) if len(args) == 2 else (args[0], args[1], args[2])
        if not (isinstance(step, Const) and step.value):
            checked = self.blocks.temp("step")
            self.blocks.emit(Call(checked, "range_step", (step,), line))
            step = Var(checked)
        return start, stop, step

    def range_list(self, call: ast.Call, line: int) -> Expr:
        """`list(range(...))` (and `sorted` of one): the prelude's loop."""
        start, stop, step = self.range_bounds(call, line)
        tmp = self.blocks.temp()
        self.blocks.emit(Call(tmp, function_predicate("range_list"), (start, stop, step), line))
        return Var(tmp)

    def starred_list(self, node: ast.List) -> Expr:
        """`[a, *b, c]`: as CPython builds it, item by item: the items before
        the first star, then each star's items (`extend`, which takes any
        sequence) or each plain item (`append`) in order."""
        first = next(i for i, e in enumerate(node.elts) if isinstance(e, ast.Starred))
        items = tuple(self.blocks.stable(self.expr(e), node.lineno) for e in node.elts[:first])
        out = self.blocks.temp()
        self.blocks.emit(NewList(out, items, None, node.lineno))
        for element in node.elts[first:]:
            if isinstance(element, ast.Starred):
                value = self.blocks.stable(self.expr(element.value), node.lineno)
                self.calls.methods_called.add("extend")
                self.blocks.emit(CallMethod(None, Var(out), "extend", (value,), node.lineno))
            else:
                value = self.blocks.stable(self.expr(element), node.lineno)
                self.blocks.emit(ListOp("append", None, Var(out), (value,), node.lineno))
        return Var(out)

    def sequence(self, node: ast.expr, tuples: bool = True) -> bool:
        """Is `node` surely a list or tuple (a display, a comprehension, a
        slice, `list()`/`sorted()`, a parameter so annotated, a sum of
        these)? Then `+` is concatenation, a method of the sequence."""
        if isinstance(node, (ast.List, ast.ListComp)) or tuples and isinstance(node, ast.Tuple):
            return True
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            return self.sequence(node.value, tuples)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("list", "sorted") \
                and node.func.id not in self.local_names and node.func.id not in self.functions:
            return True
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self.sequence(node.left, tuples) or self.sequence(node.right, tuples)
        if isinstance(node, ast.Name) and node.id in self.info.params and node.id not in self.reassigned:
            kind = self.info.param_types[self.info.params.index(node.id)]
            return kind.kind in (("list", "tuple") if tuples else ("list",)) and not kind.optional
        return False

    def concatenation(self, left: Expr, right_node: ast.expr, node: ast.expr | ast.stmt, inplace: bool) -> Expr:
        """`a + b` on sequences is `a.__add__(b)` (a new sequence; the
        prelude's for lists); `a += b` is `a.__iadd__(b)`, which extends a
        list in place and returns it."""
        line = getattr(node, "lineno", 0)
        receiver = self.blocks.stable(left, line)
        right = self.blocks.stable(self.expr(right_node), line)
        method = "__iadd__" if inplace else "__add__"
        self.calls.methods_called.add(method)
        tmp = self.blocks.temp()
        self.blocks.emit(CallMethod(tmp, receiver, method, (right,), line))
        return Var(tmp)

    def branching_value(self, node: ast.expr) -> Expr:
        """A value that needs control flow: `a and b`, `x if c else y`, `a < b < c`."""
        result = self.blocks.temp("v")
        join = self.blocks.new_block("join")
        line = node.lineno
        if isinstance(node, ast.IfExp):
            yes, no = self.blocks.new_block("then"), self.blocks.new_block("else")
            self.condition(node.test, yes, no)
            for block, branch_node in ((yes, node.body), (no, node.orelse)):
                self.blocks.resume(block)
                if self.blocks.current is not None:
                    self.blocks.emit(Assign(result, self.expr(branch_node), line))
                    self.blocks.jump(join)
        elif isinstance(node, ast.Compare):
            yes, no = self.blocks.new_block("then"), self.blocks.new_block("else")
            self.condition(node, yes, no)
            for block, outcome in ((yes, True), (no, False)):
                self.blocks.resume(block)
                if self.blocks.current is not None:
                    self.blocks.emit(Assign(result, Const(outcome), line))
                    self.blocks.jump(join)
        else:
            assert isinstance(node, ast.BoolOp)
            is_and = isinstance(node.op, ast.And)
            for value_node in node.values[:-1]:
                value = self.blocks.stable(self.expr(value_node), line)
                self.blocks.emit(Assign(result, value, line))
                more, done = self.blocks.new_block("and" if is_and else "or"), join
                truth = _truth(self.truth_of(value_node, value))  # an object's `__bool__`/`__len__` too
                if is_and:
                    self.blocks.branch(truth, more, done)
                else:
                    self.blocks.branch(truth, done, more)
                self.blocks.resume(more)
                if self.blocks.current is None:
                    break
            if self.blocks.current is not None:
                self.blocks.emit(Assign(result, self.expr(node.values[-1]), line))
                self.blocks.jump(join)
        self.blocks.resume(join)
        if self.blocks.current is None:
            raise self.error(node, "expression that always raises")
        return Var(result)

    def call(self, node: ast.Call, discard: bool) -> Expr:
        func = node.func
        if self.is_defaultdict(func):
            return self.defaultdict(node)
        if isinstance(func, ast.Attribute):
            return self.method_call(func, node, discard)
        if not isinstance(func, ast.Name):
            raise self.error(func, "call of " + construct_name(func))
        name = func.id
        if name in self.nested_calls:  # a nested function (frontend/closures.py)
            callee, captures = self.nested_calls[name]
            args = self.call_arguments(callee, node) + [Var(c) for c in captures]
            cells = [c for c in captures if c in self.cells]
            for cell in cells:  # a nonlocal variable's cell, filled with it
                box = self.blocks.temp()
                self.blocks.emit(NewList(box, (Var(self.cells[cell]),), None, node.lineno))
                self.blocks.emit(Assign(cell, Var(box), node.lineno))
            target = None if discard else self.blocks.temp()
            self.blocks.emit(Call(target, callee.entry, tuple(args), node.lineno))
            for cell in cells:  # and what the call left in it
                self.blocks.emit(ListOp("get", self.cells[cell], Var(cell), (Const(0),), node.lineno))
            return Var(target) if target else Const(None)
        if name in self.module.namedtuples and name not in self.local_names:
            return self.named_tuple(self.module.namedtuples[name], node)
        if name in self.class_alias and name not in self.local_names:
            return self.construct(self.class_alias[name], node)
        if name in self.module.class_infos or name in self.module.class_errors:
            return self.construct(name, node)
        if self.module.natives.entries and name not in self.local_names and name not in self.functions \
                and (native := self.stdlib.native_call(node)) is not None:
            return native
        if name in self.module.from_math and name not in self.local_names and name not in self.functions:
            function = self.module.from_math[name]
            args = [self.blocks.stable(self.expr(a), node.lineno) for a in node.args]
            lowered = None if node.keywords else mathmod.lower_call(function, args, self.blocks.emit,
                                                                    self.blocks.temp, node.lineno)
            if lowered is None:  # evaluated as far as the model goes, then run concretely or dropped
                return self.stdlib.concrete(f"math.{function}", args, f"math.{function}() with these arguments",
                                            node)
            return lowered
        if name in STEP_CALLS and name not in self.functions:  # a loop's own step, in code the frontend writes
            walked = self.expr(node.args[0])
            tmp = self.blocks.temp()
            if name == "__pc_shut":
                self.blocks.emit(ListOp("close", None, walked, (self.expr(node.args[1]),), node.lineno))
                return Const(None)
            if name == "__pc_len":
                self.blocks.emit(ListOp("len", tmp, walked, (Const(Text(LOOP_STEP)),), node.lineno))
            else:
                index = self.expr(node.args[1])
                self.blocks.emit(ListOp("get", tmp, walked, (index, Const(Text(LOOP_STEP))), node.lineno))
            return Var(tmp)
        if name not in self.functions and name not in self.module.class_infos \
                and (foreign := self.stdlib.call(node)) is not None:
            return foreign
        if name == "len" and len(node.args) == 1 and not node.keywords:
            lst = self.expr(node.args[0])
            tmp = self.blocks.temp()
            self.calls.methods_called.add("__len__")
            self.blocks.emit(ListOp("len", tmp, lst, (), node.lineno))
            return Var(tmp)
        if name in ("dict", "set") and not node.args and not node.keywords and name not in self.functions:
            return self.dict_or_set(ast.Dict([], [], lineno=node.lineno) if name == "dict" else
                                    ast.Set([], lineno=node.lineno))
        if name in ("dict", "set") and len(node.args) == 1 and not node.keywords and name not in self.functions \
                and not isinstance(node.args[0], (ast.GeneratorExp, ast.ListComp, ast.Starred)):
            tmp = self.blocks.temp()  # a copy made by the prelude's loop (`$set`, `$dict`)
            self.blocks.emit(Call(tmp, function_predicate(name), (self.expr(node.args[0]),), node.lineno))
            return Var(tmp)
        if name == "isinstance" and len(node.args) == 2 and not node.keywords:
            return self.isinstance_of(node)
        if name in self.functions:
            if self.functions[name].cached and (node.keywords or len(node.args) != len(self.functions[name].params)):
                raise self.error(node, f"call of cached {name}() with keywords or defaults (another cache key)")
            args = self.call_arguments(self.functions[name], node)
            target = None if discard else self.blocks.temp()
            self.calls.callees.add(name)
            self.blocks.emit(Call(target, self.functions[name].entry, tuple(args), node.lineno))
            return Var(target) if target else Const(None)
        if name in CONSUMERS and len(node.args) == 1 and isinstance(node.args[0], ast.GeneratorExp) \
                and not node.keywords and self.generator is not None:
            return self.generator(name, node.args[0])
        if name == "print":
            return self.print_call(node)
        if name in ("list", "sorted") and len(node.args) == 1 and not node.keywords \
                and self.range_call(node.args[0]) is not None:
            return self.range_list(self.range_call(node.args[0]) or node, node.lineno)
        if name == "sorted" and len(node.args) == 1 and not isinstance(node.args[0], ast.GeneratorExp) \
                and all(k.arg == "reverse" and isinstance(k.value, ast.Constant) and type(k.value.value) is bool
                        for k in node.keywords):
            items = self.blocks.stable(self.expr(node.args[0]), node.lineno)
            flag = node.keywords[0].value if node.keywords else None
            reverse = Const(isinstance(flag, ast.Constant) and flag.value is True)
            tmp = self.blocks.temp()
            self.blocks.emit(Call(tmp, function_predicate("sorted"), (items, reverse), node.lineno))
            return Var(tmp)
        if name == "list" and len(node.args) <= 1 and not node.keywords and not (
                node.args and isinstance(node.args[0], ast.GeneratorExp)):
            if not node.args:
                tmp = self.blocks.temp()
                self.blocks.emit(NewList(tmp, (), None, node.lineno))
                return Var(tmp)
            tmp = self.blocks.temp()
            self.calls.methods_called.update((LIST_PROTOCOL, "__iter__"))
            source = self.blocks.stable(self.expr(node.args[0]), node.lineno)
            self.blocks.emit(CallMethod(tmp, source, LIST_PROTOCOL, (), node.lineno))
            return Var(tmp)
        if name == "next" and not node.keywords and _first_item(node):
            iterated = node.args[0]
            assert isinstance(iterated, ast.Call)
            args = [self.blocks.stable(self.expr(iterated.args[0]), node.lineno)]
            args += [self.blocks.stable(self.expr(a), node.lineno) for a in node.args[1:]]
            tmp = self.blocks.temp()
            first = function_predicate("first" if len(node.args) == 1 else "first_or")
            self.blocks.emit(Call(tmp, first, tuple(args), node.lineno))
            return Var(tmp)
        if name == "tuple" and len(node.args) <= 1 and not node.keywords and not (
                node.args and isinstance(node.args[0], ast.Starred)) and not (
                node.args and isinstance(node.args[0], ast.GeneratorExp) and self.generator_value is None):
            return self.tuple_of(node)
        keyed_by = _key_and_reverse(node, sort=name == "sorted")
        if name in ("sorted", "min", "max") and keyed_by is not None and len(node.args) == 1 \
                and name not in self.functions and name not in self.local_names and self.keyed is not None \
                and not isinstance(node.args[0], ast.Starred):
            return self.keyed(name, node.args[0], keyed_by[0], keyed_by[1], node)
        if node.keywords:
            raise self.error(node, f"keyword arguments to {name}()")
        if name == "divmod" and len(node.args) == 2:
            return self.divmod(node)
        if name == "pow" and len(node.args) == 2:  # `a ** b`
            return self.binop(ast.Pow(), self.blocks.stable(self.expr(node.args[0]), node.lineno), node.args[1], node)
        if name == "pow" and len(node.args) == 3:
            tmp = self.blocks.temp()
            args3 = tuple(self.blocks.stable(self.expr(a), node.lineno) for a in node.args)
            self.blocks.emit(Call(tmp, powers.POW_MOD, args3, node.lineno))
            return Var(tmp)
        if name == "abs" and len(node.args) == 1:
            tmp = self.blocks.temp()
            self.blocks.emit(Call(tmp, "abs", (self.expr(node.args[0]),), node.lineno))
            return Var(tmp)
        if name in ("any", "all") and len(node.args) == 1 and not isinstance(
                node.args[0], ast.GeneratorExp):
            tmp = self.blocks.temp()
            self.blocks.emit(Call(tmp, function_predicate(name), (self.expr(node.args[0]),), node.lineno))
            return Var(tmp)
        if name in ("sum", "min", "max") and len(node.args) == 1 and not isinstance(
                node.args[0], ast.GeneratorExp):
            tmp = self.blocks.temp()
            self.blocks.emit(Call(tmp, f"list_{name}", (self.expr(node.args[0]),), node.lineno))
            return Var(tmp)
        if name in ("min", "max") and len(node.args) >= 2:
            values = [self.expr(a) for a in node.args]
            acc = values[0]
            for value in values[1:]:
                tmp = self.blocks.temp()
                self.blocks.emit(Call(tmp, name, (acc, value), node.lineno))
                acc = Var(tmp)
            return acc
        if name == "round" and len(node.args) == 2:
            digits = _int_literal(node.args[1])
            value = self.expr(node.args[0])
            if digits is not None and -20 <= digits <= 20:
                return Binary("round_digits", value, Const(digits))
            if digits is not None:
                raise self.error(node, "round() to digits other than a small int")
            tmp = self.blocks.temp()  # a digit count known at run time: a rule per small count
            self.blocks.emit(Call(tmp, "round_digits", (value, self.expr(node.args[1])), node.lineno))
            return Var(tmp)
        if name == "int" and len(node.args) == 2 and not any(isinstance(a, ast.Starred) for a in node.args):
            return self.int_base(node)
        if name == "int" and len(node.args) == 1 and not _surely_number(node.args[0]):
            return self.conversion(name, node)  # a str, or a float (the engine sends it to float_to_int)
        if name in ("int", "round") and len(node.args) == 1:  # on a float: may raise (nan, inf)
            tmp = self.blocks.temp()
            self.blocks.emit(Call(tmp, "to_int" if name == "int" else "round", (self.expr(node.args[0]),),
                                  node.lineno))
            return Var(tmp)
        if name == "float" and len(node.args) == 1 and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str) and "float" not in self.local_names:
            try:  # `float("inf")`: a literal, converted now exactly as Python would
                return Const(float(node.args[0].value))
            except ValueError:
                raise self.error(node, "float() of a string that is no number") from None
        if name in ("float", "bool") and len(node.args) == 1:
            return Unary(name if name == "float" else "truth", self.expr(node.args[0]))
        if (name in CONVERSIONS or name in intformat.FORMATS) and len(node.args) == 1:
            return self.conversion(name, node)
        if name == "format" and len(node.args) == 2 and isinstance(node.args[1], ast.Constant) \
                and node.args[1].value in intformat.SPECS:
            tmp = self.blocks.temp()
            predicate = function_predicate(intformat.SPECS[node.args[1].value][0])
            self.blocks.emit(Call(tmp, predicate, (self.expr(node.args[0]),), node.lineno))
            return Var(tmp)
        if name in self.module.classes or self.module.is_exception(name):
            raise self.error(node, f"call of class {name}")
        if name in ("min", "max", "abs", "int", "bool", "float", "round", "len", "range"):
            raise self.error(node, f"{name}() with these arguments")
        if isinstance(getattr(builtins, name, None), (type, types.BuiltinFunctionType)):
            raise self.error(node, f"call of builtin '{name}'")
        raise unknown_name(self.module.path, func, name)

    def is_defaultdict(self, func: ast.expr) -> bool:
        """`defaultdict` imported from `collections`, or `collections.defaultdict`."""
        if isinstance(func, ast.Name) and func.id == "defaultdict" and func.id not in self.local_names:
            return any(isinstance(n, ast.ImportFrom) and n.module == "collections" and n.level == 0
                       and any(a.name == "defaultdict" and (a.asname or a.name) == "defaultdict" for a in n.names)
                       for n in self.module.tree.body)
        return isinstance(func, ast.Attribute) and func.attr == "defaultdict" and isinstance(func.value, ast.Name) \
            and func.value.id == "collections" and func.value.id not in self.local_names and any(
                isinstance(n, ast.Import) and any(a.name == "collections" and a.asname is None for a in n.names)
                for n in self.module.tree.body)

    def defaultdict(self, node: ast.Call) -> Expr:
        """`defaultdict(int)` (or `list`, `set`, `dict`, `bool`)."""
        factory = node.args[0] if len(node.args) == 1 and not node.keywords else None
        args: tuple[Expr, ...]
        if isinstance(factory, ast.Name) and factory.id in _FACTORIES and factory.id not in self.local_names:
            args = (Const(Text(factory.id)),)
        else:  # a lambda runs code of the module: its calls would be events of the path
            raise self.error(node, "defaultdict() with a factory other than int, bool, list, set or dict")
        tmp = self.blocks.temp()
        self.blocks.emit(Call(tmp, NEW_DEFAULTDICT, args, node.lineno))
        return Var(tmp)

    def conversion(self, name: str, node: ast.Call) -> Expr:
        """`str(x)`, `int(x)`, `ord(x)`, `chr(x)`: dispatched on the type of
        `x` at run time (`frontend/strbuiltins.py`)."""
        arg = self.expr(node.args[0])
        tmp = self.blocks.temp()
        self.blocks.emit(Call(tmp, function_predicate(name), (arg,), node.lineno))
        return Var(tmp)

    def tuple_of(self, node: ast.Call) -> Expr:
        """`tuple()`, `tuple(x)`: `list(x)` (each kind's `__list__`), frozen."""
        tmp = self.blocks.temp()
        if not node.args:
            self.blocks.emit(NewList(tmp, (), None, node.lineno, is_tuple=True))
            return Var(tmp)
        self.calls.methods_called.update((LIST_PROTOCOL, "__iter__"))
        source = self.blocks.stable(self.expr(node.args[0]), node.lineno)
        self.blocks.emit(CallMethod(tmp, source, LIST_PROTOCOL, (), node.lineno))
        frozen = self.blocks.temp()
        self.blocks.emit(ListOp("freeze", frozen, Var(tmp), (), node.lineno))
        return Var(frozen)

    def int_base(self, node: ast.Call) -> Expr:
        """`int(s, b)`: the base's check, the argument's, then the digits'
        loop (`frontend/powers.py`)."""
        value = self.blocks.stable(self.expr(node.args[0]), node.lineno)
        given = self.blocks.stable(self.expr(node.args[1]), node.lineno)
        base, text, out = self.blocks.temp(), self.blocks.temp(), self.blocks.temp()
        if isinstance(given, Const) and type(given.value) is int and 2 <= given.value <= 36:
            base_value: Expr = given
        else:
            self.blocks.emit(Call(base, powers.INT_BASE_RADIX, (given,), node.lineno))
            base_value = Var(base)
        self.blocks.emit(Call(text, powers.INT_BASE_ARG, (value,), node.lineno))
        self.blocks.emit(Call(out, powers.INT_BASE, (Var(text), base_value), node.lineno))
        return Var(out)

    def divmod(self, node: ast.Call) -> Expr:
        """`divmod(a, b)`: `(a // b, a % b)`, ZeroDivisionError as `//`'s on
        ints and with divmod's own message on floats."""
        a, b = (self.blocks.stable(self.expr(arg), node.lineno) for arg in node.args)
        quotient = self.blocks.temp()
        self.blocks.emit(Call(quotient, "int_divmod", (a, b), node.lineno))
        remainder = self.blocks.stable(Binary("mod", a, b), node.lineno)  # b != 0 from here on
        tmp = self.blocks.temp()
        self.blocks.emit(NewList(tmp, (Var(quotient), remainder), None, node.lineno, is_tuple=True))
        return Var(tmp)

    def print_call(self, node: ast.Call) -> Expr:
        """`print(a, b, sep=..., end=..., flush=...)`: the arguments are
        evaluated and printed, the output not asserted; a `file=` would
        write elsewhere (not modelled)."""
        for keyword in node.keywords:
            if keyword.arg not in ("sep", "end", "flush"):
                raise self.error(keyword.value if keyword.arg else node, "print() to a file or with **kwargs")
        if any(isinstance(a, ast.Starred) for a in node.args):
            raise self.error(node, "*args in a call")
        values = [self.blocks.stable(self.expr(a), node.lineno) for a in node.args]
        for keyword in node.keywords:
            values.append(self.blocks.stable(self.expr(keyword.value), node.lineno))
        for value in values:
            self.blocks.emit(Call(None, PRINT, (value,), node.lineno))
        return Const(None)

    def isinstance_of(self, node: ast.Call) -> Expr:
        """`isinstance(p, T)` on a parameter the function never reassigns:
        decided by the parameter's annotation (a None check for `C | None`)."""
        subject, kinds = node.args
        names = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
        spelled = [n.id if isinstance(n, ast.Name) else self.nested_class(n) for n in names]  # `self.Position`
        wanted = {n for n in spelled if n is not None}
        if None in spelled:
            raise self.error(kinds, "isinstance() with a class other than a builtin or module class")
        guessed = {entry.partition(":")[0] for entry in self.info.inferred}  # a caller may pass anything
        if not (isinstance(subject, ast.Name) and subject.id in self.info.params
                and subject.id not in self.reassigned and subject.id not in self.opaque) \
                or isinstance(subject, ast.Name) and subject.id in {*self.info.probes, *guessed}:  # a float tried too
            return self.isinstance_at_run_time(node, subject, wanted)
        declared = self.info.param_types[self.info.params.index(subject.id)]
        if declared.kind == "int":
            matches = bool(wanted & {"int", "object"})
        elif declared.kind == "bool":
            matches = bool(wanted & {"bool", "int", "object"})
        elif declared.kind == "float":
            matches = bool(wanted & {"float", "object"})
        elif declared.kind in ("list", "tuple", "dict", "set", "str"):
            matches = bool(wanted & {"deque" if declared.deque else declared.kind, "object"})
        elif declared.kind == "obj":
            matches = "object" in wanted or any(
                w in self.module.class_infos and self.module.is_subclass(str(declared.cls), w) for w in wanted)
        else:
            matches = False
        if matches and declared.optional:
            return Binary("isnot", Var(subject.id), Const(None))
        return Const(matches)

    def isinstance_at_run_time(self, node: ast.Call, subject: ast.expr, wanted: set[str]) -> Expr:
        """`isinstance(e, T)` on any other value: decided by the engine from
        the value's kind or class (`Unary("isa:int,float", e)`)."""
        unknown = sorted(w for w in wanted if w not in RUNTIME_TYPES and w not in self.module.class_infos
                         and w not in self.module.namedtuples)
        if unknown or any(w in self.local_names for w in wanted):
            raise self.error(node, f"isinstance() with class '{unknown[0] if unknown else sorted(wanted)[0]}'")
        return Unary(ISINSTANCE_OP + ",".join(sorted(wanted)), self.expr(subject))

    def method_call(self, func: ast.Attribute, node: ast.Call, discard: bool) -> Expr:
        if self.module.natives.entries and (native := self.stdlib.native_call(node)) is not None:
            return native
        if is_math(func.value, self.module.imported, self.local_names):
            operands = [self.blocks.stable(self.expr(a), node.lineno) for a in node.args]
            lowered = None if node.keywords else mathmod.lower_call(func.attr, operands, self.blocks.emit,
                                                                    self.blocks.temp, node.lineno)
            if lowered is None:  # evaluated as far as the model goes, then run concretely or dropped
                return self.stdlib.concrete(f"math.{func.attr}", operands,
                                            f"math.{func.attr}() with these arguments", node)
            return lowered
        if (foreign := self.stdlib.call(node)) is not None:
            return foreign
        made = self.nested_class(func)
        if made is not None:  # `self._Node(...)`: a class nested in a class body
            return self.construct(made, node)
        if isinstance(func.value, ast.Call) and isinstance(func.value.func, ast.Name) \
                and func.value.func.id == "super" and "super" not in self.local_names \
                and "super" not in self.functions:
            return self.super_call(func, node, discard)
        owner = func.value.id if isinstance(func.value, ast.Name) and func.value.id not in self.local_names else None
        if owner is not None and (owner in self.class_alias or owner in self.module.class_infos):
            return self.class_call(self.class_alias.get(owner, owner), func, node, discard)
        if func.attr == "join" and isinstance(func.value, ast.Constant) and isinstance(func.value.value, str) \
                and len(node.args) == 1 and isinstance(node.args[0], ast.GeneratorExp) and not node.keywords \
                and self.generator is not None:  # str.join makes a list of the generator's items first
            items = self.blocks.stable(self.generator("list", node.args[0]), node.lineno)
            tmp = self.blocks.temp()
            self.blocks.emit(CallMethod(tmp, Const(Text(func.value.value)), "join", (items,), node.lineno))
            return Var(tmp)
        keyed_by = _key_and_reverse(node, sort=True)
        if func.attr == "sort" and keyed_by is not None and not node.args and self.keyed is not None:
            self.calls.methods_called.add(SORT_BY)
            return self.keyed("sort", func.value, keyed_by[0], keyed_by[1], node)
        if node.keywords:
            raise self.error(node, "keyword arguments in a method call")
        if any(isinstance(a, ast.Starred) for a in node.args):
            raise self.error(node, "*args in a call")
        obj = self.blocks.stable(self.expr(func.value), node.lineno)
        name = self.method_name(func.attr)
        if any(_may_raise(a) for a in node.args):  # Python looks the method up first
            self.blocks.emit(CheckMethod(obj, name, node.lineno))
        args = tuple(self.blocks.stable(self.expr(a), node.lineno) for a in node.args)
        target = None if discard else self.blocks.temp()
        self.calls.methods_called.add(name)
        self.blocks.emit(CallMethod(target, obj, name, args, node.lineno))
        return Var(target) if target else Const(None)

    def super_call(self, func: ast.Attribute, node: ast.Call, discard: bool) -> Expr:
        """`super().m(...)` in a method of class C: the `m` of C's bases,
        called directly on `self` (no dispatch: Python looks it up after C
        in the object's MRO, which single inheritance makes C's base chain)."""
        assert isinstance(func.value, ast.Call)
        if func.value.args or func.value.keywords or self.owner is None or not self.info.params \
                or self.info.binding not in ("", "property", "setter") or self.info.params[0] in self.reassigned:
            raise self.error(func.value, "super() other than in a method, without arguments")
        info = self.module.class_infos.get(self.owner)
        qualname = self.method_of(info.base, func.attr) if info is not None else None
        callee = self.signatures.get(qualname) if qualname is not None else None
        if callee is None or callee.binding not in ("", "property", "setter"):
            if qualname is None and func.attr == "__init__" and not node.args and not node.keywords:
                return Const(None)  # `object.__init__(self)`: does nothing
            raise self.error(func, f"super().{func.attr}" + (" (no base defines it)" if qualname is None else ""))
        args = self.call_arguments(callee, node, skip_self=True)
        target = None if discard else self.blocks.temp()
        self.calls.callees.add(callee.qualname)
        self.blocks.emit(Call(target, callee.entry, (Var(self.info.params[0]), *args), node.lineno))
        return Var(target) if target else Const(None)

    def nested_class(self, node: ast.expr) -> str | None:
        """The class `self.Inner`, `cls.Inner` or `Outer.Inner` names, when
        it is a class nested in a class body (frontend/nested.py)."""
        if not isinstance(node, ast.Attribute) or not isinstance(node.value, ast.Name):
            return None
        head = node.value.id
        classes = self.module.class_infos.keys() | self.module.class_errors.keys()
        if head not in self.local_names and f"{head}.{node.attr}" in classes:
            return f"{head}.{node.attr}"
        owner = self.class_alias.get(head)
        if owner is None and self.owner is not None and self.info.params and head == self.info.params[0] \
                and self.info.binding in ("", "property", "setter") and head not in self.reassigned:
            owner = self.owner
        if owner is None:
            return None
        chain = [owner]
        while (base := self.module.class_infos[chain[-1]].base if chain[-1] in self.module.class_infos else None) \
                and base not in chain:
            chain.append(base)
        found = nested.lookup(chain, node.attr, classes)
        if found is None:
            return None
        subclasses = [c for c in self.module.class_infos if self.module.is_subclass(c, owner)]
        again = nested.rebinding_subclass(owner, node.attr, subclasses, self.module.classes)
        if again is not None:
            raise self.error(node, f"'{ast.unparse(node)}' where subclass {again} binds '{node.attr}' again")
        return found

    def class_attribute(self, cls: str, node: ast.Attribute) -> Expr:
        """`C.X` (or `cls.X` in a classmethod): a constant the class body (or
        a base's) binds; anything else the class may hold is refused."""
        name = self.attr(node.attr)  # mangled with the class whose code this is
        if any(isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)) and any(
                isinstance(t, ast.Attribute) and t.attr == node.attr and isinstance(t.value, ast.Name)
                and t.value.id in self.module.classes
                for t in (n.targets if isinstance(n, (ast.Assign, ast.Delete)) else [n.target]))
               for n in ast.walk(self.module.tree)):
            raise self.error(node, f"class attribute '{cls}.{node.attr}' that the module assigns")
        current: str | None = cls
        while current is not None and current in self.module.class_infos:
            info = self.module.class_infos[current]
            defaults = dict(info.defaults)
            if name in defaults and (defaults[name] is None or type(defaults[name]) in (int, bool)):
                value = defaults[name]
                assert value is None or isinstance(value, (int, bool))
                return Const(value)
            if name in defaults or name in info.methods or name in info.opaque or name in dict(info.fields):
                break
            current = info.base
        raise self.error(node, f"class attribute '{cls}.{node.attr}' other than an int, bool or None constant")

    def note_attribute(self, name: str) -> None:
        """An attribute read or assigned: if some class has a property of
        that name, its getter and setter may run (translated as methods
        dispatched at run time)."""
        if any(name in c.properties for c in self.module.class_infos.values()):
            self.calls.methods_called.add(name)

    def method_of(self, cls: str | None, name: str) -> str | None:
        """The qualname of method `name` as class `cls` (or a base) defines it."""
        current = cls
        while current is not None and current in self.module.class_infos:
            if name in self.module.class_infos[current].methods:
                return f"{current}.{name}"
            current = self.module.class_infos[current].base
        return None

    def class_call(self, cls: str, func: ast.Attribute, node: ast.Call, discard: bool) -> Expr:
        """`C.m(...)` (or `cls.m(...)` in a classmethod of C): a method of C
        or of a base, called directly: a static or class method without a
        receiver, an instance method with its `self` as first argument."""
        qualname = self.method_of(cls, func.attr)
        callee = self.signatures.get(qualname) if qualname is not None else None
        if qualname is None or callee is None:
            raise self.error(func, f"call of '{cls}.{func.attr}'" + (" (no such method)" if qualname is None else ""))
        if callee.binding == "property":
            raise self.error(node, f"call of property {qualname} through its class")
        args = self.call_arguments(callee, node)  # an instance method: `self` given first, no dispatch
        target = None if discard else self.blocks.temp()
        self.calls.callees.add(qualname)
        self.blocks.emit(Call(target, callee.entry, tuple(args), node.lineno))
        return Var(target) if target else Const(None)

    def construct(self, cls: str, node: ast.Call) -> Expr:
        """`C(args)`: new_object, then `__init__` when the class has one."""
        self.calls.classes_built.add(cls)
        info = self.module.class_infos.get(cls)
        init = None
        current = cls
        while info is not None:
            if "__init__" in info.methods:
                init = f"{current}.__init__"
                break
            current = info.base or ""
            info = self.module.class_infos.get(current)
        tmp = self.blocks.temp("obj")
        if init is None:
            if node.args or node.keywords:
                raise self.error(node, f"arguments to {cls}() without __init__")
            self.blocks.emit(NewObject(tmp, cls, node.lineno))
            return Var(tmp)
        full = self.signatures.get(init)
        if full is None:
            raise self.error(node, f"constructor {init}")
        args = self.call_arguments(full, node, skip_self=True)
        self.blocks.emit(NewObject(tmp, cls, node.lineno))
        self.calls.methods_called.add("__init__")
        self.blocks.emit(CallMethod(None, Var(tmp), "__init__", tuple(args), node.lineno))
        return Var(tmp)

    def named_tuple(self, info: namedtuples.NamedTupleInfo, node: ast.Call) -> Expr:
        """`C(a, b=...)` of a NamedTuple class: a tuple tagged with its class."""
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            raise self.error(node, "*args or **kwargs in a call")
        positional = [self.blocks.stable(self.expr(a), node.lineno) for a in node.args]
        keywords = [(str(k.arg), self.blocks.stable(self.expr(k.value), node.lineno)) for k in node.keywords]
        try:
            items = namedtuples.arguments(info, positional, keywords)
        except namedtuples.ArgumentError as exc:
            raise self.error(node, str(exc)) from None
        tmp = self.blocks.temp()
        self.blocks.emit(NewList(tmp, items, None, node.lineno, is_tuple=True, named=info.tag))
        return Var(tmp)

    def call_arguments(self, callee: FunctionInfo, node: ast.Call, skip_self: bool = False) -> list[Expr]:
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            raise self.error(node, "*args or **kwargs in a call")
        params = callee.params[1:] if skip_self else callee.params
        if len(node.args) > len(params):
            raise self.error(node, f"too many arguments to {callee.name}()")
        given: dict[str, Expr] = {}
        for param, arg in zip(params, node.args):
            given[param] = self.blocks.stable(self.expr(arg), node.lineno) if skip_self else self.expr(arg)
        for kw in node.keywords:
            assert kw.arg is not None
            if kw.arg not in params or kw.arg in given:
                raise self.error(kw.value, f"bad keyword argument '{kw.arg}' to {callee.name}()")
            given[kw.arg] = self.blocks.stable(self.expr(kw.value), node.lineno)
        defaults = dict(callee.defaults)
        out = []
        for param in params:
            if param in given:
                out.append(given[param])
            elif param in defaults:
                out.append(Const(defaults[param]))
            else:
                raise self.error(node, f"missing argument '{param}' to {callee.name}()")
        return out


_FACTORIES = ("int", "bool", "list", "set", "dict")
# builtin types `type(x) is T` may name, as the engine's `typeof` names them
_TYPE_NAMES = {name: f"builtins.{name}" for name in ("int", "bool", "float", "str", "list", "tuple", "dict", "set")}
# builtins whose result is never an object of the module's classes
_NO_OBJECTS = frozenset({"isinstance", "issubclass", "len", "bool", "int", "float", "str", "any", "all", "callable",
                         "hasattr", "abs", "round", "ord", "chr", "sorted", "list", "tuple",
                         "dict", "set", "divmod", "pow", "bin", "hex", "oct", "repr", "hash", "id"})

# `isinstance(e, T)` decided at run time (the engine's `isa:` operator)
ISINSTANCE_OP = "isa:"
RUNTIME_TYPES = frozenset({"int", "bool", "float", "str", "list", "tuple", "dict", "set", "object"})


def _scalar_literal(node: ast.expr) -> bool:
    """A number, bool or str literal: `==` with it never calls a class's
    `__eq__` the engine could not see (None can: `x == None` calls it)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and node.value is not None


def _int_literal(node: ast.expr) -> int | None:
    """The value of an int literal (`2`, `-1`), or None."""
    negative = isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
    inner = node.operand if isinstance(node, ast.UnaryOp) and negative else node
    if isinstance(inner, ast.Constant) and type(inner.value) is int:
        return -inner.value if negative else inner.value
    return None
def _key_and_reverse(node: ast.Call, sort: bool) -> tuple[ast.expr, bool] | None:
    """`key=f` (and, for sorting, `reverse=<bool literal>`), if those are
    exactly the call's keywords."""
    given = {k.arg: k.value for k in node.keywords}
    if "key" not in given or set(given) - ({"key", "reverse"} if sort else {"key"}):
        return None
    flag = given.get("reverse")
    if flag is not None and not (isinstance(flag, ast.Constant) and type(flag.value) is bool):
        return None
    return given["key"], isinstance(flag, ast.Constant) and flag.value is True


def _first_item(node: ast.Call) -> bool:
    """`next(iter(x))` or `next(iter(x), default)` with a default that
    cannot raise (so evaluating it after `iter(x)` changes nothing)."""
    if not 1 <= len(node.args) <= 2 or not all(isinstance(a, (ast.Constant, ast.Name)) for a in node.args[1:]):
        return False
    inner = node.args[0]
    return isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "iter" \
        and len(inner.args) == 1 and not inner.keywords \
        and not isinstance(inner.args[0], (ast.Starred, ast.GeneratorExp))


def _surely_number(node: ast.expr) -> bool:
    """Is `node` an int or bool whatever the types of the names in it (a
    literal, arithmetic, a comparison)? Then `int(node)` needs no dispatch."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int)
    return isinstance(node, (ast.BinOp, ast.Compare)) and not isinstance(getattr(node, "op", None), ast.Add) \
        or isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Not))


def _single_item_list(node: ast.expr) -> bool:
    return isinstance(node, ast.List) and len(node.elts) == 1


def _truth(e: Expr) -> Expr:
    """`bool(e)` as a guard: comparisons and `not` already are truth values."""
    if isinstance(e, Binary) and e.op in ("eq", "ne", "lt", "le", "gt", "ge", "and", "or", "is", "isnot"):
        return e
    if isinstance(e, Unary) and e.op in ("not", "truth"):
        return e
    return Unary("truth", e)


def _may_raise(node: ast.expr) -> bool:
    """Can evaluating `node` raise or run code (a call, an index, an
    attribute read, `//`, `%`, `**`)? Names and constants cannot."""
    return any(isinstance(n, (ast.Call, ast.Subscript, ast.Attribute)) or
               isinstance(n, ast.BinOp) and isinstance(n.op, (ast.FloorDiv, ast.Mod, ast.Pow, ast.Div, ast.LShift,
                                                              ast.RShift))
               for n in ast.walk(node))
