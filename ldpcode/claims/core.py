"""Claims: one number the book stands for, the kind of check it is, and the verdict its kind decides.

Every claim says what *kind* of check it is, and the kind decides its verdict:

``statistical``
    A Monte Carlo reproduction of a number the paper states (``paper``, in the paper ``cites``), with its
    standard error ``se`` and the horizon (or scale) it was measured at. The verdict compares the paper
    value with the reproduced value: the distance, less half a unit of the paper's last printed digit
    (a number printed as 1.6 stands for anything in [1.55, 1.65]), in standard errors, is
    ``z``; **agrees** if z <= 2, **near** if z <= 4, **disagrees** beyond. ``sense`` says what the paper
    states: ``"="`` (the quantity is the paper's number), ``"<="`` (at most it: an order of growth, an
    upper bound) or ``">="`` (at least it). ``se = 0`` is allowed only where every run gave the same
    value (at small horizons a deterministic exploration schedule can do that): with no Monte Carlo noise
    the verdict is the rounding alone, z = 0 within half a unit, infinite beyond.
``exact``
    A value with no sampling error, computed two independent ways (``reproduced`` and ``second``, and
    ``how``: "closed form (eq. 12) vs quadrature"). The two must agree within ``tolerance`` at every run,
    whatever the parameters, or the check fails. With a ``paper`` number the verdict is **agrees** when
    the value rounds to it (within half a unit of the paper's last digit), **near** within two units,
    **disagrees** beyond.
``bound``
    An inequality that the notebook asserts: ``reproduced <= bound`` (``sense="<="``) or ``>=``. It
    **holds** when the inequality holds, **holds within noise** when it fails by at most 2 standard
    errors of ``reproduced``; beyond that the check fails at every run, whatever the parameters.
``reproducible``
    A number the book computes and stands for, with no paper number and nothing to compare it with but
    its stored value.
``prediction``
    A Monte Carlo number against the book's own prediction ``predicted``, derived in the notebook
    ``derived_in`` by ``how``; never filed under a paper's name. z is the distance from the prediction in
    standard errors (no rounding): **agrees** if z <= 2, **near** if z <= 4, **disagrees** beyond.

Tolerances are derived, never chosen: a Monte Carlo claim (``se > 0``) must land within ``k`` standard
errors (``k = 4`` unless the notebook says otherwise) of its stored value; a deterministic one (``se =
0``) within ``max(atol, rtol |value|)`` (``rtol = 1e-9`` unless the notebook says otherwise). A
tolerance wider than the quantity it guards is refused by the tests unless ``tolerance_reason`` says why.

Each kind is a frozen dataclass of :mod:`ldpcode.claims.kinds` on the base :class:`Claim` of this module:
:class:`~ldpcode.claims.kinds.StatisticalClaim`, :class:`~ldpcode.claims.kinds.ExactClaim`,
:class:`~ldpcode.claims.kinds.BoundClaim`, :class:`~ldpcode.claims.kinds.ReproducibleClaim` and
:class:`~ldpcode.claims.kinds.PredictionClaim` (the two that may carry a paper number share
:class:`~ldpcode.claims.kinds.PaperClaim`). The base holds the fields every kind has and checks the type of every
field; each kind holds its own fields, checks what it needs and decides its verdict. A claim is stored as
one dict of every field of :data:`FIELDS`, in that order, a field its kind does not have at its default
(it reads so too: a bound's ``paper`` is None), so that data/ keeps one schema; :meth:`Claim.from_dict`
reads the dict back as its kind's class.

Build claims with the constructors of :mod:`ldpcode.claims.constructors` (:func:`statistical`, :func:`exact`,
:func:`bound`, :func:`reproducible`, :func:`prediction`), which derive the tolerance. This module holds the
constants the verdicts use
(``KINDS``, ``SENSES``, ``PAPERS``, ``AGREE_Z``, ``NEAR_Z``, ``VERDICTS``), :func:`paper_unit`, the stored
fields (``FIELDS``) and the class of each kind by name (``KIND_CLASSES``).
"""

from __future__ import annotations

import copy
import functools
import math
from dataclasses import MISSING, dataclass, fields
from statistics import NormalDist
from decimal import Decimal
from typing import ClassVar

from .._validate import check_real
from ..paper_index import PAPERS_BY_CITES
from .statements import CATEGORIES  # noqa: F401 (ldpcode.claims re-exports it from here)
from .tables import format_horizon

KINDS = ("statistical", "exact", "bound", "reproducible", "prediction")
SENSES = ("=", "<=", ">=")
#: the papers whose numbers the book reproduces: bibliography key -> the name the report uses (a view of
#: :data:`ldpcode.paper_index.PAPERS_BY_CITES`)
PAPERS = {cites: paper.report_title for cites, paper in PAPERS_BY_CITES.items()}
#: how data/ stores a systematic spread without bound (inf; strict JSON has no Infinity)
UNBOUNDED = "unbounded"
AGREE_Z = 2.0  # a statistical claim agrees within 2 standard errors (of the paper's rounded number)
NEAR_Z = 4.0  # ... is near within 4, disagrees beyond


def _tail(sense: str) -> float:
    """The chance that one number of a true statement lies beyond ``AGREE_Z`` se: two-sided for ``=``, else one."""
    return math.erfc(AGREE_Z / math.sqrt(2)) / (1 if sense == "=" else 2)


def family_z(k: int, sense: str = "=") -> float:
    r"""The z the largest of ``k`` independent numbers of one true statement passes as often as one number passes
    ``AGREE_Z`` (Šidák: per number :math:`1 - (1 - p)^{1/k}`, p = 0.0455 two-sided, 0.0228 one-sided): 2.66 for six."""
    per = 1 - (1 - _tail(sense)) ** (1 / k)
    return NormalDist().inv_cdf(1 - per / (2 if sense == "=" else 1))


#: the verdicts on a paper's number, from the best to the worst
#: (see :meth:`~ldpcode.claims.kinds.StatisticalClaim.verdict`)
VERDICTS = (
    "agrees",
    "within the rate",
    "consistent at some t",
    "inconclusive",
    "underdetermined",
    "near",
    "disagrees",
    "not judged",
)
#: the fields of a stored claim, in the order of its dict in data/ (:meth:`Claim.to_dict`)
FIELDS = (
    *("id", "kind", "source", "reproduced", "tolerance", "se", "k", "paper", "paper_unit", "sense", "cites"),
    *("bound", "second", "how", "horizon", "scale", "reason", "note", "tolerance_reason", "statement", "category"),
    *("locator", "quote", "paper_horizon", "paper_runs", "runs", "margin", "systematic", "systematic_how"),
    *("t_consistent", "t_searched", "predicted", "derived_in", "reachable", "shows_failure", "cap", "t_accepts"),
    *("t_joint", "control"),
)
#: fields a stored dict holds only when they are set (added after data/ was first written: older files lack them)
STORED_WHEN_SET = ("reachable", "shows_failure", "cap", "t_accepts", "t_joint", "control")
# the fields checked the same way whatever kind holds them, in the order the checks run
_TEXT = ("source", "how", "scale", "reason", "note", "tolerance_reason", "category", "locator", "quote")
_TEXT += ("systematic_how", "derived_in")
_OPTIONAL_REALS = ("paper", "bound", "second", "paper_unit", "k")
_COUNTS = ("horizon", "paper_horizon", "runs", "paper_runs")
#: the class of each kind, by its name (filled as :mod:`ldpcode.claims.kinds` defines them; :meth:`Claim.from_dict`)
KIND_CLASSES: dict[str, type] = {}
#: why a stored field that another kind holds cannot be set on this one (:meth:`Claim.from_dict`)
_NOT_HERE = {
    "paper": "only statistical and exact claims carry a paper number (a {kind} claim has none; "
    "a number the book derives is a prediction)",
    "bound": "only a bound claim has a bound",
    "second": "only an exact claim has a second computation",
    **dict.fromkeys(
        ("statement", "category", "locator", "quote"), "only a claim with a paper number names a paper statement"
    ),
    **dict.fromkeys(
        ("t_consistent", "t_searched", "t_accepts", "t_joint"),
        "a horizon range belongs to a statistical claim with sense '='",
    ),
    **dict.fromkeys(("predicted", "derived_in"), "only a prediction has predicted and derived_in"),
    "reachable": "only a one-sided statistical claim has a reachable value",
    "shows_failure": "only a bound claim shows a failure",
    "control": "only a bound claim is a control",
    "cap": "only a bound claim has a cap",
}


def paper_unit(value: float) -> float:
    """One unit of the last digit a paper printed: 1.6 -> 0.1, 0.9977 -> 1e-4, 16 -> 1, 3.663127e-05 -> 1e-11.

    Read from the shortest decimal form of the stored float, so a paper number must be stored as printed
    (``1.6``, not ``1.60``: give ``paper_unit`` explicitly where the paper printed trailing zeros)."""
    d = Decimal(repr(float(value)))
    if d == d.to_integral_value():
        return 1.0
    return float(Decimal(1).scaleb(d.normalize().as_tuple().exponent))


def paper_error_factor(runs: int, paper_runs: int) -> float:
    """What the paper's own Monte Carlo error adds to ours: the standard error of (ours - the paper's) is ours times
    ``sqrt(1 + runs / paper_runs)``, the paper's taken as ours rescaled from ``runs`` to its ``paper_runs``."""
    return math.sqrt(1.0 + runs / paper_runs)


@functools.cache
def _field_names(cls) -> frozenset:
    """The fields a kind of claim holds (its own and the base's)."""
    return frozenset(f.name for f in fields(cls))


def _check_id(claim_id) -> None:
    if not isinstance(claim_id, str) or not claim_id or any(ch.isspace() for ch in claim_id):
        raise ValueError(f"claim id must be a non-empty string without spaces, got {claim_id!r}")


@dataclass(frozen=True, kw_only=True)
class Claim:
    """One checked number: the base of the five kinds of :mod:`ldpcode.claims.kinds`, with the fields every kind
    has; ``kind`` names the kind (one of ``KINDS``), and a field of another kind reads as its default.
    Build claims with :func:`~ldpcode.claims.statistical`, :func:`~ldpcode.claims.exact`,
    :func:`~ldpcode.claims.bound`, :func:`~ldpcode.claims.reproducible` or :func:`~ldpcode.claims.prediction`,
    which derive the tolerance (the fields are documented there), or read one back with :meth:`from_dict`."""

    kind: ClassVar[str]  # each kind's name, one of KINDS

    id: str
    source: str
    reproduced: float
    tolerance: float
    se: float = 0.0
    k: float | None = None
    note: str = ""
    tolerance_reason: str = ""

    # --- the fields of the other kinds, as a claim without them reads them (see FIELDS) ---------------------
    paper = paper_unit = cites = bound = second = horizon = statement = paper_horizon = paper_runs = runs = None
    t_consistent = t_searched = t_accepts = t_joint = predicted = reachable = shows_failure = control = cap = None
    how = scale = reason = category = locator = quote = systematic_how = derived_in = ""
    sense = "="
    margin = systematic = 0.0

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "kind" in cls.__dict__:  # a kind, not a class of shared fields (PaperClaim)
            KIND_CLASSES[cls.kind] = cls

    def __post_init__(self):
        """Each field on its own (its type and range, in one order whatever the kind, so that a claim with several
        faults names the same one first; a field the kind does not have reads as its default, which passes), then
        the tolerance of a Monte Carlo claim. Each kind's ``__post_init__`` then checks what the kind needs."""
        if not hasattr(type(self), "kind"):
            raise TypeError(
                "Claim is the base of the kinds of claims: build one with statistical, exact, bound, reproducible "
                "or prediction (ldpcode.claims), or read a stored one with Claim.from_dict"
            )
        _check_id(self.id)
        name, mine = self.id, _field_names(type(self))
        for text in (t for t in _TEXT if t in mine):
            if not isinstance(getattr(self, text), str):
                raise TypeError(f"{name}: {text} must be a string, got {getattr(self, text)!r}")
        if not self.source:
            raise ValueError(f"{name}: source must say where the number comes from")
        if "\n" in self.reason:
            raise ValueError(f"{name}: reason must be one line, got {self.reason!r}")
        for real in ("reproduced", "tolerance", "se"):
            self._set(real, check_real(f"{name}: {real}", getattr(self, real)))
        if self.tolerance < 0 or self.se < 0:
            raise ValueError(f"{name}: tolerance and se must be >= 0, got {self.tolerance!r} and {self.se!r}")
        if self.sense not in SENSES:
            raise ValueError(f"{name}: sense must be one of {', '.join(SENSES)}, got {self.sense!r}")
        for opt in (o for o in _OPTIONAL_REALS if o in mine):
            v = getattr(self, opt)
            if v is not None:
                self._set(opt, check_real(f"{name}: {opt}", v, allow_inf=opt == "bound"))
        for count in (c for c in _COUNTS if c in mine):
            v = getattr(self, count)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
                raise ValueError(f"{name}: {count} must be a positive integer or None, got {v!r}")
        if self.se > 0:
            if self.k is None or not 1 <= self.k <= 10:
                raise ValueError(f"{name}: a Monte Carlo claim needs k in [1, 10] standard errors, got {self.k!r}")
            if not math.isclose(self.tolerance, self.k * self.se, rel_tol=1e-12, abs_tol=0.0):
                raise ValueError(f"{name}: tolerance {self.tolerance!r} is not k x se = {self.k * self.se!r}")

    def _set(self, name: str, value) -> None:
        """Set a field while the claim is built (its checks normalise values); a built claim never changes."""
        object.__setattr__(self, name, value)

    # --- judging: what every kind answers (a kind overrides what it decides) ------------------------------
    def _estimate_runs(self) -> int | None:
        """The paper's runs behind its number where that number is the paper's own estimate (it prints it); None
        where the number is the book's reading of a statement (an ordering read as a difference >= 0, "does not
        depend on ε" as a ratio of 1): such a reading is exact, and the paper's Monte Carlo error is not in it."""
        prints = getattr(self, "paper_prints", None)
        return self.paper_runs if self.paper_runs and prints is not None and prints() else None

    def total_se(self) -> float:
        """The standard error of the difference from the paper: ours, and, where the paper prints the number as an
        average over runs (``paper_runs``, :meth:`_estimate_runs`) and we know ours (``runs``), the paper's own
        Monte Carlo error, taken as ours rescaled to its runs: ``se * sqrt(1 + runs / paper_runs)``."""
        if self.se > 0 and self.runs and self._estimate_runs():
            return self.se * paper_error_factor(self.runs, self.paper_runs)
        return self.se

    def z(self) -> float | None:
        """The distance in standard errors from what the claim is judged against; None for a kind not judged so."""
        return None

    def inside(self) -> float | None:
        """One-sided statistical claims: how far inside its side of the paper's number the value lies, in
        standard errors (the margin by which it could have failed); None for the others."""
        return None

    def resolution(self) -> float | None:
        """The smallest difference that the runs could detect (None without Monte Carlo noise, or for a kind not
        judged in standard errors)."""
        return None

    def target(self) -> float:
        """The precision a statistical '=' verdict must resolve: half a unit of the paper's last printed digit, or
        the stated practical ``margin`` when it is larger."""
        return max((self.paper_unit or 0.0) / 2, self.margin)

    def runs_needed(self) -> int | None:
        """How many runs would bring :meth:`resolution` within :meth:`target` (None when unknown; 0 when no number
        of runs can: the paper's own Monte Carlo error is coarser than its printed precision)."""
        if not self.runs or self.se == 0:
            return None
        own = self.se**2 * self.runs  # our variance per run
        paper_part = own / self.paper_runs if self._estimate_runs() else 0.0
        room = (self.target() / AGREE_Z) ** 2 - paper_part
        return 0 if room <= 0 else math.ceil(own / room)

    def bound_excess(self) -> float | None:
        """Bound claims: by how much ``reproduced`` passes the bound (<= 0 when it holds); None for the others."""
        return None

    def problem(self) -> str | None:
        """Why this claim fails at any parameters (two computations apart, a bound violated), or None."""
        return None

    def verdict(self) -> str:
        """The claim's verdict, which its kind decides."""
        raise NotImplementedError

    def verdict_text(self) -> str:
        """The verdict with what decides it (a kind adds its measure)."""
        return self.verdict()

    def reference(self) -> str:
        """What the claim is judged against: the paper's number, the bound, the prediction or the second
        computation ("" for a reproducible number)."""
        return ""

    def at(self) -> str:
        """The horizon or scale the number was measured at, for tables."""
        if self.horizon is not None:
            return f"T = {format_horizon(self.horizon)}"
        return self.scale

    # --- the stored form ---------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """The claim as data/ stores it: every field of :data:`FIELDS`, in that order, a field its kind does not
        have at its default. An unbounded ``systematic`` (inf) is stored as the string ``"unbounded"``: data/ is
        strict JSON, which has no Infinity."""
        d = {name: copy.deepcopy(getattr(self, name)) for name in FIELDS}
        for name in STORED_WHEN_SET:
            if d[name] is None:
                del d[name]
        if d.get("systematic") == math.inf:
            d["systematic"] = UNBOUNDED
        return d

    @classmethod
    def defaults(cls) -> dict:
        """The stored fields a claim of this kind may lack (a file written before the field existed), with the
        value each then reads as."""
        required = {"kind"} | {f.name for f in fields(cls) if f.default is MISSING}
        return {name: getattr(cls, name) for name in FIELDS if name not in required}

    @classmethod
    def from_dict(cls, d: dict, where: str = "") -> Claim:
        """The claim a stored dict describes, as the class of its ``kind``. A field the kind does not have must
        be absent or at its default."""
        unknown = sorted(set(d) - set(FIELDS))
        if unknown:
            raise ValueError(
                f"{where}: stored claim {d.get('id')!r} has unknown fields {unknown} (stored by an "
                "older version of ldpcode? re-run its notebook with --write)"
            )
        kind = d.get("kind")
        if kind not in KIND_CLASSES:
            _check_id(d.get("id"))
            raise ValueError(f"{d['id']}: kind must be one of {', '.join(KINDS)}, got {kind!r}")
        kind_cls = KIND_CLASSES[kind]
        if not issubclass(kind_cls, cls):
            raise ValueError(f"{where}: stored claim {d.get('id')!r} is a {kind} claim, not a {cls.__name__}")
        mine = _field_names(kind_cls)
        if d.get("systematic") == UNBOUNDED:
            d = {**d, "systematic": math.inf}
        claim = kind_cls(**{key: v for key, v in d.items() if key in mine})
        for key in (f for f in FIELDS if f in d and f not in mine and f != "kind"):
            if d[key] != getattr(kind_cls, key):
                why = _NOT_HERE[key].format(kind=kind) if key in _NOT_HERE else f"{kind} claims have no {key}"
                raise ValueError(f"{claim.id}: {why}" + ("" if key in _NOT_HERE else f", got {d[key]!r}"))
        return claim
