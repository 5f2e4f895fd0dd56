"""The parameter rules of every notebook, checked before any work starts.

Each chapter notebook has one cell tagged ``parameters`` (papermill injects a reader's values in a
cell right after it) and, right after those, the cell

    ldp.claims.check_parameters("chapters/<chapter>/<name>.ipynb", globals())

(:func:`ldpcode.claims.check_parameters`, a thin wrapper of :func:`check`), which looks up the notebook in :data:`NOTEBOOKS` and checks every parameter listed there against its
rule: type, range, finiteness, length, and the consistency between parameters (a horizon at least the
number of arms, a grid whose minimum is below its maximum, ...). A wrong type raises ``TypeError``, a
wrong value ``ValueError``; the message names the parameter, the value received and what is allowed.

Rules are explicit, keyed by parameter name: :data:`COMMON` holds the names that mean the same thing
in every notebook (``horizon``, ``runs``, ``seed``, ``epsilons``, ``delta``, ...), and each entry of
:data:`NOTEBOOKS` lists the notebook's own parameters, with a rule for each name :data:`COMMON` does
not cover (or covers with another meaning, such as ``alpha``). ``tests/test_parameters.py`` proves that
every parameter of every notebook has a rule and that every notebook's stored defaults pass, so a new
notebook without rules fails the tests.

Every rule refuses what the notebook's body cannot run (a standard error needs two runs, a fit three
points, a checkpoint list a horizon past its first point): the bound says why in the message. Each entry's
``tiny`` values sit at those edges and run the whole body in seconds; ``tests/test_notebook_edges_*.py``
runs every notebook there with papermill.

Integers are strict: ``10**6`` is a horizon, ``1e6`` (a float) is refused with a TypeError.
Lists may be given as lists or tuples (papermill passes lists).
"""

from __future__ import annotations

import ast
import difflib
import math
import numbers
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ._validate import EPSILON_FLOOR

__all__ = ["COMMON", "NOTEBOOKS", "Notebook", "check", "check_values", "rules_for"]


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _fail(name: str, allowed: str, value, exc=ValueError):
    raise exc(f"parameter {name} must be {allowed}, got {_show(value)}")


def _is_int(v) -> bool:
    return isinstance(v, (numbers.Integral, np.integer)) and not isinstance(v, (bool, np.bool_))


def _is_real(v) -> bool:
    return isinstance(v, (numbers.Real, np.floating, np.integer)) and not isinstance(v, (bool, np.bool_))


# --- rules ---------------------------------------------------------------------------------------------


class Rule:
    """A check of one value; ``allowed`` is the phrase the error messages use. A rule whose bound comes from
    what the notebook's body needs (not from the quantity's meaning) says why in ``why``, which the message
    shows in parentheses: ``runs`` must be >= 2 "(a standard error over runs needs at least 2 runs)"."""

    allowed = "?"

    def __call__(self, name: str, value) -> None:  # pragma: no cover - interface
        raise NotImplementedError


@dataclass(frozen=True)
class Int(Rule):
    """An integer (``bool`` and floats refused) in ``[lo, hi]``."""

    lo: int | None = None
    hi: int | None = None
    why: str = ""

    @property
    def allowed(self) -> str:
        if self.lo is not None and self.hi is not None:
            text = f"an integer in [{self.lo}, {self.hi}]"
        elif self.lo is not None:
            text = f"an integer >= {self.lo}"
        else:
            text = "an integer"
        return f"{text} ({self.why})" if self.why else text

    def __call__(self, name, value):
        if not _is_int(value):
            _fail(
                name,
                self.allowed + " (write 10**6, not 1e6)" if isinstance(value, float) else self.allowed,
                value,
                TypeError,
            )
        v = int(value)
        if (self.lo is not None and v < self.lo) or (self.hi is not None and v > self.hi):
            _fail(name, self.allowed, value)


@dataclass(frozen=True)
class Real(Rule):
    """A finite real number (ints accepted, ``bool`` refused) in the given interval."""

    lo: float | None = None
    hi: float | None = None
    lo_open: bool = False
    hi_open: bool = False

    @property
    def allowed(self) -> str:
        if self.lo is None and self.hi is None:
            return "a finite number"
        if self.hi is None:
            return f"a finite number {'>' if self.lo_open else '>='} {self.lo:g}"
        if self.lo is None:
            return f"a finite number {'<' if self.hi_open else '<='} {self.hi:g}"
        return f"a number in {'(' if self.lo_open else '['}{self.lo:g}, {self.hi:g}{')' if self.hi_open else ']'}"

    def __call__(self, name, value):
        if not _is_real(value):
            _fail(name, self.allowed, value, TypeError)
        v = float(value)
        if not math.isfinite(v):
            _fail(name, self.allowed, value)
        if self.lo is not None and (v < self.lo or (self.lo_open and v == self.lo)):
            _fail(name, self.allowed, value)
        if self.hi is not None and (v > self.hi or (self.hi_open and v == self.hi)):
            _fail(name, self.allowed, value)


@dataclass(frozen=True)
class Choice(Rule):
    """One of a fixed set of strings."""

    values: tuple

    @property
    def allowed(self) -> str:
        return "one of " + ", ".join(repr(v) for v in self.values)

    def __call__(self, name, value):
        if not isinstance(value, str):
            _fail(name, self.allowed, value, TypeError)
        if value not in self.values:
            _fail(name, self.allowed, value)


@dataclass(frozen=True)
class Text(Rule):
    """A non-empty string (what it names is checked by the notebook's consistency checks)."""

    allowed = "a non-empty string"

    def __call__(self, name, value):
        if not isinstance(value, str):
            _fail(name, self.allowed, value, TypeError)
        if not value:
            _fail(name, self.allowed, value)


@dataclass(frozen=True)
class Optional(Rule):
    """``None`` or a value passing ``rule``."""

    rule: Rule

    @property
    def allowed(self) -> str:
        return f"None or {self.rule.allowed}"

    def __call__(self, name, value):
        if value is not None:
            self.rule(name, value)


def _as_sequence(name, value, allowed):
    if not isinstance(value, (list, tuple)):
        _fail(name, allowed, value, TypeError)
    return list(value)


@dataclass(frozen=True)
class Seq(Rule):
    """A list (or tuple) of ``min_len`` to ``max_len`` items, each passing ``item``; optionally strictly
    increasing."""

    item: Rule
    min_len: int = 1
    max_len: int = 10_000
    increasing: bool = False
    why: str = ""

    @property
    def allowed(self) -> str:
        size = f"exactly {self.min_len}" if self.min_len == self.max_len else f"{self.min_len} to {self.max_len}"
        inc = ", strictly increasing" if self.increasing else ""
        why = f" ({self.why})" if self.why else ""
        return f"a list of {size} items{why}, each {self.item.allowed}{inc}"

    def __call__(self, name, value):
        items = _as_sequence(name, value, self.allowed)
        if not self.min_len <= len(items) <= self.max_len:
            _fail(name, self.allowed, value)
        for i, v in enumerate(items):
            self.item(f"{name}[{i}]", v)
        if self.increasing and any(b <= a for a, b in zip(items, items[1:])):
            _fail(name, self.allowed, value)


@dataclass(frozen=True)
class Fields(Rule):
    """A fixed-length list such as ``[T, K]``: one named rule per position."""

    fields: tuple  # ((field name, rule), ...)

    @property
    def allowed(self) -> str:
        return (
            "a list ["
            + ", ".join(f for f, _ in self.fields)
            + "] with "
            + "; ".join(f"{f} {r.allowed}" for f, r in self.fields)
        )

    def __call__(self, name, value):
        items = _as_sequence(name, value, self.allowed)
        if len(items) != len(self.fields):
            _fail(name, self.allowed, value)
        for i, ((fname, rule), v) in enumerate(zip(self.fields, items)):
            rule(f"{name}[{i}] ({fname})", v)


@dataclass(frozen=True)
class Grid(Rule):
    """``[min, max, points]``: ``min < max`` (both passing ``bound``), ``points`` an integer in [2, 10**6]."""

    bound: Rule = field(default_factory=lambda: Real(0, lo_open=True))
    points: Rule = field(default_factory=lambda: Int(2, 10**6))
    why: str = ""

    @property
    def allowed(self) -> str:
        why = f" ({self.why})" if self.why else ""
        return (
            f"a list [min, max, points]{why} with min < max, each {self.bound.allowed}, "
            f"and points {self.points.allowed}"
        )

    def __call__(self, name, value):
        items = _as_sequence(name, value, self.allowed)
        if len(items) != 3:
            _fail(name, self.allowed, value)
        self.bound(f"{name}[0] (min)", items[0])
        self.bound(f"{name}[1] (max)", items[1])
        self.points(f"{name}[2] (points)", items[2])
        if not items[0] < items[1]:
            _fail(name, self.allowed, value)


# --- consistency checks between parameters ---------------------------------------------------------------

Check = Callable[[dict], None]


def less(a: str, b: str, *, strict: bool = True, why: str = "") -> Check:
    """``p[a] < p[b]`` (or ``<=``); ``why`` (shown in parentheses) says what needs it, where the body does."""

    def check(p):
        ok = p[a] < p[b] if strict else p[a] <= p[b]
        if not ok:
            raise ValueError(
                f"parameter {a} must be {'<' if strict else '<='} {b} = {_show(p[b])}"
                f"{f' ({why})' if why else ''}, got {a} = {_show(p[a])}"
            )

    return check


def at_least_arms(
    horizon: str,
    means: str | None = None,
    *,
    n_arms: int | None = None,
    each: bool = False,
    extra: int = 0,
    why: str = "",
) -> Check:
    """A horizon (or each horizon of a list) at least the number of arms (every arm is pulled once), plus
    ``extra`` steps where the body needs them (``why`` says so in the message)."""

    def check(p):
        k = len(p[means]) if means is not None else n_arms
        where = f"the number of arms len({means})" if means is not None else "the number of arms"
        if extra:
            where = f"{where} + {extra} = {k + extra}"
        else:
            where = f"{where} = {k}" if means is not None else f"{where} {k}"
        values = p[horizon] if each else [p[horizon]]
        for i, t in enumerate(values):
            if t < k + extra:
                label = f"{horizon}[{i}]" if each else horizon
                raise ValueError(
                    f"parameter {label} must be an integer >= {where}{f' ({why})' if why else ''}, got {_show(t)}"
                )

    return check


def below(values: str, limit: str, *, offset: int = 0, what: str = "") -> Check:
    """Every integer in ``p[values]`` is < ``len(p[limit]) + offset`` (an index into another list)."""

    def check(p):
        k = len(p[limit]) + offset
        for i, v in enumerate(p[values]):
            if v >= k:
                raise ValueError(
                    f"parameter {values}[{i}] must be < {k} ({what or 'len(' + limit + ')'}), got {_show(v)}"
                )

    return check


def fit_window(start: str, horizon: str, points: int, *, minimum: int = 3) -> Check:
    """At least ``minimum`` of the run's checkpoints (:func:`ldpcode.simulate.log_checkpoints` with ``points``,
    the engine's default) lie in [``p[start]``, ``p[horizon]``]: an exponent is a fit over them."""

    def check(p):
        from .simulate import log_checkpoints

        n = int((log_checkpoints(p[horizon], points) >= p[start]).sum())
        if n < minimum:
            raise ValueError(
                f"parameter {start} must leave at least {minimum} of the run's {points} log-spaced "
                f"checkpoints in [{start}, {horizon}] (the exponent is a fit over them), got {start} = "
                f"{_show(p[start])}, {horizon} = {_show(p[horizon])}: {n} left"
            )

    return check


def custom(test: Callable[[dict], bool], message: str) -> Check:
    """A check written inline: ``message`` is formatted with the parameters (``{horizon}``)."""

    def check(p):
        if not test(p):
            raise ValueError("parameter " + message.format(**{k: _show(v) for k, v in p.items()}))

    return check


# --- the rule table ---------------------------------------------------------------------------------------

MAX_COUNT = 2**62  # horizons and sample counts: int64 counters in the engine
POS = Real(0, lo_open=True)  # finite, > 0
EPS = Real(EPSILON_FLOOR)  # a privacy level: >= ldpcode's EPSILON_FLOOR (1e-9), as ldpcode checks it
PROB = Real(0, 1, lo_open=True, hi_open=True)  # delta, failure probabilities: in (0, 1)
UNIT = Real(0, 1)  # Bernoulli means: in [0, 1]
HORIZON = Int(2, MAX_COUNT)
SE_RUNS = "a standard error over runs needs at least 2 runs"
RUNS = Int(2, 10**6, SE_RUNS)
COUNT = Int(1, MAX_COUNT)
POINTS = Int(2, 10**6)
SEED = Int(0, 2**128)
MEANS = Seq(UNIT, min_len=2)
EPSILONS = Seq(EPS)
ADAP = Choice(("AdaP-UCB", "AdaP-KLUCB"))
HELDP_LAW = Choice(("ren-heldp-discrete", "ren-heldp-gaussian"))
SETTINGS = Seq(Fields((("law", HELDP_LAW), ("eps_min", EPS))))
REN_INSTANCE = Choice(("ren2020-bernoulli", "ren2020-gaussian", "ren2020-mixed"))
REN_ARMS = 20  # every named Ren et al. instance has 20 arms

COMMON: dict[str, Rule] = {
    "horizon": HORIZON,
    "runs": RUNS,
    "seed": SEED,
    "epsilon": EPS,
    "epsilons": EPSILONS,
    "delta": PROB,
    "means": MEANS,
    "n_boot": Int(2, 10**6),
    "instance": REN_INSTANCE,
    "settings": SETTINGS,
    "ratio_horizon": HORIZON,
    "eps_min": EPS,
    "eps_max": EPS,
}

ALPHA_INDEX = POS  # Azize and Basu's exploration parameter alpha (3.1 in the paper)
ALPHA_CONF = PROB  # a failure probability / confidence level alpha


@dataclass(frozen=True)
class Notebook:
    """A notebook's parameters: ``names`` in the order of its parameters cell; ``rules`` for the names
    that :data:`COMMON` does not cover or that mean something else here; ``checks`` between them;
    ``tiny`` the values (over the parameters cell's) of the notebook's smallest run: each at the edge the
    rules accept (fewest runs, shortest horizon, shortest lists), so that the whole body runs in seconds.
    ``tests/test_notebook_edges_*.py`` runs every notebook at its ``tiny`` values with papermill: a value
    the rules accept but the body cannot run fails there, not in a reader's last cell. Where a statistical
    claim needs runs that differ (at T = K every run pulls each arm once and has the same regret; the claims
    module refuses a statistical claim whose standard error is 0), ``tiny`` takes the smallest horizon measured
    to give them rather than the rule's minimum: that is a property of the random runs, not a rule."""

    names: tuple
    rules: dict = field(default_factory=dict)
    checks: tuple = ()
    tiny: dict = field(default_factory=dict)

    def rule(self, name: str) -> Rule:
        return self.rules[name] if name in self.rules else COMMON[name]


def _data_folder_exists(p) -> bool:
    from ._paths import repo_root

    ch = p["chapter"]
    if ch is None:
        return True
    # a plain folder name: no separators, no "..", so "/etc" or "../x" cannot name a folder outside data/
    return "/" not in ch and "\\" not in ch and ch not in (".", "..") and (repo_root() / "data" / ch).is_dir()


def _ctb_float_finite(p) -> bool:
    from .audit import ctb_float_probability_one, privacy_loss_matrix

    for e in p["ctb_float_epsilons"]:
        q = ctb_float_probability_one(np.array([0.0, 1.0]), e)
        if math.isfinite(float(privacy_loss_matrix(np.column_stack([1 - q, q])).max())):
            return True
    return False


# why the privacy audit needs what it needs (the appendix)
AUDIT_POWER = (
    "with fewer outputs per input the audit is too weak to refute every broken curator (measured: with "
    "100 it misses one)"
)
LEMMA1_BINS = "with fewer releases the binned log-ratio has empty bins and no standard error"
GDP_FORCED = "at T = 2 both pulls are forced: no action sequence depends on the rewards"
GDP_POWER = (
    "with fewer runs the audit is too weak to refute the noise-halved AdaP-UCB (measured at T = 3: 1,000 runs "
    "miss it for 2 seeds of 3)"
)
# measured: at T = 12 the non-forgetting AdaP-UCB is refuted with 25,000 runs, missed with 10,000 (3 seeds of 3)
STALE_HORIZON = "the non-forgetting AdaP-UCB's excess privacy loss shows from T = 12 (Example 2's horizon) on"
STALE_POWER = "with fewer runs the audit cannot refute the non-forgetting AdaP-UCB, whose excess over eps is small"


def _episode5_start(pattern, n_arms: int) -> int:
    """t_5 of Algorithm 1 (Azize and Basu, Example 2) when episodes 1-4 play ``pattern``: after one pull of
    each arm (t_1 = K + 1), episode l plays its arm for as many steps as the arm has been pulled."""
    counts, t = [1] * n_arms, n_arms + 1
    for a in pattern:
        t += counts[a]
        counts[a] *= 2
    return t


AFTER_START = (
    "Algorithm 1's first private means are released for the decision at t = K + 1: at T = K none "
    "is used, and a release count per episode is undefined"
)


def _eps_grid_spans_switches(p) -> bool:
    from .bounds import gdp_lower_bound_terms

    lo, hi = p["eps_grid"][0], p["eps_grid"][1]
    for means in (p["fig2_means"], p["fig3_means"]):
        switch = gdp_lower_bound_terms(means, 1.0).epsilon_threshold
        if not (lo < switch.min() and hi >= switch.max()):
            return False
    return True


SAME_RUNS = "at T = K each arm is pulled once: every run has the same regret, and its standard error is 0"

OTHER_EPS_MIN = "the heuristic's eps_min is compared with the best other eps_min of the grid"

RATIO_LONGER = "the ratio panel continues the runs past horizon; its claims are read at both horizons"

WORST_OF_PANEL = "the check compares the paper's worst eps_min of the panel with the others"


def _tail_well_estimated(p) -> bool:
    from .mechanisms import laplace_sum_sf

    for n in p["n_values"]:
        first = 2 * math.sqrt(2) * p["b"] * n / (p["grid_points"] - 1)  # the grid's first point after 0
        if float(laplace_sum_sf(first, n, p["b"])) * p["samples"] < p["min_count"]:
            return False
    return True


FIT_PER_LAW = "a linear fit per law of the users' levels needs at least 3 thresholds"

EPS_FIT = Seq(EPS, min_len=3, why="the exponent in eps is a log-log fit over at least 3 of them")
T_FIT = "the exponent in T is a log-log fit over at least 3 horizons"

RATIO_FIT = "the exponent of the ratio in 1/eps is a log-log fit over at least 3 of them"


def _minimax_bound_fails_early(p) -> bool:
    from .bounds import gdp_minimax_lower_bound
    from .simulate import log_checkpoints

    cps = log_checkpoints(p["horizon"], p["checkpoint_points"])
    t = int(cps[cps >= 10][0])
    return all(gdp_minimax_lower_bound(t, k, min(p["epsilons"])) > t * (k - 1) / k for k in p["n_arms_list"])


def _minimax_bound_reachable(p) -> bool:
    from .bounds import gdp_minimax_lower_bound

    t = p["horizon"]
    return all(gdp_minimax_lower_bound(t, k, e) <= t * (k - 1) / k for k in p["n_arms_list"] for e in p["epsilons"])


def _noise_free_model_fits(horizon: str, policies: tuple[str, ...]):
    """A rule for notebooks that draw global_policies.noise_free_pulls over an eps grid (azize2022/figure3,
    theorems7_8): the smallest eps explores longest, and the model refuses a horizon shorter than that
    exploration. The rule asks the model itself, for each policy drawn."""

    def fits(p) -> bool:
        from .global_policies import HorizonTooShort, noise_free_pulls

        try:  # any other ValueError is another parameter's fault, and propagates in the model's own words
            for name in policies:
                noise_free_pulls(name, p["means"], p[horizon], p["eps_min"], p["alpha"])
        except HorizonTooShort:
            return False
        return True

    return custom(
        fits,
        f"{horizon} must outlast the exploration of the noise-free model at eps_min (the notebook "
        f"draws it for {', '.join(policies)}): the model predicts more pulls of the suboptimal arms "
        f"than the horizon, got {horizon} = {{{horizon}}}, eps_min = {{eps_min}}",
    )


_chapter_exists = custom(
    _data_folder_exists, "chapter must name a folder under data/ (such as 'ren2020'), got {chapter}"
)
_ren_horizon = at_least_arms("horizon", n_arms=REN_ARMS)

NOTEBOOKS: dict[str, Notebook] = {
    # ---------------------------------------------------------------- appendix: the privacy audits
    "chapters/appendix/privacy_audit.ipynb": Notebook(
        (
            "curator_epsilons",
            "heldp_levels",
            "samples",
            "heldp_samples",
            "bins",
            "confidence_alpha",
            "loss_bound",
            "zheng_epsilons",
            "zheng_delta",
            "laplace_epsilon",
            "lemma1_epsilon",
            "lemma1_starts",
            "lemma1_samples",
            "gdp_epsilon",
            "gdp_horizon",
            "gdp_runs",
            "index_alpha",
            "broken_epsilon",
            "mironov_epsilon",
            "mironov_samples",
            "mironov_window",
            "ctb_float_epsilons",
            "vetted_samples",
            "vetted_grid_bits",
            "seed",
        ),
        dict(
            curator_epsilons=EPSILONS,
            heldp_levels=Seq(Real(0), increasing=True),
            samples=Int(1000, 10**9, AUDIT_POWER),
            heldp_samples=Int(100, 10**9, "the audit's pilot bins need 100 outputs per input"),
            bins=Int(2, 10**4),
            confidence_alpha=ALPHA_CONF,
            loss_bound=POS,
            zheng_epsilons=EPSILONS,
            zheng_delta=PROB,
            laplace_epsilon=EPS,
            lemma1_epsilon=EPS,
            lemma1_starts=Seq(Int(2, 10**4), increasing=True),
            lemma1_samples=Int(1000, 10**9, LEMMA1_BINS),
            gdp_epsilon=EPS,
            gdp_horizon=Int(3, 10**4, GDP_FORCED),
            gdp_runs=Int(2000, 10**8, GDP_POWER),
            index_alpha=ALPHA_INDEX,
            broken_epsilon=EPS,
            mironov_epsilon=EPS,
            mironov_samples=Int(2, 10**9, "a standard error needs at least 2 outputs"),
            mironov_window=Int(1, 10**6),
            ctb_float_epsilons=EPSILONS,
            vetted_samples=Int(100, 10**9),
            vetted_grid_bits=Int(0, 40),
        ),
        (
            custom(
                _ctb_float_finite,
                "ctb_float_epsilons must hold at least one eps at which CTB's implemented law "
                "has a finite loss (below about 37: above, 1/(1 + e^eps) rounds to the grid's "
                "last step and the loss is infinite), got {ctb_float_epsilons}",
            ),
        ),
        tiny=dict(
            curator_epsilons=[1.0],
            heldp_levels=[0.0],
            samples=1000,
            heldp_samples=100,
            bins=2,
            zheng_epsilons=[1.0],
            lemma1_starts=[2],
            lemma1_samples=1000,
            gdp_horizon=3,
            gdp_runs=2000,
            mironov_samples=2,
            mironov_window=1,
            ctb_float_epsilons=[1.0],
            vetted_samples=100,
        ),
    ),
    # ---------------------------------------------------------------- Azize and Basu (2022)
    "chapters/azize2022/figure1_episodes.ipynb": Notebook(
        (
            "epsilon",
            "alpha",
            "example_means",
            "example_pattern",
            "example_horizon",
            "trace_horizon",
            "means",
            "small_horizon",
            "horizon",
            "runs",
            "policies",
            "seed",
        ),
        dict(
            alpha=ALPHA_INDEX,
            example_means=MEANS,
            example_pattern=Seq(Int(0), 4, 4),
            example_horizon=Int(2, 10**6),
            trace_horizon=Int(2, 10**6),
            small_horizon=Int(2, 10**7),
            policies=Seq(ADAP),
        ),
        (
            below("example_pattern", "example_means", what="an arm of example_means"),
            at_least_arms("example_horizon", "example_means"),
            custom(
                lambda p: p["example_horizon"] >= _episode5_start(p["example_pattern"], len(p["example_means"])) - 1,
                "example_horizon must be >= t_5 - 1, the last step of example_pattern's fourth episode (each "
                "episode doubles its arm's count), got example_horizon = {example_horizon}, example_pattern = "
                "{example_pattern}",
            ),
            less("example_horizon", "trace_horizon", strict=False),
            at_least_arms("small_horizon", "means"),
            at_least_arms("horizon", "means", extra=1, why=AFTER_START),
        ),
        tiny=dict(example_horizon=10, trace_horizon=10, small_horizon=5, horizon=6, runs=2, policies=["AdaP-KLUCB"]),
    ),
    "chapters/azize2022/figure2.ipynb": Notebook(
        ("horizon", "runs", "epsilon", "means", "alpha", "gamma", "beta", "seed", "linear_points", "n_sd"),
        dict(
            horizon=Int(10, MAX_COUNT, "the log-log panel starts at t = 10"),
            alpha=ALPHA_INDEX,
            gamma=PROB,
            beta=Optional(PROB),
            linear_points=POINTS,
            n_sd=Real(0),
        ),
        (
            at_least_arms("horizon", "means"),
            less(
                "linear_points",
                "horizon",
                strict=False,
                why="the linear panel's checkpoints are T/points apart, at least one step",
            ),
        ),
        tiny=dict(horizon=10, runs=2, linear_points=2),
    ),
    "chapters/azize2022/figure3.ipynb": Notebook(
        ("horizon", "runs", "means", "eps_min", "eps_max", "n_eps", "alpha", "seed", "n_boot", "boot_seed"),
        dict(
            n_eps=Int(4, 10**4, "the two-regime (hinge) fit needs at least 4 values of eps"),
            alpha=ALPHA_INDEX,
            boot_seed=SEED,
        ),
        (
            at_least_arms("horizon", "means"),
            less("eps_min", "eps_max"),
            custom(
                lambda p: (np.geomspace(p["eps_min"], p["eps_max"], p["n_eps"]) > 0.3).sum() >= 2,
                "n_eps, eps_min, eps_max must put at least two eps of the log grid above 0.3 (the check compares the "
                "regret at the first eps above the paper's switch 0.3 with that at eps_max), got n_eps = {n_eps}, "
                "eps_min = {eps_min}, eps_max = {eps_max}",
            ),
            _noise_free_model_fits("horizon", ("AdaP-KLUCB",)),
        ),
        tiny=dict(horizon=20_000, runs=2, n_eps=4, n_boot=2),
    ),
    "chapters/azize2022/lemma1_theorem6_privacy.ipynb": Notebook(
        (
            "lemma1_epsilon",
            "lemma1_starts",
            "lemma1_changed",
            "lemma1_samples",
            "audit_means",
            "audit_horizon",
            "audit_changed_step",
            "audit_table_entry",
            "audit_runs",
            "audit_epsilons",
            "audit_policies",
            "alpha",
            "confidence_alpha",
            "broken_halved_epsilon",
            "broken_stale_epsilon",
            "broken_stale_runs",
            "seed",
        ),
        dict(
            lemma1_epsilon=EPS,
            lemma1_starts=Seq(Int(2, 10**4), min_len=0, increasing=True),
            lemma1_changed=Seq(Int(1, 10**4)),
            lemma1_samples=Int(1000, 10**9, LEMMA1_BINS),
            audit_means=MEANS,
            audit_horizon=Int(12, 10**4, STALE_HORIZON),
            audit_changed_step=Int(1),
            audit_table_entry=Fields((("arm", Int(0)), ("pull", Int(0)))),
            audit_runs=Int(2000, 10**8, GDP_POWER),
            audit_epsilons=EPSILONS,
            audit_policies=Seq(ADAP),
            alpha=ALPHA_INDEX,
            confidence_alpha=ALPHA_CONF,
            broken_halved_epsilon=EPS,
            broken_stale_epsilon=EPS,
            broken_stale_runs=Int(25_000, 10**8, STALE_POWER),
        ),
        (
            at_least_arms("audit_horizon", "audit_means"),
            less("audit_changed_step", "audit_horizon", strict=False),
            custom(
                lambda p: p["audit_table_entry"][0] < len(p["audit_means"]),
                "audit_table_entry[0] (arm) must be < len(audit_means) = {audit_means}, got {audit_table_entry}",
            ),
            custom(
                lambda p: p["audit_table_entry"][1] < p["audit_horizon"],
                "audit_table_entry[1] (pull) must be < audit_horizon = {audit_horizon}, got {audit_table_entry}",
            ),
        ),
        tiny=dict(
            lemma1_starts=[],
            lemma1_changed=[1],
            lemma1_samples=1000,
            audit_horizon=12,
            audit_runs=2000,
            audit_epsilons=[1.0],
            audit_policies=["AdaP-KLUCB"],
            broken_stale_runs=25_000,
            audit_table_entry=[0, 0],
        ),
    ),
    "chapters/azize2022/table1.ipynb": Notebook(
        ("horizon", "runs", "epsilon", "means", "alpha", "gamma", "beta", "seed", "growth_horizons", "growth_runs"),
        dict(
            alpha=ALPHA_INDEX,
            gamma=PROB,
            beta=Optional(PROB),
            growth_horizons=Seq(
                HORIZON, min_len=3, increasing=True, why="the growth exponent is a fit over at least 3 horizons"
            ),
            growth_runs=Int(2, 10**6, SE_RUNS),
        ),
        (at_least_arms("horizon", "means"), at_least_arms("growth_horizons", "means", each=True)),
        tiny=dict(horizon=5, runs=2, growth_horizons=[5, 6, 7], growth_runs=2),
    ),
    "chapters/azize2022/theorem2_minimax.ipynb": Notebook(
        (
            "horizon",
            "runs",
            "policies",
            "alpha",
            "n_arms_list",
            "epsilons",
            "gap_grid",
            "base_mean",
            "checkpoint_points",
            "seed",
            "example",
            "example_paper_threshold",
            "curves_kt",
            "curves_eps",
        ),
        dict(
            horizon=Int(10, MAX_COUNT, "the check reads the worst case at the first checkpoint t >= 10"),
            policies=Seq(ADAP),
            alpha=ALPHA_INDEX,
            n_arms_list=Seq(Int(2, 10**5)),
            gap_grid=Grid(),
            base_mean=Real(0, 1, hi_open=True),
            checkpoint_points=Int(2, 10**4),
            example=Fields((("T", HORIZON), ("K", Int(2, 10**9)))),
            example_paper_threshold=POS,
            curves_kt=Seq(Fields((("T", HORIZON), ("K", Int(2, 10**9))))),
            curves_eps=EPSILONS,
        ),
        (
            custom(
                lambda p: p["base_mean"] + p["gap_grid"][1] <= 1,
                "gap_grid[1] (max) must be <= 1 - base_mean (a mean in [0, 1]), got gap_grid = {gap_grid}, "
                "base_mean = {base_mean}",
            ),
            custom(
                lambda p: p["horizon"] >= max(p["n_arms_list"]),
                "horizon must be >= max(n_arms_list) = {n_arms_list}, got {horizon}",
            ),
            custom(
                _minimax_bound_fails_early,
                "epsilons must hold an eps so small that bound (3) exceeds t(K-1)/K, the regret of uniform play, at "
                "the first checkpoint t >= 10 for every K of n_arms_list (the check asserts that (3) fails there: "
                "eps < K/(131 t)), got epsilons = {epsilons}, n_arms_list = {n_arms_list}",
            ),
            custom(
                _minimax_bound_reachable,
                "epsilons must each keep bound (3) at T = horizon at most T(K-1)/K, the regret of uniform play, for "
                "every K of n_arms_list (the check asserts that the worst case reaches (3) at T: eps >= K/(131 T)), "
                "got epsilons = {epsilons}, n_arms_list = {n_arms_list}, horizon = {horizon}",
            ),
        ),
        tiny=dict(
            horizon=1000,
            runs=2,
            policies=["AdaP-UCB"],
            n_arms_list=[2],
            epsilons=[1e-3],
            gap_grid=[0.1, 0.45, 2],
            checkpoint_points=4,
            curves_kt=[[10, 2]],
            curves_eps=[1e-3],
        ),
    ),
    "chapters/azize2022/theorem3_problem_dependent.ipynb": Notebook(
        (
            "fig2_means",
            "fig3_means",
            "fig3_paper_switch",
            "epsilon",
            "eps_grid",
            "sigma",
            "gap_axis",
            "gauss_check_ratios",
            "log_s_grid",
        ),
        dict(
            fig2_means=MEANS,
            fig3_means=MEANS,
            fig3_paper_switch=POS,
            eps_grid=Grid(),
            sigma=POS,
            gap_axis=Grid(Real(0, 0.75, lo_open=True)),
            gauss_check_ratios=Seq(POS),
            log_s_grid=Grid(Real(-50, 50), Int(2, 10**4)),
        ),
        (
            custom(
                lambda p: len(set(p["fig2_means"])) > 1 and len(set(p["fig3_means"])) > 1,
                "fig2_means and fig3_means must each have a suboptimal arm, got {fig2_means}, {fig3_means}",
            ),
            custom(
                _eps_grid_spans_switches,
                "eps_grid must reach below the smallest switch point eps_a of the two instances and up to the largest "
                "(the asymptotes are checked on both sides), got eps_grid = {eps_grid}",
            ),
        ),
        tiny=dict(eps_grid=[1e-3, 1e2, 2], gap_axis=[0.1, 0.2, 2], gauss_check_ratios=[1.0], log_s_grid=[-1.0, 1.0, 2]),
    ),
    "chapters/azize2022/theorems4_5_linear.ipynb": Notebook(
        (
            "dims",
            "horizons",
            "t4_eps",
            "claim_horizon",
            "theta_basis",
            "angles_deg",
            "eoo_x",
            "eoo_gamma",
            "eps_rho_grid",
            "table_eps_rho",
            "rho_pairs",
        ),
        dict(
            dims=Seq(Int(1, 10**6)),
            horizons=Seq(HORIZON),
            t4_eps=EPSILONS,
            claim_horizon=HORIZON,
            theta_basis=Seq(Real(-1e6, 1e6), 3, 3),
            angles_deg=Seq(Real(-360, 360)),
            eoo_x=Real(0, 1, True, True),
            eoo_gamma=POS,
            eps_rho_grid=Grid(),
            table_eps_rho=Seq(EPS),
            rho_pairs=Seq(Fields((("eps", EPS), ("rho", POS)))),
        ),
        (),
        tiny=dict(
            dims=[2],
            horizons=[2],
            t4_eps=[1.0],
            claim_horizon=2,
            angles_deg=[0, 90],
            eps_rho_grid=[0.1, 1.0, 2],
            table_eps_rho=[1.0],
            rho_pairs=[[1.0, 1.0]],
        ),
    ),
    "chapters/azize2022/theorems7_8_upper_bounds.ipynb": Notebook(
        (
            "horizon",
            "runs",
            "epsilon",
            "means",
            "alpha",
            "seed",
            "horizon_np",
            "horizon_eps",
            "eps_min",
            "eps_max",
            "n_eps",
            "c1_shape",
            "c2_shape",
            "alpha_bad",
        ),
        dict(
            horizon=Int(20, MAX_COUNT, "the regret panel starts at t = 20"),
            alpha=ALPHA_INDEX,
            horizon_np=HORIZON,
            horizon_eps=HORIZON,
            n_eps=Int(2, 10**4),
            c1_shape=POS,
            c2_shape=POS,
            alpha_bad=POS,
        ),
        (
            at_least_arms("horizon", "means"),
            at_least_arms("horizon_np", "means"),
            less("horizon_np", "horizon", strict=False, why="the privacy cost reads the private runs at horizon_np"),
            at_least_arms("horizon_eps", "means", extra=1, why=SAME_RUNS),
            less("eps_min", "eps_max"),
            custom(
                lambda p: p["eps_max"] > 1,
                "eps_max must be > 1 (the check compares the regret at eps_max with that at eps = 1), got {eps_max}",
            ),
            _noise_free_model_fits("horizon_eps", ("AdaP-UCB", "AdaP-KLUCB")),
        ),
        tiny=dict(horizon=20, runs=2, horizon_np=5, horizon_eps=40_000, eps_max=1.5, n_eps=2),
    ),
    # ---------------------------------------------------------------- heterogeneous LDP (Ren et al. 2020, HeLDP)
    "chapters/heldp/choosing_epsilon_min.ipynb": Notebook(
        (
            "horizon",
            "runs",
            "seed",
            "grid_discrete",
            "grid_gaussian",
            "grid_exponential",
            "exponential_mean",
            "bound_grid",
        ),
        dict(
            grid_discrete=Seq(EPS, min_len=2, increasing=True, why=OTHER_EPS_MIN),
            grid_gaussian=Seq(EPS, min_len=2, increasing=True, why=OTHER_EPS_MIN),
            grid_exponential=Seq(EPS, min_len=2, increasing=True, why=OTHER_EPS_MIN),
            exponential_mean=POS,
            bound_grid=Grid(),
        ),
        (_ren_horizon,),
        tiny=dict(
            horizon=1000,
            runs=2,
            grid_discrete=[1.0, 2.0],
            grid_gaussian=[1.0, 2.0],
            grid_exponential=[1.0, 2.0],
            bound_grid=[0.5, 2.0, 2],
        ),
    ),
    "chapters/heldp/corollary13_sigmoid.ipynb": Notebook(
        ("horizon", "runs", "seed", "settings", "reduction_epsilon"),
        dict(reduction_epsilon=EPS),
        (_ren_horizon,),
        tiny=dict(horizon=20, runs=2, settings=[["ren-heldp-discrete", 1.0]]),
    ),
    "chapters/heldp/figure1.ipynb": Notebook(
        ("horizon", "ratio_horizon", "runs", "seed", "epsilons", "eps_compare", "eps_min_discrete", "eps_min_gaussian"),
        dict(
            eps_compare=Seq(EPS, 2, 2),
            eps_min_discrete=Seq(EPS, min_len=2, why=WORST_OF_PANEL),
            eps_min_gaussian=Seq(EPS, min_len=2, why=WORST_OF_PANEL),
        ),
        (
            _ren_horizon,
            less("horizon", "ratio_horizon", why=RATIO_LONGER),
            custom(
                lambda p: all(e in (0.2, 2.0) for e in p["eps_compare"]),
                "eps_compare must hold the paper's levels 0.2 and 2.0 (panels (c), (d) and the ratio panel are drawn "
                "and checked against the paper's ratios at these levels), got {eps_compare}",
            ),
            custom(
                lambda p: 0.2 in p["eps_min_discrete"] and 2.0 in p["eps_min_gaussian"],
                "eps_min_discrete must hold 0.2 and eps_min_gaussian 2.0 (the check compares the paper's worst "
                "threshold of each panel with the others), got {eps_min_discrete}, {eps_min_gaussian}",
            ),
        ),
        tiny=dict(
            horizon=1000,
            ratio_horizon=2000,
            runs=2,
            epsilons=[1.0],
            eps_min_discrete=[0.2, 1.0],
            eps_min_gaussian=[1.0, 2.0],
        ),
    ),
    "chapters/heldp/figure2.ipynb": Notebook(
        ("horizon", "runs", "seed", "eps_min_discrete", "eps_min_gaussian", "r2_paper"),
        dict(
            eps_min_discrete=Seq(EPS, min_len=3, why=FIT_PER_LAW),
            eps_min_gaussian=Seq(EPS, min_len=3, why=FIT_PER_LAW),
            r2_paper=UNIT,
        ),
        (_ren_horizon,),
        tiny=dict(horizon=1000, runs=2, eps_min_discrete=[0.2, 1.0, 2.0], eps_min_gaussian=[0.5, 1.0, 2.0]),
    ),
    "chapters/heldp/theorem10_corollary11.ipynb": Notebook(
        ("instance", "horizon", "runs", "settings", "constant_epsilons", "seed"),
        dict(constant_epsilons=EPSILONS),
        (_ren_horizon,),
        tiny=dict(horizon=20, runs=2, settings=[["ren-heldp-discrete", 1.0]], constant_epsilons=[1.0]),
    ),
    "chapters/heldp/theorem7_corollary8.ipynb": Notebook(
        ("instance", "horizon", "runs", "settings", "constant_epsilons", "seed"),
        dict(constant_epsilons=EPSILONS),
        (_ren_horizon,),
        tiny=dict(horizon=20, runs=2, settings=[["ren-heldp-discrete", 1.0]], constant_epsilons=[1.0]),
    ),
    # ---------------------------------------------------------------- Ren et al. (2020)
    "chapters/ren2020/corollaries10_11_sigmoid.ipynb": Notebook(
        ("horizon", "runs", "seed", "epsilons", "samples", "grid_points"),
        dict(
            samples=Int(2, 10**9, "a standard error needs at least 2 responses"),
            grid_points=Int(12, 10**6, "the picture of all pairs takes every 10th mean: at least 2 of them"),
        ),
        (_ren_horizon,),
        tiny=dict(horizon=20, runs=2, epsilons=[1.0], samples=2, grid_points=12),
    ),
    "chapters/ren2020/figure1.ipynb": Notebook(
        ("horizon", "ratio_horizon", "runs", "seed", "eps_compare", "epsilons"),
        dict(eps_compare=Seq(EPS, 2, 2)),
        (_ren_horizon, less("horizon", "ratio_horizon", why=RATIO_LONGER)),
        tiny=dict(horizon=100, ratio_horizon=200, runs=2, epsilons=[1.0]),
    ),
    "chapters/ren2020/lemma3_laplace_tail.ipynb": Notebook(
        ("n_values", "b", "samples", "grid_points", "min_count", "thm4_cases", "thm4_times", "seed"),
        dict(
            n_values=Seq(Int(1, 10**6), min_len=2),
            b=POS,
            samples=Int(1, 10**9),
            grid_points=Int(3, 10**6, "the grid's two endpoints are dropped: at least one point must remain"),
            min_count=Int(
                10, why="with fewer expected exceedances the Monte Carlo tail is often 0, whose log is undefined"
            ),
            thm4_cases=Seq(Fields((("k", Int(1, 10**6)), ("t", HORIZON)))),
            thm4_times=Seq(HORIZON),
        ),
        (
            custom(
                lambda p: all(k > 4 * math.log(t) for k, t in p["thm4_cases"]),
                "thm4_cases must hold pairs (k, t) with k > 4 log t (Theorem 4's range), got {thm4_cases}",
            ),
            custom(
                _tail_well_estimated,
                "samples must be large enough that samples x P(Y_n > lambda) >= min_count at the first lambda of the "
                "grid for every n (where the tail counts as well estimated; the check reads the last such lambda), "
                "got samples = {samples}, min_count = {min_count}, n_values = {n_values}, grid_points = "
                "{grid_points}",
            ),
        ),
        tiny=dict(n_values=[1, 2], samples=200, grid_points=3, min_count=10, thm4_cases=[[5, 3]], thm4_times=[2]),
    ),
    "chapters/ren2020/lemma7_sigmoid.ipynb": Notebook(
        ("a_points", "grid_points", "t_points", "lp_z_max", "lp_step", "paper_a", "paper_sup", "paper_gauss"),
        dict(
            a_points=POINTS,
            grid_points=Int(2, 10**4),
            t_points=Int(2, 10**3),
            lp_z_max=Real(0, 100, True),
            lp_step=POS,
            paper_a=Real(),
            paper_sup=Real(),
            paper_gauss=Real(),
        ),
        (
            custom(
                lambda p: p["lp_z_max"] / p["lp_step"] <= 10**5,
                "lp_step must be >= lp_z_max / 10**5 (at most 10**5 support points per side), got "
                "lp_step = {lp_step}, lp_z_max = {lp_z_max}",
            ),
            custom(
                lambda p: p["lp_z_max"] > 1 and p["lp_step"] < p["lp_z_max"],
                "lp_z_max must be > 1 (the noises of the linear program have variance one) and lp_step < lp_z_max, "
                "got lp_z_max = {lp_z_max}, lp_step = {lp_step}",
            ),
        ),
        tiny=dict(a_points=2, grid_points=2, t_points=2, lp_z_max=1.01, lp_step=1.0),
    ),
    "chapters/ren2020/lemmas2_5_curators.ipynb": Notebook(
        (
            "eps_min",
            "eps_max",
            "eps_points",
            "r_points",
            "x_min",
            "x_max",
            "x_points",
            "audit_epsilons",
            "audit_samples",
            "audit_edges",
            "alpha",
            "mean_epsilons",
            "mean_samples",
            "sim_epsilon",
            "sim_horizon",
            "sim_runs",
            "seed",
        ),
        dict(
            eps_points=POINTS,
            r_points=POINTS,
            x_min=Real(),
            x_max=Real(),
            x_points=POINTS,
            audit_epsilons=EPSILONS,
            audit_samples=Int(
                1000, 10**9, "with fewer outputs the audit's tail bins are empty: no log-ratio, no standard error"
            ),
            audit_edges=Fields((("lo", Real()), ("hi", Real()), ("width", POS))),
            alpha=ALPHA_CONF,
            mean_epsilons=EPSILONS,
            mean_samples=Int(
                100,
                10**9,
                "each mean is checked within 4 standard errors estimated from the "
                "sample: fewer rewards make that estimate unusable",
            ),
            sim_epsilon=EPS,
            sim_horizon=Int(REN_ARMS, MAX_COUNT),
            sim_runs=Int(2, 10**6, SE_RUNS),
        ),
        (
            less("eps_min", "eps_max"),
            less("x_min", "x_max"),
            custom(
                lambda p: p["audit_edges"][0] < p["audit_edges"][1]
                and (p["audit_edges"][1] - p["audit_edges"][0]) / p["audit_edges"][2] <= 10**5,
                "audit_edges must be [lo, hi, width] with lo < hi and at most 10**5 bins, got {audit_edges}",
            ),
        ),
        tiny=dict(
            eps_points=2,
            r_points=2,
            x_points=2,
            audit_epsilons=[1.0],
            audit_samples=1000,
            mean_epsilons=[1.0],
            mean_samples=100,
            sim_horizon=20,
            sim_runs=2,
        ),
    ),
    "chapters/ren2020/supplement_figure2.ipynb": Notebook(
        ("horizon", "ratio_horizon", "runs", "seed", "eps_main", "epsilons"),
        dict(eps_main=EPS),
        (_ren_horizon, less("horizon", "ratio_horizon", why=RATIO_LONGER)),
        tiny=dict(horizon=20, ratio_horizon=21, runs=2, epsilons=[1.0]),
    ),
    "chapters/ren2020/theorem1_lower_bound.ipynb": Notebook(
        (
            "instance",
            "eps_min",
            "eps_max",
            "eps_points",
            "claim_eps",
            "grid_pq",
            "grid_eps",
            "random_pairs",
            "k_max",
            "seed",
        ),
        dict(
            eps_points=POINTS,
            claim_eps=EPSILONS,
            grid_pq=Int(2, 10**4),
            grid_eps=Grid(),
            random_pairs=Int(2, 10**8, "a standard error needs at least 2 pairs"),
            k_max=Int(2, 10**4),
        ),
        (less("eps_min", "eps_max"),),
        tiny=dict(eps_points=2, claim_eps=[1.0], grid_pq=2, grid_eps=[0.5, 1.0, 2], random_pairs=2, k_max=2),
    ),
    "chapters/ren2020/theorem4_ldp_ucb_l.ipynb": Notebook(
        ("instance", "horizon", "runs", "epsilons", "seed"),
        {},
        (_ren_horizon,),
        tiny=dict(horizon=20, runs=2, epsilons=[1.0]),
    ),
    "chapters/ren2020/theorem6_ldp_ucb_b.ipynb": Notebook(
        ("instance", "horizon", "runs", "epsilons", "seed"),
        dict(horizon=Int(100, MAX_COUNT, "the ratio panel starts at t = 100")),
        (_ren_horizon,),
        tiny=dict(horizon=100, runs=2, epsilons=[1.0]),
    ),
    # ---------------------------------------------------------------- the reproduction report
    "chapters/report/reproduction_report.ipynb": Notebook(
        ("chapter",), dict(chapter=Optional(Text())), (_chapter_exists,), tiny=dict(chapter="appendix")
    ),
    # ---------------------------------------------------------------- Zheng et al. (2020)
    "chapters/zheng2020/algorithm1_theorems2_3.ipynb": Notebook(
        (
            "loss_bound",
            "delta",
            "eps_grid",
            "delta_grid",
            "audit_epsilon",
            "audit_samples",
            "audit_bins",
            "loss_means",
            "horizon",
            "runs",
            "regret_epsilons",
            "n_boot",
            "seed",
        ),
        dict(
            loss_bound=POS,
            eps_grid=EPSILONS,
            delta_grid=Seq(PROB),
            audit_epsilon=EPS,
            audit_samples=Int(2, 10**9, "a standard error needs at least 2 outputs"),
            audit_bins=Int(2, 10**5),
            loss_means=MEANS,
            regret_epsilons=Seq(EPS, min_len=3, why="the exponent in 1/eps is a fit over at least 3 of them"),
        ),
        (
            at_least_arms("horizon", "loss_means"),
            custom(
                lambda p: {1.0, 8.0, 16.0} <= set(p["eps_grid"]),
                "eps_grid must hold 1.0, 8.0 and 16.0 (the check reads the exact delta(eps) of line 1's sigma at "
                "these), got {eps_grid}",
            ),
        ),
        tiny=dict(
            eps_grid=[1.0, 8.0, 16.0],
            delta_grid=[0.01],
            audit_samples=2,
            audit_bins=2,
            horizon=1000,
            runs=2,
            regret_epsilons=[2.0, 4.0, 8.0],
            n_boot=2,
        ),
    ),
    "chapters/zheng2020/algorithm2_two_point_bco.ipynb": Notebook(
        (
            "d",
            "horizon",
            "runs",
            "epsilon",
            "delta",
            "t_min",
            "t_min_log",
            "releases",
            "sweep_epsilons",
            "sweep_horizon",
            "sweep_runs",
            "n_boot",
            "seed",
        ),
        dict(
            d=Int(1, 10**4),
            t_min=COUNT,
            t_min_log=Int(2, MAX_COUNT, "the regret is fitted on log t, which must be > 0"),
            releases=Int(2, 10**9, "a standard error needs at least 2 releases"),
            sweep_epsilons=Seq(EPS, 3, why=RATIO_FIT),
            sweep_horizon=HORIZON,
            sweep_runs=Int(2, 10**6, SE_RUNS),
        ),
        (
            less("t_min", "horizon"),
            less("t_min_log", "horizon"),
            fit_window("t_min", "horizon", 41),
            fit_window("t_min_log", "horizon", 41),
        ),
        tiny=dict(
            horizon=1000,
            runs=2,
            t_min=10,
            t_min_log=100,
            releases=2,
            sweep_epsilons=[1.0, 2.0, 4.0],
            sweep_horizon=1000,
            sweep_runs=2,
            n_boot=2,
        ),
    ),
    "chapters/zheng2020/algorithm3_theorems9_10_glm.ipynb": Notebook(
        ("dim", "n_arms", "theta_seed", "epsilons", "delta", "alpha", "horizons", "runs", "seed"),
        dict(
            dim=Int(1, 10**4),
            n_arms=Int(2, 10**5),
            theta_seed=SEED,
            epsilons=EPS_FIT,
            alpha=ALPHA_CONF,
            horizons=Seq(HORIZON, min_len=3, increasing=True, why=T_FIT),
        ),
        (),
        tiny=dict(n_arms=2, epsilons=[1.0, 2.0, 4.0], horizons=[100, 200, 400], runs=2),
    ),
    "chapters/zheng2020/corollary4_one_point_bco.ipynb": Notebook(
        (
            "d",
            "horizon",
            "runs",
            "epsilon",
            "delta",
            "t_min",
            "sweep_epsilons",
            "sweep_horizon",
            "sweep_runs",
            "n_boot",
            "smooth_horizon",
            "smooth_runs",
            "t_min_late",
            "st_beta",
            "seed",
        ),
        dict(
            d=Int(1, 10**4),
            t_min=COUNT,
            sweep_epsilons=Seq(EPS, 3, why=RATIO_FIT),
            sweep_horizon=HORIZON,
            sweep_runs=Int(2, 10**6, SE_RUNS),
            smooth_horizon=HORIZON,
            smooth_runs=Int(2, 10**6, SE_RUNS),
            t_min_late=COUNT,
            st_beta=POS,
        ),
        (
            less("t_min", "horizon"),
            less("t_min_late", "smooth_horizon"),
            fit_window("t_min", "horizon", 41),
            fit_window("t_min_late", "horizon", 41),
            fit_window("t_min", "smooth_horizon", 41),
            fit_window("t_min_late", "smooth_horizon", 41),
        ),
        tiny=dict(
            horizon=1000,
            runs=2,
            t_min=10,
            sweep_epsilons=[1.0, 2.0, 4.0],
            sweep_horizon=1000,
            sweep_runs=2,
            n_boot=2,
            smooth_horizon=1000,
            smooth_runs=2,
            t_min_late=100,
        ),
    ),
    "chapters/zheng2020/mab_reduction.ipynb": Notebook(
        (
            "reward_means",
            "epsilons",
            "delta",
            "loss_bound",
            "horizon",
            "runs",
            "fit_from",
            "adv_arms",
            "adv_horizon",
            "adv_epsilon",
            "n_boot",
            "seed",
        ),
        dict(
            reward_means=MEANS,
            loss_bound=POS,
            fit_from=COUNT,
            adv_arms=Int(2, 10**5),
            adv_horizon=HORIZON,
            adv_epsilon=EPS,
        ),
        (
            at_least_arms("horizon", "reward_means"),
            less("fit_from", "horizon"),
            fit_window("fit_from", "horizon", 61),
            custom(
                lambda p: p["adv_horizon"] >= p["adv_arms"],
                "adv_horizon must be >= adv_arms = {adv_arms}, got {adv_horizon}",
            ),
        ),
        tiny=dict(horizon=1000, runs=2, fit_from=10, adv_horizon=100, n_boot=2, epsilons=[1.0]),
    ),
    "chapters/zheng2020/table1.ipynb": Notebook(
        ("chapter", "eps_label"), dict(chapter=Text(), eps_label=EPS), (_chapter_exists,), tiny=dict(eps_label=2.0)
    ),
    "chapters/zheng2020/theorems7_8_linear.ipynb": Notebook(
        ("dim", "n_arms", "noise", "theta_seed", "epsilons", "delta", "alpha", "horizons", "runs", "seed"),
        dict(
            dim=Int(1, 10**4),
            n_arms=Int(2, 10**5),
            noise=Real(0, 100),
            theta_seed=SEED,
            epsilons=EPS_FIT,
            alpha=ALPHA_CONF,
            horizons=Seq(HORIZON, min_len=3, increasing=True, why=T_FIT),
        ),
        (),
        tiny=dict(n_arms=2, epsilons=[1.0, 2.0, 4.0], horizons=[100, 200, 400], runs=2),
    ),
}


def rules_for(notebook: str) -> Notebook:
    """The entry of :data:`NOTEBOOKS` for ``notebook`` (a path like ``chapters/ren2020/figure1.ipynb``)."""
    if not isinstance(notebook, str):
        raise TypeError(f"notebook must be a path string like 'chapters/<chapter>/<name>.ipynb', got {_show(notebook)}")
    key = notebook.replace("\\", "/")
    if key not in NOTEBOOKS:
        raise ValueError(
            f"notebook {notebook!r} has no parameter rules; add an entry to NOTEBOOKS in ldpcode/parameters.py"
        )
    return NOTEBOOKS[key]


def check_values(notebook: str, values: dict) -> None:
    """Check ``values`` (a dict holding every parameter of ``notebook``): each rule, then the checks
    between parameters. Raises TypeError or ValueError naming the parameter; returns None."""
    spec = rules_for(notebook)
    if not isinstance(values, dict):
        raise TypeError(f"values must be a dict of the notebook's parameters, got {type(values).__name__}")
    missing = [n for n in spec.names if n not in values]
    if missing:
        raise ValueError(
            f"parameter {missing[0]} of {notebook} is not defined (its parameters: {', '.join(spec.names)})"
        )
    for name in spec.names:
        spec.rule(name)(name, values[name])
    params = {n: values[n] for n in spec.names}
    for c in spec.checks:
        c(params)


INJECTED_MARK = "# Parameters"  # the first line of the cell papermill injects after the parameters cell


def injected_names(namespace: dict) -> list:
    """The names assigned by papermill's injected-parameters cell, read from IPython's input history
    (``_ih`` in the kernel's globals: papermill's cell starts with the line ``# Parameters``). Empty
    outside IPython, or when nothing was injected."""
    history = namespace.get("_ih") if isinstance(namespace, dict) else None
    names: list = []
    for src in history if isinstance(history, list) else []:
        if not isinstance(src, str) or not src.lstrip().startswith(INJECTED_MARK):
            continue
        try:
            tree = ast.parse(src)
        except SyntaxError:
            continue
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
            names += [t.id for t in targets if isinstance(t, ast.Name)]
    return names


def check(notebook: str, namespace: dict) -> None:
    """The notebook's parameter check: ``ldp.parameters.check("chapters/<ch>/<nb>.ipynb", globals())``.

    Runs in the cell right after the parameters cell (and papermill's injected parameters), before any
    work. A name papermill injected that the notebook does not declare (``-p horizn 100000``: papermill
    only warns, and the notebook would run at its defaults) is a ValueError. Returns None, so the cell
    prints nothing."""
    spec = rules_for(notebook)
    unknown = [n for n in injected_names(namespace) if n not in spec.names]
    if unknown:
        close = difflib.get_close_matches(unknown[0], spec.names, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(
            f"parameter {unknown[0]} is not a parameter of {notebook}{hint}; its parameters are {', '.join(spec.names)}"
        )
    check_values(notebook, namespace)
