"""The parameter rules of the privacy-landscape chapter (``chapters/landscape/``), the book's own chapter that puts
the trust models of the four papers side by side."""

from __future__ import annotations

import numpy as np

from ldpcode.parameters.library import simulations, within_limits
from ldpcode.parameters.rules import EPS, RUNS, SEED, Choice, Int, Notebook, Real, Seq, at_least_arms, custom

LOCAL = ("LDP-UCB-L", "LDP-UCB-B", "LDP-UCB-LS", "LDP-UCB-BS", "HeLDP-UCB-B", "OnePoint-UCB")
GLOBAL = ("AdaP-UCB", "AdaP-KLUCB", "DP-SE", "DP-UCB")
WINDOW = Seq(EPS, min_len=2, max_len=2, increasing=True, why="a window is [eps_lo, eps_hi]")
ONE_CURVE = "each policy is one column of the sweep's grid"


def _window_holds_three(window: str):
    def holds(p) -> bool:
        lo, hi = p[window]
        eps = np.asarray(p["epsilons"], dtype=float)
        return int(((eps >= lo) & (eps <= hi)).sum()) >= 3

    return custom(
        holds,
        f"{window} must hold at least 3 of epsilons (the exponent is a log-log fit), got {window} = "
        f"{{{window}}}, epsilons = {{epsilons}}",
    )


def _sweeps_cost(p) -> list:
    """The notebook's two sweeps on this machine (``ldp.sweep.sweep`` checks each grid at once): the private policies
    at every eps, ``runs`` runs, and the non-private baselines UCB1 and KL-UCB once, ``baseline_runs`` runs; each cell
    estimated by the library (simulate_cost: the per-pull engine's estimate, an upper bound for the baselines' event
    engine), the times added up, the memory of the largest cell."""
    from ldpcode.instances import make_instance

    inst = make_instance(p["instance"])
    out = []
    for policies, runs, cells_each in (
        ([*p["local_policies"], *p["global_policies"]], p["runs"], len(p["epsilons"])),
        (["UCB1", "KL-UCB"], p["baseline_runs"], 1),
    ):
        cells = simulations(policies, inst, p["horizon"], runs, 1)
        seconds = sum(c[2] for c in cells) * cells_each
        work = f"{len(policies)} policies x {cells_each} eps, runs={runs} x horizon={p['horizon']}"
        out.append(("sweep", work, seconds, max(c[3] for c in cells)))
    return out


NOTEBOOKS: dict[str, Notebook] = {
    "chapters/landscape/privacy_landscape.ipynb": Notebook(
        dict(
            instance=Choice(("ren2020-bernoulli",)),
            baseline_runs=RUNS,
            epsilons=Seq(EPS, min_len=3, increasing=True, why="the crossovers interpolate between grid points"),
            local_policies=Seq(Choice(LOCAL), min_len=1, distinct=True, why=ONE_CURVE),
            global_policies=Seq(Choice(GLOBAL), min_len=1, distinct=True, why=ONE_CURVE),
            local_reference=Choice(LOCAL),
            global_reference=Choice(GLOBAL),
            cost_factors=Seq(Real(1, lo_open=True), increasing=True, why="k > 1: the price of trust tends to 1"),
            local_window=WINDOW,
            global_window=WINDOW,
            n_boot=Int(20, 10**6, "the crossovers' and exponents' bootstraps need at least 20 replicates"),
            boot_seed=SEED,
        ),
        (
            at_least_arms("horizon", n_arms=20),
            custom(
                lambda p: p["local_reference"] in p["local_policies"],
                "local_reference must be one of local_policies, got {local_reference} and {local_policies}",
            ),
            custom(
                lambda p: p["global_reference"] in p["global_policies"],
                "global_reference must be one of global_policies, got {global_reference} and {global_policies}",
            ),
            _window_holds_three("local_window"),
            _window_holds_three("global_window"),
            within_limits(_sweeps_cost, ("horizon", "runs", "baseline_runs"), "the sweeps"),
        ),
        tiny=dict(
            horizon=10**6, runs=2, baseline_runs=2, n_boot=20
        ),  # at 10^5 the crossover of 2 leaves the grid in 1 of 4 replicates
    ),
}
