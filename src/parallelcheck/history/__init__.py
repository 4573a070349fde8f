"""Git history: what changed in the source version since a translation was last updated."""
