"""Running the analysed code, on request (`--execute`): never in pathcraft's
own process.

`sandbox.py` starts a worker process (`worker.py`) with a temporary working
directory and HOME, resource limits and an audit hook, and talks to it in
JSON lines; `wire.py` is the typed encoding values cross in (no pickle);
`search.py` runs in the worker: a coverage-guided search over inputs built
from the annotations (Hypothesis strategies), for the functions the
symbolic engine refuses; `observed.py` turns what the search observed into
tests, re-run in a fresh worker first.
"""
