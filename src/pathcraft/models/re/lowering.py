"""`re` in the subset: compiled patterns as module constants, and whether
`match`, `fullmatch` or `search` finds a match.

`NAME = re.compile("...", re.X | re.I)` at module level is a constant
(`CompiledPattern`, linked into sibling modules like any constant);
`NAME.match(s)`, `re.fullmatch("...", s)` and the like become a call of
`$re_member(s, spec)`: a TypeError for what is no str, else a choice
between a match (`s` in the pattern's language, solver/regex.py) and None.
The match is an object the model only tests for truth and for None (an
`ExcValue` of type `re.Match`, which `raise` refuses): reading its groups
or span drops the path, so `if not RE.fullmatch(name): raise ...` and
`m = RE.match(s); if m is None: ...` are exact, and what needs the match
is named in the report. A pattern the model cannot state (a backreference,
a lookaround, MULTILINE, ...) drops the paths that call it, with the
reason.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from pathcraft.ir.builtin_names import MATCH_TYPE, NEW_EXCEPTION_OP, function_predicate
from pathcraft.ir.nodes import (
    Binary, Call, CompiledPattern, Const, Expr, Goto, Predicate, Raise, Return, Rule, Text, Unary, Var,
)
from pathcraft.solver import regex

if TYPE_CHECKING:
    from pathcraft.frontend.exprhost import ExprLowering

MEMBER = function_predicate("re_member")
_MEMBER_STR = f"{MEMBER}:str"
_METHODS = frozenset(regex.MODES)
_FLAG_NAMES = {name: int(getattr(re, name)) for name in (
    "I", "IGNORECASE", "S", "DOTALL", "X", "VERBOSE", "A", "ASCII", "U", "UNICODE", "M", "MULTILINE")}


def compiled(value: ast.expr, imported: set[str], constants: Mapping[str, object]) -> CompiledPattern | None:
    """`re.compile(P)` or `re.compile(P, FLAGS)` with a pattern the module
    spells out (a literal or a str constant) and flags of `re`, or its
    `match`/`fullmatch`/`search` method (`re.compile(P).search`, or `NAME.search`
    of such a constant): a function libraries bind once under a name of its
    own (`_find_unsafe = re.compile(...).search`); None for anything else."""
    if isinstance(value, ast.Attribute) and value.attr in _METHODS:
        named = constants.get(value.value.id) if isinstance(value.value, ast.Name) else None
        made = named if isinstance(named, CompiledPattern) else compiled(value.value, imported, constants)
        return None if made is None or made.method is not None else replace(made, method=value.attr)
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "compile"
            and isinstance(value.func.value, ast.Name) and value.func.value.id == "re" and "re" in imported
            and not value.keywords and 1 <= len(value.args) <= 2):
        return None
    pattern = _text(value.args[0], constants)
    flags = _flags(value.args[1]) if len(value.args) == 2 else 0
    return None if pattern is None or flags is None else CompiledPattern(pattern, flags)


def _text(node: ast.expr, constants: Mapping[str, object]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        known = constants.get(node.id)
        if isinstance(known, Text) and known.value is not None:
            return known.value
    return None


def _flags(node: ast.expr) -> int | None:
    """`re.X | re.I` (or one flag, or 0)."""
    if isinstance(node, ast.Constant) and node.value == 0 and type(node.value) is int:
        return 0
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "re" \
            and node.attr in _FLAG_NAMES:
        return _FLAG_NAMES[node.attr]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = _flags(node.left), _flags(node.right)
        return None if left is None or right is None else left | right
    return None


def member_call(ex: ExprLowering, func: ast.Attribute, node: ast.Call) -> Expr | None:
    """`P.match(s)` on a compiled-pattern constant, or `re.match(p, s)`
    (`fullmatch`, `search` alike); None when the call is neither."""
    if func.attr not in _METHODS or node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    receiver = func.value
    if not isinstance(receiver, ast.Name) or receiver.id in ex.local_names:
        return None
    constants = ex.module.constants
    known = constants.get(receiver.id)
    if isinstance(known, CompiledPattern) and known.method is None:
        if len(node.args) != 1:  # `pos`, `endpos`: not modelled
            return None
        pattern, flags, subject = known.pattern, known.flags, node.args[0]
    elif receiver.id == "re" and "re" in ex.module.imported and 2 <= len(node.args) <= 3:
        named = constants.get(node.args[0].id) if isinstance(node.args[0], ast.Name) else None
        flags_given = _flags(node.args[2]) if len(node.args) == 3 else 0
        if isinstance(named, CompiledPattern) and named.method is None and flags_given == 0:
            pattern, flags = named.pattern, named.flags
        else:
            text = _text(node.args[0], constants)
            if text is None or flags_given is None:
                return None
            pattern, flags = text, flags_given
        subject = node.args[1]
    else:
        return None
    return _matched(ex, pattern, flags, func.attr, subject, node)


def bound_call(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`NAME(s)` where the module constant NAME is a compiled pattern's
    match method (`compiled` above); None when it is not."""
    known = ex.module.constants.get(name)
    if not isinstance(known, CompiledPattern) or known.method is None or name in ex.local_names:
        return None
    if len(node.args) != 1 or node.keywords or isinstance(node.args[0], ast.Starred):
        return None  # `pos`, `endpos`: not modelled
    return _matched(ex, known.pattern, known.flags, known.method, node.args[0], node)


def _matched(ex: ExprLowering, pattern: str, flags: int, method: str, subject: ast.expr, node: ast.Call) -> Expr:
    """Whether `method` of the pattern finds a match in `subject`: a match
    object or None (dropped with the reason when the model cannot state it)."""
    value = ex.blocks.stable(ex.expr(subject), node.lineno)
    why = regex.refusal(pattern, flags)
    if why is not None:
        return ex.stdlib.dropped(why, node)
    tmp = ex.blocks.temp()
    ex.blocks.emit(Call(tmp, MEMBER, (value, Const(Text(regex.spec(method, flags, pattern)))), node.lineno))
    return Var(tmp)


def member_predicates() -> dict[str, Predicate]:
    """`$re_member(s, spec)`: TypeError for what is no str (CPython says
    more: not asserted), else a match object or None."""
    s, spec = Var("s"), Var("spec")
    is_str = Unary("isstr", s)
    found = Binary("inre", s, spec)
    match = Unary(NEW_EXCEPTION_OP + MATCH_TYPE, Const(None))
    entry = Predicate(MEMBER, MEMBER, ("s", "spec"), (
        Rule(1, is_str, (Goto(_MEMBER_STR, (s, spec)),)),
        Rule(2, Unary("not", is_str), (Raise("TypeError", None, 0),)),
    ), builtin=True)
    member = Predicate(_MEMBER_STR, _MEMBER_STR, ("s", "spec"), (
        Rule(1, found, (Return(match, 0),)),
        Rule(2, Unary("not", found), (Return(Const(None), 0),)),
    ), builtin=True)
    return {entry.name: entry, member.name: member}
