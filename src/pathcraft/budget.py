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
* candidate assignments the Python-side solver layers check;
* terms asserted to Z3 (their translation and Z3's own preprocessing, which
  its resource count does not see: a path's canonical model asserts a
  score of bounds per check, and took most of the time of runs that write
  hundreds of tests).

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
# which prints them and how far each run's work is from its time. (Refitted
# 2026-11-30 with the terms asserted to Z3 as a fourth kind, which the step
# weight had carried, and scaled so that SAMPLE40's runs spend the same
# work in all as under the weights before: the machine had become about
# twice as fast as the reference.)
WORK_PER_SECOND = 1_000_000
STEP_WORK = 40  # an instruction run or a rule entered, with its solver queries' Python layers
Z3_PER_WORK = 5  # units of Z3's (weighted) resource count per unit of work
CANDIDATE_WORK = 2  # an assignment a Python-side solver layer checks (per 16 operators of its terms)
ASSERTION_WORK = 200  # a term asserted to Z3
# the clock's safety net: a run past this many times its timeout (plus
# SAFETY_SLACK seconds) stops whatever its work, and says so
SAFETY_FACTOR = 4.0
SAFETY_SLACK = 2.0
# no one solver check may spend more than this share of the run's whole
# work: a check Z3 cannot settle answers unknown (that path is dropped and
# counted) and leaves the rest of the search the rest of its budget, where
# it used to take all of it (`get_barcode`: one test, its two seconds spent
# in one check; three tests now). Z3's `push` is not bounded by the count:
# scoping a path that holds `sqrt` of a float can spend a million units
# there (they are charged to the next check), so a run of such checks can
# still pass its budget by one push
CHECK_SHARE = 8

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
    assertions: int = 0  # terms asserted to Z3

    @property
    def spent(self) -> int:
        return (self.steps * STEP_WORK + self.z3 // Z3_PER_WORK + self.candidates * CANDIDATE_WORK
                + self.assertions * ASSERTION_WORK)

    def for_a_check(self) -> int | None:
        """The work one solver check may spend (None: no limit): what is
        left, and at most the run's `CHECK_SHARE`."""
        if self.limit is None:
            return None
        return max(0, min(self.limit - self.spent, self.limit // CHECK_SHARE))

    def z3_for_a_check(self) -> int | None:
        """`for_a_check` in Z3's resource counts, so that a check ends where
        its share does."""
        work = self.for_a_check()
        return None if work is None else work * Z3_PER_WORK

    def seconds_for_a_check(self) -> float:
        """`for_a_check` in the reference machine's seconds (infinite
        without a limit)."""
        work = self.for_a_check()
        return float("inf") if work is None else work / WORK_PER_SECOND

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
