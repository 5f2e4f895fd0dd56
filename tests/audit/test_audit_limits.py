"""Issue 12, items 2 and 8: the audits' seeds and parameters get named errors (not NumPy's), a lower
confidence bound on a privacy loss is never below 0, a Gaussian mechanism audited against a pure-epsilon claim
has an infinite exact loss, and the exact losses hold at any epsilon."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ldpcode as ldp
from ldpcode import audit
from ldpcode.mechanisms import GaussianMechanism

BAD_SEEDS = [
    (-1, ValueError),
    ("a", TypeError),
    (1.5, TypeError),
    (True, TypeError),
    (None, TypeError),
    ([1, -2], ValueError),
    ([], ValueError),
    (["x"], TypeError),
    (np.random.default_rng(0), TypeError),
]


def _seed_id(value):
    """A test id that is the same in every process (a Generator's repr holds its memory address, which made
    pytest-xdist's workers collect different tests)."""
    return type(value).__name__ if isinstance(value, np.random.Generator) else repr(value)


@pytest.mark.parametrize("seed,exc", BAD_SEEDS, ids=_seed_id)
def test_audit_seeds_are_named(seed, exc):
    """NumPy said e.g. 'expected non-negative integer' or 'SeedSequence expects int or sequence of ints'."""
    calls = [
        lambda: audit.curator_audit(ldp.CTB(1.0), 100, seed, pilot=20),
        lambda: audit.output_mean_audit(ldp.CTB(1.0), samples=10, seed=seed),
    ]
    inst = ldp.make_instance("bernoulli", means=[0.6, 0.4])
    pol = ldp.make_policy("AdaP-UCB", 1.0)
    r = np.zeros(10)
    rp = r.copy()
    rp[0] = 1.0
    calls.append(lambda: audit.action_sequence_audit(pol, inst, r, rp, 10, 2, seed))
    for call in calls:
        with pytest.raises(exc, match=r"^seed(\[\d\])? must be"):
            call()


def test_audit_seed_forms_still_accepted():
    a = audit.curator_audit(ldp.CTB(1.0), 200, 3, pilot=20)
    b = audit.curator_audit(ldp.CTB(1.0), 200, np.random.SeedSequence(3), pilot=20)
    c = audit.curator_audit(ldp.CTB(1.0), 200, [3], pilot=20)
    assert a.lower == b.lower and np.isfinite(c.lower)
    assert audit.curator_audit(ldp.CTB(1.0), 200, np.int64(3), pilot=20).lower == a.lower


@pytest.mark.parametrize(
    "kwargs,exc,name",
    [
        (dict(samples="100"), TypeError, "samples"),
        (dict(samples=10), ValueError, "samples"),
        (dict(samples=True), TypeError, "samples"),
        (dict(bins=0), ValueError, "bins"),
        (dict(bins=2.5), TypeError, "bins"),
        (dict(bins="10"), TypeError, "bins"),
        (dict(pilot=-5), ValueError, "pilot"),
    ],
)
def test_curator_audit_parameters_are_named(kwargs, exc, name):
    args = dict(samples=100, seed=0, pilot=20) | kwargs
    with pytest.raises(exc, match=rf"^{name} must be"):
        audit.curator_audit(ldp.CTB(1.0), **args)


def test_lemma1_audit_parameters_are_named():
    r, rp = [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0]
    with pytest.raises(TypeError, match=r"^samples must be an integer"):
        audit.lemma1_audit(r, rp, [3], 1.0, "100", np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"^samples must be an integer >= 1"):
        audit.lemma1_audit(r, rp, [3], 1.0, 0, np.random.default_rng(0))
    with pytest.raises(TypeError, match=r"^rng must be a numpy.random.Generator"):
        audit.lemma1_audit(r, rp, [3], 1.0, 100, 0)
    with pytest.raises(ValueError, match=r"^alpha must be a probability"):
        audit.lemma1_audit(r, rp, [3], 1.0, 100, np.random.default_rng(0), alpha=5)
    with pytest.raises(TypeError, match=r"^starts must be a number"):
        audit.lemma1_audit(r, rp, ["3"], 1.0, 100, np.random.default_rng(0))


def test_binned_log_ratio_bins_are_named():
    for bad, exc in ((0, ValueError), (True, TypeError), (2.5, ValueError), ("a", TypeError), ([1.0], ValueError)):
        with pytest.raises(exc, match=r"^bins must be"):
            audit.binned_log_ratio([0.1, 0.2], [0.3, 0.4], bad)


def test_traced_run_rngs_are_named():
    pol, inst = ldp.make_policy("AdaP-UCB", 1.0), ldp.make_instance("bernoulli", means=[0.6, 0.4])
    with pytest.raises(TypeError, match=r"^noise_rng must be a numpy.random.Generator"):
        audit.traced_run(pol, inst, 20, np.random.default_rng(0), 5)
    with pytest.raises(TypeError, match=r"^reward_rng must be a numpy.random.Generator"):
        audit.traced_run(pol, inst, 20, None, np.random.default_rng(0))


# ------------------------------------------------------------------- a lower bound on a loss is never < 0


def test_many_bins_few_samples_lower_bound_is_not_negative():
    """bins >> samples: every bin's Clopper-Pearson interval (at level alpha/(2K)) contains 0 on the log
    scale, so max_k max(lower_k, -upper_k) was negative (-7.5 here; -9.5 for the curator audit below): a
    'lower bound' below every privacy loss. The bound is floored at 0, the smallest loss there is."""
    rng = np.random.default_rng(0)
    a, b = rng.laplace(size=30), rng.laplace(size=30)
    res = audit.binned_log_ratio(a, b, 1000)
    assert res.max_lower == 0.0
    assert (np.maximum(res.lower, -res.upper) < 0).all()  # the per-bin bounds are signed and stay as they are
    cur = audit.curator_audit(ldp.CTL(1.0), samples=100, seed=1, bins=10_000, pilot=20)
    assert cur.lower >= 0.0 and not cur.refuted


@settings(max_examples=40, deadline=None, derandomize=True)
@given(n=st.integers(1, 60), bins=st.integers(1, 3000), seed=st.integers(0, 10**6), shift=st.floats(0, 3))
def test_binned_lower_bound_is_never_negative(n, bins, seed, shift):
    rng = np.random.default_rng(seed)
    res = audit.binned_log_ratio(rng.laplace(size=n), shift + rng.laplace(size=n), bins)
    assert res.max_lower >= 0.0
    d = audit.delta_log_ratio(rng.normal(size=n), rng.normal(size=n), np.linspace(-2, 2, 1 + bins % 50), 0.01)
    assert d.max_lower >= 0.0


def test_a_real_leak_is_still_found_with_few_bins():
    """The floor changes nothing where the audit has something to say: 2 x eps-DP caught at eps = 1."""
    res = audit.curator_audit(audit.broken_curator("half-scale", 1.0), samples=20_000, seed=2)
    assert res.refuted and res.lower > 1.0


# ------------------------------------------------------------------ Gaussian mechanism vs a pure-eps claim


def test_gaussian_mechanism_against_a_pure_epsilon_claim_has_infinite_exact_loss():
    """delta = 0 was audited with the mechanism's own delta: a finite "exact loss" (0.75 here) for a mechanism
    that meets no pure-epsilon guarantee (its privacy loss random variable is unbounded)."""
    g = GaussianMechanism(1.0, 1e-5)
    res = audit.curator_audit(g, samples=2_000, seed=0, probes=(), delta=0.0)
    assert res.method == "binned" and res.exact == math.inf
    assert audit.exact_curator_loss(g, [0.0, 1.0], delta=0.0) == math.inf
    assert audit.gaussian_epsilon_at_delta(g.sigma, 1.0, 0.0) == math.inf
    assert audit.gaussian_epsilon_at_delta(g.sigma, 0.0, 0.0) == 0.0  # Delta = 0: nothing to leak
    # at its own delta the exact epsilon is finite and below the claim (Dwork and Roth's sigma, eps < 1)
    at_delta = audit.curator_audit(g, samples=2_000, seed=0, probes=())
    assert at_delta.method == "threshold" and 0 < at_delta.exact < 1.0
    assert audit.exact_curator_loss(g, [0.0, 1.0]) == at_delta.exact


def test_gaussian_exact_loss_beyond_the_doubles_is_infinite():
    """sigma = 4.8e-300 (eps = 1e300): the root of delta(eps) = delta is beyond 1e300; the doubling search
    reached inf and the error blamed 'epsilon'."""
    g = GaussianMechanism(1e300, 1e-5)
    assert audit.exact_curator_loss(g, [0.0, 1.0]) == math.inf


# --------------------------------------------------------------------- exact losses at any epsilon


@pytest.mark.parametrize("eps", [709.8, 1e4, 1e300])
def test_exact_ctb_loss_at_huge_epsilon(eps):
    """It was computed with e^min(eps, 700): CTB's exact loss at eps = 1e4 came out as 700."""
    assert audit.exact_curator_loss(ldp.CTB(eps), [0.0, 1.0]) == pytest.approx(eps, rel=1e-12)
    assert audit.exact_curator_loss(ldp.CTB(eps), [0.25, 0.75]) == pytest.approx(math.log(3.0), rel=1e-12)
    assert audit.HeterogeneousCurator("CTB", eps).exact_loss([0.0, 1.0]) == pytest.approx(eps, rel=1e-12)
    assert audit.broken_curator("unclipped", eps).exact_loss([0.0, 1.0, 2.0]) == math.inf
    # as implemented, P{1 | r} = r from eps = 709.79 on: the answer 0 is impossible under r = 1
    np.testing.assert_array_equal(audit.ctb_float_probability_one([0.0, 1.0], eps), [0.0, 1.0])


def test_exact_ctb_loss_unchanged_for_ordinary_epsilon():
    """Bit for bit the value of the probability table (the form used up to eps = 700)."""
    for eps in (0.5, 1.0, 3.0, 40.0):
        e = math.exp(eps)
        u = np.array([0.0, 0.25, 0.5, 1.0])
        table = np.column_stack([((1 - u) * e + u) / (1 + e), (u * e + 1 - u) / (1 + e)])
        assert audit.exact_curator_loss(ldp.CTB(eps), u) == float(audit.privacy_loss_matrix(table).max())
    assert audit.exact_curator_loss(ldp.CTB(700.0), [0.0, 1.0]) == pytest.approx(
        audit.exact_curator_loss(ldp.CTB(700.0 + 1e-9), [0.0, 1.0]), abs=1e-8
    )


def test_random_dp_pair_refuses_epsilon_it_cannot_represent():
    """e^eps overflowed (OverflowError: math range error) above 709.78."""
    with pytest.raises(ValueError, match=r"^epsilon must be <= 700 for random_dp_pair"):
        audit.random_dp_pair(709.8, 3, np.random.default_rng(0))
    f, g = audit.random_dp_pair(700.0, 3, np.random.default_rng(0), mode="extreme")
    assert audit.max_log_ratio(f, g) <= 700.0 * (1 + 1e-12)
