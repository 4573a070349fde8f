"""Alignment: the language versions of one article, aligned section by section and block by
block."""
