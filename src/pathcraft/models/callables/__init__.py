"""The functions a test passes for a callable parameter: their model
classes (`classes.py`); the table of their lambdas is `pathcraft.ir.callables`."""
