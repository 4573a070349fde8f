"""parallelcheck: check that the language versions of one article still say the same thing."""

__version__ = "0.2.0"
