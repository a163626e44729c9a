"""The model of `math` (see `pathcraft.models`)."""
