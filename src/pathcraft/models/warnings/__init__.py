"""The model of `warnings.warn` (see `pathcraft.models`)."""
