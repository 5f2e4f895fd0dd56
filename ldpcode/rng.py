"""Seeding: the random streams of one simulated run.

Run ``r`` of a call with ``seed=s`` draws from ``SeedSequence(s).spawn(runs)[r]``; :func:`run_streams` splits
that run's seed sequence into independent generators (users' rewards, curator noise and, for heterogeneous
privacy, users' privacy levels). Every engine draws through it (``simulate``, ``bco``, ``contextual``,
``reductions``, ``reference`` and the audits), so a run is the same whatever the number of runs or of worker
threads, and two policies simulated with the same seed see the same reward draws (common random numbers)
in every figure and table of the four papers.
"""

from __future__ import annotations

import numpy as np


def run_streams(seed_seq: np.random.SeedSequence, k: int = 2) -> tuple[np.random.Generator, ...]:
    """The generators of one run: users' rewards, curator noise and (k = 3) users' privacy levels.

    Derived from the run's spawn key, not with ``seed_seq.spawn`` (which counts its calls), so the same
    run always gets the same streams, however often and by whom they are asked for.
    """
    return tuple(
        np.random.Generator(
            np.random.PCG64(
                np.random.SeedSequence(
                    entropy=seed_seq.entropy, spawn_key=(*seed_seq.spawn_key, i), pool_size=seed_seq.pool_size
                )
            )
        )
        for i in range(k)
    )
