r"""A contextual bandit instance of Zheng et al. (2020), Section 4: θ* in the unit ball, K context vectors a
round, the link ("linear" with uniform noise, Section 4.1; "logistic" with Bernoulli rewards, Section 4.2)
and the context law.

* :data:`LINKS`, :data:`CONTEXTS`: the links and context laws accepted.
* :class:`ContextualInstance`, :func:`make_contextual_instance`: the instance and its validated constructor.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import as_float_array, check_int, check_real, check_seed
from .link import logistic, sample_unit_ball

LINKS = ("linear", "logistic")
CONTEXTS = ("ball", "identical")


@dataclass(frozen=True)
class ContextualInstance:
    """θ* (norm <= 1), K arms, the link ("linear"/"logistic"), the half-width b of the uniform reward
    noise (linear link only) and the context law ("ball": i.i.d. uniform in the unit ball; "identical":
    one uniform point repeated for all K arms, an instance with zero regret)."""

    theta: np.ndarray
    n_arms: int
    link: str = "linear"
    noise: float = 0.5
    contexts: str = "ball"

    @property
    def dim(self) -> int:
        return int(self.theta.shape[0])

    @property
    def y_max(self) -> float:
        """Bound on ``|y|``: 1 + b (linear), 1 (Bernoulli)."""
        return 1.0 + self.noise if self.link == "linear" else 1.0

    def mean(self, z):
        return np.asarray(z, dtype=float) if self.link == "linear" else logistic(z)

    def draw_contexts(self, rng: np.random.Generator, m: int) -> np.ndarray:
        if self.contexts == "identical":
            x = sample_unit_ball(rng, (m, 1), self.dim)
            return np.repeat(x, self.n_arms, axis=1)
        return sample_unit_ball(rng, (m, self.n_arms), self.dim)


def make_contextual_instance(
    dim: int = 5,
    n_arms: int = 10,
    *,
    link: str = "linear",
    noise: float = 0.5,
    theta=None,
    seed: int = 0,
    contexts: str = "ball",
) -> ContextualInstance:
    """A contextual instance. θ* is ``theta`` if given (norm <= 1, length ``dim``), else a uniform point
    on the unit sphere drawn from ``seed`` (‖θ*‖ = S = 1). Raises ValueError naming the parameter."""
    dim = check_int("dim", dim, minimum=1)
    n_arms = check_int("n_arms", n_arms, minimum=2)
    if link not in LINKS:
        raise ValueError(f"link must be one of {LINKS}, got {link!r}")
    if contexts not in CONTEXTS:
        raise ValueError(f"contexts must be one of {CONTEXTS}, got {contexts!r}")
    noise = check_real("noise", noise)
    if noise < 0:
        raise ValueError(f"noise must be >= 0 (half-width of the uniform reward noise), got {noise!r}")
    seed = check_seed("seed", seed)
    if theta is None:
        g = np.random.default_rng(seed).standard_normal(dim)
        th = g / np.linalg.norm(g)
    else:
        th = as_float_array("theta", theta)
        if th.ndim != 1 or th.shape[0] != dim:
            raise ValueError(f"theta must have dimension dim = {dim}, got shape {th.shape}")
        if not np.isfinite(th).all() or np.linalg.norm(th) > 1 + 1e-12:
            raise ValueError(f"theta must be finite with norm <= 1, got norm {float(np.linalg.norm(th))!r}")
    return ContextualInstance(theta=th, n_arms=n_arms, link=link, noise=noise, contexts=contexts)
