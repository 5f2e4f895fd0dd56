r"""The Laplace mechanism on a vector, as Theorem 1 of Azize and Basu (2022) states it (Theorem 3.6 of Dwork
and Roth 2014): its exact privacy loss, computed two ways, and a black-box audit of a d-dimensional release.

Theorem 1: for :math:`f:\mathcal X\to\mathbb R^d` of L1 sensitivity :math:`s(f)` and i.i.d. noises
:math:`N_i \sim \mathrm{Lap}(b)`, :math:`b = s(f)/\epsilon`, the release :math:`f(\mathcal D) + (N_1,\dots,N_d)`
is ε-DP. Its density at x under :math:`\mathcal D` is :math:`\prod_i e^{-|x_i - f_i|/b}/(2b)`, so the log density
ratio of two inputs is

.. math:: L(x) = \log\frac{p_f(x)}{p_{f'}(x)} = \sum_{i=1}^d \frac{|x_i - f'_i| - |x_i - f_i|}{b},

at most :math:`\|f - f'\|_1/b \le s(f)/b = \epsilon` by the triangle inequality, with equality on the orthant
where every :math:`x_i` lies beyond :math:`f_i` on the side away from :math:`f'_i` (an event of probability
:math:`2^{-m}` under :math:`\mathcal D`, m the number of coordinates that differ).

* :func:`laplace_log_density_ratio`: L(x) (the privacy loss random variable when x is a release under f);
* :func:`laplace_privacy_loss`: the closed form :math:`\sup_x |L(x)| = \|f - f'\|_1/b`;
* :func:`laplace_privacy_loss_grid`: the same supremum found numerically, coordinate by coordinate on a grid;
* :func:`laplace_mechanism_audit`: samples of releases under two inputs, binned on the value of L, with
  simultaneous confidence bounds (:func:`~ldpcode.audit.ratios.binned_log_ratio`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validate import check_finite_array, check_int, check_probability, check_real
from ..limits import Limits
from .ratios import _UNLIMITED, BinnedLogRatio, _binned_cost, _check_cost, _check_rng, binned_log_ratio

ATOM_RTOL = 1e-9  # the atoms of L at +-||f - f'||_1 / b are found up to this relative rounding


def _check_pair(f, f_prime, scale):
    a = np.atleast_1d(check_finite_array("f", f)).astype(float)
    b = np.atleast_1d(check_finite_array("f_prime", f_prime)).astype(float)
    if a.ndim != 1 or a.shape != b.shape or a.size == 0:  # d = 0 gave a loss of 0.0
        raise ValueError(f"f and f_prime must be vectors of one length d >= 1, got shapes {a.shape} and {b.shape}")
    s = check_real("scale", scale)
    if not s > 0:
        raise ValueError(f"scale must be a finite number > 0 (the Laplace scale b), got {scale!r}")
    return a, b, s


def laplace_log_density_ratio(x, f, f_prime, scale) -> np.ndarray:
    r""":math:`L(x) = \sum_i (|x_i - f'_i| - |x_i - f_i|)/b`, the log of the ratio of the densities of the
    Laplace mechanism's release at x under the inputs with values f and f' (Theorem 1 of Azize and Basu 2022).
    ``x`` has shape (..., d); returns shape (...)."""
    a, b, s = _check_pair(f, f_prime, scale)
    x = check_finite_array("x", x)
    if x.shape[-1:] != a.shape:
        raise ValueError(f"x must have last dimension d = {a.size}, got shape {x.shape}")
    return np.sum(np.abs(x - b) - np.abs(x - a), axis=-1) / s


def laplace_privacy_loss(f, f_prime, scale) -> float:
    r"""The exact privacy loss of the Laplace mechanism between two inputs, in closed form:
    :math:`\sup_x |L(x)| = \|f - f'\|_1/b` (the triangle inequality, attained on an orthant). With
    :math:`\|f - f'\|_1 = s(f)` and :math:`b = s(f)/\epsilon` it is ε: Theorem 1 is tight."""
    a, b, s = _check_pair(f, f_prime, scale)
    return float(np.sum(np.abs(a - b)) / s)


def laplace_privacy_loss_grid(f, f_prime, scale, points: int = 2001, *, limits: Limits | None = None) -> float:
    r"""The same supremum as :func:`laplace_privacy_loss`, found numerically: L is a sum of one term per
    coordinate, each depending on :math:`x_i` only, so :math:`\sup_x L = \sum_i \sup_{x_i} \ell_i(x_i)` and
    :math:`\inf_x L = \sum_i \inf_{x_i}\ell_i(x_i)`; each one-dimensional term is evaluated on ``points``
    equally spaced values spanning :math:`[\min(f_i, f'_i) - 3b, \max(f_i, f'_i) + 3b]` (its extremes are
    reached outside the two locations, which the grid covers). Returns :math:`\max(\sup L, -\inf L)`.
    ``limits`` caps the estimated cost (30 µs + 20 ns a point and coordinate), checked before any grid is made."""
    a, b, s = _check_pair(f, f_prime, scale)
    n = check_int("points", points, minimum=3)
    work = f"points={n} on each of d={a.size} coordinates"
    _check_cost("laplace_privacy_loss_grid", work, a.size * (30e-6 + 20e-9 * n), 48.0 * n, limits, "points")
    hi_sum = lo_sum = 0.0
    for fi, gi in zip(a, b):
        grid = np.linspace(min(fi, gi) - 3 * s, max(fi, gi) + 3 * s, n)
        term = (np.abs(grid - gi) - np.abs(grid - fi)) / s
        hi_sum += float(term.max())
        lo_sum += float(term.min())
    return max(hi_sum, -lo_sum)


def laplace_release(f, scale, size: int, rng, *, limits: Limits | None = None) -> np.ndarray:
    r"""``size`` releases :math:`f + (N_1, \dots, N_d)`, :math:`N_i \sim \mathrm{Lap}(b)` i.i.d. (Theorem 1),
    shape (size, d); ``limits`` caps the estimated cost (40 ns and 24 bytes a value), checked before any draw."""
    a = np.atleast_1d(check_finite_array("f", f)).astype(float)
    if a.ndim != 1 or a.size == 0:  # a table failed in NumPy's broadcasting, [] gave releases of no value
        raise ValueError(f"f must be a number or a vector of d >= 1 numbers, got shape {a.shape}")
    s = check_real("scale", scale)
    if not s > 0:
        raise ValueError(f"scale must be a finite number > 0, got {scale!r}")
    n = check_int("size", size, minimum=1)
    _check_cost(
        "laplace_release",
        f"size={n} releases of d={a.size} values",
        40e-9 * n * a.size,
        24.0 * n * a.size,
        limits,
        "size",
    )
    return a + _check_rng(rng).laplace(0.0, s, (n, a.size))


def atom_edges(loss: float, bins: int, *, limits: Limits | None = None) -> np.ndarray:
    r"""Bin edges for the law of a Laplace privacy loss random variable L with atoms at :math:`\pm` ``loss``:
    the half-lines :math:`(-\infty, -\text{loss}]` and :math:`[\text{loss}, \infty)` (up to a relative rounding
    of :data:`ATOM_RTOL`) and ``bins`` equal bins between them (an integer >= 1; 24 bytes a bin, ``limits``)."""
    loss = check_real("loss", loss)
    if not loss > 0:  # a negative loss gave decreasing edges, 0 edges all equal
        raise ValueError(f"loss must be a finite number > 0 (L's atoms are at -loss and +loss), got {loss!r}")
    bins = check_int("bins", bins, minimum=1)
    _check_cost("atom_edges", f"bins={bins} edges", 1e-5 + 5e-9 * bins, 24.0 * bins, limits, "bins")
    edge = loss * (1 - ATOM_RTOL)
    return np.concatenate([[-math.inf], np.linspace(-edge, edge, int(bins) + 1), [math.inf]])


@dataclass(frozen=True)
class LaplaceAudit:
    """What :func:`laplace_mechanism_audit` returns: the ``claimed`` ε, the Laplace ``scale`` actually used, the
    ``exact`` loss (:func:`laplace_privacy_loss`), ``binned`` (the binned log-ratio of the law of L under the two
    inputs, bin 0 and the last bin being the atoms of L at -exact and +exact), and ``refuted`` when the
    lower confidence bound ``binned.max_lower`` exceeds the claim."""

    claimed: float
    scale: float
    exact: float
    samples: int
    binned: BinnedLogRatio

    @property
    def refuted(self) -> bool:
        return bool(self.binned.max_lower > self.claimed)


def laplace_mechanism_audit(
    f, f_prime, scale, samples: int, rng, *, claimed, bins: int = 10, alpha: float = 0.05, limits: Limits | None = None
) -> LaplaceAudit:
    r"""A black-box audit of the d-dimensional Laplace mechanism of Theorem 1 (Azize and Basu 2022).

    Draws ``samples`` releases under f and under f' (:func:`laplace_release` at ``scale``), reduces each to
    the scalar :math:`L(x)` (:func:`laplace_log_density_ratio`; a post-processing of the release, so every
    event of L is an event of the release and the bound below is a valid lower bound on the release's privacy
    loss), and bins L: the two half-lines at and beyond :math:`\pm\|f - f'\|_1/b` (up to a relative rounding
    of :data:`ATOM_RTOL`; L has atoms there, of probability :math:`2^{-m}` and :math:`2^{-m}e^{\mp\text{loss}}`)
    and ``bins`` equal bins between them. :func:`~ldpcode.audit.ratios.binned_log_ratio` gives simultaneous
    (1 - ``alpha``) confidence bounds and a lower confidence bound on the loss; the audit refutes the
    ``claimed`` ε when that bound exceeds it. The scale is an argument so that a mis-calibrated mechanism
    (half the scale the theorem asks for) can be audited against the ε it claims. ``limits`` caps the estimated
    cost (150 ns and 48 bytes a value, then the binning), checked before any release is drawn.
    """
    a, b, s = _check_pair(f, f_prime, scale)
    eps = check_real("claimed", claimed)
    if eps < 0:
        raise ValueError(f"claimed must be >= 0 (the epsilon the mechanism claims), got {claimed!r}")
    n = check_int("samples", samples, minimum=100)
    k = check_int("bins", bins, minimum=1)
    alpha = check_probability("alpha", alpha)
    exact = laplace_privacy_loss(a, b, s)
    if exact == 0:
        raise ValueError("f and f_prime are equal: their releases have the same law and nothing is audited")
    rng = _check_rng(rng)
    seconds, nbytes = _binned_cost(n, n, k + 2)
    seconds, nbytes = seconds + 300e-9 * n * a.size, nbytes + n * (48.0 * a.size + 64)
    _check_cost(
        "laplace_mechanism_audit", f"samples={n} releases of d={a.size} values", seconds, nbytes, limits, "samples"
    )
    la = laplace_log_density_ratio(laplace_release(a, s, n, rng, limits=_UNLIMITED), a, b, s)
    lb = laplace_log_density_ratio(laplace_release(b, s, n, rng, limits=_UNLIMITED), a, b, s)
    edges = atom_edges(exact, k, limits=_UNLIMITED)
    return LaplaceAudit(eps, s, exact, n, binned_log_ratio(la, lb, edges, alpha=alpha, limits=_UNLIMITED))
