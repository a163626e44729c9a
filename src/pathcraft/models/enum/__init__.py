"""Enum members: the frontend reads enum classes (frontend/enums.py), the
engine's half is `semantics.py`."""
