r"""The learners Algorithm 1 of Zheng et al. (2020) wraps, and the wrapper itself.

The learner interface (``reset(n_arms, horizon, rng, feedback_noise_variance=0.0)``, ``select()``,
``update(arm, feedback)``; see :mod:`ldpcode.reductions`) and its two built-in MAB learners of the paper's
Appendix B experiments: :class:`SubGaussianUCB` (UCB1 on losses, width scaled to the noise) and
:class:`TsallisINF` (α = 1/2, Zimmert and Seldin 2021), made by name with :func:`make_learner`; their codes
``UCB`` and ``TSALLIS`` select the kernel (:mod:`ldpcode.reductions.kernels`).

:class:`OnePointReduction` is Algorithm 1 (Section 3.1): the learner only ever sees
:math:`f_t(x_t) + Z_t`, with the noise of :mod:`ldpcode.reductions.privacy` ((ε, δ)-LDP by Theorem 2, regret
of Theorem 3). :func:`make_agent` builds a learner, wrapped or not, by name.
"""

from __future__ import annotations

import math

import numpy as np

from .._validate import check_int, check_real
from ..mechanisms import GaussianMechanism
from .kernels import _sample, _ucb_select, tsallis_weights
from .privacy import algorithm1_mechanism, laplace_mechanism, noise_variance

UCB, TSALLIS = 0, 1
TSALLIS_ETA0 = 2.0  # eta_t = TSALLIS_ETA0 / (c sqrt t): Zimmert and Seldin (2021), IW estimates


# ----------------------------------------------------------------------------------------------
# Learners (the generic interface)
# ----------------------------------------------------------------------------------------------


def _check_variance(v) -> float:
    v = check_real("feedback_noise_variance", v)
    if v < 0:
        raise ValueError(f"feedback_noise_variance must be >= 0, got {v!r}")
    return v


def _reset_common(learner, n_arms, horizon, feedback_noise_variance) -> None:
    """What every built-in learner's ``reset`` validates and stores: ``n_arms`` (>= 2), ``horizon``, ``variance``."""
    learner.n_arms = check_int("n_arms", n_arms, minimum=2)
    learner.horizon = check_int("horizon", horizon, minimum=1)
    learner.variance = _check_variance(feedback_noise_variance)


class SubGaussianUCB:
    r"""UCB1 on losses with width :math:`\sqrt{8 s^2\ln t/N_a}`, :math:`s^2 = 1/4 + v` (module docstring).

    ``reset(n_arms, horizon, rng, feedback_noise_variance=v)``; ``select()``; ``update(arm, feedback)``.
    """

    code = UCB
    name = "UCB"

    def reset(self, n_arms, horizon, rng=None, feedback_noise_variance=0.0):
        _reset_common(self, n_arms, horizon, feedback_noise_variance)
        self.counts = np.zeros(self.n_arms, dtype=np.int64)
        self.sums = np.zeros(self.n_arms)
        self.t = 0
        return self

    def kernel_param(self, v) -> float:
        """The width constant :math:`\\sqrt{8(1/4 + v)}` (= √2, UCB1's, at v = 0)."""
        return math.sqrt(8.0 * (0.25 + v))

    def select(self) -> int:
        return int(_ucb_select(self.counts, self.sums, max(self.t, 1), self.kernel_param(self.variance)))

    def update(self, arm, feedback) -> None:
        self.counts[arm] += 1
        self.sums[arm] += feedback
        self.t += 1


class TsallisINF:
    r"""Tsallis-INF, α = 1/2, importance-weighted losses, :math:`\eta_t = 2/(\sqrt{1+4v}\sqrt t)`.

    ``probabilities()`` returns the current weights :math:`w_t` (they sum to 1); ``normaliser`` the x_t
    that solved the normalisation equation.
    """

    code = TSALLIS
    name = "Tsallis-INF"

    def reset(self, n_arms, horizon, rng=None, feedback_noise_variance=0.0):
        _reset_common(self, n_arms, horizon, feedback_noise_variance)
        if rng is None:
            raise ValueError("rng must be a numpy Generator (Tsallis-INF samples its arm), got None")
        self.rng = rng
        self.cum_loss = np.zeros(self.n_arms)
        self.counts = np.zeros(self.n_arms, dtype=np.int64)
        self.w = np.full(self.n_arms, 1.0 / self.n_arms)
        self.t = 0
        self.normaliser = 0.0
        return self

    def kernel_param(self, v) -> float:
        """η_t √t = 2 / √(1 + 4v)."""
        return TSALLIS_ETA0 / math.sqrt(1.0 + 4.0 * v)

    def eta(self, t) -> float:
        return self.kernel_param(self.variance) / math.sqrt(t)

    def probabilities(self) -> np.ndarray:
        self.normaliser = float(tsallis_weights(self.cum_loss, self.eta(self.t + 1), self.w))
        return self.w.copy()

    def select(self) -> int:
        self.probabilities()
        return int(_sample(self.w, self.rng.random()))

    def update(self, arm, feedback) -> None:
        self.counts[arm] += 1
        self.cum_loss[arm] += feedback / self.w[arm]
        self.t += 1


LEARNERS = {"UCB": SubGaussianUCB, "Tsallis-INF": TsallisINF}


def make_learner(name: str):
    """A fresh built-in learner: ``"UCB"`` or ``"Tsallis-INF"``."""
    if not isinstance(name, str) or name not in LEARNERS:
        raise ValueError(f"name must be one of {sorted(LEARNERS)}, got {name!r}")
    return LEARNERS[name]()


class OnePointReduction:
    r"""Algorithm 1: ``learner`` only ever receives :math:`f_t(x_t) + Z_t`, Z_t from ``mechanism``.

    ``mechanism`` is a :class:`~ldpcode.mechanisms.GaussianMechanism` (from :func:`algorithm1_mechanism`)
    or a :class:`~ldpcode.mechanisms.LaplaceMechanism` (:func:`laplace_mechanism`); its sensitivity is 2B,
    so the loss bound is B = sensitivity / 2, and a loss with ``|f| > B`` raises ValueError (the privacy
    guarantee would not hold). ``reset(n_arms, horizon, rng, noise_rng)`` resets the learner with
    ``feedback_noise_variance`` = the mechanism's noise variance; ``update(arm, loss)`` returns the
    privatized value it passed on.
    """

    def __init__(self, learner, mechanism):
        for attr in ("reset", "select", "update"):
            if not callable(getattr(learner, attr, None)):
                raise ValueError(f"learner must have a {attr}() method (reset/select/update), got {learner!r}")
        if not callable(getattr(mechanism, "privatize", None)):
            raise ValueError(f"mechanism must have a privatize(values, rng) method, got {mechanism!r}")
        self.learner = learner
        self.mechanism = mechanism
        self.loss_bound = float(mechanism.sensitivity) / 2.0
        self.variance = noise_variance(mechanism)

    @property
    def name(self) -> str:
        kind = "Gaussian" if isinstance(self.mechanism, GaussianMechanism) else "Laplace"
        return f"{getattr(self.learner, 'name', type(self.learner).__name__)} + {kind} (Alg. 1)"

    def reset(self, n_arms, horizon, rng, noise_rng):
        if noise_rng is None:
            raise ValueError("noise_rng must be a numpy Generator, got None")
        self.noise_rng = noise_rng
        self.learner.reset(n_arms, horizon, rng, feedback_noise_variance=self.variance)
        return self

    def select(self) -> int:
        return self.learner.select()

    def update(self, arm, loss) -> float:
        loss = check_real("loss", loss)
        if abs(loss) > self.loss_bound:
            raise ValueError(f"loss must satisfy |loss| <= B = {self.loss_bound:g}, got {loss!r}")
        y = float(self.mechanism.privatize(loss, self.noise_rng))
        self.learner.update(arm, y)
        return y


def make_agent(learner: str, mechanism: str | None = None, *, epsilon=None, delta=None, loss_bound=1.0):
    """A built-in learner, wrapped by Algorithm 1 when ``mechanism`` is ``"gaussian"`` ((ε, δ)-LDP: needs
    epsilon and delta) or ``"laplace"`` (ε-LDP: needs epsilon, refuses delta); ``mechanism=None`` gives the
    non-private learner, and refuses epsilon and delta (they would be ignored and the agent not private)."""
    lrn = make_learner(learner)
    if mechanism is None:
        if epsilon is not None or delta is not None:
            raise ValueError(
                f"mechanism=None gives the non-private learner, which takes no epsilon or delta (they "
                f"would be ignored), got epsilon={epsilon!r}, delta={delta!r}; pass "
                f"mechanism='gaussian' or 'laplace' for a private agent"
            )
        return lrn
    if mechanism == "gaussian":
        return OnePointReduction(lrn, algorithm1_mechanism(epsilon, delta, loss_bound))
    if mechanism == "laplace":
        if delta is not None:
            raise ValueError(
                f"mechanism='laplace' is ε-LDP and takes no delta (it would be ignored), got "
                f"delta={delta!r}; use mechanism='gaussian' for (ε, δ)-LDP"
            )
        return OnePointReduction(lrn, laplace_mechanism(epsilon, loss_bound))
    raise ValueError(f"mechanism must be None, 'gaussian' or 'laplace', got {mechanism!r}")
