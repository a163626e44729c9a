"""The model of `itertools`' iterators (see `pathcraft.models`): generator
functions in `prelude.py`, called where the tested code calls the library
(`frontend/stdlib.py`)."""
