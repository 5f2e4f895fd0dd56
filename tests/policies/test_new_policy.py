"""A new K-armed policy touches one file: this one. ε-greedy (Sutton and Barto, Sec. 2.2; with probability
``explore`` a uniform arm, else the empirical best) is written here as one class on ``ArmedPolicy``, which supplies
every engine member but ``label``, ``check_environment``, ``cost`` and ``run_one``, and registered with one call,
``ldp.policies.register_policy``. From then on ``make_policy``, ``list_policies``, ``simulate``, ``sweep``, the
figures' colours and the whole conformance suite (tests/policies/test_conformance.py, run below on it) take it.
A deliberately broken variant, which draws from NumPy's global random state instead of its run's seed
sequence, fails the suite's seeding check: the suite can fail."""

import inspect
import math
from dataclasses import dataclass

import numpy as np
import pytest
import test_conformance as conformance

import ldpcode as ldp
from ldpcode.engine import ArmedPolicy, pulls_cost, refuse_privacy_levels, run_in_chunks
from ldpcode.instances import reward_from_draw
from ldpcode.rng import run_streams


@dataclass(frozen=True)
class EpsilonGreedy(ArmedPolicy):
    """Each arm once, then with probability ``explore`` a uniform arm, else the best empirical mean."""

    name: str
    explore: float = 0.1
    label = math.inf  # not private

    def check_environment(self, instance, privacy_levels) -> None:
        refuse_privacy_levels(self, privacy_levels)

    def cost(self, instance, horizon, runs, n_checkpoints, workers):
        return pulls_cost("pulls of ε-greedy (Python)", 2000, instance.n_arms, horizon, runs, n_checkpoints, workers)

    def uniforms(self, rng, size):
        return rng.random(size)

    def run_one(self, instance, horizon, seed_seq, checkpoints, *, privacy_levels=None, cancel=None):
        reward_rng, choice_rng = run_streams(seed_seq)
        K = instance.n_arms
        counts, sums = np.zeros(K, dtype=np.int64), np.zeros(K)
        out = np.zeros((len(checkpoints), K), dtype=np.int64)

        def step(t, ci, m):
            draws, coins = instance.draw_stream(reward_rng, m), self.uniforms(choice_rng, (m, 2))
            for s in range(min(m, horizon - t)):
                if t < K:
                    arm = t
                elif coins[s, 0] < self.explore:
                    arm = min(int(coins[s, 1] * K), K - 1)
                else:
                    arm = int(np.argmax(sums / counts))
                a = instance.params[arm]
                sums[arm] += reward_from_draw(instance.families[arm], a[0], a[1], draws[s])
                counts[arm] += 1
                t += 1
                while ci < len(checkpoints) and checkpoints[ci] == t:
                    out[ci] = counts
                    ci += 1
            return t, ci

        run_in_chunks(horizon, cancel, step)
        return out, None


@dataclass(frozen=True)
class BrokenGreedy(EpsilonGreedy):
    """The same, but its coins come from NumPy's global state: two calls with one seed differ."""

    def uniforms(self, rng, size):
        return np.random.random(size)


def _build(cls):
    def build(name, epsilon, epsilon_min, options):
        if epsilon is not None or epsilon_min is not None or any(v is not None for v in options.values()):
            raise ValueError(f"policy {name!r} is not private and takes no options")
        return cls(name)

    return build


@pytest.fixture
def registered():
    """Register both for one test, then leave the registry as it was (other tests list it)."""
    names = {"eps-greedy": EpsilonGreedy, "broken-greedy": BrokenGreedy}
    for name, cls in names.items():
        ldp.policies.register_policy(name, _build(cls), color="#bcbd22")
    yield list(names)
    for name in names:
        ldp.policies.REGISTRY.pop(name)
        ldp.policies.POLICY_COLORS.pop(name)
    ldp.policies._FAMILIES[-1].clear()


def test_a_registered_policy_is_known_everywhere(registered):
    assert ldp.list_policies()[-2:] == ["broken-greedy", "eps-greedy"]
    pol = ldp.make_policy("eps-greedy")
    inst = ldp.make_instance("bernoulli", means=[0.9, 0.5])
    res = ldp.simulate(pol, inst, 2000, 4, seed=0, progress=False)
    assert res.pulls[:, 0].mean() > 1500  # it learns: about 95% of the pulls on the best arm
    table = ldp.sweep.sweep(["eps-greedy", "UCB1"], [1.0], [inst], 500, 2, progress=False)
    assert set(table["policy"]) == {"eps-greedy", "UCB1"}
    assert ldp.plotting.POLICY_COLORS["eps-greedy"] == "#bcbd22"
    with pytest.raises(ValueError, match="already registered"):
        ldp.policies.register_policy("UCB1", _build(EpsilonGreedy))
    with pytest.raises(ValueError, match="takes no options"):
        ldp.make_policy("eps-greedy", epsilon=1.0)


CHECKS = [getattr(conformance, n) for n in dir(conformance) if n.startswith("test_") and n != "test_the_suite_covers_the_whole_registry"]  # fmt: skip


@pytest.mark.parametrize("check", CHECKS, ids=lambda f: f.__name__)
def test_the_conformance_suite_passes_on_the_new_policy(registered, check):
    on_engine = ["per-pull"] if "engine" in inspect.signature(check).parameters else []  # no event twin
    check("eps-greedy", *on_engine)


def test_the_conformance_suite_fails_a_policy_that_ignores_its_seed(registered):
    with pytest.raises(AssertionError):
        conformance.test_one_seed_one_result_and_runs_independent_of_their_number("broken-greedy", "per-pull")
