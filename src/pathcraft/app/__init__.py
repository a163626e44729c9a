"""Package runs: the plan and its work items (batch, workitem), where they run (pool and
worker processes, cluster on Dask) and the live display (progress). Above generate, below the
command line."""
