"""The model of `str` (see `pathcraft.models`)."""
