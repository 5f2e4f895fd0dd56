r"""One run of Algorithm 1 of Azize and Basu (2022) read episode by episode: Figure 1 and Example 2.

:func:`traced_run` runs an AdaP policy once and records which rewards and which Laplace draw each private mean
used (:class:`TracedRun`); :func:`decision_table` shows, at each decision :math:`t_\ell`, what every arm's index
was built from (the last episode only: forgetting); :func:`arm_episode_lengths` and
:func:`doubling_violations` check the per-arm doubling of Line 7 (episode lengths 1, 1, 2, 4, ...), and
:func:`algorithm1_episode_bound` bounds the number of episodes, :math:`K\log_2(T/K) + K + 1` (the O(log T)
"# Private Means" of Table 1).
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import global_policies as _gp
from .. import instances as _ins
from .. import mechanisms as _mech
from .._validate import check_int
from ..limits import Limits
from .ratios import _check_cost, _check_rng


class _RecordingLaplace:
    def __init__(self, rng):
        self.rng, self.draws = rng, []

    def laplace(self):
        d = self.rng.laplace()
        self.draws.append(d)
        return d


class _RecordingSampler:
    def __init__(self, instance, rng, sampler):
        self.instance, self.rng, self.sampler, self.calls = instance, rng, sampler, []

    def __call__(self, arm, length):
        s = _gp.episode_sum(self.instance, arm, length, self.rng, self.sampler)
        self.calls.append((int(arm), int(length), float(s)))
        return s


@dataclass(frozen=True)
class TracedRun:
    """One run of Algorithm 1 with what each private mean was made of. ``blocks`` is the run (with the
    trace of indexes and private means at each decision); ``releases`` one dict per private mean, in
    the order computed: arm, first and last step (1-based) of its episode, length m, reward sum,
    standard Laplace draw and the released value."""

    policy: object
    blocks: object
    releases: list


def traced_run(
    policy, instance, horizon: int, reward_rng, noise_rng, sampler="exact", *, limits: Limits | None = None
) -> TracedRun:
    """Run an Algorithm 1 policy once with ``trace=True``, recording every episode sum and noise draw. ``limits``
    caps the estimated cost, checked before the run: at most K(floor(log2 T) + 1) + 1 episodes at (20 + 4K) µs
    (the episodic policies' cost, :mod:`ldpcode.limits`), and 20 ns a pull when the rewards are drawn one by one
    (``sampler="stepwise"``, or an arm neither Bernoulli nor Gaussian)."""
    T = check_int("horizon", horizon, minimum=instance.n_arms)
    _check_rng(noise_rng, "noise_rng")
    if not callable(sampler):  # a fixed-reward sampler needs no reward stream
        _check_rng(reward_rng, "reward_rng")
    K = instance.n_arms
    episodes = K * T.bit_length() + 1
    exact = sampler == "exact" and all(a.family in (_ins.Family.BERNOULLI, _ins.Family.GAUSSIAN) for a in instance.arms)
    stepwise = not callable(sampler) and not exact
    work = f"one traced run of horizon={T} on {K} arms: at most {episodes} episodes at {20 + 4 * K} µs" + (
        ", and every pull's reward drawn at 20 ns" if stepwise else ""
    )
    seconds = episodes * (20 + 4 * K) * 1e-6 + (20e-9 * T if stepwise else 0.0)
    nbytes = episodes * (100.0 * K + 1000) + (24.0 * 2**20 if stepwise else 0.0)
    _check_cost("traced_run", work, seconds, nbytes, limits, "horizon")
    rec_s = _RecordingSampler(instance, reward_rng, sampler)
    rec_n = _RecordingLaplace(noise_rng)
    blocks = policy.run(instance, T, reward_rng, rec_n, sampler=rec_s, trace=True)
    K = instance.n_arms
    spans = [(a + 1, a + 1) for a in range(K)] + [(s + 1, s + n) for s, n in zip(blocks.start[1:], blocks.length[1:])]
    releases = []
    for (arm, m, total), d, (first, last) in zip(rec_s.calls, rec_n.draws, spans):
        releases.append(
            dict(
                arm=arm,
                first=first,
                last=last,
                m=m,
                total=total,
                draw=float(d),
                value=float(_mech.laplace_mean(total, m, policy.epsilon, d)),
            )
        )
    return TracedRun(policy, blocks, releases)


def decision_table(traced: TracedRun) -> list:
    r"""One row per decision l >= 1 and arm: what the index of that arm at :math:`t_\ell` was built from.

    Keys: ``l``, ``t_l``, ``arm``, ``first``/``last`` (1-based steps of the arm's last released episode),
    ``m``, ``episode_mean`` (its rewards only), ``draw`` (standard Laplace), ``noise_scale``
    :math:`1/(\epsilon m)`, ``recomputed`` (= episode_mean + draw x noise_scale), ``private_mean`` (what the
    policy used, from the trace), ``all_mean`` (the mean of all the arm's rewards so far, which a
    non-forgetting policy would use), ``index`` and ``chosen``.
    """
    b = traced.blocks
    eps = traced.policy.epsilon
    rows = []
    for l in range(1, len(b.start)):
        t_l = b.start[l] + 1
        for arm in range(b.n_arms):
            past = [r for r in traced.releases if r["arm"] == arm and r["last"] < t_l]
            last = past[-1]
            rows.append(
                dict(
                    l=l,
                    t_l=t_l,
                    arm=arm,
                    first=last["first"],
                    last=last["last"],
                    m=last["m"],
                    episode_mean=last["total"] / last["m"],
                    draw=last["draw"],
                    noise_scale=1.0 / (eps * last["m"]),
                    recomputed=last["value"],
                    private_mean=float(b.private_means[l - 1][arm]),
                    all_mean=sum(r["total"] for r in past) / sum(r["m"] for r in past),
                    index=float(b.indexes[l - 1][arm]),
                    chosen=b.arms[l] == (arm,),
                )
            )
    return rows


def arm_episode_lengths(blocks) -> list:
    """Per arm, the lengths of its episodes in a run of Algorithm 1: its initial pull (1), then one entry
    per episode it was chosen for, in order."""
    out = [[1] for _ in range(_gp.check_blocks(blocks).n_arms)]
    for arms, n in zip(blocks.arms[1:], blocks.length[1:]):
        if len(arms) != 1:
            raise ValueError(f"blocks after the first must play one arm (Algorithm 1), got arms {arms}")
        out[arms[0]].append(int(n))
    return out


def doubling_violations(blocks, horizon: int) -> int:
    r"""How many arms break the per-arm doubling of Algorithm 1 (Line 7) in a run: an arm's episode
    lengths must be 1 (initial pull), 1, 2, 4, ..., i.e. each episode as long as all the arm's earlier
    pulls together, except the run's last episode, which may be cut short by the horizon (but not made
    longer). Also counts 1 if the lengths do not add up to ``horizon``."""
    lengths = arm_episode_lengths(blocks)  # checks blocks first
    T = check_int("horizon", horizon, minimum=1)
    last_arm = blocks.arms[-1][0] if len(blocks.arms) > 1 else -1
    bad = 0
    for a, ls in enumerate(lengths):
        ok = ls[0] == 1
        for i in range(1, len(ls)):
            want = 2 ** (i - 1)
            final = a == last_arm and i == len(ls) - 1
            ok &= (1 <= ls[i] <= want) if final else ls[i] == want
        bad += not ok
    return bad + (sum(blocks.length) != T)


def algorithm1_episode_bound(n_arms: int, horizon: int) -> float:
    r"""An upper bound on the number of episodes of Algorithm 1 in T steps, counting each arm's initial
    pull as an episode: :func:`ldpcode.bounds.adap_releases_bound` + 1 = :math:`K\log_2(T/K) + K + 1`.

    Every episode but the last releases one private mean; the last may be cut by the horizon and release
    none. (At most :math:`K(\log_2(T/K) + 2)`, the O(log T) "# Private Means" of Table 1.)
    """
    from ..bounds import adap_releases_bound

    return adap_releases_bound(horizon, n_arms) + 1
