"""Bounded, confined reads of files and safe YAML."""
