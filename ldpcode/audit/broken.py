r"""Deliberately broken curators, for audits that must fail (or, for one, must not).

:class:`HalfScaleCTL` (Laplace noise of half the scale Curator 1 needs: 2ε-LDP), :class:`UnclippedCTB`
(Curator 3's formula applied outside [0, 1]) and :class:`LeakyCTL` (passes out-of-range input through) break
the privacy of Lemmas 2 and 5 of Ren et al. (2020), and :func:`~ldpcode.audit.curators.curator_audit` refutes
them; :class:`SwappedCTB` keeps ε-LDP but breaks Lemma 5's mean, which only
:func:`~ldpcode.audit.curators.output_mean_audit` catches. :func:`broken_curator` makes them by name.
"""

from __future__ import annotations

import math

import numpy as np

from .. import mechanisms as _mech
from .curators import _ctb_exact, _ctb_rows
from .ratios import _finite, privacy_loss_matrix


class HalfScaleCTL(_mech.CTL):
    """A deliberately BROKEN CTL: Laplace noise of scale 1/(2ε) instead of 1/ε. It claims ε and is 2ε-LDP
    on [0, 1] (exact loss 2ε between 0 and 1)."""

    name = "CTL (half scale)"

    @property
    def laplace_scale(self) -> float:
        return 0.5 / self.epsilon


class SwappedCTB(_mech.CTB):
    """CTB with its two probabilities swapped: answers 1 with probability :math:`1 - p(r)`. The output is
    CTB's with 0 and 1 exchanged, a relabelling, so it is still exactly ε-LDP: a privacy audit cannot and
    should not refute it. What is broken is its utility: its mean is :math:`1 - \\mu_{a,\\epsilon}`, not
    Lemma 5's :math:`\\mu_{a,\\epsilon}` (which it inherits as ``output_mean``), and an agent that unbiases
    its responses learns the wrong arm. :func:`output_mean_audit` catches it."""

    name = "CTB (swapped)"

    def privatize(self, rewards, rng: np.random.Generator) -> np.ndarray:
        return 1.0 - super().privatize(rewards, rng)

    def probability_one(self, r):
        return 1.0 - super().probability_one(r)

    def exact_loss(self, inputs) -> float:
        return _ctb_exact(np.asarray(inputs, dtype=float), self.epsilon)  # a relabelling: the same loss as CTB


class UnclippedCTB(_mech.CTB):
    """A deliberately BROKEN CTB: it accepts any real reward and applies Curator 3's formula
    :math:`p(r) = (re^\\epsilon + 1 - r)/(1 + e^\\epsilon)` without checking or clipping r to [0, 1]. Outside
    [0, 1], p(r) leaves :math:`[1/(1+e^\\epsilon), e^\\epsilon/(1+e^\\epsilon)]`: the log-ratio of its answers
    exceeds ε, and it is infinite once p(r) reaches 0 or 1 (the answer is then certain; ``random() < p``
    compares with the unclipped p, so p > 1 means always 1 and p < 0 never)."""

    name = "CTB (unclipped)"
    bounded = False

    def probability_one(self, r):
        r = _finite("r", r)
        return np.clip(_mech.ctb_probability(r, self.exp_eps), 0.0, 1.0)

    def privatize(self, rewards, rng: np.random.Generator) -> np.ndarray:
        r = _finite("rewards", rewards)
        return (rng.random(r.shape) < _mech.ctb_probability(r, self.exp_eps)).astype(float)

    def exact_loss(self, inputs) -> float:
        x = np.asarray(inputs, dtype=float)
        if self.epsilon > 700.0:  # e^eps near overflow: CTB's loss inside [0, 1]; outside, p(r) leaves [0, 1]
            inside = (x >= 0) & (x <= 1)
            return _ctb_exact(x, self.epsilon) if inside.all() else math.inf
        e = self.exp_eps
        p1 = np.clip((x * e + 1.0 - x) / (1.0 + e), 0.0, 1.0)
        p0 = np.clip(((1.0 - x) * e + x) / (1.0 + e), 0.0, 1.0)
        return float(privacy_loss_matrix(_ctb_rows(p1, p0)).max())


class LeakyCTL(_mech.CTL):
    """A deliberately BROKEN CTL: inside [0, 1] it is Curator 1, outside it returns the raw value (the bug of
    a curator that "passes through" what it was not designed for, instead of refusing it). An out-of-range
    input is then identified exactly by its output: infinite privacy loss."""

    name = "CTL (leaky)"
    bounded = False

    def privatize(self, rewards, rng: np.random.Generator) -> np.ndarray:
        r = _finite("rewards", rewards)
        inside = (r >= 0) & (r <= 1)
        out = r.copy()
        noisy = r + rng.laplace(0.0, 1.0, r.shape) * self.laplace_scale
        out[inside] = noisy[inside]
        return out

    def exact_loss(self, inputs) -> float:
        x = np.asarray(inputs, dtype=float)
        if ((x < 0) | (x > 1)).any():
            return math.inf
        return float((x.max() - x.min()) / self.laplace_scale)


BROKEN_CURATOR_FLAWS = {"half-scale": HalfScaleCTL, "swapped": SwappedCTB, "unclipped": UnclippedCTB, "leaky": LeakyCTL}


def broken_curator(flaw: str, epsilon):
    """A deliberately broken curator claiming ``epsilon``: ``"half-scale"`` (:class:`HalfScaleCTL`, 2ε-LDP),
    ``"swapped"`` (:class:`SwappedCTB`, still ε-LDP but with a wrong mean), ``"unclipped"``
    (:class:`UnclippedCTB`) or ``"leaky"`` (:class:`LeakyCTL`), the last two leaking on out-of-range input."""
    from .._validate import check_choice

    return BROKEN_CURATOR_FLAWS[check_choice("flaw", flaw, BROKEN_CURATOR_FLAWS)](epsilon)
