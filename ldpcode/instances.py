"""Reward distributions and the papers' bandit instances.

An arm is a distribution whose reward is a fixed function of one draw from a shared stream: a
uniform on [0, 1) for the bounded families, a standard normal for the Gaussian family. That one
function (:func:`reward_from_draw`) serves the compiled engine and the plain reference alike.

Instances by name (:func:`make_instance`, :func:`list_instances`):

* ``ren2020-bernoulli``: the 20 Bernoulli arms of Ren et al., Fig. 1(a-d): 1 x 0.9, 5 x 0.8, 5 x 0.7, 5 x 0.6, 4 x 0.5.
* ``ren2020-mixed``: the same means with the distributions of Fig. 1(e, f): Bernoulli for 0.9 and 0.6,
  Beta(4, 1) for 0.8, uniform on {0.4, 1} for 0.7, uniform on [0, 1] for 0.5.
* ``ren2020-gaussian``: the same means with N(mu, 1) rewards (supplement, Fig. 2).
* ``bernoulli`` with ``means=[...]``: any Bernoulli instance.
* ``gaussian`` with ``means=[...]`` (and ``sigma``): any Gaussian instance.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from enum import IntEnum

import numpy as np
from numba import njit

from ._quadrature import gaussian_expect_robust
from ._validate import MAX_COUNT, as_float_array, check_array, check_choice, check_epsilon, check_int, check_keywords
from ._validate import check_probability_vector, check_real, check_rng, check_size, one_line

# Family codes shared with the compiled engine.


class Family(IntEnum):
    """The law of an arm's rewards (the code the compiled reward draws branch on). Not to be confused with
    :class:`ldpcode.mechanisms.Mechanism`, what a curator does to a reward."""

    BERNOULLI = 0
    BETA_A1 = 1
    TWO_POINT = 2
    UNIFORM = 3
    GAUSSIAN = 4


_FAMILY_NAMES = {
    Family.BERNOULLI: "Bernoulli",
    Family.BETA_A1: "Beta(a, 1)",
    Family.TWO_POINT: "uniform on {lo, hi}",
    Family.UNIFORM: "uniform on [lo, hi]",
    Family.GAUSSIAN: "Gaussian",
}


@njit(cache=True)
def reward_from_draw(family, p0, p1, draw):
    """The reward of an arm of ``family`` with parameters (p0, p1), from one stream draw.

    Bernoulli(p0): ``draw < p0``; Beta(p0, 1): ``draw ** (1/p0)`` (inverse of the CDF :math:`x^a`);
    uniform on {p0, p1}: ``p0`` if ``draw < 1/2`` else ``p1``; uniform on [p0, p1]:
    ``p0 + (p1 - p0) draw``; Gaussian N(p0, p1²): ``p0 + p1 draw`` with ``draw`` standard normal.
    """
    if family == Family.BERNOULLI:
        return 1.0 if draw < p0 else 0.0
    if family == Family.BETA_A1:
        return draw ** (1.0 / p0)
    if family == Family.TWO_POINT:
        return p0 if draw < 0.5 else p1
    if family == Family.UNIFORM:
        return p0 + (p1 - p0) * draw
    return p0 + p1 * draw


@dataclass(frozen=True)
class Arm:
    """One arm: its reward law ``family`` (a :class:`Family`) and the law's parameters (p0, p1), checked when the arm
    is made (:func:`_check_law`): Bernoulli(p0), p0 its mean in [0, 1]; Beta(p0, 1), p0 > 0; uniform on {p0, p1} and
    on [p0, p1], p0 <= p1; Gaussian N(p0, p1²), p1 > 0 (make_instance's own rules for its means and sigma). p1 is
    0 where the law has no second parameter. Every number is finite."""

    family: int
    p0: float
    p1: float = 0.0

    def __post_init__(self):
        _check_law(self.family, self.p0, self.p1)

    @property
    def mean(self) -> float:
        if self.family == Family.BERNOULLI:
            return self.p0
        if self.family == Family.BETA_A1:
            return self.p0 / (self.p0 + 1.0)
        if self.family in (Family.TWO_POINT, Family.UNIFORM):
            return 0.5 * (self.p0 + self.p1)
        return self.p0

    @property
    def bounded(self) -> bool:
        return self.family != Family.GAUSSIAN

    def describe(self) -> str:
        if self.family == Family.BERNOULLI:
            return f"Bernoulli({self.p0:g})"
        if self.family == Family.BETA_A1:
            return f"Beta({self.p0:g}, 1)"
        if self.family == Family.TWO_POINT:
            return f"uniform on {{{self.p0:g}, {self.p1:g}}}"
        if self.family == Family.UNIFORM:
            return f"uniform on [{self.p0:g}, {self.p1:g}]"
        return f"N({self.p0:g}, {self.p1**2:g})"


@dataclass(frozen=True)
class Instance:
    r"""A stochastic bandit instance: a name and a tuple of arms.

    ``means``, ``gaps`` (:math:`\Delta_a = \mu^* - \mu_a`), ``best`` and ``bounded`` are derived from the arms.
    ``stream`` says which draws the arms consume: ``"uniform"`` or ``"normal"``.
    """

    name: str
    arms: tuple
    families: np.ndarray = field(init=False, repr=False, compare=False)
    params: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        if not isinstance(self.name, str):
            raise TypeError(f"name must be a string (the instance's label), got {self.name!r}")
        if not isinstance(self.arms, (tuple, list)):
            raise TypeError(
                f"arms must be a tuple of Arm, got {one_line(self.arms)} of type {type(self.arms).__name__}"
            )
        for i, a in enumerate(self.arms):
            if not isinstance(a, Arm):
                raise TypeError(f"arms[{i}] must be an Arm (ldpcode.instances.Arm), got {one_line(a)}")
        object.__setattr__(self, "arms", tuple(self.arms))  # a list made the instance unhashable
        if len(self.arms) == 0:
            raise ValueError("an instance needs at least one arm")
        kinds = {a.family == Family.GAUSSIAN for a in self.arms}
        if len(kinds) > 1:
            raise ValueError("an instance cannot mix Gaussian and bounded arms (they use different draw streams)")
        _check_registered_name(self.name, self.arms)
        object.__setattr__(self, "families", np.array([a.family for a in self.arms], dtype=np.int64))
        object.__setattr__(self, "params", np.array([[a.p0, a.p1] for a in self.arms], dtype=float))

    @property
    def n_arms(self) -> int:
        return len(self.arms)

    @property
    def means(self) -> np.ndarray:
        r"""The arms' means :math:`\mu_a`, in the order of ``arms`` (a new float array at each access)."""
        return np.array([a.mean for a in self.arms])

    @property
    def gaps(self) -> np.ndarray:
        r"""The gap of every arm, :math:`\Delta_a = \mu^* - \mu_a` with :math:`\mu^* = \max_a \mu_a` (0 at the best
        arms), in the order of ``arms``."""
        m = self.means
        return m.max() - m

    @property
    def best(self) -> int:
        """The index (0-based) of an arm of largest mean; the lowest-numbered one when several tie
        (``numpy.argmax``)."""
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
        """``size`` independent rewards of ``arm`` (outside the engine: for checks and plots). ``arm`` is an integer
        in [0, n_arms) (arm=-1 drew the last arm's rewards), ``size`` an integer >= 0 or a tuple of them (a shape),
        ``rng`` a NumPy Generator."""
        arm = check_int("arm", arm, minimum=0, maximum=self.n_arms - 1)
        size = check_size(size, maximum=MAX_COUNT)  # 10**400 was NumPy's "Maximum allowed dimension exceeded"
        check_rng("rng", rng)
        a = self.arms[arm]
        d = self.draw_stream(rng, size)
        return _rewards_array(a.family, a.p0, a.p1, np.ravel(d)).reshape(np.shape(d))

    def describe(self) -> str:
        return "; ".join(f"arm {i}: {a.describe()}" for i, a in enumerate(self.arms))


def check_instance(instance, name: str = "instance") -> Instance:
    """``instance`` if it is an :class:`Instance`, else the one-line TypeError the engine writes for a K-armed
    policy (:func:`ldpcode.engine.prepare`): "instance must come from make_instance(), got str". The one check of
    an instance argument, for the functions that take one outside the engine."""
    if not isinstance(instance, Instance):
        raise TypeError(f"{name} must come from make_instance(), got {type(instance).__name__}")
    return instance


@njit(cache=True)
def _rewards_array(family, p0, p1, draws):
    out = np.empty_like(draws)
    for i in range(draws.shape[0]):
        out[i] = reward_from_draw(family, p0, p1, draws[i])
    return out


REN2020_MEANS = (0.9,) + (0.8,) * 5 + (0.7,) * 5 + (0.6,) * 5 + (0.5,) * 4


MAX_REWARD_SCALE = 1e12
"""The largest magnitude of a reward law's parameters (a Gaussian's mean and σ, a two-point or uniform law's ends).
Beyond it the sums the learners keep and T·Δ, the regret, leave the range where float64 is exact to many digits
(means ±10³⁰⁸ gave gaps of inf and an infinite regret); any instance at a larger scale can be rescaled first."""


def _check_scale(name: str, value: float) -> float:
    if abs(value) > MAX_REWARD_SCALE:
        raise ValueError(f"{name} must be at most 1e12 in magnitude (rescale the rewards), got {value:.6g}")
    return value


def _check_sigma(sigma, name: str = "sigma") -> float:
    """A Gaussian arm's standard deviation: finite, > 0, at most :data:`MAX_REWARD_SCALE` (make_instance and Arm)."""
    sigma = check_real(name, sigma)
    if sigma <= 0:
        raise ValueError(f"{name} must be > 0, got {sigma!r}")
    return _check_scale(name, sigma)


def _check_law(family, p0, p1) -> None:
    """The one check of an arm's law, for :class:`Arm` (and so for every instance, :func:`make_instance`'s too): a
    :class:`Family` and finite parameters within its rules (:class:`Arm`). Bernoulli's mean obeys
    :func:`~ldpcode._validate.check_probability_vector`'s rule (make_instance's means) and the Gaussian's p1
    :func:`_check_sigma`. Before, ``Arm(Family.BERNOULLI, 1.5)`` was accepted and simulated a wrong regret."""
    if isinstance(family, (bool, np.bool_)) or not isinstance(family, (numbers.Integral, np.integer)):
        raise TypeError(
            f"an arm's family must be a Family ({', '.join(f'Family.{f.name}' for f in Family)}), got {family!r}"
        )
    if int(family) not in Family._value2member_map_:
        raise ValueError(
            f"an arm's family must be a Family ({', '.join(f'Family.{f.name}' for f in Family)}), got the unknown code "
            f"{int(family)}"
        )
    family = Family(int(family))
    law = _FAMILY_NAMES[family]
    p0 = check_real(f"p0 of a {law} arm", p0)
    p1 = check_real(f"p1 of a {law} arm", p1)
    if family in (Family.BERNOULLI, Family.BETA_A1) and p1 != 0:
        raise ValueError(f"p1 is not a parameter of a {law} arm: leave it at 0, got {p1!r}")
    if family == Family.BERNOULLI and not 0.0 <= p0 <= 1.0:
        raise ValueError(f"p0 of a Bernoulli arm (its mean) must be in [0, 1], got {p0!r}")
    if family == Family.BETA_A1 and not p0 > 0:
        raise ValueError(f"p0 of a Beta(a, 1) arm (its a) must be > 0, got {p0!r}")
    if family in (Family.TWO_POINT, Family.UNIFORM) and not p0 <= p1:
        raise ValueError(f"a {law} arm needs lo = p0 <= hi = p1, got p0 = {p0!r}, p1 = {p1!r}")
    if family == Family.GAUSSIAN:
        _check_sigma(p1, "p1 of a Gaussian arm (its sigma)")
    if family in (Family.GAUSSIAN, Family.TWO_POINT, Family.UNIFORM):
        _check_scale(f"p0 of a {law} arm", p0)
        _check_scale(f"p1 of a {law} arm", p1)


def _bernoulli(means, name="bernoulli"):
    means = check_probability_vector("means", means)
    return Instance(name, tuple(Arm(Family.BERNOULLI, float(m)) for m in means))


def _gaussian(means, sigma=1.0, name="gaussian"):
    means = check_array("means", means, ndim=1, min_size=1)
    for i, m in enumerate(means):  # before the arms' own check, to name the item
        _check_scale(f"means[{i}]", float(m))
    sigma = _check_sigma(sigma)
    return Instance(name, tuple(Arm(Family.GAUSSIAN, float(m), sigma) for m in means))


def _mixed_arms() -> tuple:
    """The 20 arms of ``ren2020-mixed`` (Fig. 1(e, f) of Ren et al.)."""
    by_mean = {
        0.9: Arm(Family.BERNOULLI, 0.9),
        0.8: Arm(Family.BETA_A1, 4.0),
        0.7: Arm(Family.TWO_POINT, 0.4, 1.0),
        0.6: Arm(Family.BERNOULLI, 0.6),
        0.5: Arm(Family.UNIFORM, 0.0, 1.0),
    }
    return tuple(by_mean[m] for m in REN2020_MEANS)


def _mixed():
    return Instance("ren2020-mixed", _mixed_arms())


def _fixed_arms(name: str) -> tuple:
    """The arms :func:`make_instance` gives the registered instance ``name`` that takes no parameters (made here
    without an :class:`Instance`, which compares its arms with them: :func:`_check_registered_name`)."""
    if name == "ren2020-bernoulli":
        return tuple(Arm(Family.BERNOULLI, m) for m in REN2020_MEANS)
    if name == "ren2020-gaussian":
        return tuple(Arm(Family.GAUSSIAN, m, 1.0) for m in REN2020_MEANS)
    return _mixed_arms()


def _check_registered_name(name: str, arms: tuple) -> None:
    """Refuse an instance named as one of :func:`make_instance`'s with other arms: a hand-built instance called
    ``ren2020-bernoulli`` was labelled as the paper's in every result and table. A fixed instance must have exactly
    the registered arms; ``bernoulli`` only Bernoulli arms; ``gaussian`` only Gaussian arms of one sigma."""
    if name not in _REGISTRY:
        return
    if name == "bernoulli":
        ok = all(a.family == Family.BERNOULLI for a in arms)
        what = "Bernoulli arms only"
    elif name == "gaussian":
        ok = all(a.family == Family.GAUSSIAN for a in arms) and len({a.p1 for a in arms}) == 1
        what = "Gaussian arms of one sigma only"
    else:
        ok = arms == _fixed_arms(name)
        what = f"the {len(_fixed_arms(name))} arms make_instance({name!r}) gives"
    if not ok:
        raise ValueError(
            f"instance name {name!r} is make_instance's, for {what}; these arms differ: build it with "
            f"make_instance({name!r}{', means=[...]' if name in _NEEDS_MEANS else ''}) or give another name"
        )


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
        check_keywords(f"make_instance({name!r})", _REGISTRY[name], kwargs, leave_out=("name",))
        return _REGISTRY[name](**kwargs)
    if kwargs:
        raise ValueError(f"instance {name!r} takes no parameters, got {one_line(sorted(kwargs))}")
    return _REGISTRY[name]()


# ---- Privacy levels of the heterogeneous setting (Ren et al., extended version): user t brings its own ----
# ---- eps_t >= 0, drawn i.i.d. from a distribution F; eps_t = 0 means the user releases nothing useful. ----


class PrivacyLevels:
    """A distribution F of users' privacy levels eps_t >= 0.

    ``sample(rng, size)`` draws levels; ``expect(f, eps_min)`` is E[f(eps) 1{eps >= eps_min}] (exact
    for the discrete and clipped-Gaussian families, Monte Carlo with a fixed seed for a user sampler);
    ``p_at_least(eps_min)`` is p_0 = P{eps >= eps_min}; ``sup`` is eps_max, the supremum of the support.

    Any finite level >= 0 is a valid user. Levels of exactly 0 (users who release nothing) and positive
    levels below :data:`~ldpcode._validate.EPSILON_FLOOR` (1e-9; a clipped Gaussian draws them) are never
    used by the engine: the agents keep a response only when eps_t >= eps_min, and eps_min is at least the
    floor, so such users are discarded like the users at 0 (and the curators answer them as at eps_t = 0,
    :meth:`ldpcode.mechanisms.Curator.respond_to_users`).
    """

    def __init__(self, name: str, sampler, *, values=None, probs=None, gaussian=None, sup=None):
        if not isinstance(name, str) or not name.strip():
            raise TypeError(f"name must be a non-empty string (the levels' label in tables), got {one_line(name)}")
        self.name = name
        self._sampler = sampler
        self.values = None if values is None else np.asarray(values, dtype=float)
        self.probs = None if probs is None else np.asarray(probs, dtype=float)
        self.gaussian = gaussian  # (mean, sd, lo, hi) for a Gaussian clipped to [lo, hi]
        self._sup = sup

    @property
    def only_level(self) -> float | None:
        """The level of a distribution with a single level of positive probability (``constant``), else None:
        an engine whose levels' stream serves nothing else may then skip its draws (the same levels)."""
        if self.values is None or (self.probs > 0).sum() != 1:
            return None
        return float(self.values[int(np.argmax(self.probs))])

    def sample(self, rng: np.random.Generator, size) -> np.ndarray:
        """``size`` levels (an integer >= 0 or a tuple of them) drawn with ``rng``, a NumPy Generator."""
        check_rng("rng", rng)
        size = check_size(size, maximum=MAX_COUNT)  # 10**400 was NumPy's "Maximum allowed dimension exceeded"
        eps = as_float_array(
            f"the levels of privacy-level sampler {self.name!r}", self._sampler(rng, size), bools=False
        )
        if eps.shape != (size if isinstance(size, tuple) else (size,)):
            raise ValueError(
                f"privacy-level sampler {self.name!r} must return an array of shape {size}, got {eps.shape}"
            )
        if eps.size and eps.min() >= 0.0 and eps.max() < np.inf:  # the common case, two fast reductions
            return eps
        bad = ~np.isfinite(eps) | (eps < 0)
        if bad.any():
            raise ValueError(
                f"privacy levels must be finite and >= 0, but {self.name!r} returned {float(eps[bad][0])!r}"
            )
        return eps

    @property
    def sup(self) -> float:
        return self._sup if self._sup is not None else float(self._mc_sample().max())

    def _mc_sample(self):
        if not hasattr(self, "_mc"):
            self._mc = self.sample(np.random.default_rng(20200707), 1_000_000)
        return self._mc

    def expect(self, f, eps_min: float = 0.0) -> float:
        """E[f(eps) 1{eps >= eps_min}] (f vectorised; it is never evaluated below eps_min, a finite number >= 0)."""
        if not callable(f):
            raise TypeError(f"f must be a vectorised function of the levels, got {f!r}")
        eps_min = _check_eps_min(eps_min)
        if self.values is not None:
            keep = self.values >= eps_min
            return float(np.sum(self.probs[keep] * f(self.values[keep]))) if keep.any() else 0.0
        if self.gaussian is not None:
            # a quadrature costs about 10 ms; a bound drawn against T asks for the same few at every checkpoint
            memo = self.__dict__.setdefault("_expect_memo", {})
            if (f, eps_min) not in memo:
                if len(memo) >= _EXPECT_MEMO_SIZE:
                    memo.clear()
                memo[f, eps_min] = self._gaussian_expect(f, eps_min)
            return memo[f, eps_min]
        x = self._mc_sample()
        keep = x >= eps_min
        return float(np.sum(f(x[keep])) / x.size) if keep.any() else 0.0

    def _gaussian_expect(self, f, eps_min: float) -> float:
        """:meth:`expect` for the clipped Gaussian law: its two atoms and a quadrature between them (in log x below the
        mean and z = (x-m)/sd above where the plain one fails: :func:`ldpcode._quadrature.gaussian_expect_robust`)."""
        from scipy import integrate
        from scipy.stats import norm

        m, sd, lo, hi = self.gaussian
        total = 0.0
        if lo >= eps_min:  # the atom at lo (negative draws clipped up)
            total += norm.cdf((lo - m) / sd) * float(f(np.array([lo]))[0])
        if hi >= eps_min:  # the atom at hi
            total += norm.sf((hi - m) / sd) * float(f(np.array([hi]))[0])
        a, b = max(lo, eps_min), min(hi, m + 40 * sd)
        if a < hi and sd <= 1e-9 * max(1.0, abs(m)):  # a peak no quadrature finds: a point mass, its weight exact
            total += (norm.cdf((hi - m) / sd) - norm.cdf((a - m) / sd)) * float(f(np.array([min(max(m, a), hi)]))[0])
        elif (a := max(a, m - 40 * sd)) < b:  # over the peak only: one of sd 1e-4 at 50 was missed from 0.5 on
            g = lambda x: _std_normal_pdf((x - m) / sd) / sd * float(f(np.array([x]))[0])
            pts = [m] if a < m < b else None  # below: if it fails on a ~1/x² spike at a tiny a, or phi/sd is subnormal
            res = integrate.quad(g, a, b, limit=200, points=pts, full_output=1) if sd < 2.0**1000 else ()
            total += gaussian_expect_robust(f, a, b, m, sd) if len(res) != 3 and (a > 0 or not res) else res[0]
        return float(total)

    def p_at_least(self, eps_min: float) -> float:
        """p_0 = P{eps_t >= eps_min}: the share of users whose responses the agents keep (``eps_min`` a finite
        number >= 0; the result clipped to [0, 1], which a quadrature may leave by a rounding)."""
        return min(1.0, max(0.0, self.expect(_ones, _check_eps_min(eps_min))))

    def __repr__(self) -> str:
        return f"PrivacyLevels({self.name!r})"


_SQRT_2PI = math.sqrt(2.0 * math.pi)


def _std_normal_pdf(z: float):
    """The standard normal density at one point as ``scipy.stats.norm.pdf`` computes it (``exp(-z²/2)/√(2π)``, bit for bit:
    tests/policies/test_heterogeneous.py), without its 40 µs of argument handling (a quadrature calls it 100s of times)."""
    return np.exp(-z * z / 2.0) / _SQRT_2PI


#: the most (f, eps_min) results a clipped-Gaussian law keeps (:meth:`PrivacyLevels.expect`); beyond, it starts again
_EXPECT_MEMO_SIZE = 256


def _ones(e):
    """1 for each level: :meth:`PrivacyLevels.p_at_least` as an expectation (one function, so its result is kept)."""
    return np.ones_like(e)


def _check_eps_min(eps_min) -> float:
    """A threshold on privacy levels: a finite number >= 0 (p_at_least(nan) was 0, and '1' a NumPy error)."""
    eps_min = check_real("eps_min", eps_min)
    if eps_min < 0:
        raise ValueError(f"eps_min must be a finite number >= 0 (privacy levels are >= 0), got {eps_min!r}")
    return eps_min


@njit(cache=True, nogil=True)
def _levels_from_uniforms(cdf, vals, u):
    """``vals[np.searchsorted(cdf, u, side="right")]``: the level whose cdf interval holds each uniform."""
    out = np.empty(u.shape[0])
    for i in range(u.shape[0]):
        j = 0
        for c in range(cdf.shape[0]):
            j += cdf[c] <= u[i]
        out[i] = vals[j]
    return out


def _discrete_levels(values, probs=None, name=None):
    values = as_float_array("values", values, bools=False)
    if values.ndim != 1 or values.size == 0:
        raise ValueError(f"values must be a non-empty 1-d sequence of privacy levels, got {one_line(values)}")
    if not np.isfinite(values).all() or (values < 0).any():
        raise ValueError(f"privacy levels must be finite and >= 0, got values={one_line(values.tolist())}")
    level, times = np.unique(values, return_counts=True)  # as the command line: a repeat is a typo more than a weight
    if (times > 1).any():
        raise ValueError(f"privacy levels must be distinct, got {float(level[times > 1][0])!r} more than once in "
                         f"values={one_line(values.tolist())}; give a level's weight with probs=")  # fmt: skip
    probs = np.full(values.size, 1.0 / values.size) if probs is None else as_float_array("probs", probs, bools=False)
    # sum to 1 within 1e-9, as discrete_sigmoid_mean's probs: np.isclose's 1e-5 let [0.5, 0.5000001] through, and
    # the sampler's cdf silently renormalised them while expect() used them as given
    if probs.shape != values.shape or (probs < 0).any() or not abs(probs.sum() - 1.0) <= 1e-9:
        raise ValueError(
            f"probs must be non-negative, sum to 1 (within 1e-9) and match values, got {one_line(probs)}"
            f"{f' (sum {float(probs.sum())!r})' if probs.shape == values.shape else ''}"
        )
    vals, pr = values.copy(), probs.copy()
    cdf = pr.cumsum()
    cdf /= cdf[-1]
    # = vals[rng.choice(vals.size, size=size, p=pr)], bit for bit and draw for draw (NumPy's choice is this
    # cdf, rng.random(size) and searchsorted(side="right")), 4 times faster (tests/policies/test_heterogeneous.py)
    sampler = lambda rng, size: _levels_from_uniforms(cdf, vals, np.ravel(rng.random(size))).reshape(size)
    sup = float(vals[pr > 0].max())  # eps_max, a level some user has: [0.5, 100] at [1, 0] is constant 0.5
    return PrivacyLevels(name or f"discrete{vals.tolist()}", sampler, values=vals, probs=pr, sup=sup)


def _clipped_gaussian_levels(mean=1.0, sd=1.0, lo=0.0, hi=100.0, name=None):
    mean, sd, lo, hi = (check_real(n, v) for n, v in (("mean", mean), ("sd", sd), ("lo", lo), ("hi", hi)))
    if sd <= 0 or lo < 0 or hi <= lo:
        raise ValueError(f"need sd > 0 and 0 <= lo < hi, got sd={sd}, lo={lo}, hi={hi}")
    sampler = lambda rng, size: np.clip(mean + sd * rng.standard_normal(size), lo, hi)
    return PrivacyLevels(
        name or f"gaussian({mean:g}, {sd:g}) clipped to [{lo:g}, {hi:g}]", sampler, gaussian=(mean, sd, lo, hi), sup=hi
    )


def _constant_levels(epsilon):
    eps = check_epsilon(epsilon)
    return _discrete_levels([eps], [1.0], name=f"constant {eps:g}")


def _sampler_levels(sampler, name="user sampler"):
    if not callable(sampler):
        raise TypeError(f"sampler must be a callable (rng, size) -> array of levels, got {one_line(sampler)}")
    levels = PrivacyLevels(name, sampler)
    levels.sample(np.random.default_rng(0), 1000)  # fail now, not mid-simulation, on a bad sampler
    return levels


_LEVELS = {
    "ren-heldp-discrete": lambda: _discrete_levels([0.0, 0.2, 1.0, 2.0, 100.0], name="ren-heldp-discrete"),
    "ren-heldp-gaussian": lambda: _clipped_gaussian_levels(1.0, 1.0, 0.0, 100.0, name="ren-heldp-gaussian"),
    "constant": _constant_levels,
    "discrete": _discrete_levels,
    "clipped-gaussian": _clipped_gaussian_levels,
    "sampler": _sampler_levels,
}


def list_privacy_levels() -> list[str]:
    """The names :func:`make_privacy_levels` accepts."""
    return sorted(_LEVELS)


def make_privacy_levels(kind: str, **kwargs) -> PrivacyLevels:
    """A privacy-level distribution by kind (``name=`` labels the user-given ones).

    * ``ren-heldp-discrete``: uniform on {0, 0.2, 1, 2, 100} (20% of users at eps = 0);
    * ``ren-heldp-gaussian``: N(1, 1) with negative values set to 0 and values above 100 set to 100
      (about 16% of users at eps = 0);
    * ``constant`` (``epsilon=``): every user at the same level: the homogeneous setting;
    * ``discrete`` (``values=``, optional ``probs=``), ``clipped-gaussian`` (``mean, sd, lo, hi``);
    * ``sampler`` (``sampler=callable(rng, size)``, ``name=``): any user-given distribution.
    """
    check_choice("privacy levels kind", kind, _LEVELS)
    if kind in ("ren-heldp-discrete", "ren-heldp-gaussian") and kwargs:
        raise ValueError(f"privacy levels {kind!r} take no parameters, got {one_line(sorted(kwargs))}")
    check_keywords(f"make_privacy_levels({kind!r})", _LEVELS[kind], kwargs)
    return _LEVELS[kind](**kwargs)
