r"""The rows, tables, claims and figures of the appendix's privacy audit (``chapters/appendix/privacy_audit.ipynb``).

Each audited mechanism becomes one row, a dict with the keys of :data:`ROW_KEYS`: its ``group`` (the paper), its
``mechanism`` label, its ``kind`` (``"genuine"``, ``"broken"`` or ``"swapped"``), the ``claimed`` ε and ``delta``,
the ``exact`` loss (nan where no closed form is known), the audit's (1 - α) lower confidence bound ``lower``, its
plug-in ``estimate`` and standard error ``se``, the ``pair`` of inputs where the bound is attained, the number of
inputs ``rejected`` and whether the claim is ``refuted``. :func:`audit_row` builds it from a
:func:`~ldpcode.audit.curators.curator_audit`, :func:`ratio_row` from a binned log-ratio (Lemma 1's private means,
the action sequences of Theorem 6 of Azize and Basu 2022), :func:`audit_curators` audits Ren et al.'s four
curators at several levels. :func:`audit_table` shows rows, :func:`claim_lower_bound` turns one into a claim, and
:func:`plot_audit_ratios` and :func:`plot_reachable` draw the appendix's two figures.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .._validate import check_choice, check_int, check_real
from ..claims.tables import format_number, format_value
from .curators import CuratorAudit, curator_audit

#: Ren et al.'s four curators (Curators 1, 3, 5 and 6; Lemmas 2, 5, 8 and 9), in the order the appendix audits them
CURATORS = ("CTL", "CTB", "CTL-S", "CTB-S")

#: the keys of a row, in order
ROW_KEYS = (
    "group", "mechanism", "kind", "claimed", "delta", "exact", "lower", "estimate", "se", "pair", "rejected",
    "refuted", "note",
)  # fmt: skip

#: the kinds of row: a mechanism that keeps its claim, one whose privacy is broken, the private swapped CTB
KINDS = ("genuine", "broken", "swapped")


def format_loss(x, digits: int = 3) -> str:
    """A privacy loss as a table cell: ``"-"`` for ``None`` or nan (no value), ``"inf"`` or ``"-inf"``, otherwise
    rounded to ``digits`` decimals with a negative zero written ``0.000``; from 10³ on (a capped bound), the book's
    number format (:func:`~ldpcode.claims.tables.format_value`: ``1,000,000``)."""
    if x is None:
        return "-"
    if not isinstance(x, numbers.Real) or isinstance(x, bool):
        raise TypeError(f"x must be a real number or None, got {x!r} of type {type(x).__name__}")
    digits = check_int("digits", digits, minimum=0)
    x = float(x)
    if math.isnan(x):
        return "-"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if abs(round(x, digits)) >= 1e3:
        return format_value(round(x, digits))
    return f"{round(x, digits) + 0.0:.{digits}f}"


def _row(group, mechanism, kind, claimed, delta, exact, lower, estimate, se, pair, rejected, refuted, note):
    if not isinstance(group, str) or not isinstance(mechanism, str) or not isinstance(note, str):
        raise TypeError(f"group, mechanism and note must be strings, got {group!r}, {mechanism!r}, {note!r}")
    kind = check_choice("kind", kind, KINDS)
    values = (group, mechanism, kind, claimed, delta, exact, lower, estimate, se, pair, rejected, refuted, note)
    return dict(zip(ROW_KEYS, values, strict=True))


def audit_row(group: str, mechanism: str, res, kind: str = "genuine", note: str = "") -> dict:
    """The row of one black-box curator audit ``res`` (a :class:`~ldpcode.audit.curators.CuratorAudit`): its
    claim, exact loss, lower bound, plug-in estimate, standard error, worst pair, the number of refused inputs and
    whether the claim is refuted. It records the audit of every curator of the appendix (Lemmas 2, 5, 8, 9 of Ren
    et al. 2020, the heterogeneous curators, Theorem 2 of Zheng et al. 2020, the broken and the vetted curators)."""
    if not isinstance(res, CuratorAudit):
        raise TypeError(f"res must be a CuratorAudit (ldpcode.audit.curator_audit), got {type(res).__name__}")
    return _row(group, mechanism, kind, res.epsilon, res.delta, res.exact, res.lower, res.estimate, res.se,
                res.worst_pair, len(res.rejected), res.refuted, note)  # fmt: skip


def ratio_row(group: str, mechanism: str, res, epsilon, *, exact=math.nan, kind: str = "genuine") -> dict:
    r"""The row of a binned log-ratio audit between two neighbouring inputs r and r' (``res``: a
    :class:`~ldpcode.audit.ratios.BinnedLogRatio`, such as Lemma 1's ``lemma1_audit(...).binned``, or an
    :class:`~ldpcode.audit.gdp.ActionSequenceAudit` of Theorem 6 of Azize and Basu 2022) claiming pure ``epsilon``:
    ``lower`` is its ``max_lower``, ``estimate`` the largest finite :math:`|\log(p_{r,k}/p_{r',k})|` over the bins
    k, ``se`` the standard error in the bin of ``max_lower``, ``refuted`` whether ``max_lower`` exceeds ``epsilon``.
    It records Lemma 1 (the private means are ε-DP) and Theorem 6 (AdaP-UCB and AdaP-KLUCB are ε-global DP) of
    Azize and Basu 2022."""
    if not all(hasattr(res, a) for a in ("log_ratio", "se", "max_lower", "argmax")):
        raise TypeError(f"res must have log_ratio, se, max_lower and argmax, got {type(res).__name__}")
    eps = check_real("epsilon", epsilon)
    log_ratio = np.asarray(res.log_ratio, dtype=float)
    if not np.isfinite(log_ratio).any():
        raise ValueError("res.log_ratio has no finite value: no bin was seen under both inputs")
    estimate = float(np.max(np.abs(log_ratio[np.isfinite(log_ratio)])))
    return _row(group, mechanism, kind, eps, 0.0, exact, res.max_lower, estimate, float(res.se[res.argmax]),
                ("r", "r'"), 0, bool(res.max_lower > eps), "")  # fmt: skip


def audit_curators(make, levels, label: str, samples: int, seed, *, group: str, bins: int = 10, alpha=0.05) -> list:
    """Audit each of Ren et al.'s four curators (:data:`CURATORS`) at each privacy level of ``levels``, the levels
    outermost: :func:`~ldpcode.audit.curators.curator_audit` of ``make(name, level)`` with ``samples`` outputs per
    input, seed ``[*seed, i, j]`` (level i, curator j), and the rows (:func:`audit_row`) labelled
    ``label.format(name=name, eps=level)``. This serves Lemmas 2, 5, 8 and 9 of Ren et al. 2020: each curator is
    ε-LDP at its level."""
    if not isinstance(label, str):
        raise TypeError(f"label must be a format string with {{name}} and {{eps}}, got {label!r}")
    if not callable(make):
        raise TypeError(f"make must be callable as make(name, level), got {make!r}")
    if not isinstance(seed, (list, tuple)) or not all(isinstance(s, numbers.Integral) for s in seed):
        raise TypeError(f"seed must be a list of integers (the prefix of each audit's seed), got {seed!r}")
    rows = []
    for i, eps in enumerate(levels):
        for j, name in enumerate(CURATORS):
            res = curator_audit(make(name, eps), samples, [*seed, i, j], bins=bins, alpha=alpha)
            rows.append(audit_row(group, label.format(name=name, eps=eps), res))
    return rows


def verdict(row: dict) -> str:
    """``"REFUTED"`` when the audit refutes the row's claim; ``"FAILS (exact; audit blind)"`` when the audit does not
    but the exact loss exceeds the claim by more than 1e-9 (the claim is false, by the closed form: a leak the
    audit's samples cannot reach; "passes" read as a pass); else ``"passes"``."""
    if row["refuted"]:
        return "REFUTED"
    return "FAILS (exact; audit blind)" if row["exact"] > row["claimed"] + 1e-9 else "passes"


def _pair(row):
    """The worst pair of inputs as a reader writes it: (0, 1), (-10⁶, 10⁶), and a named pair (r, r′), not Python's
    (0.0, 1.0) and ('r', "r'")."""
    pair = row["pair"]
    if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
        return str(pair)
    return "(" + ", ".join(v.replace("'", "′") if isinstance(v, str) else format_number(float(v)) for v in pair) + ")"


def _two(x):
    return format_loss(x, 2)


def _g(x):
    return format_number(x)


# column: (header, its value in a row, its number format: None for text)
_COLUMNS = {
    "group": ("group", lambda r: r["group"], None),
    "mechanism": ("mechanism", lambda r: r["mechanism"], None),
    "claimed": ("claimed ε", lambda r: r["claimed"], _two),
    "delta": ("δ", lambda r: r["delta"], _g),
    "exact": ("exact", lambda r: r["exact"], format_loss),
    "lower": ("audited ≥", lambda r: r["lower"], format_loss),
    "estimate": ("plug-in", lambda r: r["estimate"], format_loss),
    "pair": ("worst pair", _pair, None),
    "rejected": ("inputs refused", lambda r: r["rejected"], "d"),
    "verdict": ("verdict", verdict, None),
}


def _text(x, spec) -> str:
    return x if spec is None else (spec(x) if callable(spec) else format(x, spec))


#: the columns of the curator tables
CURATOR_COLUMNS = ("mechanism", "claimed", "exact", "lower", "estimate", "pair", "rejected")
#: the columns of the appendix's table of every audited mechanism
SUMMARY_COLUMNS = ("group", "mechanism", "claimed", "delta", "exact", "lower", "estimate", "pair", "verdict")


def audit_table(rows, columns=CURATOR_COLUMNS, *, align_numbers: bool = False):
    """The rows as a :class:`ldpcode.claims.Table` with the given ``columns`` (keys of ``group``, ``mechanism``,
    ``claimed``, ``delta``, ``exact``, ``lower``, ``estimate``, ``pair``, ``rejected``, ``verdict``): losses to
    three decimals (:func:`format_loss`), the claim to two, the worst pair as (0, 1) or (-10⁶, 10⁶), the verdict
    of :func:`verdict`. With ``align_numbers`` the numbers are right-aligned (the table formats them), otherwise
    every cell is left-aligned text. It shows the audited privacy loss against each mechanism's claim (Definition 1
    of Ren et al. 2020, Definition 2 of Azize and Basu 2022)."""
    from ..claims import Table

    columns = tuple(columns)
    if not columns or any(c not in _COLUMNS for c in columns):
        raise ValueError(f"columns must be a non-empty list of {sorted(_COLUMNS)}, got {list(columns)!r}")
    head = [_COLUMNS[c][0] for c in columns]
    body = [[_COLUMNS[c][1](r) for c in columns] for r in rows]
    specs = [_COLUMNS[c][2] for c in columns]
    if align_numbers:
        return Table(head, body, formats=specs)
    return Table(head, [[_text(x, spec) for x, spec in zip(row, specs, strict=True)] for row in body])


def mean_audit_table(means):
    """The mean audit ``means`` (:func:`~ldpcode.audit.curators.output_mean_audit`) as a
    :class:`ldpcode.claims.Table`: each reward r, the mean of the answers Lemma 5 of Ren et al. 2020 claims for
    CTB, the sampled mean and its z-score (to one decimal)."""
    from ..claims import Table

    if not all(hasattr(means, a) for a in ("rewards", "claimed", "mean", "z")):
        raise TypeError(f"means must be an OutputMeanAudit (output_mean_audit), got {type(means).__name__}")
    body = [list(v) for v in zip(means.rewards, means.claimed, means.mean, np.round(means.z, 1), strict=True)]
    return Table(["r", "claimed (Lemma 5)", "sampled", "z"], body, formats=["g", ".4f", ".4f", ".1f"])


def single_sequence_reason(res) -> str:
    """Why a tolerance of 4 standard errors does not fit the lower bound of an action-sequence audit ``res`` (an
    :class:`~ldpcode.audit.gdp.ActionSequenceAudit`, Theorem 6 of Azize and Basu 2022): the bound is read on the
    one sequence ``res.sequences[res.argmax]``, seen few times, so its standard error is a large share of it; the
    text gives the two counts, that share, and by how many standard errors the bound stays below ε."""
    if not all(hasattr(res, a) for a in ("sequences", "counts_a", "counts_b", "runs", "epsilon", "se", "max_lower")):
        raise TypeError(f"res must be an ActionSequenceAudit (action_sequence_audit), got {type(res).__name__}")
    k = res.argmax
    se = res.se[k]
    return (
        f"the bound is read on one action sequence, {res.sequences[k]}, seen {res.counts_a[k]} and "
        f"{res.counts_b[k]} times in {res.runs:,} runs under r and r': its log-ratio's se, {se:.2f}, is "
        f"{se / res.max_lower:.0%} of the bound, so 4 se exceed it; the claim is the inequality lower bound <= ε, "
        f"which holds by {(res.epsilon - res.max_lower) / se:.1f} se"
    )


def claim_lower_bound(nb, cid: str, row: dict, which: str, *, level: float, sense: str = "<=", **kwargs) -> None:
    """Claim ``cid`` of notebook ``nb`` (:class:`ldpcode.book.Notebook`): the row's lower confidence bound, at
    confidence ``level`` (1 - alpha of the audit that made the row), on the privacy loss, with its standard error, against the claimed ε, a bound claim (``sense`` ``"<="``: the
    mechanism keeps its claim; ``">="``: the audit must refute it, a control broken on purpose, "caught, as
    intended"); ``which`` names the result the claim rests on (such as Lemma 2 of Ren et al. 2020), ``kwargs`` go
    to ``nb.bound`` (e.g. ``tolerance_reason``)."""
    if sense not in ("<=", ">="):
        raise ValueError(f"sense must be '<=' or '>=', got {sense!r}")
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level!r}")
    nb.bound(
        cid, f"audit: {row['mechanism']}, {100 * level:g} % lower confidence bound on the privacy loss", reproduced=row["lower"],
        se=row["se"], bound=row["claimed"], sense=sense, how=f"the claimed ε; {which}",
        note=f"exact loss {format_loss(row['exact'])}; se: delta method on the event where the bound is attained",
        control=sense == ">=", **kwargs,
    )  # fmt: skip


def plot_audit_ratios(rows, cap: float = 3.2):
    """The appendix's figure of every row with a positive claim: the audited lower bound (bars of 1.96 se) and the
    exact loss, both divided by the claimed ε, against the claimed ε on a log axis, by kind (genuine, broken,
    swapped); ratios above ``cap`` are drawn at ``cap``. Above 1 a claim is refuted (the genuine mechanisms of
    Ren et al. 2020, Zheng et al. 2020 and Azize and Basu 2022 stay below it). Returns the figure."""
    import matplotlib.pyplot as plt

    from ..plotting import THEORY_STYLE

    if check_real("cap", cap) <= 0:
        raise ValueError(f"cap must be > 0, got {cap!r}")
    fig, ax = plt.subplots(figsize=(7.8, 5.2))  # the book's column at 1280 px: drawn at its own size
    kinds = {"genuine": ("C0", "o", "genuine"), "broken": ("C3", "X", "broken (privacy)"),
             "swapped": ("C1", "s", "swapped CTB (private)")}  # fmt: skip
    for kind, (col, mk, lab) in kinds.items():
        sel = [r for r in rows if r["kind"] == kind and r["claimed"] > 0]
        x = np.array([r["claimed"] for r in sel])
        y = np.array([min(r["lower"] / r["claimed"], cap) for r in sel])
        ex = np.array([min(r["exact"] / r["claimed"], cap) if not math.isnan(r["exact"]) else np.nan for r in sel])
        err = np.array([1.96 * r["se"] / r["claimed"] if np.isfinite(r["se"]) else 0.0 for r in sel])
        ax.errorbar(x * (1 + 0.04 * (kind == "broken")), y, yerr=err, fmt=mk, color=col, ms=6, capsize=2, lw=0.8,
                    label=f"{lab}: audited lower bound")  # fmt: skip
        ax.plot(x * (1 + 0.04 * (kind == "broken")), ex, mk, mfc="none", color=col, ms=10, mew=0.8,
                label=f"{lab}: exact")  # fmt: skip
    ax.axhline(1.0, color="k", **THEORY_STYLE, label="claimed ε (refuted above)")
    ax.axhline(cap, color="0.6", lw=0.6)
    ax.set_xscale("log")
    ax.set_ylim(-0.1, cap + 0.15)
    ax.set_xlabel("claimed ε")
    ax.set_ylabel("privacy loss / claimed ε")
    ax.set_title(f"Claimed, exact and audited privacy loss of every row of the table\n(95% lower bounds, bars ± "
                 f"1.96 se; values above {cap:g} drawn at {cap:g})", fontsize=10)  # fmt: skip
    ax.legend(fontsize=8, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.16))  # below: no marker under it
    fig.tight_layout()
    return fig


def plot_reachable(reach: dict, epsilon, start: float):
    """The appendix's picture of Mironov's attack (Mironov 2012) on CTL, Curator 1 of Ren et al. 2020: for each of
    consecutive doubles ``start + j ulp``, whether CTL(``epsilon``) can output it from input 0 and from input 1
    (``reach[0.0]`` and ``reach[1.0]``, boolean arrays of one length, as from
    :func:`~ldpcode.audit.floating.laplace_float_reachable`), and from both. Returns the figure."""
    import matplotlib.pyplot as plt

    if set(reach) != {0.0, 1.0}:
        raise ValueError(f"reach must map the inputs 0.0 and 1.0 to boolean arrays, got keys {list(reach)!r}")
    reach = {r: np.asarray(v) for r, v in reach.items()}
    if any(v.dtype != bool or v.ndim != 1 for v in reach.values()) or reach[0.0].shape != reach[1.0].shape:
        raise ValueError("reach[0.0] and reach[1.0] must be boolean arrays of one length")
    window = reach[0.0].size
    both = reach[0.0] & reach[1.0]
    fig, ax = plt.subplots(figsize=(7.8, 2.6))  # the book's column at 1280 px: drawn at its own size
    j = np.arange(window)
    for k, (r, col) in enumerate(((0.0, "C0"), (1.0, "C3"))):
        ax.vlines(j[reach[r]], k + 0.1, k + 0.9, color=col, lw=1.5, label=f"reachable from r = {r:g}")
    ax.vlines(j[both], -0.9, -0.1, color="k", lw=1.5, label="from both")
    ax.set_yticks([-0.5, 0.5, 1.5], labels=["both", "r = 0", "r = 1"])
    ax.set_xlabel(f"double number j after {start:g} (x = {start:g} + j ulp)")
    ax.set_title(f"Which outputs near {start:g} can CTL(ε = {epsilon:g}) produce, from input 0 and from input 1\n"
                 "(numpy's Laplace sampler, exact)", fontsize=10)  # fmt: skip
    ax.set_xlim(-1, window)
    fig.tight_layout()
    return fig
