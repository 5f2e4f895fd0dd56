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


def kl_mixture(p, q, f, g):
    r""":math:`D_{\mathrm{KL}}(h_a\,\|\,h_b)` for the mixtures :math:`h_a = pf + (1-p)g`, :math:`h_b = qf + (1-q)g`.

    The quantity bounded by Lemma 12 (Appendix A.8 of Ren et al. 2020): f and g are the output laws of a
    mechanism on the two rewards of a Bernoulli arm, and :math:`h_a`, :math:`h_b` the laws of its responses
    on arms of means p and q. ``p`` and ``q`` broadcast against each other and against the leading axes of
    ``f`` and ``g``, whose last axis indexes the finite output set. Natural log, 0 log 0 = 0; ``inf`` where
    :math:`h_b = 0 < h_a`.
    """
    p = np.asarray(p, dtype=float)
    q = np.asarray(q, dtype=float)
    for name, v in (("p", p), ("q", q)):
        if not np.isfinite(v).all() or (v < 0).any() or (v > 1).any():
            raise ValueError(f"{name} must lie in [0, 1], got {v!r}")
    f = np.asarray(f, dtype=float)
    g = np.asarray(g, dtype=float)
    if f.shape != g.shape or f.ndim == 0:
        raise ValueError(f"f and g must be probability vectors of the same shape, got {f.shape} and {g.shape}")
    for name, v in (("f", f), ("g", g)):
        if (v < 0).any() or not np.isfinite(v).all() or not np.allclose(v.sum(axis=-1), 1.0, rtol=0, atol=1e-9):
            raise ValueError(f"{name} must be a probability vector (non-negative, summing to 1 on its last axis)")
    ha = p[..., None] * f + (1 - p[..., None]) * g
    hb = q[..., None] * f + (1 - q[..., None]) * g
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(ha > 0, ha * np.log(ha / hb), 0.0)
    return terms.sum(axis=-1)
