"""The `re` module: whether a pattern matches (see lowering.py)."""
