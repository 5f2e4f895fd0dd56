r"""The privacy cost factors shared by Ren et al. (2020) and its heterogeneous extension (the HeLDP paper).

=====================================  ===========================================================
function                               statement
=====================================  ===========================================================
:func:`laplace_ratio`                  Ren et al., Theorem 4, Remark i: LDP-UCB-L over UCB1, :math:`(1+4/\epsilon)^2`
:func:`bernoulli_ratio`                Ren et al., Theorem 6: LDP-UCB-B over UCB1, :math:`((e^\epsilon+1)/(e^\epsilon-1))^2`
:func:`heldp_alpha`                    HeLDP paper, Section 3.1: :math:`\alpha(\epsilon) = \epsilon^{-2}`
:func:`heldp_beta`                     HeLDP paper, Section 3.2: :math:`\beta(\epsilon) = \coth^2(\epsilon/2)`
=====================================  ===========================================================

A room of its own because both :mod:`~ldpcode.bounds.ren2020` (Theorems 4, 6) and
:mod:`~ldpcode.bounds.heldp` (Theorems 7, 10, Corollaries 8, 11) use them: :func:`bernoulli_ratio` is
:func:`heldp_beta` at a single ε.

Conventions (what the functions refuse: a value of the wrong type, such as a string or a bool, raises TypeError; a
value out of range raises ValueError):

* :func:`laplace_ratio` and :func:`bernoulli_ratio` take one privacy level, a finite number ≥
  :data:`ldpcode.EPSILON_FLOOR` = 10⁻⁹ (0, negatives, ``inf`` and ``nan`` are refused);
* :func:`heldp_alpha` and :func:`heldp_beta` take a number or an array of users' levels (they broadcast), every
  entry finite and ≥ 0 (the error names the first bad entry); a level of 0 is accepted and gives ``inf``.
"""

from __future__ import annotations

import numpy as np

from .._validate import check_array, check_epsilon


def laplace_ratio(epsilon) -> float:
    r"""The privacy cost factor of LDP-UCB-L over UCB1: :math:`(1 + 4/\epsilon)^2` (Theorem 4, Remark i)."""
    return (1.0 + 4.0 / check_epsilon(epsilon)) ** 2


def bernoulli_ratio(epsilon) -> float:
    r"""The privacy cost factor of LDP-UCB-B over UCB1: :math:`((e^\epsilon+1)/(e^\epsilon-1))^2` (Thm 6)."""
    return float(heldp_beta(check_epsilon(epsilon)))


def heldp_alpha(epsilon):
    r""":math:`\alpha(\epsilon) = \epsilon^{-2}` (Section 3.1, before Theorem 7). Broadcasts."""
    eps = check_array("epsilon", epsilon, low=0)
    with np.errstate(divide="ignore", over="ignore"):  # alpha(0) = inf; beyond 1e154, eps^2 = inf and alpha = 0
        return 1.0 / (eps * eps)


def heldp_beta(epsilon):
    r""":math:`\beta(\epsilon) = ((e^\epsilon+1)/(e^\epsilon-1))^2 = \coth^2(\epsilon/2)` (Section 3.2,
    before Theorem 10), computed as :math:`1/\tanh^2(\epsilon/2)`, which cannot overflow. Broadcasts."""
    from ..mechanisms import bernoulli_scale

    # the curator's own coth(eps/2) (pure-Python form, so any array shape broadcasts), squared
    return bernoulli_scale.py_func(check_array("epsilon", epsilon, low=0)) ** 2
