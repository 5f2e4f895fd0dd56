"""One result type family: the regret curves every simulation engine of the book returns.

:class:`RegretCurves` is the base of :class:`SimulationResult` (here: the stochastic bandits of Ren
et al., HeLDP and Azize and Basu, and every policy of :func:`ldpcode.make_policy`),
:class:`ldpcode.bco.BCOResult` (Algorithms 1 and 2 of Zheng et al. 2020 on convex losses),
:class:`ldpcode.contextual.ContextualResult` (their Sections 4-5) and :class:`ldpcode.reductions.MABResult`
(their Algorithm 1 on a multi-armed bandit). Every such result has

* ``name``: the algorithm (a field or a property of the subclass: ``policy``, ``algorithm`` or ``name``);
* ``epsilon``: its privacy level (``math.inf`` or None when it is not private);
* ``horizon``, ``runs``, ``seed`` of the call, and ``checkpoints`` (C,), the rounds at which the curves are kept
  (strictly increasing, the last one the horizon: :func:`ldpcode.engine.resolve_checkpoints`);
* ``regret`` (runs, C): each run's regret at each checkpoint (a field, or computed, as
  :class:`SimulationResult` computes it from its pull counts);

and the methods below, written once. The subclasses stay dataclasses with their own fields in their own order
(a result is built positionally in places), so the base declares the shared attributes instead of holding them
as fields.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._validate import check_int, check_real
from .stats import mean_and_half_width


class RegretCurves:
    """The regret of ``runs`` runs at ``checkpoints``; the shared methods of every result (module docstring)."""

    name: str
    epsilon: float | None
    horizon: int
    runs: int
    seed: int
    checkpoints: np.ndarray
    regret: np.ndarray

    @property
    def privacy_level(self) -> float:
        """The result's ε as a float: ``math.inf`` for a non-private algorithm (``epsilon`` None or inf)."""
        return math.inf if self.epsilon is None else float(self.epsilon)

    @property
    def label(self) -> str:
        """The legend of a curve: the name, followed by ``(ε = ...)`` when the algorithm is private."""
        eps = self.privacy_level
        return self.name if not np.isfinite(eps) else f"{self.name} (ε = {eps:g})"

    def checkpoint_index(self, t) -> int:
        """The index of round ``t`` in ``checkpoints``; a ValueError naming ``t`` and the checkpoints if it is not one
        (an integer: at(True) was the regret at round 1)."""
        t = check_int("t", t)
        idx = np.flatnonzero(np.asarray(self.checkpoints == t))
        if idx.size == 0:
            cp = self.checkpoints
            raise ValueError(
                f"t must be one of this result's {cp.size} checkpoints (rounds {int(cp[0])}..{int(cp[-1])}), got {t!r}"
            )
        return int(idx[0])

    def at(self, t: int) -> np.ndarray:
        """Regret of each run at checkpoint ``t`` (which must be one of ``checkpoints``): shape (runs,)."""
        return self.regret[:, self.checkpoint_index(t)]

    def final_regret(self) -> np.ndarray:
        """Regret of each run at the horizon (the last checkpoint): shape (runs,)."""
        return self.regret[:, -1]

    def mean_regret(self) -> np.ndarray:
        """Mean regret over runs at each checkpoint: shape (C,)."""
        return self.regret.mean(axis=0)

    def regret_band(self, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
        """Normal-approximation confidence band, at ``level`` in (0, 1), for the mean regret at each checkpoint
        (:func:`ldpcode.stats.mean_and_half_width`). A single run has no band: it is refused, not given a band of
        width 0, which a plot would show as certainty."""
        level = check_real("level", level)
        if not 0 < level < 1:
            raise ValueError(f"level must be in (0, 1), got {level!r}")
        if self.regret.shape[0] < 2:
            raise ValueError("a confidence band needs at least 2 runs, got 1 (simulate with runs >= 2)")
        m, half = mean_and_half_width(self.regret, level)
        return m - half, m + half


@dataclass
class SimulationResult(RegretCurves):
    r"""What :func:`ldpcode.simulate.simulate` returns: a :class:`RegretCurves` whose regret is computed.

    ``checkpoints`` (C,), ``counts`` (runs, C, arms): :math:`N_a` at each checkpoint, ``gaps`` (arms,).
    ``regret`` (runs, C) is the pseudo-regret :math:`\sum_a N_a(t)\,\Delta_a`; ``pulls`` (runs, arms) the counts at
    the horizon. ``releases`` (runs,), for the global-DP policies, counts the private statistics each run
    computed (Azize and Basu, Table 1, "# Private Means"); None otherwise. ``name`` is ``policy``.
    """

    policy: str
    epsilon: float
    instance: str
    horizon: int
    runs: int
    seed: int
    checkpoints: np.ndarray
    counts: np.ndarray
    gaps: np.ndarray
    releases: np.ndarray | None = None
    anytime: bool = True

    @property
    def name(self) -> str:
        return self.policy

    @property
    def regret(self) -> np.ndarray:
        r"""The pseudo-regret of each run at each checkpoint, :math:`\sum_a N_a(t)\,\Delta_a` (``counts @ gaps``,
        computed at each access): shape (runs, C)."""
        return self.counts @ self.gaps

    @property
    def pulls(self) -> np.ndarray:
        r"""Each run's pull counts :math:`N_a(T)` at the horizon (the last checkpoint of ``counts``): shape
        (runs, arms)."""
        return self.counts[:, -1, :]

    def until(self, t: int) -> "SimulationResult":
        """The same runs cut at pull ``t`` (a checkpoint): a result of horizon ``t``.

        Run r's reward and noise streams do not depend on the horizon, so a run of horizon T cut at t
        is exactly the run of horizon t with the same seed (tests/plotting/test_figures.py checks it): one long
        simulation serves both a T = 10⁶ panel and a T = 10⁷ ratio curve. That holds for an *anytime* policy
        only; one whose runs depend on T (``anytime = False``: DP-UCB sizes its noise trees for T, DP-SE's β is 1/T)
        is refused with a ValueError, since its run cut at t is not its run of horizon t
        (tests/policies/test_conformance.py checks both, for every registered policy). The private statistics a
        global-DP run released (``releases``) are counted over its whole horizon, not known at t: the cut has none.
        """
        if not self.anytime:
            raise ValueError(
                f"{self.policy}'s runs depend on their horizon, so a run of horizon {self.horizon:,} cut at t is not "
                f"its run of horizon t: simulate it at horizon t instead"
            )
        t = check_int("t", t, minimum=1)
        k = self.checkpoint_index(t) + 1
        return SimulationResult(
            self.policy,
            self.epsilon,
            self.instance,
            t,
            self.runs,
            self.seed,
            self.checkpoints[:k].copy(),
            self.counts[:, :k].copy(),
            self.gaps,
        )
