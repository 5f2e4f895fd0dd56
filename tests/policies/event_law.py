"""The law test shared by the event-driven engines' tests (tests/policies/test_event*.py): an event engine draws
from another stream than the per-pull engine, so the two are compared in law, not pull for pull."""

from __future__ import annotations

import numpy as np
from scipy import stats

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
