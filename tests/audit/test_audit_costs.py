"""Issue 23, part 6: every audit estimates its cost before any work, under the Limits of the simulators.

A call whose size argument (samples, runs, size, bins, points, k, window, count, horizon) is absurd is refused
in well under a second with the one-message ValueError of :func:`ldpcode.limits.check_limits` (before: a
MemoryError, or minutes of work); ``limits=`` raises the ceilings; and the book's own largest calls, at the
parameters stored in data/, are estimated far below the default ceilings."""

from __future__ import annotations

import math

import numpy as np
import pytest
from cost_refusals import check_refusals, run_refused

import ldpcode as ldp
from ldpcode import audit, vetted
from ldpcode import global_policies as gp
from ldpcode import reductions as rd
from ldpcode.audit import ratios
from ldpcode.limits import Limits
from ldpcode.rng import run_streams

UNLIMITED = Limits(cpu_seconds=math.inf, memory_bytes=math.inf)
TINY = Limits(cpu_seconds=1e-12, memory_bytes=1.0)

# --- absurd sizes are refused at once ---------------------------------------------------------------------

SETUP = """
import json, math, time, numpy as np, ldpcode as ldp
from ldpcode import audit, global_policies as gp
from ldpcode.mechanisms import LaplaceMechanism
from ldpcode.rng import run_streams
rng = np.random.default_rng(0)
r12 = np.zeros(12); r12b = r12.copy(); r12b[0] = 1.0
two = ldp.make_instance('bernoulli', means=[0.75, 0.5])
"""
HUGE = {  # name: (call, the size its message must name)
    "curator_audit": ("audit.curator_audit(ldp.CTL(1.0), 10**10)", "samples=10000000000"),
    "output_mean_audit": ("audit.output_mean_audit(ldp.CTB(1.0), samples=10**10)", "samples=10000000000"),
    "random_dp_pair": ("audit.random_dp_pair(1.0, 10**10, rng)", "k=10000000000"),
    "binned_log_ratio": ("audit.binned_log_ratio([0.0, 1.0], [0.5, 1.0], 10**10)", "bins=10000000000"),
    "delta_log_ratio": (
        "audit.delta_log_ratio(rng.random(10**6), rng.random(10**6), np.linspace(0, 1, 10**5), 0.01)",
        "against 100000 thresholds",
    ),
    "privacy_loss_matrix": ("audit.privacy_loss_matrix(np.ones((10**5, 2)))", "100000 x 100000 pairs"),
    "lemma1_release": ("audit.lemma1_release([0.0, 1.0, 0.5], [2], 1.0, 10**10, rng)", "size=10000000000"),
    "lemma1_audit": (
        "audit.lemma1_audit([0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0], [2, 3], 1.0, 10**10, rng)",
        "samples=10000000000",
    ),
    "lemma1_audit bins": (
        "audit.lemma1_audit([0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0], [2, 3], 1.0, 100, rng, bins_per_scale=10**9)",
        "bins",
    ),
    "algorithm1_action_sequences": ("audit.algorithm1_action_sequences(1, 10**12)", "horizon=1000000000000"),
    "algorithm1_action_sequences K=2": ("audit.algorithm1_action_sequences(2, 10**6)", "more than limit=100000"),
    "action_sequence": ("audit.action_sequence(gp.Blocks(2, [0, 2], [(0, 1), (0,)], [2, 2**50]))", "1125899906842626"),
    "action_sequence_audit": (
        "audit.action_sequence_audit(ldp.make_policy('AdaP-UCB', epsilon=1.0), two, r12, r12b, 12, 10**9, 0)",
        "runs=1000000000",
    ),
    "traced_run": (
        "audit.traced_run(ldp.make_policy('AdaP-UCB', epsilon=1.0), ldp.make_instance('ren2020-mixed'), 2**50,"
        " *run_streams(np.random.SeedSequence(0)))",
        "horizon=1125899906842624",
    ),
    "laplace_privacy_loss_grid": ("audit.laplace_privacy_loss_grid([0.0], [1.0], 1.0, 10**10)", "points=10000000000"),
    "laplace_release": ("audit.laplace_release([0.0, 1.0], 1.0, 10**10, rng)", "size=10000000000"),
    "laplace_mechanism_audit": (
        "audit.laplace_mechanism_audit([0.0], [1.0], 1.0, 10**10, rng, claimed=1.0)",
        "samples=10000000000",
    ),
    "atom_edges": ("audit.atom_edges(1.0, 10**10)", "bins=10000000000"),
    "follow_the_leader_transcripts": (
        "audit.follow_the_leader_transcripts(np.zeros((20, 3)), LaplaceMechanism(1.0, 1.0), 10**9, rng)",
        "runs=1000000000",
    ),
    "transcript_loss_by_composition": (
        "audit.transcript_loss_by_composition(np.zeros((20, 3)), np.ones((20, 3)), LaplaceMechanism(1.0), 10**10)",
        "points=10000000000",
    ),
    "laplace_float_reachable": ("audit.laplace_float_reachable([0.5], 0.0, 1.0, window=10**9)", "window=1000000000"),
    "consecutive_doubles": ("audit.consecutive_doubles(0.3, 10**12)", "count=1000000000000"),
}


def test_absurd_audits_are_refused_before_any_work():
    check_refusals(run_refused(SETUP, HUGE), HUGE)


# --- the limits argument: tiny limits refuse, no limits run, and the results do not move ------------------


def _small_calls():
    rng = lambda: np.random.default_rng(1)  # noqa: E731
    r12 = np.zeros(12)
    r12b = r12.copy()
    r12b[0] = 1.0
    two = ldp.make_instance("bernoulli", means=[0.75, 0.5])
    lap = ldp.mechanisms.LaplaceMechanism(1.0)
    blocks = gp.Blocks(2, [0, 2], [(0, 1), (0,)], [2, 6])
    return {
        "curator_audit": lambda **kw: audit.curator_audit(ldp.CTL(1.0), 200, 0, pilot=20, **kw).lower,
        "curator_audit (delta)": lambda **kw: audit.curator_audit(
            ldp.mechanisms.GaussianMechanism(1.0, 1e-3), 200, 0, pilot=20, probes=(), **kw
        ).lower,
        "output_mean_audit": lambda **kw: audit.output_mean_audit(ldp.CTB(1.0), samples=100, **kw).z,
        "random_dp_pair": lambda **kw: audit.random_dp_pair(1.0, 5, rng(), **kw),
        "binned_log_ratio": lambda **kw: audit.binned_log_ratio(rng().random(50), rng().random(50) / 2, 4, **kw).lower,
        "delta_log_ratio": lambda **kw: audit.delta_log_ratio(
            rng().random(50), rng().random(50), [0.5], **kw
        ).max_lower,
        "privacy_loss_matrix": lambda **kw: audit.privacy_loss_matrix([[0.2, 0.8], [0.4, 0.6]], **kw),
        "lemma1_release": lambda **kw: audit.lemma1_release([0.0, 1.0, 0.5], [2], 1.0, 10, rng(), **kw),
        "lemma1_audit": lambda **kw: audit.lemma1_audit(
            [0, 0, 1.0, 0], [0, 0, 0, 0], [2, 3], 1.0, 100, rng(), **kw
        ).binned.lower,
        "algorithm1_action_sequences": lambda **kw: audit.algorithm1_action_sequences(2, 6, **kw),
        "action_sequence": lambda **kw: audit.action_sequence(blocks, **kw),
        "action_sequence_audit": lambda **kw: audit.action_sequence_audit(
            ldp.make_policy("AdaP-UCB", epsilon=1.0), two, r12, r12b, 12, 20, 0, **kw
        ).counts_a,
        "traced_run": lambda **kw: audit.traced_run(
            ldp.make_policy("AdaP-UCB", epsilon=1.0), two, 64, *run_streams(np.random.SeedSequence(0)), **kw
        ).releases,
        "laplace_privacy_loss_grid": lambda **kw: audit.laplace_privacy_loss_grid([0.0], [1.0], 1.0, 11, **kw),
        "laplace_release": lambda **kw: audit.laplace_release([0.0, 1.0], 1.0, 10, rng(), **kw),
        "laplace_mechanism_audit": lambda **kw: audit.laplace_mechanism_audit(
            [0.0], [1.0], 1.0, 100, rng(), claimed=1.0, **kw
        ).binned.lower,
        "atom_edges": lambda **kw: audit.atom_edges(1.0, 4, **kw),
        "follow_the_leader_transcripts": lambda **kw: audit.follow_the_leader_transcripts(
            np.zeros((6, 3)), lap, 10, rng(), **kw
        ),
        "transcript_loss_by_composition": lambda **kw: audit.transcript_loss_by_composition(
            np.zeros((6, 3)), np.ones((6, 3)), lap, 11, **kw
        ),
        "laplace_float_reachable": lambda **kw: audit.laplace_float_reachable([0.5, 0.25], 0.0, 1.0, **kw),
        "consecutive_doubles": lambda **kw: audit.consecutive_doubles(0.3, 5, **kw),
    }


SMALL = _small_calls()


def _same(a, b):
    if isinstance(a, (tuple, list)) and a and not isinstance(a[0], (str, dict)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray) or isinstance(a, (float, np.floating)):
        return np.array_equal(a, b, equal_nan=True)
    return a == b


@pytest.mark.parametrize("name", sorted(SMALL))
def test_every_audit_checks_its_limits(name):
    with pytest.raises(ValueError, match=r"is estimated at about .* beyond the ceiling of .*limits=ldpcode\.Limits\("):
        SMALL[name](limits=TINY)
    with pytest.raises(TypeError, match="^limits must be an ldpcode.Limits"):
        SMALL[name](limits={"cpu_seconds": 1})
    # the default limits and no limits give the same result, bit for bit
    assert _same(SMALL[name](), SMALL[name](limits=UNLIMITED))


def test_sizes_written_as_whole_floats_are_accepted_and_others_named():
    """The convention of ldpcode._validate.check_int: 1e3 means 1000; 2.5 is refused by name (atom_edges truncated
    it to 2 and algorithm1_action_sequences compared it, silently)."""
    assert np.array_equal(audit.consecutive_doubles(0.3, 1e3), audit.consecutive_doubles(0.3, 1000))
    assert np.array_equal(audit.atom_edges(1.0, 4.0), audit.atom_edges(1.0, 4))
    with pytest.raises(TypeError, match=r"^bins must be an integer, got 2\.5"):
        audit.atom_edges(1.0, 2.5)
    with pytest.raises(ValueError, match=r"^bins must be an integer >= 1"):
        audit.atom_edges(1.0, 0)
    with pytest.raises(TypeError, match=r"^limit must be an integer, got 1\.5"):
        audit.algorithm1_action_sequences(2, 6, limit=1.5)
    assert audit.algorithm1_action_sequences(2, 6, limit=1e5) == audit.algorithm1_action_sequences(2, 6)
    with pytest.raises(TypeError, match=r"^points must be an integer, got 20\.5"):
        audit.transcript_loss_by_composition(
            np.zeros((4, 2)), np.ones((4, 2)), ldp.mechanisms.LaplaceMechanism(1), 20.5
        )


def test_counted_action_sequences_are_the_ones_made():
    """algorithm1_action_sequences counts its sequences before it builds them (its memory is that count times
    the horizon); the count is exact below the cap."""
    from ldpcode.audit.gdp import _count_action_sequences

    for k, t in ((1, 1), (1, 50), (2, 2), (2, 4), (2, 5), (2, 12), (3, 20), (2, 40), (4, 16), (5, 9)):
        assert _count_action_sequences(k, t, 10**9) == len(audit.algorithm1_action_sequences(k, t, 10**9)), (k, t)
    assert _count_action_sequences(3, 20, 100) == 100  # capped
    with pytest.raises(ValueError, match="more than limit = 100 action sequences"):
        audit.algorithm1_action_sequences(3, 20, limit=100)  # still the function's own refusal


def test_curator_audit_checks_again_once_its_events_are_known():
    """A discrete curator's pilot may make one event per atom; the estimate is checked again after the pilot,
    before the main sample, with the events it found."""

    class ManyAtoms:
        name, epsilon = "many atoms", 1.0

        def privatize(self, values, rng):
            return np.floor(rng.random(np.shape(values)) * 400) + np.asarray(values)

    calls = []
    real = ratios.check_limits

    def spy(call, work, seconds, nbytes, limits=None, **kw):
        if call == "curator_audit":  # not the pairs' inner calls
            calls.append(work)
        return real(call, work, seconds, nbytes, limits, **kw)

    mp = pytest.MonkeyPatch()
    mp.setattr(ratios, "check_limits", spy)
    try:
        audit.curator_audit(ManyAtoms(), 2000, 0, inputs=(0.0, 1.0), probes=(), pilot=2000, delta=0.01)
    finally:
        mp.undo()
    assert len(calls) == 2 and "on 23 events" in calls[0] and "on 400 events" in calls[1], calls


# --- the book's largest calls are far below the default ceilings ----------------------------------------------

FAR_SECONDS = Limits().cpu_seconds / 10  # 6 minutes of one core
FAR_BYTES = 2**30  # a quarter of the default 4 GiB


class WorkStarted(Exception):
    """Raised where a call's work would start: the estimate has been recorded."""


def _params(notebook):
    return ldp.claims.load(f"chapters/{notebook}.ipynb")["params"]


def _book_calls():
    """The largest audit calls of each notebook, at the notebook's stored parameters (arrays of the notebooks'
    shapes where the values come from a simulation). Each is (notebook, what, function, args, kwargs): the
    arguments are made here, so that only the function's own work is estimated."""
    rng = np.random.default_rng(0)
    calls = []

    def add(nb, what, f, *args, **kwargs):
        calls.append((nb, what, f, args, kwargs))

    p = _params("appendix/privacy_audit")
    nb = "appendix/privacy_audit"
    grid_b = np.linspace(-p["loss_bound"], p["loss_bound"], 5)
    kw = dict(bins=p["bins"], alpha=p["confidence_alpha"])
    eps = max(p["curator_epsilons"])
    for name in ("CTL", "CTB", "CTL-S", "CTB-S"):
        add(nb, name, audit.curator_audit, ldp.make_curator(name, eps), p["samples"], 0, **kw)
        cur = audit.HeterogeneousCurator(name, max(p["heldp_levels"]))
        add(nb, f"{name} heterogeneous", audit.curator_audit, cur, p["heldp_samples"], 0, **kw)
        extra = {"grid_bits": p["vetted_grid_bits"]} if name.startswith("CTL") else {}
        add(
            nb,
            f"{name} vetted",
            audit.curator_audit,
            vetted.make_curator(name, eps, **extra),
            p["vetted_samples"],
            0,
            **kw,
        )
    for e in p["zheng_epsilons"]:
        mech = rd.algorithm1_mechanism(e, p["zheng_delta"], p["loss_bound"])
        add(nb, f"Gaussian {e}", audit.curator_audit, mech, p["samples"], 0, inputs=grid_b, probes=(), **kw)
    lap = rd.laplace_mechanism(p["laplace_epsilon"], p["loss_bound"])
    add(nb, "Laplace", audit.curator_audit, lap, p["samples"], 0, inputs=grid_b, **kw)
    for flaw in ("half-scale", "unclipped", "leaky", "swapped"):
        add(nb, flaw, audit.curator_audit, audit.broken_curator(flaw, p["broken_epsilon"]), p["samples"], 0, **kw)
    swapped = audit.broken_curator("swapped", p["broken_epsilon"])
    add(nb, "output means", audit.output_mean_audit, swapped, samples=p["samples"])
    starts = p["lemma1_starts"]
    r = rng.integers(0, 2, max(starts) + 1).astype(float)
    rp = r.copy()
    rp[0] = 1 - rp[0]
    add(nb, "Lemma 1", audit.lemma1_audit, r, rp, starts, p["lemma1_epsilon"], p["lemma1_samples"], rng)
    two = ldp.make_instance("bernoulli", means=[0.75, 0.5])
    r0 = np.zeros(p["gdp_horizon"])
    r1 = r0.copy()
    r1[0] = 1.0
    space = audit.algorithm1_action_sequences(2, p["gdp_horizon"])
    add(nb, "output space", audit.algorithm1_action_sequences, 2, p["gdp_horizon"])
    pol = ldp.make_policy("AdaP-KLUCB", epsilon=p["gdp_epsilon"], alpha=p["index_alpha"])
    add(
        nb,
        "action sequences",
        audit.action_sequence_audit,
        pol,
        two,
        r0,
        r1,
        p["gdp_horizon"],
        p["gdp_runs"],
        0,
        outputs=space,
    )
    x = ldp.CTL(p["mironov_epsilon"]).privatize(np.zeros(p["mironov_samples"]), rng)
    add(nb, "reachable", audit.laplace_float_reachable, x, 0.0, 1 / p["mironov_epsilon"])
    add(nb, "doubles", audit.consecutive_doubles, 0.3, p["mironov_window"])

    p = _params("azize2022/lemma1_theorem6_privacy")
    nb = "azize2022/lemma1_theorem6_privacy"
    add(nb, "Lemma 1", audit.lemma1_audit, r, rp, p["lemma1_starts"], p["lemma1_epsilon"], p["lemma1_samples"], rng)
    T = p["audit_horizon"]
    r0 = np.zeros(T)
    r1 = r0.copy()
    r1[0] = 1.0
    tab0, tab1 = np.zeros((2, T)), np.zeros((2, T))
    tab1[tuple(p["audit_table_entry"])] = 1.0
    runs = max(p["audit_runs"], p["broken_stale_runs"])
    space = audit.algorithm1_action_sequences(2, T)
    add(nb, "output space", audit.algorithm1_action_sequences, 2, T)
    for name in p["audit_policies"]:
        pol = ldp.make_policy(name, epsilon=max(p["audit_epsilons"]), alpha=p["alpha"])
        add(nb, name, audit.action_sequence_audit, pol, two, r0, r1, T, runs, 0, outputs=space)
        add(
            nb,
            f"{name} table",
            audit.action_sequence_audit,
            pol,
            two,
            tab0,
            tab1,
            T,
            runs,
            0,
            model="table",
            outputs=space,
        )

    p = _params("azize2022/figure1_episodes")
    nb = "azize2022/figure1_episodes"
    pol = ldp.make_policy("AdaP-UCB", epsilon=p["epsilon"], alpha=p["alpha"])
    ex = ldp.make_instance("bernoulli", means=p["example_means"])
    add(nb, "trace", audit.traced_run, pol, ex, p["trace_horizon"], *run_streams(np.random.SeedSequence(0)))
    add(nb, "sequence", audit.action_sequence, pol.run(ex, p["trace_horizon"], *run_streams(np.random.SeedSequence(0))))

    p = _params("azize2022/theorem1_table2")
    nb = "azize2022/theorem1_table2"
    b = p["sensitivity"] / min(p["epsilons"])
    add(nb, "grid", audit.laplace_privacy_loss_grid, p["f_d"], p["f_d_prime"], b, p["grid_points"])
    add(
        nb,
        "audit",
        audit.laplace_mechanism_audit,
        p["f_d"],
        p["f_d_prime"],
        b,
        p["samples"],
        rng,
        claimed=1.0,
        bins=p["bins"],
    )

    p = _params("ren2020/lemmas2_5_curators")
    nb = "ren2020/lemmas2_5_curators"
    r_grid = np.linspace(0, 1, p["r_points"])
    xs = np.linspace(p["x_min"], p["x_max"], p["x_points"])
    add(nb, "CTL densities", audit.privacy_loss_matrix, ldp.CTL(1.0).density(xs[None, :], r_grid[:, None]))
    out = rng.random(p["audit_samples"])
    add(nb, "binned", audit.binned_log_ratio, out, out, np.arange(*p["audit_edges"]), alpha=p["alpha"])

    p = _params("ren2020/theorem1_lower_bound")
    add("ren2020/theorem1_lower_bound", "pair", audit.random_dp_pair, p["eps_max"], p["k_max"], rng)

    p = _params("zheng2020/algorithm1_theorems2_3")
    y = rng.random(p["audit_samples"])
    edges = np.concatenate([[-np.inf], np.linspace(0.01, 0.99, p["audit_bins"] - 1), [np.inf]])
    add("zheng2020/algorithm1_theorems2_3", "binned", audit.binned_log_ratio, y, y, edges)

    p = _params("zheng2020/theorem1_ldp_implies_dp")
    nb = "zheng2020/theorem1_ldp_implies_dp"
    x = rng.random((p["horizon"], len(p["loss_means"])))
    lap = ldp.mechanisms.LaplaceMechanism(min(p["epsilons"]))
    gm = ldp.mechanisms.GaussianMechanism(min(p["epsilons"]), p["delta"])
    add(nb, "composed", audit.transcript_loss_by_composition, x, x + 1, lap, p["grid_points"])
    add(nb, "transcripts (Laplace)", audit.follow_the_leader_transcripts, x, lap, p["runs"], rng)
    add(nb, "transcripts (Gaussian)", audit.follow_the_leader_transcripts, x, gm, p["runs"], rng)
    add(nb, "edges", audit.atom_edges, 1.0, p["bins"])
    la = rng.random(p["runs"])
    add(nb, "binned", audit.binned_log_ratio, la, la, audit.atom_edges(1.0, p["bins"]))
    return calls


BOOK = _book_calls()


@pytest.mark.parametrize("notebook,what,f,args,kwargs", BOOK, ids=[f"{nb}: {w}" for nb, w, *_ in BOOK])
def test_the_books_audits_are_far_below_the_default_limits(monkeypatch, notebook, what, f, args, kwargs):
    seen = []

    def record(name, work, seconds, nbytes, limits=None, **kw):
        seen.append((name, work, seconds, nbytes))
        if limits is None:  # the call's own check (inner calls pass limits explicitly)
            raise WorkStarted

    monkeypatch.setattr(ratios, "check_limits", record)
    with pytest.raises(WorkStarted):
        f(*args, **kwargs)
    name, work, seconds, nbytes = seen[-1]
    assert seconds < FAR_SECONDS and nbytes < FAR_BYTES, (notebook, what, work, seconds, nbytes / 2**20)
