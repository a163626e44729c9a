"""The model of `bits` (see `pathcraft.models`)."""
