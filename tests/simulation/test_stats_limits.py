"""Issue 23, part 6: the fits and bootstraps of ldpcode.stats estimate their cost before any work, under the
Limits of the simulators. ``hinge_fit(grid=1e8)`` ran past 30 s (a least-squares solve per candidate, in
Python), and the bootstraps ended in MemoryError at a huge n_boot; now each is refused at once with the
one-message ValueError of :func:`ldpcode.limits.check_limits`. The book's own calls stay far below the default
ceilings, and accepted calls give the same numbers."""

from __future__ import annotations

import math

import numpy as np
import pytest
from cost_refusals import check_refusals, run_refused

import ldpcode as ldp
from ldpcode import stats
from ldpcode.limits import Limits

UNLIMITED = Limits(cpu_seconds=math.inf, memory_bytes=math.inf)
TINY = Limits(cpu_seconds=1e-12, memory_bytes=1.0)

SETUP = """
import json, math, time, numpy as np, ldpcode as ldp
from ldpcode import exponents, stats
x5 = [0.1, 0.2, 0.5, 1.0, 2.0]; y5 = [5.0, 3.0, 2.0, 2.0, 2.0]
v = np.random.default_rng(0).random((20, 5)) + 1
t3 = [10.0, 100.0, 1000.0]; v3 = np.random.default_rng(0).random((20, 3)) + 1
"""
HUGE = {  # name: (call, what its message must name); before: > 30 s, or MemoryError
    "hinge_fit grid=1e8": ("ldp.hinge_fit(x5, y5, grid=1e8)", "grid=100000000"),
    "hinge_fit grid=10**9": ("ldp.hinge_fit(x5, y5, grid=10**9)", "grid=1000000000"),
    "hinge_bootstrap grid": ("ldp.hinge_bootstrap(x5, v, grid=10**8)", "grid=100000000"),
    "hinge_bootstrap n_boot": ("ldp.hinge_bootstrap(x5, v, n_boot=10**9)", "n_boot=1000000000"),
    "bootstrap_indices": ("stats.bootstrap_indices(10**6, 10**6, 0)", "n_boot=1000000, runs=1000000"),
    "bootstrap_se": ("ldp.bootstrap_se(np.mean, v[:, 0], n_boot=10**9)", "n_boot=1000000000"),
    "loglog_slope": ("ldp.loglog_slope(t3, v3, n_boot=10**9)", "n_boot=1000000000"),
    "log_growth": ("ldp.log_growth(t3, v3, n_boot=10**9)", "n_boot=1000000000"),
    "ratio_exponent": ("ldp.ratio_exponent(t3, v3, v3[:, 0], n_boot=10**9)", "n_boot=1000000000"),
    "consecutive_windows": ("exponents.consecutive_windows(10**6)", "n=1000000"),
}


def test_absurd_fits_are_refused_before_any_work():
    check_refusals(run_refused(SETUP, HUGE), HUGE)


def test_hinge_fit_grid_written_as_a_float():
    """grid=1e8 is a whole number: accepted as 10^8 (ldpcode._validate.check_int) and refused for its cost, not
    its type; a fractional grid is refused by name; a whole float gives the same fit as the integer."""
    x, y = [0.1, 0.2, 0.5, 1.0, 2.0], [5.0, 3.0, 2.0, 2.0, 2.0]
    # (grid=1e8 at the default limits: test_absurd_fits_are_refused_before_any_work, in a child process)
    with pytest.raises(ValueError, match=r"^hinge_fit: grid=10000000, points=5: its time is estimated at about"):
        ldp.hinge_fit(x, y, grid=1e7, limits=Limits(cpu_seconds=100))
    with pytest.raises(TypeError, match=r"^grid must be an integer, got 2500\.5"):
        ldp.hinge_fit(x, y, grid=2500.5)
    assert ldp.hinge_fit(x, y, grid=2001.0) == ldp.hinge_fit(x, y, grid=2001)
    # the quoted override runs it (here at a small grid, with a tiny ceiling)
    with pytest.raises(ValueError) as err:
        ldp.hinge_fit(x, y, grid=500, limits=Limits(cpu_seconds=1e-3))
    quoted = str(err.value).split("pass limits=ldpcode.Limits(")[1].split(")")[0]
    assert ldp.hinge_fit(x, y, grid=500, limits=eval(f"Limits({quoted})")) == ldp.hinge_fit(x, y, grid=500)


def _small_calls():
    rng = np.random.default_rng(3)
    x = np.geomspace(0.05, 10, 8)
    v = rng.random((6, 8)) + 1
    t = np.geomspace(10, 1e4, 5)
    w = rng.random((6, 5)) + 1
    return {
        "hinge_fit": lambda **kw: ldp.hinge_fit(x, v.mean(axis=0), grid=101, **kw),
        "hinge_bootstrap": lambda **kw: ldp.hinge_bootstrap(x, v, n_boot=50, grid=101, **kw).breakpoints,
        "bootstrap_indices": lambda **kw: stats.bootstrap_indices(6, 50, 1, **kw),
        "bootstrap_se": lambda **kw: ldp.bootstrap_se(np.mean, v, n_boot=50, **kw),
        "loglog_slope": lambda **kw: ldp.loglog_slope(t, w, n_boot=50, **kw).se,
        "log_growth": lambda **kw: ldp.log_growth(t, w, n_boot=50, **kw).se,
        "ratio_exponent": lambda **kw: ldp.ratio_exponent(t, w, w[:, 0], n_boot=50, **kw).se,
        "consecutive_windows": lambda **kw: ldp.consecutive_windows(6, **kw),
    }


SMALL = _small_calls()


@pytest.mark.parametrize("name", sorted(SMALL))
def test_every_fit_checks_its_limits(name):
    with pytest.raises(ValueError, match=rf"^{name}: .*is estimated at about .*limits=ldpcode\.Limits\("):
        SMALL[name](limits=TINY)
    with pytest.raises(TypeError, match="^limits must be an ldpcode.Limits"):
        SMALL[name](limits=1e9)
    a, b = SMALL[name](), SMALL[name](limits=UNLIMITED)
    assert np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b


# --- the book's calls ---------------------------------------------------------------------------------------

FAR_SECONDS = Limits().cpu_seconds / 10
FAR_BYTES = 2**30


class WorkStarted(Exception):
    pass


def _params(notebook):
    return ldp.claims.load(f"chapters/{notebook}.ipynb")["params"]


def _book_calls():
    """The largest fits of each notebook, at its stored parameters, on arrays of its shapes."""
    rng = np.random.default_rng(0)
    calls = []
    p = _params("azize2022/figure3")
    eps = np.geomspace(p["eps_min"], p["eps_max"], p["n_eps"])
    final = rng.random((p["runs"], p["n_eps"])) + 1
    calls.append(("azize2022/figure3", "hinge_fit", ldp.hinge_fit, (eps, final.mean(axis=0)), {}))
    calls.append(("azize2022/figure3", "hinge_bootstrap", ldp.hinge_bootstrap, (eps, final), {"n_boot": p["n_boot"]}))
    p = _params("ren2020/theorem1_lower_bound")
    calls.append(
        (
            "ren2020/theorem1_lower_bound",
            "bootstrap_se",
            ldp.bootstrap_se,
            (np.max, rng.random(p["random_pairs"])),
            {"n_boot": 1000},
        )
    )
    for nb in ("heldp/figure1", "heldp/figure2", "heldp/choosing_epsilon_min"):
        p = _params(nb)
        calls.append((nb, "bootstrap_se", ldp.bootstrap_se, (np.mean, rng.random((p["runs"], 16))), {}))
    for nb in ("zheng2020/algorithm2_two_point_bco", "zheng2020/corollary4_one_point_bco", "zheng2020/mab_reduction"):
        p = _params(nb)
        cp = ldp.log_checkpoints(p["horizon"])
        reg = rng.random((p["runs"], cp.size)) + 1
        calls.append((nb, "loglog_slope", ldp.loglog_slope, (cp, reg), {"n_boot": p["n_boot"]}))
        calls.append((nb, "log_growth", ldp.log_growth, (cp, reg), {"n_boot": p["n_boot"]}))
        calls.append((nb, "bootstrap_se", ldp.bootstrap_se, (np.mean, reg), {}))
        if "sweep_epsilons" in p:
            k, r = len(p["sweep_epsilons"]), p["sweep_runs"]
            args = (np.arange(1, k + 1), rng.random((r, k)) + 1, rng.random(r) + 1)
            calls.append((nb, "ratio_exponent", ldp.ratio_exponent, args, {"n_boot": p["n_boot"]}))
    p = _params("zheng2020/algorithm1_theorems2_3")
    k = len(p["regret_epsilons"])
    args = (np.arange(1, k + 1), rng.random((p["runs"], k)) + 1, rng.random(p["runs"]) + 1)
    calls.append(
        ("zheng2020/algorithm1_theorems2_3", "ratio_exponent", ldp.ratio_exponent, args, {"n_boot": p["n_boot"]})
    )
    for nb in ("zheng2020/algorithm3_theorems9_10_glm", "zheng2020/theorems7_8_linear"):
        p = _params(nb)
        e = p["epsilons"]
        calls.append((nb, "loglog_slope", ldp.loglog_slope, (e, rng.random((p["runs"], len(e))) + 1), {"n_boot": 2000}))
        calls.append((nb, "consecutive_windows", ldp.consecutive_windows, (len(p["horizons"]),), {}))
    return calls


BOOK = _book_calls()


@pytest.mark.parametrize("notebook,what,f,args,kwargs", BOOK, ids=[f"{nb}: {w}" for nb, w, *_ in BOOK])
def test_the_books_fits_are_far_below_the_default_limits(monkeypatch, notebook, what, f, args, kwargs):
    seen = []

    def record(name, work, seconds, nbytes, limits=None, **kw):
        seen.append((name, work, seconds, nbytes))
        raise WorkStarted

    monkeypatch.setattr(stats, "check_limits", record)
    with pytest.raises(WorkStarted):
        f(*args, **kwargs)
    name, work, seconds, nbytes = seen[0]
    assert name == what
    assert seconds < FAR_SECONDS and nbytes < FAR_BYTES, (notebook, work, seconds, nbytes / 2**20)
