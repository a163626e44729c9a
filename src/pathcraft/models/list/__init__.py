"""The model of `list` (see `pathcraft.models`)."""
