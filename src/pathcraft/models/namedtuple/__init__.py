"""The model of `namedtuple` (see `pathcraft.models`)."""
