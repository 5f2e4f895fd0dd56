"""Where each vetted source's law holds, and its variance at every accepted ε (issue 23, "one floor for every
probability and scale").

OpenDP casts n + Y back to i64 with saturation: at ε = 1e-7 and grid_bits = 40, 44 % of its outputs sat at ±2^23,
with variance 4.1e13 against the 2.0e14 the curator reported. The curator now refuses, at construction, every
setting with 2^k + 50τ' > 2^63. The variance raised a bare OverflowError at large ε (sinh² overflowed); it is now
finite and right at every accepted ε. At ε = 1e-9 and grid_bits = 40 n + Y passes 2^53, where ``float`` rounds it:
``log_pmf`` now gives the probability of the double (every integer that rounds to it), not of one integer."""

from __future__ import annotations

import math
import re
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ldpcode import vetted
from ldpcode.vetted import _log_rounding_mass, _rounding_interval

MAX = 1.7976931348623157e308


def _closed_form_variance(scale, digits: int = 60) -> float:
    """2q/(1-q)^2, q = e^{-1/τ}, in decimal arithmetic of ``digits`` digits (independent of the code's branches)."""
    t = Fraction(scale)
    with localcontext() as ctx:
        ctx.prec, ctx.Emin, ctx.Emax = digits, -(10**9), 10**9
        q = (-(Decimal(t.denominator) / Decimal(t.numerator))).exp()
        return float(2 * q / (1 - q) ** 2)


def _opendp_clamp_free(eps: float, k: int) -> bool:
    """2^k + 50τ' <= 2^63, τ' the smallest double >= 2^k/ε (the scale handed to OpenDP)."""
    tau = Fraction(2**k) / Fraction(eps)
    f = float(tau)
    if Fraction(f) < tau:
        f = math.nextafter(f, math.inf)
    return 2**k + 50 * Fraction(f) <= 2**63


# --- OpenDP's clamp -------------------------------------------------------------------------------------------------


def test_opendp_saturates_at_the_int64_range():
    """Why the refusal: OpenDP's own release clamps n + Y to [-2^63, 2^63 - 1] (seen here through the source,
    which the curator no longer lets one reach at such a scale)."""
    src = vetted.make_source("opendp")
    out = np.array(src.release([2**40] * 400, Fraction(2**40) / Fraction(1e-7), None), dtype=object)
    assert 0.2 < np.mean((out == 2**63 - 1) | (out == -(2**63))) < 0.7


@pytest.mark.parametrize("name", ["CTL", "CTL-S"])
def test_opendp_refuses_the_issue_setting_in_one_line(name):
    """Before: accepted, 44 % of the outputs at ±2^23 and variance 4.1e13 for a reported 2.0e14."""
    with pytest.raises(ValueError) as err:
        vetted.make_curator(name, 1e-7, grid_bits=40, source="opendp")
    msg = str(err.value)
    assert "\n" not in msg
    for part in ("epsilon=1e-07", "grid_bits=40", "source='opendp'", "int64", "source='exact'"):
        assert part in msg, (part, msg)
    least = float(re.search(r"use epsilon >= ([0-9.e+-]+) at", msg).group(1))
    widest = int(re.search(r"grid_bits <= (\d+) at this epsilon", msg).group(1))
    assert least == pytest.approx(50 * 2**40 / (2**63 - 2**40), rel=2e-3)
    vetted.make_curator(name, least, grid_bits=40, source="opendp")  # what the message offers is accepted
    vetted.make_curator(name, 1e-7, grid_bits=widest, source="opendp")
    with pytest.raises(ValueError, match="source='opendp'"):
        vetted.make_curator(name, 1e-7, grid_bits=widest + 1, source="opendp")
    with pytest.raises(ValueError, match="source='opendp'"):
        vetted.make_curator(name, least * 0.99, grid_bits=40, source="opendp")
    exact = vetted.make_curator(name, 1e-7, grid_bits=40)  # the exact source has no clamp
    assert float(exact.output_variance(0.5)) == pytest.approx(2 / 1e-14, rel=1e-9)


def test_opendp_at_its_smallest_epsilon_keeps_its_law():
    """At the edge of what is accepted nothing is clamped, and the spread is the law's (the clamped setting
    of the issue had 20 % of the variance)."""
    cur = vetted.make_curator("CTL", 5.97e-6, grid_bits=40, source="opendp")
    x = cur.privatize(np.full(3000, 0.5))
    assert not np.any(np.abs(x) >= 2.0**23)
    assert x.var() == pytest.approx(float(cur.output_variance(0.5)), rel=0.3)


# --- the variance at every accepted setting -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "scale",
    [Fraction(3, 2), 0.37, 5.0, 40.0, 1e5, 2.0**40 / 1e-9]  # ordinary, and the curators' largest τ (1.1e21)
    + [1 / 699.9, 1 / 700.5, 1 / 710.0, 1 / 740.0, 1 / 746.0, Fraction(1, 10**300)]  # sinh^2 overflowed here
    + [1e140, Fraction(10**149), Fraction(10**151), 9e153, 9.48e153],  # sinh^2 underflows here
)
def test_discrete_laplace_variance_is_the_closed_form(scale):
    digits = 60 if float(Fraction(scale)) < 1e30 else 700
    want = _closed_form_variance(scale, digits)
    got = vetted.discrete_laplace_variance(scale)
    assert math.isfinite(got)
    assert math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-320), (got, want)


@pytest.mark.parametrize("scale", [Fraction(3, 2), 0.37, 5.0, 1e5, 2.0**20, 2.0**40 / 1e-9])
def test_ordinary_variances_are_bit_for_bit(scale):
    assert vetted.discrete_laplace_variance(scale) == 0.5 / math.sinh(0.5 / float(scale)) ** 2


def test_a_variance_beyond_the_doubles_is_refused_by_name():
    with pytest.raises(ValueError, match=r"^scale must be <= 9.48e153"):
        vetted.discrete_laplace_variance(1e154)


@pytest.mark.parametrize("eps", [1e300, MAX, 1e3 * 2.0**40])
def test_large_epsilon_variance_is_finite(eps):
    """Before: OverflowError (math range error) at ε = 1e300. The variance is the rounding's, γ² p(1 - p)."""
    for k in (0, 20, 40):
        cur = vetted.VettedCTL(eps, grid_bits=k)
        z = math.ldexp(0.3, k)
        p = z - math.floor(z)
        assert float(cur.output_variance(0.3)) == pytest.approx(math.ldexp(1.0, -2 * k) * p * (1 - p), rel=1e-12)


def _pow10(e: float) -> float:
    """10**e, at most MAX: at e = log10(MAX) the power itself overflows (Python raises rather than give inf)."""
    try:
        return min(10.0**e, MAX)
    except OverflowError:
        return MAX


def _log_uniform(lo: float, hi: float):
    return st.floats(lo, hi).map(_pow10).filter(lambda e: e >= 1e-9)


_EPS = st.one_of(_log_uniform(-9.0, math.log10(MAX)), _log_uniform(-9.0, -4.0))  # half near OpenDP's limits


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(eps=_EPS, k=st.integers(0, 40), source=st.sampled_from(["exact", "opendp"]), r=st.floats(0, 1))
@example(eps=1e-7, k=40, source="opendp", r=0.5)  # the issue's setting: refused
@example(eps=1e-9, k=40, source="exact", r=0.5)  # the largest scale, accepted
@example(eps=1e300, k=20, source="opendp", r=0.3)  # sinh^2 overflowed
@example(eps=MAX, k=0, source="exact", r=1.0)
def test_every_accepted_setting_has_a_finite_exact_variance(eps, k, source, r):
    """Each (ε, grid_bits, source) is refused by name, or has the exact source's variance, finite and equal to
    γ² (2q/(1-q)² + p(1-p)) computed in 60-digit decimals."""
    if source == "opendp" and not _opendp_clamp_free(eps, k):
        with pytest.raises(ValueError, match=r"epsilon=.* grid_bits=.* source='opendp'"):
            vetted.make_curator("CTL", eps, grid_bits=k, source=source)
        return
    cur = vetted.make_curator("CTL", eps, grid_bits=k, source=source)
    var = float(cur.output_variance(r))
    assert math.isfinite(var) and var >= 0
    assert var == float(vetted.make_curator("CTL", eps, grid_bits=k).output_variance(r))
    z = math.ldexp(r, k)
    p = z - math.floor(z)
    with localcontext() as ctx:
        ctx.prec = 60
        want = Decimal(2.0 ** (-2 * k)) * (Decimal(_closed_form_variance(cur.scale)) + Decimal(p) * (1 - Decimal(p)))
    assert math.isclose(var, float(want), rel_tol=1e-12, abs_tol=1e-320), (var, float(want))


# --- outputs beyond 2^53 grid steps -----------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(m=st.one_of(st.integers(53, 1000).map(lambda j: 2**j), st.integers(2**53, 2**200)).map(lambda z: int(float(z))))
def test_rounding_interval_is_what_float_does(m):
    z0, z1 = _rounding_interval(m)
    assert float(z0) == m and float(z1) == m
    assert float(z0 - 1) != m and float(z1 + 1) != m


@pytest.mark.parametrize("m", [2**53, 2**54, 2**53 + 2, 2**60 - 256, 2**62 + 3 * 2**10, 2**64])
@pytest.mark.parametrize("c", [9.1e-22, 1e-3, 0.5, 3.0, 800.0])
def test_log_rounding_mass_is_the_sum(m, c):
    z0, z1 = _rounding_interval(m)
    offsets = np.array([z - m for z in range(z0, z1 + 1)], dtype=float)
    terms = -c * offsets
    top = terms.max()
    assert _log_rounding_mass(m, c) == pytest.approx(top + math.log(np.exp(terms - top).sum()), rel=1e-12, abs=1e-12)


def test_log_pmf_counts_every_integer_that_rounds_to_the_output():
    """ε = 1e-9, grid_bits = 40 (τ = 1.1e21): nearly every output is n + Y rounded to a double. Before, log_pmf gave
    the probability of one integer (-49.47 at the first output below); it is that of the double (-38.38: the
    2^16 integers that round to it, log 2^16 = 11.09 more). privacy_loss, a ratio, is unchanged and within ε."""
    cur = vetted.VettedCTL(1e-9, grid_bits=40)
    x = cur.privatize(np.full(200, 0.5), 1)
    m = np.abs(np.ldexp(x, 40))
    assert np.mean(m > 2.0**53) > 0.9
    c = math.ldexp(1e-9, -40)
    single = float(vetted.discrete_laplace_log_pmf(0, cur.scale)) + cur._log_weight(x, 0.5)
    got = cur.log_pmf(x, 0.5)
    for xi, mi, si, gi in zip(x, m, single, got):
        if mi >= 2.0**53:
            z0, z1 = _rounding_interval(int(mi))
            assert gi == pytest.approx(si + math.log(z1 - z0 + 1), abs=1e-6)
            assert gi == pytest.approx(si + _log_rounding_mass(int(mi), c), rel=1e-15)
    # |m - a| c is rounded at |m| ~ 2^68 (spacing 2^16 steps): the loss is ε to about 1e-7 of itself there
    assert np.all(np.abs(cur.privacy_loss(x, 1.0, 0.0)) <= 1e-9 * (1 + 1e-6))
    assert "2^{53-k}" in vetted.VettedCTL.__doc__  # the docstring states the range, not "below 2^53"


def test_log_pmf_below_2_53_is_unchanged():
    cur = vetted.VettedCTL(1.0, grid_bits=20)
    x = cur.privatize(np.full(500, 0.3), 2)
    const = float(vetted.discrete_laplace_log_pmf(0, cur.scale))
    assert np.array_equal(cur.log_pmf(x, 0.3), const + cur._log_weight(x, 0.3))
