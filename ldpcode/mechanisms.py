r"""The curators of Ren et al. (2020): each privatizes one user's reward before the agent sees it.

======================  ===================================================  =====================
curator                 response                                             paper
======================  ===================================================  =====================
``CTL(eps)``            :math:`M_L(r) = r + L`, :math:`L\sim\mathrm{Laplace}(1/\epsilon)`      Curator 1, Lemma 2
``CTB(eps)``            :math:`M_B(r)\sim\mathrm{Bernoulli}\big(\tfrac{re^\epsilon+1-r}{1+e^\epsilon}\big)`  Curator 3, Lemma 5
``CTLS(eps)``           :math:`M_{LS}(r) = s(r) + L`                         Curator 5, Lemma 8
``CTBS(eps)``           :math:`M_{BS}(r) = M_B(s(r))`                        Curator 6, Lemma 9
======================  ===================================================  =====================

with the Sigmoid :math:`s(r) = (1+e^{-r})^{-1}`.

Every curator draws its randomness as one number per response, from a stream of its own
(``noise_kind``: standard Laplace draws for CTL, uniforms on [0, 1) for CTB), and turns the pair
(reward, noise draw) into a response with :func:`respond`. The compiled simulation engine calls the same
:func:`respond`, so the curator that the tests check is the curator the simulations use.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from ._validate import check_epsilon, check_finite_array, check_rng, check_unit_interval

# Mechanism codes shared with the compiled engine.
NONE, LAPLACE, BERNOULLI = 0, 1, 2


@njit(cache=True)
def sigmoid(r):
    r"""The Sigmoid of Section 3.2, :math:`s(r) = (1 + e^{-r})^{-1}` (scalar or array)."""
    return 1.0 / (1.0 + np.exp(-r))


@njit(cache=True)
def ctb_probability(r, exp_eps):
    r"""Curator 3's success probability :math:`(re^\epsilon + 1 - r)/(1 + e^\epsilon)`, given :math:`e^\epsilon`."""
    return (r * exp_eps + 1.0 - r) / (1.0 + exp_eps)


@njit(cache=True)
def respond(code, use_sigmoid, r, noise, laplace_scale, exp_eps):
    """One private response from reward ``r`` and the curator's own draw ``noise``.

    ``code`` is NONE (the reward itself, for non-private UCB1), LAPLACE (``noise`` is a standard
    Laplace draw, scaled by ``laplace_scale = 1/eps``) or BERNOULLI (``noise`` is uniform on [0, 1)).
    With ``use_sigmoid`` the reward is first mapped through :func:`sigmoid` (Curators 5 and 6).
    """
    if use_sigmoid:
        r = sigmoid(r)
    if code == LAPLACE:
        return r + noise * laplace_scale
    if code == BERNOULLI:
        return 1.0 if noise < ctb_probability(r, exp_eps) else 0.0
    return r


@njit(cache=True)
def bernoulli_scale(epsilon):
    r""":math:`(e^\epsilon + 1)/(e^\epsilon - 1) = \coth(\epsilon/2)`: how much CTB shrinks a gap (Lemma 5),
    and the spread of the unbiased values :func:`unbias` (extended version, Section 3.2)."""
    return 1.0 / np.tanh(0.5 * epsilon)


@njit(cache=True)
def unbias(x, epsilon):
    r"""The map g of the extended version (Section 3.2): :math:`g(1;\epsilon) = \tfrac12(1 + k)`,
    :math:`g(0;\epsilon) = \tfrac12(1 - k)`, :math:`k = (e^\epsilon+1)/(e^\epsilon-1)`, so that
    :math:`\mathbb{E}[g(M_B(R;\epsilon);\epsilon)] = \mathbb{E}[R]`. Written :math:`\tfrac12 + (x - \tfrac12)k`."""
    return unbias_scaled(x, bernoulli_scale(epsilon))


@njit(cache=True)
def unbias_scaled(x, k):
    """:func:`unbias` given k = :func:`bernoulli_scale` (eps) already computed (for engines that reuse it)."""
    return 0.5 + (x - 0.5) * k


def ctb_output_mean(mu, epsilon):
    r"""Lemma 5: the mean of CTB's response on an arm of mean :math:`\mu`,

    .. math:: \mu_{a,\epsilon} = \tfrac12 + (2\mu_a - 1)\,\frac{e^\epsilon - 1}{2(e^\epsilon + 1)}.
    """
    epsilon = check_epsilon(epsilon)
    mu = np.asarray(mu, dtype=float)
    return 0.5 + (2.0 * mu - 1.0) * math.expm1(epsilon) / (2.0 * (math.exp(epsilon) + 1.0))


def gaussian_sigmoid_mean(mu, sigma=1.0, order: int = 80):
    r""":math:`\mathbb{E}[s(\mu + \sigma Z)]` for :math:`Z\sim N(0,1)`, by Gauss-Hermite quadrature.

    The mean of the Sigmoid-mapped reward of a Gaussian arm: the quantity CTL-S and CTB-S see
    (Lemmas 7-9). 80 nodes give about 1e-15 accuracy for sigma <= 2.
    """
    x, w = np.polynomial.hermite_e.hermegauss(order)
    mu = np.asarray(mu, dtype=float)
    vals = 1.0 / (1.0 + np.exp(-(mu[..., None] + sigma * x)))
    return (vals * w).sum(axis=-1) / math.sqrt(2.0 * math.pi)


def discrete_sigmoid_mean(mu, values, probs):
    r""":math:`\mathbb{E}[s(\mu + Z)]` for a noise Z taking ``values`` with probabilities ``probs`` (exact sum).

    The discrete counterpart of :func:`gaussian_sigmoid_mean`, for Lemma 7 with non-Gaussian noise; e.g.
    Rademacher noise (values ±1, probabilities 1/2), which is sub-Gaussian with variance one. ``mu``
    broadcasts; ``values`` and ``probs`` are 1-d of the same length, ``probs`` non-negative summing to 1.
    """
    values = np.asarray(values, dtype=float)
    probs = np.asarray(probs, dtype=float)
    if values.ndim != 1 or values.shape != probs.shape or values.size == 0 or not np.isfinite(values).all():
        raise ValueError(f"values and probs must be 1-d of the same non-zero length with finite values, "
                         f"got shapes {values.shape} and {probs.shape}")
    if not np.isfinite(probs).all() or (probs < 0).any() or abs(probs.sum() - 1.0) > 1e-9:
        raise ValueError(f"probs must be non-negative and sum to 1, got {probs!r}")
    mu = check_finite_array("mu", mu)
    return (sigmoid(mu[..., None] + values) * probs).sum(axis=-1)


def laplace_sum_sf(lam, n, b):
    r"""Exact :math:`P\{Y_n > \lambda\}` for :math:`Y_n` the sum of n i.i.d. Laplace(b) variables.

    The quantity Lemma 3 bounds. :math:`Y_n = G_1 - G_2` with :math:`G_1, G_2` i.i.d. Gamma(n, b) (a
    Laplace(b) variable is the difference of two Exponential(b) ones). Conditioning on :math:`G_2` and
    using :math:`P\{G_1 > y\} = e^{-y/b}\sum_{i<n} (y/b)^i/i!` gives, for :math:`x = \lambda/b \ge 0`, the
    finite sum of positive terms

    .. math:: P\{Y_n > \lambda\} = e^{-x} \sum_{i=0}^{n-1}\sum_{j=0}^{i}
              \frac{x^{i-j}}{(i-j)!\,j!}\,\frac{(n-1+j)!}{(n-1)!\,2^{n+j}},

    evaluated in log space (so it stays accurate, to about 1e-13 relative, deep in the tail where Monte
    Carlo cannot reach), and :math:`1 - P\{Y_n > -\lambda\}` for :math:`\lambda < 0`. For n = 1 it is
    :math:`e^{-x}/2`, for n = 2 :math:`(2 + x)e^{-x}/4`.
    """
    from scipy.special import gammaln, logsumexp

    from ._validate import check_int, check_real

    n = check_int("n", n, minimum=1)
    b = check_real("b", b)
    if b <= 0:
        raise ValueError(f"b must be > 0, got {b!r}")
    lam = np.asarray(lam, dtype=float)
    if not np.isfinite(lam).all():
        raise ValueError("lam must contain only finite numbers")
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    keep = j <= i
    i, j = i[keep].astype(float), j[keep].astype(float)
    # log of (n-1+j)! / ((i-j)! j! (n-1)! 2^(n+j)), the coefficient of x^(i-j)
    coef = gammaln(n + j) - gammaln(i - j + 1) - gammaln(j + 1) - gammaln(n) - (n + j) * math.log(2.0)

    def upper(x):  # P{Y_n > b x} for x >= 0
        with np.errstate(divide="ignore"):
            powers = np.where(i == j, 0.0, (i - j) * math.log(x) if x > 0 else -np.inf)
        return math.exp(-x + logsumexp(coef + powers))

    x = lam.ravel() / b
    out = np.array([upper(v) if v >= 0 else 1.0 - upper(-v) for v in x])
    return out.reshape(lam.shape) if lam.ndim else float(out[0])


@dataclass(frozen=True)
class Curator:
    """A local privacy mechanism with a known privacy level ``epsilon``.

    Use ``privatize(rewards, rng)`` to privatize a vector of rewards with a ``numpy.random.Generator``;
    ``output_mean(mu)`` is the closed-form mean of the response on an arm of mean ``mu``.
    """

    epsilon: float
    name = "curator"
    code = NONE
    use_sigmoid = False
    bounded = True

    def __post_init__(self):
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon))

    @property
    def noise_kind(self) -> str:
        return {LAPLACE: "laplace", BERNOULLI: "uniform"}[self.code]

    @property
    def laplace_scale(self) -> float:
        return 1.0 / self.epsilon

    @property
    def exp_eps(self) -> float:
        return math.exp(self.epsilon)

    def draw_noise(self, rng: np.random.Generator, size) -> np.ndarray:
        """The curator's own randomness: one draw per response."""
        return draw_noise(self.code, rng, size)

    @classmethod
    def respond_to_users(cls, rewards, epsilons, rng: np.random.Generator):
        """Heterogeneous privacy: user i's reward privatized at its own level ``epsilons[i]`` >= 0.

        Returns ``(epsilons, responses)``, the pair (eps_t, x_t) the agent sees. A user at eps_t = 0
        releases nothing useful: CTB answers a fair coin (its formula at eps = 0), CTL answers the
        constant 1/2 (the Laplace scale 1/eps would be infinite); both are 0-DP, finite, and discarded by
        the agents, which keep only eps_t >= eps_min > 0.
        """
        rewards = check_unit_interval("rewards", rewards) if cls.bounded else check_finite_array("rewards", rewards)
        eps = np.asarray(epsilons, dtype=float)
        if eps.shape != rewards.shape:
            raise ValueError(f"epsilons must have the shape of rewards, {rewards.shape}, got {eps.shape}")
        if not np.isfinite(eps).all() or (eps < 0).any():
            raise ValueError("epsilons must be finite and >= 0")
        noise = draw_noise(cls.code, rng, rewards.shape).ravel()
        r, e = rewards.ravel(), eps.ravel()
        with np.errstate(divide="ignore", over="ignore"):
            scale = np.where(e > 0, 1.0 / np.where(e > 0, e, 1.0), 0.0)
            out = np.array([respond(cls.code, cls.use_sigmoid, r[i], noise[i], scale[i], math.exp(min(e[i], 700.0)))
                            for i in range(r.size)])
        if cls.code == LAPLACE:
            out = np.where(e > 0, out, 0.5)
        return eps, out.reshape(rewards.shape)

    def privatize(self, rewards, rng: np.random.Generator) -> np.ndarray:
        """Private responses for an array of rewards (one independent draw per reward)."""
        if self.bounded:
            rewards = check_unit_interval("rewards", rewards)
        else:
            rewards = check_finite_array("rewards", rewards)
        noise = self.draw_noise(check_rng("rng", rng), rewards.shape)
        return _respond_array(self.code, self.use_sigmoid, rewards.ravel(), noise.ravel(),
                              self.laplace_scale, self.exp_eps).reshape(rewards.shape)

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
    uniforms in compiled code. In the (probability 2^-53 per draw) case of a zero, the generator is
    rewound and NumPy's own sampler used, so the stream never differs (tests/test_mechanisms.py).
    """
    if code == LAPLACE:
        state = rng.bit_generator.state
        u = rng.random(size)
        if u.all():
            return _laplace_from_uniform(u.ravel()).reshape(u.shape)
        rng.bit_generator.state = state
        return rng.laplace(0.0, 1.0, size)
    if code == BERNOULLI:
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
    code = LAPLACE

    def output_mean(self, mu):
        """The Laplace noise has mean 0, so the response mean is the reward mean."""
        return np.asarray(mu, dtype=float) * 1.0

    def density(self, x, r):
        """Density of the response at ``x`` given reward ``r`` (for the privacy-ratio check of Lemma 2)."""
        b = self.laplace_scale
        return np.exp(-np.abs(np.asarray(x) - r) / b) / (2 * b)


class CTB(Curator):
    """Curator 3, Convert-to-Bernoulli: a Bernoulli response; ε-DP on [0, 1] with mean of Lemma 5."""

    name = "CTB"
    code = BERNOULLI

    def output_mean(self, mu):
        return ctb_output_mean(mu, self.epsilon)

    def probability_one(self, r):
        """P{M_B(r) = 1} (exact; used for the privacy ratio of Lemma 5)."""
        r = check_unit_interval("r", r)
        return ctb_probability(r, self.exp_eps)


class CTLS(CTL):
    """Curator 5, CTL-S: :math:`M_{LS}(r) = s(r) + \\mathrm{Laplace}(1/\\epsilon)` for any real reward (Lemma 8)."""

    name = "CTL-S"
    use_sigmoid = True
    bounded = False

    def output_mean(self, mu, sigma=1.0):
        """Mean response on a Gaussian arm N(mu, sigma^2): E[s(R)] (Laplace noise has mean 0)."""
        return gaussian_sigmoid_mean(mu, sigma)


class CTBS(CTB):
    """Curator 6, CTB-S: :math:`M_{BS}(r) = M_B(s(r))` for any real reward (Lemma 9)."""

    name = "CTB-S"
    use_sigmoid = True
    bounded = False

    def output_mean(self, mu, sigma=1.0):
        """Mean response on a Gaussian arm N(mu, sigma^2): Lemma 5 applied to E[s(R)]."""
        return ctb_output_mean(gaussian_sigmoid_mean(mu, sigma), self.epsilon)

    def probability_one(self, r):
        return ctb_probability(sigmoid(check_finite_array("r", r)), self.exp_eps)


CURATORS = {"CTL": CTL, "CTB": CTB, "CTL-S": CTLS, "CTB-S": CTBS}


def make_curator(name: str, epsilon: float) -> Curator:
    """A curator by the paper's name: ``CTL``, ``CTB``, ``CTL-S`` or ``CTB-S``."""
    from ._validate import check_choice

    return CURATORS[check_choice("curator", name, CURATORS)](epsilon)


# ---------------------------------------------------------------------------------------------------
# Global DP (Azize and Basu 2022): the trusted curator sees raw rewards and releases private statistics.
# ---------------------------------------------------------------------------------------------------

def laplace_mean(total, n, epsilon, draw):
    r"""Lemma 1 of Azize and Basu (2022): the private mean of n rewards in [0, 1] with sum ``total``,

    .. math:: f^\epsilon = \frac{\text{total}}{n} + \mathrm{Lap}\Big(\frac{1}{n\epsilon}\Big),

    given a standard Laplace ``draw`` (Theorem 1, the Laplace mechanism: the mean of n values in [0, 1]
    has sensitivity 1/n). Broadcasts; no checks (the policies validate their inputs once).
    """
    return total / n + draw / (epsilon * n)


def tree_depth(horizon: int) -> int:
    """Levels of the binary tree mechanism over a stream of at most ``horizon`` items: floor(log2 T) + 1,
    so that every count n <= T is a sum of distinct powers 2^j with j < depth."""
    return int(horizon).bit_length()


@njit(cache=True, nogil=True)
def tree_push(nodes, n, draw, scale):
    r"""The binary (tree) mechanism of Dwork et al. (2010) and Chan et al. (2011), one item at a time.

    ``nodes[j]`` holds the Laplace noise of the level-j node in use by the prefix of ``n - 1`` items; the
    prefix of n items uses the nodes of the set bits of n (node (j, n >> j) for each set bit j). Going from
    n - 1 to n sets bit j0 = (trailing zeros of n) and clears the bits below it, so exactly one node is new:
    it gets ``scale * draw``. Returns the total noise of the prefix of n items (sum over the set bits, in
    increasing j). Each item lies in at most ``len(nodes)`` nodes, so ``scale = depth / epsilon`` makes the
    stream of private prefix sums epsilon-DP.
    """
    j0 = 0
    while (n >> j0) & 1 == 0:
        j0 += 1
    for j in range(j0):
        nodes[j] = 0.0
    nodes[j0] = scale * draw
    total = 0.0
    for j in range(nodes.shape[0]):
        if (n >> j) & 1:
            total += nodes[j]
    return total


# ---------------------------------------------------------------------------------------------------
# (epsilon, delta)-LDP (Zheng et al. 2020): the Gaussian mechanism and its epsilon-LDP Laplace counterpart
# ---------------------------------------------------------------------------------------------------

def _check_sensitivity(value, name: str = "sensitivity") -> float:
    from ._validate import check_real

    value = check_real(name, value)
    if value <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return value


@dataclass(frozen=True, init=False)
class GaussianMechanism:
    r"""The Gaussian mechanism (Dwork and Roth 2014, Theorem A.1), the curator of Zheng et al. (2020):
    :math:`x \mapsto x + N(0, \sigma^2 I)` with

    .. math:: \sigma = \frac{\Delta\sqrt{2\log(1.25/\delta)}}{\epsilon},

    Δ the L2 sensitivity of x. Dwork and Roth prove (ε, δ)-DP for ε < 1; for ε >= 1 the same σ is used
    by the paper, and ``ldpcode.audit`` shows what it gives. ``privatize(values, rng)`` adds the noise to
    every entry (scalars or vectors, any shape).
    """

    epsilon: float
    delta: float
    sensitivity: float
    sigma: float

    def __init__(self, epsilon, delta, sensitivity=1.0):
        from ._validate import check_real

        eps = check_epsilon(epsilon)
        d = check_real("delta", delta)
        if not 0 < d < 1:
            raise ValueError(f"delta must be in (0, 1), got {delta!r}")
        s = _check_sensitivity(sensitivity)
        object.__setattr__(self, "epsilon", eps)
        object.__setattr__(self, "delta", d)
        object.__setattr__(self, "sensitivity", s)
        object.__setattr__(self, "sigma", s * math.sqrt(2.0 * math.log(1.25 / d)) / eps)

    def privatize(self, values, rng: np.random.Generator) -> np.ndarray:
        x = check_finite_array("values", values)
        return x + self.sigma * check_rng("rng", rng).standard_normal(x.shape)


@dataclass(frozen=True, init=False)
class LaplaceMechanism:
    r"""The ε-DP Laplace mechanism (Dwork and Roth 2014, Theorem 3.6): :math:`x \mapsto x + \mathrm{Lap}(\Delta_1/\epsilon)`
    entrywise, Δ₁ the L1 sensitivity of x: the pure-ε counterpart of :class:`GaussianMechanism`."""

    epsilon: float
    sensitivity: float
    scale: float

    def __init__(self, epsilon, sensitivity=1.0):
        eps = check_epsilon(epsilon)
        s = _check_sensitivity(sensitivity)
        object.__setattr__(self, "epsilon", eps)
        object.__setattr__(self, "sensitivity", s)
        object.__setattr__(self, "scale", s / eps)

    def privatize(self, values, rng: np.random.Generator) -> np.ndarray:
        x = check_finite_array("values", values)
        return x + check_rng("rng", rng).laplace(0.0, self.scale, x.shape)
