"""The fourth input-checks audit, of the public surface the first three did not cover (ldpcode.__all__, bounds,
mechanisms, stats, divergences, audit, the command line): arguments that were accepted and gave a plausible wrong
number, a silent nan or inf, a deep NumPy or Python traceback, or a message that ran over many lines. Each test
failed before its fix."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import laplace

import ldpcode as ldp
from ldpcode import __main__ as cli
from ldpcode import audit, bounds, divergences, mechanisms
from ldpcode.global_policies import Blocks


def _one_line(err: pytest.ExceptionInfo) -> str:
    text = str(err.value)
    assert "\n" not in text
    return text


LONG = np.r_[np.arange(1.0, 200.0), -1.0]  # a long array with one bad entry: its repr runs over many lines


# --- 1. stats: window_spread, hinge_fit, the slope fits, bootstrap_se ------------------------------------------------


def test_window_spread_refuses_two_windows_under_one_label():
    """Before: two different windows from x = 1 to x = 16 shared the label (1.0, 16.0); the second's slope replaced the
    first's, and the spread (0.0126) was taken over one window instead of two (0.0161)."""
    x = np.array([1.0, 2.0, 4.0, 8.0, 16.0])
    y = x**0.5 * np.array([1.0, 1.2, 0.9, 1.1, 1.0])
    skip_one, full = np.array([1, 0, 1, 1, 1], bool), np.ones(5, bool)
    with pytest.raises(ValueError, match=r"^windows\[1\] spans x = 1 to 16, as an earlier window") as err:
        ldp.window_spread(x, y, [skip_one, full], 0.5)
    _one_line(err)
    labelled = ldp.window_spread(x, y, {"skip one": skip_one, "all": full}, 0.5)  # labelled: both kept
    assert len(labelled.slopes) == 2 and labelled.spread == pytest.approx(0.0161, abs=1e-4)
    assert len(ldp.window_spread(x, y, ldp.consecutive_windows(5), 0.5).slopes) == 6  # distinct ends: unchanged


def test_hinge_fit_needs_three_distinct_x_and_names_a_bad_value_on_one_line():
    """Before: x = [1, 1, 2, 2] fitted every breakpoint between 1 and 2 exactly and returned the first, with a slope of
    2172; a bad entry in a long x printed the whole array over many lines."""
    with pytest.raises(ValueError, match=r"^x must hold at least 3 distinct values .* got 2") as err:
        ldp.hinge_fit([1, 1, 2, 2], [1, 2, 3, 3])
    _one_line(err)
    for call in (lambda: ldp.hinge_fit(LONG, np.abs(LONG)), lambda: ldp.hinge_bootstrap(LONG, np.ones((3, 200)))):
        with pytest.raises(
            ValueError, match=r"^x must be a 1-d array of at least 4 finite positive numbers, got -1.0 at index 199$"
        ) as err:
            call()
        _one_line(err)
    with pytest.raises(ValueError, match=r"got shape \(2, 2\)$"):
        ldp.hinge_fit([[1, 2], [3, 4]], [1, 2, 3, 4])
    fit = ldp.hinge_fit([1, 2, 3, 4, 5], [1, 2, 3, 3, 3], grid=11)
    assert 2 < fit.breakpoint < 4


def test_the_slope_fits_name_a_bad_abscissa_on_one_line():
    regret = np.ones((3, 200))
    for call in (lambda: ldp.loglog_slope(LONG, regret), lambda: ldp.log_growth(LONG, regret)):
        with pytest.raises(
            ValueError,
            match=r"^t must be a 1-d array of at least 3 finite positive numbers \(log taken\), got -1.0 at index 199$",
        ) as err:
            call()
        _one_line(err)
    with pytest.raises(
        ValueError, match=r"^x must be a 1-d array of at least 3 finite numbers \(log taken\), got nan at index 2$"
    ):
        ldp.exponents._check_abscissa("x", [1.0, 2.0, math.nan], positive=False)


@pytest.mark.parametrize(
    ("statistic", "shown"),
    [
        (lambda a: a, r"an array of shape \(5,\)"),  # NumPy: "only 0-dimensional arrays can be converted ..."
        (lambda a: None, "None"),  # Python: "float() argument must be a string or a real number"
        (lambda a: {}, r"\{\}"),
        (lambda a: a.mean() > 2, "np.True_|np.False_|True|False"),
    ],
)
def test_bootstrap_se_names_a_statistic_that_returns_no_number(statistic, shown):
    with pytest.raises(TypeError, match=rf"^statistic must return one number, got ({shown})") as err:
        ldp.bootstrap_se(statistic, np.arange(5.0), n_boot=3)
    _one_line(err)
    assert ldp.bootstrap_se(lambda a: np.float32(a.mean()), np.arange(5.0), n_boot=3) > 0  # a NumPy scalar: accepted
    assert ldp.bootstrap_se(lambda a: np.array([a.mean()]), np.arange(5.0), n_boot=3) > 0  # one number in an array


# --- 2. mechanisms: CTL-S's density, draw_noise, discrete_sigmoid_mean -------------------------------------------------


def test_ctl_s_density_is_the_law_of_its_response():
    """Before: CTL-S's density(x, r) was Laplace around r, not around s(r): 0.370 instead of 0.282 at x = 0, r = 0.3,
    while its output_law said 0.282."""
    c = ldp.make_curator("CTL-S", 1.0)
    x, r = np.linspace(-3.0, 3.0, 7), np.array([-2.0, 0.3, 5.0])
    expected = laplace(loc=mechanisms.sigmoid(r)[:, None], scale=1.0).pdf(x[None, :])
    np.testing.assert_allclose(c.density(x[None, :], r[:, None]), expected, rtol=1e-12)
    np.testing.assert_allclose(c.density(0.0, 0.3), c.output_law(0.3).pdf(0.0), rtol=1e-12)
    ctl = ldp.make_curator("CTL", 1.0)
    np.testing.assert_allclose(ctl.density(x, 0.3), laplace(loc=0.3, scale=1.0).pdf(x), rtol=1e-12)
    with pytest.raises(ValueError, match=r"^r must lie in \[0, 1\] for this curator, got 5.0") as err:
        ctl.density(0.0, 5.0)  # CTL's rewards lie in [0, 1]: privatize refused 5.0, density did not
    _one_line(err)


@pytest.mark.parametrize(
    ("rng", "size", "error", "match"),
    [
        ("gen", -1, ValueError, r"^size must be an integer >= 0, got -1"),  # "negative dimensions are not allowed"
        ("gen", 2.5, TypeError, r"^size must be an integer"),  # NumPy's _common.pyx
        ("gen", True, TypeError, r"^size must be an integer"),
        ("gen", None, TypeError, r"^size must be an integer"),  # AttributeError: 'float' object has no attribute 'all'
        ("gen", (2, -1), ValueError, r"^size\[1\] must be an integer >= 0"),
        (0, 3, TypeError, r"^rng must be a numpy.random.Generator"),  # AttributeError: ... 'bit_generator'
    ],
)
@pytest.mark.parametrize("name", ["CTL", "CTB"])
def test_curator_draw_noise_checks_its_rng_and_size(name, rng, size, error, match):
    c = ldp.make_curator(name, 1.0)
    with pytest.raises(error, match=match) as err:
        c.draw_noise(np.random.default_rng(0) if rng == "gen" else rng, size)
    _one_line(err)
    a, b = c.draw_noise(np.random.default_rng(1), (2, 3)), c.draw_noise(np.random.default_rng(1), np.int64(6))
    np.testing.assert_array_equal(a.ravel(), b)


def test_discrete_sigmoid_mean_says_what_is_wrong_with_probs_on_one_line():
    with pytest.raises(
        ValueError, match=r"^probs must be non-negative and sum to 1, got min 0.0101.*, sum 1.4999"
    ) as e:
        mechanisms.discrete_sigmoid_mean(0.0, np.arange(100.0), np.r_[np.ones(99) / 99, 0.5])
    _one_line(e)


# --- 3. divergences ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "names"),
    [
        (lambda: divergences.kl_bernoulli([0.1, 0.2], [0.1, 0.2, 0.3]), "p, q"),
        (lambda: divergences.klucb_bernoulli([0.1, 0.2], [0.3, 0.4, 0.5]), "p, level"),
        (lambda: divergences.d_inf_bernoulli([0.1, 0.2], [0.3, 0.4, 0.5]), "mu_a, mu_star"),
        (lambda: divergences.t_inf_bernoulli([0.1, 0.2], [0.3, 0.4, 0.5]), "mu_a, mu_star"),
        (lambda: divergences.d_inf_gaussian([0.1, 0.2], [0.3, 0.4, 0.5]), "mu_a, mu_star, sigma"),
        (lambda: divergences.tv_gaussian([0, 1], 1, [0, 1, 2], 1), "m1, s1, m2, s2"),
        (lambda: divergences.kl_mixture([0.1, 0.2, 0.3], 0.5, np.full((4, 2), 0.5), np.full((4, 2), 0.5)), "p, q, the"),
    ],
)
def test_divergences_name_the_arguments_that_do_not_broadcast(call, names):
    """Before: NumPy's "shape mismatch: objects cannot be broadcast to a single shape. Mismatch is between arg 0 ...",
    raised in numpy/lib/_stride_tricks_impl.py, or "operands could not be broadcast together", naming no argument."""
    with pytest.raises(ValueError, match=rf"^{names}.* must broadcast to one shape, got shapes ") as err:
        call()
    _one_line(err)
    assert divergences.t_inf_gaussian(0.1, 0.3, [1.0, 2.0]).shape == (2,)  # shapes that broadcast: unchanged


def test_divergence_refusals_fit_on_one_line():
    p = np.r_[np.linspace(0, 1, 50), 2.0]
    with pytest.raises(ValueError, match=r"^p must lie in \[0, 1\], got 2.0$") as err:
        divergences.kl_mixture(p, 0.5, [0.5, 0.5], [0.2, 0.8])
    _one_line(err)
    with pytest.raises(ValueError, match=r"^level must be finite and >= 0, got nan at index 50$") as err:
        divergences.klucb_bernoulli(0.1, np.r_[np.linspace(0, 1, 50), math.nan])
    _one_line(err)


# --- 4. audit ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("loss", "error", "match"),
    [
        (-1.0, ValueError, r"^loss must be a finite number > 0"),  # decreasing edges [-inf, 1, 0.5, 0, -0.5, -1, inf]
        (0.0, ValueError, r"^loss must be a finite number > 0"),  # every inner edge 0
        (math.nan, ValueError, r"^loss must be a finite number"),  # nan edges
        (math.inf, ValueError, r"^loss must be a finite number"),
        (True, TypeError, r"^loss must be a real number"),  # the atoms at +-1
        ("a", TypeError, r"^loss must be a real number"),  # "could not convert string to float: 'a'"
    ],
)
def test_atom_edges_refuses_a_loss_that_is_not_positive(loss, error, match):
    with pytest.raises(error, match=match) as err:
        audit.atom_edges(loss, 4)
    _one_line(err)
    np.testing.assert_array_equal(audit.atom_edges(np.float32(1.0), 2), [-math.inf, -(1 - 1e-9), 0, 1 - 1e-9, math.inf])


def _transcripts():
    mech = mechanisms.LaplaceMechanism(1.0, 1.0)
    losses = np.array([[0.1, 0.5], [0.2, 0.3], [0.4, 0.1]])
    neighbour = losses.copy()
    neighbour[1, 1] = 0.9  # user 1 differs on arm 1
    actions = np.array([[0, 1, 1], [0, 1, 0]])
    responses = np.random.default_rng(0).normal(size=(2, 3))
    return actions, responses, losses, neighbour, mech


def test_transcript_log_ratio_checks_its_actions_and_responses():
    """Before: an action -1 was read as the last arm (NumPy's negative index), a plausible ratio; an action 5, 1.5 or
    True was an IndexError, and a nan response gave a nan ratio."""
    actions, responses, losses, neighbour, mech = _transcripts()
    right = audit.transcript_log_ratio(actions, responses, losses, neighbour, mech)
    assert (right != 0).all()  # user 1 was asked about arm 1 in both runs
    bad = []
    for value in (-1, 5, 1.5):
        wrong = actions.astype(float)
        wrong[:, 1] = value
        bad.append((wrong, responses, ValueError, r"^actions must be (in \[0, 1\]|whole arm numbers)"))
    bad.append((actions.astype(bool), responses, TypeError, r"^actions must hold numbers, not bools"))
    bad.append((actions, responses * math.nan, ValueError, r"^responses must be finite, got nan"))
    for a, z, error, match in bad:
        with pytest.raises(error, match=match) as err:
            audit.transcript_log_ratio(a, z, losses, neighbour, mech)
        _one_line(err)
    assert np.array_equal(audit.transcript_log_ratio(actions.astype(float), responses, losses, neighbour, mech), right)


def test_ctb_float_probability_one_takes_rewards_in_the_unit_interval():
    """Before: r = 2 gave P{1} = 1.0 and r = -1 gave 0.0, the probabilities of no reward CTB takes."""
    for r in (2.0, -1.0, [0.5, 1.5]):
        with pytest.raises(ValueError, match=r"^r must lie in \[0, 1\]") as err:
            audit.ctb_float_probability_one(r, 1.0)
        _one_line(err)
    p = audit.ctb_float_probability_one(np.array([0.0, 1.0]), 1.0)
    assert p[1] / p[0] == pytest.approx(math.e, rel=1e-12)


def test_consecutive_doubles_stop_at_the_largest_double():
    """Before: consecutive_doubles(1.7976931348623157e308, 3) returned [1.8e308, inf, nan]."""
    top = np.finfo(float).max
    with pytest.raises(ValueError, match=r"^count must be <= 1 from x0 = 1.7976931348623157e\+308") as err:
        audit.consecutive_doubles(top, 3)
    _one_line(err)
    assert audit.consecutive_doubles(top, 1).tolist() == [top]
    assert np.isfinite(audit.consecutive_doubles(np.nextafter(top, 0), 2)).all()


def test_exact_curator_loss_refuses_a_name_for_a_curator():
    """Before: exact_curator_loss("CTB", inputs) returned nan (the documented value for a curator without a known law)."""
    for name in ("CTB", None, 1.0):
        with pytest.raises(TypeError, match=r"^curator must be a curator object \(make_curator\(name, eps") as err:
            audit.exact_curator_loss(name, [0.1, 0.2])
        _one_line(err)
    assert math.isnan(audit.exact_curator_loss(object(), [0.0, 1.0]))  # an object of unknown law: nan, as documented
    assert audit.exact_curator_loss(ldp.make_curator("CTB", 1.0), [0.0, 1.0]) == pytest.approx(1.0)
    assert math.isnan(audit.exact_curator_loss(audit.broken_curator("leaky", 1.0), [0.0, 1.0])) is False


def test_the_laplace_mechanism_audits_need_a_vector_of_at_least_one_value():
    """Before: laplace_privacy_loss([], [], 1) was 0.0 and laplace_release([], ...) releases of no value; a table f
    failed in NumPy's broadcasting."""
    rng = np.random.default_rng(0)
    for call in (lambda: audit.laplace_privacy_loss([], [], 1.0), lambda: audit.laplace_privacy_loss_grid([], [], 1.0)):
        with pytest.raises(ValueError, match=r"^f and f_prime must be vectors of one length d >= 1"):
            call()
    for f in ([], [[1.0, 2.0], [3.0, 4.0]]):
        with pytest.raises(ValueError, match=r"^f must be a number or a vector of d >= 1 numbers, got shape") as err:
            audit.laplace_release(f, 1.0, 3, rng)
        _one_line(err)
    assert audit.laplace_release(0.5, 1.0, 3, rng).shape == (3, 1)


def test_the_episode_tables_refuse_what_is_not_a_run():
    """Before: AttributeError: 'list' object has no attribute 'n_arms'."""
    calls = (
        lambda: audit.arm_episode_lengths([1, 2, 3]),
        lambda: audit.doubling_violations([1, 2, 3], 10),
        lambda: audit.action_sequence([1, 2, 3]),
    )
    for call in calls:
        with pytest.raises(TypeError, match=r"^blocks must be a run's ldpcode.global_policies.Blocks") as err:
            call()
        _one_line(err)
    b = Blocks(2)
    for start, arms, n in ((0, (0, 1), 2), (2, (0,), 1), (3, (1,), 1)):
        b.add(start, arms, n)
    assert audit.arm_episode_lengths(b) == [[1, 1], [1, 1]] and audit.doubling_violations(b, 4) == 0
    assert audit.action_sequence(b) == "0101"


# --- 5. one-line messages of the bounds and the shared array checks ----------------------------------------------------


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: bounds.ucb1_regret_bound(np.r_[np.linspace(0, 1, 40), math.nan], 100), r"^means must be a 1-d seq"),
        (lambda: bounds.laplace_mixed_sum_tail_bound(1.0, -np.ones(40)), r"^scales must be a non-empty"),
        (lambda: bounds.unbiased_ctb_variance(np.r_[np.linspace(0, 1, 40), 2.0], 1.0), r"^mu must lie in \[0, 1\]"),
        (
            lambda: bounds.choose_epsilon_min(ldp.make_privacy_levels("ren-heldp-discrete"), "B", np.ones((8, 8))),
            "^cand",
        ),
        (lambda: ldp.mean_se(np.array([["a"] * 30] * 3)), r"^values must be a number or an array of numbers, got an"),
        (lambda: divergences.kl_discrete(np.ones((4, 10), bool), np.ones((4, 10), bool)), r"^f must hold numbers, not"),
    ],
)
def test_refusals_of_long_arrays_fit_on_one_line(call, match):
    """Before: each message held the repr of the array it refused, over several lines."""
    with pytest.raises((TypeError, ValueError), match=match) as err:
        call()
    assert len(_one_line(err)) < 400


# --- 6. the command line: whole numbers read exactly ---------------------------------------------------------------


def test_the_command_line_reads_a_whole_number_as_written():
    """Before: --seed 10000000000000001.0 ran the seed 10000000000000000 (its double), and --horizon
    9007199254740993.0 asked for 9,007,199,254,740,992 pulls; 2.0000000000000001 was read as 2."""
    assert cli.whole("10000000000000001.0") == 10000000000000001
    assert cli.whole("9007199254740993.0") == 9007199254740993
    assert [cli.whole(t) for t in ("100000", "1e6", "1.0e5", "1.5e3", "1E6", " 7 ", "1_000")] == [
        100000, 1000000, 100000, 1500, 1000000, 7, 1000,
    ]  # fmt: skip
    for text in ("2.0000000000000001", "2.5", "1e400", "nan", "inf", "0x10", "1e-3"):
        with pytest.raises(Exception, match=r"expected a whole number such as 100000 or 1e6"):
            cli.whole(text)


def test_rerun_refuses_a_float_integer_parameter_beyond_the_exact_doubles():
    """Before: ``rerun -p seed 10000000000000001.0`` ran the seed 10000000000000000: YAML had read the text as a double,
    and every whole double up to 2**63 was made an integer. Whole doubles up to 2**53 are exact and still accepted."""
    from ldpcode.rerun import check_new_parameters

    nb = "chapters/ren2020/figure1.ipynb"
    with pytest.raises(TypeError, match=r"^parameter seed must be an integer") as err:
        check_new_parameters(nb, {"seed": 10000000000000001.0})
    _one_line(err)
    assert check_new_parameters(nb, {"seed": 1e6})["seed"] == 1000000
    assert check_new_parameters(nb, {"seed": 2.0**53})["seed"] == 2**53
