r"""Vetted noise, for curators that may meet real users' data.

The curators of :mod:`ldpcode.mechanisms` draw their noise with NumPy's textbook floating-point samplers.
Their laws are right up to rounding, which is all the simulations need, but the rounding itself leaks:
Mironov (2012) showed that the doubles ``r + b * log(2U)`` can reach depend on ``r``, so that one output
of CTL often identifies its input (the appendix reproduces the attack with
:func:`ldpcode.audit.laplace_float_reachable`). This module gives the same curators with noise that has
no such hole: every random choice is made with integer arithmetic on uniform random bits, so the law of
the output is exactly the one the privacy proof is about.

**Noise sources.** A source adds discrete Laplace noise to integers, :meth:`release` ``(values, scale,
bits)`` returning :math:`n_i + Y_i` with :math:`Y_i \sim \mathrm{DLap}(\tau)`,
:math:`P\{Y = y\} = \frac{1 - q}{1 + q} q^{|y|}`, :math:`q = e^{-1/\tau}`, for a rational scale τ:

* ``"exact"`` (:class:`ExactDiscreteLaplace`): the book's own transcription of Algorithms 1 and 2 of
  Canonne, Kamath and Steinke (2020, "The Discrete Gaussian for Differential Privacy", Section 5.2):
  Bernoulli(exp(-γ)) for rational γ from Bernoulli(γ/k) coins, a geometric from those, and the discrete
  Laplace from the geometric, with Python integers only. Its bits come from a NumPy ``Generator`` (seeded:
  reproducible, for science and tests; PCG64 is not a cryptographic generator) or, with ``rng=None``,
  from the operating system (:mod:`secrets`), which is what real data needs.
* ``"opendp"`` (:class:`OpenDPDiscreteLaplace`): OpenDP's ``make_laplace`` on 64-bit integers (the same
  CKS sampler, in Rust, on the operating system's random bits; it cannot be seeded). OpenDP marks it
  ``contrib`` (a proof document exists; the library's own review is not finished).

**Curators** (:func:`make_curator`): the four curators of Ren et al. with the interface of
:mod:`ldpcode.mechanisms` (``epsilon``, ``privatize(rewards, rng)``, ``output_mean``), plus the exact law
(``pmf``, ``log_pmf``), what an attacker who knows the sampler can rule out (``reachable``) and the exact
privacy loss over given inputs (``exact_loss``, which :func:`ldpcode.audit.curator_audit` reports).

* :class:`VettedCTL` (Curator 1, Lemma 2): the reward r ∈ [0, 1] is rounded at random to the grid
  :math:`\gamma = 2^{-k}` (to :math:`n = \lfloor r/\gamma\rfloor + 1` with probability
  :math:`r/\gamma - \lfloor r/\gamma\rfloor`, else :math:`\lfloor r/\gamma\rfloor`: exact, unbiased, and
  :math:`n \in \{0, \dots, 2^k\}`), and the curator releases :math:`\gamma\,(n + Y)`,
  :math:`Y\sim\mathrm{DLap}(2^k/\epsilon)`. **Guarantee: ε-LDP on [0, 1], exactly**, for the ε asked (the
  double ε is used as the rational it is): for any n, n' in :math:`\{0, \dots, 2^k\}` and any integer x,
  :math:`P\{n + Y = x\} \le e^{|n - n'|\epsilon/2^k} P\{n' + Y = x\} \le e^\epsilon P\{n' + Y = x\}`, the
  randomized rounding is a mixture over such n (so the ratio bound carries over), and turning
  :math:`n + Y` into a double is post-processing. **Price**: the outputs lie on the grid γ; the mean is r
  exactly (``output_mean(mu) = mu``, as for CTL); the variance is
  :math:`\gamma^2 (2q/(1-q)^2 + p(1-p))` with :math:`q = e^{-\epsilon\gamma}` and p the rounding
  probability, at most :math:`2/\epsilon^2 + \gamma^2/4` (Laplace(1/ε) has :math:`2/\epsilon^2`).
* :class:`VettedCTB` (Curator 3, Lemma 5): r is turned into the bit :math:`B\sim\mathrm{Bernoulli}(r)`
  exactly, and B is kept with probability :math:`e^\epsilon/(1 + e^\epsilon)`, else flipped, from
  exact coins (below). The answer is 1 with probability :math:`(re^\epsilon + 1 - r)/(1 + e^\epsilon)`,
  Lemma 5's law exactly: **ε-LDP on [0, 1], exactly, at every ε** (NumPy's CTB loses it beyond
  ε = 53 ln 2 ≈ 36.7, where :math:`1 + e^\epsilon` rounds to :math:`e^\epsilon`). **Price**: none.
* :class:`VettedCTLS`, :class:`VettedCTBS` (Curators 5 and 6, Lemmas 8 and 9): the same after the Sigmoid
  (a deterministic map into [0, 1], so the guarantee holds for every real reward).

**Range of the outputs, and where each source's law holds.** n + Y is an integer with no bound: every
integer has positive probability, and :math:`|Y| \ge 50\tau` has probability :math:`2q^{50\tau}/(1+q) < 2e^{-50}
\approx 3.9\cdot 10^{-22}` (:data:`TAIL_SCALES` = 50), so CTL's responses lie in :math:`[-50/\epsilon,
1 + 50/\epsilon]` (τγ = 1/ε) but for that probability: up to ±5e10 at ε = 1e-9.

* *The double.* The response is ``ldexp(float(n + Y), -k)``, exactly γ(n + Y) while :math:`|n + Y| \le 2^{53}`,
  i.e. for responses :math:`|x| \le 2^{53-k}` (8.6e9 at k = 20, 8192 at k = 40). Beyond, ``float`` rounds n + Y
  to the nearest double (ties to even: a multiple of :math:`2^{j-52}` when :math:`2^j \le |n + Y| < 2^{j+1}`).
  That is post-processing, so the guarantee holds; the mean and the standard deviation move by at most
  :math:`2^{-53}\sqrt{E(n+Y)^2}` grid steps, 1.1e-16 of the noise's own scale; ``reachable`` and ``privacy_loss``
  are unchanged (every integer that rounds to a double lies beyond the rounding points a, a + 1, where the
  log-ratio of two inputs is constant); and ``pmf``/``log_pmf`` give the probability of the double itself, summed
  over the integers that round to it, so no number is silently wrong. Such responses have probability above
  :math:`e^{-50}` only when :math:`2^k + 50\tau > 2^{53}`, i.e. ε < 50·2^k/(2^53 - 2^k): 5.8e-9 at k = 20,
  6.1e-3 at k = 40. At ε = 1e-9 and k = 40 (τ = 1.1e21) nearly every response is rounded.
* ``"exact"`` works on Python integers, which have no bound: its law holds at every accepted ε and ``grid_bits``.
* ``"opendp"`` adds the noise in big integers and casts the sum back to ``i64`` with saturation (OpenDP's
  ``then_saturating_cast``, ``rust/src/measurements/noise/nature/integer``), so n + Y is clamped to
  :math:`[-2^{63}, 2^{63} - 1]`. The clamp is post-processing (the guarantee holds), but the law is no longer the
  discrete Laplace one once it bites: at ε = 1e-7 and k = 40, 44 % of the outputs sat at ±2^23, with variance 4.1e13
  against the law's 2.0e14. With n <= 2^k it bites with probability :math:`P\{Y \ge 2^{63} - n\} +
  P\{Y \le -2^{63} - 1 - n\} < 2e^{-(2^{63} - 2^k)/\tau'}`, τ' >= τ the scale OpenDP is given, so the curator
  refuses at construction every setting with :math:`2^k + 50\tau' > 2^{63}` (where that bound passes
  :math:`2e^{-50}`): ε below 50·2^k/(2^63 - 2^k), 5.96e-6 at k = 40, 1.8e-10 at k = 25 (never at the default
  k = 20, where it is 5.7e-12, below the floor 1e-9). The message names the smallest ε at that ``grid_bits``,
  the largest ``grid_bits`` at that ε, and ``source="exact"``, which has no clamp.

Every guarantee assumes uniform random bits. The samplers are not constant-time (the loops run a random
number of times, and the rounding draws as many bits as r has binary digits); a curator running on the
user's own device, as local DP intends, shows its timing to no one.

The snapping mechanism (Mironov 2012, Section 5.2) is the other known fix: clamp to [-B, B], add
:math:`\lambda\,S\ln U^*` with a correctly rounded logarithm, round to the power of two
:math:`\Lambda \ge \lambda` and clamp again. It needs a correctly rounded logarithm and only reaches
:math:`(1/\lambda + 2^{-49}B/\lambda)`-DP for sensitivity 1 and :math:`\lambda < B < 2^{46}\lambda`
(Theorem 1 there), slightly more than ε, so the book uses the discrete sampler, which reaches ε exactly
at no cost in accuracy.

**Layout.** The integer noise (the random bits :class:`Bits` and :func:`make_bits`; the exact samplers
:func:`bernoulli_dyadic`, :func:`bernoulli_exp`, :func:`discrete_laplace`, :func:`discrete_laplace_log_pmf` and
:func:`discrete_laplace_variance`; the sources :class:`ExactDiscreteLaplace`, :class:`OpenDPDiscreteLaplace`,
:data:`SOURCES` and :func:`make_source`, with :data:`TAIL_SCALES` and :data:`OPENDP_INT_LIMIT`) is written in the
private module ``ldpcode._vetted_noise`` and is part of this module's interface (imported here, in ``__all__``);
this module holds the curators. The curators look those names up here, so a test that monkeypatches
``ldpcode.vetted.<name>`` changes what the curators call; what the samplers and sources call among themselves is
patched in ``ldpcode._vetted_noise``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ._validate import check_choice, check_epsilon, check_finite_array, check_int, check_unit_interval, one_line
from ._vetted_noise import (
    OPENDP_INT_LIMIT,
    SOURCES,
    TAIL_SCALES,
    Bits,
    ExactDiscreteLaplace,
    OpenDPDiscreteLaplace,
    bernoulli_dyadic,
    bernoulli_exp,
    discrete_laplace,
    discrete_laplace_log_pmf,
    discrete_laplace_variance,
    make_bits,
    make_source,
)

DEFAULT_GRID_BITS = 20  # grid 2^-20 ≈ 1e-6 for the Laplace curators
MAX_GRID_BITS = 40  # grid 2^-40 ≈ 9.1e-13; n + Y may pass 2^53 at small eps (module docstring, "Range")

# The interface, in the order of the API page: the noise of ldpcode._vetted_noise, then the curators.
__all__ = [
    "DEFAULT_GRID_BITS",
    "MAX_GRID_BITS",
    "TAIL_SCALES",
    "OPENDP_INT_LIMIT",
    "Bits",
    "make_bits",
    "bernoulli_dyadic",
    "bernoulli_exp",
    "discrete_laplace",
    "discrete_laplace_log_pmf",
    "discrete_laplace_variance",
    "ExactDiscreteLaplace",
    "OpenDPDiscreteLaplace",
    "SOURCES",
    "make_source",
    "VettedCTL",
    "VettedCTLS",
    "VettedCTB",
    "VettedCTBS",
    "VETTED_CURATORS",
    "make_curator",
]


# ---------------------------------------------------------------------------------------------------
# Curators
# ---------------------------------------------------------------------------------------------------


def _round_randomly(z: float, bits: Bits) -> int:
    """⌊z⌋ + Bernoulli(z - ⌊z⌋), exactly (z a double >= 0): the unbiased randomized rounding of z."""
    fl = math.floor(z)
    return int(fl) + bernoulli_dyadic(z - fl, bits)


def _check_grid_bits(grid_bits) -> int:
    k = check_int("grid_bits", grid_bits, minimum=0)
    if k > MAX_GRID_BITS:
        raise ValueError(f"grid_bits must be an integer in [0, {MAX_GRID_BITS}] (the grid 2^-grid_bits), got {k}")
    return k


@dataclass(frozen=True, init=False)
class VettedCTL:
    r"""Curator 1 (CTL, Lemma 2 of Ren et al.) with exact discrete Laplace noise on the grid
    :math:`2^{-k}`, ``k = grid_bits``: ε-LDP on [0, 1] exactly (see the module's docstring for the proof,
    the guarantee and the price). ``privatize(rewards, rng=None)``: ``rng`` None draws the operating
    system's bits (for real data), a ``Generator`` or a seed reproducible ones; the source ``"opendp"``
    draws its own and refuses a seed. Rewards outside [0, 1] are refused, as CTL refuses them.

    Every ε >= 1e-9 and ``grid_bits`` in [0, 40] is accepted with the source ``"exact"``; ``"opendp"`` refuses
    the settings where its clamp to ``i64`` would change the law, :math:`2^k + 50\tau' > 2^{63}` (ε below
    5.96e-6 at k = 40). The responses lie in :math:`[-50/\epsilon, 1 + 50/\epsilon]` but for a probability
    below :math:`2e^{-50}`, and are the exact γ(n + Y) while :math:`|x| \le 2^{53-k}`; beyond, the nearest
    double to it, which :meth:`log_pmf` accounts for (module docstring, "Range")."""

    epsilon: float
    grid_bits: int
    source: object
    name = "CTL (vetted)"
    use_sigmoid = False

    def __init__(self, epsilon, *, source="exact", grid_bits=DEFAULT_GRID_BITS):
        eps = check_epsilon(epsilon)
        k = _check_grid_bits(grid_bits)
        src = make_source(source)
        object.__setattr__(self, "epsilon", eps)
        object.__setattr__(self, "grid_bits", k)
        object.__setattr__(self, "source", src)
        src.check_range(eps, k)
        if isinstance(src, OpenDPDiscreteLaplace) and src.epsilon_for(self.scale, 2**k) > eps:
            raise ValueError(
                f"epsilon {eps!r}: OpenDP certifies {src.epsilon_for(self.scale, 2**k)!r} at "
                f"grid_bits={k}, more than asked"
            )

    @property
    def grid(self) -> float:
        """γ = 2^-k, the spacing of the outputs."""
        return math.ldexp(1.0, -self.grid_bits)

    @property
    def scale(self) -> Fraction:
        """τ = 2^k / ε, the discrete Laplace scale in grid steps (exact, the double ε as a rational)."""
        return Fraction(2**self.grid_bits) / Fraction(self.epsilon)

    @property
    def laplace_scale(self) -> float:
        """1/ε, the scale of CTL's Laplace noise that this noise replaces (in reward units)."""
        return 1.0 / self.epsilon

    def _inputs(self, rewards, name: str = "rewards") -> np.ndarray:
        return check_unit_interval(name, rewards)

    def _bits(self, rng) -> Bits:
        if not self.source.seedable and rng is not None:
            raise ValueError(
                f"rng must be None for source {self.source.name!r}, which draws from the operating "
                f"system and cannot be seeded; got {rng!r}"
            )
        return make_bits(rng)

    def privatize(self, rewards, rng=None) -> np.ndarray:
        r"""Private responses γ(n + Y), one independent draw per reward (an array of the rewards' shape): exact
        while :math:`|n + Y| \le 2^{53}`, the nearest double beyond (module docstring, "Range")."""
        u = self._inputs(rewards)
        bits = self._bits(rng)
        k = self.grid_bits
        n = [_round_randomly(math.ldexp(x, k), bits) for x in u.ravel().tolist()]
        out = self.source.release(n, self.scale, bits)
        return np.array([math.ldexp(x, -k) for x in out], dtype=float).reshape(u.shape)

    def _reference(self):
        from .mechanisms import CTL, CTLS

        return (CTLS if self.use_sigmoid else CTL)(self.epsilon)

    def output_mean(self, mu, *args, **kwargs):
        """Randomized rounding and the noise are unbiased: the mean response is CTL's
        (:meth:`ldpcode.mechanisms.CTL.output_mean`, the mean reward; CTL-S's for the Sigmoid version)."""
        return self._reference().output_mean(mu, *args, **kwargs)

    def _rounding(self, r, name: str = "r"):
        """For each input: a = ⌊u 2^k⌋ and p = P{n = a + 1} (u = r, or s(r) for the Sigmoid version)."""
        z = np.ldexp(self._inputs(r, name), self.grid_bits)
        a = np.floor(z)
        return a, z - a

    def _log_weight(self, x, r):
        """log P{output = x | r} less the normalizing constant log tanh(1/(2τ)), which every input shares (so
        that differences, the privacy losses, keep their relative accuracy at any ε); -inf off the grid."""
        xs = np.asarray(x, dtype=float)
        if not np.isfinite(xs).all():
            raise ValueError("x must contain only finite numbers")
        a, p = self._rounding(r)
        m = np.ldexp(xs, self.grid_bits)
        c = math.ldexp(self.epsilon, -self.grid_bits)  # 1/τ = ε 2^-k, exactly
        with np.errstate(divide="ignore"):
            lw = np.logaddexp(np.log1p(-p) - np.abs(m - a) * c, np.log(p) - np.abs(m - a - 1) * c)
        return np.where(m == np.round(m), lw, -np.inf)

    def log_pmf(self, x, r):
        r"""Exact :math:`\log P\{\text{output} = x \mid r\}` (``-inf`` off the grid), arrays broadcast:
        :math:`\log[(1-p)\,P\{Y = m - a\} + p\,P\{Y = m - a - 1\}]`, m = x/γ, a and p the rounding's,
        with :func:`discrete_laplace_log_pmf`'s law. Where :math:`|m| \ge 2^{53}` the double x is the response of
        every integer that rounds to it (:func:`_rounding_interval`), and the probabilities of those integers are
        summed (:func:`_log_rounding_mass`); below, x stands for m alone."""
        lw = self._log_weight(x, r)
        m = np.ldexp(np.asarray(x, dtype=float), self.grid_bits)
        c = math.ldexp(self.epsilon, -self.grid_bits)
        extra = np.zeros(m.shape)
        for i in map(tuple, np.argwhere(np.isfinite(m) & (np.abs(m) >= 2.0**53))):
            extra[i] = _log_rounding_mass(abs(int(m[i])), c)
        if extra.any():
            lw = np.where(np.isneginf(lw), -np.inf, lw + extra)
        return float(discrete_laplace_log_pmf(0, self.scale)) + lw

    def pmf(self, x, r):
        """Exact P{output = x | r} (see :meth:`log_pmf`)."""
        return np.exp(self.log_pmf(x, r))

    def privacy_loss(self, x, r, r2):
        r"""The exact privacy loss of the output x between inputs r and r2,
        :math:`\log P\{x \mid r\} - \log P\{x \mid r_2\}` (x on the grid; nan off it)."""
        with np.errstate(invalid="ignore"):
            return self._log_weight(x, r) - self._log_weight(x, r2)

    def reachable(self, x, r) -> np.ndarray:
        """Mironov's question asked of this sampler: can input r produce the double x? Exactly when x is on
        the grid γ (every integer has positive discrete Laplace probability), whatever r in [0, 1]: no
        output identifies its input."""
        self._inputs(r, "r")
        xs = np.asarray(x, dtype=float)
        if not np.isfinite(xs).all():
            raise ValueError("x must contain only finite numbers")
        m = np.ldexp(xs, self.grid_bits)
        return np.broadcast_to(m == np.round(m), np.broadcast_shapes(xs.shape, np.shape(r))).copy()

    def exact_loss(self, inputs) -> float:
        r"""The exact privacy loss :math:`\max_{r, r', x} |\log P\{x\mid r\} - \log P\{x\mid r'\}|` over
        ``inputs``. On the grid log P{x | r} is piecewise linear in x with breaks at a and a + 1 (and
        constant slope ±ε beyond), so the difference of two is extreme at one of the four breaks."""
        r = _loss_inputs(inputs)
        a, _ = self._rounding(r, "inputs")
        xs = np.unique(np.concatenate([a, a + 1])) * self.grid
        return _worst_log_ratio([self._log_weight(xs, v) for v in r])

    def output_variance(self, r) -> np.ndarray:
        r"""The exact variance of the response to r: :math:`\gamma^2\,(\mathrm{Var}\,Y + p(1 - p))`."""
        _, p = self._rounding(r)
        return self.grid**2 * (discrete_laplace_variance(self.scale) + p * (1.0 - p))

    def __repr__(self) -> str:
        return f"{self.name}(epsilon={self.epsilon:g}, grid_bits={self.grid_bits}, source={self.source.name!r})"


def _rounding_interval(m: int) -> tuple[int, int]:
    """The integers z with ``float(z) == m``, for an integer m >= 2^53 that is a double: the interval [z0, z1]
    between the midpoints to m's neighbours (round to nearest, ties to even, as Python's int-to-float; a midpoint
    is m's when m's significand is even). Below 2^53 it is {m}."""
    ulp = int(math.ulp(float(m)))
    below = m - (ulp // 2 if m & (m - 1) == 0 else ulp)  # a power of two has the finer binade below it
    even = (m // ulp) % 2 == 0
    lo2, hi2 = m + below, 2 * m + ulp  # twice the two midpoints
    z0 = lo2 // 2 + (0 if lo2 % 2 == 0 and even else 1)
    z1 = hi2 // 2 - (1 if hi2 % 2 == 0 and not even else 0)
    return z0, z1


def _log_rounding_mass(m: int, c: float) -> float:
    r"""log of :math:`\sum_z P\{n + Y = \pm z\}/P\{n + Y = \pm m\}` over the integers z that round to the double
    m >= 2^53 (:func:`_rounding_interval`), for the law of a vetted CTL with 1/τ = c. Those z lie beyond a + 1, where
    the log-probability falls by c a step, so the sum is :math:`e^{c(m - z_0)}(1 - e^{-cL})/(1 - e^{-c})`, L the
    number of z: log L when cL is small."""
    z0, z1 = _rounding_interval(m)
    return float(m - z0) * c + math.log(-math.expm1(-float(z1 - z0 + 1) * c)) - math.log(-math.expm1(-c))


class _SigmoidInputs:
    """The Sigmoid versions (Curators 5 and 6): any real reward r, mapped to s(r) in [0, 1] first."""

    use_sigmoid = True

    def _inputs(self, rewards, name: str = "rewards") -> np.ndarray:
        return _sigmoid(check_finite_array(name, rewards))


class VettedCTLS(_SigmoidInputs, VettedCTL):
    """Curator 5 (CTL-S, Lemma 8): :class:`VettedCTL` applied to s(r), for any real reward."""

    name = "CTL-S (vetted)"


def _loss_inputs(inputs) -> np.ndarray:
    r = check_finite_array("inputs", inputs).ravel()
    if r.size == 0:
        raise ValueError("inputs must hold at least one number")
    return r


def _worst_log_ratio(log_pmfs) -> float:
    """max over outputs x and inputs r, r' of log P{x | r} - log P{x | r'}, from one row of log P{x | r} per r."""
    lp = np.stack(log_pmfs)
    return float(np.max(lp.max(axis=0) - lp.min(axis=0)))


def _sigmoid(r: np.ndarray) -> np.ndarray:
    from .mechanisms import sigmoid

    return np.asarray(sigmoid(np.asarray(r, dtype=float)), dtype=float)


def _randomized_response(bit: int, epsilon: Fraction, bits: Bits) -> int:
    r"""Keep ``bit`` with probability :math:`1/(1 + e^{-\epsilon}) = e^\epsilon/(1 + e^\epsilon)`, else flip it,
    exactly: repeat {a fair coin: heads keeps; else a Bernoulli(:math:`e^{-\epsilon}`) coin: heads flips}.
    P{keep} = 1/2 + (1 - q)/2 · P{keep} with q = e^{-ε} gives P{keep} = 1/(1 + q)."""
    while True:
        if bits.randbits(1):
            return bit
        if bernoulli_exp(epsilon, bits):
            return 1 - bit


@dataclass(frozen=True, init=False)
class VettedCTB:
    r"""Curator 3 (CTB, Lemma 5 of Ren et al.) from exact coins: Bernoulli(r), then kept with probability
    :math:`e^\epsilon/(1+e^\epsilon)`: Lemma 5's law exactly, ε-LDP on [0, 1] exactly at every ε. Its only
    source is ``"exact"`` (OpenDP's sampler here is a Laplace one)."""

    epsilon: float
    name = "CTB (vetted)"
    use_sigmoid = False

    def __init__(self, epsilon, *, source="exact"):
        if not (isinstance(source, ExactDiscreteLaplace) or source == "exact"):
            if isinstance(source, str) and source in SOURCES:
                raise ValueError(
                    f"source {source!r} is a Laplace sampler; CTB and CTB-S draw exact Bernoulli "
                    "coins and take source='exact'"
                )
            make_source(source)  # names the parameter for an unknown name or a wrong type
            raise ValueError(f"source must be 'exact' for CTB and CTB-S, got {source!r}")
        object.__setattr__(self, "epsilon", check_epsilon(epsilon))

    @property
    def source(self):
        return ExactDiscreteLaplace()

    def _inputs(self, rewards, name: str = "rewards") -> np.ndarray:
        return check_unit_interval(name, rewards)

    def privatize(self, rewards, rng=None) -> np.ndarray:
        u = self._inputs(rewards)
        bits = make_bits(rng)
        eps = Fraction(self.epsilon)
        out = [_randomized_response(bernoulli_dyadic(x, bits), eps, bits) for x in u.ravel().tolist()]
        return np.array(out, dtype=float).reshape(u.shape)

    def _reference(self):
        from .mechanisms import CTB, CTBS

        return (CTBS if self.use_sigmoid else CTB)(self.epsilon)

    def output_mean(self, mu, *args, **kwargs):
        """Lemma 5's mean (:meth:`ldpcode.mechanisms.CTB.output_mean`; CTB-S's for the Sigmoid version)."""
        return self._reference().output_mean(mu, *args, **kwargs)

    def log_pmf(self, x, r):
        r"""Exact :math:`\log P\{x \mid r\}` for x in {0, 1} (``-inf`` elsewhere), computed stably at any ε:
        :math:`P\{1\} = u\,\sigma(\epsilon) + (1-u)\,\sigma(-\epsilon)`, σ the logistic function, u = r or s(r)."""
        xs = np.asarray(x, dtype=float)
        u = self._inputs(r, "r")
        # Derived here from the keep/flip construction, independently of ldpcode.mechanisms.CTB's law on
        # purpose: tests/mechanisms/test_mechanism_family.py checks the two against each other.
        lk = -np.logaddexp(0.0, -self.epsilon)  # log P{keep} = log sigma(eps)
        lf = -np.logaddexp(0.0, self.epsilon)  # log P{flip}
        with np.errstate(divide="ignore"):
            l1 = np.logaddexp(np.log(u) + lk, np.log1p(-u) + lf)
            l0 = np.logaddexp(np.log(u) + lf, np.log1p(-u) + lk)
        return np.where(xs == 1.0, l1, np.where(xs == 0.0, l0, -np.inf))

    def pmf(self, x, r):
        return np.exp(self.log_pmf(x, r))

    def reachable(self, x, r) -> np.ndarray:
        """Both answers, 0 and 1, are reachable from every input at every ε (each has probability at least
        1/(1 + e^ε) > 0, drawn exactly): no output identifies its input."""
        self._inputs(r, "r")
        xs = np.asarray(x, dtype=float)
        return np.broadcast_to((xs == 0.0) | (xs == 1.0), np.broadcast_shapes(xs.shape, np.shape(r))).copy()

    def exact_loss(self, inputs) -> float:
        """The exact privacy loss over ``inputs``: the largest ``|log P{x | r} - log P{x | r'}|`` over x in {0, 1}
        (:meth:`log_pmf`, stable at any ε: ε itself between r = 0 and 1)."""
        r = _loss_inputs(inputs)
        self._inputs(r, "inputs")
        return _worst_log_ratio([self.log_pmf(np.array([0.0, 1.0]), v) for v in r])

    def __repr__(self) -> str:
        return f"{self.name}(epsilon={self.epsilon:g})"


class VettedCTBS(_SigmoidInputs, VettedCTB):
    """Curator 6 (CTB-S, Lemma 9): :class:`VettedCTB` applied to s(r), for any real reward."""

    name = "CTB-S (vetted)"


VETTED_CURATORS = {"CTL": VettedCTL, "CTB": VettedCTB, "CTL-S": VettedCTLS, "CTB-S": VettedCTBS}


def make_curator(name: str, epsilon, *, source="exact", grid_bits=None):
    """A vetted curator by the paper's name (``CTL``, ``CTB``, ``CTL-S``, ``CTB-S``) at ``epsilon``, drawing
    from ``source`` (``"exact"``, the default, or ``"opendp"`` for CTL and CTL-S); ``grid_bits`` (default
    20) sets the output grid 2^-grid_bits of CTL and CTL-S and is refused for CTB and CTB-S. ``"opendp"`` refuses,
    in one line naming what would do, the small ε at which its int64 clamp would change the law
    (:meth:`OpenDPDiscreteLaplace.check_range`)."""
    cls = VETTED_CURATORS[check_choice("curator", name, VETTED_CURATORS)]
    if isinstance(source, str):  # a source object is taken as is (make_source)
        check_choice("source", source, SOURCES)
    if issubclass(cls, VettedCTB):
        if grid_bits is not None:
            raise ValueError(
                f"grid_bits is for the Laplace curators (CTL, CTL-S); {name} answers 0 or 1, got "
                f"grid_bits={one_line(grid_bits)}"
            )
        return cls(epsilon, source=source)
    return cls(epsilon, source=source, grid_bits=DEFAULT_GRID_BITS if grid_bits is None else grid_bits)
