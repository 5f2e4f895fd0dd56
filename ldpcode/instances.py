"""Reward distributions and the papers' bandit instances.

An arm is a distribution whose reward is a fixed function of one draw from a shared stream: a
uniform on [0, 1) for the bounded families, a standard normal for the Gaussian family. That one
function (:func:`reward_from_draw`) serves the compiled engine and the plain reference alike.

Instances by name (:func:`make_instance`, :func:`list_instances`):

* ``ren2020-bernoulli``: the 20 Bernoulli arms of Ren et al., Fig. 1(a-d):
  1 x 0.9, 5 x 0.8, 5 x 0.7, 5 x 0.6, 4 x 0.5.
* ``ren2020-mixed``: the same means with the distributions of Fig. 1(e, f): Bernoulli for 0.9 and 0.6,
  Beta(4, 1) for 0.8, uniform on {0.4, 1} for 0.7, uniform on [0, 1] for 0.5.
* ``ren2020-gaussian``: the same means with N(mu, 1) rewards (supplement, Fig. 2).
* ``bernoulli`` with ``means=[...]``: any Bernoulli instance.
* ``gaussian`` with ``means=[...]`` (and ``sigma``): any Gaussian instance.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numba import njit

from ._validate import check_choice, check_probability_vector, check_real

# Family codes shared with the compiled engine.
BERNOULLI, BETA_A1, TWO_POINT, UNIFORM, GAUSSIAN = 0, 1, 2, 3, 4
_FAMILY_NAMES = {BERNOULLI: "Bernoulli", BETA_A1: "Beta(a, 1)", TWO_POINT: "uniform on {lo, hi}",
                 UNIFORM: "uniform on [lo, hi]", GAUSSIAN: "Gaussian"}


@njit(cache=True)
def reward_from_draw(family, p0, p1, draw):
    """The reward of an arm of ``family`` with parameters (p0, p1), from one stream draw.

    Bernoulli(p0): ``draw < p0``; Beta(p0, 1): ``draw ** (1/p0)`` (inverse of the CDF x^a);
    uniform on {p0, p1}: ``p0`` if ``draw < 1/2`` else ``p1``; uniform on [p0, p1]:
    ``p0 + (p1 - p0) draw``; Gaussian N(p0, p1^2): ``p0 + p1 draw`` with ``draw`` standard normal.
    """
    if family == BERNOULLI:
        return 1.0 if draw < p0 else 0.0
    if family == BETA_A1:
        return draw ** (1.0 / p0)
    if family == TWO_POINT:
        return p0 if draw < 0.5 else p1
    if family == UNIFORM:
        return p0 + (p1 - p0) * draw
    return p0 + p1 * draw


@dataclass(frozen=True)
class Arm:
    family: int
    p0: float
    p1: float = 0.0

    @property
    def mean(self) -> float:
        if self.family == BERNOULLI:
            return self.p0
        if self.family == BETA_A1:
            return self.p0 / (self.p0 + 1.0)
        if self.family in (TWO_POINT, UNIFORM):
            return 0.5 * (self.p0 + self.p1)
        return self.p0

    @property
    def bounded(self) -> bool:
        return self.family != GAUSSIAN

    def describe(self) -> str:
        if self.family == BERNOULLI:
            return f"Bernoulli({self.p0:g})"
        if self.family == BETA_A1:
            return f"Beta({self.p0:g}, 1)"
        if self.family == TWO_POINT:
            return f"uniform on {{{self.p0:g}, {self.p1:g}}}"
        if self.family == UNIFORM:
            return f"uniform on [{self.p0:g}, {self.p1:g}]"
        return f"N({self.p0:g}, {self.p1 ** 2:g})"


@dataclass(frozen=True)
class Instance:
    """A stochastic bandit instance: a name and a tuple of arms.

    ``means``, ``gaps`` (Delta_a = mu* - mu_a), ``best`` and ``bounded`` are derived from the arms.
    ``stream`` says which draws the arms consume: ``"uniform"`` or ``"normal"``.
    """

    name: str
    arms: tuple
    families: np.ndarray = field(init=False, repr=False, compare=False)
    params: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        if len(self.arms) == 0:
            raise ValueError("an instance needs at least one arm")
        kinds = {a.family == GAUSSIAN for a in self.arms}
        if len(kinds) > 1:
            raise ValueError("an instance cannot mix Gaussian and bounded arms (they use different draw streams)")
        object.__setattr__(self, "families", np.array([a.family for a in self.arms], dtype=np.int64))
        object.__setattr__(self, "params", np.array([[a.p0, a.p1] for a in self.arms], dtype=float))

    @property
    def n_arms(self) -> int:
        return len(self.arms)

    @property
    def means(self) -> np.ndarray:
        return np.array([a.mean for a in self.arms])

    @property
    def gaps(self) -> np.ndarray:
        m = self.means
        return m.max() - m

    @property
    def best(self) -> int:
        return int(np.argmax(self.means))

    @property
    def bounded(self) -> bool:
        return all(a.bounded for a in self.arms)

    @property
    def stream(self) -> str:
        return "uniform" if self.bounded else "normal"

    def draw_stream(self, rng: np.random.Generator, size) -> np.ndarray:
        """The draws that rewards are made from: uniforms or standard normals."""
        return rng.random(size) if self.bounded else rng.standard_normal(size)

    def sample(self, arm: int, size, rng: np.random.Generator) -> np.ndarray:
        """``size`` independent rewards of ``arm`` (outside the engine: for checks and plots)."""
        a = self.arms[arm]
        d = self.draw_stream(rng, size)
        return _rewards_array(a.family, a.p0, a.p1, np.ravel(d)).reshape(np.shape(d))

    def describe(self) -> str:
        return "; ".join(f"arm {i}: {a.describe()}" for i, a in enumerate(self.arms))


@njit(cache=True)
def _rewards_array(family, p0, p1, draws):
    out = np.empty_like(draws)
    for i in range(draws.shape[0]):
        out[i] = reward_from_draw(family, p0, p1, draws[i])
    return out


REN2020_MEANS = (0.9,) + (0.8,) * 5 + (0.7,) * 5 + (0.6,) * 5 + (0.5,) * 4


def _bernoulli(means, name="bernoulli"):
    means = check_probability_vector("means", means)
    return Instance(name, tuple(Arm(BERNOULLI, float(m)) for m in means))


def _gaussian(means, sigma=1.0, name="gaussian"):
    means = np.asarray(means, dtype=float)
    if means.ndim != 1 or means.size == 0 or not np.isfinite(means).all():
        raise ValueError(f"means must be a non-empty 1-d sequence of finite numbers, got {means!r}")
    sigma = check_real("sigma", sigma)
    if sigma <= 0:
        raise ValueError(f"sigma must be > 0, got {sigma!r}")
    return Instance(name, tuple(Arm(GAUSSIAN, float(m), sigma) for m in means))


def _mixed():
    by_mean = {0.9: Arm(BERNOULLI, 0.9), 0.8: Arm(BETA_A1, 4.0), 0.7: Arm(TWO_POINT, 0.4, 1.0),
               0.6: Arm(BERNOULLI, 0.6), 0.5: Arm(UNIFORM, 0.0, 1.0)}
    return Instance("ren2020-mixed", tuple(by_mean[m] for m in REN2020_MEANS))


_REGISTRY = {
    "ren2020-bernoulli": lambda: _bernoulli(REN2020_MEANS, "ren2020-bernoulli"),
    "ren2020-mixed": _mixed,
    "ren2020-gaussian": lambda: _gaussian(REN2020_MEANS, 1.0, "ren2020-gaussian"),
    "bernoulli": _bernoulli,
    "gaussian": _gaussian,
}
_NEEDS_MEANS = {"bernoulli", "gaussian"}


def list_instances() -> list[str]:
    """The names :func:`make_instance` accepts."""
    return sorted(_REGISTRY)


def make_instance(name: str, **kwargs) -> Instance:
    """An instance by name; ``bernoulli`` and ``gaussian`` take ``means=[...]`` (and ``sigma``)."""
    check_choice("instance", name, _REGISTRY)
    if name in _NEEDS_MEANS:
        if "means" not in kwargs:
            raise ValueError(f"instance {name!r} needs means=[...], a list of arm means")
        return _REGISTRY[name](**kwargs)
    if kwargs:
        raise ValueError(f"instance {name!r} takes no parameters, got {sorted(kwargs)}")
    return _REGISTRY[name]()
