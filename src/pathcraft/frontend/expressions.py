"""Lowering expressions and conditions (a mixin of `FunctionLowerer`).

Expressions become pure IR expressions; whatever can branch or fail
(division by a possibly-zero divisor, `abs`, `min`, `max`, `**`, user calls,
heap operations) is emitted as an instruction into a fresh temporary, in
Python's evaluation order. Conditions with `and`/`or`/`not` and chained
comparisons become branch chains: short-circuit is control flow.
"""

from __future__ import annotations

import ast
import builtins
import types
from typing import TYPE_CHECKING

from pathcraft.errors import construct_name, unknown_name
from pathcraft.frontend.module import ModuleSource
from pathcraft.frontend.names import plainly_assigned
from pathcraft.ir.nodes import (
    Assign,
    Binary,
    Call,
    CallMethod,
    Const,
    Expr,
    FunctionInfo,
    GetField,
    ListOp,
    NewList,
    NewObject,
    RepeatList,
    Text,
    Unary,
    Var,
)

if TYPE_CHECKING:
    from pathcraft.frontend.blocks import BlockBuilder

_ARITH = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul"}
_DIVISION = {ast.FloorDiv: ("floordiv", "int_floordiv"), ast.Mod: ("mod", "int_mod")}
_COMPARE = {
    ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge",
    ast.Is: "is", ast.IsNot: "isnot",
}
_OPERATOR_TEXT = {
    ast.Div: "operator '/' (true division gives float)",
    ast.LShift: "operator '<<'",
    ast.RShift: "operator '>>'",
    ast.BitAnd: "operator '&'",
    ast.BitOr: "operator '|'",
    ast.BitXor: "operator '^'",
    ast.MatMult: "operator '@'",
    ast.Invert: "operator '~'",
    ast.In: "operator 'in'",
    ast.NotIn: "operator 'not in'",
}


class ExpressionLowering:
    """Expression and condition lowering; the statement lowerer provides
    the block plumbing (`emit`, `temp`, `branch`, ...)."""

    module: ModuleSource
    fn: ast.FunctionDef
    info: FunctionInfo
    locals: set[str]
    signatures: dict[str, FunctionInfo]
    full_signatures: dict[str, FunctionInfo]
    callees: set[str]
    methods_called: set[str]
    classes_built: set[str]
    owner: str | None

    # ------------------------------------------------------------ conditions

    def condition(self, node: ast.expr, if_true: BlockBuilder, if_false: BlockBuilder) -> None:
        """Branch to `if_true`/`if_false` on the truth of `node`, short-circuit."""
        if isinstance(node, ast.BoolOp):
            for value in node.values[:-1]:
                middle = self.new_block("and" if isinstance(node.op, ast.And) else "or")
                if isinstance(node.op, ast.And):
                    self.condition(value, middle, if_false)
                else:
                    self.condition(value, if_true, middle)
                self.resume(middle)
                if self.cur is None:
                    return
            self.condition(node.values[-1], if_true, if_false)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            self.condition(node.operand, if_false, if_true)
        elif isinstance(node, ast.Compare) and len(node.ops) > 1:
            left = self.expr(node.left)
            last = len(node.ops) - 1
            for i, (op, comparator) in enumerate(zip(node.ops, node.comparators)):
                right = self.expr(comparator)
                if i < last:
                    right = self.stable(right, node.lineno)
                    middle = self.new_block("cmp")
                    self.branch(Binary(self.compare_op(op, node), left, right), middle, if_false)
                    self.resume(middle)
                    if self.cur is None:
                        return
                    left = right
                else:
                    self.branch(Binary(self.compare_op(op, node), left, right), if_true, if_false)
        else:
            value = self.expr(node)
            self.branch(value if _is_boolean(value) else Unary("truth", value), if_true, if_false)

    def compare_op(self, op: ast.cmpop, node: ast.AST) -> str:
        if isinstance(op, (ast.Is, ast.IsNot)) and isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(isinstance(o, ast.Constant) and o.value is not None for o in operands):
                word = "is" if isinstance(op, ast.Is) else "is not"
                raise self.error(node, f"operator '{word}' with a literal (identity of ints)")
        name = _COMPARE.get(type(op))
        if name is None:
            raise self.error(node, _OPERATOR_TEXT.get(type(op), "comparison operator"))
        return name

    # ----------------------------------------------------------- expressions

    def expr(self, node: ast.expr, discard: bool = False) -> Expr:
        if isinstance(node, ast.Attribute):
            obj = self.expr(node.value)
            tmp = self.temp()
            self.emit(GetField(tmp, obj, self.attr(node.attr), node.lineno))
            return Var(tmp)
        if isinstance(node, ast.Subscript):
            lst = self.expr(node.value)
            index = self.index(node.slice)
            tmp = self.temp()
            self.emit(ListOp("get", tmp, lst, (index,), node.lineno))
            return Var(tmp)
        if isinstance(node, ast.List):
            items = tuple(self.stable(self.expr(e), node.lineno) for e in node.elts)
            tmp = self.temp()
            self.emit(NewList(tmp, items, None, node.lineno))
            return Var(tmp)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and (
            _single_item_list(node.left) or _single_item_list(node.right)
        ):
            listed, count = (node.left, node.right) if _single_item_list(node.left) else (node.right, node.left)
            assert isinstance(listed, ast.List)
            value = self.stable(self.expr(listed.elts[0]), node.lineno)
            times = self.stable(self.expr(count), node.lineno)
            tmp = self.temp()
            self.emit(RepeatList(tmp, value, times, None, node.lineno))
            return Var(tmp)
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or isinstance(node.value, int) or node.value is None:
                return Const(node.value)
            if isinstance(node.value, str):
                return Const(Text(node.value))
            raise self.error(node, construct_name(node))
        if isinstance(node, ast.JoinedStr):
            return Const(Text(None))
        if isinstance(node, ast.Name):
            if node.id in self.locals:
                return Var(node.id)
            if node.id in self.module.constants:
                return Const(self.module.constants[node.id])
            raise unknown_name(self.module.path, node, node.id)
        if isinstance(node, ast.BinOp):
            return self.binop(node.op, self.expr(node.left), node.right, node)
        if isinstance(node, ast.UnaryOp):
            operand = self.expr(node.operand)
            if isinstance(node.op, ast.USub):
                return Unary("neg", operand)
            if isinstance(node.op, ast.UAdd):
                return Unary("int", operand)
            if isinstance(node.op, ast.Not):
                return Unary("not", operand)
            raise self.error(node, _OPERATOR_TEXT.get(type(node.op), "unary operator"))
        if isinstance(node, ast.Compare):
            if len(node.ops) == 1:
                left = self.expr(node.left)
                return Binary(self.compare_op(node.ops[0], node), left, self.expr(node.comparators[0]))
            return self.branching_value(node)
        if isinstance(node, (ast.BoolOp, ast.IfExp)):
            return self.branching_value(node)
        if isinstance(node, ast.Call):
            return self.call(node, discard)
        raise self.error(node, construct_name(node))

    def binop(self, op: ast.operator, left: Expr, right_node: ast.expr, node: ast.AST) -> Expr:
        right = self.expr(right_node)
        if type(op) in _ARITH:
            return Binary(_ARITH[type(op)], left, right)
        if isinstance(op, ast.Pow):
            if isinstance(right, Const) and type(right.value) is int and 0 <= right.value <= 8:
                result: Expr = Const(1)
                for _ in range(right.value):  # x ** 3 is x * x * x
                    result = left if result == Const(1) else Binary("mul", result, left)
                return result if right.value else Const(1)
            tmp = self.temp()
            self.emit(Call(tmp, "int_pow", (left, right), node.lineno))  # type: ignore[attr-defined]
            return Var(tmp)
        if type(op) in _DIVISION:
            pure, predicate = _DIVISION[type(op)]
            if isinstance(right, Const) and isinstance(right.value, int) and right.value:
                return Binary(pure, left, right)
            tmp = self.temp()
            self.emit(Call(tmp, predicate, (left, right), node.lineno))  # type: ignore[attr-defined]
            return Var(tmp)
        raise self.error(node, _OPERATOR_TEXT.get(type(op), "operator"))

    def branching_value(self, node: ast.expr) -> Expr:
        """A value that needs control flow: `a and b`, `x if c else y`, `a < b < c`."""
        result = self.temp("v")
        join = self.new_block("join")
        line = node.lineno
        if isinstance(node, ast.IfExp):
            yes, no = self.new_block("then"), self.new_block("else")
            self.condition(node.test, yes, no)
            for block, branch_node in ((yes, node.body), (no, node.orelse)):
                self.resume(block)
                if self.cur is not None:
                    self.emit(Assign(result, self.expr(branch_node), line))
                    self.jump(join)
        elif isinstance(node, ast.Compare):
            yes, no = self.new_block("then"), self.new_block("else")
            self.condition(node, yes, no)
            for block, value in ((yes, True), (no, False)):
                self.resume(block)
                if self.cur is not None:
                    self.emit(Assign(result, Const(value), line))
                    self.jump(join)
        else:
            assert isinstance(node, ast.BoolOp)
            is_and = isinstance(node.op, ast.And)
            for value_node in node.values[:-1]:
                value = self.stable(self.expr(value_node), line)
                self.emit(Assign(result, value, line))
                more, done = self.new_block("and" if is_and else "or"), join
                truth = value if _is_boolean(value) else Unary("truth", value)
                if is_and:
                    self.branch(truth, more, done)
                else:
                    self.branch(truth, done, more)
                self.resume(more)
                if self.cur is None:
                    break
            if self.cur is not None:
                self.emit(Assign(result, self.expr(node.values[-1]), line))
                self.jump(join)
        self.resume(join)
        if self.cur is None:
            raise self.error(node, "expression that always raises")
        return Var(result)

    def call(self, node: ast.Call, discard: bool) -> Expr:
        func = node.func
        if isinstance(func, ast.Attribute):
            return self.method_call(func, node, discard)
        if not isinstance(func, ast.Name):
            raise self.error(func, "call of " + construct_name(func))
        name = func.id
        if name in self.module.class_infos or name in self.module.class_errors:
            return self.construct(name, node)
        if name == "len" and len(node.args) == 1 and not node.keywords:
            lst = self.expr(node.args[0])
            tmp = self.temp()
            self.methods_called.add("__len__")
            self.emit(ListOp("len", tmp, lst, (), node.lineno))
            return Var(tmp)
        if name == "isinstance" and len(node.args) == 2 and not node.keywords:
            return self.isinstance_of(node)
        if name in self.signatures:
            args = self.call_arguments(self.signatures[name], node)
            target = None if discard else self.temp()
            self.callees.add(name)
            self.emit(Call(target, self.signatures[name].entry, tuple(args), node.lineno))
            return Var(target) if target else Const(None)
        if node.keywords:
            raise self.error(node, f"keyword arguments to {name}()")
        if name == "abs" and len(node.args) == 1:
            tmp = self.temp()
            self.emit(Call(tmp, "abs", (self.expr(node.args[0]),), node.lineno))
            return Var(tmp)
        if name in ("sum", "min", "max") and len(node.args) == 1 and not isinstance(
                node.args[0], (ast.GeneratorExp, ast.ListComp)):
            tmp = self.temp()
            self.emit(Call(tmp, f"list_{name}", (self.expr(node.args[0]),), node.lineno))
            return Var(tmp)
        if name in ("min", "max") and len(node.args) >= 2:
            values = [self.expr(a) for a in node.args]
            acc = values[0]
            for value in values[1:]:
                tmp = self.temp()
                self.emit(Call(tmp, name, (acc, value), node.lineno))
                acc = Var(tmp)
            return acc
        if name in ("int", "bool") and len(node.args) == 1:
            return Unary("int" if name == "int" else "truth", self.expr(node.args[0]))
        if name in self.module.classes or self.module.is_exception(name):
            raise self.error(node, f"call of class {name}")
        if name in ("min", "max", "abs", "int", "bool", "len", "range"):
            raise self.error(node, f"{name}() with these arguments")
        if isinstance(getattr(builtins, name, None), (type, types.BuiltinFunctionType)):
            raise self.error(node, f"call of builtin '{name}'")
        raise unknown_name(self.module.path, func, name)

    def isinstance_of(self, node: ast.Call) -> Expr:
        """`isinstance(p, T)` on a parameter the function never reassigns:
        decided by the parameter's annotation (a None check for `C | None`)."""
        subject, kinds = node.args
        names = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
        if not (isinstance(subject, ast.Name) and subject.id in self.info.params
                and subject.id not in plainly_assigned(self.fn)
                and all(isinstance(n, ast.Name) for n in names)):
            raise self.error(node, "isinstance() other than on a parameter the function never assigns")
        declared = self.info.param_types[self.info.params.index(subject.id)]
        wanted = {n.id for n in names}  # type: ignore[attr-defined]
        if declared.kind == "int":
            matches = bool(wanted & {"int", "object"})
        elif declared.kind == "bool":
            matches = bool(wanted & {"bool", "int", "object"})
        elif declared.kind == "list":
            matches = bool(wanted & {"list", "object"})
        elif declared.kind == "obj":
            matches = "object" in wanted or any(
                w in self.module.class_infos and self.module.is_subclass(str(declared.cls), w) for w in wanted)
        else:
            matches = False
        if matches and declared.optional:
            return Binary("isnot", Var(subject.id), Const(None))
        return Const(matches)

    def method_call(self, func: ast.Attribute, node: ast.Call, discard: bool) -> Expr:
        if node.keywords:
            raise self.error(node, "keyword arguments in a method call")
        if any(isinstance(a, ast.Starred) for a in node.args):
            raise self.error(node, "*args in a call")
        obj = self.stable(self.expr(func.value), node.lineno)
        args = tuple(self.stable(self.expr(a), node.lineno) for a in node.args)
        target = None if discard else self.temp()
        self.methods_called.add(func.attr)
        self.emit(CallMethod(target, obj, func.attr, args, node.lineno))
        return Var(target) if target else Const(None)

    def construct(self, cls: str, node: ast.Call) -> Expr:
        """`C(args)`: new_object, then `__init__` when the class has one."""
        self.classes_built.add(cls)
        info = self.module.class_infos.get(cls)
        init = None
        current = cls
        while info is not None:
            if "__init__" in info.methods:
                init = f"{current}.__init__"
                break
            current = info.base or ""
            info = self.module.class_infos.get(current)
        tmp = self.temp("obj")
        if init is None:
            if node.args or node.keywords:
                raise self.error(node, f"arguments to {cls}() without __init__")
            self.emit(NewObject(tmp, cls, node.lineno))
            return Var(tmp)
        full = self.full_signatures.get(init)
        if full is None:
            raise self.error(node, f"constructor {init}")
        args = self.call_arguments(full, node, skip_self=True)
        self.emit(NewObject(tmp, cls, node.lineno))
        self.methods_called.add("__init__")
        self.emit(CallMethod(None, Var(tmp), "__init__", tuple(args), node.lineno))
        return Var(tmp)

    def call_arguments(self, callee: FunctionInfo, node: ast.Call, skip_self: bool = False) -> list[Expr]:
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            raise self.error(node, "*args or **kwargs in a call")
        params = callee.params[1:] if skip_self else callee.params
        if len(node.args) > len(params):
            raise self.error(node, f"too many arguments to {callee.name}()")
        given: dict[str, Expr] = {}
        for param, arg in zip(params, node.args):
            given[param] = self.stable(self.expr(arg), node.lineno) if skip_self else self.expr(arg)
        for kw in node.keywords:
            assert kw.arg is not None
            if kw.arg not in params or kw.arg in given:
                raise self.error(kw.value, f"bad keyword argument '{kw.arg}' to {callee.name}()")
            given[kw.arg] = self.stable(self.expr(kw.value), node.lineno)
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


def _single_item_list(node: ast.expr) -> bool:
    return isinstance(node, ast.List) and len(node.elts) == 1


def _is_boolean(e: Expr) -> bool:
    if isinstance(e, Binary):
        return e.op in ("eq", "ne", "lt", "le", "gt", "ge", "and", "or", "is", "isnot")
    return isinstance(e, Unary) and e.op in ("not", "truth")
