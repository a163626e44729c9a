"""A function run's budget counted in work, with the clock as a safety net.

A budget that is a clock decides which tests are written by how loaded the
machine is: the same code and options wrote 24,073 tests over the
TheAlgorithms sweep one day and 20,854 the next. So `--timeout S` buys a
fixed amount of *work*, the amount this machine's reference runs do in S
seconds when idle (`WORK_PER_SECOND`), and a run that has spent it stops at
the same point on any machine and under any load: the same file.

Work is counted where the time goes and where it is deterministic:

* one unit per instruction the engine runs and per rule it enters (the
  search, Solve-First's concrete runs, probes, summaries' subtrees);
* Z3's resource count (`rlimit`, which Z3 reports per check and stops a
  check at), weighted by the theories the check uses (a unit of floating
  point costs several of linear arithmetic): a check is given at most what
  is left, so it too ends at the same point everywhere;
* candidate assignments the Python-side solver layers check.

The clock stays as a safety net (`SAFETY_FACTOR` times the timeout, plus a
little): a run it stops says so ("the clock's safety net"), in the file's
statistics and the report, as not reproducible. Nothing else reads the
clock to decide what is written.

The budget in force is a context variable set around one function's run
(`spending`); code outside such a run charges a budget without a limit.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

# A unit of work is a microsecond of the reference machine (2 cores, idle):
# the weights are the mean cost of each kind of work there, fitted over
# the budget-bound runs of TheAlgorithms' SAMPLE40 by `bench/budget.py`,
# which prints them and how far each run's work is from its time.
WORK_PER_SECOND = 1_000_000
STEP_WORK = 90  # an instruction run or a rule entered, with its solver queries' Python layers
Z3_PER_WORK = 6  # units of Z3's (weighted) resource count per unit of work
CANDIDATE_WORK = 13  # an assignment a Python-side solver layer checks (per 16 operators of its terms)
# the clock's safety net: a run past this many times its timeout (plus
# SAFETY_SLACK seconds) stops whatever its work, and says so
SAFETY_FACTOR = 4.0
SAFETY_SLACK = 2.0

WORK_REACHED = "work budget reached"
CLOCK_REACHED = "time budget reached (the clock's safety net: the run is not reproducible)"


@dataclass
class Budget:
    """What one function's run may spend, and has spent."""

    limit: int | None = None  # units of work; None: no limit
    deadline: float | None = None  # a `time.monotonic()` value: the clock's safety net
    steps: int = 0  # instructions run and rules entered
    z3: int = 0  # Z3's resource count, weighted by the theories of each check (z3backend.py)
    candidates: int = 0  # assignments the Python-side solver layers checked

    @property
    def spent(self) -> int:
        return self.steps * STEP_WORK + self.z3 // Z3_PER_WORK + self.candidates * CANDIDATE_WORK

    def z3_left(self) -> int | None:
        """Z3 resource counts left before the work budget is spent (None:
        no limit), so that a check ends where the budget does."""
        if self.limit is None:
            return None
        return max(0, (self.limit - self.spent) * Z3_PER_WORK)

    def seconds_left(self) -> float:
        """The work left, in the reference machine's seconds (0 when spent;
        infinite without a limit)."""
        if self.limit is None:
            return float("inf")
        return max(0, self.limit - self.spent) / WORK_PER_SECOND

    def reason(self) -> str | None:
        """Why the run must stop now, if it must: its work spent, or the
        clock's safety net passed."""
        if self.limit is not None and self.spent > self.limit:
            return WORK_REACHED
        if self.deadline is not None and time.monotonic() > self.deadline:
            return CLOCK_REACHED
        return None


def for_timeout(seconds: float | None) -> Budget:
    """The budget `--timeout seconds` buys (no limit for None)."""
    if seconds is None:
        return Budget()
    return Budget(limit=int(seconds * WORK_PER_SECOND),
                  deadline=time.monotonic() + seconds * SAFETY_FACTOR + SAFETY_SLACK)


_CURRENT: ContextVar[Budget | None] = ContextVar("pathcraft_budget", default=None)


def current() -> Budget:
    """The budget in force (a fresh one without a limit outside a run)."""
    found = _CURRENT.get()
    return found if found is not None else Budget()


@contextmanager
def spending(budget: Budget) -> Iterator[Budget]:
    """Charge the work done inside the block to `budget`."""
    token = _CURRENT.set(budget)
    try:
        yield budget
    finally:
        _CURRENT.reset(token)
