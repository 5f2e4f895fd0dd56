"""Wall time of Azize and Basu's Figures 2 and 3 at paper scale, and of the plain step-by-step versions.

    python benchmarks/bench_global_dp.py                         # paper scale: T = 10**7, 20 runs
    python benchmarks/bench_global_dp.py --horizon 10**6 --runs 5 --plain-horizon 20000

* Figure 2: DP-UCB, DP-SE, AdaP-UCB and AdaP-KLUCB at epsilon = 1 on the Bernoulli means
  {0.75, 0.625, 0.5, 0.375, 0.25}, ``runs`` runs of ``horizon`` pulls each, default workers (threads).
* Figure 3: AdaP-KLUCB on {0.8, 0.1, 0.1, 0.1, 0.1} for 25 values of epsilon on a log grid over [0.05, 10].
* plain: :func:`ldpcode.reference.run_reference_global`, one pull at a time, on one run of
  ``plain_horizon`` pulls, for each policy; its pulls per second next to the fast path's.

Compilation is done in a warm-up and never timed. The issue asks for each figure in under 2 minutes on
the 2-core CI machine; the README quotes the figures this script printed. A script, not a test.
"""

from __future__ import annotations

import os
import platform
import sys
import time

import numpy as np

import ldpcode as ldp
from ldpcode.reference import reference_cost, run_reference_global

sys.path.insert(0, os.path.dirname(__file__))
from bench_policies import Parser, _int, check_cost  # noqa: E402

FIG2 = [0.75, 0.625, 0.5, 0.375, 0.25]
FIG3 = [0.8, 0.1, 0.1, 0.1, 0.1]
NAMES = ["DP-UCB", "DP-SE", "AdaP-UCB", "AdaP-KLUCB"]


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def main(argv=None) -> int:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--horizon", type=_int, default=10**7)
    ap.add_argument("--runs", type=_int, default=20)
    ap.add_argument("--plain-horizon", type=_int, default=2 * 10**4)
    ap.add_argument("--seed", type=_int, default=2022)
    args = ap.parse_args(argv)
    T, R = args.horizon, args.runs
    fig2, fig3 = ldp.make_instance("bernoulli", means=FIG2), ldp.make_instance("bernoulli", means=FIG3)
    plain = [reference_cost("global", ldp.make_policy(n, 1.0), len(FIG2), args.plain_horizon, 1) for n in NAMES]
    check_cost(  # before any work: Figure 2, Figure 3's 25 epsilons, and the fast and plain runs of the last part
        ap,
        [(ldp.make_policy(n, 1.0), fig2, T, R + 1) for n in NAMES]
        + [(ldp.make_policy("AdaP-KLUCB", 1.0), fig3, T, 25 * R)],
        (sum(c[0] for c in plain), max(c[1] for c in plain)),
    )
    print(
        f"ldpcode {ldp.__version__}, numpy {np.__version__}, numba {__import__('numba').__version__}, "
        f"Python {platform.python_version()}, {os.cpu_count()} logical CPUs, "
        f"load average {os.getloadavg()[0]:.2f}; T = {T:,}, {R} runs\n"
    )
    for name in NAMES:  # warm-up: compile the kernels
        ldp.simulate(ldp.make_policy(name, 1.0), fig2, 2000, 1, 0, progress=False)

    total = 0.0
    print("Figure 2 (epsilon = 1)")
    for name in NAMES:
        res, secs = timed(lambda: ldp.simulate(ldp.make_policy(name, 1.0), fig2, T, R, args.seed, progress=False))
        total += secs
        r = res.final_regret()
        print(f"  {name:11s} {secs:7.2f} s   regret at T: {r.mean():9.1f} (sd {r.std(ddof=1):7.1f})")
    print(f"  {'all four':11s} {total:7.2f} s\n")

    grid = np.geomspace(0.05, 10, 25)
    _, secs = timed(
        lambda: [
            ldp.simulate(ldp.make_policy("AdaP-KLUCB", float(e)), fig3, T, R, args.seed, progress=False) for e in grid
        ]
    )
    print(f"Figure 3 (AdaP-KLUCB, 25 values of epsilon): {secs:.2f} s\n")

    print(f"plain step-by-step (one run of {args.plain_horizon:,} pulls) against the fast path (per run of T)")
    cps = np.array([args.plain_horizon])
    for name in NAMES:
        pol = ldp.make_policy(name, 1.0)
        ss = np.random.SeedSequence(args.seed).spawn(1)[0]
        _, plain = timed(lambda: run_reference_global(pol, fig2, args.plain_horizon, ss, cps))
        _, fast = timed(lambda: ldp.simulate(pol, fig2, T, 1, args.seed, workers=1, progress=False))
        print(f"  {name:11s} plain {args.plain_horizon / plain:9.3g} pulls/s   fast {T / fast:9.3g} pulls/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
