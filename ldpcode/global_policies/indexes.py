r"""The optimistic indexes of Algorithm 1 (Azize and Basu 2022), each computed from one arm's private mean
:math:`\tilde\mu` of its last episode, of length m, at the start :math:`t_\ell` of episode l.

:class:`PrivateIndex` is the interface; :class:`UCBIndex` is AdaP-UCB's index, eq. (7) (with our reading of
where its privacy term sits), :class:`KLUCBIndex` AdaP-KLUCB's, eq. (8) (KL-UCB on the clipped private
mean), and :class:`KLUCBIndexAsPrinted` the other reading of eq. (8), without the shift. A third index is a
subclass of :class:`PrivateIndex` with ``__call__(mu_tilde, m, t_l, epsilon, alpha)``;
:class:`ldpcode.global_policies.episodes.AdaptiveEpisodes` (Algorithm 1) takes any of them.
"""

from __future__ import annotations

import math

import numpy as np

from ..divergences import klucb_bernoulli_scalar


# ---------------------------------------------------------------------------------------------------
# Indexes computed from one private mean (eqs. 7 and 8)
# ---------------------------------------------------------------------------------------------------


class PrivateIndex:
    """An optimistic index computed only from an arm's private mean ``mu_tilde`` of its last episode of
    length ``m``, at the start ``t_l`` of episode l. Arrays over arms in, array out."""

    name = "index"

    def __call__(self, mu_tilde, m, t_l, epsilon, alpha):  # pragma: no cover - interface
        raise NotImplementedError


class UCBIndex(PrivateIndex):
    r"""AdaP-UCB, eq. (7): :math:`\tilde\mu + \sqrt{\frac{\alpha\log t_\ell}{2m}} + \frac{\alpha\log t_\ell}{\epsilon m}`.

    The extraction of eq. (7) prints both terms under one square root. We read the privacy term outside
    it: it is the Laplace tail :math:`P\{\mathrm{Lap}(1/(\epsilon m)) > \alpha\log t/(\epsilon m)\} =
    \frac12 t^{-\alpha}`, the same term eq. (8) adds to the clipped mean, and only with it outside does
    Theorem 7's :math:`1/\min(\Delta_a, \epsilon)` scaling follow (under the root it would give
    :math:`1/(\epsilon\Delta_a)`).
    """

    name = "UCB"

    def __call__(self, mu_tilde, m, t_l, epsilon, alpha):
        a = alpha * math.log(t_l)
        return mu_tilde + np.sqrt(a / (2.0 * m)) + a / (epsilon * m)


class KLUCBIndex(PrivateIndex):
    r"""AdaP-KLUCB, eq. (8): :math:`\max\{q\in[0,1] : d(\tilde\mu^{\alpha}, q) \le \alpha\log t_\ell / m\}`
    with the clipped private mean :math:`\tilde\mu^{\alpha} = \mathrm{Clip}_{0,1}(\tilde\mu + \alpha\log t_\ell/(\epsilon m))`
    and d the Bernoulli KL divergence."""

    name = "KLUCB"

    def __call__(self, mu_tilde, m, t_l, epsilon, alpha):
        a = alpha * math.log(t_l)
        return _klucb_each(mu_tilde + a / (epsilon * m), a / m)


class KLUCBIndexAsPrinted(PrivateIndex):
    r"""Eq. (8) as its extraction prints it, the reading the book does not take: KL-UCB on the private mean
    :math:`\mathrm{Clip}_{0,1}(\tilde\mu)` itself, :math:`\max\{q\in[0,1] : d(\tilde\mu, q) \le \alpha\log
    t_\ell / m\}`. Eq. (8) writes :math:`d(\tilde\mu^\ell_{a,\epsilon}, q)`, and the sentence after it defines the
    shifted :math:`\tilde\mu^{\ell,\alpha}_{a,\epsilon}` that :class:`KLUCBIndex` uses. Used only to show how much
    the verdicts on Figure 3 depend on that choice (``chapters/azize2022/figure3``); not a registered policy."""

    name = "KLUCB-as-printed"

    def __call__(self, mu_tilde, m, t_l, epsilon, alpha):
        return _klucb_each(mu_tilde, alpha * math.log(t_l) / m)


def _klucb_each(means, levels) -> np.ndarray:
    """KL-UCB per arm, as both readings of eq. (8) compute it: the largest q with d(Clip_{0,1}(mean), q) <= level."""
    clipped = np.clip(means, 0.0, 1.0)
    return np.array([klucb_bernoulli_scalar(float(p), float(c)) for p, c in zip(clipped, levels)])
