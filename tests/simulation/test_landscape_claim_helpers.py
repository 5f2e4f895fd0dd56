"""ldpcode.experiments.landscape's helpers of the landscape chapter's claims: where a policy comes closest to the lower bound of
its trust model, and the book's prediction for HeLDP-UCB-B on the same-mean levels (values by hand)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

import ldpcode as ldp
from ldpcode.experiments import landscape as L

MEANS = [0.9, 0.5]  # one gap, 0.4
HORIZON = 1000


def _table(cells: dict) -> pd.DataFrame:
    """A sweep-like table: policy, epsilon, run, t, regret, one row per run of each (policy, eps) cell at T."""
    rows = [
        dict(policy=p, epsilon=e, run=r, t=HORIZON, regret=x)
        for (p, e), regrets in cells.items()
        for r, x in enumerate(regrets)
    ]
    return pd.DataFrame(rows)


def test_closest_to_bound_by_hand():
    table = _table({("LDP-UCB-B", 0.5): [90.0, 100.0, 110.0], ("LDP-UCB-B", 1.0): [9.0, 10.0, 11.0]})
    log_t = math.log(HORIZON)
    lai_robbins = 0.4 / math.log(5 / 3)  # Delta / kl(0.5, 0.9) = 0.4 / (0.5 log(25/9))
    ren = {e: (1 / 0.4) / (math.exp(e) - math.exp(-e)) ** 2 for e in (0.5, 1.0)}  # Theorem 1
    bound = {e: max(ren[e], lai_robbins) * log_t for e in (0.5, 1.0)}  # 15.90 and 5.409 (Lai-Robbins binds)
    assert 100 / bound[0.5] > 10 / bound[1.0]  # so eps = 1 is the closest
    c = L.closest_to_bound(table, "LDP-UCB-B", MEANS, HORIZON)
    assert c.epsilon == 1.0 and c.mean == pytest.approx(10.0, rel=1e-15)
    assert c.se == pytest.approx(1 / math.sqrt(3), rel=1e-14)  # s = 1 over 3 runs
    assert c.bound == pytest.approx(bound[1.0], rel=1e-12)
    assert c.ratio == pytest.approx(10.0 / bound[1.0], rel=1e-12)
    assert c.how.endswith("at eps = 1 the bound is Lai-Robbins (the privacy term is the smaller)")
    low = L.closest_to_bound(table, "LDP-UCB-B", MEANS, HORIZON, epsilon=0.5)  # Ren et al.'s Theorem 1 binds
    assert low.epsilon == 0.5 and low.mean == pytest.approx(100.0, rel=1e-15)
    assert low.bound == pytest.approx(bound[0.5], rel=1e-12) and bound[0.5] == pytest.approx(ren[0.5] * log_t)
    assert low.how.endswith("at eps = 0.5 the bound is its privacy term")
    with pytest.raises(ValueError, match=r"epsilon 0.2 is not in the grid of policy 'LDP-UCB-B': \[0.5, 1.0\]"):
        L.closest_to_bound(table, "LDP-UCB-B", MEANS, HORIZON, epsilon=0.2)


def test_which_term_of_the_bound_binds():
    assert L.privacy_binds("LDP-UCB-L", MEANS, 0.1, HORIZON) and not L.privacy_binds("LDP-UCB-L", MEANS, 8, HORIZON)
    assert L.privacy_binds("AdaP-KLUCB", MEANS, 0.01, HORIZON) and not L.privacy_binds("AdaP-KLUCB", MEANS, 8, HORIZON)
    assert L.privacy_binds("OnePoint-UCB", MEANS, 0.1, HORIZON) is None  # its model's bound has no privacy term
    assert L.binding_term("AdaP-KLUCB", MEANS, 0.01, HORIZON) == (True, "its privacy term for every arm")
    # Theorem 3 takes min(d, 6 eps Delta) arm by arm (the second look): at eps = 0.1 the arm of gap 0.1 keeps
    # d = kl(0.8, 0.9) = 0.044 < 0.06, the arm of gap 0.4 takes 6 eps Delta = 0.24 < kl(0.5, 0.9) = 0.51
    assert L.binding_term("AdaP-UCB", [0.9, 0.8, 0.5], 0.1, HORIZON) == (
        True,
        "its privacy term for 1 of 2 arms, d(μ_a, μ*) for the rest",
    )
    assert L.binding_term("AdaP-UCB", MEANS, 8, HORIZON) == (False, "Lai-Robbins (the privacy term binds for no arm)")


def test_closest_to_bound_refuses_a_policy_without_rows():
    table = _table({("LDP-UCB-B", 0.5): [1.0, 2.0]})
    with pytest.raises(ValueError, match="no rows of policy 'AdaP-UCB'"):
        L.closest_to_bound(table, "AdaP-UCB", MEANS, HORIZON)


def test_same_mean_prediction_by_hand():
    # beta(eps) = coth(eps / 2)^2; the users sit at 1/2 and 3/2, half each
    coth2 = lambda x: (math.cosh(x) / math.sinh(x)) ** 2  # noqa: E731
    variance, bounds = L.same_mean_prediction(MEANS, HORIZON, 1.0)
    assert variance == pytest.approx((coth2(0.25) + coth2(0.75)) / (2 * coth2(0.5)), rel=1e-12)
    assert variance == pytest.approx(2.0447, abs=1e-4)
    eps_min, levels = L.same_mean_levels(1.0)
    want = ldp.bounds.heldp_ucb_b_regret_bound(MEANS, HORIZON, levels, eps_min) / (
        ldp.bounds.heldp_ucb_b_homogeneous_bound(MEANS, HORIZON, 1.0)
    )
    assert bounds == want and bounds > 1.0  # the heterogeneous bound pays Q_B > 0 on top
