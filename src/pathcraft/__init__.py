"""pathcraft: unit tests for typed Python by CLP-style symbolic execution."""

__version__ = "0.1.0"
__all__ = ["__version__"]
