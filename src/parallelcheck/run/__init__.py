"""Run mechanics: worker processes, usable cores, read-ahead, the result cache and baselines."""
