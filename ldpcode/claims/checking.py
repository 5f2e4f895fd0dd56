"""The check a notebook runs at its end: its fresh claims against its stored numbers.

:func:`check` compares the freshly computed claims with the stored ones:

* stored params equal to the notebook's params: every claim must land within its ``tolerance`` of the
  stored ``reproduced``, every stored claim must be produced, and no claim may be missing from the file;
  otherwise an ``AssertionError`` fails the notebook (and nbval);
* different params (a reader's re-run): nothing is compared with the stored file and nothing is
  overwritten; the two computations of exact claims, the bounds and the book's predictions are still checked,
  and a claim on a paper's number shows the number beside the paper's without a verdict (:data:`NOT_JUDGED`);
* writing happens only when asked: ``check(..., write=True)`` or the environment variable
  ``LDPCODE_WRITE_CLAIMS`` set to ``1``, ``true`` or ``yes``. The file is written atomically.

It returns a :class:`CheckReport`, the table the notebook prints. At the stored params a claim whose number
stays within its tolerance still fails (``CHANGED: ...``) when a field that decides its verdict changed
(:data:`GUARDED`, and the verdict read back from the stored claim): the paper number and the statement it is
judged against can no more move silently than the number itself.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from pathlib import Path

from .._paths import repo_root
from .core import Claim
from .store import WRITE_ENV, _normalise, data_path, env_flag, load, write_atomic
from .tables import (
    _VERDICT_CLASS,
    Markup,
    _html_two_line_table,
    _id_html,
    _prose,
    _text_table,
    format_pm,
    format_value,
)


#: the verdict column of a claim on a paper's number at parameters other than the stored ones: the book's verdicts
#: weigh the paper's statement at the book's own settings (a horizon, an instance, the paper's runs), so a re-run at
#: T = 10⁴ that said "disagrees" with a number the paper reads off a run to 10⁷ said something false
NOT_JUDGED = "not judged: other parameters"

#: the fields that decide a verdict besides the number itself: any change fails the check, as a moved number does
GUARDED = (
    "kind",
    "statement",
    "cites",
    "category",
    "quote",
    "locator",
    "paper",
    "paper_unit",
    "sense",
    "paper_horizon",
    "paper_runs",
    "runs",
    "margin",
    "systematic",
    "predicted",
    "derived_in",
    "bound",
    "horizon",
    "t_joint",
)


def evidence_changes(claim: Claim, stored: dict) -> list[str]:
    """The verdict-deciding fields of ``claim`` that differ from its stored form, and ``verdict`` when the stored
    claim, read back, gives another verdict than the fresh one (an edited ``se`` or horizon range does). Numbers
    compare at 1e-9 relative, except ``se``, which may move by 25% (the standard error of a standard error) before
    it counts as changed."""
    out = []
    fresh = claim.to_dict()
    stored = {**type(claim).defaults(), **stored}  # a field an older file lacks reads as its default
    for name in GUARDED:
        a, b = fresh.get(name), stored.get(name)
        if isinstance(a, float) and isinstance(b, (int, float)) and not isinstance(b, bool):
            if not math.isclose(a, b, rel_tol=1e-9, abs_tol=0.0):
                out.append(name)
        elif a != b:
            out.append(name)
    se_a, se_b = claim.se, stored.get("se", 0.0)
    if not isinstance(se_b, (int, float)) or abs(se_a - se_b) > 0.25 * max(se_a, 1e-300):
        out.append("se")
    try:
        if Claim.from_dict(stored).verdict() != claim.verdict():
            out.append("verdict")
    except (TypeError, ValueError) as e:
        out.append(f"stored claim invalid ({e})")
    return out


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

    #: "re-run": whether this run reproduced the stored number ("ok"), not whether the paper agrees ("verdict")
    HEAD = ["claim", "reproduced", "stored", "re-run", "verdict", "against", "at", "kind"]
    #: the rendered book's columns: the rest of HEAD goes on a second line under each claim
    HTML_HEAD = ["claim", "reproduced", "re-run", "verdict"]

    def _table(self):
        body, classes = [], []
        for c, s, status in self.rows:
            # at parameters other than the stored ones, a paper's number is shown, not judged (NOT_JUDGED)
            judged = c is None or self.compared or getattr(c, "paper", None) is None
            if c is None:  # stored, not produced
                body.append([s["id"], "-", format_value(s["reproduced"]), status, "", "", "", s.get("kind", "")])
                classes.append([None, None, None, "fail", None, None, None, None])
                continue
            body.append(
                [
                    c.id,
                    format_pm(c.reproduced, c.se),
                    "-" if s is None else format_value(s["reproduced"]),
                    status,
                    c.verdict_text() if judged else NOT_JUDGED,
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
                    _VERDICT_CLASS.get(c.verdict(), None) if judged else "plain",
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
        main = [[_id_html(r[0]), r[1], r[3], r[4]] for r in body]
        cls = [[k[0], k[1], k[3], k[4]] for k in classes]
        # a bound row names its bound ("Theorem 4 at T"), so "holds (35% of it)" says of what
        details = [
            [("stored", r[2]), ("against", r[5]), ("bound", _bound_how(c)), ("at", r[6]), ("kind", r[7])]
            for r, (c, _, _) in zip(body, self.rows, strict=True)
        ]
        msg = f"<p class='ldp-check-message'>{html.escape(self.message)}</p>" if self.message else ""
        return (
            "<div class='ldp-scroll'>"
            + _html_two_line_table(self.HTML_HEAD, main, details, "ldp-check", cls)
            + "</div>"
            + msg
        )


def _bound_how(c) -> str | Markup:
    """A bound claim's ``how`` (which bound it is), as the report writes it; "" for any other row."""
    return Markup(_prose(c.how)) if c is not None and c.kind == "bound" else ""


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
        elif abs(c.reproduced - s["reproduced"]) > c.tolerance:
            status = "FAIL"
        else:
            moved = evidence_changes(c, s)
            status = "ok" if not moved else "CHANGED: " + ", ".join(moved)
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
            "parameters differ from the stored ones: nothing compared with data/, nothing overwritten; bounds, "
            "exact values and the book's predictions are still checked, and no number is judged against a paper "
            "(the book's verdicts are for its own parameters: its page)"
        )
    if not report.ok:
        raise AssertionError(f"stored-number check failed for {notebook}:\n{report!r}")
    return report
