"""The seventh input-checks audit (an adversarial review of the numeric public API): inputs that were accepted and gave
a wrong or meaningless number, and ordinary bad inputs that failed with a non-ordinary error (OverflowError,
MemoryError, NumPy's own message) or a message of many lines. Each test failed before its fix; the numbers of the book
are unchanged (every fix is a guard outside the normal range)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import ldpcode as ldp
from ldpcode import bounds as B
from ldpcode import divergences as D
from ldpcode import exponents as E
from ldpcode import mechanisms as M
from ldpcode import stats as S
from ldpcode.laplace_tails import laplace_mixed_sums
from ldpcode.simulate import simulate_cost
from ldpcode.unbiasing import kept_levels

HUGE = 10**400


def _one_line(exc) -> str:
    msg = str(exc.value)
    assert "\n" not in msg and len(msg) < 600, msg
    return msg


# ---- 1.1 simulate_cost checks its arguments, as simulate does ------------------------------------------------------

_POLICY, _INSTANCE = ldp.make_policy("UCB1"), ldp.make_instance("bernoulli", means=[0.9, 0.5])


@pytest.mark.parametrize(
    "args, err, match",
    [
        ((_POLICY, _INSTANCE, -5, -1, 0), ValueError, r"^horizon must be an integer >= 2, got -5"),
        ((_POLICY, _INSTANCE, math.nan, 2, 10), TypeError, r"^horizon must be an integer"),
        ((_POLICY, _INSTANCE, HUGE, 2, 10), ValueError, r"^horizon must be an integer <= 2\*\*53"),
        ((_POLICY, _INSTANCE, "100", 2, 10), TypeError, r"^horizon must be an integer"),
        ((_POLICY, _INSTANCE, 100, -1, 10), ValueError, r"^runs must be an integer >= 1"),
        ((_POLICY, _INSTANCE, 100, 2, 0), ValueError, r"^n_checkpoints must be an integer >= 1"),
        ((_POLICY, _INSTANCE, 100, 2, 10, 0), ValueError, r"^workers must be an integer >= 1"),
        ((_INSTANCE, _POLICY, 100, 2, 10), TypeError, r"^policy must come from make_policy\(\).*the order is"),
        ((_POLICY, "bernoulli", 100, 2, 10), TypeError, r"^instance must come from"),
    ],
)
def test_simulate_cost_refuses_what_simulate_refuses(args, err, match):
    """Before: a negative horizon and runs gave a positive cost, a NaN horizon a NaN cost that passed the limits
    check, 10**400 an OverflowError, '100' a TypeError about sequences, swapped arguments an AttributeError."""
    with pytest.raises(err, match=match) as exc:
        simulate_cost(*args)
    _one_line(exc)


# ---- 1.2 the Gaussian mechanism's exact delta and epsilon -----------------------------------------------------------


def test_gaussian_exact_delta_is_never_negative():
    """Before: -2.4e-311 at (38.2, 1, 1) (the two terms cancel in the subnormal tail)."""
    assert M.gaussian_exact_delta(38.2, 1.0, 1.0) >= 0.0
    assert (M.gaussian_exact_delta(np.linspace(37.0, 39.0, 201), 1.0, 1.0) >= 0.0).all()


@pytest.mark.parametrize(
    "call",
    [
        lambda: M.gaussian_exact_delta(2e-13, 1.0, 1e-14),  # was -1.5e-102 (true +1.4e-104)
        lambda: M.gaussian_exact_delta(1e-13, 1.0, 1e-14),  # was 5.1e-38 (true 7.5e-39)
        lambda: M.gaussian_exact_delta([0.0, 1e-11], 1.0, 2e-12),  # 0.8 % off
        lambda: M.gaussian_epsilon_at_delta(1.0, 1e-14, 1e-30),  # was 9.09e-13 (true root 7.97e-14)
        lambda: M.GaussianMechanism(1e-9, 1e-5).exact_epsilon(
            1e-12
        ),  # δ below δ(0) = 8e-11: a root in the cancellation
    ],
)
def test_gaussian_closed_form_refuses_a_ratio_where_it_cancels(call):
    with pytest.raises(ValueError, match=r"^sensitivity / sigma must be >= 1e-06") as exc:
        call()
    _one_line(exc)


@pytest.mark.parametrize(
    "call",
    [
        lambda: M.GaussianMechanism(1e-9, 1e-5).exact_epsilon(),  # Δ/σ = 2e-10, δ(0) = 8e-11 <= 1e-5
        lambda: M.GaussianMechanism(1e-6, 0.1).exact_epsilon(),  # Δ/σ = 4.4e-7
        lambda: M.GaussianMechanism(1e-4, 0.1).privacy_loss([0, 0.01]),  # the papers' smallest ε, a small spread
    ],
)
def test_a_tiny_ratio_whose_delta_at_zero_is_below_delta_gives_zero(call):
    """Before the second look: refused like the cancelling case, though ε = 0 is exact there (δ(0) = erf(Δ/(2√2σ)))."""
    assert call() == 0.0


def test_gaussian_epsilon_at_delta_finds_a_tiny_root_to_its_digits():
    """brentq's absolute xtol=1e-12 made every root below about 1e-11 noise: delta(1e-13) here was inverted to an
    epsilon far from 1e-13."""
    target = float(M.gaussian_exact_delta(1e-13, 1.0, 1.0))
    eps = M.gaussian_epsilon_at_delta(1.0, 1.0, target)
    assert eps == pytest.approx(1e-13, rel=0.05, abs=0)  # was 0.0, within the absolute 1e-12
    # a root in the normal range is what it was (the first brentq is unchanged)
    assert M.gaussian_epsilon_at_delta(1.0, 1.0, 1e-5) == pytest.approx(4.0, rel=0.2)


# ---- 1.3 linear_c_epsilon_basis at gaps whose product underflows ---------------------------------------------------


def test_linear_c_epsilon_basis_at_tiny_gaps_is_its_closed_form():
    """Before: 2.000022e160 at 1e-160 (product g * min(g/2, 3 eps rho) subnormal) and inf at 1e-162."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert B.linear_c_epsilon_basis([1e-160], 1.0) == pytest.approx(2e160, rel=1e-15)
        assert B.linear_c_epsilon_basis([1e-162], 1.0) == pytest.approx(2e162, rel=1e-15)
        assert B.linear_c_epsilon_basis([0.3, 1e-170], 0.5) == pytest.approx(2e170, rel=1e-15)
    # a gap in the normal range keeps the table's form g / (g min(g/2, 3 eps rho)), bit for bit
    assert B.linear_c_epsilon_basis([0.3, 0.05], 0.5) == 0.3 / (0.3 * 0.15) + 0.05 / (0.05 * 0.025)


# ---- 1.4 horizons the theorems exclude -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, minimum",
    [
        (lambda: B.table2_stochastic_minimax(1, 100, 1.0), 99),
        (lambda: B.gdp_minimax_upper_rate(1, 3, 1.0), 2),
        (lambda: B.dp_ucb_rate([0.9, 0.5], 1, 1.0), 2),
        (lambda: B.dp_se_rate([0.9, 0.5], 1, 1.0), 2),
        (lambda: B.adap_ucb_rate([0.9, 0.5], 1, 1.0), 2),
        (lambda: B.adap_klucb_rate([0.9, 0.5], 1, 1.0), 2),
    ],
)
def test_a_horizon_the_statement_excludes_is_refused(call, minimum):
    """Before: 0.7557 for Table 2's minimax cell at T = 1 < K - 1 (Theorem 2 needs T >= K - 1), and 0.0 for every
    rate at T = 1 (log 1 = 0; -inf on the log axes the rates are drawn on)."""
    with pytest.raises(ValueError, match=rf"^horizon must be an integer >= {minimum}, got 1$"):
        call()


# ---- 1.5 exp_or_inf --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "x, err",
    [(True, TypeError), (math.nan, ValueError), (np.array([1.0, 2.0]), TypeError), ("1", TypeError), (None, TypeError)],
)
def test_exp_or_inf_checks_x(x, err):
    """Before: exp_or_inf(True) = e, exp_or_inf(nan) = nan, and an array or a string failed in math.exp's words."""
    with pytest.raises(err, match=r"^x must be a "):
        M.exp_or_inf(x)


def test_exp_or_inf_still_takes_every_real_and_inf():
    assert M.exp_or_inf(1.0) == math.exp(1.0) and M.exp_or_inf(np.float64(2.0)) == math.exp(2.0)
    assert M.exp_or_inf(800.0) == math.inf and M.exp_or_inf(math.inf) == math.inf and M.exp_or_inf(3) == math.exp(3)


# ---- 1.6 smaller silent acceptances --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: B.table2_stochastic_problem_dependent([[0.4], [0.6]], [0.3, 0.5], 100, 1.0), "gaps"),
        (lambda: B.table2_stochastic_problem_dependent([0.4, 0.6], [[0.3, 0.5]], 100, 1.0), "d"),
        (lambda: B.linear_c_epsilon_basis([[0.5, 0.2], [0.1, 0.3]], 1.0), "gaps"),
    ],
)
def test_table2_vectors_must_be_1d(call, name):
    """Before: a 2-d array was flattened silently (11.666 and 40.67)."""
    with pytest.raises(ValueError, match=rf"^{name} must be a non-empty 1-d vector"):
        call()


def test_gdp_lower_bound_bernoulli_refuses_an_empty_sigma():
    """Before: sigma=[] was accepted for family='bernoulli' (np.all([] == 1) is True)."""
    with pytest.raises(ValueError, match=r"^sigma and variance apply to family='gaussian' only"):
        B.gdp_lower_bound_constant([0.9, 0.5, 0.3], 1.0, sigma=[])


@pytest.mark.parametrize("horizon", [HUGE, 1e300, 2**53 + 1])
def test_tree_depth_has_the_horizon_cap(horizon):
    """Before: tree_depth(10**400) was 1329 and tree_depth(1e300) 997."""
    with pytest.raises(ValueError, match=r"^horizon must be an integer <= 2\*\*53"):
        M.tree_depth(horizon)


# ---- 2.1 a huge count is refused by name, not an OverflowError ------------------------------------------------------

_X5 = [1.0, 2.0, 4.0, 8.0, 16.0]
_RUNS = np.arange(1.0, 11.0).reshape(2, 5)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda v: S.bootstrap_indices(v, 10, 0), "runs"),
        (lambda v: S.bootstrap_indices(10, v, 0), "n_boot"),
        (lambda v: S.hinge_fit(_X5, _X5, grid=v), "grid"),
        (lambda v: S.hinge_bootstrap(_X5, _RUNS, grid=v), "grid"),
        (lambda v: S.hinge_bootstrap(_X5, _RUNS, n_boot=v), "n_boot"),
        (lambda v: S.bootstrap_se(np.mean, [1.0, 2.0, 3.0], n_boot=v), "n_boot"),
        (lambda v: E.loglog_slope(_X5, _RUNS, n_boot=v), "n_boot"),
        (lambda v: E.log_growth(_X5, _RUNS, n_boot=v), "n_boot"),
        (lambda v: E.ratio_exponent(_X5, _RUNS, [1.0, 2.0], n_boot=v), "n_boot"),
        (lambda v: E.consecutive_windows(v), "n"),
        (lambda v: laplace_mixed_sums([1.0, 2.0], v, np.random.default_rng(0)), "samples"),
    ],
)
@pytest.mark.parametrize("value", [HUGE, 1e300])
def test_a_count_beyond_the_doubles_is_refused_by_name(call, name, value):
    with pytest.raises(ValueError, match=rf"^{name} must be an integer <= ") as exc:
        call(value)
    _one_line(exc)


# ---- 2.2 sizes are capped and checked against the limits ------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda size: kept_levels(ldp.make_privacy_levels("ren-heldp-discrete"), 1.0, np.random.default_rng(0), size),
        lambda size: M.CTB(1.0).draw_noise(np.random.default_rng(0), size),
        lambda size: M.CTL(1.0).draw_noise(np.random.default_rng(0), (10, size)),
    ],
)
def test_a_huge_size_is_refused_before_any_allocation(call):
    """Before: MemoryError (29.1 TiB, 7.28 TiB) at 10**12, and NumPy's "Maximum allowed dimension exceeded" at
    10**400."""
    with pytest.raises(ValueError, match=r"limits") as exc:
        call(10**12)
    _one_line(exc)
    with pytest.raises(ValueError, match=r"size(\[1\])? must be an integer <= 2\*\*53") as exc:
        call(HUGE)
    _one_line(exc)
    assert call(3).size >= 3  # small sizes as before


# ---- 2.3 gaussian_loss_tail takes arrays in every branch ------------------------------------------------------------


def test_gaussian_loss_tail_arrays_outside_the_plain_branch():
    """Before: "The truth value of an array ... is ambiguous" outside [2^-250, 2^250], and a scalar for shape (1,)."""
    out = M.gaussian_loss_tail([0.0, 1.0], 1e-100, 1.0)  # r = 1e100: L ~ N(5e199, 1e200)
    np.testing.assert_array_equal(out, [1.0, 1.0])
    np.testing.assert_array_equal(M.gaussian_loss_tail([0.0, 1.0], 1e200, 1e-200), [0.5, 0.0])
    small = M.gaussian_loss_tail([0.0, 1e-100], 1.0, 1e-100)  # r = 1e-100: P[L > 0] = Phi(r/2), P[L > 1e-100] ~ Phi(-1)
    assert small[0] == pytest.approx(0.5) and small[1] == pytest.approx(0.15865525393145707, rel=1e-12)
    one = M.gaussian_loss_tail(np.array([0.0]), 1e200, 1e-200)
    assert isinstance(one, np.ndarray) and one.shape == (1,) and one[0] == 0.5
    assert M.gaussian_loss_tail(0.0, 1e200, 1e-200) == 0.5  # scalars stay scalars


# ---- 2.4 a linear program beyond the doubles is refused by name ----------------------------------------------------


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: B.linear_c_epsilon(np.eye(3), [1e200, 0.0, -1e200], 1.0), "theta, epsilon and rho"),
        (lambda: B.linear_c_epsilon(np.eye(2) * 1e200, [1.0, 0.5], 1.0), "actions"),
        (lambda: B.linear_c_epsilon(np.eye(3), [1e-200, 0.0, -1e-200], 1.0), "theta, epsilon and rho"),
        (lambda: B.linear_c_epsilon(np.eye(3), [1.0, 0.5, 0.2], 1.0, rho=1e-200), "theta, epsilon and rho"),
        (lambda: B.lemma7_worst_noise(0.5, z_max=1e200, step=1e196), "z_max"),
        (lambda: B.lemma7_worst_noise(0.5, variance=1e300, z_max=1e160, step=1e156), "z_max"),
    ],
)
def test_a_program_beyond_the_doubles_is_refused_by_name(call, name):
    """Before: "Invalid input for linprog: c must not contain values inf, nan, or None" (and A_eq), naming nothing."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=rf"^{name} must .*doubles") as exc:
            call()
    _one_line(exc)


# ---- 2.5 one-line, bounded messages ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: B.fact13_bound(np.ones((20, 20)), 0.5),
        lambda: B.fact13_bound(0.5, [[0.5, 0.2], [0.1, 0.3]]),
        lambda: B.gdp_lower_bound_terms([0.9, 0.5, 0.3], 1.0, family="gaussian", sigma=np.ones((30, 3))),
        lambda: B.gdp_lower_bound_terms([0.9, 0.5, 0.3], 1.0, family="gaussian", sigma=np.ones(50)),
        lambda: B.gdp_lower_bound_terms([0.9, 0.5, 0.3], 1.0, family="gaussian", sigma=-np.ones((30, 3))),
        lambda: B.gdp_lower_bound_terms([0.9, 0.5, 0.3], 1.0, sigma=np.arange(100.0)),
        lambda: M.tree_push(np.zeros((10, 10)), 1, 0.5, 1.0),
        lambda: M.tree_push(np.zeros(100, dtype=np.float32), 1, 0.5, 1.0),
        lambda: E.window_spread(np.arange(1.0, 1001.0), np.arange(1.0, 1001.0), [np.ones(999, bool)], 1.0),
        lambda: E.window_spread(np.arange(1.0, 51.0), np.arange(1.0, 51.0), [np.zeros((50, 50))], 1.0),
        lambda: E.window_spread(-np.arange(1.0, 1001.0), np.arange(1.0, 1001.0), [slice(0, 1000)], 1.0),
        lambda: D.kl_discrete(np.full(100000, 2e-5), np.full(100000, 1e-5)),
        lambda: D.tv_discrete(np.full(100000, 2e-5), np.full(100000, 1e-5)),
    ],
)
def test_messages_are_one_short_line(call):
    """Before: 40, 30, 10, 111 lines; kl_discrete's was one line of 700,070 characters."""
    with pytest.raises((ValueError, TypeError)) as exc:
        call()
    _one_line(exc)


# ---- severity 3: messages that misled or named nothing --------------------------------------------------------------


@pytest.mark.parametrize(
    "call, names",
    [
        (lambda: B.lemma12_bound([0.1, 0.2], [0.1, 0.2, 0.3], 1.0), "p, q"),
        (lambda: B.lemma12_fact13_bound([0.1, 0.2], [0.1, 0.2, 0.3], 1.0), "p, q"),
        (lambda: B.fact13_bound([0.1, 0.2], [0.3, 0.4, 0.5]), "r, R"),
        (lambda: M.CTL(1.0).density([0.1, 0.2], [0.1, 0.2, 0.3]), "x, r"),
    ],
)
def test_a_broadcast_mismatch_names_the_arguments(call, names):
    """Before: NumPy's "operands could not be broadcast together with shapes (2,) (3,)"."""
    with pytest.raises(ValueError, match=rf"^{names} must broadcast to one shape, got shapes"):
        call()


def test_mean_and_half_width_names_a_level_too_close_to_1():
    """Before: "the half-width of these values overflows a double ...; rescale them" (0.5 + level/2 rounded to 1)."""
    with pytest.raises(ValueError, match=r"^level must be .*, got 0.9999999999999999"):
        S.mean_and_half_width([1.0, 2.0, 3.0], level=1 - 1e-16)
    mean, half = S.mean_and_half_width([1.0, 2.0, 3.0], level=0.95)
    assert mean == 2.0 and half == pytest.approx(1.959963984540054 / math.sqrt(3), rel=1e-15)


def test_bootstrap_se_names_the_array_that_holds_a_nan():
    """Before: "statistic gave a non-finite value on a bootstrap replicate", blaming the statistic."""
    with pytest.raises(ValueError, match=r"arrays\[1\] holds nan at index 1"):
        S.bootstrap_se(lambda a, b: float(np.mean(a - b)), [1.0, 2.0, 3.0], [1.0, np.nan, 3.0], n_boot=20)
    # a statistic that handles nan (np.nanmean) still may be given one
    assert S.bootstrap_se(np.nanmean, [1.0, np.nan, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], n_boot=50) > 0


def test_linear_c_epsilon_ties_are_relative():
    """Before: "actions [0, 1, 2] tie at <a, theta> = 1e-13": the tolerance 1e-12 max(1, |values|) was absolute."""
    res = B.linear_c_epsilon(np.eye(3), [1e-13, 0.0, -1e-13], 1.0)
    assert res.optimal_index == 0
    assert res.value == pytest.approx(B.linear_c_epsilon_basis([1e-13, 2e-13], 1.0), rel=1e-6)
    with pytest.raises(ValueError, match=r"tie at"):
        B.linear_c_epsilon(np.eye(3), [1e-13, 1e-13 * (1 + 1e-15), 0.0], 1.0)


@pytest.mark.parametrize(
    "call",
    [
        lambda rng: ldp.make_instance("ren2020-bernoulli").sample(0, HUGE, rng),
        lambda rng: ldp.make_privacy_levels("ren-heldp-discrete").sample(rng, HUGE),
        lambda rng: ldp.make_privacy_levels("ren-heldp-discrete").sample(rng, (2, HUGE)),
    ],
)
def test_a_sample_size_beyond_the_doubles_is_refused_by_name(call):
    """The second look: Instance.sample and PrivacyLevels.sample gave NumPy's "Maximum allowed dimension exceeded"."""
    with pytest.raises(ValueError, match=r"^size(\[1\])? must be an integer <= 2\*\*53") as exc:
        call(np.random.default_rng(0))
    _one_line(exc)
