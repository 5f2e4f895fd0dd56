"""The five kinds of claims, each a frozen dataclass on the base :class:`~ldpcode.claims.core.Claim` with its own
fields, its own checks and its own verdict: :class:`StatisticalClaim`, :class:`ExactClaim`, :class:`BoundClaim`,
:class:`ReproducibleClaim` and :class:`PredictionClaim` (what each kind means is in :mod:`ldpcode.claims.core`).
The two kinds that may judge a paper's number share the fields of :class:`PaperClaim`; the two judged in
standard errors (statistical claims and predictions) share the methods of ``_JudgedInStandardErrors``. The
constructors of :mod:`ldpcode.claims.constructors` build them."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .._validate import check_real
from .core import AGREE_Z, NEAR_Z, PAPERS, Claim, paper_unit
from .horizons import check_stored_range
from .statements import CATEGORIES, STATEMENTS, prints, shown_as
from .tables import _SENSE_TEXT, format_value, approx_horizon, span_text


@dataclass(frozen=True, kw_only=True)
class PaperClaim(Claim):
    """The fields of a claim that may judge a paper's number (statistical and exact claims): the number
    (``paper``, its last printed digit ``paper_unit``, the ``sense`` of the statement), the paper ``cites``, the
    one-line ``reason`` for the verdict, and the evidence copied from the paper statement it is judged against
    (``statement``, ``category``, ``locator``, ``quote``, ``paper_horizon``, ``paper_runs``)."""

    paper: float | None = None
    paper_unit: float | None = None
    sense: str = "="
    cites: str | None = None
    reason: str = ""
    statement: str | None = None
    category: str = ""
    locator: str = ""
    quote: str = ""
    paper_horizon: int | None = None
    paper_runs: int | None = None

    def _check_paper(self):
        """A paper number names its paper and a reason, and the unit of its last printed digit."""
        name = self.id
        if self.paper is None:
            return
        if self.cites not in PAPERS:
            raise ValueError(
                f"{name}: cites must name the paper stating the number, one of {', '.join(PAPERS)}; got {self.cites!r}"
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
            self._set("paper_unit", paper_unit(self.paper))
        if self.paper_unit < 0:
            raise ValueError(f"{name}: paper_unit must be >= 0 (0: an exact value), got {self.paper_unit!r}")

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

    def _excess(self) -> float:
        """Distance from the paper's number beyond its rounding (0 when within it), in the claim's sense."""
        diff = self.reproduced - self.paper
        signed = {"=": abs(diff), "<=": diff, ">=": -diff}[self.sense]
        return max(0.0, signed - self.paper_unit / 2)

    def paper_prints(self) -> bool:
        """Whether the paper prints this claim's number itself (:func:`~ldpcode.claims.statements.prints`): a
        table shows it under the paper's name only then; otherwise it is the book's reading of the quoted
        statement (an ordering as a difference >= 0, "does not depend on ε" as a ratio of 1, a formula
        evaluated at the experiment's values, an exponent read off a rate)."""
        if self.paper is None:
            return False
        st = STATEMENTS.get(self.statement)
        return prints(self.category, self.quote, st.printed if st is not None else "", self.paper)

    def paper_text(self) -> str:
        """The paper's number as a table shows it (:func:`~ldpcode.claims.statements.shown_as`): its own digits where
        it prints it (``9.0``), with the book's reading beside them where it differs (``10 (read as ≥ 10)``), else
        ``read as = 1``."""
        st = STATEMENTS.get(self.statement)
        return shown_as(self.category, self.quote, st.printed if st is not None else "", self.paper, self.sense)

    def reference(self) -> str:
        if self.paper is not None:
            return ("paper " if self.paper_prints() else "paper, ") + self.paper_text()
        return super().reference()


def _se_count(n: float) -> str:
    """A number of standard errors as a row shows it: ``6.0``, or ``4,427`` from 100 on (a tenth is noise there)."""
    return f"{n:,.0f}" if abs(n) >= 100 else f"{n:.1f}"


class _JudgedInStandardErrors:
    """What statistical claims and predictions share: a Monte Carlo number judged by its distance, in standard
    errors of the difference (:meth:`z`), from the number it is judged against (:meth:`_distance`,
    :meth:`_against`)."""

    def _distance(self) -> float:
        raise NotImplementedError

    def _against(self) -> float:
        raise NotImplementedError

    def z(self) -> float:
        """The distance in standard errors of the difference (see :meth:`~ldpcode.claims.core.Claim.total_se`)."""
        excess = self._distance()
        if self.se == 0:  # every run gave the same value: the rounding alone decides
            return 0.0 if excess == 0 else math.inf
        return excess / self.total_se()

    def resolution(self) -> float | None:
        """The smallest difference from the paper that the runs could detect: ``AGREE_Z`` standard errors of the
        difference (absolute; None without Monte Carlo noise)."""
        return None if self.se == 0 else AGREE_Z * self.total_se()

    def _systematic_text(self) -> str:
        """The systematic spread as a row shows it: ``±0.032``, or ``unbounded`` (inf)."""
        return "unbounded" if math.isinf(self.systematic) else f"±{format_value(self.systematic, 2)}"

    def _z_verdict(self, z: float) -> str:
        return "near" if z <= NEAR_Z else "disagrees"

    def measure(self) -> str:
        """What the verdict rests on, in a few words: z, the relative difference, the resolution and the margin."""
        z = self.z()
        ref = self._against()
        inside = self.inside()
        if inside is not None and inside > 0:  # on the statement's side: a z of 0 would say nothing, the distance does
            side = "below" if self.reproduced < ref else "above"
            parts = [
                f"on the stated side: {format_value(abs(self.reproduced - ref), 2)} {side} {format_value(ref)}, {_se_count(inside)} se"
            ]
        else:
            parts = [f"z = {z:.1f}" if math.isfinite(z) else "z = ∞: every run gave the same value"]
        if math.isfinite(z) and self.total_se() != self.se:
            # the se counted is not the ± the row shows: say so, or a reader's own division disagrees with it
            parts[0] += (
                f" (se of the difference ±{format_value(self.total_se(), 2)}, with the paper's own {self.paper_runs} runs)"
            )
        if ref and math.isfinite(z) and z > 0:  # the effect size, beside z
            parts.append(self._relative_text(ref))
        if self.systematic > 0 and self.verdict() in ("near", "disagrees"):
            beyond = (self._excess() - self.systematic) / self.total_se()
            parts.append(f"{beyond:.1f} se beyond the systematic spread {self._systematic_text()}")
        elif self.systematic > 0:
            parts.append(f"systematic {self._systematic_text()}")
        elif self.systematic_how:
            parts.append("no systematic spread counted")  # systematic_how says what was examined, and why
        if self.verdict() == "inconclusive":
            parts.append(self._resolution_text())
        return ", ".join(parts)

    def _relative_text(self, ref: float) -> str:
        """The relative difference from ``ref`` as a row shows it: ``+25.3%``, or ``-0.07%`` below 1 %."""
        rel = 100 * (self.reproduced - ref) / abs(ref)
        return f"{rel:+.2f}%" if abs(rel) < 1 else f"{rel:+.1f}%"

    def _resolution_text(self) -> str:
        need = self.runs_needed()
        res = f"resolution ±{format_value(self.resolution(), 2)} against the paper's ±{format_value(self.target(), 2)}"
        if need == 0:
            return res + "; no number of runs suffices: the paper's own runs are coarser than its digits"
        return res + ("" if need is None else f"; needs ≥ {need} runs")

    def verdict_text(self) -> str:
        """The verdict with its measure: z, the relative difference and what else decides it."""
        return f"{self.verdict()} ({self.measure()})"


@dataclass(frozen=True, kw_only=True)
class StatisticalClaim(_JudgedInStandardErrors, PaperClaim):
    """A Monte Carlo reproduction of a number the paper states (see :mod:`ldpcode.claims.core`): its ``horizon`` (or
    ``scale``), our ``runs``, a practical ``margin``, the ``systematic`` spread under what the paper leaves open
    (``systematic_how``), and, for a number whose horizon the paper does not state, the range of t where the
    curve is within the paper's interval (``t_consistent`` within ``t_searched``; ``t_accepts``: what it accepts;
    ``t_joint``: [t, z], the closest approach of the figure's numbers that the paper read at one horizon)."""

    kind = "statistical"

    horizon: int | None = None
    scale: str = ""
    runs: int | None = None
    margin: float = 0.0
    systematic: float = 0.0
    systematic_how: str = ""
    t_consistent: list | None = None
    t_searched: list | None = None
    t_accepts: list | None = None
    t_joint: list | None = None
    reachable: float | None = None

    def __post_init__(self):
        super().__post_init__()
        name = self.id
        self._set("margin", check_real(f"{name}: margin", self.margin))
        # inf: what the paper leaves open moves the number without a bound the book can give (an unstated constant
        # that scales it), so no gap beyond noise can be told from it
        self._set("systematic", check_real(f"{name}: systematic", self.systematic, allow_inf=True))
        if self.margin < 0 or self.systematic < 0:
            raise ValueError(f"{name}: margin and systematic must be >= 0, got {self.margin!r}, {self.systematic!r}")
        if self.systematic > 0 and not self.systematic_how:
            raise ValueError(f"{name}: a systematic spread says what moves the number (systematic_how)")
        self._check_paper()
        if self.paper is None:
            raise ValueError(f"{name}: a statistical claim reproduces a paper number; without one it is reproducible")
        if self.horizon is None and not self.scale:
            raise ValueError(
                f"{name}: a statistical claim states its horizon (or, for a non-regret quantity, its scale)"
            )
        self._check_horizons()
        if self.reachable is not None and self.reachable == {"<=": math.inf, ">=": -math.inf}.get(self.sense):
            self._set("reachable", None)  # no cap on the refuting side: the same as none given
        if self.reachable is not None:
            self._set("reachable", check_real(f"{name}: reachable", self.reachable))
            if self.sense == "=":
                raise ValueError(
                    f"{name}: reachable (the most extreme value the experiment allows) needs sense <= or >="
                )
        self._check_evidence()

    def _reachable_z(self) -> float:
        """How far ``reachable`` lies beyond the paper's number (past its rounding), in standard errors of the
        difference: the largest z the experiment could have produced (negative on the statement's side)."""
        beyond = (
            self.reachable - self.paper if self.sense == "<=" else self.paper - self.reachable
        ) - self.paper_unit / 2
        if self.se == 0:
            return math.inf if beyond > 0 else -math.inf
        return beyond / self.total_se()

    def cannot_fail(self) -> bool:
        """Whether the experiment could not have refuted the statement: ``reachable``, the most extreme value it
        allows on the refuting side (an exponent of 1/ε that a regret capped by the loss range leaves over the ε
        grid), lies on the statement's side of the paper's number, or beyond it by no more than ``AGREE_Z``
        standard errors of the difference, so that even there the number would agree. Such an agreement says
        nothing: the verdict is **inconclusive**. (The standard error is the one measured, at the value found.)"""
        if self.reachable is None:
            return False
        return self._reachable_z() <= AGREE_Z

    def _check_horizons(self):
        check_stored_range(self.id, self.sense, self.t_consistent, self.t_searched, self.t_accepts, self.t_joint)

    def _distance(self) -> float:
        return self._excess()

    def _against(self) -> float:
        return self.paper

    def inside(self) -> float | None:
        if self.sense == "=" or self.se == 0:
            return None
        diff = self.reproduced - self.paper
        return (-diff if self.sense == "<=" else diff) / self.total_se()

    def _inconclusive(self) -> bool:
        res = self.resolution()
        return self.sense == "=" and res is not None and self.target() > 0 and res > self.target()

    def verdict(self) -> str:
        """**not judged** for a ``scope`` statement (about bounds or the worst case); with an unstated horizon and
        a searched range, **consistent at some t** when some horizon puts the curve within the paper's interval
        (**inconclusive** when the standard error at the claim's horizon cannot resolve the paper's digits), else
        **disagrees**; otherwise, with z in standard errors of the difference beyond the paper's rounding: z <= 2
        **agrees**, or **inconclusive** when the resolution is coarser than the paper's printed precision (or the
        stated margin); beyond, **underdetermined** when the systematic spread covers the difference, else
        **near** (z <= 4) or **disagrees**.

        An ``order`` claim with a one-sided sense (a rate such as Õ(T^{3/4}/ε), judged on an exponent
        measured at finite horizons: :meth:`is_rate`) is tested by no slope, on either side: a rate hides its
        constants and log factors and holds as T grows. Beyond noise on the refuting side it is
        **underdetermined** (:meth:`rate_untestable`: the local exponent refutes nothing, whatever its z); on the
        stated side, or within noise of the rate, it is **within the rate**: consistent with it, and no evidence
        for it, since no slope could have refuted it (no z is given: it would measure the Monte Carlo noise, not
        the statement). A claim that agrees, or lies within the rate, but :meth:`cannot_fail` (the experiment
        could not even reach the refuting side) is **inconclusive**."""
        if self.category == "scope":
            return "not judged"
        if self.t_searched is not None:  # resolution read at the claim's horizon
            if not self.t_consistent:
                return "disagrees"
            return "inconclusive" if self._inconclusive() else "consistent at some t"
        z = self.z()
        if self.is_rate():
            if z > AGREE_Z:
                return "underdetermined"
            return "inconclusive" if self.cannot_fail() else "within the rate"
        if z <= AGREE_Z:
            return "inconclusive" if self._inconclusive() or self.cannot_fail() else "agrees"
        if self.systematic > 0 and self._excess() <= self.systematic + AGREE_Z * self.total_se():
            return "underdetermined"
        return self._z_verdict(z)

    def is_rate(self) -> bool:
        """An ``order`` claim with a one-sided sense: a rate with unstated constants and log factors (Õ(T^{3/4}/ε)),
        read as a bound on an exponent, which a slope over a finite range of horizons (or of ε) can neither refute
        nor confirm."""
        return self.category == "order" and self.sense != "="

    def rate_untestable(self) -> bool:
        """A rate (:meth:`is_rate`) whose measured exponent lies beyond noise on the wrong side: a slope over a finite
        range of horizons (or of ε, for an exponent of 1/ε) cannot refute a rate, so the verdict is underdetermined."""
        return self.is_rate() and self.z() > AGREE_Z

    def measure(self) -> str:
        """What the verdict rests on, in a few words: z, the relative difference, the horizon range, the
        resolution and the margin; for a rate beyond noise (:meth:`rate_untestable`), how far beyond and why that
        does not refute it (a z there would measure only the Monte Carlo noise, not the statement)."""
        if self.category == "scope":
            return "a statement about bounds, not an empirical number"
        most = "at most" if self.sense == "<=" else "at least"
        if self.t_searched is None and self.cannot_fail() and self.z() <= AGREE_Z:
            beyond = self._reachable_z()
            within = f", within noise of it ({beyond:.1f} se beyond)" if beyond > 0 else ""
            return (
                f"could not have failed: the experiment allows {most} {format_value(self.reachable, 3)} against the stated "
                f"{format_value(self.paper)}{within}; measured {format_value(self.reproduced, 2)} ± {format_value(self.total_se(), 2)}"
            )
        if self.t_searched is None and self.reachable is not None and self.verdict() == "agrees":
            # it could have failed, by this much: the power of the test, beside the distance found
            return (
                f"{super().measure()}; it could have failed: the experiment allows {most} "
                f"{format_value(self.reachable, 3)}, {_se_count(self._reachable_z())} se beyond"
            )
        if self.t_searched is None and self.verdict() == "within the rate":
            # on the stated side (or within noise of it): consistent, and no test, so no count of standard errors
            gap = self.reproduced - self.paper
            spread = f", systematic {self._systematic_text()}" if self.systematic > 0 else ""
            beyond = gap > 0 if self.sense == "<=" else gap < 0  # on the refuting side, within noise
            noise = ", within noise" if beyond else ""
            return (
                f"{format_value(abs(gap), 2)} {'below' if gap < 0 else 'above'} the stated {format_value(self.paper)}{noise}, "
                f"se {format_value(self.total_se(), 2)}{spread}; consistent with the rate and no test of it: no slope "
                "over a finite range refutes a rate whose constants and log factors are unstated"
            )
        if self.t_searched is None and self.rate_untestable():
            side = "above" if self.sense == "<=" else "below"
            spread = f", systematic {self._systematic_text()}" if self.systematic > 0 else ""
            return (
                f"{format_value(abs(self.reproduced - self.paper), 2)} {side} the stated {format_value(self.paper)}, se "
                f"{format_value(self.total_se(), 2)}{spread}; beyond noise, but a rate, with its constants and log factors "
                "unstated, is not refuted by a slope over a finite range"
            )
        if self.t_searched is None and self.verdict() == "underdetermined":
            # the spread of what the paper leaves open covers the gap: a z would measure the gap against the Monte
            # Carlo noise alone, of a number the paper's own setting does not fix
            gap = self.reproduced - self.paper
            rel = f", {self._relative_text(self.paper)}" if self.paper else ""
            return (
                f"gap {format_value(gap, 2)}{rel}: within the systematic spread ({self._systematic_text()}), beyond the "
                f"Monte Carlo noise (se of the difference {format_value(self.total_se(), 2)}); "
                "what the paper leaves open decides it"
            )
        if self.t_searched is not None:
            lo, hi = self.t_searched
            if not self.t_consistent:
                return f"no horizon in [{approx_horizon(lo)}, {approx_horizon(hi)}] reaches it"
            where = f"within the paper's interval at {span_text(self.t_consistent, self.t_searched)} only"
            where += "; " + self._resolution_text() if self._inconclusive() else ""
            if self.t_accepts is not None:  # how little a consistent t says: what else would have passed
                lo, hi, missing = self.t_accepts
                but, span = (f" but {missing:.0f}" if missing else ""), ", ".join(map(approx_horizon, self.t_searched))
                rng = f"[{format_value(lo, 3)}, {format_value(hi, 3)}]"
                where += f"; to its last digit, any number in {rng}{but} fits some t in [{span}]"
            return where
        res = self.resolution()
        if self.sense == "=" and self.target() == 0 and res is not None and self.verdict() == "agrees":
            # an exact identity (unbiasedness, a ratio of 1) agrees only to what the runs resolve: say it
            return f"{super().measure()}, resolution ±{format_value(res, 2)}"
        return super().measure()


@dataclass(frozen=True, kw_only=True)
class ExactClaim(PaperClaim):
    """A value without sampling error computed two independent ways: ``reproduced`` and ``second``, with ``how =
    "<first way> vs <second way>"``; with a paper number, judged by the paper's digits (see
    :mod:`ldpcode.claims.core`)."""

    kind = "exact"

    second: float | None = None
    how: str = ""

    def __post_init__(self):
        super().__post_init__()
        name = self.id
        self._check_paper()
        if self.se != 0:
            raise ValueError(f"{name}: an exact claim has no standard error, got se = {self.se!r}")
        if self.second is None or " vs " not in self.how:
            raise ValueError(
                f"{name}: an exact claim gives its second, independent computation (second) "
                f"and how = '<first way> vs <second way>'; got second={self.second!r}, "
                f"how={self.how!r}"
            )
        self._check_evidence()

    def problem(self) -> str | None:
        if abs(self.reproduced - self.second) > self.tolerance:
            return (
                f"the two computations ({self.how}) differ by {abs(self.reproduced - self.second):.3g}, "
                f"more than the tolerance {self.tolerance:.3g}"
            )
        return None

    def verdict(self) -> str:
        """**TWO WAYS DIFFER** when the two computations are apart; without a paper number **two ways agree**;
        with one, **agrees** within the tolerance of the paper's number beyond its rounding, **near** within
        two units of its last digit, **disagrees** beyond."""
        if self.problem():
            return "TWO WAYS DIFFER"
        if self.paper is None:
            return "two ways agree"
        ex = self._excess()
        return "agrees" if ex <= self.tolerance else "near" if ex <= 1.5 * self.paper_unit else "disagrees"

    def reference(self) -> str:
        if self.paper is None:
            return f"2nd way {format_value(self.second)}"
        return super().reference()


@dataclass(frozen=True, kw_only=True)
class BoundClaim(Claim):
    """An inequality the notebook asserts: ``reproduced`` ``sense`` (``"<="`` or ``">="``) ``bound``, where
    ``how`` names the bound ("Theorem 4 at T"), measured at ``horizon`` (or ``scale``). With ``shows_failure``
    (True), the inequality is a failure asserted the other way round: a theorem's bound above what a policy
    reaches reads **failure shown** where it holds (a paper's statement fails: red), so that no row shows a failure
    under a green *holds*. With ``control`` (True, and ``shows_failure``), the failure is one the notebook built on
    purpose to prove that its check can fail (a mechanism with half its noise, a radius without the noise): it reads
    **caught, as intended** (green: the check did its work), not a failure of any paper. With ``cap``, the largest
    value the measured number can take (a pseudo-regret's T·Δ_max), an upper bound at or above it cannot fail: it
    reads **vacuous**, not *holds*."""

    kind = "bound"

    bound: float | None = None
    sense: str = "="
    how: str = ""
    horizon: int | None = None
    scale: str = ""
    reason: str = ""
    shows_failure: bool | None = None
    control: bool | None = None
    cap: float | None = None

    def __post_init__(self):
        super().__post_init__()
        name = self.id
        if self.bound is None or not self.how:
            raise ValueError(
                f"{name}: a bound claim gives the bound and how (which bound), got "
                f"bound={self.bound!r}, how={self.how!r}"
            )
        if self.sense == "=":
            raise ValueError(f"{name}: a bound is an inequality: sense must be '<=' or '>='")
        if self.cap is not None:
            self._set("cap", check_real(f"{name}: cap", self.cap))
            if self.sense != "<=" or not 0 < self.cap <= self.bound:
                raise ValueError(
                    f"{name}: cap (the largest value the number can take) marks an upper bound at or above it, "
                    f"got cap = {self.cap!r} for {self.sense} {self.bound!r}"
                )
        if self.shows_failure not in (None, True):
            raise ValueError(
                f"{name}: shows_failure is True or None (stored only when set), got {self.shows_failure!r}"
            )
        if self.control not in (None, True) or (self.control and not self.shows_failure):
            raise ValueError(
                f"{name}: control is True (with shows_failure True: a control is built to fail) or None, got "
                f"control={self.control!r}, shows_failure={self.shows_failure!r}"
            )

    def bound_excess(self) -> float:
        if math.isinf(self.bound):
            return -math.inf if (self.bound > 0) == (self.sense == "<=") else math.inf
        return self.reproduced - self.bound if self.sense == "<=" else self.bound - self.reproduced

    def problem(self) -> str | None:
        ex = self.bound_excess()
        limit = AGREE_Z * self.se if self.se > 0 else self.tolerance
        if ex > limit:
            return (
                f"the bound is violated: {format_value(self.reproduced)} {self.sense} {format_value(self.bound)} "
                f"({self.how}) fails by {ex:.3g}" + (f" = {ex / self.se:.1f} standard errors" if self.se else "")
            )
        return None

    def verdict(self) -> str:
        """**holds**, **holds within noise** (fails by at most 2 standard errors) or **VIOLATED**; for a failure
        asserted the other way round (``shows_failure``), **failure shown** where it holds, or **caught, as
        intended** for a control broken on purpose (``control``); for an upper bound at or above the largest value the
        number can take (``cap``), **vacuous**: no run could have failed it."""
        if self.problem():
            return "VIOLATED"
        if self.shows_failure:
            return "caught, as intended" if self.control else "failure shown"
        if self.cap is not None:
            return "vacuous"
        return "holds" if self.bound_excess() <= (self.tolerance if self.se == 0 else 0) else "holds within noise"

    def verdict_text(self) -> str:
        """The verdict with the ratio to the bound; for a vacuous bound, how far above the largest possible value."""
        v = self.verdict()
        if v == "vacuous":
            return f"vacuous ({format_value(self.bound / self.cap, 3)}× the largest possible value, {format_value(self.cap)})"
        if self.bound > 0 and math.isfinite(self.bound) and self.reproduced > 0:  # 0: "holds", not "(0% of it)"
            ratio = self.reproduced / self.bound
            pct = 100 * ratio
            share = f"{pct:.0f}%" if pct >= 10 else f"{format_value(pct, 2)}%"
            return f"{v} ({share} of it)" if self.sense == "<=" else f"{v} ({format_value(ratio, 3)}× it)"
        return v

    def reference(self) -> str:
        return f"{_SENSE_TEXT[self.sense]}{format_value(self.bound)}"


@dataclass(frozen=True, kw_only=True)
class ReproducibleClaim(Claim):
    """A number the book stands for with nothing to compare it with but its stored value, measured at
    ``horizon`` (or ``scale``)."""

    kind = "reproducible"

    horizon: int | None = None
    scale: str = ""

    def verdict(self) -> str:
        return "reproducible"

    def verdict_text(self) -> str:
        return "-"


@dataclass(frozen=True, kw_only=True)
class PredictionClaim(_JudgedInStandardErrors, Claim):
    """A Monte Carlo number against the book's own prediction ``predicted``, derived in the notebook
    ``derived_in`` by ``how``, at ``horizon`` (or ``scale``) over ``runs`` runs, with a one-line ``reason``."""

    kind = "prediction"

    predicted: float | None = None
    derived_in: str = ""
    how: str = ""
    horizon: int | None = None
    scale: str = ""
    runs: int | None = None
    reason: str = ""

    def __post_init__(self):
        super().__post_init__()
        name = self.id
        if self.predicted is None or not self.derived_in.endswith(".ipynb") or not self.how or not self.reason:
            raise ValueError(
                f"{name}: a prediction gives the predicted value, derived_in (the notebook that derives it), "
                f"how (the derivation) and a one-line reason; got predicted={self.predicted!r}, "
                f"derived_in={self.derived_in!r}"
            )
        if self.horizon is None and not self.scale:
            raise ValueError(f"{name}: a prediction states its horizon (or scale)")

    def _distance(self) -> float:
        return abs(self.reproduced - self.predicted)

    def _against(self) -> float:
        return self.predicted

    def verdict(self) -> str:
        """**agrees** (z <= 2), **near** (z <= 4) or **disagrees** with the book's own prediction."""
        z = self.z()
        return "agrees" if z <= AGREE_Z else self._z_verdict(z)

    def reference(self) -> str:
        return f"book's prediction {format_value(self.predicted)}"
