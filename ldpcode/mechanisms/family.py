r"""The local mechanisms as one family: what every mechanism of the book answers, and the list of its members.

=====================  =================================================================================
method                 what it answers
=====================  =================================================================================
``privatize(x, rng)``  what the user sends for input(s) ``x`` (one independent draw per entry)
``output_mean(mu)``    the mean of the output on an input of mean ``mu`` (Lemma 5 for CTB; the identity
                       for the additive-noise mechanisms; on a Gaussian arm N(mu, 1) for CTL-S and CTB-S)
``output_law(x)``      the output's law for input ``x``, a frozen ``scipy.stats`` distribution
``privacy_loss(...)``  the exact privacy loss over given inputs (for the Gaussian mechanism: the exact ε at a
                       δ, Balle and Wang 2018, Theorem 8)
``exact_epsilon()``    the exact worst-case loss over the whole domain (ε for the pure-ε members)
=====================  =================================================================================

CTB and CTB-S also have ``unbias`` (the map g of Ren et al., extended version, Section 3.2), the Gaussian
mechanism ``exact_delta`` (its exact δ(ε) curve), the additive-noise mechanisms ``noise_variance``.

:data:`MECHANISM_FAMILY` lists the members by name. The methods are those of the existing classes (the
curators of :mod:`ldpcode.mechanisms.curators`, the mechanisms of :mod:`ldpcode.mechanisms.gaussian`): there is
one object per mechanism, the one the simulations use. The audits (:func:`ldpcode.audit.exact_curator_loss`)
and the Zheng et al. modules call these methods rather than their own copies of the formulas.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from .curators import CTB, CTBS, CTL, CTLS
from .gaussian import GaussianMechanism, LaplaceMechanism


@runtime_checkable
class LocalMechanism(Protocol):
    """The interface every local mechanism of the book has (see the module docstring). A structural type:
    ``isinstance(m, LocalMechanism)`` checks that ``m`` has these members."""

    epsilon: float

    def privatize(self, values, rng):
        """What the user sends for ``values``: one independent private output per entry."""

    def output_mean(self, mu):
        """The mean output on an input of mean ``mu``."""

    def output_law(self, x):
        """The law of the output on input ``x`` (a frozen ``scipy.stats`` distribution)."""

    def privacy_loss(self, inputs=None):
        """The exact privacy loss over ``inputs`` (default: the worst pair of the domain)."""

    def exact_epsilon(self):
        """The exact worst-case privacy loss over the whole domain."""


MECHANISM_FAMILY = {
    "CTL": CTL,
    "CTB": CTB,
    "CTL-S": CTLS,
    "CTB-S": CTBS,
    "Laplace": LaplaceMechanism,
    "Gaussian": GaussianMechanism,
}
"""The members of the family by name: Curators 1, 3, 5, 6 of Ren et al. (2020), the Laplace mechanism and the
Gaussian mechanism (Dwork and Roth 2014, Theorems 3.6 and A.1; the curators of Zheng et al. 2020)."""
