"""ldpcode.audit.report: the rows, tables, claims and figures of the appendix's privacy audit, checked by hand."""

import math
from types import SimpleNamespace

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import ldpcode as ldp  # noqa: E402
from ldpcode.audit import report  # noqa: E402
from ldpcode.audit.curators import CuratorAudit, curator_audit  # noqa: E402


def _audit(lower=0.9, epsilon=1.0, exact=1.0, pair=(0.0, 1.0), rejected=(-1.0, 2.0)):
    return CuratorAudit(
        name="CTL", epsilon=epsilon, delta=0.0, inputs=(0.0, 1.0), rejected=rejected, samples=10, alpha=0.05,
        method="binned", discrete=False, events=3, lower=lower, estimate=1.1, worst_pair=pair,
        pair_lower=np.zeros((2, 2)), exact=exact, se=0.05,
    )  # fmt: skip


def _row(**kw):
    row = dict(group="g", mechanism="M", kind="genuine", claimed=1.0, delta=0.0, exact=1.0, lower=0.9, estimate=1.1,
               se=0.05, pair=(0.0, 1.0), rejected=2, refuted=False, note="")  # fmt: skip
    row.update(kw)
    return row


# ---------------------------------------------------------------- format_loss


@pytest.mark.parametrize(
    "x, digits, text",
    [
        (None, 3, "-"),
        (math.nan, 3, "-"),
        (np.float64("nan"), 3, "-"),
        (math.inf, 3, "inf"),
        (-math.inf, 3, "-inf"),
        (1.23456, 3, "1.235"),
        (1.23456, 2, "1.23"),
        (-0.0001, 3, "0.000"),  # no negative zero
        (-0.0006, 3, "-0.001"),
        (2, 1, "2.0"),
        (np.float32(0.5), 3, "0.500"),
        (36.043653, 6, "36.043653"),
    ],
)
def test_format_loss_by_hand(x, digits, text):
    assert report.format_loss(x, digits) == text


def test_format_loss_refuses_non_numbers_and_bad_digits():
    with pytest.raises(TypeError, match=r"^x must be a real number or None, got '1' of type str$"):
        report.format_loss("1")
    with pytest.raises(TypeError, match="got True of type bool"):
        report.format_loss(True)
    with pytest.raises(ValueError, match="digits"):
        report.format_loss(1.0, -1)


# ---------------------------------------------------------------- rows


def test_audit_row_copies_the_audit():
    row = report.audit_row("Ren et al. 2020", "CTL(ε = 1)", _audit(lower=1.2), kind="broken", note="n")
    assert tuple(row) == report.ROW_KEYS
    assert row == dict(group="Ren et al. 2020", mechanism="CTL(ε = 1)", kind="broken", claimed=1.0, delta=0.0,
                       exact=1.0, lower=1.2, estimate=1.1, se=0.05, pair=(0.0, 1.0), rejected=2, refuted=True,
                       note="n")  # fmt: skip
    assert report.audit_row("g", "m", _audit(lower=0.9))["refuted"] is False


def test_audit_row_refuses_bad_input():
    with pytest.raises(TypeError, match=r"^res must be a CuratorAudit .*got dict$"):
        report.audit_row("g", "m", {})
    with pytest.raises(ValueError, match="kind"):
        report.audit_row("g", "m", _audit(), kind="fake")
    with pytest.raises(TypeError, match="must be strings"):
        report.audit_row("g", 3, _audit())


def test_ratio_row_by_hand():
    res = SimpleNamespace(log_ratio=np.array([0.5, -1.5, np.inf, np.nan]), se=np.array([0.1, 0.2, 0.3, 0.4]),
                          max_lower=1.2, argmax=1)  # fmt: skip
    row = report.ratio_row("Azize and Basu 2022", "Lemma 1", res, 1.0, exact=1.0)
    assert tuple(row) == report.ROW_KEYS
    assert (row["claimed"], row["delta"], row["exact"], row["lower"]) == (1.0, 0.0, 1.0, 1.2)
    assert row["estimate"] == 1.5  # the largest finite |log ratio|: inf and nan are left out
    assert row["se"] == 0.2  # the se in the bin of max_lower
    assert (row["pair"], row["rejected"], row["refuted"], row["note"]) == (("r", "r'"), 0, True, "")
    kept = report.ratio_row("g", "m", res, 2.0, kind="broken")
    assert kept["refuted"] is False and math.isnan(kept["exact"]) and kept["kind"] == "broken"


def test_ratio_row_on_a_real_binned_log_ratio():
    rng = np.random.default_rng(3)
    res = ldp.audit.binned_log_ratio(rng.laplace(0, 1, 20_000), rng.laplace(1, 1, 20_000), bins=8)
    row = report.ratio_row("g", "m", res, 1.0)
    assert row["lower"] == res.max_lower and row["se"] == res.se[res.argmax]
    finite = res.log_ratio[np.isfinite(res.log_ratio)]
    assert row["estimate"] == np.abs(finite).max()


def test_ratio_row_refuses_bad_input():
    with pytest.raises(TypeError, match=r"^res must have log_ratio, se, max_lower and argmax, got int$"):
        report.ratio_row("g", "m", 3, 1.0)
    res = SimpleNamespace(log_ratio=[0.1], se=[0.1], max_lower=0.0, argmax=0)
    with pytest.raises(ValueError, match="epsilon"):
        report.ratio_row("g", "m", res, math.nan)
    unseen = SimpleNamespace(log_ratio=[np.inf, np.nan], se=[0.1, 0.1], max_lower=0.0, argmax=0)
    with pytest.raises(ValueError, match=r"^res.log_ratio has no finite value: no bin was seen under both inputs$"):
        report.ratio_row("g", "m", unseen, 1.0)


def test_audit_curators_order_seeds_and_labels():
    made = []

    def make(name, eps):
        made.append((name, eps))
        return ldp.make_curator(name, eps)

    rows = report.audit_curators(make, [0.5, 2.0], "{name} at {eps:g}", 1000, [7, 1], group="G", bins=4, alpha=0.1)
    assert made == [(n, e) for e in (0.5, 2.0) for n in report.CURATORS]  # levels outermost
    assert [r["mechanism"] for r in rows[:5]] == [
        "CTL at 0.5",
        "CTB at 0.5",
        "CTL-S at 0.5",
        "CTB-S at 0.5",
        "CTL at 2",
    ]
    assert all(r["group"] == "G" and r["kind"] == "genuine" for r in rows)
    # level 1, curator 1 (CTB at 2) is audited with seed [7, 1, 1, 1]
    alone = curator_audit(ldp.make_curator("CTB", 2.0), 1000, [7, 1, 1, 1], bins=4, alpha=0.1)
    assert rows[5] == report.audit_row("G", "CTB at 2", alone)


def test_audit_curators_refuses_bad_input():
    with pytest.raises(TypeError, match=r"^seed must be a list of integers"):
        report.audit_curators(ldp.make_curator, [1.0], "{name}", 1000, 7, group="G")
    with pytest.raises(TypeError, match=r"^label must be a format string with \{name\} and \{eps\}, got 3$"):
        report.audit_curators(ldp.make_curator, [1.0], 3, 1000, [7], group="G")
    with pytest.raises(TypeError, match=r"^make must be callable"):
        report.audit_curators("CTL", [1.0], "{name}", 1000, [7], group="G")


def test_verdict_by_hand():
    assert report.verdict(_row(refuted=True, exact=2.0)) == "REFUTED"
    assert report.verdict(_row(exact=1.0 + 1e-10)) == "passes"
    assert report.verdict(_row(exact=1.0 + 1e-8)) == "FAILS (exact; audit blind)"  # "passes (...)" read as a pass
    assert report.verdict(_row(exact=math.nan)) == "passes"


# ---------------------------------------------------------------- tables


def test_audit_table_as_text():
    rows = [_row(pair=(-1000000.0, 1000000.0), exact=math.nan, delta=1e-06), _row(refuted=True, lower=1.23456)]
    table = report.audit_table(rows, ["mechanism", "claimed", "delta", "exact", "lower", "pair", "rejected", "verdict"])
    assert table.head == [
        "mechanism",
        "claimed ε",
        "δ",
        "exact",
        "audited ≥",
        "worst pair",
        "inputs refused",
        "verdict",
    ]
    assert table.formats is None
    assert table.body == [
        ["M", "1.00", "10⁻⁶", "-", "0.900", "(-10⁶, 10⁶)", "2", "passes"],
        ["M", "1.00", "0", "1.000", "1.235", "(0, 1)", "2", "REFUTED"],
    ]
    assert repr(table).splitlines()[2].startswith("M          1.00       10⁻⁶  -      0.900")  # left-aligned


def test_audit_table_with_aligned_numbers():
    table = report.audit_table([_row(lower=0.91234)], align_numbers=True)
    assert table.head == ["mechanism", "claimed ε", "exact", "audited ≥", "plug-in", "worst pair", "inputs refused"]
    assert table.body == [["M", 1.0, 1.0, 0.91234, 1.1, "(0, 1)", 2]]
    lines = repr(table).splitlines()
    assert lines[2] == "M               1.00  1.000      0.912    1.100  (0, 1)" + " " * 19 + "2"  # right-aligned
    assert report.audit_table([_row()], report.SUMMARY_COLUMNS).body[0][:4] == ["g", "M", "1.00", "0"]


def test_audit_table_refuses_unknown_columns():
    with pytest.raises(ValueError, match=r"^columns must be a non-empty list of .*got \['mechanism', 'eps'\]$"):
        report.audit_table([_row()], ["mechanism", "eps"])
    with pytest.raises(ValueError, match="non-empty"):
        report.audit_table([_row()], [])


def test_mean_audit_table_by_hand():
    means = SimpleNamespace(rewards=np.array([0.0, 1.0]), claimed=np.array([0.25, 0.75]), mean=np.array([0.3, 0.7]),
                            z=np.array([1.26, -1.24]))  # fmt: skip
    table = report.mean_audit_table(means)
    assert table.head == ["r", "claimed (Lemma 5)", "sampled", "z"]
    assert [[float(v) for v in row] for row in table.body] == [[0.0, 0.25, 0.3, 1.3], [1.0, 0.75, 0.7, -1.2]]
    assert repr(table).splitlines()[2:] == [
        "0             0.2500   0.3000   1.3",
        "1             0.7500   0.7000  -1.2",
    ]
    with pytest.raises(TypeError, match=r"^means must be an OutputMeanAudit .*got list$"):
        report.mean_audit_table([])


def test_single_sequence_reason_by_hand():
    res = SimpleNamespace(sequences=["0101", "0110"], counts_a=[10, 3], counts_b=[9, 7], runs=5000, epsilon=1.0,
                          se=np.array([0.1, 0.2]), max_lower=0.4, argmax=1)  # fmt: skip
    assert report.single_sequence_reason(res) == (
        "the bound is read on one action sequence, 0110, seen 3 and 7 times in 5,000 runs under r and r': its "
        "log-ratio's se, 0.20, is 50% of the bound, so 4 se exceed it; the claim is the inequality lower bound "
        "<= ε, which holds by 3.0 se"
    )
    with pytest.raises(TypeError, match=r"^res must be an ActionSequenceAudit .*got SimpleNamespace$"):
        report.single_sequence_reason(SimpleNamespace(se=[0.1]))


# ---------------------------------------------------------------- claims


class _Recorder:
    def __init__(self):
        self.calls = []

    def bound(self, *args, **kwargs):
        self.calls.append((args, kwargs))


def test_claim_lower_bound_by_hand():
    nb = _Recorder()
    report.claim_lower_bound(nb, "ctl_lower", _row(mechanism="CTL(ε = 1)", exact=math.nan), "Lemma 2", sense=">=",
                             level=1 - 0.05, tolerance_reason="why")  # fmt: skip
    assert nb.calls == [
        (
            ("ctl_lower", "audit: CTL(ε = 1), 95 % lower confidence bound on the privacy loss"),
            dict(reproduced=0.9, se=0.05, bound=1.0, sense=">=", how="the claimed ε; Lemma 2",
                 note="exact loss -; se: delta method on the event where the bound is attained",
                 control=True, tolerance_reason="why"),
        )
    ]  # fmt: skip


def test_claim_lower_bound_builds_a_real_claim():
    from ldpcode.claims import bound

    nb = _Recorder()
    report.claim_lower_bound(nb, "x", _row(), "Lemma 2", level=0.9)
    ((args, kwargs),) = nb.calls
    assert args[1] == "audit: M, 90 % lower confidence bound on the privacy loss"
    claim = bound(*args, **kwargs)
    assert claim.reproduced == 0.9 and claim.bound == 1.0 and claim.sense == "<=" and claim.verdict() == "holds"
    assert claim.note == "exact loss 1.000; se: delta method on the event where the bound is attained"


def test_claim_lower_bound_refuses_a_bad_sense():
    with pytest.raises(ValueError, match=r"^sense must be '<=' or '>=', got '<'$"):
        report.claim_lower_bound(_Recorder(), "x", _row(), "Lemma 2", sense="<", level=0.95)
    for level in (0.0, 1.0, 95.0):
        with pytest.raises(ValueError, match=r"^level must be in \(0, 1\), got "):
            report.claim_lower_bound(_Recorder(), "x", _row(), "Lemma 2", level=level)


# ---------------------------------------------------------------- figures


def test_plot_audit_ratios_by_hand():
    rows = [
        _row(claimed=1.0, lower=0.9, exact=1.0, se=0.05),
        _row(claimed=0.0, lower=0.0, exact=0.0),  # no positive claim: left out
        _row(kind="broken", claimed=1.0, lower=5.0, exact=math.nan, se=math.inf),  # drawn at the cap
        _row(kind="swapped", claimed=2.0, lower=1.0, exact=2.0),
    ]
    fig = report.plot_audit_ratios(rows, cap=3.0)
    ax = fig.axes[0]
    assert ax.get_ylim() == pytest.approx((-0.1, 3.15)) and ax.get_xscale() == "log"
    bars = {c.get_label(): c for c in ax.containers}
    genuine = bars["genuine: audited lower bound"].lines[0]
    assert list(genuine.get_xdata()) == [1.0] and list(genuine.get_ydata()) == [0.9]
    broken = bars["broken (privacy): audited lower bound"].lines[0]
    assert list(broken.get_xdata()) == [1.04] and list(broken.get_ydata()) == [3.0]  # shifted, capped
    swapped = bars["swapped CTB (private): audited lower bound"].lines[0]
    assert list(swapped.get_ydata()) == [0.5]
    exact = {line.get_label(): line for line in ax.lines}
    assert list(exact["swapped CTB (private): exact"].get_ydata()) == [1.0]
    assert np.isnan(exact["broken (privacy): exact"].get_ydata()).all()
    assert "values above 3 drawn at 3" in ax.get_title()
    plt.close(fig)
    with pytest.raises(ValueError, match=r"^cap must be > 0, got 0$"):
        report.plot_audit_ratios(rows, cap=0)


def test_plot_reachable_by_hand():
    reach = {0.0: np.array([True, False, True, False]), 1.0: np.array([False, False, True, True])}
    fig = report.plot_reachable(reach, 1.0, start=0.3)
    ax = fig.axes[0]
    xs = {c.get_label(): sorted({seg[0][0] for seg in c.get_segments()}) for c in ax.collections}
    assert xs == {"reachable from r = 0": [0, 2], "reachable from r = 1": [2, 3], "from both": [2]}
    assert ax.get_xlim() == (-1, 4)
    assert ax.get_xlabel() == "double number j after 0.3 (x = 0.3 + j ulp)"
    assert ax.get_title().startswith("Which outputs near 0.3 can CTL(ε = 1) produce")
    plt.close(fig)


def test_plot_reachable_refuses_bad_input():
    with pytest.raises(ValueError, match=r"^reach must map the inputs 0.0 and 1.0"):
        report.plot_reachable({0.0: np.array([True])}, 1.0, start=0.3)
    with pytest.raises(ValueError, match=r"^reach\[0.0\] and reach\[1.0\] must be boolean arrays of one length$"):
        report.plot_reachable({0.0: np.array([True]), 1.0: np.array([True, False])}, 1.0, start=0.3)
    with pytest.raises(ValueError, match="boolean arrays"):
        report.plot_reachable({0.0: np.array([1]), 1.0: np.array([0])}, 1.0, start=0.3)


def test_worst_pair_is_written_as_a_reader_writes_it():
    """The audit tables wrote Python's (0.0, 1.0) and ('r', "r'")."""
    from ldpcode.audit.report import _pair

    assert [_pair({"pair": p}) for p in [(0.0, 1.0), (-1e6, 1e6), ("r", "r'"), (0.25, 0.75)]] == [
        "(0, 1)", "(-10⁶, 10⁶)", "(r, r′)", "(0.25, 0.75)",
    ]  # fmt: skip
