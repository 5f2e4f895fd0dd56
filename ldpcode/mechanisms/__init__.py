r"""The privacy mechanisms of the four papers, one family (:class:`LocalMechanism`) with a common interface.

=========================================  ============================================================================
room                                       contents
=========================================  ============================================================================
:mod:`~ldpcode.mechanisms.curators`        the curators CTL, CTB, CTL-S, CTB-S of Ren et al. (2020) (Curators 1, 3,
                                           5, 6; Lemmas 2, 5, 8, 9), the compiled :func:`respond` the engines call,
                                           Lemma 5's :func:`ctb_output_mean`, :func:`unbias`, CTB's exact loss
                                           :func:`ctb_privacy_loss`, Lemma 3's :func:`laplace_sum_sf`
:mod:`~ldpcode.mechanisms.gaussian`        the Gaussian and Laplace mechanisms of Zheng et al. (2020) (Dwork and Roth
                                           2014, Theorems A.1, 3.6) and the Gaussian mechanism's exact privacy curve
                                           (Balle and Wang 2018, Theorem 8)
:mod:`~ldpcode.mechanisms.global_dp`       global DP (Azize and Basu 2022): Lemma 1's :func:`laplace_mean`, the tree
                                           mechanism
:mod:`~ldpcode.mechanisms.family`          :class:`LocalMechanism` (``privatize``, ``output_mean``, ``output_law``,
                                           ``privacy_loss``, ``exact_epsilon``) and :data:`MECHANISM_FAMILY`
=========================================  ============================================================================

Every name is importable from ``ldpcode.mechanisms`` itself, as before the rooms existed.
"""

from __future__ import annotations

from .curators import (
    CTB,
    CTBS,
    CTL,
    CTLS,
    CURATORS,
    GAUSS_HERMITE_MAX_ORDER,
    LAPLACE_SUM_MAX_N,
    Curator,
    Mechanism,
    bernoulli_scale,
    ctb_output_mean,
    ctb_privacy_loss,
    ctb_probability,
    discrete_sigmoid_mean,
    draw_noise,
    exp_or_inf,
    gaussian_sigmoid_mean,
    laplace_sum_sf,
    make_curator,
    respond,
    sigmoid,
    unbias,
    unbias_scaled,
)
from .family import MECHANISM_FAMILY, LocalMechanism
from .gaussian import (
    GaussianMechanism,
    LaplaceMechanism,
    gaussian_epsilon_at_delta,
    gaussian_exact_delta,
    gaussian_loss_tail,
    gaussian_privacy_loss,
)
from .global_dp import laplace_mean, tree_depth, tree_push

__all__ = [
    "CTB",
    "CTBS",
    "CTL",
    "CTLS",
    "CURATORS",
    "GAUSS_HERMITE_MAX_ORDER",
    "LAPLACE_SUM_MAX_N",
    "MECHANISM_FAMILY",
    "Curator",
    "GaussianMechanism",
    "LaplaceMechanism",
    "LocalMechanism",
    "Mechanism",
    "bernoulli_scale",
    "ctb_output_mean",
    "ctb_privacy_loss",
    "ctb_probability",
    "discrete_sigmoid_mean",
    "draw_noise",
    "exp_or_inf",
    "gaussian_epsilon_at_delta",
    "gaussian_exact_delta",
    "gaussian_loss_tail",
    "gaussian_privacy_loss",
    "gaussian_sigmoid_mean",
    "laplace_mean",
    "laplace_sum_sf",
    "make_curator",
    "respond",
    "sigmoid",
    "tree_depth",
    "tree_push",
    "unbias",
    "unbias_scaled",
]
