r"""The integer noise of :mod:`ldpcode.vetted`: uniform random bits, the exact samplers and the noise sources.

Everything here works on integers and exact rationals, never on rounded doubles, so that the law of what it
returns is exactly the one the privacy proof of :mod:`ldpcode.vetted` is about:

* **Random bits**: :class:`Bits` (uniform integers from 64-bit words, by rejection: exact) and :func:`make_bits`
  (from a seeded NumPy ``Generator``, reproducible, or from the operating system, :mod:`secrets`).
* **Exact samplers** (Canonne, Kamath and Steinke 2020, Section 5.2): :func:`bernoulli_dyadic` (Bernoulli(x) for
  a double x), :func:`bernoulli_exp` (Bernoulli(exp(-γ)) for a rational γ, their Algorithm 1) and
  :func:`discrete_laplace` (their Algorithm 2), with the law's :func:`discrete_laplace_log_pmf` and
  :func:`discrete_laplace_variance`.
* **Noise sources**, n -> n + DLap(τ) for integers n: :class:`ExactDiscreteLaplace` (the samplers above, seedable)
  and :class:`OpenDPDiscreteLaplace` (OpenDP's ``make_laplace``, with the range check of its int64 clamp), by name
  through :data:`SOURCES` and :func:`make_source`.

The curators that use them, the guarantee, its price and the range where each source's law holds are in
:mod:`ldpcode.vetted`'s docstring; every public name here is imported there and documented on its API page
(``ldpcode.vetted.<name>`` is the address to use).
"""

from __future__ import annotations

import math
import numbers
import secrets
from fractions import Fraction

import numpy as np

from ._validate import check_choice

TAIL_SCALES = 50  # P{|Y| >= 50 tau} < 2 e^-50 ≈ 3.9e-22: the margin of every range statement of ldpcode.vetted
OPENDP_INT_LIMIT = 2**63  # OpenDP's i64 output saturates at -2^63 and 2^63 - 1
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
        r"""A uniform integer in :math:`[0, 2^k)`."""
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
    r"""An exact Bernoulli(x) draw for a double x in [0, 1] (a dyadic rational :math:`\mathrm{num}/2^j`: 1 when j
    random bits, read as an integer, fall below num)."""
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
    (:math:`\frac{1-q}{1+q} = \tanh\frac{1}{2\tau}`, :math:`q = e^{-1/\tau}`), for integers y (arrays broadcast)."""
    c = 1.0 / float(scale)
    return math.log(math.tanh(0.5 * c)) - np.abs(np.asarray(y, dtype=float)) * c


def discrete_laplace_variance(scale) -> float:
    r""":math:`\mathrm{Var}\,Y = 2q/(1-q)^2 = 1/(2\sinh^2(1/(2\tau)))` for :math:`Y\sim\mathrm{DLap}(\tau)`,
    :math:`q = e^{-1/\tau}`, for a rational scale τ > 0 (a ``Fraction`` or a double), to a few units in the last place
    at every τ whose variance is a double. With c = 1/τ: the sinh form for 1e-150 < c < 700 (where sinh² neither
    overflows nor underflows); :math:`2e^{-c}` for c >= 700, where :math:`(1 - q)^2` is 1 to double precision
    (subnormal past c = 708, 0 past c = 745, as the variance itself); and :math:`2\tau^2` (the series
    :math:`2\tau^2 - 1/6 + O(\tau^{-2})`, computed on the rational τ) for c <= 1e-150. A τ above 9.48e153, whose
    variance leaves the doubles, is refused; the curators' :math:`\tau = 2^k/\epsilon` is at most 1.1e21 (variance
    2.4e42)."""
    tau = Fraction(scale)
    if tau <= 0:
        raise ValueError(f"scale must be > 0, got {scale!r}")
    c = float(1 / tau)
    if c >= 700.0:
        return 2.0 * math.exp(-c)
    if c > 1e-150:
        return 0.5 / math.sinh(0.5 / float(scale)) ** 2  # the form of every variance the book printed
    try:
        return float(2 * tau * tau)
    except OverflowError:
        raise ValueError(
            f"scale must be <= 9.48e153 (the discrete Laplace variance 2 scale^2 leaves the doubles), got {float(tau):.3g}"
        ) from None


# ---------------------------------------------------------------------------------------------------
# Noise sources: n -> n + DLap(scale) for integers n
# ---------------------------------------------------------------------------------------------------


class ExactDiscreteLaplace:
    """The book's exact sampler (:func:`discrete_laplace`) on the caller's bits: seedable. It computes n + Y with
    Python integers, which have no bound, so its law holds at every ε and ``grid_bits`` a curator accepts."""

    name = "exact"
    seedable = True

    def check_range(self, epsilon: float, grid_bits: int) -> None:
        """Nothing to refuse: no clamp, at any scale (:mod:`ldpcode.vetted` docstring, "Range")."""

    def release(self, values, scale: Fraction, bits: Bits) -> list:
        return [n + discrete_laplace(scale, bits) for n in values]

    def __repr__(self):
        return "ExactDiscreteLaplace()"


class OpenDPDiscreteLaplace:
    """OpenDP's ``make_laplace`` on a vector of 64-bit integers (OpenDP 0.16; the sampler of Canonne, Kamath
    and Steinke in Rust, drawing from the operating system). It cannot be seeded: ``bits`` is not used.

    The scale given to OpenDP is the smallest double >= τ, so that its privacy map, ``map(d_in)`` for an
    L1 distance d_in, never exceeds ``d_in / τ``; :meth:`epsilon_for` returns OpenDP's own figure.

    OpenDP returns n + Y cast to ``i64`` with saturation, :math:`[-2^{63}, 2^{63} - 1]`: :meth:`check_range`
    refuses the settings where that clamp is reached with probability above :math:`2e^{-50}`
    (:mod:`ldpcode.vetted` docstring, "Range")."""

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

    @staticmethod
    def given_scale(scale: Fraction) -> Fraction:
        """τ', the scale OpenDP is given for τ: the smallest double >= τ (as the rational it is)."""
        f = float(scale)
        if Fraction(f) < scale:
            f = math.nextafter(f, math.inf)
        return Fraction(f)

    @classmethod
    def _clamp_free(cls, epsilon: float, grid_bits: int) -> bool:
        r""":math:`2^k + 50\tau' \le 2^{63}`, τ' the scale OpenDP is given for :math:`\tau = 2^k/\epsilon`: then the
        clamp to ``i64`` is reached with probability below :math:`2e^{-50} \approx 3.9\cdot10^{-22}` for every n in
        :math:`\{0, \dots, 2^k\}`."""
        tau = cls.given_scale(Fraction(2**grid_bits) / Fraction(epsilon))
        return 2**grid_bits + TAIL_SCALES * tau <= OPENDP_INT_LIMIT

    def check_range(self, epsilon: float, grid_bits: int) -> None:
        r"""Refuse ε and ``grid_bits`` with :math:`2^k + 50\tau' > 2^{63}`: there OpenDP's saturating cast to
        ``i64`` is reached often enough to change the law (at ε = 1e-7, k = 40: 44 % of the outputs at
        :math:`\pm 2^{23}`). The message gives the smallest ε at this ``grid_bits``, the largest ``grid_bits`` at
        this ε, and the exact source."""
        if self._clamp_free(epsilon, grid_bits):
            return
        k = grid_bits
        least = Fraction(TAIL_SCALES * 2**k, OPENDP_INT_LIMIT - 2**k)  # the bound for τ' = τ exactly
        step = 10.0 ** (math.floor(math.log10(least)) - 2)
        offer = math.ceil(least / Fraction(step)) * step
        while not self._clamp_free(float(f"{offer:.3g}"), k):  # τ' rounds up: one more step at worst
            offer += step
        widest = next(j for j in range(k, -1, -1) if self._clamp_free(epsilon, j))
        raise ValueError(
            f"epsilon={epsilon!r} with grid_bits={k} and source='opendp': OpenDP clamps n + noise to the int64 "
            f"range, and its scale 2^grid_bits/epsilon = {float(Fraction(2**k) / Fraction(epsilon)):.3g} reaches it "
            f"(2^grid_bits + 50*scale > 2^63), so its law would not hold; use epsilon >= {offer:.3g} at "
            f"grid_bits={k}, grid_bits <= {widest} at this epsilon, or source='exact'"
        )

    def _measurement(self, scale: Fraction):
        if scale not in self._cache:
            dp = self._dp
            f = float(self.given_scale(scale))
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
