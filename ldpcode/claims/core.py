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

Tolerances are derived, never chosen: a Monte Carlo claim (``se > 0``) must land within ``k`` standard
errors (``k = 4`` unless the notebook says otherwise) of its stored value; a deterministic one (``se =
0``) within ``max(atol, rtol |value|)`` (``rtol = 1e-9`` unless the notebook says otherwise). A
tolerance wider than the quantity it guards is refused by the tests unless ``tolerance_reason`` says why.

Build claims with the constructors of :mod:`ldpcode.claims.constructors` (:func:`statistical`, :func:`exact`,
:func:`bound`, :func:`reproducible`, :func:`prediction`), which derive the tolerance. This module holds the
constants the verdicts use
(``KINDS``, ``SENSES``, ``PAPERS``, ``AGREE_Z``, ``NEAR_Z``, ``VERDICTS``) and :func:`paper_unit`.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields
from decimal import Decimal

from .._validate import check_real
from .statements import CATEGORIES
from .tables import _SENSE_TEXT, _fmt, approx_horizon, format_horizon, span_text

KINDS = ("statistical", "exact", "bound", "reproducible", "prediction")
SENSES = ("=", "<=", ">=")
#: the papers whose numbers the book reproduces: bibliography key -> the name the report uses
PAPERS = {
    "ren2020ldp": "Ren et al. (2020a): ε-local differential privacy",
    "ren2020heldp": "Ren et al. (2020b, extended version): heterogeneous privacy levels",
    "azize2022privacy": "Azize and Basu (2022): ε-global differential privacy",
    "zheng2020locally": "Zheng et al. (2020): (ε, δ)-LDP reductions and contextual bandits",
}
AGREE_Z = 2.0  # a statistical claim agrees within 2 standard errors (of the paper's rounded number)
NEAR_Z = 4.0  # ... is near within 4, disagrees beyond
#: the verdicts on a paper's number, from the best to the worst (see :meth:`Claim.verdict`)
VERDICTS = ("agrees", "consistent at some t", "inconclusive", "underdetermined", "near", "disagrees", "not judged")


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


@dataclass
class Claim:
    """One checked number. Build claims with :func:`statistical`, :func:`exact`, :func:`bound` or
    :func:`reproducible`, which derive the tolerance; the fields are documented there."""

    id: str
    kind: str
    source: str
    reproduced: float
    tolerance: float
    se: float = 0.0
    k: float | None = None
    paper: float | None = None
    paper_unit: float | None = None
    sense: str = "="
    cites: str | None = None
    bound: float | None = None
    second: float | None = None
    how: str = ""
    horizon: int | None = None
    scale: str = ""
    reason: str = ""
    note: str = ""
    tolerance_reason: str = ""
    # --- the evidence of a paper number (copied from its Statement), and what moves the number --------------
    statement: str | None = None
    category: str = ""
    locator: str = ""
    quote: str = ""
    paper_horizon: int | None = None
    paper_runs: int | None = None
    runs: int | None = None
    margin: float = 0.0
    systematic: float = 0.0
    systematic_how: str = ""
    t_consistent: list | None = None
    t_searched: list | None = None
    # --- the book's own prediction (kind "prediction") ----------------------------------------------------
    predicted: float | None = None
    derived_in: str = ""

    def __post_init__(self):
        if not isinstance(self.id, str) or not self.id or any(ch.isspace() for ch in self.id):
            raise ValueError(f"claim id must be a non-empty string without spaces, got {self.id!r}")
        name = self.id
        if self.kind not in KINDS:
            raise ValueError(f"{name}: kind must be one of {', '.join(KINDS)}, got {self.kind!r}")
        for text in (
            "source",
            "how",
            "scale",
            "reason",
            "note",
            "tolerance_reason",
            "category",
            "locator",
            "quote",
            "systematic_how",
            "derived_in",
        ):
            if not isinstance(getattr(self, text), str):
                raise TypeError(f"{name}: {text} must be a string, got {getattr(self, text)!r}")
        if not self.source:
            raise ValueError(f"{name}: source must say where the number comes from")
        if "\n" in self.reason:
            raise ValueError(f"{name}: reason must be one line, got {self.reason!r}")
        self.reproduced = check_real(f"{name}: reproduced", self.reproduced)
        self.tolerance = check_real(f"{name}: tolerance", self.tolerance)
        self.se = check_real(f"{name}: se", self.se)
        if self.tolerance < 0 or self.se < 0:
            raise ValueError(f"{name}: tolerance and se must be >= 0, got {self.tolerance!r} and {self.se!r}")
        if self.sense not in SENSES:
            raise ValueError(f"{name}: sense must be one of {', '.join(SENSES)}, got {self.sense!r}")
        for opt in ("paper", "bound", "second", "paper_unit", "k"):
            v = getattr(self, opt)
            if v is not None:
                setattr(self, opt, check_real(f"{name}: {opt}", v, allow_inf=opt == "bound"))
        for count in ("horizon", "paper_horizon", "runs", "paper_runs"):
            v = getattr(self, count)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
                raise ValueError(f"{name}: {count} must be a positive integer or None, got {v!r}")
        self.margin = check_real(f"{name}: margin", self.margin)
        self.systematic = check_real(f"{name}: systematic", self.systematic)
        if self.margin < 0 or self.systematic < 0:
            raise ValueError(f"{name}: margin and systematic must be >= 0, got {self.margin!r}, {self.systematic!r}")
        if self.systematic > 0 and not self.systematic_how:
            raise ValueError(f"{name}: a systematic spread says what moves the number (systematic_how)")
        # --- what each kind needs, and the tolerance it derives ---------------------------------------------
        if self.se > 0:
            if self.k is None or not 1 <= self.k <= 10:
                raise ValueError(f"{name}: a Monte Carlo claim needs k in [1, 10] standard errors, got {self.k!r}")
            if not math.isclose(self.tolerance, self.k * self.se, rel_tol=1e-12, abs_tol=0.0):
                raise ValueError(f"{name}: tolerance {self.tolerance!r} is not k x se = {self.k * self.se!r}")
        if self.paper is not None:
            if self.kind not in ("statistical", "exact"):
                raise ValueError(
                    f"{name}: only statistical and exact claims carry a paper number (a {self.kind} claim has none; "
                    "a number the book derives is a prediction)"
                )
            if self.cites not in PAPERS:
                raise ValueError(
                    f"{name}: cites must name the paper stating the number, one of "
                    f"{', '.join(PAPERS)}; got {self.cites!r}"
                )
            if not self.reason:
                raise ValueError(f"{name}: a claim with a paper number needs a one-line reason for its verdict")
            if self.paper_unit is None:
                if self.paper in (0.0, 1.0):
                    # 0 and 1 are most often implied values ("A below B", "independent of eps"), which are exact;
                    # read as printed integers they would silently allow +-0.5
                    raise ValueError(
                        f"{name}: state paper_unit for paper = {self.paper:g}: 1 if the paper printed "
                        "this integer, 0 if it is an exact implied value (a difference >= 0, a ratio "
                        "of 1)"
                    )
                self.paper_unit = paper_unit(self.paper)
            if self.paper_unit < 0:
                raise ValueError(f"{name}: paper_unit must be >= 0 (0: an exact value), got {self.paper_unit!r}")
        if self.kind == "statistical":
            if self.paper is None:
                raise ValueError(
                    f"{name}: a statistical claim reproduces a paper number; without one it is reproducible"
                )
            if not self.se >= 0:
                raise ValueError(f"{name}: a statistical claim needs its standard error se >= 0, got {self.se!r}")
            if self.horizon is None and not self.scale:
                raise ValueError(
                    f"{name}: a statistical claim states its horizon (or, for a non-regret quantity, its scale)"
                )
        elif self.kind == "exact":
            if self.se != 0:
                raise ValueError(f"{name}: an exact claim has no standard error, got se = {self.se!r}")
            if self.second is None or " vs " not in self.how:
                raise ValueError(
                    f"{name}: an exact claim gives its second, independent computation (second) "
                    f"and how = '<first way> vs <second way>'; got second={self.second!r}, "
                    f"how={self.how!r}"
                )
        elif self.kind == "bound":
            if self.bound is None or not self.how:
                raise ValueError(
                    f"{name}: a bound claim gives the bound and how (which bound), got "
                    f"bound={self.bound!r}, how={self.how!r}"
                )
            if self.sense == "=":
                raise ValueError(f"{name}: a bound is an inequality: sense must be '<=' or '>='")
        elif self.kind == "prediction":
            if self.predicted is None or not self.derived_in.endswith(".ipynb") or not self.how or not self.reason:
                raise ValueError(
                    f"{name}: a prediction gives the predicted value, derived_in (the notebook that derives it), "
                    f"how (the derivation) and a one-line reason; got predicted={self.predicted!r}, "
                    f"derived_in={self.derived_in!r}"
                )
            if self.horizon is None and not self.scale:
                raise ValueError(f"{name}: a prediction states its horizon (or scale)")
        if self.kind != "prediction" and (self.predicted is not None or self.derived_in):
            raise ValueError(f"{name}: only a prediction has predicted and derived_in")
        if self.kind != "bound" and self.bound is not None:
            raise ValueError(f"{name}: only a bound claim has a bound")
        if self.kind != "exact" and self.second is not None:
            raise ValueError(f"{name}: only an exact claim has a second computation")
        self._check_horizons()
        self._check_evidence()

    def _check_horizons(self):
        name = self.id
        if (self.t_consistent is None) != (self.t_searched is None):
            raise ValueError(f"{name}: t_consistent and t_searched come together")
        if self.t_searched is None:
            return
        if self.kind != "statistical" or self.sense != "=":
            raise ValueError(f"{name}: a horizon range belongs to a statistical claim with sense '='")
        for field_name, n in (("t_searched", 2), ("t_consistent", (0, 2))):
            v = getattr(self, field_name)
            ok = isinstance(v, list) and len(v) in ((n,) if isinstance(n, int) else n)
            if not ok or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 1 for x in v):
                raise ValueError(f"{name}: {field_name} must be a list of positive integers, got {v!r}")
        lo, hi = self.t_searched
        if not lo <= hi or (self.t_consistent and not lo <= self.t_consistent[0] <= self.t_consistent[1] <= hi):
            raise ValueError(f"{name}: t_consistent {self.t_consistent} must lie in t_searched {self.t_searched}")

    def _check_evidence(self):
        """A paper number carries its statement: key, category, locator and quote (copied from the registry)."""
        name = self.id
        if self.paper is None:
            if self.statement or self.category or self.quote or self.locator:
                raise ValueError(f"{name}: only a claim with a paper number names a paper statement")
            return
        if not self.statement or self.category not in CATEGORIES or not self.locator or not self.quote:
            raise ValueError(
                f"{name}: a paper number names the statement it is judged against (statement=, a key of "
                "ldpcode.claims.statements), with its category, locator and verbatim quote"
            )

    # --- judging -------------------------------------------------------------------------------------------
    def total_se(self) -> float:
        """The standard error of the difference from the paper: ours, and, where the paper says how many runs it
        averaged (``paper_runs``) and we know ours (``runs``), the paper's own Monte Carlo error, taken as ours
        rescaled to its runs: ``se * sqrt(1 + runs / paper_runs)``."""
        if self.se > 0 and self.runs and self.paper_runs:
            return self.se * paper_error_factor(self.runs, self.paper_runs)
        return self.se

    def z(self) -> float | None:
        """Statistical claims: the paper's distance in standard errors of the difference (see :meth:`total_se`)."""
        if self.kind == "prediction":
            excess = abs(self.reproduced - self.predicted)
        elif self.kind == "statistical":
            excess = self._excess()
        else:
            return None
        if self.se == 0:  # every run gave the same value: the rounding alone decides
            return 0.0 if excess == 0 else math.inf
        return excess / self.total_se()

    def _excess(self) -> float:
        """Distance from the paper's number beyond its rounding (0 when within it), in the claim's sense."""
        diff = self.reproduced - self.paper
        signed = {"=": abs(diff), "<=": diff, ">=": -diff}[self.sense]
        return max(0.0, signed - self.paper_unit / 2)

    def inside(self) -> float | None:
        """One-sided statistical claims: how far inside its side of the paper's number the value lies, in
        standard errors (the margin by which it could have failed); None for '=' claims."""
        if self.kind != "statistical" or self.sense == "=" or self.se == 0:
            return None
        diff = self.reproduced - self.paper
        return (-diff if self.sense == "<=" else diff) / self.total_se()

    def resolution(self) -> float | None:
        """The smallest difference from the paper that the runs could detect: ``AGREE_Z`` standard errors of the
        difference (absolute; None without Monte Carlo noise)."""
        if self.kind not in ("statistical", "prediction") or self.se == 0:
            return None
        return AGREE_Z * self.total_se()

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
        paper_part = own / self.paper_runs if self.paper_runs else 0.0
        room = (self.target() / AGREE_Z) ** 2 - paper_part
        return 0 if room <= 0 else math.ceil(own / room)

    def _inconclusive(self) -> bool:
        res = self.resolution()
        return self.sense == "=" and res is not None and self.target() > 0 and res > self.target()

    def bound_excess(self) -> float | None:
        """Bound claims: by how much ``reproduced`` passes the bound (<= 0 when it holds)."""
        if self.kind != "bound":
            return None
        if math.isinf(self.bound):
            return -math.inf if (self.bound > 0) == (self.sense == "<=") else math.inf
        return self.reproduced - self.bound if self.sense == "<=" else self.bound - self.reproduced

    def problem(self) -> str | None:
        """Why this claim fails at any parameters (two computations apart, a bound violated), or None."""
        if self.kind == "exact" and abs(self.reproduced - self.second) > self.tolerance:
            return (
                f"the two computations ({self.how}) differ by {abs(self.reproduced - self.second):.3g}, "
                f"more than the tolerance {self.tolerance:.3g}"
            )
        if self.kind == "bound":
            ex = self.bound_excess()
            limit = AGREE_Z * self.se if self.se > 0 else self.tolerance
            if ex > limit:
                return (
                    f"the bound is violated: {_fmt(self.reproduced)} {self.sense} {_fmt(self.bound)} "
                    f"({self.how}) fails by {ex:.3g}" + (f" = {ex / self.se:.1f} standard errors" if self.se else "")
                )
        return None

    def verdict(self) -> str:
        """The claim's verdict. Paper numbers (statistical): **not judged** for a ``scope`` statement (about
        bounds or the worst case); with an unstated horizon and a searched range, **consistent at some t** when
        some horizon puts the curve within the paper's interval (**inconclusive** when the standard error at the
        claim's horizon cannot resolve the paper's digits), else **disagrees**; otherwise, with z in
        standard errors of the difference beyond the paper's rounding: z <= 2 **agrees**, or **inconclusive**
        when the resolution is coarser than the paper's printed precision (or the stated margin); beyond,
        **underdetermined** when the systematic spread covers the difference, else **near** (z <= 4) or
        **disagrees**. Predictions: agrees / near / disagrees with the book's own prediction. Bounds: holds /
        holds within noise / VIOLATED; exact without a paper number: two ways agree / TWO WAYS DIFFER."""
        if self.kind == "statistical" and self.category == "scope":
            return "not judged"
        if self.kind == "statistical" and self.t_searched is not None:  # resolution read at the claim's horizon
            if not self.t_consistent:
                return "disagrees"
            return "inconclusive" if self._inconclusive() else "consistent at some t"
        if self.kind in ("statistical", "prediction"):
            z = self.z()
            if z <= AGREE_Z:
                return "inconclusive" if self.kind == "statistical" and self._inconclusive() else "agrees"
            if self.systematic > 0 and self.kind == "statistical":
                if self._excess() <= self.systematic + AGREE_Z * self.total_se():
                    return "underdetermined"
            return "near" if z <= NEAR_Z else "disagrees"
        if self.kind == "exact":
            if self.problem():
                return "TWO WAYS DIFFER"
            if self.paper is None:
                return "two ways agree"
            ex = self._excess()
            return "agrees" if ex <= self.tolerance else "near" if ex <= 1.5 * self.paper_unit else "disagrees"
        if self.kind == "bound":
            if self.problem():
                return "VIOLATED"
            return "holds" if self.bound_excess() <= (self.tolerance if self.se == 0 else 0) else "holds within noise"
        return "reproducible"

    def measure(self) -> str:
        """What a statistical verdict rests on, in a few words: z, the relative difference, the horizon range,
        the resolution and the margin."""
        if self.kind == "statistical" and self.category == "scope":
            return "a statement about bounds, not an empirical number"
        if self.kind == "statistical" and self.t_searched is not None:
            lo, hi = self.t_searched
            if not self.t_consistent:
                return f"no horizon in [{approx_horizon(lo)}, {approx_horizon(hi)}] reaches it"
            where = f"within the paper's interval at {span_text(self.t_consistent, self.t_searched)} only"
            return where + ("; " + self._resolution_text() if self._inconclusive() else "")
        z = self.z()
        ref = self.predicted if self.kind == "prediction" else self.paper
        parts = [f"z = {z:.1f}" if math.isfinite(z) else "z = ∞: every run gave the same value"]
        if ref and math.isfinite(z) and z > 0:  # the effect size, beside z
            rel = 100 * (self.reproduced - ref) / abs(ref)
            parts.append(f"{rel:+.2f}%" if abs(rel) < 1 else f"{rel:+.1f}%")
        inside = self.inside()
        if inside is not None and inside > 0:
            parts.append(f"inside by {inside:.1f} se")
        if self.systematic > 0:
            parts.append(f"systematic ±{_fmt(self.systematic, 2)}")
        elif self.systematic_how:
            parts.append("no systematic spread found")
        if self.verdict() == "inconclusive":
            parts.append(self._resolution_text())
        return ", ".join(parts)

    def _resolution_text(self) -> str:
        need = self.runs_needed()
        res = f"resolution ±{_fmt(self.resolution(), 2)} against the paper's ±{_fmt(self.target(), 2)}"
        if need == 0:
            return res + "; no number of runs suffices: the paper's own runs are coarser than its digits"
        return res + ("" if need is None else f"; needs ≥ {need} runs")

    def at(self) -> str:
        """The horizon or scale the number was measured at, for tables."""
        if self.horizon is not None:
            return f"T = {format_horizon(self.horizon)}"
        return self.scale

    def verdict_text(self) -> str:
        """The verdict with its measure: z, the relative difference and what else decides it (statistical
        claims and predictions), the ratio to the bound (bounds)."""
        v = self.verdict()
        if self.kind == "reproducible":
            return "-"
        if self.kind in ("statistical", "prediction"):
            return f"{v} ({self.measure()})"
        if self.kind == "bound" and self.bound > 0 and math.isfinite(self.bound) and self.reproduced >= 0:
            ratio = self.reproduced / self.bound
            pct = 100 * ratio
            share = f"{pct:.0f}%" if pct >= 10 else f"{pct:.2g}%"
            return f"{v} ({share} of it)" if self.sense == "<=" else f"{v} ({ratio:.3g}× it)"
        return v

    def reference(self) -> str:
        """What the claim is judged against: the paper's number, the bound, or the second computation."""
        if self.paper is not None:
            return f"paper {_SENSE_TEXT[self.sense]}{_fmt(self.paper)}"
        if self.kind == "prediction":
            return f"book's prediction {_fmt(self.predicted)}"
        if self.kind == "bound":
            return f"{_SENSE_TEXT[self.sense]}{_fmt(self.bound)}"
        if self.kind == "exact":
            return f"2nd way {_fmt(self.second)}"
        return ""

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict, where: str = "") -> "Claim":
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(d) - known)
        if unknown:
            raise ValueError(
                f"{where}: stored claim {d.get('id')!r} has unknown fields {unknown} (stored by an "
                "older version of ldpcode? re-run its notebook with --write)"
            )
        return cls(**d)
