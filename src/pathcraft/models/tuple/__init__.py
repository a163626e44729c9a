"""The model of `tuple` (see `pathcraft.models`)."""
