"""Throughput of ldpcode.sweep: the same grid on threads in this process and on a Dask LocalCluster.

    python benchmarks/bench_sweep.py                      # issue 14: 4 policies x 8 eps x 20 runs at T = 10**6
    python benchmarks/bench_sweep.py --horizon 10**5 --runs 5

The grid: LDP-UCB-L, LDP-UCB-B, AdaP-UCB and AdaP-KLUCB on Ren et al.'s 20-arm Bernoulli instance, eps in
{0.1, 0.2, 0.3, 0.5, 0.7, 1, 2, 4}, three checkpoints. Compilation is warmed up first and never timed; the
LocalCluster's start-up (one single-threaded worker process per core) is timed separately from the sweep. The
two tables are compared row for row (they must be equal). Pulls per second = policies x eps x runs x T / wall
seconds. A script, not a test.
"""

from __future__ import annotations

import os
import platform
import sys
import time

import ldpcode as ldp
from ldpcode import sweep as sw

sys.path.insert(0, os.path.dirname(__file__))
from bench_policies import Parser, _int, check_cost  # noqa: E402

POLICIES = ["LDP-UCB-L", "LDP-UCB-B", "AdaP-UCB", "AdaP-KLUCB"]
EPSILONS = [0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 2.0, 4.0]


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--horizon", type=_int, default=10**6)
    ap.add_argument("--runs", type=_int, default=20)
    ap.add_argument("--block", type=_int, default=5)
    args = ap.parse_args()
    T, R = args.horizon, args.runs
    if T < 100:  # the checkpoints T // 100, T // 10, T
        ap.error(f"--horizon must be at least 100, got {T}")
    inst = ldp.make_instance("ren2020-bernoulli")
    # before any work: the grid twice (threads, then the LocalCluster)
    check_cost(ap, [(ldp.make_policy(p, e), inst, T, 2 * R) for p in POLICIES for e in EPSILONS])
    cp = [T // 100, T // 10, T]
    grid = (POLICIES, EPSILONS, "ren2020-bernoulli", T, R)
    print(
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, workers={ldp.limits.default_workers()}"
    )
    sw.sweep(POLICIES, [1.0], "ren2020-bernoulli", 1000, 2)  # compile
    pulls = len(POLICIES) * len(EPSILONS) * R * T
    local = sw.sweep(*grid, checkpoints=cp, block=args.block)
    t_local = local.attrs["wall_seconds"]
    print(f"local threads : {t_local:7.1f} s  {pulls / t_local:.3g} pulls/s")
    from distributed import Client, LocalCluster

    start = time.perf_counter()
    cluster = LocalCluster(n_workers=ldp.limits.default_workers(), threads_per_worker=1, dashboard_address=None)
    client = Client(cluster)
    client.run(lambda: sw.sweep(POLICIES, [1.0], "ren2020-bernoulli", 1000, 2, workers=1))  # compile in each worker
    t_start = time.perf_counter() - start
    dask = sw.sweep(*grid, checkpoints=cp, block=args.block, scheduler=client)
    t_dask = dask.attrs["wall_seconds"]
    client.close()
    cluster.close()
    print(f"LocalCluster  : {t_dask:7.1f} s  {pulls / t_dask:.3g} pulls/s  (+ {t_start:.1f} s to start the cluster)")
    print(f"tables equal  : {local.equals(dask)}  ({len(local)} rows, {pulls:.3g} pulls each)")


if __name__ == "__main__":
    main()
