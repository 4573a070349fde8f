"""Run mechanics: everything about how a check runs, around the pure engine.

* :mod:`~parallelcheck.run.session` — what the command line starts first (the cache, the
  language model read ahead, the garbage collector's settings) and asks to check;
* :mod:`~parallelcheck.run.plan` — the :class:`~parallelcheck.run.plan.RunPlan`, decided once
  from the selected rules' needs and the output format's: rules, glossary, history, language
  model, workers, what results keep, cache mode;
* :mod:`~parallelcheck.run.pipeline` — reading the versions, git history and the cache around
  :func:`parallelcheck.engine.check_article`, in this process or in workers;
* :mod:`~parallelcheck.run.workers` and :mod:`~parallelcheck.run.cores` — worker processes
  (largest first, forked after the model loads, documents read ahead, ``gc.freeze``) and the
  cores they may use;
* :mod:`~parallelcheck.run.cache` — the result cache; :mod:`~parallelcheck.run.baseline` —
  baselines.

This package imports nothing itself: the command line imports the session before the rules,
so that the model's read overlaps their import.
"""
