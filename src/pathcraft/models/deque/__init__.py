"""The model of `deque` (see `pathcraft.models`)."""
