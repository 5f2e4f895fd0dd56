r"""Plain step-by-step NumPy versions of the policies, written straight from the agent boxes.

They exist to check the compiled engine and to measure it: :func:`run_reference` consumes the same two
random streams as ``IndexPolicy.run_one`` (rewards, curator noise) but recomputes every index
with the paper's literal formula, e.g. for LDP-UCB-L (Agent 2, Line 3)

.. math:: u_a = \hat\mu_a + \sqrt{2\log t/N_a} + \sqrt{32\log t/(\epsilon^2 N_a)},

and re-implements rewards and curators without the compiled helpers. With the same seed both must pull
the same arms. They are about 100 times slower; use them only on small horizons. The curators' formulas are
written with :math:`e^{-\epsilon}` instead of :math:`e^\epsilon` (numerator and denominator divided by
:math:`e^\epsilon`), the same quantities, so that no level overflows: at ε = 10⁴ the reference must still pull the
arms of the engine.

**Limits.** Each function takes ``limits`` (:class:`ldpcode.limits.Limits`, default ``Limits()``) and refuses,
before it draws anything, a call whose estimated core-seconds or bytes exceed it (:func:`reference_cost`,
:func:`ldpcode.limits.check_limits`). The costs a step, in µs, with K arms, measured on the 2-core machine of the
README with other jobs running (runs of 2·10⁴ steps at K = 2, 20, 100, best of three) and rounded up:
:func:`run_reference` 20 + 0.1K (measured 5-16, 5-19, 13-22), :func:`run_reference_heterogeneous` 30 + 0.1K
(15-24, 10-19, 9-26); :func:`run_reference_global` 6 + 0.4K a pull for the episodic policies (``AdaP-*``, DP-SE;
measured 4, 7-14, 35-37), plus 10K (AdaP-UCB, DP-SE) or 80K (AdaP-KLUCB) an episode, at most K(floor(log2 T) + 1)
+ 1 of them (AdaP-KLUCB measured 190 a step at K = 100); DP-UCB 10 + 6K (20, 102, 600), KL-UCB 20 + 80K (102,
1436, 7812). Memory: the streams drawn up front, 32 bytes a step (measured 16-24; heterogeneous 64, measured 32);
DP-UCB's trees of noise, 256 bytes a step (measured 160-195); 16 bytes per checkpoint and arm; and 0.5 s for the
compiled noise kernels a first call loads (0.2 s measured). The tests' largest runs (4·10⁴ steps) are estimated
at a few core-seconds.
"""

from __future__ import annotations

import math

import numpy as np

from . import instances as ins
from . import mechanisms as mech
from ._validate import check_int
from .limits import MAX_HORIZON, Limits, check_limits
from .rng import run_streams


def _episodes(n_arms: int, horizon: int) -> int:
    """At most K(floor(log2 T) + 1) + 1 episodes (or epochs) a run of Algorithm 1 or DP-SE."""
    return n_arms * horizon.bit_length() + 1


def reference_cost(kind: str, policy, n_arms: int, horizon: int, n_checkpoints: int) -> tuple[float, float, str]:
    """Estimated (core-seconds, bytes, description) of one run of the plain reference ``kind`` (``"index"``:
    :func:`run_reference`, ``"heterogeneous"``, ``"global"``) of ``policy`` on ``n_arms`` arms for ``horizon``
    steps with ``n_checkpoints`` checkpoints, from the per-step costs of the module docstring ("Limits")."""
    K, T = n_arms, horizon
    nbytes = 16.0 * n_checkpoints * K + 200.0 * n_checkpoints + 1000.0 * K + 65536
    name = getattr(policy, "name", type(policy).__name__)
    if kind == "index":
        us, nbytes = 20 + 0.1 * K, nbytes + 32.0 * T
    elif kind == "heterogeneous":
        us, nbytes = 30 + 0.1 * K, nbytes + 64.0 * T
    elif name == "DP-UCB":
        us, nbytes = 10 + 6 * K, nbytes + 256.0 * T
    elif name in ("AdaP-UCB", "AdaP-KLUCB", "DP-SE"):
        per_episode = (80 if name == "AdaP-KLUCB" else 10) * K
        seconds = (T * (6 + 0.4 * K) + _episodes(K, T) * per_episode) * 1e-6
        work = (
            f"horizon={T} pulls of the plain {name} on {K} arms at {6 + 0.4 * K:g} µs a pull and at most "
            f"{_episodes(K, T)} episodes at {per_episode} µs"
        )
        return seconds, nbytes, work
    else:  # KL-UCB, and any other name (run_reference_global plays KL-UCB)
        us = 20 + 80 * K
    return T * us * 1e-6, nbytes, f"horizon={T} steps of the plain {name} on {K} arms at {us:g} µs a step"


def _check_cost(call: str, kind: str, policy, instance, horizon, checkpoints, limits) -> int:
    """The checked horizon of a reference call, once its estimated cost is within ``limits``."""
    horizon = check_int("horizon", horizon, minimum=0, maximum=MAX_HORIZON)
    seconds, nbytes, work = reference_cost(kind, policy, instance.n_arms, horizon, len(checkpoints))
    check_limits(
        call,
        work,
        seconds + 0.5,  # a first call loads the compiled noise kernels (0.2 s measured)
        nbytes,
        limits,
        scale_out="The plain reference runs in Python, one step at a time, about 100 times slower than the "
        "engine: lower horizon, or use ldpcode.simulate (which it exists to check). Its per-step costs are "
        "listed in the docstring of the module ldpcode/reference.py.",
    )
    return horizon


def _reward(arm: ins.Arm, draw: float) -> float:
    if arm.family == ins.Family.BERNOULLI:
        return float(draw < arm.p0)
    if arm.family == ins.Family.BETA_A1:
        return draw ** (1.0 / arm.p0)
    if arm.family == ins.Family.TWO_POINT:
        return arm.p0 if draw < 0.5 else arm.p1
    if arm.family == ins.Family.UNIFORM:
        return arm.p0 + (arm.p1 - arm.p0) * draw
    return arm.p0 + arm.p1 * draw


def _sigmoid(r: float) -> float:
    """s(r) = 1/(1 + e^{-r}), written as e^r/(1 + e^r) for r < 0 so that no exponential overflows."""
    if r >= 0:
        return 1.0 / (1.0 + math.exp(-r))
    return math.exp(r) / (1.0 + math.exp(r))


def _ctb_probability(r: float, eps: float) -> float:
    """Curator 3's P{1} = (r e^eps + 1 - r)/(1 + e^eps), numerator and denominator divided by e^eps so that
    nothing overflows at any eps: (r + (1 - r) e^{-eps})/(1 + e^{-eps})."""
    d = math.exp(-eps)
    return (r + (1.0 - r) * d) / (1.0 + d)


def _coth_half(eps: float) -> float:
    """k(eps) = (e^eps + 1)/(e^eps - 1), divided by e^eps: (1 + e^{-eps})/(1 - e^{-eps}), with the
    denominator as -expm1(-eps) (no cancellation at small eps, no overflow at large eps)."""
    return (1.0 + math.exp(-eps)) / -math.expm1(-eps)


def _respond(policy, r: float, noise: float) -> float:
    if policy.use_sigmoid:
        r = _sigmoid(r)
    if policy.curator is None:
        return r
    eps = policy.curator.epsilon
    if policy.curator.code == mech.Mechanism.LAPLACE:  # Curator 1: r + Laplace(1/eps)
        return r + noise / eps
    return float(noise < _ctb_probability(r, eps))  # Curator 3


def run_reference(
    policy,
    instance,
    horizon: int,
    seed_seq: np.random.SeedSequence,
    checkpoints: np.ndarray,
    *,
    limits: Limits | None = None,
) -> np.ndarray:
    """One run, step by step; returns the pull counts at ``checkpoints``, shape (C, arms). ``limits`` caps the
    estimated cost (:func:`reference_cost`), checked before anything is drawn."""
    horizon = _check_cost("run_reference", "index", policy, instance, horizon, checkpoints, limits)
    reward_rng, noise_rng = run_streams(seed_seq)
    reward_draws = instance.draw_stream(reward_rng, horizon)
    noise_draws = policy.draw_noise(noise_rng, horizon)
    n = instance.n_arms
    N = np.zeros(n, dtype=np.int64)
    S = np.zeros(n)
    out = np.zeros((len(checkpoints), n), dtype=np.int64)
    cps = {int(c): i for i, c in enumerate(checkpoints)}
    eps = policy.epsilon
    for t in range(horizon):  # t = number of pulls so far
        if t < n:
            arm = t
        else:
            low = np.flatnonzero(N <= 4 * math.log(t + 1)) if policy.forced_exploration else []
            if len(low):
                arm = int(low[0])
            else:
                u = S / N + np.sqrt(2 * math.log(t) / N)
                if policy.mechanism_code == mech.Mechanism.LAPLACE:
                    u = u + np.sqrt(32 * math.log(t) / N) / eps  # sqrt(32 log t/(eps^2 N)); eps^2 may overflow
                arm = int(np.argmax(u))
        x = _respond(policy, _reward(instance.arms[arm], reward_draws[t]), noise_draws[t])
        N[arm] += 1
        S[arm] += x
        if t + 1 in cps:
            out[cps[t + 1]] = N
    return out


def run_reference_heterogeneous(
    policy,
    instance,
    levels,
    horizon: int,
    seed_seq: np.random.SeedSequence,
    checkpoints: np.ndarray,
    *,
    limits: Limits | None = None,
) -> np.ndarray:
    r"""One run of HeLDP-UCB-L / -B (extended version of Ren et al., Agents 2 and 4), step by step, on the
    three streams of ``HeterogeneousPolicy.run_one`` (rewards, curator noise, users' levels).

    Literal indexes, with :math:`\log t^4 = 4\log t` and t the pulls so far: Agent 2, Line 14,
    :math:`s_a/N_a + \sqrt{\log t^4/(2N_a)} + \sqrt{8A_a\log t^4/N_a^2}` after the forced pulls of Line 4
    (:math:`A_a \le \epsilon_{\min}^{-2}\log t^4` in round t + 1; the arm with the smallest :math:`A_a` is
    forced, ties to the lowest-numbered); Agent 4, Line 11,
    :math:`s_a/N_a + \sqrt{B_a\log t^4/(2N_a^2)}`; :math:`u_a = \infty` while :math:`N_a = 0`. Responses of
    users with :math:`\epsilon_t < \epsilon_{\min}` are discarded. Returns pull counts, shape (C, arms).
    ``limits`` caps the estimated cost (:func:`reference_cost`), checked before anything is drawn.
    """
    horizon = _check_cost(
        "run_reference_heterogeneous", "heterogeneous", policy, instance, horizon, checkpoints, limits
    )
    reward_rng, noise_rng, level_rng = run_streams(seed_seq, 3)
    reward_draws = instance.draw_stream(reward_rng, horizon)
    noise_draws = policy.draw_noise(noise_rng, horizon)
    eps_draws = levels.sample(level_rng, horizon)
    n, em = instance.n_arms, policy.epsilon_min
    pulls, kept = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    S, A = np.zeros(n), np.zeros(n)
    out = np.zeros((len(checkpoints), n), dtype=np.int64)
    cps = {int(c): i for i, c in enumerate(checkpoints)}
    laplace = policy.mechanism_code == mech.Mechanism.LAPLACE
    for t in range(horizon):
        # Line 4 forces "an arm having A_a <= eps_min^-2 log t^4" without saying which: the book forces the
        # most under-explored one, the smallest A_a (ties: the lowest-numbered), so the order of the arms
        # does not decide who pays the forced exploration
        if policy.forced_exploration and A.min() <= 4 * math.log(t + 1) / em**2:
            arm = int(np.argmin(A))
        else:
            lt4 = 4 * math.log(t) if t > 1 else 0.0
            with np.errstate(divide="ignore", invalid="ignore"):
                if laplace:
                    u = S / kept + np.sqrt(lt4 / (2 * kept)) + np.sqrt(8 * A * lt4 / kept**2)
                else:
                    u = S / kept + np.sqrt(A * lt4 / (2 * kept**2))
            arm = int(np.argmax(np.where(kept == 0, np.inf, u)))
        pulls[arm] += 1
        e = eps_draws[t]
        if e >= em:
            r = _reward(instance.arms[arm], reward_draws[t])
            if policy.use_sigmoid:
                r = _sigmoid(r)
            if laplace:  # Curator 1 at eps_t
                x, A[arm] = r + noise_draws[t] / e, A[arm] + e**-2
            else:  # Curator 3 at eps_t, then g(x; eps_t) = 1/2 + (x - 1/2) k, k = (e^eps+1)/(e^eps-1)
                k = _coth_half(e)
                y = float(noise_draws[t] < _ctb_probability(r, e))
                x, A[arm] = 0.5 + (y - 0.5) * k, A[arm] + k * k
            kept[arm] += 1
            S[arm] += x
        if t + 1 in cps:
            out[cps[t + 1]] = pulls
    return out


# ---------------------------------------------------------------------------------------------------
# Azize and Basu (2022): the global-DP policies, one pull at a time
# ---------------------------------------------------------------------------------------------------


def _kl(p: float, q: float) -> float:
    a = p * math.log(p / q) if p > 0 else 0.0
    b = (1 - p) * math.log((1 - p) / (1 - q)) if p < 1 else 0.0
    return a + b


def _klucb(p: float, level: float) -> float:
    """max{q in [p, 1] : kl(p, q) <= level}, by plain bisection (60 halvings)."""
    if p >= 1 or level <= 0:
        return min(max(p, 0.0), 1.0)
    lo, hi = p, 1.0
    if _kl(p, 1 - 1e-15) <= level:
        return 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if _kl(p, mid) > level:
            hi = mid
        else:
            lo = mid
    return hi


def _adap_index(name, mu, m, t_l, eps, alpha):
    """Eqs. (7) and (8), written out per arm."""
    out = []
    for a in range(len(mu)):
        priv = alpha * math.log(t_l) / (eps * m[a])
        if name == "AdaP-UCB":
            out.append(mu[a] + math.sqrt(alpha * math.log(t_l) / (2 * m[a])) + priv)
        else:
            clipped = min(max(mu[a] + priv, 0.0), 1.0)
            out.append(_klucb(clipped, alpha * math.log(t_l) / m[a]))
    return out


def run_reference_global(
    policy,
    instance,
    horizon: int,
    seed_seq: np.random.SeedSequence,
    checkpoints: np.ndarray,
    *,
    limits: Limits | None = None,
) -> np.ndarray:
    """One run of AdaP-UCB, AdaP-KLUCB, DP-SE, DP-UCB or KL-UCB, one pull at a time, consuming the reward
    stream one draw per pull and the noise stream one Laplace draw per private release (per pull for
    DP-UCB). Returns the pull counts at ``checkpoints``, shape (C, arms). ``limits`` caps the estimated cost
    (:func:`reference_cost`), checked before anything is drawn."""
    if getattr(policy, "name", None) not in _GLOBAL_REFERENCES:
        raise ValueError(
            f"run_reference_global runs {', '.join(_GLOBAL_REFERENCES)}, not {getattr(policy, 'name', policy)!r}"
        )
    horizon = _check_cost("run_reference_global", "global", policy, instance, horizon, checkpoints, limits)
    reward_rng, noise_rng = run_streams(seed_seq)
    K = instance.n_arms
    N = np.zeros(K, dtype=np.int64)
    out = np.zeros((len(checkpoints), K), dtype=np.int64)
    cps = {int(c): i for i, c in enumerate(checkpoints)}

    def pull(arm, t):
        r = _reward(instance.arms[arm], float(instance.draw_stream(reward_rng, 1)[0]))
        N[arm] += 1
        if t + 1 in cps:
            out[cps[t + 1]] = N
        return r

    _GLOBAL_REFERENCES[policy.name](policy, K, horizon, N, pull, noise_rng)
    return out


def _adap_reference(policy, K, horizon, N, pull, noise_rng) -> None:
    """AdaP-UCB and AdaP-KLUCB (Azize and Basu, Algorithm 1): doubling episodes, one private mean each."""
    eps = policy.epsilon
    mu, m = [0.0] * K, [0] * K
    for a in range(K):  # Line 3
        r = pull(a, a)
        mu[a] = r + noise_rng.laplace() / eps
        m[a] = 1
    t = K
    while t < horizon:
        u = _adap_index(policy.name, mu, m, t + 1, eps, policy.alpha)
        arm = max(range(K), key=lambda a: (u[a], -a))
        target, total, length = 2 * N[arm], 0.0, 0
        while N[arm] < target and t < horizon:  # Line 7
            total += pull(arm, t)
            length += 1
            t += 1
        if t < horizon:  # the private mean of the episode just ended
            mu[arm] = total / length + noise_rng.laplace() / (eps * length)
            m[arm] = length


def _dp_se_reference(policy, K, horizon, N, pull, noise_rng) -> None:
    """DP-SE (Sajed and Sheffet): epochs of round-robin, private epoch means, elimination at 2^-e."""
    from .global_policies import dp_se_epoch_length

    eps = policy.epsilon
    beta = 1.0 / horizon if policy.beta is None else policy.beta
    active, t, e = list(range(K)), 0, 1
    while t < horizon:
        if len(active) == 1:
            while t < horizon:
                pull(active[0], t)
                t += 1
            break
        R = dp_se_epoch_length(len(active), e, eps, beta)
        sums = dict.fromkeys(active, 0.0)
        for _ in range(R):
            for a in active:
                if t < horizon:
                    sums[a] += pull(a, t)
                    t += 1
        if t >= horizon:
            break
        priv = {a: sums[a] / R + noise_rng.laplace() / (eps * R) for a in active}
        best = max(priv.values())
        active = [a for a in active if best - priv[a] <= 2.0 ** (-e)]
        e += 1


def _dp_ucb_reference(policy, K, horizon, N, pull, noise_rng) -> None:
    """DP-UCB: UCB1 on private sums, one tree mechanism per arm, the noise node drawn at its first use."""
    from .global_policies import dp_ucb_noise_bound

    S = [0.0] * K
    depth, scale, bound = dp_ucb_noise_bound(horizon, K, policy.epsilon, policy.gamma)
    noise = noise_rng.laplace(0.0, 1.0, horizon)
    trees = [dict() for _ in range(K)]  # (level j, block n >> j) -> Laplace noise of that node
    priv = [0.0] * K
    for t in range(horizon):
        if t < K:
            arm = t
        else:
            u = [priv[a] / N[a] + math.sqrt(2 * math.log(t) / N[a]) + bound / N[a] for a in range(K)]
            arm = max(range(K), key=lambda a: (u[a], -a))
        S[arm] += pull(arm, t)
        n = int(N[arm])
        used = [(j, n >> j) for j in range(depth) if (n >> j) & 1]
        for node in used:
            if node not in trees[arm]:
                trees[arm][node] = scale * noise[t]
        priv[arm] = S[arm] + sum(trees[arm][node] for node in used)


def _klucb_reference(policy, K, horizon, N, pull, noise_rng) -> None:
    """KL-UCB (non-private): the index inverted at every pull."""
    S = [0.0] * K
    for t in range(horizon):
        if t < K:
            arm = t
        else:
            u = [_klucb(S[a] / N[a], math.log(t) / N[a]) for a in range(K)]
            arm = max(range(K), key=lambda a: (u[a], -a))
        S[arm] += pull(arm, t)


#: the step-by-step reference of each global policy, by its registry name
_GLOBAL_REFERENCES = {
    "AdaP-UCB": _adap_reference,
    "AdaP-KLUCB": _adap_reference,
    "DP-SE": _dp_se_reference,
    "DP-UCB": _dp_ucb_reference,
    "KL-UCB": _klucb_reference,
}
