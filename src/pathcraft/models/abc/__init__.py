"""The abstract base classes libraries derive from (see `pathcraft.models`)."""
