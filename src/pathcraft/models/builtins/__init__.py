"""The builtin classes libraries derive from, `dict` and `list` (see `pathcraft.models`)."""
