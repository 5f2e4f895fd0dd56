r"""Theorem 1 of Zheng et al. (2020): an ε-LDP protocol is ε-DP in the streaming setting, checked on whole
transcripts.

The stream is a table ``losses[t, a]``: user t's data, the loss arm a would give them (Zheng et al.'s data
domain C, one value per action). The server runs a deterministic learner on the private responses only: here
follow-the-leader (each arm once, in order, then the arm with the smallest mean private loss, ties to the
lowest index). User t receives the action :math:`a_t` and returns :math:`z_t = \text{losses}[t, a_t] + Z_t`,
:math:`Z_t` the noise of a local mechanism (:class:`~ldpcode.mechanisms.LaplaceMechanism`, ε-LDP, or
:class:`~ldpcode.mechanisms.GaussianMechanism`, (ε, δ)-LDP). The transcript :math:`z_{1:T}` determines the
actions, and its density under a stream x is :math:`\prod_t p(z_t - x_t(a_t(z_{<t})))`, p the noise density.

On two neighbouring streams (they differ in one user j's row) every factor with t ≠ j is the same function of
z, so the log density ratio of the whole transcript is that of user j's response alone:

.. math:: \log\frac{p_x(z_{1:T})}{p_{x'}(z_{1:T})} = \log\frac{p(z_j - x_j(a_j))}{p(z_j - x'_j(a_j))},

bounded by the LDP level of the mechanism whatever :math:`a_j` is; so is the law of anything computed from the
transcript (post-processing). This is the proof of Theorem 1 (Appendix A of the paper, not in our extraction).

* :func:`follow_the_leader_transcripts`: samples of transcripts (actions and responses);
* :func:`transcript_log_ratio`: the log density ratio of each transcript between two streams;
* :func:`transcript_loss_by_composition`: the supremum of that ratio bounded user by user (Laplace), each
  user's term a numerical supremum over the actions it can be asked about.
"""

from __future__ import annotations

import numpy as np

from .. import mechanisms as _mech
from .._validate import check_array, check_int
from ..limits import Limits
from .laplace import laplace_privacy_loss_grid
from .ratios import _UNLIMITED, _check_cost, _check_rng


def _check_stream(name, losses) -> np.ndarray:
    x = check_array(name, losses, ndim=2, min_size=1)
    if x.shape[1] < 1 or not np.isfinite(x).all():
        raise ValueError(f"{name} must be a finite (T, K) table of losses, got shape {x.shape}")
    return x


def _check_mechanism(mechanism):
    if not isinstance(mechanism, (_mech.LaplaceMechanism, _mech.GaussianMechanism)):
        raise TypeError(f"mechanism must be a LaplaceMechanism or a GaussianMechanism, got {mechanism!r}")
    return mechanism


def follow_the_leader_transcripts(losses, mechanism, runs: int, rng, *, limits: Limits | None = None):
    r"""``runs`` independent transcripts of the protocol above on the stream ``losses`` (shape (T, K)):
    returns ``(actions, responses)``, each of shape (runs, T). Only the mechanism's noise is random. ``limits``
    caps the estimated cost (30 µs a step, and (60 + 5K) ns and 24 bytes a step and run), checked first."""
    x = _check_stream("losses", losses)
    mech = _check_mechanism(mechanism)
    n = check_int("runs", runs, minimum=1)
    rng = _check_rng(rng)
    t_len, k = x.shape
    work = f"runs={n} transcripts of {t_len} users on {k} arms"
    seconds = t_len * (30e-6 + n * (60 + 5 * k) * 1e-9)
    _check_cost("follow_the_leader_transcripts", work, seconds, n * (24.0 * t_len + 48.0 * k + 64), limits, "runs")
    sums, counts = np.zeros((n, k)), np.zeros((n, k))
    actions = np.empty((n, t_len), dtype=np.int64)
    responses = np.empty((n, t_len))
    rows = np.arange(n)
    for t in range(t_len):
        if t < k:
            a = np.full(n, t)
        else:
            a = np.argmin(sums / counts, axis=1)
        z = mech.privatize(x[t, a], rng)
        sums[rows, a] += z
        counts[rows, a] += 1
        actions[:, t], responses[:, t] = a, z
    return actions, responses


def _pointwise(z, mean, mech) -> np.ndarray:
    """log density of the mechanism's noise at z - mean, up to a constant that cancels in ratios."""
    if isinstance(mech, _mech.LaplaceMechanism):
        return -np.abs(z - mean) / mech.scale
    return -((z - mean) ** 2) / (2.0 * mech.sigma**2)


def transcript_log_ratio(actions, responses, losses, neighbour, mechanism) -> np.ndarray:
    r""":math:`\log p_x(z_{1:T})/p_{x'}(z_{1:T})` for each transcript (a row of ``actions`` and ``responses``),
    summed over all T users (not only the one that differs): x = ``losses``, x' = ``neighbour``."""
    x, y = _check_stream("losses", losses), _check_stream("neighbour", neighbour)
    if x.shape != y.shape:
        raise ValueError(f"losses and neighbour must have one shape, got {x.shape} and {y.shape}")
    mech = _check_mechanism(mechanism)
    z = check_array("responses", responses, ndim=2)
    a = check_array("actions", actions, ndim=2, low=0, high=x.shape[1] - 1)  # arm -1 was read as the last arm
    frac = a[a != np.round(a)]
    if frac.size:
        raise ValueError(f"actions must be whole arm numbers in [0, {x.shape[1] - 1}], got {float(frac[0])!r}")
    a = a.astype(np.int64)
    if a.shape != z.shape or a.shape[1] != x.shape[0]:
        raise ValueError(f"actions and responses must both have shape (runs, {x.shape[0]}), got {a.shape}, {z.shape}")
    cols = np.arange(x.shape[0])
    return np.sum(_pointwise(z, x[cols, a], mech) - _pointwise(z, y[cols, a], mech), axis=1)


def transcript_loss_by_composition(
    losses, neighbour, mechanism, points: int = 2001, *, limits: Limits | None = None
) -> float:
    r"""An upper bound on :math:`\sup_z |\log p_x(z_{1:T})/p_{x'}(z_{1:T})|` for the Laplace mechanism, user by
    user: :math:`\sum_t \max_{a \in R_t}\sup_{z}|\ell_{t,a}(z)|`, each one-dimensional supremum found on a grid
    (:func:`~ldpcode.audit.laplace.laplace_privacy_loss_grid`), :math:`R_t` the actions user t can be asked
    about (arm t for t < K, every arm after: the Laplace noise has full support, so follow-the-leader can
    reach any arm). It is the whole transcript's loss computed without using that only one user differs: the
    terms of the users that agree come out 0, and the sum is the differing user's loss. ``limits`` caps the
    estimated cost (60 µs + 20 ns a point a grid), checked first."""
    x, y = _check_stream("losses", losses), _check_stream("neighbour", neighbour)
    if x.shape != y.shape:
        raise ValueError(f"losses and neighbour must have one shape, got {x.shape} and {y.shape}")
    mech = _check_mechanism(mechanism)
    if not isinstance(mech, _mech.LaplaceMechanism):
        raise TypeError("transcript_loss_by_composition is for the Laplace mechanism (pure epsilon)")
    k = x.shape[1]
    n = check_int("points", points, minimum=3)
    grids = min(x.shape[0], k) + max(x.shape[0] - k, 0) * k
    work = f"{grids} grids of points={n}"
    _check_cost("transcript_loss_by_composition", work, grids * (60e-6 + 20e-9 * n), 48.0 * n, limits, "points")
    total = 0.0
    for t in range(x.shape[0]):
        arms = [t] if t < k else range(k)
        total += max(laplace_privacy_loss_grid([x[t, a]], [y[t, a]], mech.scale, n, limits=_UNLIMITED) for a in arms)
    return total
