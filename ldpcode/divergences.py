"""Divergences between distributions: Bernoulli and discrete KL, total variation.

All logs are natural, with the convention 0 log 0 = 0 (Ren et al., footnote 3).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ._validate import as_float_array, check_array, check_probability_vector, check_same_shape, one_line


def kl_bernoulli(p, q):
    r"""KL divergence :math:`D(\mathrm{Ber}(p)\,\|\,\mathrm{Ber}(q)) = p\log\frac pq + (1-p)\log\frac{1-p}{1-q}`.

    Broadcasts over arrays; ``inf`` where the support of Ber(p) is not inside that of Ber(q).
    """
    p = as_float_array("p", p, bools=False)
    q = as_float_array("q", q, bools=False)
    for name, v in (("p", p), ("q", q)):
        check_probability_vector(name, np.atleast_1d(v).ravel())
    check_same_shape(p=p, q=q)
    p, q = p + 0.0, q + 0.0  # -0.0 + 0.0 = 0.0, every other value unchanged: kl_bernoulli(0.5, -0.0) was nan, not inf
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        a = np.where(p > 0, p * np.log(p / q), 0.0)
        # log((1-p)/(1-q)) = log1p((q-p)/(1-q)): accurate when p and q are both tiny (1e-12 against 2e-12)
        b = np.where(p < 1, (1 - p) * np.log1p((q - p) / (1 - q)), 0.0)
        out = a + b
        # Close p and q: the two terms, each of order |p - q|, cancel to (p - q)^2/(2q(1-q)), and the
        # sum keeps only about 1e-16/u^2 of relative accuracy, u = (p - q)/min(q, 1 - q) (negative values
        # for CTB's output means at eps = 1e-9). There, the same divergence as q phi(u_1) + (1-q) phi(u_2),
        # u_1 = (p - q)/q, u_2 = (q - p)/(1 - q), phi(u) = (1 + u) log(1 + u) - u by its series.
        d = p - q
        close = (np.abs(d) < 0.05 * np.minimum(q, 1 - q)) & (d != 0)
    if np.any(close):
        pb, qb, db = (np.broadcast_to(x, np.shape(out))[close] for x in (p, q, d))
        out = np.array(out, dtype=float, copy=True)
        out[close] = qb * _phi_small(db / qb) + (1 - qb) * _phi_small(-db / (1 - qb))
    return out


def _phi_small(u):
    r""":math:`\varphi(u) = (1+u)\log(1+u) - u = \sum_{k\ge2} (-1)^k u^k/(k(k-1))` for :math:`|u| < 0.05`
    (16 terms: the remainder is below 0.05^17, 1e-22, relative to u^2/2 below 1e-19)."""
    total = np.zeros_like(u)
    power = u * u
    for k in range(2, 18):
        total += (1.0 if k % 2 == 0 else -1.0) * power / (k * (k - 1))
        power = power * u
    return total


def _probability_pair(f, g):
    """Two probability vectors (or stacks of them, last axis the outcomes) of the same shape."""
    f = as_float_array("f", f, bools=False)
    g = as_float_array("g", g, bools=False)
    for name, v in (("f", f), ("g", g)):
        if v.ndim == 0 or v.size == 0:
            raise ValueError(f"{name} must be a non-empty probability vector, got {one_line(v)}")
    if f.shape != g.shape:
        raise ValueError(f"f and g must have the same shape, got {f.shape} and {g.shape}")
    for name, v in (("f", f), ("g", g)):
        # each entry in [0, 1] exactly (an entry of 1 + 1e-16 is no probability, even if the sum rounds to 1)
        bad = (v < 0).any() or (v > 1).any() or not np.isfinite(v).all()
        if bad or not np.isclose(v.sum(axis=-1), 1.0).all():
            raise ValueError(
                f"{name} must be a probability vector (entries in [0, 1], summing to 1), got {one_line(v.tolist())}"
            )
    return f + 0.0, g + 0.0  # an entry -0.0 is 0.0 (f / -0.0 is -inf, whose log was nan)


def kl_discrete(f, g):
    r""":math:`\sum_x f(x)\log(f(x)/g(x))` for two probability vectors on the same finite set."""
    f, g = _probability_pair(f, g)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        terms = np.where(f > 0, f * np.log(f / g), 0.0)
    return terms.sum(axis=-1)


def tv_discrete(f, g):
    """Total variation distance between two probability vectors: half their L1 distance."""
    f, g = _probability_pair(f, g)
    return 0.5 * np.abs(f - g).sum(axis=-1)


def kl_mixture(p, q, f, g):
    r""":math:`D_{\mathrm{KL}}(h_a\,\|\,h_b)` for the mixtures :math:`h_a = pf + (1-p)g`, :math:`h_b = qf + (1-q)g`.

    The quantity bounded by Lemma 12 (Appendix A.8 of Ren et al. 2020): f and g are the output laws of a
    mechanism on the two rewards of a Bernoulli arm, and :math:`h_a`, :math:`h_b` the laws of its responses
    on arms of means p and q. ``p`` and ``q`` broadcast against each other and against the leading axes of
    ``f`` and ``g``, whose last axis indexes the finite output set. Natural log, 0 log 0 = 0; ``inf`` where
    :math:`h_b = 0 < h_a`.
    """
    p = as_float_array("p", p, bools=False)
    q = as_float_array("q", q, bools=False)
    for name, v in (("p", p), ("q", q)):
        bad = ~np.isfinite(v) | (v < 0) | (v > 1)
        if bad.any():  # the first bad value, not the repr of a long array over many lines
            raise ValueError(f"{name} must lie in [0, 1], got {float(v[bad].ravel()[0])!r}")
    f = as_float_array("f", f, bools=False)
    g = as_float_array("g", g, bools=False)
    if f.shape != g.shape or f.ndim == 0:
        raise ValueError(f"f and g must be probability vectors of the same shape, got {f.shape} and {g.shape}")
    for name, v in (("f", f), ("g", g)):
        bad = (v < 0).any() or (v > 1).any() or not np.isfinite(v).all()
        if bad or not np.allclose(v.sum(axis=-1), 1.0, rtol=0, atol=1e-9):
            raise ValueError(f"{name} must be a probability vector (entries in [0, 1], summing to 1 on its last axis)")
    check_same_shape(p=p, q=q, **{"the leading axes of f": f[..., 0]})
    p, q, f, g = p + 0.0, q + 0.0, f + 0.0, g + 0.0  # -0.0 is 0.0, as in kl_bernoulli
    ha = p[..., None] * f + (1 - p[..., None]) * g
    hb = q[..., None] * f + (1 - q[..., None]) * g
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        terms = np.where(ha > 0, ha * np.log(ha / hb), 0.0)
    return terms.sum(axis=-1)


@njit(cache=True, nogil=True)
def _kl_ber(p, q):
    if q >= 1.0 and p < 1.0:  # a bisection's midpoint rounds to 1 for p within 1e-16 of it (a ZeroDivisionError)
        return math.inf
    a = p * math.log(p / q) if p > 0.0 else 0.0
    b = (1.0 - p) * math.log((1.0 - p) / (1.0 - q)) if p < 1.0 else 0.0
    return a + b


@njit(cache=True, nogil=True)
def klucb_bernoulli_scalar(p, level, halvings=50):
    r"""The KL-UCB index :math:`\max\{q \in [p, 1] : d(p, q) \le \text{level}\}` for one arm, by bisection.

    ``d`` is the Bernoulli KL divergence. Compiled, no checks (see :func:`klucb_bernoulli`); 50 halvings of
    [p, 1] leave an error below 1e-15, and the returned end is the upper one, so the index is never
    below the exact maximiser (an optimistic index stays optimistic). Fewer ``halvings`` give an upper bound of
    the 50-halving index, within 2^-halvings of it: the same midpoints in the same order, stopped earlier (the
    caps of :func:`ldpcode.global_policies.per_step.klucb_chunk`).
    """
    if level <= 0.0:
        return p
    if p >= 1.0:
        return 1.0
    if _kl_ber(p, 1.0 - 1e-15) <= level:
        return 1.0
    lo = p
    hi = 1.0
    for _ in range(halvings):
        mid = 0.5 * (lo + hi)
        if _kl_ber(p, mid) > level:
            hi = mid
        else:
            lo = mid
    return hi


def klucb_bernoulli(p, level):
    r"""KL-UCB index :math:`\max\{q \in [0, 1] : d(p, q) \le \text{level}\}` (Garivier and Cappé 2011),
    the inversion behind AdaP-KLUCB (Azize and Basu 2022, eq. 8) and KL-UCB. Broadcasts.

    ``p`` must lie in [0, 1] and ``level`` be a finite number >= 0.
    """
    p = as_float_array("p", p, bools=False)
    level = as_float_array("level", level, bools=False)
    check_probability_vector("p", np.atleast_1d(p).ravel())
    check_array("level", level, low=0)  # one line (the repr of a long array ran over lines)
    check_same_shape(p=p, level=level)
    pb, lb = np.broadcast_arrays(p, level)
    out = np.empty(pb.shape)
    flat_p, flat_l, flat_o = pb.ravel(), lb.ravel(), out.reshape(-1)
    for i in range(flat_p.size):
        flat_o[i] = klucb_bernoulli_scalar(float(flat_p[i]), float(flat_l[i]))
    return out if out.ndim else float(out)


# ---------------------------------------------------------------------------------------------------
# Distinguishability gaps d_inf and t_inf (Azize and Basu 2022, Section 3, before Theorem 3)
# ---------------------------------------------------------------------------------------------------
# For a class M of laws with finite means, an arm law P and the best mean mu*:
#   d_inf(P, mu*, M) = inf { KL(P || P') : P' in M, mean(P') > mu* }   (KL-distinguishability gap)
#   t_inf(P, mu*, M) = inf { TV(P,  P') : P' in M, mean(P') > mu* }    (TV-distinguishability gap)
# The infimum over an empty set is +inf; when mean(P) > mu* the law P itself is admissible and both are 0.
# scipy is imported where it is used: ``import ldpcode`` loads this module, and scipy.optimize alone took about
# half of that import's time

from ._validate import check_choice as _check_choice  # noqa: E402

_VARIANCE_CLASSES = ("known", "unknown")


def _as_output(x):
    x = np.asarray(x, dtype=float)
    return x if x.ndim else float(x)


def _finite_array(name, values):
    arr = as_float_array(name, values, bools=False)
    bad = ~np.isfinite(arr)
    if bad.any():
        i = tuple(int(j) for j in np.unravel_index(int(np.flatnonzero(bad.ravel())[0]), arr.shape)) if arr.ndim else ()
        raise ValueError(f"{name} must contain only finite numbers, got {float(arr[i])!r} at index {i}")
    return arr


def _positive_array(name, values):
    arr = _finite_array(name, values)
    bad = arr <= 0
    if bad.any():
        i = tuple(int(j) for j in np.unravel_index(int(np.flatnonzero(bad.ravel())[0]), arr.shape)) if arr.ndim else ()
        raise ValueError(f"{name} must be a finite number > 0, got {float(arr[i])!r} at index {i}")
    return arr


def _check_pair_bernoulli(mu_a, mu_star):
    a = _finite_array("mu_a", mu_a)
    s = _finite_array("mu_star", mu_star)
    check_probability_vector("mu_a", a.ravel() if a.ndim else a[None])
    check_probability_vector("mu_star", s.ravel() if s.ndim else s[None])
    check_same_shape(mu_a=a, mu_star=s)
    return np.broadcast_arrays(a, s)


def d_inf_bernoulli(mu_a, mu_star):
    r"""KL-distinguishability gap of the Bernoulli class (Azize and Basu 2022, before Theorem 3):

    .. math:: d_{\inf}(\mathrm{Ber}(\mu_a), \mu^*, \mathcal{B}) = \inf_{m > \mu^*} d(\mu_a, m) = d(\mu_a, \mu^*)
              \quad (\mu_a \le \mu^* < 1),

    since :math:`m \mapsto d(\mu_a, m)` is continuous and increasing on :math:`[\mu_a, 1]` (the infimum is the
    limit at :math:`\mu^*`, not attained). Two edge cases follow the definition exactly: for
    :math:`\mu_a > \mu^*` the arm's own law is admissible and the gap is 0; for :math:`\mu^* = 1` no Bernoulli
    law has a mean above :math:`\mu^*`, the infimum runs over an empty set and the gap is ``inf``.
    Pinsker's inequality gives :math:`d_{\inf} \ge 2\Delta_a^2` (the paper's remark 2 after Theorem 3).
    ``mu_a`` and ``mu_star`` lie in [0, 1] and broadcast.
    """
    a, s = _check_pair_bernoulli(mu_a, mu_star)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        kl = kl_bernoulli(np.minimum(a, s), s)
    out = np.where(s >= 1.0, np.inf, np.where(a >= s, 0.0, kl))
    return _as_output(out)


def t_inf_bernoulli(mu_a, mu_star):
    r"""TV-distinguishability gap of the Bernoulli class: :math:`\inf_{m>\mu^*} \mathrm{TV}(\mathrm{Ber}(\mu_a),
    \mathrm{Ber}(m)) = \inf_{m>\mu^*} (m - \mu_a) = \mu^* - \mu_a = \Delta_a` (remark 2 after Theorem 3).

    Same edge cases as :func:`d_inf_bernoulli`: 0 when :math:`\mu_a > \mu^*`, ``inf`` when :math:`\mu^* = 1`
    (empty set; the paper's ":math:`t_{\inf} = \Delta_a`" is the limit, not the infimum, there). Broadcasts.
    """
    a, s = _check_pair_bernoulli(mu_a, mu_star)
    return _as_output(np.where(s >= 1.0, np.inf, np.maximum(s - a, 0.0)))


def _interval_prob(lo, hi):
    """P{lo < Z < hi} for Z ~ N(0, 1), computed on the side of 0 where it does not cancel."""
    from scipy.stats import norm

    return np.where(lo > 0, norm.sf(lo) - norm.sf(hi), norm.cdf(hi) - norm.cdf(lo))


def tv_gaussian(m1, s1, m2, s2):
    r"""Total variation :math:`\mathrm{TV}(\mathcal N(m_1, s_1^2), \mathcal N(m_2, s_2^2)) = \frac12\int|f-g|`,
    in closed form through the crossing points of the two densities. Broadcasts.

    Equal variances: :math:`2\Phi(|m_1-m_2|/(2s)) - 1`. Otherwise, with :math:`s_1 < s_2` (swap if needed),
    :math:`f > g` exactly between the two real roots :math:`x_1 < x_2` of
    :math:`\frac{(x-m_2)^2}{2s_2^2} - \frac{(x-m_1)^2}{2s_1^2} + \log\frac{s_2}{s_1} = 0` (a concave quadratic,
    positive at :math:`x = m_1`, so both roots are real) and
    :math:`\mathrm{TV} = P_f(x_1<X<x_2) - P_g(x_1<X<x_2)`. Checked in the tests against numerical
    integration of :math:`|f-g|/2`. ``m1, m2`` finite, ``s1, s2`` finite and > 0 (standard deviations). Where
    the deviations leave 2^±150 or a mean exceeds 2^13 of its deviation (its square would overflow, or cancel), the
    same formula for the standardised pair
    :math:`\mathcal N(0, 1)`, :math:`\mathcal N((m_2-m_1)/s_1, (s_2/s_1)^2)` (TV is invariant under x -> (x-m_1)/s_1).
    """
    m1 = _finite_array("m1", m1)
    m2 = _finite_array("m2", m2)
    s1 = _positive_array("s1", s1)
    s2 = _positive_array("s2", s2)
    check_same_shape(m1=m1, s1=s1, m2=m2, s2=s2)
    m1, s1, m2, s2 = np.broadcast_arrays(m1, s1, m2, s2)
    swap = s1 > s2
    ma, sa = np.where(swap, m2, m1), np.where(swap, s2, s1)  # the narrower law
    mb, sb = np.where(swap, m1, m2), np.where(swap, s1, s2)  # the wider law
    equal = sa == sb
    from scipy import special as _special

    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        same = _special.erf(np.abs(ma - mb) / (2.0 * math.sqrt(2.0) * sa))
        diff = _tv_unequal(ma, sa, mb, sb)
        # beyond 2^±150 the squares above over- or underflow (nan at s = 1e-170), and means beyond 2^13 deviations
        # cancel in qc (0 for 0.3227 at m = 1, s = 1e-10): there the standardised laws N(0, 1) and N(d, r^2),
        # d = (mb - ma)/sa, r = sb/sa, and TV = 1 once |d| or r > 1e100 (overlap < 1e-98)
        odd = ~((sa >= 2.0**-150) & (sb <= 2.0**150) & (np.abs(ma) <= 2.0**13 * sa) & (np.abs(mb) <= 2.0**13 * sb))
        if odd.any():
            d, r = (0.5 * mb - 0.5 * ma) / sa * 2.0, sb / sa
            far = ~((np.abs(d) <= 1e100) & (r <= 1e100))
            std = _tv_unequal(0.0, 1.0, np.where(far, 0.0, d), np.where(far, 2.0, r))
            diff = np.where(odd, np.where(far, 1.0, std), diff)
    out = np.where(equal, same, np.clip(diff, 0.0, 1.0))
    return _as_output(out)


def _tv_unequal(ma, sa, mb, sb):
    """:func:`tv_gaussian` for sa < sb: P_f(x1 < X < x2) - P_g(x1 < X < x2) between the crossing points."""
    qa = 0.5 / sb**2 - 0.5 / sa**2
    qb = ma / sa**2 - mb / sb**2
    qc = 0.5 * mb**2 / sb**2 - 0.5 * ma**2 / sa**2 + np.log(sb / sa)
    disc = np.maximum(qb * qb - 4.0 * qa * qc, 0.0)
    q = -0.5 * (qb + np.where(qb >= 0, 1.0, -1.0) * np.sqrt(disc))  # stable roots q/qa and qc/q
    r1 = q / qa
    r2 = np.where(q != 0, qc / q, -r1)
    lo, hi = np.minimum(r1, r2), np.maximum(r1, r2)
    return _interval_prob((lo - ma) / sa, (hi - ma) / sa) - _interval_prob((lo - mb) / sb, (hi - mb) / sb)


def _check_gaussian_args(mu_a, mu_star, sigma, variance):
    _check_choice("variance", variance, _VARIANCE_CLASSES)
    a = _finite_array("mu_a", mu_a)
    s = _finite_array("mu_star", mu_star)
    sig = _positive_array("sigma", sigma)
    check_same_shape(mu_a=a, mu_star=s, sigma=sig)
    return np.broadcast_arrays(a, s, sig)


def d_inf_gaussian(mu_a, mu_star, sigma=1.0, variance="known"):
    r"""KL-distinguishability gap of a Gaussian arm :math:`\mathcal N(\mu_a, \sigma^2)` (Azize and Basu 2022,
    before Theorem 3), for two model classes; :math:`\Delta = \max(\mu^*-\mu_a, 0)`:

    * ``variance="known"``: the class :math:`\{\mathcal N(m, \sigma^2): m\in\mathbb R\}` with the arm's
      :math:`\sigma` fixed. :math:`\mathrm{KL} = (m-\mu_a)^2/(2\sigma^2)`, so :math:`d_{\inf} = \Delta^2/(2\sigma^2)`.
    * ``variance="unknown"``: all Gaussians :math:`\mathcal N(m, s^2)`, :math:`s > 0`. With
      :math:`\delta = m-\mu_a`, :math:`\mathrm{KL}(\mathcal N(\mu_a,\sigma^2)\|\mathcal N(m,s^2)) =
      \log\frac s\sigma + \frac{\sigma^2+\delta^2}{2s^2} - \frac12`, minimised over :math:`s^2` at
      :math:`s^2 = \sigma^2+\delta^2` (derivative :math:`\frac1{2s^2} - \frac{\sigma^2+\delta^2}{2s^4}`), which
      leaves :math:`\frac12\log(1+\delta^2/\sigma^2)`, increasing in :math:`\delta`; the infimum over
      :math:`m > \mu^*` is the limit :math:`\delta\to\Delta`: :math:`d_{\inf} = \frac12\log(1+\Delta^2/\sigma^2)`.

    Since :math:`\log(1+x) \le x` the unknown-variance gap is the smaller (the class is larger).
    ``sigma`` is the arm's standard deviation (> 0). Broadcasts over all three arguments.
    """
    a, s, sig = _check_gaussian_args(mu_a, mu_star, sigma, variance)
    gap = np.maximum(s - a, 0.0)
    x = (gap / sig) ** 2
    out = 0.5 * x if variance == "known" else 0.5 * np.log1p(x)
    return _as_output(out)


def _t_inf_unknown_standard(r):
    r""":math:`\inf_{s>0} \mathrm{TV}(\mathcal N(0,1), \mathcal N(r, s^2))` for one r >= 0 (see :func:`t_inf_gaussian`)."""
    if r == 0.0:
        return 0.0
    at_one = float(tv_gaussian(0.0, 1.0, r, 1.0))
    # grid on log s, then Brent's bounded search between the neighbours of the best grid point. The
    # minimiser lies near log s = 0 for small r and near log r for large r; the bracket covers both.
    grid = np.linspace(-3.0, math.log1p(r) + 3.0, 241)
    vals = tv_gaussian(0.0, 1.0, r, np.exp(grid))
    i = int(np.argmin(vals))
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, grid.size - 1)]
    from scipy import optimize as _optimize

    res = _optimize.minimize_scalar(
        lambda u: float(tv_gaussian(0.0, 1.0, r, math.exp(u))),
        bounds=(lo, hi),
        method="bounded",
        options={"xatol": 1e-10},
    )
    return float(min(at_one, float(vals[i]), float(res.fun)))


def t_inf_gaussian(mu_a, mu_star, sigma=1.0, variance="known"):
    r"""TV-distinguishability gap of a Gaussian arm :math:`\mathcal N(\mu_a, \sigma^2)`; :math:`\Delta =
    \max(\mu^*-\mu_a, 0)`.

    * ``variance="known"``: :math:`\inf_{m>\mu^*}\mathrm{TV}(\mathcal N(\mu_a,\sigma^2),\mathcal N(m,\sigma^2))
      = 2\Phi(\Delta/(2\sigma)) - 1` (closed form; TV of a location shift grows with the shift).
    * ``variance="unknown"``: :math:`\inf_{s>0}\mathrm{TV}(\mathcal N(\mu_a,\sigma^2), \mathcal N(\mu^*, s^2))`,
      computed numerically with :func:`tv_gaussian` (exact crossing-point formula): a grid over
      :math:`\log s` then a bounded Brent search, never above the value at :math:`s=\sigma`, so never above
      the known-variance gap. The mean of the alternative is put at its limit :math:`\mu^*` (TV is
      continuous in :math:`m` and, for every fixed s, non-decreasing in :math:`m \ge \mu^*`; checked in the
      tests). By scale invariance the value depends on :math:`\Delta/\sigma` only.

    ``sigma`` is the arm's standard deviation (> 0). Broadcasts.
    """
    a, s, sig = _check_gaussian_args(mu_a, mu_star, sigma, variance)
    ratio = np.maximum(s - a, 0.0) / sig
    if variance == "known":
        from scipy import special as _special

        return _as_output(_special.erf(ratio / (2.0 * math.sqrt(2.0))))
    out = np.array([_t_inf_unknown_standard(float(r)) for r in ratio.ravel()]).reshape(ratio.shape)
    return _as_output(out)


def _check_law_on_unit_interval(values, probs, mu_star):
    """One discrete law on [0, 1] (atoms ``values``, weights ``probs``) and a best mean in [0, 1], checked."""
    x = _finite_array("values", values)
    p = _finite_array("probs", probs)
    if x.ndim != 1 or p.shape != x.shape or x.size == 0:
        raise ValueError(f"values and probs must be two 1-d lists of one length >= 1, got shapes {x.shape}, {p.shape}")
    if x.min() < 0.0 or x.max() > 1.0:
        raise ValueError(f"values must lie in [0, 1] (the class of laws on [0, 1]), got {one_line(values)}")
    if p.min() < 0.0 or abs(float(p.sum()) - 1.0) > 1e-9:
        raise ValueError(f"probs must be >= 0 and sum to 1, got {one_line(probs)} (sum {float(p.sum())!r})")
    s = _finite_array("mu_star", mu_star)
    if s.size != 1 or not 0.0 <= float(s.ravel()[0]) <= 1.0:
        raise ValueError(f"mu_star must be one number in [0, 1] (a mean of a law on [0, 1]), got {one_line(mu_star)}")
    return x, p / p.sum(), float(s.ravel()[0])  # weights summing to 1 within 1e-9: made exact


def t_inf_bounded(values, probs, mu_star) -> float:
    r"""TV-distinguishability gap of a discrete law :math:`P` on [0, 1] in the class of *all* laws on [0, 1]:
    :math:`t_{\inf}(P, \mu^*) = \inf\{\mathrm{TV}(P, Q) : Q \text{ on } [0, 1],\ \mathbb E_Q X > \mu^*\}`.

    A move of mass τ changes the mean by at most τ (the range is 1), so :math:`t_{\inf} \ge \Delta = \mu^* -
    \mathbb E_P X`, with equality exactly when :math:`P\{X = 0\} \ge \Delta` (as for a Bernoulli law of mean
    below :math:`\mu^*`): moving mass from 0 to 1 gains its full weight. The infimum takes mass from
    the lowest atoms first and puts it at 1 (a fractional knapsack: an atom at x raises the mean by 1 - x per
    unit of mass moved), until the mean reaches :math:`\mu^*`. 0 when :math:`\mathbb E_P X \ge \mu^*`, ``inf``
    when :math:`\mu^* = 1` (no law on [0, 1] has a larger mean). ``values``: the atoms, ``probs`` their weights.
    """
    x, p, s = _check_law_on_unit_interval(values, probs, mu_star)
    need = s - float(p @ x)
    if s >= 1.0:
        return math.inf
    if need <= 0.0:
        return 0.0
    moved = 0.0
    for xi, pi in sorted(zip(x.tolist(), p.tolist())):
        gain = pi * (1.0 - xi)
        if gain >= need:
            return moved + need / (1.0 - xi)
        moved, need = moved + pi, need - gain
    return math.inf  # not reached for s < 1: moving every atom to 1 gives mean 1


def d_inf_bounded(values, probs, mu_star) -> float:
    r"""KL-distinguishability gap of a discrete law :math:`P` on [0, 1] in the class of all laws on [0, 1],
    :math:`K_{\inf}(P, \mu^*) = \inf\{\mathrm{KL}(P\,\|\,Q) : Q \text{ on } [0, 1],\ \mathbb E_Q X > \mu^*\}`, by
    the dual of Honda and Takemura (2010, Theorem 8):

    .. math:: K_{\inf}(P, \mu^*) = \max_{0 \le \lambda \le 1/(1-\mu^*)} \mathbb E_P\log\big(1 - \lambda(X - \mu^*)\big)
              \quad (\mu^* < 1),

    a concave maximum found by bisection on its derivative (to 1e-15 in λ). For a Bernoulli law it is
    :math:`d(\mu_a, \mu^*)` (:func:`d_inf_bernoulli`). 0 when :math:`\mathbb E_P X \ge \mu^*`, ``inf`` when
    :math:`\mu^* = 1`. ``values``: the atoms, ``probs`` their weights.
    """
    x, p, s = _check_law_on_unit_interval(values, probs, mu_star)
    if s >= 1.0:
        return math.inf
    if float(p @ x) >= s:
        return 0.0
    keep = p > 0
    x, p = x[keep] - s, p[keep]
    top = 1.0 / (1.0 - s)

    def slope(lam):
        return -float(np.sum(p * x / (1.0 - lam * x)))

    if x.max() < 1.0 - s and slope(top) >= 0.0:  # no atom at 1: the maximum may sit at the end of the interval
        lam = top
    else:
        lo, hi = 0.0, top
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if mid in (lo, hi):
                break
            lo, hi = (mid, hi) if slope(mid) > 0.0 else (lo, mid)
        lam = lo
    return float(np.sum(p * np.log1p(-lam * x)))
