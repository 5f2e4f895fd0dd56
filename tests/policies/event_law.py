"""What the event-driven engines' tests share (tests/policies/test_event*.py): the law test (an event engine draws
from another stream than the per-pull engine, so the two are compared in law, not pull for pull), and the checks
of seeding and of the counts at the checkpoints, which every engine must pass alike."""

from __future__ import annotations

import numpy as np
from scipy import stats

import ldpcode as ldp

P_MIN = 1e-3
"""The threshold of :func:`law_test_passes`: the corrected smallest p-value of one configuration must exceed it."""


def law_pvalues(a, b, gaps) -> list:
    """Per checkpoint of the counts ``a`` and ``b`` (runs, checkpoints, arms) of the two engines: (the two-sample
    KS p-value of the regret ``counts @ gaps``, the smallest Welch p-value over the arms' pull counts,
    Bonferroni-corrected over the arms)."""
    out = []
    for c in range(a.shape[1]):
        ks = stats.ks_2samp(a[:, c] @ gaps, b[:, c] @ gaps).pvalue
        with np.errstate(invalid="ignore", divide="ignore"):  # an arm pulled equally often in every run
            tp = np.nan_to_num(stats.ttest_ind(a[:, c], b[:, c], axis=0, equal_var=False).pvalue, nan=1.0)
        out.append((float(ks), float(min(1.0, tp.min() * gaps.size))))
    return out


def corrected_pvalue(pvals) -> float:
    """The smallest p-value of :func:`law_pvalues`, Bonferroni-corrected over the two statistics and the
    checkpoints (not clipped at 1)."""
    return min(min(p) for p in pvals) * 2 * len(pvals)


def law_test_passes(pvals) -> bool:
    """The law test of one configuration: :func:`corrected_pvalue` above :data:`P_MIN` (so k configurations reject
    equal laws by chance with probability at most k * 1e-3)."""
    return corrected_pvalue(pvals) > P_MIN


def same_seed_same_output(run) -> tuple:
    """``run(seed_seq)`` -> (counts, extra) twice on one seed and once on another (``SeedSequence(5).spawn(3)``,
    runs 1, 1 and 2): the first two are identical, the third differs. Returns the first output."""
    seqs = np.random.SeedSequence(5).spawn(3)
    one, two, other = (run(seqs[i]) for i in (1, 1, 2))
    np.testing.assert_array_equal(one[0], two[0])
    assert not np.array_equal(one[0], other[0])
    return one


def checkpoint_lists(horizon: int) -> list:
    """Two checkpoint lists ending at ``horizon``: 80 log-spaced ones, and every t up to 59 with a few late ones."""
    cases = (ldp.log_checkpoints(horizon, 80), np.r_[np.arange(1, 60), [1000, 1001, 250_000, horizon]])
    return [np.asarray(c, dtype=np.int64) for c in cases]


def assert_counts_follow_the_checkpoints(out, cps) -> None:
    """Each row of the counts ``out`` sums to its checkpoint (the last to the horizon), and counts only grow."""
    np.testing.assert_array_equal(out.sum(axis=1), cps)
    assert (np.diff(out, axis=0) >= 0).all()
