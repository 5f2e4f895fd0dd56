"""The vetted curators (ldpcode.vetted): exact samplers whose law is the one the privacy proof is about.

Their laws against the closed forms (exact coins, the discrete Laplace pmf, the curators' output laws),
Mironov's attack (it identifies most outputs of numpy's sampler and none of these), the book's black-box
audit, determinism for a seed, and bad inputs named."""

from __future__ import annotations

import math
import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import stats

import ldpcode as ldp
from ldpcode import audit, vetted

Z = 4.5  # |z| beyond which a seeded moment check fails (two-sided 7e-6)


def _binomial_z(count, n, p):
    return (count - n * p) / math.sqrt(n * p * (1 - p))


def _chi_square_p(samples, log_pmf, cut):
    """Chi-square p-value of integer ``samples`` against a pmf, cells -cut..cut and the two tails."""
    samples = np.asarray(samples)
    cells = np.arange(-cut, cut + 1)
    probs = np.exp(log_pmf(cells))
    lo, hi = (samples < -cut).sum(), (samples > cut).sum()
    counts = np.array([(samples == c).sum() for c in cells] + [lo, hi])
    tail = (1.0 - probs.sum()) / 2
    expected = np.concatenate([probs, [tail, tail]]) * samples.size
    keep = expected > 5
    obs, exp = counts[keep], expected[keep]
    return stats.chisquare(obs, exp * obs.sum() / exp.sum()).pvalue


# --- exact coins and the discrete Laplace sampler ------------------------------------------------------------


def test_bits_are_uniform_and_reproducible():
    bits = vetted.make_bits(np.random.default_rng(1))
    draws = np.array([bits.randbelow(3) for _ in range(30_000)])
    assert stats.chisquare(np.bincount(draws, minlength=3)).pvalue > 1e-4
    assert {bits.randbits(70).bit_length() <= 70 for _ in range(100)} == {True}
    a = [vetted.make_bits(5).randbelow(10**30) for _ in range(3)]
    b = [vetted.make_bits(np.random.default_rng(5)).randbelow(10**30) for _ in range(3)]
    assert a == b


@pytest.mark.parametrize("gamma", [Fraction(0), Fraction(1, 2), Fraction(1), Fraction(5, 2), 0.1])
def test_bernoulli_exp_has_probability_exp_minus_gamma(gamma):
    bits = vetted.make_bits(np.random.default_rng(2))
    n = 40_000
    count = sum(vetted.bernoulli_exp(gamma, bits) for _ in range(n))
    p = math.exp(-float(gamma))
    if p == 1.0:
        assert count == n
    else:
        assert abs(_binomial_z(count, n, p)) < Z


@pytest.mark.parametrize("scale", [Fraction(3, 2), Fraction(5), 0.37])
def test_discrete_laplace_law(scale):
    """Chi-square against (1-q)/(1+q) q^|y|; the mean 0, the variance 2q/(1-q)^2 and the tail
    P{|Y| >= m} = 2 q^m / (1 + q), each within Z standard errors."""
    bits = vetted.make_bits(np.random.default_rng(3))
    n = 40_000
    y = np.array([vetted.discrete_laplace(scale, bits) for _ in range(n)])
    assert _chi_square_p(y, lambda c: vetted.discrete_laplace_log_pmf(c, scale), 25) > 1e-4
    q = math.exp(-1.0 / float(scale))
    var = 2 * q / (1 - q) ** 2
    assert vetted.discrete_laplace_variance(scale) == pytest.approx(var, rel=1e-12)
    assert abs(y.mean()) / math.sqrt(var / n) < Z
    assert abs(y.var() - var) / (y.astype(float) ** 2).std() * math.sqrt(n) < Z
    m = max(1, round(2 * float(scale)))
    assert abs(_binomial_z((np.abs(y) >= m).sum(), n, 2 * q**m / (1 + q))) < Z


def test_discrete_laplace_pmf_is_a_law():
    """The closed form sums to 1 and has the stated variance (sums over a window wide enough for 1e-15)."""
    for scale in (Fraction(3, 2), 0.37, 40.0):
        y = np.arange(-int(60 * float(scale)) - 60, int(60 * float(scale)) + 61)
        p = np.exp(vetted.discrete_laplace_log_pmf(y, scale))
        assert p.sum() == pytest.approx(1.0, abs=1e-12)
        assert (p * y**2).sum() == pytest.approx(vetted.discrete_laplace_variance(scale), rel=1e-10)


def test_opendp_sampler_has_the_same_law():
    """OpenDP's make_laplace on integers (not seedable: the threshold 1e-6 is its false-alarm rate) and the
    book's sampler, each against the closed form and against each other."""
    scale = Fraction(5)
    src = vetted.make_source("opendp")
    n = 40_000
    y_opendp = np.array(src.release([0] * n, scale, None))
    bits = vetted.make_bits(np.random.default_rng(4))
    y_exact = np.array(vetted.ExactDiscreteLaplace().release([0] * n, scale, bits))
    for y in (y_opendp, y_exact):
        assert _chi_square_p(y, lambda c: vetted.discrete_laplace_log_pmf(c, scale), 20) > 1e-6
    cells = np.arange(-20, 21)
    table = np.array([[np.clip(y, -20, 20).tolist().count(c) for c in cells] for y in (y_opendp, y_exact)])
    table = table[:, table.min(axis=0) > 5]
    assert stats.chi2_contingency(table).pvalue > 1e-6
    assert src.epsilon_for(scale, 5) <= 1.0


# --- the curators' laws ------------------------------------------------------------------------------------------


def test_vetted_ctl_law_matches_its_pmf():
    """A coarse grid (2^-2) and an input off the grid (0.3: rounded to 0.25 or 0.5, with p = 0.2): the counts
    of each output against the exact pmf (randomized rounding and discrete Laplace together)."""
    cur = vetted.VettedCTL(1.0, grid_bits=2)
    x = cur.privatize(np.full(40_000, 0.3), np.random.default_rng(5))
    m = np.ldexp(x, 2)
    assert (m == np.round(m)).all()
    p = _chi_square_p(m.astype(int), lambda c: cur.log_pmf(np.ldexp(c.astype(float), -2), 0.3), 30)
    assert p > 1e-4
    grid = np.ldexp(np.arange(-400, 405, dtype=float), -2)
    assert cur.pmf(grid, 0.3).sum() == pytest.approx(1.0, abs=1e-12)
    assert (cur.pmf(grid, 0.3) * grid).sum() == pytest.approx(0.3, abs=1e-12)  # unbiased
    mean = (cur.pmf(grid, 0.3) * grid).sum()
    assert (cur.pmf(grid, 0.3) * (grid - mean) ** 2).sum() == pytest.approx(float(cur.output_variance(0.3)), rel=1e-9)
    assert cur.log_pmf(0.3, 0.3) == -np.inf  # off the grid


@pytest.mark.parametrize("name,r", [("CTL", 0.3), ("CTL", 1.0), ("CTL-S", 0.7), ("CTB", 0.3), ("CTB-S", -0.4)])
def test_vetted_output_mean(name, r):
    cur = vetted.make_curator(name, 1.0)
    x = cur.privatize(np.full(40_000, r), np.random.default_rng(6))
    u = float(ldp.mechanisms.sigmoid(r)) if name.endswith("-S") else r
    claimed = ldp.mechanisms.ctb_output_mean(u, 1.0) if name.startswith("CTB") else u
    assert abs(x.mean() - claimed) / (x.std() / math.sqrt(x.size)) < Z


def test_vetted_ctl_variance_is_laplace_at_most():
    for eps in (0.5, 1.0, 4.0):
        cur = vetted.VettedCTL(eps)
        assert float(cur.output_variance(0.3)) <= 2 / eps**2 + cur.grid**2 / 4
        assert float(cur.output_variance(0.3)) == pytest.approx(2 / eps**2, rel=1e-9)


@pytest.mark.parametrize("eps", [0.5, 3.0])
def test_vetted_ctb_is_lemma5_exactly(eps):
    cur = vetted.VettedCTB(eps)
    for i, r in enumerate((0.0, 0.3, 1.0)):
        x = cur.privatize(np.full(40_000, r), np.random.default_rng([7, i]))
        assert set(np.unique(x)) <= {0.0, 1.0}
        p1 = (r * math.exp(eps) + 1 - r) / (1 + math.exp(eps))  # Lemma 5, transcribed
        assert float(cur.pmf(1.0, r)) == pytest.approx(p1, rel=1e-12)
        assert abs(_binomial_z(x.sum(), x.size, p1)) < Z


def test_vetted_ctb_keeps_both_answers_where_numpy_loses_one():
    """NumPy's CTB answers 1 surely from r = 1 once e^eps > 2^53 (eps = 37: infinite loss); the vetted one
    keeps P{0 | 1} = 1/(1 + e^eps) > 0, so its loss is eps at any eps."""
    assert audit.ctb_float_probability_one(np.array([1.0]), 37.0)[0] == 1.0
    for eps in (37.0, 100.0, 1000.0):
        cur = vetted.VettedCTB(eps)
        assert cur.log_pmf(0.0, 1.0) == pytest.approx(-eps - math.log1p(math.exp(-eps)), rel=1e-12)
        assert cur.exact_loss([0.0, 1.0]) == pytest.approx(eps, rel=1e-9)
        assert cur.reachable(0.0, 1.0)
        assert set(cur.privatize(np.full(100, 1.0), 8).tolist()) == {1.0}  # finite at any eps


def test_exact_loss_against_the_whole_law():
    """exact_loss (four break points) against privacy_loss_matrix of the pmf over a wide window."""
    cur = vetted.VettedCTL(1.0, grid_bits=3)
    inputs = np.array([0.0, 0.3, 0.55, 0.8, 1.0])
    grid = np.ldexp(np.arange(-600, 609, dtype=float), -3)
    table = np.stack([cur.pmf(grid, r) for r in inputs])
    assert cur.exact_loss(inputs) == pytest.approx(audit.privacy_loss_matrix(table).max(), rel=1e-9)
    assert cur.exact_loss([0.0, 1.0]) == pytest.approx(1.0, rel=1e-12)
    for eps in (1e-9, 0.3, 7.3, 1e300):  # never above the claim, at any eps
        assert vetted.VettedCTL(eps).exact_loss([0.0, 0.3, 1.0]) == eps
    assert cur.exact_loss([0.3, 0.55]) < 1.0
    assert vetted.VettedCTLS(2.0).exact_loss([-1e6, 0.0, 1e6]) == pytest.approx(2.0, rel=1e-12)


# --- Mironov's attack and the audit ------------------------------------------------------------------------------


def test_mironov_attack_finds_nothing_on_the_vetted_sampler():
    """The attack of the appendix identifies most outputs of numpy's CTL (reachable from r = 1, not from
    r = 0); asked of the vetted sampler's exact law, it identifies none, and every output's exact privacy
    loss is at most eps. The question is not vacuous: numpy's outputs are not on the vetted grid."""
    eps, n = 1.0, 2_000
    numpy_out = ldp.CTL(eps).privatize(np.full(n, 1.0), np.random.default_rng(9))
    numpy_identifying = ~audit.laplace_float_reachable(numpy_out, 0.0, 1.0 / eps)
    assert numpy_identifying.mean() > 0.5
    cur = vetted.VettedCTL(eps)
    out = cur.privatize(np.full(n, 1.0), np.random.default_rng(9))
    assert cur.reachable(out, 1.0).all()
    assert cur.reachable(out, 0.0).all()  # no identifying output
    loss = np.abs(cur.privacy_loss(out, 1.0, 0.0))
    assert loss.max() <= eps
    assert np.allclose(loss, np.abs(cur.log_pmf(out, 1.0) - cur.log_pmf(out, 0.0)), rtol=1e-9, atol=1e-12)
    assert not cur.reachable(numpy_out, 0.0).any()  # off the grid: the check can say no


@pytest.mark.parametrize("name", ["CTL", "CTB", "CTL-S", "CTB-S"])
def test_vetted_curators_pass_the_audit(name):
    cur = vetted.make_curator(name, 1.0)
    res = audit.curator_audit(cur, 20_000, [10, len(name)])
    assert not res.refuted, res
    assert res.exact == pytest.approx(1.0, rel=1e-9)
    assert res.lower > 0.7  # the audit sees the loss: not vacuous
    assert res.rejected == (() if name.endswith("-S") else (-1.0, 2.0, -1e6, 1e6))
    wrong = audit.curator_audit(cur, 20_000, [10, len(name)], epsilon=0.5)
    assert wrong.refuted  # a claim of eps/2 is refuted


class _Unseeded:
    """The audit hands each input a Generator; OpenDP draws its own bits, so the adapter drops it."""

    def __init__(self, cur):
        self.cur, self.epsilon, self.name = cur, cur.epsilon, cur.name

    def privatize(self, values, rng):
        return self.cur.privatize(values)

    def exact_loss(self, inputs):
        return self.cur.exact_loss(inputs)


def test_opendp_curator_passes_the_audit():
    cur = vetted.make_curator("CTL", 1.0, source="opendp")
    res = audit.curator_audit(_Unseeded(cur), 20_000, 11, alpha=1e-6)
    assert not res.refuted and res.lower > 0.6
    assert audit.curator_audit(_Unseeded(cur), 20_000, 11, epsilon=0.5, alpha=1e-6).refuted


# --- determinism and the random bits ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["CTL", "CTB", "CTL-S", "CTB-S"])
def test_same_seed_same_bits(name):
    cur = vetted.make_curator(name, 1.0)
    r = np.linspace(0, 1, 50)
    a = cur.privatize(r, np.random.default_rng(12))
    assert np.array_equal(a, cur.privatize(r, np.random.default_rng(12)))
    assert np.array_equal(a, cur.privatize(r, 12))
    assert np.array_equal(a, cur.privatize(r, np.random.SeedSequence(12)))
    assert not np.array_equal(a, cur.privatize(r, 13))
    sys_a, sys_b = cur.privatize(r), cur.privatize(r)  # the operating system's bits
    assert sys_a.shape == r.shape and not np.array_equal(sys_a, sys_b)
    assert cur.privatize(r.reshape(5, 10), 12).shape == (5, 10)


def test_opendp_refuses_a_seed():
    cur = vetted.make_curator("CTL-S", 1.0, source="opendp")
    with pytest.raises(ValueError, match="rng must be None"):
        cur.privatize([0.5], np.random.default_rng(0))
    assert cur.privatize([0.5, 2.0]).shape == (2,)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(r=st.floats(0, 1), eps=st.floats(0.01, 50), k=st.integers(0, 12), seed=st.integers(0, 2**32))
def test_outputs_are_on_the_grid_and_possible(r, eps, k, seed):
    cur = vetted.VettedCTL(eps, grid_bits=k)
    x = cur.privatize(np.full(5, r), seed)
    m = np.ldexp(x, k)
    assert np.isfinite(x).all() and (m == np.round(m)).all()
    assert (cur.log_pmf(x, r) > -np.inf).all() and cur.reachable(x, 1 - r).all()


# --- bad inputs, each named (counted with the fuzz suite's bad inputs) -------------------------------------------


def _refused(call, param, fuzz_count):
    fuzz_count["tried"] += 1
    try:
        call()
    except (ValueError, TypeError) as exc:
        if re.search(rf"(?<![A-Za-z0-9_]){re.escape(param)}(?![A-Za-z0-9])", str(exc)):
            return
        fuzz_count["escaped"] += 1
        pytest.fail(f"{param}: {type(exc).__name__} does not name it: {exc}")
    fuzz_count["escaped"] += 1
    pytest.fail(f"{param}: accepted")


BAD = {
    "epsilon": [0.0, -1.0, math.nan, math.inf, "1", True, None],
    "grid_bits": [-1, 41, 1.5, "3", True, math.nan],
    "source": ["numpy", "", None, 3, True],
    "curator": ["Laplace", "ctl", None, 1],
}


@pytest.mark.parametrize("param,value", [(p, v) for p, vs in BAD.items() for v in vs])
def test_bad_construction_is_named(param, value, fuzz_count):
    args = dict(name="CTL", epsilon=1.0, source="exact", grid_bits=10)
    args[{"curator": "name"}.get(param, param)] = value
    _refused(lambda: vetted.make_curator(**args), param, fuzz_count)


@pytest.mark.parametrize("name", ["CTL", "CTB"])
@pytest.mark.parametrize("value", [-0.1, 1.5, math.nan, math.inf, "0.5", None, [0.5, 2.0], {"a": 1}])
def test_bad_rewards_are_named(name, value, fuzz_count):
    _refused(lambda: vetted.make_curator(name, 1.0).privatize(value, 0), "rewards", fuzz_count)


@pytest.mark.parametrize("value", ["abc", -1, 1.5, True, object(), [1, 2]])
def test_bad_rng_is_named(value, fuzz_count):
    _refused(lambda: vetted.make_curator("CTL", 1.0).privatize([0.5], value), "rng", fuzz_count)


def test_misplaced_options_are_named(fuzz_count):
    _refused(lambda: vetted.make_curator("CTB", 1.0, source="opendp"), "source", fuzz_count)
    _refused(lambda: vetted.make_curator("CTB-S", 1.0, grid_bits=10), "grid_bits", fuzz_count)
    _refused(lambda: vetted.discrete_laplace(0, vetted.make_bits(0)), "scale", fuzz_count)
    _refused(lambda: vetted.bernoulli_exp(-1, vetted.make_bits(0)), "gamma", fuzz_count)
    _refused(lambda: vetted.VettedCTL(1.0).exact_loss([0.5, math.nan]), "inputs", fuzz_count)
    _refused(lambda: vetted.VettedCTL(1.0).log_pmf([math.inf], 0.5), "x", fuzz_count)
    _refused(lambda: vetted.VettedCTL(1.0).output_mean(1.5), "mu", fuzz_count)
    _refused(lambda: vetted.VettedCTL(1.0).exact_loss([0.5, 2.0]), "inputs", fuzz_count)
    _refused(lambda: vetted.VettedCTB(1.0).exact_loss([0.5, -1.0]), "inputs", fuzz_count)
    _refused(lambda: vetted.VettedCTL(1.0).log_pmf([0.0], 1.5), "r", fuzz_count)
    _refused(lambda: vetted.VettedCTB(1.0).reachable([0.0], -0.5), "r", fuzz_count)
