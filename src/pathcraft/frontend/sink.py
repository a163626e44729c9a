"""Where lowering puts its instructions: one function's blocks under construction.

`BlockSink` is the interface expression lowering works against: emit into
the current block, make a temporary, open a block, branch, jump, resume.
`FunctionBlocks` implements it for one function and adds what only
statement lowering uses: the lexical exception handler that new blocks
get, entering a block directly, and closing one with a return or raise.

Block and temporary names come from one counter, so the names of a
function are numbered in the order lowering made them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from pathcraft.frontend.blocks import BlockBuilder, Branch, Jump, Terminator, finalize
from pathcraft.ir.nodes import Assign, Const, Expr, Guard, Instr, Predicate, Var


class BlockSink(Protocol):
    """The block plumbing expression lowering needs, and no more."""

    @property
    def current(self) -> BlockBuilder | None:
        """The block being filled; None where control cannot reach."""

    def emit(self, instr: Instr) -> None:
        """Append `instr` to the current block."""

    def temp(self, kind: str = "t") -> str:
        """A fresh temporary variable."""

    def stable(self, e: Expr, line: int, across_statements: bool = False) -> Expr:
        """`e` evaluated once, now (see `FunctionBlocks.stable`)."""

    def new_block(self, kind: str) -> BlockBuilder:
        """A new empty block; it becomes current only by a jump or resume."""

    def branch(self, guard: Guard, if_true: BlockBuilder, if_false: BlockBuilder) -> None:
        """Close the current block with a two-way branch on `guard`."""

    def jump(self, target: BlockBuilder) -> None:
        """Close the current block (if any) with a jump to `target`."""

    def resume(self, block: BlockBuilder) -> None:
        """Continue in `block` if anything jumps there, else drop it."""


@dataclass(frozen=True)
class BlocksCheckpoint:
    """The state of a function's blocks before a statement (`FunctionBlocks.checkpoint`)."""

    blocks: frozenset[str]
    current: BlockBuilder | None
    instrs: int
    terminator: Terminator | None
    referenced: frozenset[str]
    handler: str | None


class FunctionBlocks:
    """The blocks of one function and the block being filled (a `BlockSink`).

    `order` lists the function's variables, parameters first, and gets each
    temporary as it is made: it ranks the parameters of block predicates.
    `handler` is the block that exceptions of newly opened blocks go to (the
    innermost enclosing `try`'s); statement lowering sets it."""

    def __init__(self, entry: str, order: list[str]) -> None:
        self.entry = entry
        self.order = order
        self.handler: str | None = None
        self.blocks: dict[str, BlockBuilder] = {}
        self._current: BlockBuilder | None = None
        self._referenced: set[str] = set()
        self._counter = 0

    @property
    def current(self) -> BlockBuilder | None:
        return self._current

    def _fresh(self, kind: str) -> str:
        """A fresh name for a block of this function."""
        self._counter += 1
        return f"{self.entry}_{kind}{self._counter}"

    def temp(self, kind: str = "t") -> str:
        self._counter += 1
        name = f"${kind}{self._counter}"
        self.order.append(name)
        return name

    def new_block(self, kind: str, iterates: str | None = None) -> BlockBuilder:
        """A new block under the current handler; the first one made is the
        function's entry. `iterates` names the loop whose body it starts."""
        return self.new_block_under(kind, self.handler, iterates)

    def new_block_under(self, kind: str, handler: str | None, iterates: str | None = None) -> BlockBuilder:
        """A new block whose exceptions go to `handler` (try/except/finally
        blocks, which live under another handler than their statements)."""
        name = self.entry if not self.blocks else self._fresh(kind)
        block = BlockBuilder(name, handler, iterates)
        self.blocks[name] = block
        return block

    def enter(self, block: BlockBuilder) -> None:
        """Continue in `block`, known to be reachable (by fall-through, or as
        an exception handler)."""
        self._current = block

    def fall_into(self, kind: str) -> BlockBuilder:
        """Continue in a new block that the current one jumps to (a block
        boundary without control flow: a new handler, a new loop-free part)."""
        block = self.new_block(kind)
        self.jump(block)
        self._current = block
        return block

    def emit(self, instr: Instr) -> None:
        assert self._current is not None
        self._current.instrs.append(instr)

    def close(self, terminator: Terminator) -> None:
        """End the current block; code after it is unreachable until a block
        is entered or resumed."""
        assert self._current is not None
        self._current.terminator = terminator
        if isinstance(terminator, Jump):
            self._referenced.add(terminator.target)
        elif isinstance(terminator, Branch):
            self._referenced.update((terminator.if_true, terminator.if_false))
        self._current = None

    def jump(self, target: BlockBuilder | str, enters_loop: str | None = None) -> None:
        """Jump to `target` unless the current point is unreachable;
        `enters_loop` restarts that loop's iteration count."""
        if self._current is not None:
            name = target if isinstance(target, str) else target.name
            self.close(Jump(name, enters_loop))

    def branch(self, guard: Guard, if_true: BlockBuilder, if_false: BlockBuilder) -> None:
        """A constant guard is a jump: the other side is never referenced."""
        if isinstance(guard, Const):
            self.jump(if_true if guard.value else if_false)
            return
        self.close(Branch(guard, if_true.name, if_false.name))

    def resume(self, block: BlockBuilder) -> None:
        if block.name in self._referenced:
            self._current = block
        else:
            del self.blocks[block.name]
            self._current = None

    def stable(self, e: Expr, line: int, across_statements: bool = False) -> Expr:
        """`e` evaluated once, now: a temporary unless it is a constant, or a
        variable used within the same statement (no expression of the subset
        assigns a local). Values kept across statements (a loop's `range`
        bounds, the list a `for` walks) are always copied."""
        if isinstance(e, Const) or (isinstance(e, Var) and not across_statements):
            return e
        tmp = self.temp()
        self.emit(Assign(tmp, e, line))
        return Var(tmp)

    def checkpoint(self) -> BlocksCheckpoint:
        """What `rewind` restores: the blocks as they are before a statement."""
        current = self._current
        return BlocksCheckpoint(frozenset(self.blocks), current, len(current.instrs) if current else 0,
                                current.terminator if current else None, frozenset(self._referenced), self.handler)

    def rewind(self, point: BlocksCheckpoint) -> None:
        """Forget what was built since `point` (a statement given up half-way):
        the blocks it opened, what it added to the block it started in."""
        for name in set(self.blocks) - point.blocks:
            del self.blocks[name]
        self._current = point.current
        if point.current is not None:
            del point.current.instrs[point.instrs:]
            point.current.terminator = point.terminator
        self._referenced = set(point.referenced)
        self.handler = point.handler

    def finish(self, function: str, params: tuple[str, ...]) -> dict[str, Predicate]:
        """The predicates of the finished blocks (see `blocks.finalize`)."""
        return finalize(function, self.entry, params, self.blocks, self.order)
