"""Divergences between distributions: Bernoulli and discrete KL, total variation.

All logs are natural, with the convention 0 log 0 = 0 (Ren et al., footnote 3).
"""
from __future__ import annotations

import numpy as np

from ._validate import check_probability_vector


def kl_bernoulli(p, q):
    r"""KL divergence :math:`D(\mathrm{Ber}(p)\,\|\,\mathrm{Ber}(q)) = p\log\frac pq + (1-p)\log\frac{1-p}{1-q}`.

    Broadcasts over arrays; ``inf`` where the support of Ber(p) is not inside that of Ber(q).
    """
    p = np.asarray(p, dtype=float)
    q = np.asarray(q, dtype=float)
    for name, v in (("p", p), ("q", q)):
        check_probability_vector(name, np.atleast_1d(v).ravel())
    with np.errstate(divide="ignore", invalid="ignore"):
        a = np.where(p > 0, p * np.log(p / q), 0.0)
        b = np.where(p < 1, (1 - p) * np.log((1 - p) / (1 - q)), 0.0)
    return a + b


def kl_discrete(f, g):
    r""":math:`\sum_x f(x)\log(f(x)/g(x))` for two probability vectors on the same finite set."""
    f = np.asarray(f, dtype=float)
    g = np.asarray(g, dtype=float)
    if f.shape != g.shape:
        raise ValueError(f"f and g must have the same shape, got {f.shape} and {g.shape}")
    for name, v in (("f", f), ("g", g)):
        if (v < 0).any() or not np.isfinite(v).all() or not np.isclose(v.sum(axis=-1), 1.0).all():
            raise ValueError(f"{name} must be a probability vector (non-negative, summing to 1)")
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(f > 0, f * np.log(f / g), 0.0)
    return terms.sum(axis=-1)


def tv_discrete(f, g):
    """Total variation distance between two probability vectors: half their L1 distance."""
    f = np.asarray(f, dtype=float)
    g = np.asarray(g, dtype=float)
    return 0.5 * np.abs(f - g).sum(axis=-1)
