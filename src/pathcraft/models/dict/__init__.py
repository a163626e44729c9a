"""The model of `dict` (see `pathcraft.models`)."""
