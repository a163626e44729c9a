"""Where CPython reports a line again after a call returns.

A line event fires when the frame moves to an instruction of another line
than the one it ran last. Within one statement the tracer's lines all map
to the statement's line, so repeats collapse, except after a call into
traced code: its events come in between, and if the frame, running on after
the call, reaches an instruction of another physical line than the call's
before anything else is traced (another call, a yield, a return, a jump
whose target this straight scan does not follow), the statement's line is
reported again. A `@property` read is such a call too (its getter's frame
comes in between): attribute loads are listed as well, and the frontend
uses them where a property of that name exists. Which instruction follows a call, and its line,
is the interpreter's own compilation (a genexpr yields at the line of its
last `if` on 3.11, at the element's from 3.12), so it is read off
`compile()` of the module source: compiled, never run.
"""

from __future__ import annotations

import dis
import functools
import types
from collections.abc import Iterator

from pathcraft.files import read_source

Position = tuple[int, int, int, int]  # lineno, col_offset, end_lineno, end_col_offset of a call expression


def _codes(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


@functools.cache
def lines_after_calls(path: str) -> dict[Position, int]:
    """For each call (or attribute load: a property's getter is a call) of
    the module whose next instruction is on another line: that line, by the
    call's position."""
    try:
        code = compile(read_source(path), path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, OSError):
        return {}
    found: dict[Position, int] = {}
    for each in _codes(code):
        instructions = list(dis.get_instructions(each))
        for index, call in enumerate(instructions):
            if not _is_call(call.opname) and call.opname != "LOAD_ATTR":
                continue
            at = call.positions
            if at is None or at.lineno is None or at.col_offset is None or at.end_lineno is None \
                    or at.end_col_offset is None:
                continue
            run = instructions[index + 1:]
            if not _is_call(call.opname):  # a getter: only where the very next instruction is on another line
                run = [i for i in run if i.positions is not None and i.positions.lineno is not None][:1]
            line = _next_line(run, at.lineno)
            if line is not None:
                found[(at.lineno, at.col_offset, at.end_lineno, at.end_col_offset)] = line
    return found


def _is_call(opname: str) -> bool:
    return opname.startswith("CALL") and not opname.startswith("CALL_INTRINSIC")


# where the straight run after a call ends: another call's events, the frame
# leaving (yield, return, raise), or a jump (its target is not followed)
_STOPS = ("RETURN", "YIELD", "RAISE", "RERAISE", "JUMP", "POP_JUMP", "FOR_ITER", "SEND")


def _next_line(run: list[dis.Instruction], line: int) -> int | None:
    """The first other line the frame moves to before anything else is
    traced, if it moves to one."""
    for instruction in run:
        at = instruction.positions
        if at is not None and at.lineno is not None and at.lineno != line:
            return at.lineno
        if _is_call(instruction.opname) or instruction.opname.startswith(_STOPS):
            return None
    return None
