"""The strategies a generation run can pick, by name, in the order they
are tried: the first whose `applies` says the options ask for it runs
(`all-paths` takes whatever no other does). A new strategy is one module
with a class following `base.Strategy`, listed here."""

from __future__ import annotations

from pathcraft.strategies.all_paths import AllPaths
from pathcraft.strategies.base import RunOptions, Strategy
from pathcraft.strategies.driven_paths import DrivenPaths
from pathcraft.strategies.first_path import FirstPath
from pathcraft.strategies.item_paths import ItemPaths
from pathcraft.strategies.local_paths import LocalPaths
from pathcraft.strategies.point_paths import PointPaths

STRATEGIES: dict[str, Strategy] = {s.name: s for s in (
    ItemPaths(), PointPaths(), LocalPaths(), DrivenPaths(), FirstPath(), AllPaths(),
)}


def strategy_for(options: RunOptions) -> Strategy:
    """The strategy the options ask for."""
    return next(s for s in STRATEGIES.values() if s.applies(options))
