"""The model of `int` (see `pathcraft.models`)."""
