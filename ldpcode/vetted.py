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

Every guarantee assumes uniform random bits. The samplers are not constant-time (the loops run a random
number of times, and the rounding draws as many bits as r has binary digits); a curator running on the
user's own device, as local DP intends, shows its timing to no one.

The snapping mechanism (Mironov 2012, Section 5.2) is the other known fix: clamp to [-B, B], add
:math:`\lambda\,S\ln U^*` with a correctly rounded logarithm, round to the power of two
:math:`\Lambda \ge \lambda` and clamp again. It needs a correctly rounded logarithm and only reaches
:math:`(1/\lambda + 2^{-49}B/\lambda)`-DP for sensitivity 1 and :math:`\lambda < B < 2^{46}\lambda`
(Theorem 1 there), slightly more than ε, so the book uses the discrete sampler, which reaches ε exactly
at no cost in accuracy.
"""

from __future__ import annotations

import math
import numbers
import secrets
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ._validate import check_choice, check_epsilon, check_finite_array, check_int, check_unit_interval

DEFAULT_GRID_BITS = 20  # grid 2^-20 ≈ 1e-6 for the Laplace curators
MAX_GRID_BITS = 40  # n + Y stays far below 2^53, so every output is a double exactly
_WORDS = 512  # 64-bit words drawn at a time from the generator


# ---------------------------------------------------------------------------------------------------
# Random bits
# ---------------------------------------------------------------------------------------------------


class Bits:
    """Uniform random bits, 64 at a time, from ``draw(nbytes) -> bytes``: a NumPy ``Generator``'s
    ``bytes`` (reproducible) or :func:`secrets.token_bytes` (the operating system's CSPRNG)."""

    def __init__(self, draw):
        self._draw = draw
        self._words: list = []

    def _word(self) -> int:
        if not self._words:
            self._words = np.frombuffer(self._draw(8 * _WORDS), dtype="<u8").tolist()
            self._words.reverse()
        return self._words.pop()

    def randbits(self, k: int) -> int:
        """A uniform integer in [0, 2^k)."""
        if k <= 0:
            return 0
        x, got = 0, 0
        while got < k:
            x = (x << 64) | self._word()
            got += 64
        return x >> (got - k)

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n), n >= 1 (rejection from the next power of two: exact)."""
        if n == 1:
            return 0
        k = (n - 1).bit_length()
        while True:
            x = self.randbits(k)
            if x < n:
                return x


def make_bits(rng) -> Bits:
    """Random bits for ``rng``: ``None`` (the operating system's, via :mod:`secrets`: for real data), a
    ``numpy.random.Generator``, a ``numpy.random.SeedSequence`` or an integer seed >= 0 (reproducible)."""
    if rng is None:
        return Bits(secrets.token_bytes)
    if isinstance(rng, np.random.Generator):
        return Bits(rng.bytes)
    if isinstance(rng, np.random.SeedSequence) or (isinstance(rng, numbers.Integral) and not isinstance(rng, bool)):
        if not isinstance(rng, np.random.SeedSequence) and int(rng) < 0:
            raise ValueError(f"rng must be None, a numpy.random.Generator or a seed >= 0, got {rng!r}")
        return Bits(np.random.default_rng(rng).bytes)
    raise TypeError(
        f"rng must be None (the operating system's random bits), a numpy.random.Generator or an "
        f"integer seed >= 0, got {rng!r} of type {type(rng).__name__}"
    )


# ---------------------------------------------------------------------------------------------------
# Exact coins and the discrete Laplace sampler (Canonne, Kamath and Steinke 2020)
# ---------------------------------------------------------------------------------------------------


def bernoulli_dyadic(x: float, bits: Bits) -> int:
    """An exact Bernoulli(x) draw for a double x in [0, 1] (a dyadic rational num / 2^j: 1 when j random
    bits, read as an integer, fall below num)."""
    num, den = float(x).as_integer_ratio()
    return int(bits.randbits(den.bit_length() - 1) < num)


def _bernoulli_exp_unit(num: int, den: int, bits: Bits) -> int:
    """Bernoulli(exp(-num/den)) for 0 <= num/den <= 1: Algorithm 1 of Canonne, Kamath and Steinke (2020),
    first case. K = 1; while a Bernoulli(γ/K) coin shows 1, K += 1; answer 1 when the final K is odd
    (P{K > k} = γ^k/k!, so P{K odd} = Σ_k (-γ)^k/k! = e^{-γ})."""
    k = 1
    while bits.randbelow(den * k) < num:
        k += 1
    return k & 1


def bernoulli_exp(gamma, bits: Bits) -> int:
    r"""An exact Bernoulli(:math:`e^{-\gamma}`) draw for a rational γ >= 0 (a ``Fraction``, an int or a
    double, taken as the rational it is): Algorithm 1 of Canonne, Kamath and Steinke (2020). For γ > 1,
    ⌊γ⌋ coins Bernoulli(1/e) (stopping at the first 0) and one Bernoulli(exp(-(γ - ⌊γ⌋)))."""
    g = Fraction(gamma)
    if g < 0:
        raise ValueError(f"gamma must be >= 0, got {gamma!r}")
    whole = g.numerator // g.denominator
    for _ in range(whole):
        if not _bernoulli_exp_unit(1, 1, bits):
            return 0
    rest = g - whole
    return _bernoulli_exp_unit(rest.numerator, rest.denominator, bits)


def discrete_laplace(scale, bits: Bits) -> int:
    r"""One exact draw of :math:`Y\sim\mathrm{DLap}(\tau)`, :math:`P\{Y = y\} = \frac{1-q}{1+q}q^{|y|}`,
    :math:`q = e^{-1/\tau}`, for a rational scale τ > 0 (``scale``, a ``Fraction`` or a double taken as the
    rational it is).

    Algorithm 2 of Canonne, Kamath and Steinke (2020), with τ = t/s: U uniform on {0, ..., t-1} kept with
    probability :math:`e^{-U/t}` (so that X = U + tV, V the number of Bernoulli(1/e) successes before a
    failure, is geometric: :math:`P\{X = x\} \propto e^{-x/t}`), Y = ⌊X/s⌋ (geometric with ratio
    :math:`e^{-s/t}`), a fair sign, and a restart on "-0" so that 0 is not counted twice.
    """
    tau = Fraction(scale)
    if tau <= 0:
        raise ValueError(f"scale must be > 0, got {scale!r}")
    t, s = tau.numerator, tau.denominator
    while True:
        u = bits.randbelow(t)
        if not _bernoulli_exp_unit(u, t, bits):
            continue
        v = 0
        while _bernoulli_exp_unit(1, 1, bits):
            v += 1
        y = (u + t * v) // s
        negative = bits.randbits(1)
        if negative and y == 0:
            continue
        return -y if negative else y


def discrete_laplace_log_pmf(y, scale):
    r""":math:`\log P\{Y = y\}` for :math:`Y\sim\mathrm{DLap}(\tau)`: :math:`\log\tanh(1/(2\tau)) - |y|/\tau`
    (:math:`\frac{1-q}{1+q} = \tanh\frac{1}{2\tau}`, q = e^{-1/τ}), for integers y (arrays broadcast)."""
    c = 1.0 / float(scale)
    return math.log(math.tanh(0.5 * c)) - np.abs(np.asarray(y, dtype=float)) * c


def discrete_laplace_variance(scale) -> float:
    r""":math:`\mathrm{Var}\,Y = 2q/(1-q)^2 = 1/(2\sinh^2(1/(2\tau)))` for :math:`Y\sim\mathrm{DLap}(\tau)`."""
    return 0.5 / math.sinh(0.5 / float(scale)) ** 2


# ---------------------------------------------------------------------------------------------------
# Noise sources: n -> n + DLap(scale) for integers n
# ---------------------------------------------------------------------------------------------------


class ExactDiscreteLaplace:
    """The book's exact sampler (:func:`discrete_laplace`) on the caller's bits: seedable."""

    name = "exact"
    seedable = True

    def release(self, values, scale: Fraction, bits: Bits) -> list:
        return [n + discrete_laplace(scale, bits) for n in values]

    def __repr__(self):
        return "ExactDiscreteLaplace()"


class OpenDPDiscreteLaplace:
    """OpenDP's ``make_laplace`` on a vector of 64-bit integers (OpenDP 0.16; the sampler of Canonne, Kamath
    and Steinke in Rust, drawing from the operating system). It cannot be seeded: ``bits`` is not used.

    The scale given to OpenDP is the smallest double >= τ, so that its privacy map, ``map(d_in)`` for an
    L1 distance d_in, never exceeds ``d_in / τ``; :meth:`epsilon_for` returns OpenDP's own figure."""

    name = "opendp"
    seedable = False

    def __init__(self):
        try:
            import opendp.prelude as dp
        except ImportError as exc:  # pragma: no cover - opendp is in requirements.txt
            raise ImportError(
                "source 'opendp' needs the opendp package (pip install opendp==0.16.0); source 'exact' needs nothing"
            ) from exc
        dp.enable_features("contrib")  # make_laplace is a 'contrib' component in OpenDP 0.16
        self._dp = dp
        self._cache: dict = {}

    def _measurement(self, scale: Fraction):
        if scale not in self._cache:
            dp = self._dp
            f = float(scale)
            if Fraction(f) < scale:
                f = math.nextafter(f, math.inf)
            space = dp.vector_domain(dp.atom_domain(T="i64")), dp.l1_distance(T="i64")
            self._cache[scale] = dp.m.make_laplace(*space, scale=f)
        return self._cache[scale]

    def epsilon_for(self, scale: Fraction, d_in: int) -> float:
        """OpenDP's privacy map: the ε it certifies for inputs at L1 distance ``d_in``."""
        return float(self._measurement(scale).map(int(d_in)))

    def release(self, values, scale: Fraction, bits: Bits) -> list:
        values = [int(v) for v in values]
        return [int(v) for v in self._measurement(scale)(values)] if values else []

    def __repr__(self):
        return "OpenDPDiscreteLaplace()"


SOURCES = {"exact": ExactDiscreteLaplace, "opendp": OpenDPDiscreteLaplace}


def make_source(source):
    """A noise source by name (``"exact"`` or ``"opendp"``), or a source object as is."""
    if isinstance(source, (ExactDiscreteLaplace, OpenDPDiscreteLaplace)):
        return source
    return SOURCES[check_choice("source", source, SOURCES)]()


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
    draws its own and refuses a seed. Rewards outside [0, 1] are refused, as CTL refuses them."""

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
        """Private responses γ(n + Y), one independent draw per reward (an array of the rewards' shape)."""
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
        with :func:`discrete_laplace_log_pmf`'s law."""
        return float(discrete_laplace_log_pmf(0, self.scale)) + self._log_weight(x, r)

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
        # purpose: tests/test_mechanism_family.py checks the two against each other.
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
    20) sets the output grid 2^-grid_bits of CTL and CTL-S and is refused for CTB and CTB-S."""
    cls = VETTED_CURATORS[check_choice("curator", name, VETTED_CURATORS)]
    if issubclass(cls, VettedCTB):
        if grid_bits is not None:
            raise ValueError(
                f"grid_bits is for the Laplace curators (CTL, CTL-S); {name} answers 0 or 1, got "
                f"grid_bits={grid_bits!r}"
            )
        return cls(epsilon, source=source)
    return cls(epsilon, source=source, grid_bits=DEFAULT_GRID_BITS if grid_bits is None else grid_bits)
