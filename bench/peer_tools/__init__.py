"""Helpers of the peer benchmark (``bench/peers.py``).

Modules:

* ``procs``    -- run a command in its own process group, kill it at a deadline.
* ``targets``  -- the target list (manifest + examples), import roots, line ranges.
* ``adapters`` -- one adapter per tool (pathcraft, CrossHair, Pynguin); pluggable.
* ``measure``  -- run generated tests under coverage.py with per-test timeouts.
* ``report``   -- markdown table and JSON record.
"""
