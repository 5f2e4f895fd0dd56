"""Hostile input: generated bad values thrown at the public API of ldpcode and at every notebook's
parameter check. Each bad value goes into one parameter at a time, the others valid and small (so a
wrongly accepted value cannot run long), under a per-call time limit. Every one must be refused with a
ValueError (or a TypeError for a wrong type) whose message names the parameter. The count of bad inputs
is printed in pytest's terminal summary (tests/conftest.py)."""

from __future__ import annotations

import math
import re
import signal
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ldpcode as ldp
from ldpcode import audit, bco, bounds, claims, contextual, divergences, mechanisms, parameters, reductions
from ldpcode.simulate import bootstrap_indices, hinge_bootstrap, log_growth, mean_and_half_width, ratio_exponent

FUZZ = settings(
    max_examples=25, derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)
TIME_LIMIT = 3.0  # seconds per call: a call still running then is a hang


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang()


NUMPY_REPR = re.compile(r"np\.(float|int|uint|bool|complex|str)\w*\(")


def expect_refused(call, param: str, value, fuzz_count):
    """Run ``call()``: it must raise ValueError or TypeError naming ``param``, within TIME_LIMIT, and show no NumPy
    scalar repr (``np.float64(1.2)``) the reader did not pass."""
    fuzz_count["tried"] += 1
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, TIME_LIMIT)
    try:
        call()
    except Hang:
        outcome = f"hung (still running after {TIME_LIMIT} s)"
    except (ValueError, TypeError) as exc:
        named = re.search(rf"(?<![A-Za-z0-9_]){re.escape(param)}(?![A-Za-z0-9])", str(exc))
        # a number read out of an array shows as the reader wrote it, not as NumPy 2's repr of its scalar types
        numpy_repr = NUMPY_REPR.search(str(exc)) and not NUMPY_REPR.search(repr(value))
        if named and not numpy_repr:
            return
        outcome = f"raised {type(exc).__name__} " + ("showing a NumPy repr" if named else f"without naming {param!r}")
        outcome += f": {exc}"
    except Exception as exc:  # noqa: BLE001 - the point is to catch anything that escapes
        outcome = f"escaped as {type(exc).__name__}: {exc}"
    else:
        outcome = "was accepted"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    fuzz_count["escaped"] += 1
    pytest.fail(f"{param}={value!r} {outcome}")


# --- bad values ---------------------------------------------------------------------------------------------

NAN, INF = math.nan, math.inf
NONFINITE = st.sampled_from([NAN, INF, -INF, np.float64(NAN)])
WRONG_TYPES = st.sampled_from(["1", "abc", b"1", {"a": 1}, {1}, 1 + 2j, object(), True, False, np.bool_(True)])
NOT_SEQUENCES = st.sampled_from(["0.5", None, {"a": 1}, object(), 1 + 2j])
FINITE = st.floats(allow_nan=False, allow_infinity=False)


def bad_real(lo=None, hi=None, *, lo_open=False, hi_open=False, none_ok=False, vector_ok=False):
    """Values outside a finite real interval: non-finite, out of range, wrong type."""
    parts = [NONFINITE, WRONG_TYPES]
    if not none_ok:
        parts.append(st.just(None))
    if not vector_ok:
        parts.append(st.sampled_from([[1.0], (0.5, 0.5)]))
    if lo is not None:
        parts.append(st.floats(max_value=lo, exclude_max=not lo_open, allow_nan=False, allow_infinity=False))
        parts.append(st.integers(max_value=math.floor(lo) - (0 if lo_open or lo != math.floor(lo) else 1)))
    if hi is not None:
        parts.append(st.floats(min_value=hi, exclude_min=not hi_open, allow_nan=False, allow_infinity=False))
    return st.one_of(parts)


def bad_int(lo=None, hi=None, *, none_ok=False):
    parts = [
        NONFINITE,
        st.sampled_from(["1", 1 + 2j, [1], True, False, object()]),
        FINITE.filter(lambda v: not float(v).is_integer()),
    ]
    if not none_ok:
        parts.append(st.just(None))
    if lo is not None:
        parts.append(st.integers(max_value=lo - 1))
    if hi is not None:
        parts.append(st.integers(min_value=hi + 1, max_value=hi + 10**30))
    return st.one_of(parts)


BAD_UNIT = st.one_of(
    NONFINITE,
    st.floats(max_value=0, exclude_max=True, allow_nan=False, allow_infinity=False),
    st.floats(min_value=1, exclude_min=True, allow_nan=False, allow_infinity=False),
)
UNIT = st.floats(0, 1)


def bad_vector(bad_item, good_item, *, min_len=1, one_d=True):
    """A list with one bad item among good ones; too short; 2-d (where 1-d is required); not a sequence."""
    with_bad = st.tuples(st.lists(good_item, max_size=3), bad_item, st.lists(good_item, max_size=3)).map(
        lambda t: [*t[0], t[1], *t[2]]
    )
    parts = [with_bad, NOT_SEQUENCES]
    if one_d:
        parts.append(st.just([[0.5, 0.4], [0.3, 0.2]]))
    if min_len > 0:
        parts.append(st.lists(good_item, max_size=min_len - 1))
    return st.one_of(parts)


def bad_name(known):
    return st.one_of(
        st.text(max_size=10).filter(lambda s: s not in known), st.sampled_from([None, 1, 1.5, ["x"], b"UCB1", True])
    )


BAD_POS = bad_real(0, lo_open=True)
# a privacy level: also positive values below EPSILON_FLOOR = 1e-9 (at 1e-310 every index was nan)
# and integers beyond the doubles (2**1100 raised a bare OverflowError)
BAD_EPS = st.one_of(
    BAD_POS, st.floats(min_value=5e-324, max_value=9.99e-10), st.sampled_from([1e-310, 1e-12, 2**1100, -(2**1100)])
)
# bools are not numbers: means=[True, False] was the instance [1.0, 0.0]
BOOL_VECTORS = st.sampled_from([[True, False], [0.5, True], [0.9, np.bool_(False)], np.array([True, False])])
BAD_PROB = bad_real(0, 1, lo_open=True, hi_open=True)
BAD_FINITE_MEANS = st.one_of(
    bad_vector(st.one_of(NONFINITE, st.sampled_from(["a", None, 1 + 1j])), UNIT, min_len=2), BOOL_VECTORS
)
BAD_MEANS = st.one_of(
    bad_vector(st.one_of(BAD_UNIT, st.sampled_from(["a", None, 1 + 1j])), UNIT, min_len=1), BOOL_VECTORS
)


# --- targets: a callable, small valid arguments, and bad values per parameter ---------------------------------


@dataclass
class Target:
    id: str
    func: object
    valid: dict
    bad: dict  # parameter -> strategy of bad values
    names: dict | None = None  # parameter -> the name its messages use, where it differs

    def cases(self):
        return [(self, p) for p in self.bad]


def _rng():
    return np.random.default_rng(0)


BERN = ldp.make_instance("bernoulli", means=[0.6, 0.4])
GAUSS_LEVELS = dict(kind="clipped-gaussian", mean=1.0, sd=1.0, lo=0.0, hi=10.0)

TARGETS = [
    Target(
        "make_instance",
        ldp.make_instance,
        dict(name="bernoulli", means=[0.6, 0.4]),
        dict(name=bad_name(ldp.list_instances()), means=BAD_MEANS),
        names=dict(name="instance"),
    ),
    Target(
        "make_instance.gaussian",
        ldp.make_instance,
        dict(name="gaussian", means=[0.6, 0.4], sigma=1.0),
        dict(means=bad_vector(st.one_of(NONFINITE, st.just("a")), FINITE), sigma=BAD_POS),
    ),
    Target(
        "make_policy.name",
        ldp.make_policy,
        dict(name="UCB1"),
        dict(name=bad_name(ldp.list_policies())),
        names=dict(name="policy"),
    ),
    *[
        Target(f"make_policy.{n}", ldp.make_policy, dict(name=n, epsilon=1.0), dict(epsilon=BAD_EPS))
        for n in ["LDP-UCB-L", "LDP-UCB-B", "LDP-UCB-LS", "LDP-UCB-BS", "AdaP-UCB", "AdaP-KLUCB", "DP-SE", "DP-UCB"]
    ],
    Target(
        "make_policy.OnePoint-UCB",
        ldp.make_policy,
        dict(name="OnePoint-UCB", epsilon=1.0, delta=1e-3),
        dict(epsilon=BAD_EPS, delta=BAD_PROB),
    ),
    *[
        Target(f"make_policy.{n}", ldp.make_policy, dict(name=n, epsilon_min=1.0), dict(epsilon_min=BAD_EPS))
        for n in ["HeLDP-UCB-L", "HeLDP-UCB-B", "HeLDP-UCB-LS", "HeLDP-UCB-BS"]
    ],
    *[
        Target(
            f"make_policy.{n}.alpha",
            ldp.make_policy,
            dict(name=n, epsilon=1.0, alpha=3.1),
            dict(alpha=bad_real(0, lo_open=True, none_ok=True)),
        )
        for n in ["AdaP-UCB", "AdaP-KLUCB"]
    ],
    Target(
        "make_policy.DP-SE.beta",
        ldp.make_policy,
        dict(name="DP-SE", epsilon=1.0, beta=0.1),
        dict(beta=bad_real(0, 1, lo_open=True, hi_open=True, none_ok=True)),
    ),
    Target(
        "make_policy.DP-UCB.gamma",
        ldp.make_policy,
        dict(name="DP-UCB", epsilon=1.0, gamma=0.1),
        dict(gamma=bad_real(0, 1, lo_open=True, hi_open=True, none_ok=True)),
    ),
    Target(
        "make_curator",
        ldp.make_curator,
        dict(name="CTL", epsilon=1.0),
        dict(name=bad_name(["CTL", "CTB", "CTLS", "CTBS", "CTL-S", "CTB-S"]), epsilon=BAD_EPS),
        names=dict(name="curator"),
    ),
    *[
        Target(f"{c.__name__}", c, dict(epsilon=1.0), dict(epsilon=BAD_EPS))
        for c in (ldp.CTL, ldp.CTB, ldp.CTLS, ldp.CTBS)
    ],
    *[
        Target(
            f"{c.__name__}.privatize",
            lambda rewards, rng, c=c: c(1.0).privatize(rewards, rng),
            dict(rewards=[0.2, 0.7], rng=_rng()),
            dict(
                rewards=bad_vector(st.one_of(BAD_UNIT, st.just("a")), UNIT, min_len=0, one_d=False),
                rng=st.sampled_from([None, 0, "seed", np.random.RandomState(0)]),
            ),
        )
        for c in (ldp.CTL, ldp.CTB)
    ],
    *[
        Target(
            f"{c.__name__}.privatize",
            lambda rewards, rng, c=c: c(1.0).privatize(rewards, rng),
            dict(rewards=[0.2, 7.0], rng=_rng()),
            dict(
                rewards=bad_vector(st.one_of(NONFINITE, st.just("a")), FINITE, min_len=0, one_d=False),
                rng=st.sampled_from([None, 0, "seed", np.random.RandomState(0)]),
            ),
        )
        for c in (ldp.CTLS, ldp.CTBS)
    ],
    Target(
        "GaussianMechanism",
        mechanisms.GaussianMechanism,
        dict(epsilon=1.0, delta=1e-5, sensitivity=1.0),
        dict(epsilon=BAD_EPS, delta=BAD_PROB, sensitivity=BAD_POS),
    ),
    Target(
        "LaplaceMechanism",
        mechanisms.LaplaceMechanism,
        dict(epsilon=1.0, sensitivity=1.0),
        dict(epsilon=BAD_EPS, sensitivity=BAD_POS),
    ),
    Target(
        "GaussianMechanism.privatize",
        lambda values, rng: mechanisms.GaussianMechanism(1.0, 1e-5).privatize(values, rng),
        dict(values=[0.1, 0.2], rng=_rng()),
        dict(
            values=bad_vector(st.one_of(NONFINITE, st.just("a")), FINITE, min_len=0, one_d=False),
            rng=st.sampled_from([None, 0, "seed"]),
        ),
    ),
    Target(
        "make_privacy_levels.kind",
        ldp.make_privacy_levels,
        dict(kind="constant", epsilon=1.0),
        dict(kind=bad_name(ldp.list_privacy_levels())),
        names=dict(kind="kind"),
    ),
    Target(
        "make_privacy_levels.constant",
        ldp.make_privacy_levels,
        dict(kind="constant", epsilon=1.0),
        dict(epsilon=BAD_EPS),
    ),
    Target(
        "make_privacy_levels.clipped-gaussian",
        ldp.make_privacy_levels,
        GAUSS_LEVELS,
        dict(mean=bad_real(), sd=BAD_POS, lo=bad_real(0), hi=bad_real(0, lo_open=True)),
    ),
    Target(
        "make_privacy_levels.discrete",
        ldp.make_privacy_levels,
        dict(kind="discrete", values=[0.5, 1.0], probs=[0.5, 0.5]),
        dict(
            values=bad_vector(st.one_of(NONFINITE, st.floats(max_value=0, exclude_max=True)), st.floats(0.1, 10)),
            probs=st.one_of(
                bad_vector(BAD_UNIT, UNIT).filter(lambda v: v is not None),
                st.just([0.2, 0.2]),
                st.just([0.5, 0.25, 0.25]),
            ),
        ),
    ),
    Target(
        "simulate",
        ldp.simulate,
        dict(policy=ldp.make_policy("UCB1"), instance=BERN, horizon=20, runs=1, seed=0, workers=1),
        dict(
            policy=st.sampled_from(["UCB1", None, 1, ldp.CTL(1.0)]),
            instance=st.sampled_from(["bernoulli", None, [0.5, 0.4]]),
            horizon=bad_int(2),
            runs=bad_int(1),
            seed=bad_int(0),
            checkpoints=st.one_of(
                st.just([]),
                st.just([5, 3]),
                st.just([0, 5]),
                st.just([5, 21]),
                st.just([[5]]),
                st.just([2.5]),
                st.just([NAN]),
                NOT_SEQUENCES.filter(lambda v: v is not None),
            ),
            workers=bad_int(1, none_ok=True),
        ),
    ),
    Target(
        "simulate.heldp",
        ldp.simulate,
        dict(
            policy=ldp.make_policy("HeLDP-UCB-B", epsilon_min=1.0),
            instance=BERN,
            horizon=20,
            runs=1,
            seed=0,
            workers=1,
            privacy_levels=ldp.make_privacy_levels("constant", epsilon=1.0),
        ),
        dict(privacy_levels=st.sampled_from([None, 1.0, "constant", [1.0, 2.0]])),
    ),
    Target(
        "choose_epsilon_min",
        ldp.choose_epsilon_min,
        dict(levels=ldp.make_privacy_levels("ren-heldp-discrete"), mechanism="L", candidates=[0.2, 1.0]),
        dict(
            levels=st.sampled_from([None, 1.0, "ren-heldp-discrete", [1.0]]),
            mechanism=bad_name(["L", "B"]),
            candidates=bad_vector(st.one_of(NONFINITE, st.floats(max_value=0)), st.floats(0.1, 10)).filter(
                lambda v: v is not None
            ),
        ),
    ),
    Target(
        "log_checkpoints", ldp.log_checkpoints, dict(horizon=100, points=5), dict(horizon=bad_int(1), points=bad_int(2))
    ),
    Target(
        "linear_fit",
        ldp.linear_fit,
        dict(x=[1.0, 2.0, 3.0], y=[1.0, 2.5, 2.9]),
        dict(
            x=st.one_of(bad_vector(NONFINITE, FINITE, min_len=0), st.just([1.0, 2.0]), st.just([1.0, 1.0, 1.0])),
            y=st.one_of(bad_vector(NONFINITE, FINITE, min_len=0), st.just([1.0, 2.0])),
        ),
    ),
    Target(
        "loglog_slope",
        ldp.loglog_slope,
        dict(
            t=[10, 100, 1000], regret_runs=[[1.0, 2.0, 4.0], [1.5, 2.5, 4.5]], t_min=None, n_boot=20, seed=0, level=0.9
        ),
        dict(
            t=st.one_of(
                bad_vector(st.one_of(NONFINITE, st.floats(max_value=0)), st.floats(1, 1e6)), st.just([10, 100])
            ),
            regret_runs=st.one_of(
                st.just([[1.0, 2.0, NAN]]),
                st.just([[1.0, 2.0]]),
                st.just([1.0, 2.0, 3.0, 4.0]),
                st.just([[-1.0, -2.0, -3.0]]),
                NOT_SEQUENCES,
            ),
            t_min=bad_real(none_ok=True).filter(lambda v: not (isinstance(v, float) and math.isinf(v) and v < 0)),
            n_boot=bad_int(2),
            seed=bad_int(0),
            level=BAD_PROB,
        ),
    ),
    Target(
        "log_growth",
        log_growth,
        dict(t=[10, 100, 1000], regret_runs=[[1.0, 2.0, 3.0], [1.5, 2.5, 3.5]], n_boot=20, seed=0, level=0.9),
        dict(
            t=bad_vector(st.one_of(NONFINITE, st.floats(max_value=0)), st.floats(1, 1e6)),
            n_boot=bad_int(2),
            seed=bad_int(0),
            level=BAD_PROB,
        ),
    ),
    Target(
        "ratio_exponent",
        ratio_exponent,
        dict(
            x=[1.0, 2.0, 4.0],
            num_runs=[[1.0, 2.0, 4.0], [1.1, 2.1, 4.1]],
            den_runs=[1.0, 1.1],
            n_boot=20,
            seed=0,
            level=0.9,
        ),
        dict(
            x=bad_vector(st.one_of(NONFINITE, st.floats(max_value=0)), st.floats(0.1, 10)),
            num_runs=st.sampled_from([[[1.0, 2.0]], [[1.0, NAN, 2.0]], [1.0, 2.0, 3.0], "a"]),
            n_boot=bad_int(2),
            seed=bad_int(0),
            level=BAD_PROB,
        ),
    ),
    Target(
        "hinge_fit",
        ldp.hinge_fit,
        dict(x=[0.1, 0.2, 0.5, 1.0, 2.0], y=[1.0, 1.0, 1.0, 0.5, 0.25], grid=50),
        dict(
            x=bad_vector(st.one_of(NONFINITE, st.floats(max_value=0)), st.floats(0.1, 10)),
            y=st.one_of(bad_vector(NONFINITE, st.floats(0.1, 10)), st.just([1.0, 2.0])),
            grid=bad_int(2),
        ),
    ),
    Target(
        "hinge_bootstrap",
        hinge_bootstrap,
        dict(
            x=[0.1, 0.2, 0.5, 1.0, 2.0],
            values=[[1.0, 1.0, 1.0, 0.5, 0.25], [1.1, 1.0, 0.9, 0.5, 0.3]],
            n_boot=5,
            seed=0,
            grid=20,
        ),
        dict(
            n_boot=bad_int(1),
            seed=bad_int(0),
            grid=bad_int(2),
            values=st.sampled_from([[[1.0, 2.0]], [1.0, 2.0, 3.0, 4.0, 5.0], [[1.0, NAN, 1.0, 1.0, 1.0]]]),
        ),
    ),
    Target(
        "bootstrap_indices",
        bootstrap_indices,
        dict(runs=3, n_boot=4, seed=0),
        dict(runs=bad_int(1), n_boot=bad_int(1), seed=bad_int(0)),
    ),
    Target(
        "mean_and_half_width",
        mean_and_half_width,
        dict(values=[[1.0, 2.0], [1.5, 2.5]], level=0.95),
        # a nan or inf run gave a nan band (issue 13, item 10)
        dict(
            level=BAD_PROB, values=st.sampled_from([[], "a", None, 1.0, {"a": 1}, [[1.0, NAN], [2.0, 3.0]], [1.0, INF]])
        ),
    ),
    Target(
        "ratio_of_means_se",
        ldp.ratio_of_means_se,
        dict(num=[1.0, 2.0, 1.5], den=[1.0, 1.1, 0.9]),
        dict(
            num=st.sampled_from([[], "a", None, [NAN, 1.0, 1.0], [1.0, 2.0]]),
            den=st.sampled_from([[], "a", None, [NAN, 1.0, 1.0], [1.0, 2.0], [0.0, 0.0, 0.0]]),
        ),
    ),
]

# bounds: means, horizon, epsilon and friends
MEANS3 = [0.8, 0.5, 0.3]
TARGETS += [
    *[
        Target(f"bounds.{f.__name__}", f, dict(epsilon=1.0), dict(epsilon=BAD_EPS))
        for f in (bounds.laplace_ratio, bounds.bernoulli_ratio)
    ],
    *[
        Target(f"bounds.{f.__name__}", f, dict(epsilon=1.0), dict(epsilon=bad_real(0, vector_ok=True)))
        for f in (bounds.heldp_alpha, bounds.heldp_beta)
    ],  # broadcast; alpha(0) = beta(0) = inf
    *[
        Target(f"bounds.{f.__name__}", f, dict(means=MEANS3, epsilon=1.0), dict(means=BAD_MEANS, epsilon=BAD_EPS))
        for f in (
            bounds.basu2019_lower_bound_constant,
            bounds.ctb_lai_robbins_constant,
            bounds.gdp_lower_bound_constant,
        )
    ],
    *[
        Target(
            f"bounds.{f.__name__}", f, dict(means=MEANS3, epsilon=1.0), dict(means=BAD_FINITE_MEANS, epsilon=BAD_EPS)
        )
        for f in (
            bounds.lower_bound_constant,
            bounds.lower_bound_constant_small_epsilon,
            bounds.lower_bound_constant_tightened,
        )
    ],
    Target("bounds.lai_robbins_constant", bounds.lai_robbins_constant, dict(means=MEANS3), dict(means=BAD_MEANS)),
    Target(
        "bounds.ucb1_regret_bound",
        bounds.ucb1_regret_bound,
        dict(means=MEANS3, horizon=100),
        dict(means=BAD_FINITE_MEANS, horizon=bad_int(2)),
    ),
    *[
        Target(
            f"bounds.{f.__name__}",
            f,
            dict(means=MEANS3, horizon=100, epsilon=1.0),
            dict(means=BAD_FINITE_MEANS, horizon=bad_int(2), epsilon=BAD_EPS),
        )
        for f in (
            bounds.ldp_ucb_l_regret_bound,
            bounds.ldp_ucb_b_regret_bound,
            bounds.adap_ucb_regret_bound,
            bounds.dp_ucb_rate,
            bounds.dp_se_rate,
            bounds.adap_ucb_rate,
            bounds.adap_klucb_rate,
            bounds.heldp_ucb_l_homogeneous_bound,
            bounds.heldp_ucb_b_homogeneous_bound,
        )
    ],
    *[
        Target(
            f"bounds.{f.__name__}",
            f,
            dict(gap=0.2, horizon=100, epsilon=1.0),
            dict(gap=bad_real(0, lo_open=True, vector_ok=True), horizon=bad_int(2), epsilon=BAD_EPS),
        )
        for f in (bounds.ldp_ucb_l_pulls_bound, bounds.ldp_ucb_b_pulls_bound)
    ],
    *[
        Target(
            f"bounds.{f.__name__}",
            f,
            dict(n_arms=3, horizon=100, epsilon=1.0),
            dict(n_arms=bad_int(1), horizon=bad_int(1), epsilon=BAD_EPS),
        )
        for f in (bounds.distribution_free_rate, bounds.gdp_minimax_lower_bound, bounds.gdp_minimax_upper_rate)
    ],
    Target(
        "bounds.gdp_minimax_threshold",
        bounds.gdp_minimax_threshold,
        dict(horizon=100, n_arms=3),
        dict(horizon=bad_int(1), n_arms=bad_int(1)),
    ),
    Target(
        "bounds.linear_minimax_lower_bound",
        bounds.linear_minimax_lower_bound,
        dict(horizon=100, dim=3, epsilon=1.0),
        dict(horizon=bad_int(1), dim=bad_int(1), epsilon=BAD_EPS),
    ),
    Target(
        "bounds.adap_releases_bound",
        bounds.adap_releases_bound,
        dict(horizon=100, n_arms=3),
        dict(horizon=bad_int(1), n_arms=bad_int(1)),
    ),
    Target(
        "bounds.lemma12_bound",
        bounds.lemma12_bound,
        dict(p=0.3, q=0.6, epsilon=1.0),
        dict(p=bad_real(0, 1, vector_ok=True), q=bad_real(0, 1, vector_ok=True), epsilon=BAD_EPS),
    ),
    Target(
        "bounds.laplace_sum_tail_bound",
        bounds.laplace_sum_tail_bound,
        dict(lam=1.0, n=4, b=1.0),
        dict(lam=st.one_of(NONFINITE, WRONG_TYPES, st.just(None)), n=bad_int(1), b=BAD_POS),
    ),
    Target(
        "bounds.heldp_quantities",
        bounds.heldp_quantities,
        dict(levels=ldp.make_privacy_levels("ren-heldp-discrete"), epsilon_min=1.0),
        dict(levels=st.sampled_from([None, 1.0, "ren-heldp-discrete"]), epsilon_min=BAD_EPS),
    ),
    Target(
        "bounds.adap_klucb_regret_bound",
        bounds.adap_klucb_regret_bound,
        dict(means=MEANS3, horizon=100, epsilon=1.0, c1=1.0, c2=1.0),
        dict(means=BAD_MEANS, horizon=bad_int(1), epsilon=BAD_EPS, c1=BAD_POS, c2=BAD_POS),
    ),
    Target(
        "bounds.linear_c_epsilon",
        bounds.linear_c_epsilon,
        dict(actions=[[1.0, 0.0], [0.0, 1.0]], theta=[1.0, 0.0], epsilon=1.0, rho=1.0),
        dict(
            actions=st.sampled_from([[[1.0, 0.0]], [[1.0, NAN], [0.0, 1.0]], [1.0, 0.0], "a"]),
            theta=st.sampled_from([[1.0], [NAN, 0.0], "a", [[1.0, 0.0]], [1.0, 0.0, 0.0]]),
            epsilon=BAD_EPS.filter(lambda v: v != INF),
            rho=BAD_POS,
        ),
    ),  # epsilon = inf: the non-private constant
]

TARGETS += [
    Target(
        "divergences.kl_bernoulli",
        divergences.kl_bernoulli,
        dict(p=0.3, q=0.6),
        dict(p=bad_real(0, 1, vector_ok=True), q=bad_real(0, 1, vector_ok=True)),
    ),
    *[
        Target(
            f"divergences.{f.__name__}",
            f,
            dict(f=[0.5, 0.5], g=[0.25, 0.75]),
            dict(
                f=st.one_of(bad_vector(BAD_UNIT, UNIT), st.just([0.2, 0.2]), st.just([0.5, 0.25, 0.25])),
                g=st.one_of(bad_vector(BAD_UNIT, UNIT), st.just([0.2, 0.2]), st.just([0.5, 0.25, 0.25])),
            ),
        )
        for f in (divergences.kl_discrete, divergences.tv_discrete)
    ],
    Target(
        "divergences.klucb_bernoulli",
        divergences.klucb_bernoulli,
        dict(p=0.3, level=0.5),
        dict(p=bad_real(0, 1, vector_ok=True), level=bad_real(0, vector_ok=True)),
    ),
    *[
        Target(
            f"divergences.{f.__name__}",
            f,
            dict(mu_a=0.3, mu_star=0.6),
            dict(mu_a=bad_real(0, 1, vector_ok=True), mu_star=bad_real(0, 1, vector_ok=True)),
        )
        for f in (divergences.d_inf_bernoulli, divergences.t_inf_bernoulli)
    ],
    *[
        Target(
            f"divergences.{f.__name__}",
            f,
            dict(mu_a=0.3, mu_star=0.6, sigma=1.0, variance="known"),
            dict(
                mu_a=bad_real(vector_ok=True),
                sigma=bad_real(0, lo_open=True, vector_ok=True),
                variance=bad_name(["known", "unknown"]),
            ),
        )
        for f in (divergences.d_inf_gaussian, divergences.t_inf_gaussian)
    ],
    Target(
        "divergences.tv_gaussian",
        divergences.tv_gaussian,
        dict(m1=0.0, s1=1.0, m2=1.0, s2=1.0),
        dict(m1=bad_real(vector_ok=True), s1=bad_real(0, lo_open=True, vector_ok=True)),
    ),
]

TARGETS += [
    Target(
        "reductions.algorithm1_mechanism",
        reductions.algorithm1_mechanism,
        dict(epsilon=1.0, delta=1e-5, loss_bound=1.0),
        dict(epsilon=BAD_POS, delta=BAD_PROB, loss_bound=BAD_POS),
    ),
    Target(
        "reductions.laplace_mechanism",
        reductions.laplace_mechanism,
        dict(epsilon=1.0, loss_bound=1.0),
        dict(epsilon=BAD_POS, loss_bound=BAD_POS),
    ),
    Target(
        "reductions.make_learner",
        reductions.make_learner,
        dict(name="UCB"),
        dict(name=bad_name(["UCB", "Tsallis-INF"])),
    ),
    Target(
        "reductions.make_agent",
        reductions.make_agent,
        dict(learner="UCB", mechanism="gaussian", epsilon=1.0, delta=1e-5, loss_bound=1.0),
        dict(
            mechanism=bad_name(["gaussian", "laplace"]).filter(lambda v: v is not None),
            epsilon=BAD_POS,
            delta=BAD_PROB,
            loss_bound=BAD_POS,
        ),
    ),
    Target("reductions.bernoulli_losses", reductions.bernoulli_losses, dict(means=[0.2, 0.5]), dict(means=BAD_MEANS)),
    Target(
        "reductions.ucb_adversary",
        reductions.ucb_adversary,
        dict(n_arms=2, horizon=50),
        dict(n_arms=bad_int(2), horizon=bad_int(2)),
    ),
    Target(
        "reductions.simulate_mab",
        reductions.simulate_mab,
        dict(
            agent=reductions.make_agent("UCB"),
            env=reductions.bernoulli_losses([0.2, 0.5]),
            horizon=20,
            runs=1,
            seed=0,
            workers=1,
        ),
        dict(
            horizon=bad_int(1),
            runs=bad_int(1),
            seed=bad_int(0),
            workers=bad_int(1, none_ok=True),
            engine=bad_name(["auto", "python"]),
            checkpoints=st.sampled_from([[], [5, 3], [0, 5], [5, 21], [[5]], [2.5], "a"]),
            agent=st.sampled_from([None, "ucb", 1]),
            env=st.sampled_from([None, [0.2, 0.5], "bernoulli"]),
        ),
    ),
    Target(
        "contextual.make_contextual_instance",
        contextual.make_contextual_instance,
        dict(dim=3, n_arms=4, link="linear", noise=0.5, seed=0),
        dict(
            dim=bad_int(1),
            n_arms=bad_int(2),
            link=bad_name(["linear", "logistic"]),
            noise=bad_real(0),
            seed=bad_int(0),
            contexts=bad_name(["ball", "identical"]),
            theta=st.sampled_from([[1.0], [NAN, 0.0, 0.0], "a", [[1.0, 0.0, 0.0]], [10.0, 0.0, 0.0]]),
        ),
    ),
    Target(
        "contextual.simulate_contextual",
        contextual.simulate_contextual,
        dict(
            policy="linucb",
            instance=contextual.make_contextual_instance(3, 4, seed=0),
            horizon=20,
            runs=1,
            seed=0,
            epsilon=None,
            delta=None,
        ),
        dict(
            policy=bad_name(["linucb", "ldp-linucb", "gloc", "ldp-gloc"]),
            horizon=bad_int(2),
            runs=bad_int(1),
            seed=bad_int(0),
            alpha=BAD_PROB,
            lam=BAD_POS,
            sigma_scale=bad_real(0),
            engine=bad_name(["numba", "numpy"]),
            checkpoints=st.sampled_from([[], [5, 3], [0, 5], [5, 21], "a"]),
        ),
    ),
    Target(
        "contextual.simulate_contextual.private",
        contextual.simulate_contextual,
        dict(
            policy="ldp-linucb",
            instance=contextual.make_contextual_instance(3, 4, seed=0),
            horizon=20,
            runs=1,
            seed=0,
            epsilon=1.0,
            delta=0.01,
        ),
        dict(epsilon=BAD_POS, delta=BAD_PROB),
    ),
    Target(
        "contextual.linucb_mechanisms",
        contextual.linucb_mechanisms,
        dict(epsilon=1.0, delta=0.01, y_max=1.5),
        dict(epsilon=BAD_POS, delta=BAD_PROB, y_max=BAD_POS),
    ),
    Target(
        "contextual.gloc_mechanisms",
        contextual.gloc_mechanisms,
        dict(epsilon=1.0, delta=0.01, grad_bound=1.0),
        dict(epsilon=BAD_POS, delta=BAD_PROB, grad_bound=BAD_POS),
    ),
    Target(
        "contextual.upsilon",
        contextual.upsilon,
        dict(sigma=1.0, t=10, dim=3, horizon=100, alpha=0.05),
        dict(sigma=bad_real(0), t=bad_real(0, vector_ok=True), dim=bad_int(1), horizon=bad_int(1), alpha=BAD_PROB),
    ),
    Target(
        "contextual.sample_unit_ball",
        contextual.sample_unit_ball,
        dict(rng=_rng(), shape=(3,), dim=2),
        dict(dim=bad_int(1), rng=st.sampled_from([None, 0, "a"])),
    ),
]

TARGETS += [
    Target(
        "claims.statistical",
        claims.statistical,
        dict(
            id="x.y",
            source="s",
            reproduced=1.0,
            se=0.1,
            paper=1.6,
            statement="ren2020ldp.fig1a.ratios_eps2",
            reason="r",
            horizon=10,
        ),
        dict(
            id=st.sampled_from(["", None, 1, ["x"], "a b"]),
            reproduced=bad_real(),
            se=bad_real(0),
            paper=st.one_of(st.just(NAN), WRONG_TYPES),
            statement=st.sampled_from([None, "", "ren2020ldp.nope", 1]),
            cites=st.sampled_from(["", "ren2020", 1, "azize2022privacy"]),
            horizon=st.sampled_from([0, -1, 2.5, "10", True]),
            sense=st.sampled_from(["", "<", "==", None]),
            k=st.sampled_from([0, 0.5, 11, NAN]),
        ),
        names=dict(sense="sense", cites="cites", k="k"),
    ),
    Target(
        "claims.exact",
        claims.exact,
        dict(id="x.y", source="s", reproduced=1.0, second=1.0, how="a vs b"),
        dict(
            reproduced=bad_real(),
            second=st.one_of(st.just(NAN), WRONG_TYPES),
            how=st.sampled_from(["", "one way", None]),
            rtol=bad_real(0),
            atol=bad_real(0),
        ),
    ),
    Target(
        "claims.bound",
        claims.bound,
        dict(id="x.y", source="s", reproduced=1.0, bound=2.0, how="Thm 1"),
        dict(
            reproduced=bad_real(),
            bound=st.one_of(st.just(NAN), WRONG_TYPES),
            se=bad_real(0),
            sense=st.sampled_from(["=", "<", None]),
            how=st.sampled_from(["", None]),
        ),
    ),
    Target(
        "claims.reproducible",
        claims.reproducible,
        dict(id="x.y", source="s", reproduced=1.0),
        dict(reproduced=bad_real(), se=bad_real(0), source=st.sampled_from(["", None, 1])),
    ),
    Target(
        "claims.check",
        claims.check,
        dict(
            notebook="chapters/none/none.ipynb",
            params={},
            claims=[claims.reproducible("x.y", "s", reproduced=1.0)],
            write=False,
        ),
        dict(
            notebook=st.sampled_from(["", "x.ipynb", "data/x.ipynb", None, 1]),
            params=st.sampled_from([None, 1, "a", [1]]),
            claims=st.sampled_from([None, 1, "a", [1], [None]]),
        ),
    ),
]

# bco and audit (Zheng et al.; the empirical privacy audits)
TARGETS += [
    Target(
        "bco.make_environment",
        bco.make_environment,
        dict(name="quadratic", d=3),
        dict(name=bad_name(list(bco.ENVIRONMENTS)), d=bad_int(1)),
        names=dict(name="environment"),
    ),
    *[
        Target(
            f"bco.{f.__name__}",
            f,
            dict(environment="quadratic", horizon=20, runs=1, seed=0, epsilon=1.0, delta=1e-5, d=3),
            dict(
                environment=bad_name(list(bco.ENVIRONMENTS)),
                horizon=bad_int(2),
                runs=bad_int(1),
                seed=bad_int(0),
                epsilon=bad_real(0, lo_open=True, none_ok=True),
                delta=bad_real(0, 1, lo_open=True, hi_open=True, none_ok=True),
                d=bad_int(1),
                checkpoints=st.sampled_from([[], [5, 3], [0, 5], [5, 21], [2.5], "a"]),
            ),
        )
        for f in (bco.simulate_one_point, bco.simulate_two_point)
    ],
    Target(
        "bco.one_point_sigma",
        bco.one_point_sigma,
        dict(epsilon=1.0, delta=1e-5, B=1.0),
        dict(epsilon=BAD_POS, delta=BAD_PROB, B=BAD_POS),
    ),
    Target(
        "bco.two_point_sigma",
        bco.two_point_sigma,
        dict(epsilon=1.0, delta=1e-5, G=1.0),
        dict(epsilon=BAD_POS, delta=BAD_PROB, G=BAD_POS),
    ),
    Target(
        "bco.noisy_range",
        bco.noisy_range,
        dict(B=1.0, sigma=1.0, horizon=100, delta=1e-5),
        dict(B=BAD_POS, sigma=bad_real(0), horizon=bad_int(1), delta=BAD_PROB),
    ),
    Target(
        "audit.random_dp_pair",
        audit.random_dp_pair,
        dict(epsilon=1.0, k=3, rng=_rng()),
        dict(
            epsilon=BAD_EPS,
            k=bad_int(2),
            rng=st.sampled_from([None, 0, "a"]),
            mode=bad_name(["interior", "extreme"]),
            concentration=BAD_POS,
        ),
    ),
    Target(
        "audit.max_log_ratio",
        audit.max_log_ratio,
        dict(f=[0.5, 0.5], g=[0.25, 0.75]),
        dict(
            f=st.one_of(bad_vector(BAD_UNIT, UNIT), st.just([0.2, 0.2])),
            g=st.one_of(bad_vector(BAD_UNIT, UNIT), st.just([0.2, 0.2])),
        ),
    ),
    Target(
        "audit.binned_log_ratio",
        audit.binned_log_ratio,
        dict(samples_a=[0.1, 0.5, 0.9, 0.3], samples_b=[0.2, 0.6, 0.8, 0.4], bins=[0.0, 0.5, 1.0], alpha=0.05),
        dict(
            samples_a=bad_vector(NONFINITE, FINITE),
            bins=st.sampled_from([[0.5], [1.0, 0.0], [NAN, 1.0], "a", 0]),
            alpha=BAD_PROB,
        ),
    ),
    Target(
        "audit.algorithm1_episode_bound",
        audit.algorithm1_episode_bound,
        dict(n_arms=2, horizon=100),
        dict(n_arms=bad_int(1), horizon=bad_int(1)),
    ),
    Target(
        "audit.first_decision_log_ratio",
        audit.first_decision_log_ratio,
        dict(name="AdaP-UCB", epsilon=1.0, alpha=3.1),
        dict(name=bad_name(["AdaP-UCB", "AdaP-KLUCB"]), epsilon=BAD_EPS, alpha=BAD_POS),
    ),
    Target(
        "audit.broken_policy",
        audit.broken_policy,
        dict(name="AdaP-UCB", epsilon=1.0, flaw="noise-halved"),
        dict(
            name=bad_name(["AdaP-UCB", "AdaP-KLUCB"]), epsilon=BAD_EPS, flaw=bad_name(["noise-halved", "no-forgetting"])
        ),
    ),
    *[
        Target(
            f"simulate.{n}",
            ldp.simulate,
            dict(policy=ldp.make_policy(n, epsilon=1.0), instance=BERN, horizon=20, runs=1, seed=0, workers=1),
            dict(
                horizon=bad_int(2),
                runs=bad_int(1),
                seed=bad_int(0),
                instance=st.sampled_from([None, "bernoulli", [0.6, 0.4]]),
            ),
        )
        for n in ("AdaP-UCB", "DP-SE", "LDP-UCB-B")
    ],
]


# Issue 12: integers beyond what the engines can count (a bare OverflowError before), calls too big to finish
# or to fit in memory (refused by the default ldpcode.Limits, the message naming runs= or horizon=), checkpoints
# that stop before the horizon, bad limits, and privacy arguments that a non-private agent would ignore.
HUGE_INT = st.sampled_from([2**53 + 1, 2**62, 2**63, 2**64, 10**30, 2**200])
HUGE_RUNS = st.sampled_from([2**32 + 1, 2**63, 2**64, 10**9, 10**12])  # above MAX_RUNS, or refused by the limits
SHORT_CP = st.sampled_from([[5, 10], [1], [19], [2**70], [1, 2**64 + 20], [1, 2**53 + 1]])  # horizon is 20
BAD_LIMITS = st.sampled_from(
    [5, "a", {"cpu_seconds": 1.0}, ldp.Limits(cpu_seconds=1e-12), ldp.Limits(memory_bytes=1.0)]
)
_ISSUE12 = dict(horizon=HUGE_INT, runs=HUGE_RUNS, checkpoints=SHORT_CP, limits=BAD_LIMITS)
_LIN = contextual.make_contextual_instance(3, 4, seed=0)

TARGETS += [
    *[
        Target(
            f"simulate.{n}.issue12",
            ldp.simulate,
            dict(policy=pol, instance=BERN, horizon=20, runs=1, seed=0, workers=1),
            dict(_ISSUE12, workers=st.sampled_from([1025, 2**70])),
        )
        for n, pol in (
            ("LDP-UCB-B", ldp.make_policy("LDP-UCB-B", epsilon=1.0)),
            ("KL-UCB", ldp.make_policy("KL-UCB")),
            ("AdaP-KLUCB", ldp.make_policy("AdaP-KLUCB", epsilon=1.0)),
        )
    ],
    *[
        Target(
            f"bco.{f.__name__}.issue12",
            f,
            dict(environment="quadratic", horizon=20, runs=1, seed=0, d=3),
            dict(_ISSUE12),
        )
        for f in (bco.simulate_one_point, bco.simulate_two_point)
    ],
    Target(
        "contextual.simulate_contextual.issue12",
        contextual.simulate_contextual,
        dict(policy="linucb", instance=_LIN, horizon=20, runs=1, seed=0),
        dict(
            _ISSUE12,
            epsilon=st.sampled_from([1.0, 0.5, 10]),
            delta=st.sampled_from([0.01, 1e-6]),
            sigma_scale=st.sampled_from([0.0, 0.5, 2.0]),
        ),
    ),
    Target(
        "contextual.horizon_sweep.issue12",
        contextual.horizon_sweep,
        dict(policy="linucb", instance=_LIN, horizons=[10, 20, 40], runs=2, seed=0),
        dict(
            horizons=st.sampled_from([[10, 20, 2**63], [10.5, 20, 40], [10, 20, 10**9]]),
            runs=st.sampled_from([2**63, 10**9]),
            limits=BAD_LIMITS,
            epsilon=st.sampled_from([1.0, 0.1]),
            delta=st.sampled_from([0.01]),
        ),
    ),
    Target(
        "reductions.simulate_mab.issue12",
        reductions.simulate_mab,
        dict(
            agent=reductions.make_agent("UCB"),
            env=reductions.bernoulli_losses([0.2, 0.5]),
            horizon=20,
            runs=1,
            seed=0,
            workers=1,
        ),
        dict(_ISSUE12, workers=st.sampled_from([1025, 2**70])),
    ),
    Target(
        "reductions.ucb_adversary.issue12",
        reductions.ucb_adversary,
        dict(n_arms=2, horizon=50),
        dict(horizon=st.sampled_from([10**10, 2**53 + 1, 2**63]), limits=BAD_LIMITS),
    ),
    Target(
        "reductions.make_agent.non-private",
        reductions.make_agent,
        dict(learner="UCB"),
        dict(epsilon=st.sampled_from([1.0, 0.1, 4]), delta=st.sampled_from([1e-6, 0.5])),
    ),
    Target(
        "reductions.make_agent.laplace",
        reductions.make_agent,
        dict(learner="UCB", mechanism="laplace", epsilon=1.0),
        dict(delta=st.sampled_from([1e-6, 0.1, 0.5])),
    ),
    Target(
        "log_checkpoints.issue12",
        ldp.log_checkpoints,
        dict(horizon=100),
        dict(horizon=HUGE_INT, points=st.sampled_from([10**7 + 1, 10**12, 2**63])),
    ),
]


# Issue 12, numerics and types: the audits' seeds and sample sizes (NumPy's messages before), percentages for
# probabilities, Lemma 3's exact tail beyond its ceiling, means outside a bounded curator's domain, strings.
from ldpcode import global_policies as _gp  # noqa: E402

BAD_SEEDS = st.sampled_from([-1, "a", 1.5, True, None, [1, -2], [], ["x"], np.random.default_rng(0)])
BAD_DELTA0 = bad_real(0, 1, hi_open=True)  # a probability in [0, 1): delta of a pure-epsilon audit may be 0
_R10 = np.zeros(10)
_R10_CHANGED = np.where(np.arange(10) == 0, 1.0, 0.0)
BAD_MU = st.one_of(BAD_UNIT, WRONG_TYPES, st.sampled_from([None, "0.5", ["0.5"]]))

TARGETS += [
    Target(
        "audit.curator_audit",
        audit.curator_audit,
        dict(curator=ldp.CTB(1.0), samples=100, seed=0, pilot=20),
        dict(
            seed=BAD_SEEDS,
            samples=bad_int(100),
            bins=bad_int(1),
            pilot=bad_int(10, none_ok=True),
            alpha=BAD_PROB,
            delta=bad_real(0, 1, hi_open=True, none_ok=True),
            epsilon=bad_real(0, none_ok=True),
        ),
    ),
    Target(
        "audit.output_mean_audit",
        audit.output_mean_audit,
        dict(curator=ldp.CTB(1.0), samples=10, seed=0),
        dict(
            seed=BAD_SEEDS,
            samples=bad_int(2),
            alpha=BAD_PROB,
            rewards=bad_vector(st.one_of(NONFINITE, st.just("a")), UNIT),
        ),
    ),
    Target(
        "audit.action_sequence_audit",
        audit.action_sequence_audit,
        dict(
            policy=ldp.make_policy("AdaP-UCB", 1.0),
            instance=BERN,
            rewards=_R10,
            neighbour=_R10_CHANGED,
            horizon=10,
            runs=2,
            seed=0,
        ),
        dict(seed=BAD_SEEDS, runs=bad_int(1), alpha=BAD_PROB, horizon=bad_int(2)),
    ),
    Target(
        "audit.lemma1_audit",
        audit.lemma1_audit,
        dict(
            rewards=[0.0, 0.0, 1.0, 0.0],
            neighbour=[0.0, 0.0, 0.0, 0.0],
            starts=[3],
            epsilon=1.0,
            samples=100,
            rng=_rng(),
        ),
        dict(
            samples=bad_int(1),
            rng=st.sampled_from([None, 0, "a", np.random.RandomState(0)]),
            bins_per_scale=bad_int(1),
            alpha=BAD_PROB,
            epsilon=BAD_EPS,
            starts=st.sampled_from([["3"], [1], [5], [3, 2], "a", [2.5]]),
        ),
    ),
    Target(
        "audit.delta_log_ratio",
        audit.delta_log_ratio,
        dict(samples_a=[0.1, 0.5, 0.9], samples_b=[0.2, 0.6, 0.8], thresholds=[0.5], delta=0.0, alpha=0.05),
        dict(
            delta=BAD_DELTA0,
            alpha=BAD_PROB,
            thresholds=st.sampled_from([[], [0.5, 0.1], [NAN], "a", ["0.3"], [[0.3]], [True]]),
        ),
    ),
    Target(
        "audit.gaussian_epsilon_at_delta",
        audit.gaussian_epsilon_at_delta,
        dict(sigma=1.0, sensitivity=1.0, delta=1e-5),
        dict(sigma=BAD_POS, sensitivity=bad_real(0), delta=BAD_DELTA0),
    ),
    Target(
        "audit.random_dp_pair.huge",
        audit.random_dp_pair,
        dict(epsilon=1.0, k=3, rng=_rng()),
        dict(epsilon=st.sampled_from([709.8, 1e4, 1e300])),
    ),
    Target(
        "mechanisms.laplace_sum_sf",
        mechanisms.laplace_sum_sf,
        dict(lam=1.0, n=4, b=1.0),
        dict(
            lam=st.one_of(NONFINITE, WRONG_TYPES, st.just(None), st.just(["1.0"])),
            n=st.one_of(bad_int(1), st.sampled_from([10**8 + 1, 10**12])),
            b=BAD_POS,
        ),
    ),
    *[
        Target(f"{c.__name__}.output_mean", lambda mu, c=c: c(1.0).output_mean(mu), dict(mu=0.3), dict(mu=BAD_MU))
        for c in (ldp.CTL, ldp.CTB)
    ],
    *[
        Target(
            f"{c.__name__}.output_mean",
            lambda mu, sigma, c=c: c(1.0).output_mean(mu, sigma),
            dict(mu=0.3, sigma=1.0),
            dict(mu=st.one_of(NONFINITE, WRONG_TYPES, st.just("0.5")), sigma=bad_real(0)),
        )
        for c in (ldp.CTLS, ldp.CTBS)
    ],
    Target(
        "mechanisms.ctb_output_mean",
        mechanisms.ctb_output_mean,
        dict(mu=0.3, epsilon=1.0),
        dict(mu=BAD_MU, epsilon=BAD_EPS),
    ),
    Target(
        "mechanisms.gaussian_sigmoid_mean",
        mechanisms.gaussian_sigmoid_mean,
        dict(mu=0.3, sigma=1.0, order=20),
        # order 371 gave 0.0 and 372 on nan (issue 13, item 9)
        dict(
            mu=st.one_of(NONFINITE, WRONG_TYPES),
            sigma=bad_real(0),
            order=bad_int(1, mechanisms.GAUSS_HERMITE_MAX_ORDER),
        ),
    ),
    *[
        Target(
            f"{c.__name__}.respond_to_users",
            lambda epsilons, rng, c=c: c.respond_to_users([0.2, 0.7], epsilons, rng),
            dict(epsilons=[0.5, 1.0], rng=_rng()),
            dict(
                epsilons=st.one_of(
                    bad_vector(
                        st.one_of(NONFINITE, st.floats(max_value=0, exclude_max=True)), st.floats(0, 10), min_len=0
                    ),
                    BOOL_VECTORS,
                ),
                rng=st.sampled_from([None, 0, "a"]),
            ),
        )
        for c in (ldp.CTL, ldp.CTB)
    ],
    Target(
        "global_policies.dp_ucb_noise_bound",
        _gp.dp_ucb_noise_bound,
        dict(horizon=100, n_arms=3, epsilon=1.0, gamma=0.1),
        dict(horizon=bad_int(1), n_arms=bad_int(1), epsilon=BAD_EPS, gamma=BAD_PROB),
    ),
    Target(
        "global_policies.dp_se_epoch_length",
        _gp.dp_se_epoch_length,
        dict(n_active=3, epoch=1, epsilon=1.0, beta=0.1),
        dict(n_active=bad_int(1), epoch=bad_int(1), epsilon=BAD_EPS, beta=BAD_PROB),
    ),
    Target(
        "global_policies.noise_free_pulls",
        _gp.noise_free_pulls,
        dict(name="AdaP-UCB", means=[0.6, 0.4], horizon=1000, epsilon=1.0),
        dict(means=BAD_MEANS, epsilon=BAD_EPS, horizon=bad_int(2)),
    ),
    Target(
        "divergences.kl_mixture",
        divergences.kl_mixture,
        dict(p=0.3, q=0.6, f=[0.5, 0.5], g=[0.2, 0.8]),
        dict(
            p=st.one_of(bad_real(0, 1, vector_ok=True), BOOL_VECTORS),
            f=st.sampled_from(["a", [0.5], [0.2, 0.2], [NAN, 1.0], [True, False]]),
        ),
    ),
    Target(
        "make_privacy_levels.discrete.bools",
        ldp.make_privacy_levels,
        dict(kind="discrete", values=[0.5, 1.0]),
        dict(values=BOOL_VECTORS),
    ),
    Target(
        "make_policy.HeLDP-UCB-L.ceiling",
        ldp.make_policy,
        dict(name="HeLDP-UCB-L", epsilon_min=1.0),
        dict(epsilon_min=st.sampled_from([1e151, 1e200, 1e300])),
    ),
]

# Issue 13 (the API audit of /tmp/audit_api): policies checked when built, Monte Carlo sizes, the tree mechanism,
# statements about rewards in [0, 1], thresholds of privacy levels, fit windows, flags given as strings, bools given
# as numbers. Each of these values was accepted (a plausible wrong number, a hang, memory past an array's end) or
# failed deep inside NumPy or numba before.
from ldpcode import laplace_tails, unbiasing  # noqa: E402

LEVELS = ldp.make_privacy_levels("ren-heldp-discrete")
BAD_FLAG = st.sampled_from(["no", "yes", "", "False", 0, 1, 1.0, [True], np.float64(1.0)])  # "no" is truthy
BAD_INDEX = st.sampled_from([None, "UCB", _gp.UCBIndex, 1, lambda *a: 0])  # a class, not an index
OUTSIDE_UNIT = st.one_of(  # finite means outside [0, 1]: ucb1_regret_bound([5.0, -3.0], T) was a number
    st.floats(min_value=1, exclude_min=True, allow_nan=False, allow_infinity=False),
    st.floats(max_value=0, exclude_max=True, allow_nan=False, allow_infinity=False),
)
BAD_UNIT_MEANS = st.tuples(st.lists(UNIT, min_size=1, max_size=3), OUTSIDE_UNIT).map(lambda t: [*t[0], t[1]])
BAD_LEVEL_VECTORS = st.sampled_from([[1.0, 1e-320], [1.0, 0.0], [1.0, -1.0], [1.0, NAN], [1.0, INF], [True, 1.0]])
_RES = ldp.simulate(ldp.make_policy("UCB1"), BERN, 20, runs=1, workers=1)
_HELDP = dict(horizon=1000, levels=LEVELS, epsilon_min=1.0)

TARGETS += [
    Target(
        "global_policies.AdaptiveEpisodes",
        _gp.AdaptiveEpisodes,
        dict(name="AdaP-UCB", index=_gp.UCBIndex(), epsilon=1.0, alpha=3.1),
        dict(
            epsilon=st.one_of(BAD_EPS, st.just(2**1100)),
            alpha=bad_real(0, lo_open=True),
            index=BAD_INDEX,
            name=st.sampled_from([None, 5, b"AdaP-UCB"]),
        ),
    ),
    Target(
        "global_policies.DPSE",
        _gp.DPSE,
        dict(epsilon=1.0, beta=0.1),
        dict(epsilon=BAD_EPS, beta=bad_real(0, 1, lo_open=True, hi_open=True, none_ok=True), name=st.just(5)),
    ),
    Target(
        "global_policies.DPUCB",
        _gp.DPUCB,
        dict(epsilon=1.0, gamma=0.1),
        dict(epsilon=BAD_EPS, gamma=BAD_PROB, name=st.sampled_from([5, None])),
    ),
    Target("global_policies.KLUCB", _gp.KLUCB, dict(), dict(name=st.sampled_from([5, None, b"KL-UCB"]))),
    Target(
        "global_policies.noise_free_pulls.staircase",
        _gp.noise_free_pulls,
        dict(name="AdaP-UCB", means=[0.6, 0.4], horizon=1000, epsilon=1.0),
        dict(staircase=BAD_FLAG),
    ),
    Target(
        "laplace_tails.laplace_mixed_sums",
        laplace_tails.laplace_mixed_sums,
        dict(scales=[1.0, 2.0], samples=10, rng=_rng()),  # block=-1 returned uninitialised memory, 0 hung
        dict(block=bad_int(1), samples=st.one_of(bad_int(1), st.sampled_from([10**13, 2**62])), limits=BAD_LIMITS),
    ),
    Target(
        "laplace_tails.kept_scales.count",
        laplace_tails.kept_scales,
        dict(levels=LEVELS, epsilon_min=0.5, rng=_rng(), count=3),  # chunk=0 looped forever
        dict(chunk=bad_int(1, laplace_tails.KEPT_SCALES_MAX_CHUNK)),
    ),
    Target(
        "laplace_tails.kept_scales.until_a",
        laplace_tails.kept_scales,
        dict(levels=LEVELS, epsilon_min=0.5, rng=_rng(), until_a=10.0),
        dict(until_a=bad_real(0, none_ok=True)),
    ),
    Target("mechanisms.tree_depth", mechanisms.tree_depth, dict(horizon=100), dict(horizon=bad_int(1))),
    Target(
        "mechanisms.tree_push",
        lambda nodes, n, draw, scale: mechanisms.tree_push(nodes, n, draw, scale),
        dict(nodes=np.zeros(4), n=3, draw=0.3, scale=1.0),  # n = 0 hung, n >= 2**len(nodes) wrote past its end
        dict(
            n=bad_int(1, 15),
            nodes=st.sampled_from(
                [None, [0.0, 0.0], np.zeros(2, dtype=int), np.zeros((2, 2)), np.zeros(0), np.zeros(64)]
            ),
            draw=bad_real(),
            scale=BAD_POS,
        ),
    ),
    Target("se_or_zero", ldp.se_or_zero, dict(se=0.1, value=1.0), dict(se=bad_real(0), value=bad_real())),
    *[
        Target(f"bounds.{f.__name__}.unit_means", f, dict(means=MEANS3, epsilon=1.0), dict(means=BAD_UNIT_MEANS))
        for f in (
            bounds.lower_bound_constant,
            bounds.lower_bound_constant_small_epsilon,
            bounds.lower_bound_constant_tightened,
        )
    ],
    Target(
        "bounds.ucb1_regret_bound.unit_means",
        bounds.ucb1_regret_bound,
        dict(means=MEANS3, horizon=100),
        dict(means=BAD_UNIT_MEANS),
    ),
    *[
        Target(
            f"bounds.{f.__name__}.unit_means",
            f,
            dict(means=MEANS3, horizon=100, epsilon=1.0),  # c_s = 1: Theorems 4 and 6, Corollaries 8 and 11
            dict(means=BAD_UNIT_MEANS),
        )
        for f in (
            bounds.ldp_ucb_l_regret_bound,
            bounds.ldp_ucb_b_regret_bound,
            bounds.heldp_ucb_l_homogeneous_bound,
            bounds.heldp_ucb_b_homogeneous_bound,
        )
    ],
    *[
        Target(f"bounds.{f.__name__}.unit_means", f, dict(means=MEANS3, **_HELDP), dict(means=BAD_UNIT_MEANS))
        for f in (
            bounds.heldp_ucb_l_regret_bound,
            bounds.heldp_ucb_b_regret_bound,
            bounds.heldp_ucb_l_best_kappa,
            bounds.heldp_ucb_b_best_kappa,
        )
    ],
    Target("PrivacyLevels.p_at_least", LEVELS.p_at_least, dict(eps_min=0.5), dict(eps_min=bad_real(0))),
    Target(
        "PrivacyLevels.expect",
        LEVELS.expect,
        dict(f=np.exp, eps_min=0.5),
        dict(eps_min=bad_real(0), f=st.sampled_from([None, 1.0, "exp"])),
    ),
    Target(
        "unbiasing.kept_levels",
        unbiasing.kept_levels,
        dict(levels=LEVELS, epsilon_min=0.5, rng=_rng(), size=8),
        dict(
            epsilon_min=BAD_EPS,
            levels=st.sampled_from([None, 1.0, "ren-heldp-discrete"]),
            rng=st.sampled_from([None, 0, "a", np.random.RandomState(0)]),
        ),
    ),
    Target(
        "unbiasing.ctb_unbiased_values",
        unbiasing.ctb_unbiased_values,
        dict(rewards=[0.5, 0.2], epsilons=[1.0, 2.0], rng=_rng()),  # eps 1e-320 gave g-values of -1e300
        dict(
            epsilons=st.one_of(
                NONFINITE,
                WRONG_TYPES,
                st.floats(max_value=0, allow_nan=False, allow_infinity=False),
                st.sampled_from([1e-310, 1e-12, 9.9e-10]),
                BAD_LEVEL_VECTORS,
            )
        ),
    ),
    Target(
        "window_spread",
        ldp.window_spread,
        dict(
            x=[1.0, 10.0, 100.0, 1000.0], y=[1.0, 10.0, 100.0, 1e4], windows=[slice(0, 3), slice(1, 4)], reference=1.0
        ),
        dict(
            x=st.sampled_from([[1.0, NAN, 100.0, 1000.0], [-1.0, 10.0, 100.0, 1000.0], "a", [True, False, True, True]]),
            y=st.sampled_from([[1.0, 10.0, INF, 1e4], [1.0, 0.0, 100.0, 1e4], [1.0, 10.0, 100.0], None]),
            windows=st.sampled_from(
                [
                    [0, 1, 2],  # integers: each was one point, left out
                    [[0, 1, 2]],  # an index list, not a mask
                    [np.array([True, True, True])],  # a mask of the wrong length
                    {"late": np.array([1, 1, 1, 1])},
                    [slice("a", None)],
                    [slice(0, 4, 0)],
                    "abc",
                    None,
                    5,
                ]
            ),
            reference=bad_real(),
        ),
    ),
    *[
        Target(
            f"mechanisms.{f.__name__}",
            f,
            dict(epsilon=1.0, sigma=1.0, sensitivity=1.0),
            dict(
                epsilon=st.one_of(bad_real(0, vector_ok=True), st.just(["0.5"]), BOOL_VECTORS),
                sigma=BAD_POS,
                sensitivity=BAD_POS,
            ),
        )
        for f in (mechanisms.gaussian_exact_delta, mechanisms.gaussian_loss_tail)
    ],
    Target(
        "mechanisms.gaussian_privacy_loss",
        mechanisms.gaussian_privacy_loss,
        dict(outputs=[0.1, 0.2], f=0.0, f_prime=1.0, sigma=1.0),
        dict(
            outputs=st.one_of(bad_vector(st.one_of(NONFINITE, st.just("0.5")), FINITE, min_len=0, one_d=False)),
            f=st.one_of(bad_real(vector_ok=True), st.just([0.0, 1.0, 2.0])),
            f_prime=st.one_of(bad_real(vector_ok=True), st.just("1")),
            sigma=BAD_POS,
        ),
    ),
    Target(
        "ratio_of_means_se.paired",
        ldp.ratio_of_means_se,
        dict(num=[1.0, 2.0, 1.5], den=[1.0, 1.1, 0.9]),
        dict(paired=BAD_FLAG),
    ),
    Target(
        "ratio_exponent.paired",
        ratio_exponent,
        dict(x=[1.0, 2.0, 4.0], num_runs=[[1.0, 2.0, 4.0], [1.1, 2.1, 4.1]], den_runs=[1.0, 1.1], n_boot=20),
        dict(paired=BAD_FLAG),
    ),
    Target(
        "simulate.flags",
        ldp.simulate,
        dict(policy=ldp.make_policy("UCB1"), instance=BERN, horizon=20, runs=1, seed=0, workers=1),
        dict(progress=BAD_FLAG, checkpoints=st.sampled_from([[True, 20], [1, np.True_, 20], np.array([True, False])])),
    ),
    Target(
        "SimulationResult.at",
        lambda t: _RES.at(t),
        dict(t=20),
        dict(t=st.sampled_from([True, False, np.True_, "1", None, 1.5, [1], np.array([1, 20])])),
    ),
]

# Gaps in modules this suite may not fix (ldpcode/audit.py is owned elsewhere): left out of the passing
# suite, kept as strict xfails so that the fix turns them into failures to move back (delete the entry).
ALL_CASES = [c for t in TARGETS for c in t.cases()]
CASES = ALL_CASES


@pytest.mark.parametrize("target,param", CASES, ids=[f"{t.id}:{p}" for t, p in CASES])
@FUZZ
@given(data=st.data())
def test_bad_input_is_refused(target, param, data, fuzz_count):
    value = data.draw(target.bad[param], label=param)
    args = {**target.valid, param: value}
    name = (target.names or {}).get(param, param)
    expect_refused(lambda: target.func(**args), name, value, fuzz_count)


# --- every notebook's parameter check -------------------------------------------------------------------------


def bad_for_rule(rule: parameters.rules.Rule):
    """Values that ``rule`` must refuse (derived from the rule, so the table and the fuzz cannot drift)."""
    P = parameters.rules
    if isinstance(rule, P.Optional):
        return bad_for_rule(rule.rule).filter(lambda v: v is not None)
    if isinstance(rule, P.Int):
        return bad_int(rule.lo, rule.hi)
    if isinstance(rule, P.Real):
        return bad_real(rule.lo, rule.hi, lo_open=rule.lo_open, hi_open=rule.hi_open)
    if isinstance(rule, (P.Choice, P.Text)):
        known = rule.values if isinstance(rule, P.Choice) else ()
        strat = st.text(max_size=10).filter(lambda s: s not in known) if known else st.just("")
        return st.one_of(strat, st.sampled_from([None, 1, 1.5, ["x"], b"x", True]))
    if isinstance(rule, P.Seq):
        good = good_for_rule(rule.item)
        parts = [
            NOT_SEQUENCES,
            st.tuples(st.lists(good, max_size=2), bad_for_rule(rule.item), st.lists(good, max_size=2)).map(
                lambda t: [*t[0], t[1], *t[2]]
            ),
        ]
        if rule.min_len > 0:
            parts.append(st.lists(good, max_size=rule.min_len - 1))
        if rule.max_len < 10:
            parts.append(st.lists(good, min_size=rule.max_len + 1, max_size=rule.max_len + 2))
        if rule.increasing:
            parts.append(st.lists(good, min_size=max(rule.min_len, 2), max_size=4).map(lambda v: [v[0]] * len(v)))
        return st.one_of(parts)
    if isinstance(rule, P.Fields):
        n = len(rule.fields)
        goods = [good_for_rule(r) for _, r in rule.fields]
        parts = [
            NOT_SEQUENCES,
            st.tuples(*goods).map(lambda t: list(t)[:-1]),
            st.tuples(*goods).map(lambda t: [*t, t[-1]]),
        ]
        for i, (_, r) in enumerate(rule.fields):
            parts.append(st.tuples(*goods[:i], bad_for_rule(r), *goods[i + 1 :]).map(list))
        assert n
        return st.one_of(parts)
    if isinstance(rule, P.Grid):
        b, pts = good_for_rule(rule.bound), good_for_rule(rule.points)
        return st.one_of(
            NOT_SEQUENCES,
            st.tuples(b, b).map(list),
            st.tuples(bad_for_rule(rule.bound), b, pts).map(list),
            st.tuples(b, b, bad_for_rule(rule.points)).map(list),
            st.tuples(b, pts).map(lambda t: [t[0], t[0], t[1]]),
        )
    raise AssertionError(f"no bad-value strategy for {rule!r}")


def good_for_rule(rule: parameters.rules.Rule):
    P = parameters.rules
    if isinstance(rule, P.Optional):
        return good_for_rule(rule.rule)
    if isinstance(rule, P.Int):
        lo = rule.lo if rule.lo is not None else -10
        return st.integers(lo, min(lo + 10, rule.hi) if rule.hi is not None else lo + 10)
    if isinstance(rule, P.Real):
        lo = -10.0 if rule.lo is None else rule.lo
        hi = lo + 10.0 if rule.hi is None else rule.hi
        return st.floats(lo, hi, exclude_min=rule.lo_open, exclude_max=rule.hi_open)
    if isinstance(rule, P.Choice):
        return st.sampled_from(rule.values)
    if isinstance(rule, P.Text):
        return st.just("x")
    if isinstance(rule, P.Fields):
        return st.tuples(*[good_for_rule(r) for _, r in rule.fields]).map(list)
    raise AssertionError(f"no good-value strategy for {rule!r}")


def _defaults(notebook):
    return dict(claims.load(notebook)["params"])


NB_CASES = [(nb, name) for nb in parameters.notebook_rules() for name in parameters.rules_for(nb).names]
assert len(NB_CASES) > 200, "every parameter of every notebook is fuzzed (names come from the parameters cells)"


@pytest.mark.parametrize("notebook,name", NB_CASES, ids=[f"{nb.split('/', 1)[1]}:{n}" for nb, n in NB_CASES])
@settings(FUZZ, max_examples=8)
@given(data=st.data())
def test_bad_notebook_parameter_is_refused(notebook, name, data, fuzz_count):
    rule = parameters.notebook_rules()[notebook].rule(name)
    value = data.draw(bad_for_rule(rule), label=name)
    namespace = {**_defaults(notebook), name: value}
    expect_refused(lambda: ldp.claims.check_parameters(notebook, namespace), name, value, fuzz_count)


def test_enough_bad_inputs(request, fuzz_count):
    """At least 1,000 bad inputs per full run of this file (skipped when a subset is selected by -k; no fuzz
    test carries a marker, so a marker expression selects all of them or none)."""
    if request.config.option.keyword or fuzz_count["tried"] == 0:
        pytest.skip("only part of the fuzz suite was selected")
    assert fuzz_count["escaped"] == 0
    assert fuzz_count["tried"] >= 1000, fuzz_count


# --- the shared validators themselves, on hand-picked values -----------------------------------------------


def test_check_array_messages():
    from ldpcode._validate import as_float_array, check_array, check_rng, check_unit_interval

    assert check_array("x", [[0.0, 1.0]], ndim=2, low=0, high=1).shape == (1, 2)
    with pytest.raises(ValueError, match=r"^rewards must be in \[0, 1\], got 1.5 at index \(1, 0\)$"):
        check_array("rewards", [[0.5, 0.5], [1.5, 0.2]], ndim=2, low=0, high=1)
    with pytest.raises(ValueError, match=r"^gap must be finite and > 0, got 0.0 at index 1$"):
        check_array("gap", [0.2, 0.0], low=0, low_open=True)
    with pytest.raises(ValueError, match=r"^t must be finite, got nan$"):
        check_array("t", math.nan)
    with pytest.raises(ValueError, match=r"^table must be a 2-d array, got shape \(3,\)$"):
        check_array("table", [0.1, 0.2, 0.3], ndim=2)
    with pytest.raises(ValueError, match=r"^rewards must hold at least 1 numbers, got 0$"):
        check_array("rewards", [], min_size=1)
    for bad in ("0.5", None, {"a": 1}, [0.5, "a"], [[1.0], [1.0, 2.0]], True, 1 + 2j):
        with pytest.raises(TypeError, match=r"^means must be a number or an array of numbers, got"):
            as_float_array("means", bad)
    assert as_float_array("flags", np.array([True, False])).tolist() == [1.0, 0.0]
    # Python integers beyond int64 are numbers (NumPy makes them an object array): before, "must be a number"
    assert as_float_array("x", [2**70, 1]).tolist() == [2.0**70, 1.0]
    with pytest.raises(ValueError, match=r"^x must hold numbers below the largest double \(1.8e308\), got an integer"):
        as_float_array("x", [1, 2**1100])
    with pytest.raises(TypeError, match=r"^means must hold numbers, not bools"):
        as_float_array("means", [True, 2**70], bools=False)
    with pytest.raises(TypeError) as refused:  # a long refused list is shown on one line, cut
        as_float_array("x", [*range(500), "a"])
    assert len(str(refused.value)) < 260 and "..." in str(refused.value)
    with pytest.raises(ValueError, match=r"rewards must be a 2-d array of numbers in \[0, 1\], got shape \(2,\)"):
        check_unit_interval("rewards", [0.1, 0.2], ndim=2)
    assert check_unit_interval("rewards", [[0.1, 0.2]], ndim=2).shape == (1, 2)
    with pytest.raises(TypeError, match="rng must be a numpy.random.Generator"):
        check_rng("rng", np.random.RandomState(0))


def test_one_line_is_bounded_whatever_the_value():
    """Before: one_line(10**5000) raised ValueError (Python's 4,300-digit limit of repr) in place of the message it
    was building, and a list of a million items was formatted whole to be cut."""
    from ldpcode._validate import as_float_array, one_line

    assert one_line(10**5000) == "an integer of about 2**16609"
    assert one_line([1, 10**200]) == "[1, an integer of about 2**664]"
    text = one_line([0] * 10**6 + [10**5000])  # its first items only: the last is never formatted
    assert len(text) == 160 and text.startswith("[0, 0, ") and text.endswith("...")
    with pytest.raises(TypeError, match=r"^x must be a number or an array of numbers, got \[an integer of about"):
        as_float_array("x", [10**5000, "a"])
