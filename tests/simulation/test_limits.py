"""Issue 12: the engines' safety. Checkpoints that stop before the horizon, integers beyond what the
engines can count, a bad LDPCODE_WORKERS, calls too big to finish (or to fit in memory), and privacy
arguments that a non-private policy would silently ignore: each is refused before any work with a
ValueError or TypeError that names the parameter. The default limits let every notebook run at its
paper-scale defaults. (Ctrl-C: tests/simulation/test_interrupt.py.)"""

from __future__ import annotations

import json
import math
import os
import resource
import subprocess
import sys
import time

import numpy as np
import pytest

import ldpcode as ldp
from ldpcode import bco, engine
from ldpcode import contextual as ctx
from ldpcode import reductions as rd
from ldpcode.reductions import losses as rd_losses
from ldpcode.simulate import (
    MAX_HORIZON,
    CancelFlag,
    Cancelled,
    Limits,
    check_limits,
    default_workers,
    resolve_checkpoints,
    run_pool,
)

SIM = sys.modules["ldpcode.simulate"]  # the module (ldp.simulate is the function)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BERN2 = ldp.make_instance("bernoulli", means=[0.9, 0.1])
LIN = ctx.make_contextual_instance(3, 4, seed=0)


# --- every engine, called with small valid arguments plus one override ---------------------------------------


def _engines():
    ucb = ldp.make_policy("UCB1")
    lv = ldp.make_privacy_levels("ren-heldp-discrete")
    return {
        "simulate (index)": lambda **kw: ldp.simulate(ucb, BERN2, **{"horizon": 100, "runs": 2, "workers": 1, **kw}),
        "simulate (heterogeneous)": lambda **kw: ldp.simulate(
            ldp.make_policy("HeLDP-UCB-B", epsilon_min=1.0),
            BERN2,
            **{"horizon": 100, "runs": 2, "workers": 1, "privacy_levels": lv, **kw},
        ),
        "simulate (episodic)": lambda **kw: ldp.simulate(
            ldp.make_policy("AdaP-KLUCB", epsilon=1.0), BERN2, **{"horizon": 100, "runs": 2, "workers": 1, **kw}
        ),
        "simulate (DP-UCB)": lambda **kw: ldp.simulate(
            ldp.make_policy("DP-UCB", epsilon=1.0), BERN2, **{"horizon": 100, "runs": 2, "workers": 1, **kw}
        ),
        "bco one-point": lambda **kw: bco.simulate_one_point("quadratic", **{"horizon": 100, "runs": 2, **kw}),
        "bco barrier": lambda **kw: bco.simulate_one_point(
            "quadratic", learner="barrier", **{"horizon": 100, "runs": 2, **kw}
        ),
        "bco two-point": lambda **kw: bco.simulate_two_point("linear", **{"horizon": 100, "runs": 2, **kw}),
        "contextual (numba)": lambda **kw: ctx.simulate_contextual(
            "linucb", LIN, **{"horizon": 100, "runs": 2, "seed": 0, **kw}
        ),
        "contextual (numpy)": lambda **kw: ctx.simulate_contextual(
            "linucb", LIN, engine="numpy", **{"horizon": 100, "runs": 2, "seed": 0, **kw}
        ),
        "reductions (kernel)": lambda **kw: rd.simulate_mab(
            rd.make_learner("UCB"), rd.bernoulli_losses([0.2, 0.5]), **{"horizon": 100, "runs": 2, "workers": 1, **kw}
        ),
        "reductions (Python loop)": lambda **kw: rd.simulate_mab(
            rd.make_learner("UCB"),
            rd.bernoulli_losses([0.2, 0.5]),
            engine="python",
            **{"horizon": 100, "runs": 2, **kw},
        ),
    }


ENGINES = _engines()


# --- case 1: checkpoints must end at the horizon -------------------------------------------------------------


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_checkpoints_that_stop_before_the_horizon_are_refused(engine):
    # before: accepted, and the result said horizon 100 while its pulls and final regret were read at t = 50
    with pytest.raises(ValueError, match=r"checkpoints must end at the horizon, 100 .* last checkpoint of 50"):
        ENGINES[engine](checkpoints=[10, 50])
    res = ENGINES[engine](checkpoints=[10, 50, 100])
    assert res.horizon == 100 and res.checkpoints.tolist() == [10, 50, 100]


def test_resolve_checkpoints_is_the_one_check():
    assert resolve_checkpoints(100, [10, 100]).tolist() == [10, 100]
    assert resolve_checkpoints(100, np.array([100], dtype=np.uint64)).dtype == np.int64
    assert resolve_checkpoints(10**7, None)[-1] == 10**7
    with pytest.raises(ValueError, match="checkpoints must end at the horizon"):
        resolve_checkpoints(100, [99])
    for bad in ([2**70], [1, 2**64 + 100], [MAX_HORIZON + 1]):
        with pytest.raises(ValueError, match=r"checkpoints must be .*rounds in \[1, horizon=100\]"):
            resolve_checkpoints(100, bad)
    # an integer just above 2^53 must not round onto the horizon in float64
    with pytest.raises(ValueError, match="checkpoints must be"):
        resolve_checkpoints(MAX_HORIZON, [MAX_HORIZON + 1])


# --- case 2: integers the engines cannot count are named ------------------------------------------------------

HUGE = [2**63, 2**64, 10**30]


@pytest.mark.parametrize("engine", sorted(ENGINES))
@pytest.mark.parametrize("value", HUGE)
def test_huge_horizon_is_refused_by_name(engine, value):
    # before: OverflowError: Python int too large to convert to C long
    with pytest.raises(ValueError, match=r"^horizon must be an integer <= 2\*\*53, got"):
        ENGINES[engine](horizon=value)


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_huge_runs_and_checkpoints_are_refused_by_name(engine):
    with pytest.raises(ValueError, match=r"^runs must be an integer <= 2\*\*32, got 18446744073709551616$"):
        ENGINES[engine](runs=2**64)
    with pytest.raises(
        ValueError,
        match=r"^checkpoints must be a strictly increasing sequence of rounds in \[1, horizon=100\], got \[1180591620717411303424\]$",
    ):
        ENGINES[engine](checkpoints=[2**70])


@pytest.mark.parametrize("engine", [e for e in sorted(ENGINES) if "simulate" in e or "kernel" in e])
def test_absurd_workers_are_refused_by_name(engine):
    with pytest.raises(ValueError, match=r"^workers must be an integer <= 1024, got 1180591620717411303424$"):
        ENGINES[engine](workers=2**70)


def test_log_checkpoints_and_sweeps_name_their_integers():
    with pytest.raises(ValueError, match=r"^horizon must be an integer <= 2\*\*53"):
        ldp.log_checkpoints(2**63)
    with pytest.raises(ValueError, match=r"^points must be an integer <= 10_000_000"):
        ldp.log_checkpoints(100, 10**12)
    with pytest.raises(ValueError, match=r"^horizons\[2\] must be an integer <= 2\*\*53"):
        ctx.horizon_sweep("linucb", LIN, [100, 200, 2**63], 2, 0)
    with pytest.raises(TypeError, match=r"^horizons\[0\] must be an integer, got 100.5"):  # was truncated to 100
        ctx.horizon_sweep("linucb", LIN, [100.5, 200, 400], 2, 0)
    with pytest.raises(ValueError, match=r"^horizon must be an integer <= 2\*\*53"):
        rd.ucb_adversary(2, 2**63)


@pytest.mark.parametrize("text", ["abc", "0", "-3", "1.5", "", "2 workers"])
def test_bad_LDPCODE_WORKERS_is_named(monkeypatch, text):
    # before: "invalid literal for int() with base 10: 'abc'" (no name), and 0 or -3 silently meant 1 worker
    monkeypatch.setenv("LDPCODE_WORKERS", text)
    msg = r"the environment variable LDPCODE_WORKERS must be a positive integer .*got " + repr(text).replace(".", r"\.")
    with pytest.raises(ValueError, match=msg):
        default_workers()
    with pytest.raises(ValueError, match=msg):
        ldp.simulate(ldp.make_policy("UCB1"), BERN2, 100, 2)
    with pytest.raises(ValueError, match=msg):
        rd.simulate_mab(rd.make_learner("UCB"), rd.bernoulli_losses([0.2, 0.5]), 100, 2)
    assert ldp.simulate(ldp.make_policy("UCB1"), BERN2, 100, 2, workers=1).runs == 2  # not read when given


def test_good_LDPCODE_WORKERS(monkeypatch):
    monkeypatch.setenv("LDPCODE_WORKERS", " 1 ")
    assert default_workers() == 1
    monkeypatch.setenv("LDPCODE_WORKERS", "100000")
    assert default_workers() == (os.cpu_count() or 1)
    monkeypatch.delenv("LDPCODE_WORKERS")
    assert default_workers() == (os.cpu_count() or 1)


# --- case 3: limits, estimated before any work --------------------------------------------------------------

TINY = Limits(cpu_seconds=1e-9, memory_bytes=1.0)


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_every_engine_checks_its_limits(engine):
    with pytest.raises(ValueError) as err:
        ENGINES[engine](limits=TINY)
    msg = str(err.value)
    for part in (
        "runs=2 x horizon=100",
        "its time is estimated at about",
        "core-seconds",
        "beyond the ceiling of",
        "limits.cpu_seconds",
        "its memory is estimated at about",
        "limits.memory_bytes",
        "pass limits=ldpcode.Limits(cpu_seconds=",
        "memory_bytes=",
        "math.inf switches a check off",
        "several calls with different seeds (seed=0, 1, 2, ...)",
        "concatenate their results",
    ):
        assert part in msg, (part, msg)
    ENGINES[engine](limits=Limits(cpu_seconds=math.inf, memory_bytes=math.inf))


def test_the_override_quoted_in_the_message_lets_the_call_run():
    call = ENGINES["simulate (index)"]
    with pytest.raises(ValueError) as err:
        call(horizon=10**5, limits=Limits(cpu_seconds=1e-3))
    quoted = str(err.value).split("pass limits=ldpcode.Limits(")[1].split(")")[0]
    assert call(horizon=10**5, limits=eval(f"Limits({quoted})")).horizon == 10**5


def test_limits_argument_is_checked():
    with pytest.raises(TypeError, match="^limits must be an ldpcode.Limits"):
        ldp.simulate(ldp.make_policy("UCB1"), BERN2, 100, 2, limits={"cpu_seconds": 10})
    for bad, exc in ((0, ValueError), (-1.0, ValueError), (math.nan, ValueError), ("10", TypeError), (True, TypeError)):
        with pytest.raises(exc, match=r"^limits.cpu_seconds must be"):
            Limits(cpu_seconds=bad)
        with pytest.raises(exc, match=r"^limits.memory_bytes must be"):
            Limits(memory_bytes=bad)
    assert Limits().cpu_seconds == 3600.0 and 0 < Limits().memory_bytes <= 4 * 2**30
    with pytest.raises(ValueError, match="beyond the ceiling"):
        check_limits("f", "work", 2.0, 1.0, Limits(cpu_seconds=1.0))


ABSURD = {  # (call, the parameter its message must name); each would hang or exhaust memory if accepted
    "simulate runs=10**9": ("ldp.simulate(ldp.make_policy('UCB1'), inst, 100, 10**9)", "runs=1000000000"),
    "simulate horizon=2**50": ("ldp.simulate(ldp.make_policy('UCB1'), inst, 2**50, 2)", "horizon=1125899906842624"),
    "simulate runs=10**9 (episodic)": (
        "ldp.simulate(ldp.make_policy('AdaP-UCB', epsilon=1.0), inst, 100, 10**9)",
        "runs=1000000000",
    ),
    "simulate KL-UCB horizon=10**10": (
        "ldp.simulate(ldp.make_policy('KL-UCB'), inst, 10**10, 2)",
        "horizon=10000000000",
    ),
    "bco one-point horizon=10**12": ("bco.simulate_one_point(horizon=10**12)", "horizon=1000000000000"),
    "bco two-point runs=10**9": ("bco.simulate_two_point(horizon=100, runs=10**9)", "runs=1000000000"),
    "contextual horizon=10**9": (
        "ctx.simulate_contextual('linucb', ctx.make_contextual_instance(), 10**9, 10, 0)",
        "horizon=1000000000",
    ),
    "contextual choices recorded": (
        "ctx.simulate_contextual('linucb', ctx.make_contextual_instance(), 10**8, 100, 0,"
        " record_choices=True, limits=ldp.Limits(cpu_seconds=math.inf))",
        "choices recorded",
    ),
    "horizon_sweep": (
        "ctx.horizon_sweep('linucb', ctx.make_contextual_instance(), [10**3, 10**6, 10**9], 10, 0)",
        "horizons up to 1000000000",
    ),
    "reductions runs=10**9": (
        "rd.simulate_mab(rd.make_learner('UCB'), rd.bernoulli_losses([0.2, 0.5]), 100, 10**9)",
        "runs=1000000000",
    ),
    "ucb_adversary horizon=10**10": ("rd.ucb_adversary(2, 10**10)", "horizon=10000000000"),
}


def _lower_memory_limit():
    resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30))


def test_absurd_calls_are_refused_before_any_work():
    """Each call runs in a child process capped at 3 GiB of address space; before this fix the first one
    spawned 10^9 seed sequences (MemoryError after 40 s under the cap; without it, the machine's memory)."""
    code = (
        "import json, math, time, numpy as np, ldpcode as ldp\n"
        "from ldpcode import bco, contextual as ctx, reductions as rd\n"
        "inst = ldp.make_instance('ren2020-bernoulli')\nout = {}\n"
        f"for name, call in {json.dumps({k: v[0] for k, v in ABSURD.items()})}.items():\n"
        "    t = time.monotonic()\n"
        "    try:\n"
        "        eval(call); out[name] = ['accepted', '', time.monotonic() - t]\n"
        "    except BaseException as e:\n"
        "        out[name] = [type(e).__name__, str(e), time.monotonic() - t]\n"
        "    print(json.dumps({name: out[name]}), flush=True)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        preexec_fn=_lower_memory_limit,
    )
    got = {}
    for line in proc.stdout.splitlines():
        got.update(json.loads(line))
    assert set(got) == set(ABSURD), proc.stderr[-3000:]
    for name, (kind, msg, seconds) in got.items():
        assert kind == "ValueError", (name, kind, msg)
        assert ABSURD[name][1] in msg and "limits=ldpcode.Limits(" in msg, (name, msg)
        assert seconds < 1.0, (name, seconds)


# --- the default limits let every notebook run at its paper-scale defaults ------------------------------------


class WorkStarted(Exception):
    """Raised where a call's work would start: its limits let it through."""


@pytest.fixture
def no_work(monkeypatch):
    def stop(*args, **kwargs):
        raise WorkStarted

    monkeypatch.setattr(engine, "run_pool", stop)  # the one engine: simulate, the BCO and contextual drivers
    monkeypatch.setattr(rd_losses, "_ucb_adversary_table", stop)  # where ucb_adversary looks it up


def _params(notebook):
    return ldp.claims.load(f"chapters/{notebook}.ipynb")["params"]


def _book_calls():
    """The largest simulation calls of each notebook, with the notebook's stored (paper-scale) parameters."""
    calls = []
    add = lambda nb, f: calls.append((nb, f))  # noqa: E731
    bern, gauss, mixed = (ldp.make_instance(n) for n in ("ren2020-bernoulli", "ren2020-gaussian", "ren2020-mixed"))
    for nb, inst, pol in (("ren2020/figure1", bern, "LDP-UCB-L"), ("ren2020/supplement_figure2", gauss, "LDP-UCB-LS")):
        p = _params(nb)
        cp = np.union1d(ldp.log_checkpoints(p["horizon"]), ldp.log_checkpoints(p["ratio_horizon"]))
        for q in ("UCB1", pol):
            kw = {} if q == "UCB1" else {"epsilon": min(p["epsilons"])}
            add(
                nb,
                lambda p=p, q=q, kw=kw, inst=inst, cp=cp: ldp.simulate(
                    ldp.make_policy(q, **kw), inst, p["ratio_horizon"], p["runs"], p["seed"], checkpoints=cp
                ),
            )
    p = _params("heldp/figure1")
    cp = np.union1d(ldp.log_checkpoints(p["horizon"]), ldp.log_checkpoints(p["ratio_horizon"]))
    for q in ("HeLDP-UCB-B", "HeLDP-UCB-L"):
        add(
            "heldp/figure1",
            lambda p=p, q=q, cp=cp: ldp.simulate(
                ldp.make_policy(q, epsilon_min=min(p["eps_compare"])),
                mixed,
                p["ratio_horizon"],
                p["runs"],
                p["seed"],
                checkpoints=cp,
                privacy_levels=ldp.make_privacy_levels("constant", epsilon=min(p["eps_compare"])),
            ),
        )
    for nb in ("heldp/theorem7_corollary8", "heldp/theorem10_corollary11"):
        p = _params(nb)
        for lv, em in p["settings"]:
            add(
                nb,
                lambda p=p, lv=lv, em=em: ldp.simulate(
                    ldp.make_policy("HeLDP-UCB-L", epsilon_min=em),
                    ldp.make_instance(p["instance"]),
                    p["horizon"],
                    p["runs"],
                    p["seed"],
                    privacy_levels=ldp.make_privacy_levels(lv),
                ),
            )
    for nb in ("ren2020/theorem4_ldp_ucb_l", "ren2020/theorem6_ldp_ucb_b"):
        p = _params(nb)
        add(
            nb,
            lambda p=p: ldp.simulate(
                ldp.make_policy("LDP-UCB-L", epsilon=min(p["epsilons"])),
                ldp.make_instance(p["instance"]),
                p["horizon"],
                p["runs"],
                p["seed"],
            ),
        )
    for nb in ("azize2022/figure2", "azize2022/table1"):
        p = _params(nb)
        inst = ldp.make_instance("bernoulli", means=p["means"])
        decades = [10**k for k in range(1, int(math.log10(p["horizon"])) + 1)]
        cp = np.union1d(
            np.union1d(ldp.log_checkpoints(p["horizon"]), decades),
            np.linspace(0, p["horizon"], 201)[1:].astype(np.int64),
        )
        for q in ("DP-UCB", "DP-SE", "AdaP-UCB", "AdaP-KLUCB"):
            add(
                nb,
                lambda p=p, q=q, inst=inst, cp=cp: ldp.simulate(
                    ldp.make_policy(q, epsilon=p["epsilon"]), inst, p["horizon"], p["runs"], p["seed"], checkpoints=cp
                ),
            )
    p = _params("azize2022/table1")
    add(
        "azize2022/table1",
        lambda p=p: ldp.simulate(
            ldp.make_policy("DP-UCB", epsilon=p["epsilon"]),
            ldp.make_instance("bernoulli", means=p["means"]),
            max(p["growth_horizons"]),
            p["growth_runs"],
            p["seed"],
        ),
    )
    p = _params("azize2022/figure3")
    add(
        "azize2022/figure3",
        lambda p=p: ldp.simulate(
            ldp.make_policy("AdaP-KLUCB", epsilon=p["eps_min"]),
            ldp.make_instance("bernoulli", means=p["means"]),
            p["horizon"],
            p["runs"],
            p["seed"],
            checkpoints=[p["horizon"]],
        ),
    )
    p = _params("azize2022/theorems7_8_upper_bounds")
    inst = ldp.make_instance("bernoulli", means=p["means"])
    for q in ("KL-UCB", "UCB1"):
        add(
            "azize2022/theorems7_8_upper_bounds",
            lambda p=p, q=q, inst=inst: ldp.simulate(ldp.make_policy(q), inst, p["horizon_np"], p["runs"], p["seed"]),
        )
    add(
        "azize2022/theorems7_8_upper_bounds",
        lambda p=p, inst=inst: ldp.simulate(
            ldp.make_policy("AdaP-KLUCB", epsilon=p["eps_min"]), inst, p["horizon"], p["runs"], p["seed"]
        ),
    )
    p = _params("azize2022/theorem2_minimax")
    add(
        "azize2022/theorem2_minimax",
        lambda p=p: ldp.simulate(
            ldp.make_policy("AdaP-KLUCB", epsilon=min(p["epsilons"])),
            ldp.make_instance("bernoulli", means=[0.9] + [0.5] * (max(p["n_arms_list"]) - 1)),
            p["horizon"],
            p["runs"],
            p["seed"],
            checkpoints=ldp.log_checkpoints(p["horizon"], p["checkpoint_points"]),
        ),
    )
    p = _params("zheng2020/corollary4_one_point_bco")
    add(
        "zheng2020/corollary4_one_point_bco",
        lambda p=p: bco.simulate_one_point(
            "quadratic", horizon=p["horizon"], runs=p["runs"], seed=p["seed"], epsilon=p["epsilon"], d=p["d"]
        ),
    )
    add(
        "zheng2020/corollary4_one_point_bco",
        lambda p=p: bco.simulate_one_point(
            "quadratic",
            horizon=p["smooth_horizon"],
            runs=p["smooth_runs"],
            seed=p["seed"],
            epsilon=p["epsilon"],
            d=p["d"],
            learner="barrier",
        ),
    )
    p = _params("zheng2020/algorithm2_two_point_bco")
    add(
        "zheng2020/algorithm2_two_point_bco",
        lambda p=p: bco.simulate_two_point(
            "quadratic", horizon=p["horizon"], runs=p["runs"], seed=p["seed"], epsilon=p["epsilon"], d=p["d"]
        ),
    )
    for nb, pol in (
        ("zheng2020/theorems7_8_linear", "ldp-linucb"),
        ("zheng2020/algorithm3_theorems9_10_glm", "ldp-gloc"),
    ):
        p = _params(nb)
        inst = ctx.make_contextual_instance(p["dim"], p["n_arms"], link="logistic" if "gloc" in pol else "linear")
        add(
            nb,
            lambda p=p, pol=pol, inst=inst: ctx.horizon_sweep(
                pol, inst, p["horizons"], p["runs"], p["seed"], epsilon=min(p["epsilons"]), delta=p["delta"]
            ),
        )
    p = _params("zheng2020/mab_reduction")
    env = rd.bernoulli_losses(1 - np.array(p["reward_means"]))
    add(
        "zheng2020/mab_reduction",
        lambda p=p, env=env: rd.simulate_mab(
            rd.make_agent("Tsallis-INF", "gaussian", epsilon=min(p["epsilons"]), delta=p["delta"]),
            env,
            p["horizon"],
            p["runs"],
            p["seed"],
        ),
    )
    add("zheng2020/mab_reduction", lambda p=p: rd.ucb_adversary(p["adv_arms"], p["adv_horizon"]))
    p = _params("zheng2020/algorithm1_theorems2_3")
    add(
        "zheng2020/algorithm1_theorems2_3",
        lambda p=p: rd.simulate_mab(
            rd.make_agent("Tsallis-INF", "gaussian", epsilon=min(p["regret_epsilons"]), delta=p["delta"]),
            rd.bernoulli_losses(p["loss_means"]),
            p["horizon"],
            p["runs"],
            p["seed"],
            checkpoints=[p["horizon"]],
        ),
    )
    return calls


BOOK_CALLS = _book_calls()


@pytest.mark.parametrize("i", range(len(BOOK_CALLS)), ids=[f"{nb}-{i}" for i, (nb, _) in enumerate(BOOK_CALLS)])
def test_default_limits_let_every_notebook_run_at_paper_scale(no_work, i):
    """The real entry point with the notebook's stored parameters gets past its limits check (the work is
    stopped where it would start)."""
    with pytest.raises(WorkStarted):
        BOOK_CALLS[i][1]()


def test_the_largest_book_calls_are_far_below_the_ceiling():
    est = SIM.simulate_cost(
        ldp.make_policy("KL-UCB"), ldp.make_instance("bernoulli", means=[0.5] * 5), 10**6, 20, 127, 2
    )
    assert 60 < est[0] < 100 and est[1] < 10 * 2**20
    est = SIM.simulate_cost(
        ldp.make_policy("HeLDP-UCB-B", epsilon_min=0.2), ldp.make_instance("ren2020-mixed"), 10**7, 50, 242, 2
    )
    assert 60 < est[0] < 100
    # the episodic engine is priced per episode: Figure 3 of Azize and Basu, 20 runs of 10^7, per epsilon
    est = SIM.simulate_cost(
        ldp.make_policy("AdaP-KLUCB", epsilon=0.05),
        ldp.make_instance("bernoulli", means=[0.8, 0.1, 0.1, 0.1, 0.1]),
        10**7,
        20,
        1,
        2,
    )
    assert est[0] < 1.0


# --- case 5 (issue item 6): privacy arguments are never ignored --------------------------------------------------


@pytest.mark.parametrize("policy", ["linucb", "gloc"])
@pytest.mark.parametrize(
    "kw", [dict(epsilon=1.0), dict(delta=0.01), dict(epsilon=1.0, delta=0.01), dict(sigma_scale=0.5)]
)
def test_non_private_contextual_policy_refuses_privacy_arguments(policy, kw):
    # before: simulate_contextual('linucb', ..., epsilon=1.0) ran the non-private policy and said nothing
    inst = ctx.make_contextual_instance(3, 4, link="logistic" if policy == "gloc" else "linear", seed=0)
    name = "sigma_scale" if "sigma_scale" in kw else "epsilon or delta"
    with pytest.raises(ValueError, match=f"policy '{policy}' .*{name}"):
        ctx.simulate_contextual(policy, inst, 20, 1, 0, **kw)
    with pytest.raises(ValueError, match=f"policy '{policy}' "):
        ctx.horizon_sweep(policy, inst, [10, 20, 40], 2, 0, epsilon=kw.get("epsilon", 1.0))


@pytest.mark.parametrize("policy", ["ldp-linucb", "ldp-gloc"])
@pytest.mark.parametrize("kw", [{}, dict(epsilon=1.0), dict(delta=0.01)])
def test_private_contextual_policy_needs_both(policy, kw):
    inst = ctx.make_contextual_instance(3, 4, link="logistic" if policy == "ldp-gloc" else "linear", seed=0)
    with pytest.raises(ValueError, match=f"policy '{policy}' needs epsilon and delta"):
        ctx.simulate_contextual(policy, inst, 20, 1, 0, **kw)


def test_reduction_agents_take_exactly_their_privacy_arguments():
    # before: make_agent('UCB', None, epsilon=1.0) returned the non-private learner; 'laplace' ignored delta
    with pytest.raises(ValueError, match="mechanism=None gives the non-private learner, which takes no epsilon"):
        rd.make_agent("UCB", None, epsilon=1.0)
    with pytest.raises(ValueError, match="takes no epsilon or delta .*delta=0.1"):
        rd.make_agent("Tsallis-INF", delta=0.1)
    with pytest.raises(ValueError, match="mechanism='laplace' is ε-LDP and takes no delta"):
        rd.make_agent("UCB", "laplace", epsilon=1.0, delta=1e-6)
    with pytest.raises(TypeError, match="^delta must be"):
        rd.make_agent("UCB", "gaussian", epsilon=1.0)
    with pytest.raises(TypeError, match="^epsilon must be"):
        rd.make_agent("UCB", "laplace")
    assert isinstance(rd.make_agent("UCB"), rd.SubGaussianUCB)
    assert rd.make_agent("UCB", "laplace", epsilon=1.0).variance > 0


def test_bco_delta_belongs_to_private_runs():
    """A private run without delta takes bco.DEFAULT_DELTA; a non-private run given one is refused
    (tests/zheng2020/test_zheng_bco.py::test_a_non_private_run_refuses_a_privacy_argument)."""
    assert bco.simulate_one_point("linear", horizon=10, runs=1, epsilon=1.0, delta=None).delta == bco.DEFAULT_DELTA
    assert bco.simulate_one_point("linear", horizon=10, runs=1, epsilon=None).sigma == 0.0


# --- the machinery: cancellation, and chunked runs that keep their bits ------------------------------------------


def test_run_pool_stops_queued_tasks_when_one_fails():
    started = []

    def task(i, cancel):
        started.append(i)
        if i == 0:
            raise RuntimeError("boom")
        for _ in range(50):  # 0.5 s of work in chunks, checking the flag between them
            cancel.check()
            time.sleep(0.01)
        return i

    t = time.monotonic()
    with pytest.raises(RuntimeError, match="boom"):
        run_pool(task, 1000, 2)
    assert time.monotonic() - t < 2.0 and len(started) < 10  # the 998 queued tasks never ran


def test_cancel_flag():
    flag = CancelFlag()
    flag.check()
    flag.set()
    assert flag.is_set()
    with pytest.raises(Cancelled):
        flag.check()


@pytest.mark.parametrize(
    "call",
    [
        lambda: bco.simulate_one_point("quadratic", horizon=5000, runs=2, seed=3, epsilon=1.0),
        lambda: bco.simulate_one_point("linear", horizon=5000, runs=2, seed=3, epsilon=None, learner="barrier"),
        lambda: bco.simulate_one_point("stochastic", horizon=5000, runs=2, seed=3, epsilon=1.0, learner="barrier"),
        lambda: bco.simulate_two_point("stochastic", horizon=5000, runs=2, seed=3, epsilon=1.0),
    ],
)
def test_bco_runs_in_chunks_give_the_same_bits(monkeypatch, call):
    whole = call()
    sizes, real = [], engine.run_in_chunks

    def counted(horizon, cancel, step, chunk=None):
        return real(horizon, cancel, lambda t, ci, m: sizes.append(m) or step(t, ci, m), chunk)

    monkeypatch.setattr(bco.runs, "run_in_chunks", counted)  # where the BCO drivers look it up
    monkeypatch.setattr(bco.runs, "BCO_ROUNDS_PER_CALL", 333)  # 16 chunks, the last one short (read by the drivers)
    chunked = call()
    assert sizes == 2 * ([333] * 15 + [5000 - 15 * 333])  # the patch reached the chunking of both runs
    np.testing.assert_array_equal(chunked.regret, whole.regret)
    if whole.max_norm is not None:
        np.testing.assert_array_equal(chunked.max_norm, whole.max_norm)


def test_episodic_subclasses_without_cancel_still_simulate():
    """The audits' deliberately broken policies override ``run`` without ``cancel``: they still run (to their end)."""
    from ldpcode import audit

    res = ldp.simulate(audit.broken_policy("AdaP-UCB", 1.0, "noise-halved"), BERN2, 1000, 2, workers=2)
    assert res.counts[:, -1].sum(axis=1).tolist() == [1000, 1000]


def test_ucb_adversary_in_chunks_gives_the_same_table(monkeypatch):
    rows, calls = rd_losses._ucb_adversary_rows, []
    monkeypatch.setattr(rd_losses, "_ucb_adversary_rows", lambda *a: calls.append(a[:2]) or rows(*a))
    chunked = rd.ucb_adversary(3, 40_000).levels  # ROUNDS_PER_CALL = 16384: three chunks
    monkeypatch.setattr(rd_losses, "ROUNDS_PER_CALL", 10**6)  # where _ucb_adversary_table looks it up
    np.testing.assert_array_equal(rd.ucb_adversary(3, 40_000).levels, chunked)
    assert len(calls) == 3 + 1, calls  # the patch took effect: one chunk


def test_exploration_cost_is_limited():
    with pytest.raises(ValueError, match=r"checkpoints\[-1\]=1000000000000 .*limits.memory_bytes"):
        bco.hazan_levy_exploration_cost(np.array([1, 10**12]), 0.1, 8 / 9, 8 / 9)
    with pytest.raises(
        ValueError, match=r"^checkpoints must be a strictly increasing sequence of rounds in \[1, 2\*\*53\]"
    ):
        bco.hazan_levy_exploration_cost(np.array([1, 2**62]), 0.1, 8 / 9, 8 / 9)


@pytest.mark.parametrize("seconds, memory", [(float("nan"), 1.0), (1.0, float("nan")), (-1.0, 1.0)])
def test_a_cost_that_is_not_a_number_is_refused_not_passed(seconds, memory):
    """Before: a NaN estimate compared False with every ceiling and passed the check (simulate_cost at horizon NaN)."""
    from ldpcode.limits import check_limits

    with pytest.raises(ValueError, match="its estimated cost is not a number >= 0"):
        check_limits("f", "n=nan", seconds, memory)
