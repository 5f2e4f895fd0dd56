r"""Lemma 7 of Ren et al. (2020): the constant :math:`c_s` of the sigmoid-of-noise curators.

Lemma 7 bounds :math:`\mathbb{E}[s(\lambda+Z)-s(\mu+Z)] \ge c_s(\lambda-\mu)` for the sigmoid s and a noise Z;
its constant enters Corollaries 10 and 11 (LDP-UCB-LS, LDP-UCB-BS, through the ``c_s`` argument of
:func:`~ldpcode.bounds.ren2020.ldp_ucb_l_regret_bound` and :func:`~ldpcode.bounds.ren2020.ldp_ucb_b_regret_bound`).

=====================================  ===========================================================
function                               statement
=====================================  ===========================================================
:func:`c_s_subgaussian`                Lemma 7's constant, :math:`0.0765/e` (from :func:`lemma7_subgaussian_sup`)
:func:`c_s_gaussian`                   Lemma 7's constant for Gaussian noise, :math:`0.2066/e` (:func:`lemma7_gaussian_integral`)
:func:`lemma7_worst_noise`             the best constant Lemma 7 could state over all variance-one noises (an LP)
:func:`lemma7_chebyshev_constant`      a constant for Lemma 7 from Chebyshev's inequality alone
=====================================  ===========================================================
"""

from __future__ import annotations

import math

import numpy as np
from scipy import integrate, optimize

from .._validate import check_real


def _v(a):
    r"""Lemma 7's :math:`v_a`: the positive root of :math:`e^{-x}/(1+e^{-x})^2 = a`, for a in (0, 1/4); below
    a = 1e-100 (where 1/(4a²) overflows) :math:`-\log a`, since :math:`e^{v_a} = 1/a - 2 - O(a)`."""
    if a < 1e-100:
        return -math.log(a)
    return math.log(1 / (2 * a) - 1 + math.sqrt(1 / (4 * a * a) - 1 / a))


def lemma7_subgaussian_objective(a):
    r""":math:`a(1 - 2e^{-v_a^2/2})`, the quantity Lemma 7 maximizes over :math:`a \in (0, 1/4)`; ``a`` a number in
    that open interval (at 1/4 it returned -0.25, at 0.5 a math domain error, at 0 a ZeroDivisionError)."""
    x = check_real("a", a)
    if not 0.0 < x < 0.25:
        raise ValueError(f"a must be in (0, 1/4), the domain of Lemma 7's v_a, got {x!r}")
    return a * (1 - 2 * math.exp(-(_v(a) ** 2) / 2))


def lemma7_subgaussian_sup() -> tuple[float, float]:
    """(argmax a, max value) of :func:`lemma7_subgaussian_objective` (the paper: a = 0.107, 0.0765)."""
    res = optimize.minimize_scalar(
        lambda a: -lemma7_subgaussian_objective(a),
        bounds=(1e-6, 0.25 - 1e-9),
        method="bounded",
        options={"xatol": 1e-12},
    )
    return float(res.x), float(-res.fun)


def lemma7_gaussian_integral() -> float:
    r""":math:`E[e^{-Z}/(1+e^{-Z})^2]` for :math:`Z\sim N(0,1)` (the paper: 0.2066)."""
    # e^{-x}/(1+e^{-x})^2 = 1/(4 cosh^2(x/2)), which cannot overflow; the Gaussian tail past 40 is < 1e-300.
    f = lambda x: math.exp(-x * x / 2) / (4 * math.cosh(x / 2) ** 2 * math.sqrt(2 * math.pi))
    return float(integrate.quad(f, -40.0, 40.0, epsabs=1e-14, epsrel=1e-12, limit=200)[0])


_SQRT_MAX = 1.3e154  # a round number below sqrt(1.8e308) = 1.34e154, so that z_max^2 is a double

LEMMA7_MAX_GRID = 2 * 10**5 + 1
"""The most support points :func:`lemma7_worst_noise` takes (10**5 a side of 0, as the notebook's rule
``lp_z_max / lp_step <= 10**5``): its linear program's time grows faster than the grid (0.08 s at the default 2,401
points, 15 s at 100,001), and step=1e-5 (2.4 million points) ran out of memory, 1e-6 had the process killed."""


def lemma7_worst_noise(t, *, variance: float = 1.0, z_max: float = 12.0, step: float = 0.01):
    r"""The smallest :math:`\mathbb{E}[s'(t + Z)]` over noise laws Z with mean 0 and variance ``variance``.

    Why it matters for Lemma 7: :math:`\mathbb{E}[s(\lambda+Z)-s(\mu+Z)] = \int_\mu^\lambda \mathbb{E}[s'(t+Z)]\,dt`,
    so the smallest gap ratio :math:`\mathbb{E}[s(X)-s(Y)]/(\lambda-\mu)` over :math:`0\le\mu<\lambda\le1`
    and over a class of noises is :math:`\min_{t\in[0,1]}\inf_Z \mathbb{E}[s'(t+Z)]`: the best constant
    :math:`c_s` the lemma could state for that class. Here
    :math:`s'(x) = e^{-x}/(1+e^{-x})^2`.

    Computed as a linear program over the laws supported on the grid
    :math:`\{-z_{\max}, -z_{\max}+\text{step}, \dots, z_{\max}\}` (an optimum has at most three atoms,
    one per moment constraint). Every such law is bounded, hence sub-Gaussian, so the value is an upper
    bound on the infimum over sub-Gaussian noises with that variance, and tight up to the grid (refining
    the step from 0.01 to 0.002 moves it by about 1e-6). The grid holds at most :data:`LEMMA7_MAX_GRID` points, and
    ``z_max`` is at most 1.3e154, so that its square is a double.

    Returns ``(value, atoms, probs)``: the minimum and the minimizing law (atoms with mass > 1e-9).
    """
    from scipy.optimize import linprog

    t = check_real("t", t)
    var = check_real("variance", variance)
    z_max = check_real("z_max", z_max)
    step = check_real("step", step)
    if var <= 0:
        raise ValueError(f"variance must be > 0, got {variance!r}")
    if not 0 < step < z_max or z_max * z_max <= var:
        raise ValueError(f"need 0 < step < z_max and z_max^2 > variance, got step={step!r}, z_max={z_max!r}")
    if z_max > _SQRT_MAX:  # the program's second moments z^2 overflowed: linprog's "A_eq must not contain inf"
        raise ValueError(
            f"z_max must be <= {_SQRT_MAX:.3g} (the grid's second moments z^2 must be doubles; the law's scale is "
            f"sqrt(variance): rescale), got {z_max!r}"
        )
    points = 2 * z_max / step  # a float: inf for step=1e-300 (int(round(inf)) raised OverflowError)
    if not (math.isfinite(points) and round(points) + 1 <= LEMMA7_MAX_GRID):
        shown = (
            f"{round(points) + 1:,}" if points < 1e15 else f"{points:.3g}" if math.isfinite(points) else "over 1e308"
        )
        raise ValueError(
            f"step must be >= z_max / {(LEMMA7_MAX_GRID - 1) // 2:,} (LEMMA7_MAX_GRID: at most {LEMMA7_MAX_GRID:,} "
            f"grid points; the linear program's time grows faster than the grid), got step={step!r} with "
            f"z_max={z_max!r}, a grid of {shown} points"
        )
    z = np.linspace(-z_max, z_max, int(round(2 * z_max / step)) + 1)
    cost = 0.25 / np.cosh((t + z) / 2) ** 2  # s'(x) = 1/(4 cosh^2(x/2))
    res = linprog(
        cost, A_eq=np.vstack([np.ones_like(z), z, z * z]), b_eq=[1.0, 0.0, var], bounds=(0, None), method="highs"
    )
    if res.status != 0:
        raise RuntimeError(f"linear program failed: {res.message}")
    keep = res.x > 1e-9
    return float(res.fun), z[keep], res.x[keep] / res.x[keep].sum()


def lemma7_chebyshev_constant() -> tuple[float, float]:
    r"""A constant for Lemma 7 from Chebyshev's inequality alone (no sub-Gaussian tail; a remark of this book).

    For :math:`t\in[0,1]` and :math:`|z|\le c`, :math:`s'(t+z) \ge s'(1+c)`; and
    :math:`P\{|Z|\le c\} \ge 1 - 1/c^2` for any Z with mean 0 and variance at most 1. So
    :math:`\mathbb{E}[s(X)-s(Y)]/(\lambda-\mu) \ge \max_{c>1} (1-1/c^2)\, s'(1+c)`. Returns (argmax c, value).
    """
    f = lambda c: (1 - 1 / (c * c)) * 0.25 / math.cosh((1 + c) / 2) ** 2
    res = optimize.minimize_scalar(lambda c: -f(c), bounds=(1.0, 10.0), method="bounded", options={"xatol": 1e-12})
    return float(res.x), float(-res.fun)


def c_s_subgaussian() -> float:
    """Lemma 7's universal constant for sub-Gaussian noise, computed: sup value / e (paper: 0.0765/e)."""
    return lemma7_subgaussian_sup()[1] / math.e


def c_s_gaussian() -> float:
    """Lemma 7's constant for standard Gaussian noise, computed: integral / e (paper: 0.2066/e)."""
    return lemma7_gaussian_integral() / math.e
