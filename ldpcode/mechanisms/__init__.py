r"""The privacy mechanisms of the four papers, one family (:class:`LocalMechanism`) with a common interface.

=========================================  ============================================================================
room                                       contents
=========================================  ============================================================================
:mod:`~ldpcode.mechanisms.curators`        the curators CTL, CTB, CTL-S, CTB-S of Ren et al. (2020) (Curators 1, 3,
                                           5, 6; Lemmas 2, 5, 8, 9), the compiled ``respond`` the engines call,
                                           Lemma 5's :func:`ctb_output_mean`, the map g (``CTB.unbias``), CTB's
                                           exact loss :func:`ctb_privacy_loss`, Lemma 3's :func:`laplace_sum_sf`
:mod:`~ldpcode.mechanisms.gaussian`        the Gaussian and Laplace mechanisms of Zheng et al. (2020) (Dwork and Roth
                                           2014, Theorems A.1, 3.6) and the Gaussian mechanism's exact privacy curve
                                           (Balle and Wang 2018, Theorem 8)
:mod:`~ldpcode.mechanisms.global_dp`       global DP (Azize and Basu 2022): Lemma 1's ``laplace_mean``, the tree
                                           mechanism
:mod:`~ldpcode.mechanisms.family`          :class:`LocalMechanism` (``privatize``, ``output_mean``, ``output_law``,
                                           ``privacy_loss``, ``exact_epsilon``) and :data:`MECHANISM_FAMILY`
=========================================  ============================================================================

Every name is importable from ``ldpcode.mechanisms`` itself, as before the rooms existed. The compiled kernels of the
engines (``respond``, ``draw_noise``, ``ctb_probability``, ``bernoulli_scale``, ``unbias``, ``unbias_scaled``,
``laplace_mean``) are importable too, for the engines, but check nothing and are not in ``__all__``: their checked,
public doors are the curators' methods (``privatize``, ``draw_noise``, ``probability_one``, ``unbias``) and
:func:`ldpcode.audit.lemma1_release`.
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
    ctb_output_mean,
    ctb_privacy_loss,
    discrete_sigmoid_mean,
    exp_or_inf,
    gaussian_sigmoid_mean,
    laplace_sum_sf,
    make_curator,
    sigmoid,
)

# the compiled kernels the engines call (``mech.respond`` ...): importable, unchecked, not in __all__
from .curators import bernoulli_scale, ctb_probability, draw_noise, respond, unbias, unbias_scaled  # noqa: F401
from .family import MECHANISM_FAMILY, LocalMechanism
from .gaussian import (
    GaussianMechanism,
    LaplaceMechanism,
    gaussian_epsilon_at_delta,
    gaussian_exact_delta,
    gaussian_loss_tail,
    gaussian_privacy_loss,
)
from .global_dp import laplace_mean  # noqa: F401 (an internal kernel, not in __all__)
from .global_dp import tree_depth, tree_push

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
    "ctb_output_mean",
    "ctb_privacy_loss",
    "discrete_sigmoid_mean",
    "exp_or_inf",
    "gaussian_epsilon_at_delta",
    "gaussian_exact_delta",
    "gaussian_loss_tail",
    "gaussian_privacy_loss",
    "gaussian_sigmoid_mean",
    "laplace_sum_sf",
    "make_curator",
    "sigmoid",
    "tree_depth",
    "tree_push",
]
