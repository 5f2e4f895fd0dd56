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

    def saturation_epsilon(self, n_arms: int, horizon: int, alpha: float, first_mean: float = 0.0) -> float:
        """The ε at or below which every decision of a run is a tie of the indexes, which ``np.argmax`` gives to arm 0
        (of mean ``first_mean``); 0 for an index that never saturates (the default)."""
        return 0.0


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
    and d the Bernoulli KL divergence.

    **Saturation at small ε.** An arm whose clipped mean is 1 has index exactly 1. If every index is 1,
    ``np.argmax`` takes arm 0, which then plays episodes of 1, 1, 2, 4, ... pulls: after the K initial pulls,
    decision i (i = 0, 1, ...) is at :math:`t_\ell = K + 2^i`, with arm 0's last episode of length
    :math:`m = \max(1, 2^{i-1})` and every other arm's of length 1. With private means equal to the true ones
    (:math:`\mu_0` for arm 0, the worst case 0 for a single reward of another arm), every index is 1 at every
    decision of a run of horizon T when

    .. math::
       \epsilon \le \epsilon_{\mathrm{sat}}(K, T, \alpha, \mu_0) = \min\Big\{&\alpha\log(K+1),\\
       &\min_{i \ge 0,\ K + 2^i \le T} \frac{\alpha\log(K + 2^i)}{\max(1, 2^{i-1})\,(1 - \mu_0)}\Big\}

    (:meth:`saturation_epsilon`; the inner minimum is at the last decision, except at the shortest horizons). The
    run then plays arm 0 throughout, and its regret (0 if arm 0 is best, :math:`\Delta_0 (T - K) + \sum_a \Delta_a`
    otherwise) reflects the order of the arms, not the index. At :math:`T = 10^6`, K = 2, α = 3.1 it is
    :math:`1.56\cdot 10^{-4}/(1 - \mu_0)`. The threshold is sharp in the model, and the noise of the private
    means (the Laplace draw, scale :math:`1/(\epsilon m)`, against the term :math:`\alpha\log t_\ell/(\epsilon
    m)`, and the mean reward of arm 0's episode) blurs it only near equality: measured on two Bernoulli arms at
    :math:`T = 10^5` (arm 0 of mean 0.5 or 0.1, the other 0.9, 100 runs), 95 of 100 runs played arm 0 throughout at 0.9
    times the threshold, about half at 1 time, 1 at 1.1 times (66 % of that regret: the last episode of arm 0 is
    then the other arm's). Above it the tie-break still orders the exploration of the saturated arms, without a
    warning. :class:`~ldpcode.global_policies.episodes.AdaptiveEpisodes` warns
    (:class:`~ldpcode.global_policies.episodes.TieBreakWarning`, once a call, in run 0) at or below the threshold."""

    name = "KLUCB"

    def __call__(self, mu_tilde, m, t_l, epsilon, alpha):
        a = alpha * math.log(t_l)
        return _klucb_each(mu_tilde + a / (epsilon * m), a / m)

    def saturation_epsilon(self, n_arms: int, horizon: int, alpha: float, first_mean: float = 0.0) -> float:
        r""":math:`\epsilon_{\mathrm{sat}}(K, T, \alpha, \mu_0)` of the class docstring (``first_mean`` is arm 0's
        mean :math:`\mu_0`; the default 0 gives the level at which every index is 1 whatever the rewards): at or below
        it, every index is 1 at every decision of a run of ``horizon`` pulls on ``n_arms`` arms. 0 with one arm or no
        decision (T <= K), where no tie is broken."""
        if n_arms < 2 or horizon <= n_arms:
            return 0.0
        out = alpha * math.log(n_arms + 1)  # the other arms, each at one reward (at worst 0)
        if first_mean >= 1:
            return out  # arm 0's clipped mean is 1 whatever epsilon
        i = 0
        while n_arms + 2**i <= horizon:
            out = min(out, alpha * math.log(n_arms + 2**i) / ((2 ** (i - 1) if i else 1) * (1.0 - first_mean)))
            i += 1
        return out


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
