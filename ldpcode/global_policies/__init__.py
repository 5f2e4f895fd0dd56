r"""Bandit algorithms under ε-global DP (Azize and Basu 2022): the curator is trusted and sees raw rewards;
what must be private is the sequence of actions it publishes.

==============  ==========================================================================================
name            algorithm
==============  ==========================================================================================
``AdaP-UCB``    Algorithm 1 with the index of eq. (7)
``AdaP-KLUCB``  Algorithm 1 with the index of eq. (8) (KL-UCB on the clipped private mean)
``DP-SE``       private successive elimination (Sajed and Sheffet 2019), β = 1/T by default
``DP-UCB``      UCB on private sums from the tree mechanism (Mishra and Thakurta 2015; Tossou and
                Dimitrakakis 2016), γ = 0.1 by default
``KL-UCB``      non-private KL-UCB (Garivier and Cappé 2011), for reference (``UCB1`` lives in
                :mod:`ldpcode.policies`)
==============  ==========================================================================================

**Algorithm 1, written once.** :class:`AdaptiveEpisodes` holds the three ingredients: (i) the Laplace
mechanism on the mean of an arm's *last active episode* (the kernel ``ldpcode.mechanisms.laplace_mean``, Lemma 1),
(ii) per-arm doubling episodes (the chosen arm is played until its count doubles, Line 7), (iii) forgetting
everything before that episode. The index is a separate object (:class:`PrivateIndex`); AdaP-UCB and
AdaP-KLUCB are two of them and a third is a few lines: subclass :class:`PrivateIndex` and give
``__call__(mu_tilde, m, t_l, epsilon, alpha)``.

**Episode length m.** The paper writes the last episode's length as :math:`\frac12 N_a(t_\ell - 1)`; that is
exact after an arm's first episode, but after the initial pull (Line 3) the last "episode" is that single
pull, of length 1 = :math:`N_a`. We use the true length m of the last episode everywhere (noise scale
:math:`1/(\epsilon m)` and index), which is what Lemma 1 and Example 2 ("Arm 2 uses
:math:`r_6 + \mathrm{Lap}(1/\epsilon)`") describe.

**Exact episodic simulation.** Within an episode the arm is fixed and its rewards enter only through their
sum, so the engine draws that sum from its exact law (one Binomial for a Bernoulli arm, one Normal for a
Gaussian arm; other bounded families sum their draws) instead of stepping. Pseudo-regret at any checkpoint
inside an episode follows exactly from the counts, which grow linearly there. ``sampler="stepwise"``
consumes one reward draw per pull instead, exactly as the plain step-by-step version in
:mod:`ldpcode.reference` does, so that both pull the same arms with the same seed (tests check it, and check
the exact sampler against it in distribution).

**The rooms.** Every public name below is re-exported here, so ``ldpcode.global_policies.X`` and
``from ldpcode.global_policies import X`` work as before the split (import the private helpers from their
room). Submodules import from one another directly, never from this ``__init__``.

========================================  ==========================================================================
:mod:`~ldpcode.global_policies.indexes`   the indexes on one private mean: :class:`PrivateIndex`,
                                          :class:`UCBIndex` (eq. (7)), :class:`KLUCBIndex` (eq. (8))
:mod:`~ldpcode.global_policies.protocol`  :class:`_GlobalPolicy`, the engine protocol every policy here shares
:mod:`~ldpcode.global_policies.episodes`  Algorithm 1 (:class:`AdaptiveEpisodes`; Lemma 1, Theorem 6) and the
                                          episodic machinery: :class:`Blocks` (Table 1's "# Private Means"),
                                          :func:`episode_sum`, :func:`epoch_sums`, :data:`SAMPLERS`,
                                          :class:`_Episodic`, :data:`DEFAULT_ALPHA`, :func:`_check_alpha`
                                          (Theorems 7-8 need α > 3); the noise-free model
                                          :func:`noise_free_pulls` (:class:`HorizonTooShort`)
:mod:`~ldpcode.global_policies.dp_se`     Table 1's DP-SE baseline: :func:`dp_se_epoch_length`, :class:`DPSE`
:mod:`~ldpcode.global_policies.per_step`  Table 1's DP-UCB baseline (:func:`dp_ucb_noise_bound`, :class:`DPUCB`,
                                          :data:`DEFAULT_GAMMA`) and non-private :class:`KLUCB`, with their
                                          compiled kernels :func:`dp_ucb_chunk`, :func:`klucb_chunk`
========================================  ==========================================================================

This module holds their specifications, :data:`GLOBAL_SPECS` (name -> how to build it, which options it takes),
:data:`GLOBAL_POLICIES` and :func:`make_global_policy`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .._validate import check_choice, check_epsilon, check_probability, one_line
from .dp_se import DPSE, dp_se_epoch_length
from .episodes import (
    DEFAULT_ALPHA,
    SAMPLERS,
    AdaptiveEpisodes,
    Blocks,
    HorizonTooShort,
    _check_alpha,
    check_blocks,
    episode_sum,
    epoch_sums,
    noise_free_pulls,
)
from .indexes import KLUCBIndex, PrivateIndex, UCBIndex
from .per_step import DEFAULT_GAMMA, DPUCB, KLUCB, dp_ucb_chunk, dp_ucb_noise_bound, klucb_chunk

__all__ = [
    # indexes
    "PrivateIndex",
    "UCBIndex",
    "KLUCBIndex",
    # episodes
    "DEFAULT_ALPHA",
    "SAMPLERS",
    "Blocks",
    "check_blocks",
    "episode_sum",
    "epoch_sums",
    "AdaptiveEpisodes",
    "HorizonTooShort",
    "noise_free_pulls",
    # dp_se
    "dp_se_epoch_length",
    "DPSE",
    # per_step
    "DEFAULT_GAMMA",
    "dp_ucb_noise_bound",
    "DPUCB",
    "KLUCB",
    "dp_ucb_chunk",
    "klucb_chunk",
    # registry (here)
    "GLOBAL_POLICIES",
    "GLOBAL_SPECS",
    "Registered",
    "make_global_policy",
]


# ---------------------------------------------------------------------------------------------------
# Registry
# ---------------------------------------------------------------------------------------------------


def _alpha(options) -> float:
    return DEFAULT_ALPHA if options.get("alpha") is None else _check_alpha(options["alpha"])


def _beta(options):
    beta = options.get("beta")
    return None if beta is None else check_probability("beta", beta)  # a failure probability; default 1/T


def _gamma(options) -> float:
    gamma = options.get("gamma")  # a failure probability; the paper uses 0.1
    return DEFAULT_GAMMA if gamma is None else check_probability("gamma", gamma)


@dataclass(frozen=True)
class Registered:
    """One line of :data:`GLOBAL_SPECS`: ``build(epsilon, options)`` makes the policy (epsilon already checked, or
    None when the policy is not ``private``); ``options`` are the names among alpha / beta / gamma it takes."""

    build: Callable
    options: frozenset = frozenset()
    private: bool = True


GLOBAL_SPECS = {
    "AdaP-UCB": Registered(
        lambda eps, o: AdaptiveEpisodes("AdaP-UCB", UCBIndex(), eps, _alpha(o)), frozenset({"alpha"})
    ),
    "AdaP-KLUCB": Registered(
        lambda eps, o: AdaptiveEpisodes("AdaP-KLUCB", KLUCBIndex(), eps, _alpha(o)), frozenset({"alpha"})
    ),
    "DP-SE": Registered(lambda eps, o: DPSE(eps, _beta(o)), frozenset({"beta"})),
    "DP-UCB": Registered(lambda eps, o: DPUCB(eps, _gamma(o)), frozenset({"gamma"})),
    "KL-UCB": Registered(lambda eps, o: KLUCB(), private=False),
}
"""The ε-global DP policies (and KL-UCB) by name, with their options: adding one is a class and one line here
(:data:`ldpcode.policies.REGISTRY`, the one registry of make_policy, takes every name of :data:`GLOBAL_POLICIES`)."""

GLOBAL_POLICIES = tuple(GLOBAL_SPECS)


def make_global_policy(name: str, epsilon, options: dict):
    """Build one of :data:`GLOBAL_POLICIES`; ``options`` (a dict) holds alpha / beta / gamma (None = default). An
    unknown name is a ValueError listing the known ones (it was a bare KeyError)."""
    check_choice("global policy", name, GLOBAL_SPECS)
    if not isinstance(options, Mapping):
        raise TypeError(f"options must be a dict of alpha / beta / gamma (None = default), got {options!r}")
    entry = GLOBAL_SPECS[name]
    given = {k for k, v in options.items() if v is not None}
    extra = given - entry.options
    if extra:
        allowed = ", ".join(sorted(entry.options)) or "none"
        raise ValueError(f"policy {name!r} takes no {', '.join(sorted(map(str, extra)))} (its options: {allowed})")
    if not entry.private:
        if epsilon is not None:
            raise ValueError(
                f"policy {name!r} is not private and takes no epsilon, got epsilon={one_line(epsilon, 40)}"
            )
        return entry.build(None, options)
    if epsilon is None:
        raise ValueError(f"policy {name!r} needs epsilon, a finite number > 0")
    return entry.build(check_epsilon(epsilon), options)
