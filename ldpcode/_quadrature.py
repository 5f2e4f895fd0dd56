"""Quadratures for the inputs where a module's own fails. :func:`gaussian_expect_robust`: the clipped-Gaussian
expectation of :meth:`ldpcode.instances.PrivacyLevels.expect` at a spike f ~ 1/x² near a tiny eps_min (the linear
quadrature reported divergence and returned 2.02 for E[eps^-2 1{eps >= 1e-9}] = 2.42e8) or an sd so large that
phi/sd is subnormal. :func:`sigmoid_mean_wide`: :func:`ldpcode.mechanisms.gaussian_sigmoid_mean` for sigma > 2,
where 80 Gauss-Hermite nodes miss the Sigmoid's step (sigma = 100 gave 0.50000007 for 0.51196)."""

import math

import numpy as np

__all__ = ["gaussian_expect_robust", "sigmoid_mean_wide"]


def gaussian_expect_robust(f, a: float, b: float, m: float, sd: float) -> float:
    r""":math:`\int_a^b \phi((x-m)/sd)/sd\, f(x)\,dx` with :math:`x = e^u` on :math:`[a, c]`, c = min(max(m, a), b)
    (below the mean, where a 1/x² spike lives, the integrand :math:`\phi((e^u-m)/sd)\,e^{u-\log sd} f(e^u)` is
    smooth in u) and the standardised :math:`z = (x-m)/sd` on :math:`[c, b]` (:math:`\int \phi(z) f(m + sd z)\,dz`).
    Raises ValueError when either quadrature still fails (the expectation is then out of reach)."""
    from scipy import integrate

    pdf = lambda z: math.exp(-z * z / 2.0) / math.sqrt(2.0 * math.pi)
    f1 = lambda x: float(f(np.array([x]))[0])
    c = min(max(m, a), b) if a > 0 else a
    parts = []
    if a < c:
        log_sd = math.log(sd)
        h = lambda u: pdf((math.exp(u) - m) / sd) * math.exp(u - log_sd) * f1(math.exp(u))
        parts.append(integrate.quad(h, math.log(a), math.log(c), limit=200, full_output=1))
    if c < b:
        g = lambda z: pdf(z) * f1(min(m + sd * z, b))
        parts.append(integrate.quad(g, (c - m) / sd, (b - m) / sd, limit=200, full_output=1))
    total = sum(p[0] for p in parts)
    if any(len(p) > 3 for p in parts) or not math.isfinite(total):
        raise ValueError(
            f"eps_min={a!r}: E[f(eps) 1{{eps >= eps_min}}] over N({m!r}, {sd!r}²) is out of reach (quadrature)"
        )
    return total


def sigmoid_mean_wide(mu: np.ndarray, sigma: float) -> np.ndarray:
    r""":math:`E[s(\mu + \sigma Z)] = \Phi(\mu/\sigma) + \int (s(x) - 1\{x > 0\})\,
    \phi((x-\mu)/\sigma)/\sigma\,dx` for each ``mu`` (sigma > 0): the step 1{x > 0} exactly, and QUADPACK on the
    correction, split at 0 and smooth on each side (:math:`|s(x) - 1\{x > 0\}| = s(-|x|) < 5e-18` beyond 40, but
    the range reaches the peak of :math:`e^{-|x|}\phi` at :math:`\mu \pm \sigma^2` where that term dominates)."""
    from scipy import integrate, special

    kw = dict(epsabs=1e-300, epsrel=1e-13, limit=200)

    def one(m):
        p = lambda x: math.exp(-0.5 * ((x - m) / sigma) * ((x - m) / sigma)) / (sigma * math.sqrt(2.0 * math.pi))
        lo, hi = min(-40.0, m + sigma * sigma - 40 * sigma), max(40.0, m - sigma * sigma + 40 * sigma)
        pts = lambda peak, a, b: [peak] if a < peak < b else None  # the peak of e^{-|x|} p(x), deep in a tail
        below = integrate.quad(lambda x: special.expit(x) * p(x), lo, 0.0, points=pts(m + sigma * sigma, lo, 0.0), **kw)
        above = integrate.quad(
            lambda x: special.expit(-x) * p(x), 0.0, hi, points=pts(m - sigma * sigma, 0.0, hi), **kw
        )
        return float(special.ndtr(m / sigma)) + below[0] - above[0]

    return np.vectorize(one, otypes=[float])(mu)[()]  # a NumPy float for a 0-d mu, as the Gauss-Hermite sum
