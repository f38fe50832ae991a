"""Find stale state in Python classes across a whole package."""

__version__ = "0.1.0"
