"""Python models: how pathcraft treats one Python type or stdlib module,
in one folder per type (`models/str/`, `models/dict/`, `models/math/`, ...).

A folder holds up to three halves, each on its own layer:

* `prelude.py`: the type's methods and functions written as plain Python,
  which the frontend lowers like user code (`frontend/prelude/`; never
  imported to run, read as source);
* `lowering.py`: the frontend's rules for its syntax and builtin calls
  (layer 3, beside `frontend/`);
* `semantics.py`: the engine-side hooks, a `Model` (`registry.py`) that says
  what it answers for (value kinds, builtin predicates); `catalog.py`
  gathers them into the `REGISTRY` the engine's handlers ask (layer 4).

This package's `__init__` imports nothing, so the frontend can import a
`lowering.py` without pulling in the engine.
"""
