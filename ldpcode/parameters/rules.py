"""The rule classes of the notebooks' parameter check (:class:`Int`, :class:`Real`, :class:`Choice`,
:class:`Text`, :class:`Optional`, :class:`Seq`, :class:`Fields`, :class:`Grid`), the consistency checks
between parameters (:func:`less`, :func:`at_least_arms`, :func:`below`, :func:`fit_window`, :func:`custom`),
the checks that ask the library (:func:`accepted_by`: a library function's own validation; :func:`within_limits`:
the cost of the body's largest call against ldpcode's :class:`~ldpcode.limits.Limits`, the ceiling every library
call checks), the shared rule constants (``POS``, ``EPS``, ``PROB``, ``HORIZON``, ``RUNS``, ..., :data:`COMMON`),
the :class:`Notebook` entry, and the few predicates and messages that more than one chapter's table uses."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .._validate import EPSILON_FLOOR, MAX_ALPHA, flat_text, one_line
from ..limits import MAX_HORIZON


def _show(value) -> str:
    """A value as a rule's message shows it: :func:`ldpcode._validate.one_line` at 80 characters."""
    return one_line(value, 80)


def _fail(name: str, allowed: str, value, exc=ValueError):
    raise exc(f"parameter {name} must be {allowed}, got {_show(value)}")


_NOT_NUMBERS = (bool, np.bool_, np.timedelta64, np.datetime64)  # a duration is an np.signedinteger, not a count


def _is_int(v) -> bool:
    return isinstance(v, (numbers.Integral, np.integer)) and not isinstance(v, _NOT_NUMBERS)


def _is_real(v) -> bool:
    return isinstance(v, (numbers.Real, np.floating, np.integer)) and not isinstance(v, _NOT_NUMBERS)


def _int_text(v: int) -> str:
    """An integer bound as the message shows it: a large power of two as ``2**53``, others in full."""
    v = int(v)
    return f"2**{v.bit_length() - 1}" if v >= 2**32 and v & (v - 1) == 0 else str(v)


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
    """An integer (``bool`` and floats refused) in ``[lo, hi]``. ``why`` says what needs the bounds (shown in every
    message); ``hi_why`` what needs the upper bound (shown when the value is above it), such as ``MAX_HORIZON``.

    Stricter than the API's :func:`ldpcode._validate.check_int`, which accepts a whole float such as 1e6, on
    purpose: ``check_int`` converts the value it returns, so a function never sees the float, but this rule only
    inspects a notebook's variable, which the notebook body then uses as it is (``horizon = 1e6`` would reach
    ``f"{horizon:,}"`` as ``1,000,000.0`` and the stored parameters as a float). Refusing it names the fix."""

    lo: int | None = None
    hi: int | None = None
    why: str = ""
    hi_why: str = ""

    @property
    def allowed(self) -> str:
        return self._allowed()

    def _allowed(self, above: bool = False) -> str:
        if self.lo is not None and self.hi is not None:
            text = f"an integer in [{_int_text(self.lo)}, {_int_text(self.hi)}]"
        elif self.lo is not None:
            text = f"an integer >= {self.lo}"
        else:
            text = "an integer"
        why = "; ".join(w for w in (self.why, self.hi_why if above else "") if w)
        return f"{text} ({why})" if why else text

    def __call__(self, name, value):
        if not _is_int(value):
            _fail(
                name,
                # the hint only for a whole float (1e6 typed for 10**6): after 1.5 it read as advice about 1e6
                self.allowed + " (write 10**6 or 1000000, not 1e6)"
                if isinstance(value, float) and value.is_integer()
                else self.allowed,
                value,
                TypeError,
            )
        v = int(value)
        if (self.lo is not None and v < self.lo) or (self.hi is not None and v > self.hi):
            _fail(name, self._allowed(above=self.hi is not None and v > self.hi), value)


@dataclass(frozen=True)
class Real(Rule):
    """A finite real number (ints accepted, ``bool`` refused) in the given interval; ``why`` (shown in parentheses)
    says what needs the bounds where the body does (Theorems 7 and 8 need alpha > 3)."""

    lo: float | None = None
    hi: float | None = None
    lo_open: bool = False
    hi_open: bool = False
    why: str = ""

    @property
    def allowed(self) -> str:
        if self.lo is None and self.hi is None:
            text = "a finite number"
        elif self.hi is None:
            text = f"a finite number {'>' if self.lo_open else '>='} {self.lo:g}"
        elif self.lo is None:
            text = f"a finite number {'<' if self.hi_open else '<='} {self.hi:g}"
        else:
            text = f"a number in {'(' if self.lo_open else '['}{self.lo:g}, {self.hi:g}{')' if self.hi_open else ']'}"
        return f"{text} ({self.why})" if self.why else text

    def __call__(self, name, value):
        if not _is_real(value):
            _fail(name, self.allowed, value, TypeError)
        try:
            v = float(value)
        except OverflowError:  # an int of 309 digits or more: no double holds it
            v = math.inf
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
        if value is None:
            return
        try:
            self.rule(name, value)
        except (TypeError, ValueError) as err:  # the refusal says None is allowed too (it is the default's meaning)
            head = f"parameter {name} must be "
            text = str(err)
            if not text.startswith(head):
                raise
            raise type(err)(head + "None or " + text[len(head) :]) from None


def _as_sequence(name, value, allowed):
    if not isinstance(value, (list, tuple)):
        _fail(name, allowed, value, TypeError)
    return list(value)


@dataclass(frozen=True)
class Seq(Rule):
    """A list (or tuple) of ``min_len`` to ``max_len`` items, each passing ``item``; optionally strictly
    increasing, or ``distinct`` (no item twice, in any order: where the body keys a table or a claim id by the
    item, :data:`DISTINCT_IDS`)."""

    item: Rule
    min_len: int = 1
    max_len: int = 10_000
    increasing: bool = False
    why: str = ""
    distinct: bool = False

    @property
    def allowed(self) -> str:
        size = f"exactly {self.min_len}" if self.min_len == self.max_len else f"{self.min_len} to {self.max_len}"
        order = ", strictly increasing" if self.increasing else ", all different" if self.distinct else ""
        why = f" ({self.why})" if self.why else ""
        return f"a list of {size} items{why}, each {self.item.allowed}{order}"

    def __call__(self, name, value):
        items = _as_sequence(name, value, self.allowed)
        if not self.min_len <= len(items) <= self.max_len:
            _fail(name, self.allowed, value)
        for i, v in enumerate(items):
            self.item(f"{name}[{i}]", v)
        if self.increasing and any(b <= a for a, b in zip(items, items[1:])):
            _fail(name, self.allowed, value)
        key = _printed_real if isinstance(self.item, Real) else _key_of  # a level is printed by :g, 1234567 too
        if self.distinct and len({key(v) for v in items}) < len(items):
            _fail(name, self.allowed, value)


def _key_of(v):
    """A hashable stand-in of a list item: a float as the claim ids print it (``f"{v:g}"``: 2.0 and 2.0000001 collided
    in a claim id after all the work), an integer as itself (its ids print every digit: 10**6 and 10**6 + 1 differ),
    so that 1 and 1.0 are the same item."""
    if isinstance(v, (list, tuple)):
        return tuple(_key_of(x) for x in v)
    return float(format(v, "g")) if _is_real(v) and not _is_int(v) and not float(v).is_integer() else v


def _printed_real(v):
    """A real item as the claim ids print a level (``f"{v:g}"``), integers too: 1234567 and 1234568 print alike."""
    return float(format(v, "g"))


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
        from ..simulate import log_checkpoints

        n = int((log_checkpoints(p[horizon], points) >= p[start]).sum())
        if n < minimum:
            raise ValueError(
                f"parameter {start} must leave at least {minimum} of the run's {points} log-spaced "
                f"checkpoints in [{start}, {horizon}] (the exponent is a fit over them), got {start} = "
                f"{_show(p[start])}, {horizon} = {_show(p[horizon])}: {n} left"
            )

    return check


def custom(test: Callable[[dict], bool], message: str) -> Check:
    """A check written inline: ``message`` is formatted with the parameters (``{horizon}``). A test that asks the
    library (a bound, a model) and is refused by it fails the same way, with the library's words appended."""

    def check(p):
        try:
            ok, why = test(p), ""
        except (TypeError, ValueError) as exc:
            ok, why = False, f" ({flat_text(exc)})"
        if not ok:
            raise ValueError("parameter " + message.format(**{k: _show(v) for k, v in p.items()}) + why)

    return check


# --- the rule table ---------------------------------------------------------------------------------------

MAX_HORIZON_WHY = (
    "2**53 is ldpcode.limits.MAX_HORIZON, the largest horizon of every engine: rounds are exact in float64"
)
POS = Real(0, lo_open=True)  # finite, > 0
EPS = Real(EPSILON_FLOOR)  # a privacy level: >= ldpcode's EPSILON_FLOOR (1e-9), as ldpcode checks it
PROB = Real(0, 1, lo_open=True, hi_open=True)  # delta, failure probabilities: in (0, 1)
UNIT = Real(0, 1)  # Bernoulli means: in [0, 1]


def horizon_rule(lo: int = 2, why: str = "") -> Int:
    """A horizon (or a step of a run): an integer in [``lo``, :data:`MAX_HORIZON`], ``why`` saying what needs
    ``lo``; above MAX_HORIZON the message says why that is the ceiling."""
    return Int(lo, MAX_HORIZON, why, hi_why=MAX_HORIZON_WHY)


HORIZON = horizon_rule()
SE_RUNS = "a standard error over runs needs at least 2 runs"
RUNS = Int(2, 10**6, SE_RUNS)
COUNT = horizon_rule(1)
POINTS = Int(2, 10**6)
# ldpcode takes seeds up to 2**128 (ldpcode._validate.MAX_SEED); the bodies derive more as seed + 1, seed + 2, ...
SEED = Int(0, 2**127, "ldpcode takes seeds up to 2**128, and the body derives more as seed + 1, seed + 2, ...")
MEANS = Seq(UNIT, min_len=2)
DISTINCT_IDS = (
    "the body keys its results and claim ids by the value as printed, 2 for 2.0000001: two that print alike collide"
)
# a grid of privacy levels: one curve, row or claim per level, so a level given twice collides (after all the work)
EPSILONS = Seq(EPS, distinct=True, why=DISTINCT_IDS)
HELDP_LAW = Choice(("ren-heldp-discrete", "ren-heldp-gaussian"))
SETTINGS = Seq(Fields((("law", HELDP_LAW), ("eps_min", EPS))), distinct=True, why=DISTINCT_IDS)
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

ALPHA_INDEX = Real(0, MAX_ALPHA, lo_open=True)  # Azize and Basu's exploration parameter alpha (3.1 in the paper)
ALPHA_CONF = PROB  # a failure probability / confidence level alpha


@dataclass(frozen=True)
class Notebook:
    """A notebook's parameter rules: ``rules`` for the names that :data:`COMMON` does not cover or that
    mean something else here; ``checks`` between them;
    ``tiny`` the values (over the parameters cell's) of the notebook's smallest run: each at the edge the
    rules accept (fewest runs, shortest horizon, shortest lists), so that the whole body runs in seconds.
    ``tests/book/test_notebook_edges_*.py`` runs every notebook at its ``tiny`` values with papermill: a value
    the rules accept but the body cannot run fails there, not in a reader's last cell; ``tests/book/rules_fuzz.py``
    draws values for one or two parameters over the ``tiny`` set, around and beyond the rules' edges, and reports
    every accepted value whose body fails (``python tests/book/rules_fuzz.py [notebooks] --examples N``). Where a statistical
    claim needs runs that differ (at T = K every run pulls each arm once and has the same regret; the claims
    module refuses a statistical claim whose standard error is 0), ``tiny`` takes the smallest horizon measured
    to give them rather than the rule's minimum: that is a property of the random runs, not a rule.

    The names themselves are declared once, by the notebook's parameters cell: ``names`` (in the order of that
    cell) is filled in by :func:`ldpcode.parameters.rules_for`, which reads the cell."""

    rules: dict = field(default_factory=dict)
    checks: tuple = ()
    tiny: dict = field(default_factory=dict)
    names: tuple = ()

    def rule(self, name: str) -> Rule:
        return self.rules[name] if name in self.rules else COMMON[name]


# --- shared by more than one chapter -----------------------------------------------------------------


_ren_horizon = at_least_arms("horizon", n_arms=REN_ARMS)


# why the privacy audits need what they need (the appendix and azize2022's lemma1_theorem6_privacy)
LEMMA1_BINS = "with fewer releases the binned log-ratio has empty bins and no standard error"
GDP_POWER = (
    "with fewer runs the audit is too weak to refute the noise-halved AdaP-UCB (measured at T = 3: 1,000 runs "
    "miss it for 2 seeds of 3)"
)


# The notebooks' own Monte Carlo (a loop in a cell, not a library call, so no library estimate exists): per-unit
def measured(lo: float, hi: float, what: str, outside: str) -> Real:
    """A privacy level where an audit of the body has power, or its arithmetic holds, measured: ``what`` is refuted
    or computed for eps in [lo, hi] at the fewest outputs or runs the rules accept (more only add power), and
    ``outside`` says what happens beyond."""
    return Real(
        lo, hi, why=f"measured at the fewest outputs the rules accept: {what} for eps in [{lo:g}, {hi:g}]; {outside}"
    )


RATIO_LONGER = "the ratio panel continues the runs past horizon; its claims are read at both horizons"
