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
    """A check of one value; ``allowed`` is the phrase the error messages use."""

    allowed = "?"

    def __call__(self, name: str, value) -> None:  # pragma: no cover - interface
        raise NotImplementedError


@dataclass(frozen=True)
class Int(Rule):
    """An integer (``bool`` and floats refused) in ``[lo, hi]``."""

    lo: int | None = None
    hi: int | None = None

    @property
    def allowed(self) -> str:
        if self.lo is not None and self.hi is not None:
            return f"an integer in [{self.lo}, {self.hi}]"
        if self.lo is not None:
            return f"an integer >= {self.lo}"
        return "an integer"

    def __call__(self, name, value):
        if not _is_int(value):
            _fail(name, self.allowed + " (write 10**6, not 1e6)" if isinstance(value, float) else self.allowed,
                  value, TypeError)
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
        return (f"a number in {'(' if self.lo_open else '['}{self.lo:g}, {self.hi:g}"
                f"{')' if self.hi_open else ']'}")

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

    @property
    def allowed(self) -> str:
        size = (f"exactly {self.min_len}" if self.min_len == self.max_len
                else f"{self.min_len} to {self.max_len}")
        inc = ", strictly increasing" if self.increasing else ""
        return f"a list of {size} items, each {self.item.allowed}{inc}"

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
        return "a list [" + ", ".join(f for f, _ in self.fields) + "] with " + "; ".join(
            f"{f} {r.allowed}" for f, r in self.fields)

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

    @property
    def allowed(self) -> str:
        return (f"a list [min, max, points] with min < max, each {self.bound.allowed}, "
                f"and points {self.points.allowed}")

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


def less(a: str, b: str, *, strict: bool = True) -> Check:
    """``p[a] < p[b]`` (or ``<=``)."""
    def check(p):
        ok = p[a] < p[b] if strict else p[a] <= p[b]
        if not ok:
            raise ValueError(f"parameter {a} must be {'<' if strict else '<='} {b} = {_show(p[b])}, "
                             f"got {a} = {_show(p[a])}")
    return check


def at_least_arms(horizon: str, means: str | None = None, *, n_arms: int | None = None,
                  each: bool = False) -> Check:
    """A horizon (or each horizon of a list) at least the number of arms: every arm is pulled once."""
    def check(p):
        k = len(p[means]) if means is not None else n_arms
        where = f"the number of arms len({means}) = {k}" if means is not None else f"the number of arms {k}"
        values = p[horizon] if each else [p[horizon]]
        for i, t in enumerate(values):
            if t < k:
                label = f"{horizon}[{i}]" if each else horizon
                raise ValueError(f"parameter {label} must be an integer >= {where}, got {_show(t)}")
    return check


def below(values: str, limit: str, *, offset: int = 0, what: str = "") -> Check:
    """Every integer in ``p[values]`` is < ``len(p[limit]) + offset`` (an index into another list)."""
    def check(p):
        k = len(p[limit]) + offset
        for i, v in enumerate(p[values]):
            if v >= k:
                raise ValueError(f"parameter {values}[{i}] must be < {k} ({what or 'len(' + limit + ')'}), "
                                 f"got {_show(v)}")
    return check


def custom(test: Callable[[dict], bool], message: str) -> Check:
    """A check written inline: ``message`` is formatted with the parameters (``{horizon}``)."""
    def check(p):
        if not test(p):
            raise ValueError("parameter " + message.format(**{k: _show(v) for k, v in p.items()}))
    return check


# --- the rule table ---------------------------------------------------------------------------------------

MAX_COUNT = 2**62          # horizons and sample counts: int64 counters in the engine
POS = Real(0, lo_open=True)                       # epsilon-like: finite, > 0
PROB = Real(0, 1, lo_open=True, hi_open=True)     # delta, failure probabilities: in (0, 1)
UNIT = Real(0, 1)                                 # Bernoulli means: in [0, 1]
HORIZON = Int(2, MAX_COUNT)
COUNT = Int(1, MAX_COUNT)
POINTS = Int(2, 10**6)
SEED = Int(0, 2**128)
MEANS = Seq(UNIT, min_len=2)
EPSILONS = Seq(POS)
ADAP = Choice(("AdaP-UCB", "AdaP-KLUCB"))
HELDP_LAW = Choice(("ren-heldp-discrete", "ren-heldp-gaussian"))
SETTINGS = Seq(Fields((("law", HELDP_LAW), ("eps_min", POS))))
REN_INSTANCE = Choice(("ren2020-bernoulli", "ren2020-gaussian", "ren2020-mixed"))
REN_ARMS = 20              # every named Ren et al. instance has 20 arms

COMMON: dict[str, Rule] = {
    "horizon": HORIZON,
    "runs": Int(1, 10**6),
    "seed": SEED,
    "epsilon": POS,
    "epsilons": EPSILONS,
    "delta": PROB,
    "means": MEANS,
    "n_boot": Int(2, 10**6),
    "instance": REN_INSTANCE,
    "settings": SETTINGS,
    "ratio_horizon": HORIZON,
    "eps_min": POS,
    "eps_max": POS,
}

ALPHA_INDEX = POS          # Azize and Basu's exploration parameter alpha (3.1 in the paper)
ALPHA_CONF = PROB          # a failure probability / confidence level alpha


@dataclass(frozen=True)
class Notebook:
    """A notebook's parameters: ``names`` in the order of its parameters cell; ``rules`` for the names
    that :data:`COMMON` does not cover or that mean something else here; ``checks`` between them."""

    names: tuple
    rules: dict = field(default_factory=dict)
    checks: tuple = ()

    def rule(self, name: str) -> Rule:
        return self.rules[name] if name in self.rules else COMMON[name]


def _data_folder_exists(p) -> bool:
    from .claims import repo_root
    ch = p["chapter"]
    if ch is None:
        return True
    # a plain folder name: no separators, no "..", so "/etc" or "../x" cannot name a folder outside data/
    return "/" not in ch and "\\" not in ch and ch not in (".", "..") and (repo_root() / "data" / ch).is_dir()


_chapter_exists = custom(_data_folder_exists, "chapter must name a folder under data/ (such as 'ren2020'), "
                                              "got {chapter}")
_ren_horizon = at_least_arms("horizon", n_arms=REN_ARMS)

NOTEBOOKS: dict[str, Notebook] = {
    # ---------------------------------------------------------------- appendix: the privacy audits
    "chapters/appendix/privacy_audit.ipynb": Notebook(
        ("curator_epsilons", "heldp_levels", "samples", "heldp_samples", "bins", "confidence_alpha", "loss_bound",
         "zheng_epsilons", "zheng_delta", "laplace_epsilon", "lemma1_epsilon", "lemma1_starts", "lemma1_samples",
         "gdp_epsilon", "gdp_horizon", "gdp_runs", "index_alpha", "broken_epsilon", "mironov_epsilon",
         "mironov_samples", "mironov_window", "ctb_float_epsilons", "seed"),
        dict(curator_epsilons=EPSILONS, heldp_levels=Seq(Real(0), increasing=True), samples=Int(10, 10**9),
             heldp_samples=Int(10, 10**9), bins=Int(2, 10**4), confidence_alpha=ALPHA_CONF, loss_bound=POS,
             zheng_epsilons=EPSILONS, zheng_delta=PROB, laplace_epsilon=POS, lemma1_epsilon=POS,
             lemma1_starts=Seq(Int(2, 10**4), min_len=0, increasing=True), lemma1_samples=Int(1, 10**9),
             gdp_epsilon=POS, gdp_horizon=Int(2, 10**4), gdp_runs=Int(1, 10**8), index_alpha=ALPHA_INDEX,
             broken_epsilon=POS, mironov_epsilon=POS, mironov_samples=Int(1, 10**9), mironov_window=Int(1, 10**6),
             ctb_float_epsilons=EPSILONS),
        ()),
    # ---------------------------------------------------------------- Azize and Basu (2022)
    "chapters/azize2022/figure1_episodes.ipynb": Notebook(
        ("epsilon", "alpha", "example_means", "example_pattern", "example_horizon", "trace_horizon", "means",
         "small_horizon", "horizon", "runs", "policies", "seed"),
        dict(alpha=ALPHA_INDEX, example_means=MEANS, example_pattern=Seq(Int(0), 4, 4),
             example_horizon=Int(2, 10**6), trace_horizon=Int(2, 10**6), small_horizon=Int(2, 10**7),
             policies=Seq(ADAP)),
        (below("example_pattern", "example_means", what="an arm of example_means"),
         at_least_arms("example_horizon", "example_means"), less("example_horizon", "trace_horizon", strict=False),
         at_least_arms("small_horizon", "means"), at_least_arms("horizon", "means"))),
    "chapters/azize2022/figure2.ipynb": Notebook(
        ("horizon", "runs", "epsilon", "means", "alpha", "gamma", "beta", "seed", "linear_points", "n_sd"),
        dict(alpha=ALPHA_INDEX, gamma=PROB, beta=Optional(PROB), linear_points=POINTS, n_sd=Real(0)),
        (at_least_arms("horizon", "means"),)),
    "chapters/azize2022/figure3.ipynb": Notebook(
        ("horizon", "runs", "means", "eps_min", "eps_max", "n_eps", "alpha", "seed", "n_boot", "boot_seed"),
        dict(n_eps=Int(2, 10**4), alpha=ALPHA_INDEX, boot_seed=SEED),
        (at_least_arms("horizon", "means"), less("eps_min", "eps_max"))),
    "chapters/azize2022/lemma1_theorem6_privacy.ipynb": Notebook(
        ("lemma1_epsilon", "lemma1_starts", "lemma1_changed", "lemma1_samples", "audit_means", "audit_horizon",
         "audit_changed_step", "audit_table_entry", "audit_runs", "audit_epsilons", "audit_policies", "alpha",
         "confidence_alpha", "broken_halved_epsilon", "broken_stale_epsilon", "broken_stale_runs", "seed"),
        dict(lemma1_epsilon=POS, lemma1_starts=Seq(Int(2, 10**4), min_len=0, increasing=True),
             lemma1_changed=Seq(Int(1, 10**4)), lemma1_samples=Int(1, 10**9), audit_means=MEANS,
             audit_horizon=Int(2, 10**4), audit_changed_step=Int(1), audit_table_entry=Fields(
                 (("arm", Int(0)), ("pull", Int(0)))), audit_runs=Int(1, 10**8), audit_epsilons=EPSILONS,
             audit_policies=Seq(ADAP), alpha=ALPHA_INDEX, confidence_alpha=ALPHA_CONF,
             broken_halved_epsilon=POS, broken_stale_epsilon=POS, broken_stale_runs=Int(1, 10**8)),
        (at_least_arms("audit_horizon", "audit_means"), less("audit_changed_step", "audit_horizon", strict=False),
         custom(lambda p: p["audit_table_entry"][0] < len(p["audit_means"]),
                "audit_table_entry[0] (arm) must be < len(audit_means) = {audit_means}, got {audit_table_entry}"),
         custom(lambda p: p["audit_table_entry"][1] < p["audit_horizon"],
                "audit_table_entry[1] (pull) must be < audit_horizon = {audit_horizon}, got {audit_table_entry}"))),
    "chapters/azize2022/table1.ipynb": Notebook(
        ("horizon", "runs", "epsilon", "means", "alpha", "gamma", "beta", "seed", "growth_horizons",
         "growth_runs"),
        dict(alpha=ALPHA_INDEX, gamma=PROB, beta=Optional(PROB), growth_horizons=Seq(HORIZON, increasing=True),
             growth_runs=Int(1, 10**6)),
        (at_least_arms("horizon", "means"), at_least_arms("growth_horizons", "means", each=True))),
    "chapters/azize2022/theorem2_minimax.ipynb": Notebook(
        ("horizon", "runs", "policies", "alpha", "n_arms_list", "epsilons", "gap_grid", "base_mean",
         "checkpoint_points", "seed", "example", "example_paper_threshold", "curves_kt", "curves_eps"),
        dict(policies=Seq(ADAP), alpha=ALPHA_INDEX, n_arms_list=Seq(Int(2, 10**5)), gap_grid=Grid(),
             base_mean=Real(0, 1, hi_open=True), checkpoint_points=Int(2, 10**4),
             example=Fields((("T", HORIZON), ("K", Int(2, 10**9)))), example_paper_threshold=POS,
             curves_kt=Seq(Fields((("T", HORIZON), ("K", Int(2, 10**9))))), curves_eps=EPSILONS),
        (custom(lambda p: p["base_mean"] + p["gap_grid"][1] <= 1,
                "gap_grid[1] (max) must be <= 1 - base_mean (a mean in [0, 1]), got gap_grid = {gap_grid}, "
                "base_mean = {base_mean}"),
         custom(lambda p: p["horizon"] >= max(p["n_arms_list"]),
                "horizon must be >= max(n_arms_list) = {n_arms_list}, got {horizon}"))),
    "chapters/azize2022/theorem3_problem_dependent.ipynb": Notebook(
        ("fig2_means", "fig3_means", "fig3_paper_switch", "epsilon", "eps_grid", "sigma", "gap_axis",
         "gauss_check_ratios", "log_s_grid"),
        dict(fig2_means=MEANS, fig3_means=MEANS, fig3_paper_switch=POS, eps_grid=Grid(), sigma=POS,
             gap_axis=Grid(Real(0, 0.75, lo_open=True)), gauss_check_ratios=Seq(POS),
             log_s_grid=Grid(Real(-50, 50), Int(2, 10**4))),
        (custom(lambda p: len(set(p["fig2_means"])) > 1 and len(set(p["fig3_means"])) > 1,
                "fig2_means and fig3_means must each have a suboptimal arm, got {fig2_means}, {fig3_means}"),)),
    "chapters/azize2022/theorems4_5_linear.ipynb": Notebook(
        ("dims", "horizons", "t4_eps", "claim_horizon", "theta_basis", "angles_deg", "eoo_x", "eoo_gamma",
         "eps_rho_grid", "table_eps_rho", "rho_pairs"),
        dict(dims=Seq(Int(1, 10**6)), horizons=Seq(HORIZON), t4_eps=EPSILONS, claim_horizon=HORIZON,
             theta_basis=Seq(Real(-1e6, 1e6), 3, 3), angles_deg=Seq(Real(-360, 360)), eoo_x=Real(0, 1, True, True),
             eoo_gamma=POS, eps_rho_grid=Grid(), table_eps_rho=Seq(POS),
             rho_pairs=Seq(Fields((("eps", POS), ("rho", POS))))),
        ()),
    "chapters/azize2022/theorems7_8_upper_bounds.ipynb": Notebook(
        ("horizon", "runs", "epsilon", "means", "alpha", "seed", "horizon_np", "horizon_eps", "eps_min", "eps_max",
         "n_eps", "c1_shape", "c2_shape", "alpha_bad"),
        dict(alpha=ALPHA_INDEX, horizon_np=HORIZON, horizon_eps=HORIZON, n_eps=Int(2, 10**4), c1_shape=POS,
             c2_shape=POS, alpha_bad=POS),
        (at_least_arms("horizon", "means"), at_least_arms("horizon_np", "means"),
         at_least_arms("horizon_eps", "means"), less("eps_min", "eps_max"))),
    # ---------------------------------------------------------------- heterogeneous LDP (Ren et al. 2020, HeLDP)
    "chapters/heldp/choosing_epsilon_min.ipynb": Notebook(
        ("horizon", "runs", "seed", "grid_discrete", "grid_gaussian", "grid_exponential", "exponential_mean",
         "bound_grid"),
        dict(grid_discrete=Seq(POS, increasing=True), grid_gaussian=Seq(POS, increasing=True),
             grid_exponential=Seq(POS, increasing=True), exponential_mean=POS, bound_grid=Grid()),
        (_ren_horizon,)),
    "chapters/heldp/corollary13_sigmoid.ipynb": Notebook(
        ("horizon", "runs", "seed", "settings", "reduction_epsilon"),
        dict(reduction_epsilon=POS), (_ren_horizon,)),
    "chapters/heldp/figure1.ipynb": Notebook(
        ("horizon", "ratio_horizon", "runs", "seed", "epsilons", "eps_compare", "eps_min_discrete",
         "eps_min_gaussian"),
        dict(eps_compare=Seq(POS, 2, 2), eps_min_discrete=Seq(POS), eps_min_gaussian=Seq(POS)),
        (_ren_horizon, less("horizon", "ratio_horizon", strict=False))),
    "chapters/heldp/figure2.ipynb": Notebook(
        ("horizon", "runs", "seed", "eps_min_discrete", "eps_min_gaussian", "r2_paper"),
        dict(eps_min_discrete=Seq(POS, min_len=2), eps_min_gaussian=Seq(POS, min_len=2), r2_paper=UNIT),
        (_ren_horizon,)),
    "chapters/heldp/theorem10_corollary11.ipynb": Notebook(
        ("instance", "horizon", "runs", "settings", "constant_epsilons", "seed"),
        dict(constant_epsilons=EPSILONS), (_ren_horizon,)),
    "chapters/heldp/theorem7_corollary8.ipynb": Notebook(
        ("instance", "horizon", "runs", "settings", "constant_epsilons", "seed"),
        dict(constant_epsilons=EPSILONS), (_ren_horizon,)),
    # ---------------------------------------------------------------- Ren et al. (2020)
    "chapters/ren2020/corollaries10_11_sigmoid.ipynb": Notebook(
        ("horizon", "runs", "seed", "epsilons", "samples", "grid_points"),
        dict(samples=Int(1, 10**9), grid_points=POINTS), (_ren_horizon,)),
    "chapters/ren2020/figure1.ipynb": Notebook(
        ("horizon", "ratio_horizon", "runs", "seed", "eps_compare", "epsilons"),
        dict(eps_compare=Seq(POS, 2, 2)), (_ren_horizon, less("horizon", "ratio_horizon", strict=False))),
    "chapters/ren2020/lemma3_laplace_tail.ipynb": Notebook(
        ("n_values", "b", "samples", "grid_points", "min_count", "thm4_cases", "thm4_times", "seed"),
        dict(n_values=Seq(Int(1, 10**6), min_len=2), b=POS, samples=Int(1, 10**9), grid_points=POINTS,
             min_count=Int(1), thm4_cases=Seq(Fields((("k", Int(1, 10**6)), ("t", HORIZON)))),
             thm4_times=Seq(HORIZON)),
        (custom(lambda p: all(k > 4 * math.log(t) for k, t in p["thm4_cases"]),
                "thm4_cases must hold pairs (k, t) with k > 4 log t (Theorem 4's range), got {thm4_cases}"),)),
    "chapters/ren2020/lemma7_sigmoid.ipynb": Notebook(
        ("a_points", "grid_points", "t_points", "lp_z_max", "lp_step", "paper_a", "paper_sup", "paper_gauss"),
        dict(a_points=POINTS, grid_points=Int(2, 10**4), t_points=Int(2, 10**3), lp_z_max=Real(0, 100, True),
             lp_step=POS, paper_a=Real(), paper_sup=Real(), paper_gauss=Real()),
        (custom(lambda p: p["lp_z_max"] / p["lp_step"] <= 10**5,
                "lp_step must be >= lp_z_max / 10**5 (at most 10**5 support points per side), got "
                "lp_step = {lp_step}, lp_z_max = {lp_z_max}"),)),
    "chapters/ren2020/lemmas2_5_curators.ipynb": Notebook(
        ("eps_min", "eps_max", "eps_points", "r_points", "x_min", "x_max", "x_points", "audit_epsilons",
         "audit_samples", "audit_edges", "alpha", "mean_epsilons", "mean_samples", "sim_epsilon", "sim_horizon",
         "sim_runs", "seed"),
        dict(eps_points=POINTS, r_points=POINTS, x_min=Real(), x_max=Real(), x_points=POINTS,
             audit_epsilons=EPSILONS, audit_samples=Int(1, 10**9), audit_edges=Fields(
                 (("lo", Real()), ("hi", Real()), ("width", POS))), alpha=ALPHA_CONF, mean_epsilons=EPSILONS,
             mean_samples=Int(1, 10**9), sim_epsilon=POS, sim_horizon=Int(REN_ARMS, MAX_COUNT),
             sim_runs=Int(1, 10**6)),
        (less("eps_min", "eps_max"), less("x_min", "x_max"),
         custom(lambda p: p["audit_edges"][0] < p["audit_edges"][1]
                and (p["audit_edges"][1] - p["audit_edges"][0]) / p["audit_edges"][2] <= 10**5,
                "audit_edges must be [lo, hi, width] with lo < hi and at most 10**5 bins, got {audit_edges}"))),
    "chapters/ren2020/supplement_figure2.ipynb": Notebook(
        ("horizon", "ratio_horizon", "runs", "seed", "eps_main", "epsilons"),
        dict(eps_main=POS), (_ren_horizon, less("horizon", "ratio_horizon", strict=False))),
    "chapters/ren2020/theorem1_lower_bound.ipynb": Notebook(
        ("instance", "eps_min", "eps_max", "eps_points", "claim_eps", "grid_pq", "grid_eps", "random_pairs",
         "k_max", "seed"),
        dict(eps_points=POINTS, claim_eps=EPSILONS, grid_pq=Int(2, 10**4), grid_eps=Grid(),
             random_pairs=Int(1, 10**8), k_max=Int(2, 10**4)),
        (less("eps_min", "eps_max"),)),
    "chapters/ren2020/theorem4_ldp_ucb_l.ipynb": Notebook(
        ("instance", "horizon", "runs", "epsilons", "seed"), {}, (_ren_horizon,)),
    "chapters/ren2020/theorem6_ldp_ucb_b.ipynb": Notebook(
        ("instance", "horizon", "runs", "epsilons", "seed"), {}, (_ren_horizon,)),
    # ---------------------------------------------------------------- the reproduction report
    "chapters/report/reproduction_report.ipynb": Notebook(
        ("chapter",), dict(chapter=Optional(Text())), (_chapter_exists,)),
    # ---------------------------------------------------------------- Zheng et al. (2020)
    "chapters/zheng2020/algorithm1_theorems2_3.ipynb": Notebook(
        ("loss_bound", "delta", "eps_grid", "delta_grid", "audit_epsilon", "audit_samples", "audit_bins",
         "loss_means", "horizon", "runs", "regret_epsilons", "n_boot", "seed"),
        dict(loss_bound=POS, eps_grid=EPSILONS, delta_grid=Seq(PROB), audit_epsilon=POS,
             audit_samples=Int(1, 10**9), audit_bins=Int(2, 10**5), loss_means=MEANS,
             regret_epsilons=Seq(POS, min_len=2)),
        (at_least_arms("horizon", "loss_means"),)),
    "chapters/zheng2020/algorithm2_two_point_bco.ipynb": Notebook(
        ("d", "horizon", "runs", "epsilon", "delta", "t_min", "t_min_log", "releases", "sweep_epsilons",
         "sweep_horizon", "sweep_runs", "n_boot", "seed"),
        dict(d=Int(1, 10**4), t_min=COUNT, t_min_log=COUNT, releases=Int(1, 10**9), sweep_epsilons=Seq(POS, 2),
             sweep_horizon=HORIZON, sweep_runs=Int(1, 10**6)),
        (less("t_min", "horizon"), less("t_min_log", "horizon"))),
    "chapters/zheng2020/algorithm3_theorems9_10_glm.ipynb": Notebook(
        ("dim", "n_arms", "theta_seed", "epsilons", "delta", "alpha", "horizons", "runs", "seed"),
        dict(dim=Int(1, 10**4), n_arms=Int(2, 10**5), theta_seed=SEED, alpha=ALPHA_CONF,
             horizons=Seq(HORIZON, min_len=2, increasing=True)),
        ()),
    "chapters/zheng2020/corollary4_one_point_bco.ipynb": Notebook(
        ("d", "horizon", "runs", "epsilon", "delta", "t_min", "sweep_epsilons", "sweep_horizon", "sweep_runs",
         "n_boot", "smooth_horizon", "smooth_runs", "t_min_late", "st_beta", "seed"),
        dict(d=Int(1, 10**4), t_min=COUNT, sweep_epsilons=Seq(POS, 2), sweep_horizon=HORIZON,
             sweep_runs=Int(1, 10**6), smooth_horizon=HORIZON, smooth_runs=Int(1, 10**6), t_min_late=COUNT,
             st_beta=POS),
        (less("t_min", "horizon"), less("t_min_late", "smooth_horizon"))),
    "chapters/zheng2020/mab_reduction.ipynb": Notebook(
        ("reward_means", "epsilons", "delta", "loss_bound", "horizon", "runs", "fit_from", "adv_arms",
         "adv_horizon", "adv_epsilon", "n_boot", "seed"),
        dict(reward_means=MEANS, loss_bound=POS, fit_from=COUNT, adv_arms=Int(2, 10**5), adv_horizon=HORIZON,
             adv_epsilon=POS),
        (at_least_arms("horizon", "reward_means"), less("fit_from", "horizon"),
         custom(lambda p: p["adv_horizon"] >= p["adv_arms"],
                "adv_horizon must be >= adv_arms = {adv_arms}, got {adv_horizon}"))),
    "chapters/zheng2020/table1.ipynb": Notebook(
        ("chapter", "eps_label"), dict(chapter=Text(), eps_label=POS), (_chapter_exists,)),
    "chapters/zheng2020/theorems7_8_linear.ipynb": Notebook(
        ("dim", "n_arms", "noise", "theta_seed", "epsilons", "delta", "alpha", "horizons", "runs", "seed"),
        dict(dim=Int(1, 10**4), n_arms=Int(2, 10**5), noise=Real(0, 100), theta_seed=SEED, alpha=ALPHA_CONF,
             horizons=Seq(HORIZON, min_len=2, increasing=True)),
        ()),
}


def rules_for(notebook: str) -> Notebook:
    """The entry of :data:`NOTEBOOKS` for ``notebook`` (a path like ``chapters/ren2020/figure1.ipynb``)."""
    if not isinstance(notebook, str):
        raise TypeError(f"notebook must be a path string like 'chapters/<chapter>/<name>.ipynb', got {_show(notebook)}")
    key = notebook.replace("\\", "/")
    if key not in NOTEBOOKS:
        raise ValueError(f"notebook {notebook!r} has no parameter rules; add an entry to NOTEBOOKS in "
                         "ldpcode/parameters.py")
    return NOTEBOOKS[key]


def check_values(notebook: str, values: dict) -> None:
    """Check ``values`` (a dict holding every parameter of ``notebook``): each rule, then the checks
    between parameters. Raises TypeError or ValueError naming the parameter; returns None."""
    spec = rules_for(notebook)
    if not isinstance(values, dict):
        raise TypeError(f"values must be a dict of the notebook's parameters, got {type(values).__name__}")
    missing = [n for n in spec.names if n not in values]
    if missing:
        raise ValueError(f"parameter {missing[0]} of {notebook} is not defined (its parameters: "
                         f"{', '.join(spec.names)})")
    for name in spec.names:
        spec.rule(name)(name, values[name])
    params = {n: values[n] for n in spec.names}
    for c in spec.checks:
        c(params)


INJECTED_MARK = "# Parameters"   # the first line of the cell papermill injects after the parameters cell


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
        raise ValueError(f"parameter {unknown[0]} is not a parameter of {notebook}{hint}; its parameters are "
                         f"{', '.join(spec.names)}")
    check_values(notebook, namespace)
