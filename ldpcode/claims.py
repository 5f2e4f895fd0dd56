"""Stored numbers: each notebook owns ``data/<chapter>/<notebook>.json`` and checks itself against it.

A claim is one number the book stands for. Every claim says what *kind* of check it is, and the kind
decides its verdict:

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

:func:`check` compares the freshly computed claims with the stored ones:

* stored params equal to the notebook's params: every claim must land within its ``tolerance`` of the
  stored ``reproduced``, every stored claim must be produced, and no claim may be missing from the file;
  otherwise an ``AssertionError`` fails the notebook (and nbval);
* different params (a reader's re-run): nothing is compared with the stored file and nothing is
  overwritten; the verdicts, the two computations of exact claims and the bounds are still checked;
* writing happens only when asked: ``check(..., write=True)`` or the environment variable
  ``LDPCODE_WRITE_CLAIMS`` set to ``1``, ``true`` or ``yes``. The file is written atomically.
"""

from __future__ import annotations

import html
import json
import math
import os
import tempfile
from dataclasses import asdict, dataclass, field, fields
from decimal import Decimal
from pathlib import Path

from ._paths import repo_root
from ._validate import check_real
from .parameters import check as _check_parameters

WRITE_ENV = "LDPCODE_WRITE_CLAIMS"
REPORT_CHAPTER = "report"

KINDS = ("statistical", "exact", "bound", "reproducible")
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
VERDICTS = ("agrees", "near", "disagrees")
_TRUE, _FALSE = ("1", "true", "yes"), ("", "0", "false", "no")


def env_flag(name: str) -> bool:
    """A boolean environment variable: ``1``, ``true``, ``yes`` (any case) mean yes; unset, empty, ``0``,
    ``false``, ``no`` mean no; anything else is a ValueError naming the variable."""
    raw = os.environ.get(name, "")
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ValueError(
        f"environment variable {name} must be one of 1, true, yes (write) or 0, false, no, empty "
        f"(do not write), got {raw!r}"
    )


def paper_unit(value: float) -> float:
    """One unit of the last digit a paper printed: 1.6 -> 0.1, 0.9977 -> 1e-4, 16 -> 1, 3.663127e-05 -> 1e-11.

    Read from the shortest decimal form of the stored float, so a paper number must be stored as printed
    (``1.6``, not ``1.60``: give ``paper_unit`` explicitly where the paper printed trailing zeros)."""
    d = Decimal(repr(float(value)))
    if d == d.to_integral_value():
        return 1.0
    return float(Decimal(1).scaleb(d.normalize().as_tuple().exponent))


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

    def __post_init__(self):
        if not isinstance(self.id, str) or not self.id or any(ch.isspace() for ch in self.id):
            raise ValueError(f"claim id must be a non-empty string without spaces, got {self.id!r}")
        name = self.id
        if self.kind not in KINDS:
            raise ValueError(f"{name}: kind must be one of {', '.join(KINDS)}, got {self.kind!r}")
        for text in ("source", "how", "scale", "reason", "note", "tolerance_reason"):
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
        if self.horizon is not None:
            if isinstance(self.horizon, bool) or not isinstance(self.horizon, int) or self.horizon < 1:
                raise ValueError(f"{name}: horizon must be a positive integer or None, got {self.horizon!r}")
        # --- what each kind needs, and the tolerance it derives ---------------------------------------------
        if self.se > 0:
            if self.k is None or not 1 <= self.k <= 10:
                raise ValueError(f"{name}: a Monte Carlo claim needs k in [1, 10] standard errors, got {self.k!r}")
            if not math.isclose(self.tolerance, self.k * self.se, rel_tol=1e-12, abs_tol=0.0):
                raise ValueError(f"{name}: tolerance {self.tolerance!r} is not k x se = {self.k * self.se!r}")
        if self.paper is not None:
            if self.kind not in ("statistical", "exact"):
                raise ValueError(
                    f"{name}: only statistical and exact claims carry a paper number (a {self.kind} claim has none)"
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
        if self.kind != "bound" and self.bound is not None:
            raise ValueError(f"{name}: only a bound claim has a bound")
        if self.kind != "exact" and self.second is not None:
            raise ValueError(f"{name}: only an exact claim has a second computation")

    # --- judging -------------------------------------------------------------------------------------------
    def z(self) -> float | None:
        """Statistical claims: the paper's distance in standard errors (see the module docstring)."""
        if self.kind != "statistical":
            return None
        excess = self._excess()
        if self.se == 0:  # every run gave the same value: the rounding alone decides
            return 0.0 if excess == 0 else math.inf
        return excess / self.se

    def _excess(self) -> float:
        """Distance from the paper's number beyond its rounding (0 when within it), in the claim's sense."""
        diff = self.reproduced - self.paper
        signed = {"=": abs(diff), "<=": diff, ">=": -diff}[self.sense]
        return max(0.0, signed - self.paper_unit / 2)

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
        """The claim's verdict: agrees / near / disagrees (paper numbers), holds / holds within noise /
        VIOLATED (bounds), two ways agree / TWO WAYS DIFFER (exact without a paper number), reproducible."""
        if self.kind == "statistical":
            z = self.z()
            return "agrees" if z <= AGREE_Z else "near" if z <= NEAR_Z else "disagrees"
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

    def at(self) -> str:
        """The horizon or scale the number was measured at, for tables."""
        if self.horizon is not None:
            return f"T = {format_horizon(self.horizon)}"
        return self.scale

    def verdict_text(self) -> str:
        """The verdict with its measure (z for statistical claims, the ratio to the bound for bounds)."""
        v = self.verdict()
        if self.kind == "reproducible":
            return "-"
        if self.kind == "statistical":
            z = self.z()
            return f"{v} (z = {z:.1f})" if math.isfinite(z) else f"{v} (z = ∞: every run gave the same value)"
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


# --- the four constructors ----------------------------------------------------------------------------------


def _mc_tolerance(se, k, name):
    """``se`` checked, and the tolerance k x se of a Monte Carlo claim (None when se = 0)."""
    se = check_real(f"{name}: se", se)
    k = check_real(f"{name}: k", k)
    if se < 0:
        raise ValueError(f"{name}: se must be >= 0, got {se!r}")
    if not 1 <= k <= 10:
        raise ValueError(f"{name}: k (standard errors of tolerance) must be in [1, 10], got {k!r}")
    return se, (k * se if se > 0 else None)


def _det_tolerance(value, rtol, atol, name):
    rtol = check_real(f"{name}: rtol", rtol)
    atol = check_real(f"{name}: atol", atol)
    if rtol < 0 or atol < 0:
        raise ValueError(f"{name}: rtol and atol must be >= 0, got {rtol!r} and {atol!r}")
    return max(atol, rtol * abs(check_real(f"{name}: reproduced", value)))


def statistical(
    id: str,
    source: str,
    *,
    reproduced,
    se,
    paper,
    cites: str,
    reason: str,
    horizon: int | None = None,
    scale: str = "",
    sense: str = "=",
    paper_unit: float | None = None,
    k: float = 4.0,
    note: str = "",
    tolerance_reason: str = "",
) -> Claim:
    """A Monte Carlo reproduction of a number stated in the paper ``cites``.

    ``reproduced`` is the book's estimate and ``se`` its standard error (over independent runs, by the
    delta method or a bootstrap: the notebook says which); ``horizon`` the T it was read at (or ``scale``,
    e.g. "10^6 samples"); ``sense`` what the paper states ("=", "<=" an upper bound such as an order of
    growth, ">=" a lower bound); ``reason`` one line on the verdict (why it agrees, or why not). The stored
    value must be reproduced within ``k`` standard errors. ``se = 0`` only when every run gave the same value
    (then the verdict is the paper's rounding alone, and the stored value must come back exactly)."""
    se, tol = _mc_tolerance(se, k, id)
    return Claim(
        id=id,
        kind="statistical",
        source=source,
        reproduced=reproduced,
        se=se,
        k=float(k),
        tolerance=tol if tol is not None else 0.0,
        paper=paper,
        paper_unit=paper_unit,
        sense=sense,
        cites=cites,
        horizon=horizon,
        scale=scale,
        reason=reason,
        note=note,
        tolerance_reason=tolerance_reason,
    )


def exact(
    id: str,
    source: str,
    *,
    reproduced,
    second,
    how: str,
    paper=None,
    cites: str | None = None,
    reason: str = "",
    sense: str = "=",
    paper_unit: float | None = None,
    rtol: float = 1e-9,
    atol: float = 0.0,
    note: str = "",
    tolerance_reason: str = "",
) -> Claim:
    """A value without sampling error, computed two independent ways: ``reproduced`` and ``second``, with
    ``how = "<first way> vs <second way>"`` (closed form vs quadrature, a formula vs a count over a trace,
    a module function vs a literal transcription of the paper's equation). They must agree within
    ``max(atol, rtol |reproduced|)`` at every run. Never pass the same computation twice."""
    tol = _det_tolerance(reproduced, rtol, atol, id)
    return Claim(
        id=id,
        kind="exact",
        source=source,
        reproduced=reproduced,
        second=second,
        how=how,
        tolerance=tol,
        paper=paper,
        paper_unit=paper_unit,
        sense=sense,
        cites=cites,
        reason=reason,
        note=note,
        tolerance_reason=tolerance_reason,
    )


def bound(
    id: str,
    source: str,
    *,
    reproduced,
    bound,
    how: str,
    sense: str = "<=",
    se=0.0,
    k: float = 4.0,
    horizon: int | None = None,
    scale: str = "",
    rtol: float = 1e-9,
    atol: float = 0.0,
    reason: str = "",
    note: str = "",
    tolerance_reason: str = "",
) -> Claim:
    """An inequality the notebook asserts: ``reproduced <= bound`` (or ``>=`` with ``sense=">="``), where
    ``how`` names the bound ("Theorem 4 at T"). With ``se > 0`` (a Monte Carlo mean) a failure within 2
    standard errors is "holds within noise"; beyond, the check fails at every run."""
    se, tol = _mc_tolerance(se, k, id)
    if tol is None:
        tol = _det_tolerance(reproduced, rtol, atol, id)
    return Claim(
        id=id,
        kind="bound",
        source=source,
        reproduced=reproduced,
        bound=bound,
        how=how,
        sense=sense,
        se=se,
        k=float(k) if se > 0 else None,
        tolerance=tol,
        horizon=horizon,
        scale=scale,
        reason=reason,
        note=note,
        tolerance_reason=tolerance_reason,
    )


def reproducible(
    id: str,
    source: str,
    *,
    reproduced,
    se=0.0,
    k: float = 4.0,
    horizon: int | None = None,
    scale: str = "",
    rtol: float = 1e-9,
    atol: float = 0.0,
    note: str = "",
    tolerance_reason: str = "",
) -> Claim:
    """A number the book stands for with no paper number to compare: checked against its stored value
    only (within ``k`` standard errors when ``se > 0``, else within ``max(atol, rtol |reproduced|)``)."""
    se, tol = _mc_tolerance(se, k, id)
    if tol is None:
        tol = _det_tolerance(reproduced, rtol, atol, id)
    return Claim(
        id=id,
        kind="reproducible",
        source=source,
        reproduced=reproduced,
        se=se,
        k=float(k) if se > 0 else None,
        tolerance=tol,
        horizon=horizon,
        scale=scale,
        note=note,
        tolerance_reason=tolerance_reason,
    )


# --- parameters, paths, files -------------------------------------------------------------------------------


def check_parameters(notebook: str, namespace: dict) -> None:
    """Check a notebook's parameters before any work: ``ldp.claims.check_parameters(
    "chapters/<chapter>/<name>.ipynb", globals())`` in the cell right after the parameters cell.

    The rules (type, range, finiteness, consistency) are the notebook's entry in
    :data:`ldpcode.parameters.NOTEBOOKS`; a bad value raises TypeError or ValueError naming the parameter,
    the value and what is allowed, and a name papermill injected that the notebook does not declare (a
    misspelt ``-p horizn 100000``) raises ValueError. Returns None, so the cell prints nothing."""
    _check_parameters(notebook, namespace)


def data_path(notebook: str, root: Path | None = None) -> Path:
    """``chapters/ren2020/figure1.ipynb`` -> ``<root>/data/ren2020/figure1.json``."""
    p = Path(notebook)
    if not str(notebook).endswith(".ipynb") or not p.name:
        raise ValueError(f"notebook must be a path like 'chapters/<chapter>/<name>.ipynb', got {notebook!r}")
    parts = p.with_suffix(".json").parts
    if parts[0] != "chapters" or len(parts) != 3 or ".." in parts:
        raise ValueError(f"notebook must be a path like 'chapters/<chapter>/<name>.ipynb', got {notebook!r}")
    return (root or repo_root()).joinpath("data", *parts[1:])


def _normalise(obj):
    return json.loads(json.dumps(obj, sort_keys=True))


def _read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ValueError(
            f"stored numbers {path} are not valid JSON ({e}); restore the file from git or re-run "
            "its notebook with `python -m ldpcode.nbrun --write`"
        ) from e


def load(notebook: str, root: Path | None = None) -> dict | None:
    """The stored file of ``notebook`` as a dict (claims as plain dicts), or None if there is none."""
    path = data_path(notebook, root)
    if not path.exists():
        return None
    return _read_json(path)


def write_atomic(path: Path, payload: dict) -> None:
    """Write JSON to ``path`` through a temporary file and a rename, so a killed or interrupted run leaves the
    old file (and, but for SIGKILL, no temporary file); the file keeps its mode."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:  # keep the file's mode; a new file gets the usual one (mkstemp's own is 0600)
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w") as fh:
            json.dump(payload, fh, indent=1, sort_keys=False, ensure_ascii=False)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# --- formatting ---------------------------------------------------------------------------------------------

_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def format_horizon(t: int) -> str:
    """10**6 -> '10⁶', 2*10**5 -> '2·10⁵', 16000 -> '16,000'."""
    t = int(t)
    e = len(str(t)) - 1
    mant = t / 10**e
    if e >= 4 and mant == int(mant):
        power = "10" + str(e).translate(_SUPERSCRIPT)
        return power if mant == 1 else f"{int(mant)}·{power}"
    return f"{t:,}"


def _fmt(x, digits: int = 4) -> str:
    """A number for a table: 4 significant digits below 1000, whole numbers with thousands separators
    from 1000 to 10^9, an exponent outside [10^-3, 10^9)."""
    if x is None:
        return "-"
    x = float(x)
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0:
        return "0"
    if 1e3 <= abs(x) < 1e9:
        return f"{x:,.0f}"
    if x == int(x) and abs(x) < 1e3:
        return f"{int(x)}"
    if 1e-3 <= abs(x) < 1e3:
        return f"{x:.{digits}g}"
    return f"{x:.{digits - 1}e}"


_SENSE_TEXT = {"=": "", "<=": "≤ ", ">=": "≥ "}


def _fmt_se(se) -> str:
    """A standard error to 2 significant digits, without an exponent where one is not needed: 760, 0.012."""
    se = float(f"{float(se):.2g}")
    return _fmt(se, 2) if se >= 1e-3 else f"{se:.1e}"


def _fmt_pm(value, se) -> str:
    return _fmt(value) if not se else f"{_fmt(value)} ± {_fmt_se(se)}"


def _text_table(head, body) -> str:
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
    line = lambda row: "  ".join(str(x).ljust(w) for x, w in zip(row, widths)).rstrip()  # noqa: E731
    return "\n".join([line(head), line(["-" * w for w in widths])] + [line(r) for r in body])


_VERDICT_CLASS = {
    "agrees": "agree",
    "holds": "agree",
    "two ways agree": "agree",
    "near": "near",
    "holds within noise": "near",
    "disagrees": "disagree",
    "VIOLATED": "fail",
    "TWO WAYS DIFFER": "fail",
    "reproducible": "plain",
}


def _html_table(head, body, css: str, classes=None) -> str:
    th = "".join(f"<th>{html.escape(str(h))}</th>" for h in head)
    rows = []
    for i, r in enumerate(body):
        tds = []
        for j, c in enumerate(r):
            cls = classes[i][j] if classes and classes[i][j] else ""
            tds.append(
                f"<td{f' class={cls!r}' if cls else ''}>{c if isinstance(c, Markup) else html.escape(str(c))}</td>"
            )
        rows.append("<tr>" + "".join(tds) + "</tr>")
    return f"<table class='{css}'><thead><tr>{th}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


class Markup(str):
    """A table cell that is already HTML (a link)."""


@dataclass
class Table:
    """A plain table: aligned text for nbval and the terminal, HTML for the rendered book."""

    head: list
    body: list

    def __repr__(self) -> str:
        return _text_table(self.head, self.body)

    def _repr_html_(self) -> str:
        return _html_table(self.head, self.body, "ldp-table")


# --- the check ----------------------------------------------------------------------------------------------


@dataclass
class CheckReport:
    """The table a notebook prints: each claim's value, its stored value, the check and the verdict."""

    notebook: str
    rows: list = field(default_factory=list)  # (Claim or None, stored dict or None, status)
    compared: bool = True
    message: str = ""

    @property
    def ok(self) -> bool:
        return all(status in ("ok", "not compared", "written") for _, _, status in self.rows) and not any(
            c is not None and c.problem() for c, _, _ in self.rows
        )

    HEAD = ["claim", "reproduced", "stored", "check", "verdict", "against", "at", "kind"]

    def _table(self):
        body, classes = [], []
        for c, s, status in self.rows:
            if c is None:  # stored, not produced
                body.append([s["id"], "-", _fmt(s["reproduced"]), status, "", "", "", s.get("kind", "")])
                classes.append([None, None, None, "fail", None, None, None, None])
                continue
            body.append(
                [
                    c.id,
                    _fmt_pm(c.reproduced, c.se),
                    "-" if s is None else _fmt(s["reproduced"]),
                    status,
                    c.verdict_text(),
                    c.reference(),
                    c.at(),
                    c.kind,
                ]
            )
            classes.append(
                [
                    None,
                    None,
                    None,
                    "agree" if status in ("ok", "written") else "plain" if status == "not compared" else "fail",
                    _VERDICT_CLASS.get(c.verdict(), None),
                    None,
                    None,
                    None,
                ]
            )
        return body, classes

    def __repr__(self) -> str:
        body, _ = self._table()
        out = _text_table(self.HEAD, body)
        if self.message:
            out += "\n" + self.message
        return out

    def _repr_html_(self) -> str:
        body, classes = self._table()
        msg = f"<p class='ldp-check-message'>{html.escape(self.message)}</p>" if self.message else ""
        return "<div class='ldp-scroll'>" + _html_table(self.HEAD, body, "ldp-check", classes) + "</div>" + msg


def check(
    notebook: str, params: dict, claims: list[Claim], *, write: bool | None = None, root: Path | None = None
) -> CheckReport:
    """Check ``claims`` (see the module docstring) and return the table the notebook prints."""
    if write is None:
        write = env_flag(WRITE_ENV)
    if not isinstance(notebook, str):
        raise TypeError(f"notebook must be a path string like 'chapters/<chapter>/<name>.ipynb', got {notebook!r}")
    path = data_path(notebook, root)  # refuses a path outside chapters/<chapter>/
    if not isinstance(params, dict):
        raise TypeError(f"params must be a dict of the notebook's parameters, got {params!r}")
    if not isinstance(claims, (list, tuple)) or not all(isinstance(c, Claim) for c in claims):
        raise TypeError(f"claims must be a list of Claim objects, got {claims!r}")
    if not claims:
        raise ValueError(f"{notebook} produced no claim: a notebook's check must stand for at least one number")
    params = _normalise(params)
    ids = [c.id for c in claims]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise ValueError(f"claim ids must be unique, got {dup} more than once")
    stored = None if write else load(notebook, root)
    report = CheckReport(notebook)
    stored_by_id = {c["id"]: c for c in (stored or {}).get("claims", [])}
    same_params = stored is not None and _normalise(stored.get("params")) == params
    for c in claims:
        s = stored_by_id.get(c.id) if same_params else None
        if write:
            status = "written"
        elif stored is None or (same_params and s is None):
            status = "MISSING"
        elif not same_params:
            status = "not compared"
        else:
            status = "ok" if abs(c.reproduced - s["reproduced"]) <= c.tolerance else "FAIL"
        report.rows.append((c, s, status))
    if same_params:
        for sid, s in stored_by_id.items():
            if sid not in ids:
                report.rows.append((None, s, "NOT PRODUCED"))
    problems = [f"{c.id}: {c.problem()}" for c in claims if c.problem()]
    if problems:  # a violated bound or two computations apart: never stored, whatever was asked
        raise AssertionError(f"check failed for {notebook}:\n{report!r}\n" + "\n".join(problems))
    if write:
        write_atomic(path, {"notebook": notebook, "params": params, "claims": [c.to_dict() for c in claims]})
        report.message = f"stored numbers written to {path.relative_to(root or repo_root())}"
    elif stored is None:
        report.message = f"no stored numbers for {notebook}; run `python -m ldpcode.nbrun --write {notebook}`"
    elif not same_params:
        report.compared = False
        report.message = (
            "parameters differ from the stored ones: nothing compared with data/, nothing "
            "overwritten; verdicts, bounds and exact values are still checked"
        )
    if not report.ok:
        raise AssertionError(f"stored-number check failed for {notebook}:\n{report!r}")
    return report


# --- reading everything back: the reproduction report --------------------------------------------------------


def stored_files(chapter: str | None = None, root: Path | None = None) -> list[Path]:
    """The stored-number files under ``data/`` (or ``data/<chapter>/``), the report's own excluded."""
    base = (root or repo_root()) / "data"
    files = sorted((base / chapter).glob("*.json") if chapter else base.glob("*/*.json"))
    return [f for f in files if f.parent.name != REPORT_CHAPTER]


@dataclass
class Summary:
    """Every stored claim of the book (or of one chapter), as :class:`Claim` objects with their notebook."""

    claims: list  # Claim objects
    notebooks: dict  # claim id -> "chapters/<chapter>/<name>.ipynb"

    def get(self, claim_id: str) -> Claim:
        """The stored claim ``claim_id``."""
        for c in self.claims:
            if c.id == claim_id:
                return c
        raise ValueError(f"no stored claim {claim_id!r} under data/ (run its notebook with --write first)")

    def counts(self, by: str = "kind") -> dict:
        """How many claims of each kind (``by="kind"``) or verdict (``by="verdict"``)."""
        out: dict = {}
        for c in self.claims:
            key = c.kind if by == "kind" else c.verdict()
            out[key] = out.get(key, 0) + 1
        return out

    def stated(self, cites: str | None = None) -> list[Claim]:
        """The claims that judge a paper number (one per stated number), optionally of one paper."""
        return [c for c in self.claims if c.paper is not None and (cites is None or c.cites == cites)]

    def table(self) -> Table:
        head = ["claim", "kind", "reproduced", "verdict", "against", "at"]
        return Table(
            head,
            [[c.id, c.kind, _fmt_pm(c.reproduced, c.se), c.verdict_text(), c.reference(), c.at()] for c in self.claims],
        )

    def __repr__(self) -> str:
        return repr(self.table())

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()


def collect(chapter: str | None = None, root: Path | None = None) -> Summary:
    """All stored claims under ``data/`` (or ``data/<chapter>/``), in file and claim order."""
    claims, notebooks = [], {}
    for f in stored_files(chapter, root):
        payload = _read_json(f)
        for d in payload["claims"]:
            c = Claim.from_dict(d, where=str(f))
            claims.append(c)
            notebooks[c.id] = payload["notebook"]
    return Summary(claims, notebooks)


def _link(notebook: str, text: str, base: str = "..") -> Markup:
    """A link from a page of ``chapters/<x>/`` to the rendered page of ``notebook``."""
    rel = notebook.removeprefix("chapters/").removesuffix(".ipynb") + ".html"
    return Markup(f"<a href='{html.escape(base + '/' + rel)}'>{html.escape(text)}</a>")


@dataclass
class PaperSection:
    """One paper's stated numbers in the reproduction report: one row per stated number."""

    cites: str
    claims: list
    notebooks: dict

    def counts(self) -> dict:
        out = {v: 0 for v in VERDICTS}
        for c in self.claims:
            out[c.verdict()] += 1
        return out

    def headline(self) -> str:
        n = self.counts()
        return f"{len(self.claims)} stated numbers: {n['agrees']} agree, {n['near']} near, {n['disagrees']} disagree"

    HEAD = ["verdict", "stated number", "paper", "reproduced", "at", "why", "notebook"]

    def _rows(self, html_links: bool):
        order = {"disagrees": 0, "near": 1, "agrees": 2}
        body, classes = [], []
        for c in sorted(self.claims, key=lambda c: (order[c.verdict()], self.notebooks[c.id], c.id)):
            nb = self.notebooks[c.id]
            name = nb.removeprefix("chapters/").removesuffix(".ipynb")
            paper = _SENSE_TEXT[c.sense] + _fmt(c.paper)
            body.append(
                [
                    c.verdict_text(),
                    c.source,
                    paper,
                    _fmt_pm(c.reproduced, c.se),
                    c.at(),
                    c.reason,
                    _link(nb, name) if html_links else name,
                ]
            )
            classes.append([_VERDICT_CLASS[c.verdict()]] + [None] * 6)
        return body, classes

    def __repr__(self) -> str:
        body, _ = self._rows(False)
        return f"{PAPERS[self.cites]}\n{self.headline()}\n" + _text_table(self.HEAD, body)

    def _repr_html_(self) -> str:
        """Two rows per stated number, so that the table fits a page beside the book's sidebars: the numbers
        (verdict, stated number, paper, reproduced, at), then the reason and the link to the notebook."""
        body, classes = self._rows(True)
        head = "".join(f"<th>{html.escape(h)}</th>" for h in self.HEAD[:5])
        rows = []
        for r, cls in zip(body, classes):
            verdict, source, paper, reproduced, at, why, link = r
            cells = [f"<td class={cls[0]!r}>{html.escape(verdict)}</td>"] + [
                f"<td>{html.escape(str(x))}</td>" for x in (source, paper, reproduced, at)
            ]
            rows.append("<tr class='ldp-main'>" + "".join(cells) + "</tr>")
            rows.append(
                f"<tr class='ldp-why'><td colspan='5'><span class='ldp-why-label'>why:</span> "
                f"{html.escape(why)} <span class='ldp-nb'>(notebook: {link})</span></td></tr>"
            )
        return (
            f"<p class='ldp-headline'>{html.escape(self.headline())}</p><div class='ldp-scroll'>"
            f"<table class='ldp-report'><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
            "</div>"
        )


def paper_section(summary: Summary, cites: str) -> PaperSection:
    """The report's section for the paper ``cites`` (a key of :data:`PAPERS`)."""
    if cites not in PAPERS:
        raise ValueError(f"cites must be one of {', '.join(PAPERS)}, got {cites!r}")
    return PaperSection(cites, summary.stated(cites), summary.notebooks)


@dataclass
class ClaimList:
    """Every stored claim, collapsed under a summary line in the rendered book."""

    summary: Summary

    HEAD = ["claim", "kind", "reproduced", "verdict", "against", "at", "notebook"]

    def _rows(self, html_links: bool):
        body, classes = [], []
        for c in self.summary.claims:
            nb = self.summary.notebooks[c.id]
            name = nb.removeprefix("chapters/").removesuffix(".ipynb")
            body.append(
                [
                    c.id,
                    c.kind,
                    _fmt_pm(c.reproduced, c.se),
                    c.verdict_text(),
                    c.reference(),
                    c.at(),
                    _link(nb, name) if html_links else name,
                ]
            )
            classes.append([None, None, None, _VERDICT_CLASS.get(c.verdict()), None, None, None])
        return body, classes

    def __repr__(self) -> str:
        return _text_table(self.HEAD, self._rows(False)[0])

    def _repr_html_(self) -> str:
        body, classes = self._rows(True)
        counts = ", ".join(f"{n} {k}" for k, n in sorted(self.summary.counts().items()))
        return (
            f"<details class='ldp-all-claims'><summary>All {len(body)} stored claims ({counts}): "
            f"click to open</summary><div class='ldp-scroll'>"
            + _html_table(self.HEAD, body, "ldp-check", classes)
            + "</div></details>"
        )
