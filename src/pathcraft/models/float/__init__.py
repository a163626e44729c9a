"""The model of `float` (see `pathcraft.models`)."""
