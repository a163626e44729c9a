"""The model of `threading`'s locks (see `pathcraft.models`)."""
