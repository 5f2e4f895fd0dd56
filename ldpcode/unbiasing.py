r"""HeLDP-UCB-B's unbiased values: CTB's bit under each user's own level :math:`\epsilon_t`, mapped through the map g
of the HeLDP paper (Section 3.2), one value per response, through the same compiled :func:`~ldpcode.mechanisms.respond`
and :func:`~ldpcode.mechanisms.unbias` the engines use. The chapter ``chapters/heldp/unbiasing_map_g`` checks by
Monte Carlo that their mean is the reward mean for every level, and their variance
(:func:`ldpcode.bounds.unbiased_ctb_variance`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ._validate import as_float_array, check_rng, check_unit_interval
from .mechanisms import Mechanism, respond, unbias


_BERNOULLI = int(Mechanism.BERNOULLI)  # a global: numba freezes it into the compiled loop


@njit(cache=True)
def _g_values(rewards, epsilons, uniforms):
    out = np.empty_like(rewards)
    for i in range(rewards.shape[0]):
        e = epsilons[i]
        bit = respond(_BERNOULLI, False, rewards[i], uniforms[i], 0.0, math.exp(e))
        out[i] = unbias(bit, e)
    return out


def ctb_unbiased_values(rewards, epsilons, rng) -> np.ndarray:
    r""":math:`g(M_B(R_t;\epsilon_t);\epsilon_t)` for each reward :math:`R_t` in ``rewards`` (in [0, 1]) and its user's
    level :math:`\epsilon_t` in ``epsilons`` (same length, each > 0; a scalar is used for all): CTB (Curator 3)
    answers 1 with probability :math:`(R_te^{\epsilon_t}+1-R_t)/(1+e^{\epsilon_t})` from one uniform draw of
    ``rng``, and g maps the bit to :math:`\tfrac12 + (x - \tfrac12)\frac{e^{\epsilon_t}+1}{e^{\epsilon_t}-1}`
    (line 9 of Agent 4, HeLDP-UCB-B)."""
    r = check_unit_interval("rewards", rewards, ndim=1)
    e = as_float_array("epsilons", epsilons, bools=False)
    if e.ndim == 0:
        e = np.full(r.shape, float(e))
    if e.shape != r.shape or not np.isfinite(e).all() or (e <= 0).any():
        raise ValueError(
            f"epsilons must be finite levels > 0, one per reward ({r.size}) or one for all, got shape {e.shape}"
        )
    rng = check_rng("rng", rng)
    return _g_values(np.ascontiguousarray(r), np.ascontiguousarray(e), rng.random(r.size))
