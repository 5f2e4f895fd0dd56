r"""The curators of Ren et al. (2020): each privatizes one user's reward before the agent sees it.

=============  ===================================================================================  ==================
curator        response                                                                             paper
=============  ===================================================================================  ==================
``CTL(eps)``   :math:`M_L(r) = r + L`, :math:`L\sim\mathrm{Laplace}(1/\epsilon)`                    Curator 1, Lemma 2
``CTB(eps)``   :math:`M_B(r)\sim\mathrm{Bernoulli}\big(\tfrac{re^\epsilon+1-r}{1+e^\epsilon}\big)`  Curator 3, Lemma 5
``CTLS(eps)``  :math:`M_{LS}(r) = s(r) + L`                                                         Curator 5, Lemma 8
``CTBS(eps)``  :math:`M_{BS}(r) = M_B(s(r))`                                                        Curator 6, Lemma 9
=============  ===================================================================================  ==================

with the Sigmoid :math:`s(r) = (1+e^{-r})^{-1}`. Every curator draws its randomness as one number per response, from a stream of its own
(``noise_kind``: standard Laplace draws for CTL, uniforms on [0, 1) for CTB), and turns the pair
(reward, noise draw) into a response with the compiled kernel ``respond``. The compiled simulation engine calls the
same ``respond``, so the curator that the tests check is the curator the simulations use.

The compiled kernels (``respond``, ``draw_noise``, ``ctb_probability``, ``bernoulli_scale``, ``unbias``,
``unbias_scaled``) check nothing, for the speed of the simulation loops that call them: they are internal, importable
for the engines but not in ``__all__`` (nor on the API page). Their public, checked doors are the curators' methods:
``privatize``, ``draw_noise``, ``probability_one``, ``unbias``.

Each curator is a member of the family :class:`ldpcode.mechanisms.LocalMechanism`: besides ``privatize`` and
``output_mean`` (Lemma 5 for CTB, the identity for CTL), ``output_law(x)`` (a frozen ``scipy.stats`` law),
``privacy_loss(inputs)`` (the exact loss over given inputs: :func:`ctb_privacy_loss` for CTB and CTB-S, the
spread over the Laplace scale for CTL and CTL-S), ``exact_epsilon()`` and, for CTB, ``unbias``.
"""

from __future__ import annotations

from enum import IntEnum

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from .._quadrature import sigmoid_mean_wide
from .._validate import EPSILON_FLOOR, as_float_array, check_array, check_choice, check_epsilon, check_finite_array
from .._validate import (
    check_int,
    check_real,
    check_rng,
    check_same_shape,
    check_sample_size,
    check_unit_interval,
    one_line,
)
from ..limits import check_limits

#: the public names, in the order of the source (the API page lists them so); not the kernels (module docstring)
__all__ = [
    "Mechanism",
    "sigmoid",
    "exp_or_inf",
    "ctb_output_mean",
    "ctb_privacy_loss",
    "GAUSS_HERMITE_MAX_ORDER",
    "gaussian_sigmoid_mean",
    "discrete_sigmoid_mean",
    "LAPLACE_SUM_MAX_N",
    "laplace_sum_sf",
    "Curator",
    "CTL",
    "CTB",
    "CTLS",
    "CTBS",
    "CURATORS",
    "make_curator",
]


class Mechanism(IntEnum):  # the mechanism codes shared with the compiled engine
    """What a curator does to a reward: the code the kernel ``respond`` and the compiled engines branch on (a curator's
    ``code``). Not to be confused with :class:`ldpcode.instances.Family`, the law of an arm's rewards."""

    NONE = 0  # the reward itself (non-private UCB1)
    LAPLACE = 1  # r + Laplace(1/eps): CTL, CTL-S
    BERNOULLI = 2  # one bit, P{1} = (r e^eps + 1 - r)/(1 + e^eps): CTB, CTB-S


@njit(cache=True)
def sigmoid(r):
    r"""The Sigmoid of Section 3.2, :math:`s(r) = (1 + e^{-r})^{-1}` (scalar or array)."""
    return 1.0 / (1.0 + np.exp(-r))


def exp_or_inf(x) -> float:
    r""":math:`e^x` as a float, ``inf`` beyond x = 709.78 (not Python's bare OverflowError; the compiled ``math.exp``
    gives inf too), for ``ctb_probability``, which takes inf as ε → ∞. ``x``: a real number or inf (True gave e)."""
    if type(x) not in (float, np.float64) or x != x:
        x = check_real("x", x, allow_inf=True)
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


@njit(cache=True)
def ctb_probability(r, exp_eps):
    r"""Curator 3's success probability :math:`(re^\epsilon + 1 - r)/(1 + e^\epsilon)`, given :math:`e^\epsilon`.

    Equal to :math:`r\,s(\epsilon) + (1 - r)\,s(-\epsilon)`, s the Sigmoid, with no cancellation: the
    numerator and the denominator are sums of non-negative terms (r in [0, 1]), so the formula is accurate
    to a few ulps for every finite :math:`e^\epsilon`. When :math:`e^\epsilon` overflows (ε > 709.78, given
    as ``inf``) the formula would give inf/inf = nan, and every response 0; there :math:`s(\epsilon) = 1`
    and :math:`s(-\epsilon) < 10^{-308}` in double precision, so the probability is r, returned exactly.

    Internal kernel: no checks (r outside [0, 1] or a negative ``exp_eps`` give a number that is no probability);
    use :meth:`CTB.probability_one`."""
    if exp_eps == np.inf:
        return r * 1.0  # arithmetic, so both branches have one type (a 0-d array r stays like the formula's)
    return (r * exp_eps + 1.0 - r) / (1.0 + exp_eps)


@njit(cache=True)
def respond(code, use_sigmoid, r, noise, laplace_scale, exp_eps):
    """One private response from reward ``r`` and the curator's own draw ``noise``.

    ``code`` is a :class:`Mechanism`: NONE (the reward itself, for non-private UCB1), LAPLACE (``noise`` is a standard
    Laplace draw, scaled by ``laplace_scale = 1/eps``) or BERNOULLI (``noise`` is uniform on [0, 1)).
    With ``use_sigmoid`` the reward is first mapped through :func:`sigmoid` (Curators 5 and 6).

    Internal kernel: no checks (an unknown ``code`` returned the reward unprivatised); use :meth:`Curator.privatize`
    (``make_curator(name, epsilon).privatize(rewards, rng)``)."""
    if use_sigmoid:
        r = sigmoid(r)
    if code == Mechanism.LAPLACE:
        return r + noise * laplace_scale
    if code == Mechanism.BERNOULLI:
        return 1.0 if noise < ctb_probability(r, exp_eps) else 0.0
    return r


@njit(cache=True)
def bernoulli_scale(epsilon):
    r""":math:`(e^\epsilon + 1)/(e^\epsilon - 1) = \coth(\epsilon/2)`: how much CTB shrinks a gap (Lemma 5),
    and the spread of the unbiased values of the map g (extended version, Section 3.2).

    Internal kernel: no checks (ε <= 0 gives a negative or infinite scale); use :meth:`CTB.unbias` for g, or
    :func:`ldpcode.bounds.heldp_beta` for its square."""
    return 1.0 / np.tanh(0.5 * epsilon)


@njit(cache=True)
def unbias(x, epsilon):
    r"""The map g of the extended version (Section 3.2): :math:`g(1;\epsilon) = \tfrac12(1 + k)`,
    :math:`g(0;\epsilon) = \tfrac12(1 - k)`, :math:`k = (e^\epsilon+1)/(e^\epsilon-1)`, so that
    :math:`\mathbb{E}[g(M_B(R;\epsilon);\epsilon)] = \mathbb{E}[R]`. Written :math:`\tfrac12 + (x - \tfrac12)k`.

    Internal kernel: no checks (``unbias(0.7, -1.0)`` returned a number); use :meth:`CTB.unbias`
    (``CTB(epsilon).unbias(responses)``)."""
    return unbias_scaled(x, bernoulli_scale(epsilon))


@njit(cache=True)
def unbias_scaled(x, k):
    """``unbias`` given k = ``bernoulli_scale(eps)`` already computed (for engines that reuse it). Internal kernel: no
    checks; use :meth:`CTB.unbias`."""
    return 0.5 + (x - 0.5) * k


def ctb_output_mean(mu, epsilon):
    r"""Lemma 5: the mean of CTB's response on an arm of mean :math:`\mu \in [0, 1]`,

    .. math:: \mu_{a,\epsilon} = \tfrac12 + (2\mu_a - 1)\,\frac{e^\epsilon - 1}{2(e^\epsilon + 1)}
              = \tfrac12 + (2\mu_a - 1)\,\frac{\tanh(\epsilon/2)}{2}.

    The first form is evaluated for ε <= 700 (as it always was, so that stored numbers keep their bits); above,
    where :math:`2(e^\epsilon + 1)` overflows (from ε = 709.09 the old form returned 1/2 for every μ, and
    raised OverflowError from 709.79), the equal :math:`\tanh(\epsilon/2)/2`, which is 1/2 to double precision.
    ``mu`` outside [0, 1] (a mean CTB cannot have) is refused."""
    epsilon = check_epsilon(epsilon)
    mu = check_unit_interval("mu", mu)
    if epsilon <= 700.0:
        half_gap = math.expm1(epsilon) / (2.0 * (math.exp(epsilon) + 1.0))
    else:
        half_gap = 0.5 * math.tanh(0.5 * epsilon)
    return 0.5 + (2.0 * mu - 1.0) * half_gap


def ctb_privacy_loss(u, epsilon) -> float:
    r"""The exact privacy loss of Curator 3 (CTB, Lemma 5 of Ren et al. 2020) over inputs ``u`` in [0, 1] (for
    CTB-S, u = s(r)): :math:`\max_{x\in\{0,1\}}\max_{u,u'} \log P\{x\mid u\}/P\{x\mid u'\}`, with
    :math:`P\{1\mid u\} = (ue^\epsilon + 1 - u)/(1 + e^\epsilon)` (the kernel ``ctb_probability``) and
    :math:`P\{0\mid u\} = ((1-u)e^\epsilon + u)/(1 + e^\epsilon)` computed directly (so that
    :math:`1/(1+e^\epsilon)` is not lost to rounding for large ε). It is ε between u = 0 and 1 (Lemma 5).

    The largest log-ratio over pairs is the spread (max - min) of each output's log-probabilities: rounding is
    monotone, so for ε >= 2^-10 this is bit for bit the maximum of ``ldpcode.audit.privacy_loss_matrix`` of the laws.
    For ε > 700 (:math:`e^\epsilon` near overflow, and :math:`P\{1\mid u = 0\} = 1/(1+e^\epsilon)` below the smallest
    double from ε = 745) the log-probabilities are computed in log space,
    :math:`\log(u\,s(\epsilon) + (1-u)\,s(-\epsilon))`, s the Sigmoid, by log-sum-exp; for ε < 2^-10 (ε = 1e-9 gave
    1.00000008e-9) as :math:`\log(1 + \Delta u\,\tanh(\epsilon/2) / p_{\min})`, :math:`P\{1\mid u\} = s(-\epsilon) + u\tanh(\epsilon/2)`."""
    u = check_unit_interval("u", u).ravel()
    if u.size == 0:
        raise ValueError("u must hold at least one number")
    eps = check_epsilon(epsilon)
    if eps < 2.0**-10:  # P{1|u} min at u.min(), P{0|u} = s(-eps) + (1 - u) tanh(eps/2) min at u.max()
        t, s_lo, lo, hi = math.tanh(0.5 * eps), 1.0 / (1.0 + math.exp(eps)), float(u.min()), float(u.max())
        return max(math.log1p((hi - lo) * t / (s_lo + lo * t)), math.log1p((hi - lo) * t / (s_lo + (1.0 - hi) * t)))
    if eps <= 700.0:
        e = math.exp(eps)
        p1 = ctb_probability.py_func(u, e)  # (u e + 1 - u)/(1 + e), the curator's own formula
        p0 = ((1.0 - u) * e + u) / (1.0 + e)
        logs = np.log(np.column_stack([p0, p1]))
        return float((logs.max(axis=0) - logs.min(axis=0)).max())
    with np.errstate(divide="ignore"):
        lu, l1u = np.log(u), np.log1p(-u)
    ls_hi = -math.log1p(math.exp(-eps))  # log s(eps)
    ls_lo = ls_hi - eps  # log s(-eps)
    lp1 = np.logaddexp(lu + ls_hi, l1u + ls_lo)
    lp0 = np.logaddexp(l1u + ls_hi, lu + ls_lo)
    return float(max(lp1.max() - lp1.min(), lp0.max() - lp0.min()))


GAUSS_HERMITE_MAX_ORDER = 300
"""The most nodes :func:`gaussian_sigmoid_mean` takes. NumPy's ``hermegauss`` keeps every weight a normal double up to
300 nodes (the smallest 2e-248); its weights leave the doubles at 371 nodes (the mean was then 0.0) and nan from 372."""


def gaussian_sigmoid_mean(mu, sigma=1.0, order: int = 80):
    r""":math:`\mathbb{E}[s(\mu + \sigma Z)]`, :math:`Z\sim N(0,1)`, the mean of the Sigmoid-mapped reward of a Gaussian
    arm that CTL-S and CTB-S see (Lemmas 7-9): Gauss-Hermite for sigma <= 2 (80 nodes give about 1e-15; ``order`` in
    [1, :data:`GAUSS_HERMITE_MAX_ORDER`]); beyond, where its nodes miss the Sigmoid's step, QUADPACK on
    :math:`\Phi(\mu/\sigma) + E[s(X) - 1\{X > 0\}]` (:func:`ldpcode._quadrature.sigmoid_mean_wide`)."""
    mu = check_finite_array("mu", mu)
    sigma = check_real("sigma", sigma)
    if sigma < 0:
        raise ValueError(f"sigma must be a finite number >= 0 (a standard deviation), got {sigma!r}")
    order = check_int("order", order, minimum=1, maximum=GAUSS_HERMITE_MAX_ORDER)
    if sigma > 2.0:
        return sigmoid_mean_wide(mu, sigma)
    x, w = np.polynomial.hermite_e.hermegauss(order)
    with np.errstate(over="ignore"):  # e^{-z} = inf for z < -709: the Sigmoid is then 0, as it should be
        vals = 1.0 / (1.0 + np.exp(-(mu[..., None] + sigma * x)))
    return (vals * w).sum(axis=-1) / math.sqrt(2.0 * math.pi)


def discrete_sigmoid_mean(mu, values, probs):
    r""":math:`\mathbb{E}[s(\mu + Z)]` for a noise Z taking ``values`` with probabilities ``probs`` (exact sum).

    The discrete counterpart of :func:`gaussian_sigmoid_mean`, for Lemma 7 with non-Gaussian noise; e.g.
    Rademacher noise (values ±1, probabilities 1/2), which is sub-Gaussian with variance one. ``mu``
    broadcasts; ``values`` and ``probs`` are 1-d of the same length, ``probs`` non-negative summing to 1."""
    values = as_float_array("values", values, bools=False)
    probs = as_float_array("probs", probs, bools=False)
    if values.ndim != 1 or values.shape != probs.shape or values.size == 0 or not np.isfinite(values).all():
        raise ValueError(
            f"values and probs must be 1-d of the same non-zero length with finite values, "
            f"got shapes {values.shape} and {probs.shape}"
        )
    if not np.isfinite(probs).all() or (probs < 0).any() or abs(probs.sum() - 1.0) > 1e-9:  # one line, not a repr
        raise ValueError(
            f"probs must be non-negative and sum to 1, got min {float(probs.min())!r}, sum {float(probs.sum())!r}"
        )
    mu = check_finite_array("mu", mu)
    return (sigmoid(mu[..., None] + values) * probs).sum(axis=-1)


LAPLACE_SUM_MAX_N = 10**8
r"""The largest n :func:`laplace_sum_sf` accepts: its time is linear in n (about 0.3 s per million terms and per
value of lam) and its memory fixed (blocks of 2²⁰ terms); beyond, the central limit theorem (:math:`Y_n/(b\sqrt{2n})`
is nearly standard normal) or Lemma 3's bound are the tools."""


def laplace_sum_sf(lam, n, b):
    r"""Exact :math:`P\{Y_n > \lambda\}` for :math:`Y_n` the sum of n i.i.d. Laplace(b) variables.

    The quantity Lemma 3 bounds. :math:`Y_n = G_1 - G_2` with :math:`G_1, G_2` i.i.d. Gamma(n, b) (a
    Laplace(b) variable is the difference of two Exponential(b) ones). Conditioning on :math:`G_2` and
    using :math:`P\{G_1 > y\} = e^{-y/b}\sum_{i<n} (y/b)^i/i!` gives, for :math:`x = \lambda/b \ge 0`, the
    finite sum of positive terms

    .. math:: P\{Y_n > \lambda\} &= e^{-x} \sum_{i=0}^{n-1}\sum_{j=0}^{i}
              \frac{x^{i-j}}{(i-j)!\,j!}\,\frac{(n-1+j)!}{(n-1)!\,2^{n+j}}\\
              &= \sum_{k=0}^{n-1} \frac{e^{-x}x^k}{k!}\, F(n - 1 - k),

    (k = i - j), where :math:`F(m) = \sum_{j=0}^{m}\binom{n-1+j}{j}2^{-(n+j)}` is the distribution function of
    the negative binomial law (failures before the n-th success of a fair coin). So the double sum is a sum
    of n products of a Poisson(x) probability and a running sum: O(n) time, memory in blocks of 2²⁰ terms
    (the double sum took O(n²) memory: 8 GB at n = 20,000). Evaluated in log space (so it stays accurate deep
    in the tail where Monte Carlo cannot reach: about 1e-13 relative for n up to 10⁴, the running sums adding
    at most n x 1e-16), and :math:`1 - P\{Y_n > -\lambda\}` for :math:`\lambda < 0`. For n = 1 it is
    :math:`e^{-x}/2`, for n = 2 :math:`(2 + x)e^{-x}/4`. ``n`` at most :data:`LAPLACE_SUM_MAX_N`."""
    n = check_int("n", n, minimum=1)
    if n > LAPLACE_SUM_MAX_N:
        raise ValueError(
            f"n must be <= {LAPLACE_SUM_MAX_N:,} (LAPLACE_SUM_MAX_N: the exact sum takes time linear "
            f"in n), got {n:,}; for such n use the normal approximation of Y_n/(b sqrt(2n)) or "
            f"Lemma 3's bound (ldpcode.bounds.laplace_sum_tail_bound)"
        )
    if (b := check_real("b", b)) <= 0:
        raise ValueError(f"b must be > 0, got {b!r}")
    lam = check_finite_array("lam", lam)
    with np.errstate(over="ignore"):  # lam / b = inf (b = 5e-324): the tail is 0 or 1, _laplace_sum_upper says which
        x = lam.ravel() / b
    out = np.array([_laplace_sum_upper(v, n) if v >= 0 else 1.0 - _laplace_sum_upper(-v, n) for v in x])
    return out.reshape(lam.shape) if lam.ndim else float(out[0])


def _laplace_sum_upper(x, n, block=2**20):
    """P{Y_n > b x} for x >= 0: the log of sum_k Poisson(x)(k) F(n - 1 - k), accumulated block by block over
    m = n - 1 - k = 0, 1, ... (running log F(m) carried across blocks, one log-sum-exp per block)."""
    from scipy.special import gammaln, logsumexp

    log2, lgn = math.log(2.0), math.lgamma(n)
    log_x = math.log(x) if x > 0 else -math.inf
    total, log_f_prev = -math.inf, -math.inf
    for m0 in range(0, n if x < math.inf else 0, block):  # x = lam/b = inf (b = 5e-324): the tail is 0, was nan
        m = np.arange(m0, min(n, m0 + block), dtype=float)
        # log of the negative-binomial terms binom(n-1+j, j) 2^-(n+j) at j = m, and their running sums F(m)
        log_w = gammaln(n + m) - gammaln(m + 1.0) - lgn - (n + m) * log2
        log_f = np.logaddexp.accumulate(np.concatenate([[log_f_prev], log_w]))[1:]
        log_f_prev = float(log_f[-1])
        k = (n - 1) - m
        with np.errstate(invalid="ignore"):
            log_pois = -x + np.where(k > 0, k * log_x, 0.0) - gammaln(k + 1.0)
        total = float(np.logaddexp(total, logsumexp(log_pois + log_f)))
    return math.exp(total)


def _curator_code(cls) -> None:
    """Refuse a curator class whose ``code`` is not a mechanism the kernels privatize with (LAPLACE or BERNOULLI): the
    base :class:`Curator` (code NONE) returned every reward unprivatised from ``privatize`` and drew zeros for noise,
    and a subclass with an unknown code did the same (the kernels check nothing)."""
    code = cls.code
    if isinstance(code, bool) or not isinstance(code, (int, np.integer)) or int(code) not in _CURATOR_CODES:
        what = "the base class of the curators" if cls is Curator else f"a curator class with code {cls.code!r}"
        raise TypeError(
            f"{cls.__name__} is {what} and privatizes nothing: a curator's code must be Mechanism.LAPLACE or "
            "Mechanism.BERNOULLI; use CTL, CTB, CTL-S or CTB-S (make_curator(name, epsilon))"
        )


_CURATOR_CODES = (Mechanism.LAPLACE, Mechanism.BERNOULLI)


@dataclass(frozen=True)
class Curator:
    """A local privacy mechanism with a known privacy level ``epsilon``.

    Use ``privatize(rewards, rng)`` to privatize a vector of rewards with a ``numpy.random.Generator``;
    ``output_mean(mu)`` is the closed-form mean of the response on an arm of mean ``mu``."""

    epsilon: float
    name = "curator"
    code = Mechanism.NONE
    use_sigmoid = False
    bounded = True

    def __post_init__(self):
        _curator_code(type(self))
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon))

    @property
    def noise_kind(self) -> str:
        return {Mechanism.LAPLACE: "laplace", Mechanism.BERNOULLI: "uniform"}[self.code]

    @property
    def laplace_scale(self) -> float:
        return 1.0 / self.epsilon

    @property
    def exp_eps(self) -> float:
        r""":math:`e^\epsilon`, ``inf`` beyond 709.78 (:func:`exp_or_inf`; the kernel ``ctb_probability`` takes the
        limit)."""
        return exp_or_inf(self.epsilon)

    def _mapped(self, x, name: str = "x") -> np.ndarray:
        """Inputs checked against the curator's domain ([0, 1], or every real for the Sigmoid curators) and
        mapped to what the noise is added to: u = x, or s(x) for CTL-S and CTB-S."""
        if not self.bounded:
            return sigmoid(check_finite_array(name, x))
        return check_unit_interval(name, x)

    def _loss_inputs(self, inputs):
        """u of :meth:`privacy_loss`'s inputs (default: the two ends 0 and 1 of the curator's range of u)."""
        if inputs is None:
            return np.array([0.0, 1.0])
        u = self._mapped(inputs, "inputs")
        if u.size == 0:
            raise ValueError("inputs must hold at least one number")
        return u.ravel()

    def exact_epsilon(self) -> float:
        r"""The exact worst-case privacy loss over the whole domain: :meth:`privacy_loss` between u = 0 and
        u = 1, ε for every curator (Lemmas 2, 5, 8, 9; for CTL-S and CTB-S the supremum, approached as
        r → ±∞), up to the rounding of the Laplace scale 1/ε."""
        return self.privacy_loss(None)

    def draw_noise(self, rng: np.random.Generator, size, *, limits=None) -> np.ndarray:
        """The curator's own randomness: one draw per response (``size`` an integer >= 0 or a shape, each at most 2**53;
        16 bytes and 40 ns a draw within ``limits``, default ``Limits()``: 10**12 raised MemoryError, -1 NumPy's)."""
        rng, (size, count) = check_rng("rng", rng), check_sample_size(size)
        work = f"size={one_line(size)}, {count:.3g} draws"
        check_limits("draw_noise", work, 4e-8 * count, 16.0 * count, limits, scale_out="Or draw in several calls.")
        return draw_noise(self.code, rng, size)

    @classmethod
    def respond_to_users(cls, rewards, epsilons, rng: np.random.Generator):
        r"""Heterogeneous privacy: user i's reward privatized at its own level ``epsilons[i]`` >= 0.

        Returns ``(epsilons, responses)``, the pair (eps_t, x_t) the agent sees. A user at eps_t = 0 releases nothing
        useful: CTB answers a fair coin (its formula at eps = 0), CTL answers the constant 1/2 (the Laplace scale 1/eps
        would be infinite); both are 0-DP, finite, and discarded by the agents, which keep only eps_t >= eps_min > 0.

        A positive level below :data:`~ldpcode._validate.EPSILON_FLOOR` (1e-9) is answered as eps_t = 0 (1/eps_t
        would overflow near 1e-308 and CTB's :math:`e^{\epsilon_t}` rounds to 1 below 1.1e-16): a 0-DP answer is
        eps_t-DP for every eps_t >= 0, so the user's privacy holds, and the agents discard such users anyway (their
        eps_min is at least the floor). Large levels are exact: CTB's :math:`P\{1\}` tends to r (the kernel
        ``ctb_probability``), with no overflow."""
        _curator_code(cls)
        rewards = check_unit_interval("rewards", rewards) if cls.bounded else check_finite_array("rewards", rewards)
        eps = check_array("epsilons", epsilons, low=0)
        if eps.shape != rewards.shape:
            raise ValueError(f"epsilons must have the shape of rewards, {rewards.shape}, got {eps.shape}")
        check_rng("rng", rng)
        noise = draw_noise(cls.code, rng, rewards.shape).ravel()
        r, e = rewards.ravel(), eps.ravel()
        live = e >= EPSILON_FLOOR
        scale = np.where(live, 1.0 / np.where(live, e, 1.0), 0.0)
        code = int(cls.code)  # a plain int: numba types an IntEnum argument 4 times slower, on every call
        out = np.array(
            [
                respond(code, cls.use_sigmoid, r[i], noise[i], scale[i], exp_or_inf(e[i]) if live[i] else 1.0)
                for i in range(r.size)
            ]
        )
        if cls.code == Mechanism.LAPLACE:
            out = np.where(live, out, 0.5)
        return eps, out.reshape(rewards.shape)

    def privatize(self, rewards, rng: np.random.Generator) -> np.ndarray:
        """Private responses for an array of rewards (one independent draw per reward). Refuses rewards outside
        [0, 1] (CTL, CTB) or not finite (CTL-S, CTB-S) with ValueError, and non-numbers or an ``rng`` that is not a
        ``numpy.random.Generator`` with TypeError."""
        if self.bounded:
            rewards = check_unit_interval("rewards", rewards)
        else:
            rewards = check_finite_array("rewards", rewards)
        noise = draw_noise(self.code, check_rng("rng", rng), rewards.shape)  # the rewards' shape, already in memory
        return _respond_array(
            self.code, self.use_sigmoid, rewards.ravel(), noise.ravel(), self.laplace_scale, self.exp_eps
        ).reshape(rewards.shape)

    def __repr__(self) -> str:
        return f"{self.name}(epsilon={self.epsilon:g})"


@njit(cache=True)
def _respond_array(code, use_sigmoid, rewards, noise, laplace_scale, exp_eps):
    out = np.empty_like(rewards)
    for i in range(rewards.shape[0]):
        out[i] = respond(code, use_sigmoid, rewards[i], noise[i], laplace_scale, exp_eps)
    return out


def draw_noise(code: int, rng: np.random.Generator, size) -> np.ndarray:
    """Draws for mechanism ``code``: standard Laplace for LAPLACE, uniforms for BERNOULLI, zeros for NONE.

    Laplace draws are exactly (bit for bit) ``rng.laplace(0.0, 1.0, size)``, made faster: NumPy's
    sampler turns one uniform U of the stream into -log(2 - 2U) (U >= 1/2) or log(2U) (0 < U < 1/2), and
    draws again when U = 0; :func:`_laplace_from_uniform` applies the same formulas to ``rng.random``'s
    uniforms in compiled code. In the (probability 2⁻⁵³ per draw) case of a zero, the generator is
    rewound and NumPy's own sampler used, so the stream never differs (tests/mechanisms/test_mechanisms.py).

    Internal kernel: no checks (an unknown ``code`` gave zeros; the engines call it once a chunk); use
    :meth:`Curator.draw_noise`.
    """
    if code == Mechanism.LAPLACE:
        state = rng.bit_generator.state
        u = rng.random(size)
        if u.all():
            return _laplace_from_uniform(u.ravel()).reshape(u.shape)
        rng.bit_generator.state = state
        return rng.laplace(0.0, 1.0, size)
    if code == Mechanism.BERNOULLI:
        return rng.random(size)
    return np.zeros(size)


@njit(cache=True, nogil=True)
def _laplace_from_uniform(u):
    """Standard Laplace draws from uniforms in (0, 1): NumPy's ``random_laplace`` formula, element-wise."""
    out = np.empty_like(u)
    for i in range(u.shape[0]):
        x = u[i]
        out[i] = -math.log(2.0 - x - x) if x >= 0.5 else math.log(x + x)
    return out


class CTL(Curator):
    """Curator 1, Convert-to-Laplace: :math:`M_L(r) = r + \\mathrm{Laplace}(1/\\epsilon)`; ε-DP on [0, 1] (Lemma 2)."""

    name = "CTL"
    code = Mechanism.LAPLACE

    def output_mean(self, mu):
        """The Laplace noise has mean 0, so the response mean is the reward mean ``mu`` (in [0, 1], the
        curator's domain; anything else is refused)."""
        return check_unit_interval("mu", mu) * 1.0

    def output_law(self, x):
        """The law of the response to reward ``x``: ``scipy.stats.laplace(loc=u, scale=1/eps)``, u = x (or s(x)
        for CTL-S); frozen, arrays broadcast."""
        from scipy.stats import laplace

        return laplace(loc=self._mapped(x), scale=self.laplace_scale)

    def privacy_loss(self, inputs=None) -> float:
        r"""The exact privacy loss over ``inputs`` (default: u = 0 and 1): Laplace laws of one scale b = 1/ε,
        so :math:`\sup_y|\log f(y\mid u)/f(y\mid u')| = (\max u - \min u)/b` (Lemmas 2 and 8)."""
        u = self._loss_inputs(inputs)
        return float((u.max() - u.min()) / self.laplace_scale)

    def density(self, x, r):
        """Density of the response at ``x`` given reward ``r`` (for the privacy-ratio check of Lemma 2): Laplace around
        u = r (in [0, 1]) or, for CTL-S, u = s(r), as :meth:`output_law` (CTL-S's density was taken around r itself)."""
        b, x, u = self.laplace_scale, check_finite_array("x", x), self._mapped(r, "r")
        check_same_shape(x=x, r=u)  # NumPy's "operands could not be broadcast together" named neither
        return np.exp(-np.abs(x - u) / b) / (2 * b)


class CTB(Curator):
    """Curator 3, Convert-to-Bernoulli: a Bernoulli response; ε-DP on [0, 1] with mean of Lemma 5."""

    name = "CTB"
    code = Mechanism.BERNOULLI

    def output_mean(self, mu):
        r"""Lemma 5: the mean of the response on an arm of mean ``mu`` in [0, 1] (:func:`ctb_output_mean`),
        :math:`\tfrac12 + (2\mu - 1)\frac{e^\epsilon - 1}{2(e^\epsilon + 1)}`; ``mu`` outside [0, 1] raises
        ValueError."""
        return ctb_output_mean(mu, self.epsilon)

    def probability_one(self, r):
        r""":math:`P\{M_B(r) = 1\} = (re^\epsilon + 1 - r)/(1 + e^\epsilon)` for ``r`` in [0, 1], exact (used for the
        privacy ratio of Lemma 5); ``r`` outside [0, 1] raises ValueError."""
        r = check_unit_interval("r", r)
        return ctb_probability(r, self.exp_eps)

    def output_law(self, x):
        """The law of the response to reward ``x``: ``scipy.stats.bernoulli(p)``, p = :meth:`probability_one`
        (Curator 3; for CTB-S at s(x)); frozen, arrays broadcast."""
        from scipy.stats import bernoulli

        return bernoulli(ctb_probability(self._mapped(x), self.exp_eps))

    def privacy_loss(self, inputs=None) -> float:
        """The exact privacy loss over ``inputs`` (default: u = 0 and 1, where it is ε): :func:`ctb_privacy_loss`
        of u = x (or s(x) for CTB-S)."""
        return ctb_privacy_loss(self._loss_inputs(inputs), self.epsilon)

    def unbias(self, responses):
        r"""The map g of the extended version (Section 3.2), the kernel ``unbias``, applied to ``responses`` in [0, 1]
        (answers, or means of answers): :math:`E[g(M_B(R))] = E[R]` (for CTB-S, :math:`E[s(R)]`)."""
        y = np.asarray(check_unit_interval("responses", responses), dtype=float)
        return unbias.py_func(y, self.epsilon)


class CTLS(CTL):
    """Curator 5, CTL-S: :math:`M_{LS}(r) = s(r) + \\mathrm{Laplace}(1/\\epsilon)` for any real reward (Lemma 8)."""

    name = "CTL-S"
    use_sigmoid = True
    bounded = False

    def output_mean(self, mu, sigma=1.0):
        r"""Mean response on a Gaussian arm :math:`N(\mu, \sigma^2)`, μ any finite number: :math:`E[s(R)]` (Laplace
        noise has mean 0)."""
        return gaussian_sigmoid_mean(mu, sigma)


class CTBS(CTB):
    """Curator 6, CTB-S: :math:`M_{BS}(r) = M_B(s(r))` for any real reward (Lemma 9)."""

    name = "CTB-S"
    use_sigmoid = True
    bounded = False

    def output_mean(self, mu, sigma=1.0):
        r"""Mean response on a Gaussian arm :math:`N(\mu, \sigma^2)`: Lemma 5 applied to :math:`E[s(R)]`."""
        return ctb_output_mean(gaussian_sigmoid_mean(mu, sigma), self.epsilon)

    def probability_one(self, r):
        r""":math:`P\{M_{BS}(r) = 1\} = P\{M_B(s(r)) = 1\}` for any finite real ``r`` (Curator 6, Lemma 9): Curator 3's
        probability at the Sigmoid :math:`s(r)`, exact; a non-finite ``r`` raises ValueError."""
        return ctb_probability(sigmoid(check_finite_array("r", r)), self.exp_eps)


CURATORS = {"CTL": CTL, "CTB": CTB, "CTL-S": CTLS, "CTB-S": CTBS}


def make_curator(name: str, epsilon: float) -> Curator:
    """A curator by the paper's name: ``CTL``, ``CTB``, ``CTL-S`` or ``CTB-S``, at level ``epsilon``. Refuses another
    name (ValueError; TypeError if not a string) and an ``epsilon`` that is not a finite number ≥
    :data:`ldpcode.EPSILON_FLOOR` (ValueError; TypeError if not a real number)."""
    return CURATORS[check_choice("curator", name, CURATORS)](epsilon)
