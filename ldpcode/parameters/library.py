"""The notebooks' parameter checks that ask the library instead of re-deriving it: :func:`accepted_by` (a library
function's own validation, at the notebook's values), :func:`within_limits` (the cost of the body's largest calls
against ldpcode's :class:`~ldpcode.limits.Limits`, the ceiling every library call checks), :func:`policies_accept`
and :func:`simulations` (the policies' own ``check_environment`` and cost estimates), and the measured per-unit
costs of the Monte Carlo loops some notebooks run in their own cells. A paper's printed number is never a
parameter: a notebook reads it from its statement (:func:`ldpcode.claims.statements.printed_value`). The rule classes and the other checks are in :mod:`.rules`."""

from __future__ import annotations

from typing import Callable

from .._validate import flat_text
from .rules import Check, _show  # noqa: F401 (the messages of every check read the same)


def accepted_by(call: Callable[[dict], object], name: str, allowed: str, *, library: str) -> Check:
    """A check that asks the library rather than re-deriving it: ``call(p)`` runs, at the notebook's values, the
    library function the body will run (or its own validation), when that is cheap (a closed-form bound, a model).
    Its TypeError or ValueError becomes the refusal of parameter ``name`` in the rules' words (``allowed`` says what
    the body needs), followed by the library's own (``library`` names the function): "parameter means must have a
    suboptimal arm (...), got [0.5, 0.5] (ldp.bounds.adap_ucb_regret_bound: means must contain ...)"."""

    def check(p):
        try:
            call(p)
        except (TypeError, ValueError) as exc:
            raise ValueError(
                f"parameter {name} must be {allowed}, got {_show(p[name])} ({library}: {flat_text(exc)})"
            ) from None

    return check


def _notebook_advice(message: str) -> str:
    """:func:`ldpcode.limits.check_limits`'s advice for a caller who can pass ``limits=``, rewritten for a notebook,
    whose reader cannot: the same ceilings are read from the environment (``Limits()``'s defaults), which the
    command line sets with its flags. The command line's own advice (it names the flags) is left as it is."""
    import re

    from ..limits import CPU_ENV, MEMORY_ENV

    def env(match):
        pairs = [kv.split("=", 1) for kv in match.group(1).split(", ")]
        names = {"cpu_seconds": CPU_ENV, "memory_bytes": MEMORY_ENV}
        settings = " ".join(f"{names.get(k, k)}={v}" for k, v in pairs)
        return (
            f"To run it anyway, set {settings} in the environment of the notebook's kernel, or pass rerun "
            f"--cpu-seconds / --memory (inf switches a check off)."
        )

    return re.sub(
        r"To run it anyway, pass limits=ldpcode\.Limits\(([^)]*)\) \(math\.inf switches a check off\)\.", env, message
    )


def within_limits(estimate: Callable[[dict], object], name: str | tuple, what: str) -> Check:
    """The body's large calls at the notebook's values within ldpcode's :class:`~ldpcode.limits.Limits`: the default
    ``Limits()``, the ceilings every library call checks before its work (an hour of one core, 4 GiB; raised by
    the environment variables ``LDPCODE_CPU_SECONDS`` and ``LDPCODE_MEMORY_BYTES``, which rerun's ``--cpu-seconds``
    and ``--memory`` set). ``estimate(p)`` returns the calls as ``(call, work, core-seconds, bytes)`` tuples, each
    checked by :func:`ldpcode.limits.check_limits`: from the library's own cost estimate where the call is the
    library's (``simulate_cost``, an audit's cost), from per-unit costs measured on the notebook's own code where
    the work is the notebook's (a Monte Carlo in a cell). It may instead run the library's own cost check, which
    raises. A call beyond the ceiling is the refusal of parameter ``name`` (the one that drives the cost; a tuple
    names several, such as ``("horizon", "runs")``), with the estimate and the ceiling, before any work: the body
    would be refused by the same ceiling later, or run out of memory."""
    names = (name,) if isinstance(name, str) else tuple(name)
    label = ("parameter " if len(names) == 1 else "parameters ") + ", ".join(names)

    def check(p):
        from ..limits import check_limits

        try:
            for call, work, seconds, nbytes in estimate(p) or ():
                check_limits(call, work, seconds, nbytes, scale_out=f"Or lower {' or '.join(names)}.")
        except ValueError as exc:
            got = ", ".join(f"{n} = {_show(p[n])}" for n in names)
            raise ValueError(
                f"{label} must keep {what} within ldpcode's Limits, got {got}: {_notebook_advice(flat_text(exc, 1000))}"
            ) from None

    return check


def _policy_for_cost(name: str):
    """``make_policy(name)`` with the privacy level it needs (1.0; a policy's cost does not depend on it)."""
    from ..policies import make_policy

    if name in ("UCB1", "KL-UCB"):
        return make_policy(name)
    if name.startswith("HeLDP"):
        return make_policy(name, epsilon_min=1.0)
    if name == "OnePoint-UCB":
        return make_policy(name, epsilon=1.0, delta=0.1)
    return make_policy(name, epsilon=1.0)


def policies_accept(policies, instance: Callable[[dict], object], name: str = "instance") -> Check:
    """The policies ``policies`` the body simulates accept the instance ``instance(p)`` (the library's own check,
    ``policy.check_environment``: a policy that needs rewards in [0, 1] refuses an unbounded instance); the refusal
    is that of parameter ``name``."""

    def call(p):
        from ..instances import make_privacy_levels

        levels = make_privacy_levels("ren-heldp-discrete")
        for policy_name in policies:
            policy = _policy_for_cost(policy_name)
            policy.check_environment(instance(p), levels if policy_name.startswith("HeLDP") else None)

    return accepted_by(
        call,
        name,
        f"an instance that {', '.join(policies)} can run on",
        library="policy.check_environment",
    )


def simulations(policies, instance, horizon: int, runs: int, checkpoints: int | None = None) -> list:
    """The estimates of ``simulate(make_policy(name), instance, horizon, runs)`` for each name of ``policies``, as
    :func:`within_limits` checks them: ``("simulate", work, core-seconds, bytes)`` from the library's own estimate
    (:func:`ldpcode.simulate.simulate_cost`, the policy's ``cost``), with ``checkpoints`` checkpoints (default: the
    policy's own number, as ``simulate`` chooses) on every worker thread a call would use."""
    from ..limits import default_workers
    from ..simulate import simulate_cost

    out = []
    for name in policies:
        policy = _policy_for_cost(name)
        n = policy.checkpoint_count if checkpoints is None else checkpoints
        seconds, nbytes, work = simulate_cost(policy, instance, horizon, runs, n, default_workers())
        out.append(("simulate", f"{name}: {work}", seconds, nbytes))
    return out


# costs measured on the README's 2-core machine with other jobs running, and rounded up about twofold, as ldpcode's
# own (ldpcode/limits.py). Measured: lemma3_laplace_tail at 4·10^6 samples 3.3 µs and 25 bytes a sample (180 Laplace
# draws and 4 sorts a sample: 18 ns a draw added to its sum, 84 ns a sorted element at 10^7); lemma6_laplace_tail
# 1.4 µs and 22 bytes a sample (84 draws, 3 sorts); corollaries10_11_sigmoid 50 ns and 42 bytes a response (a
# standard normal, 26 ns, and CTL-S's privatize, 79 ns, or CTB-S's, 15 ns).
LAPLACE_DRAW_SECONDS = 40e-9  # a Laplace draw added to a running sum
SORT_SECONDS = 200e-9  # an element of np.sort
SORTED_SUM_BYTES = 32.0  # a sample of a sorted Monte Carlo sum: the sums, their sorted copy, the previous sums
RESPONSE_SECONDS = 100e-9  # a curator's response to a N(mu, 1) reward, with its mean and standard deviation
RESPONSE_BYTES = 64.0  # a response: the rewards, the shifted rewards, the outputs and the curator's temporaries


def simulated(policies: tuple, instance: str | None = None, sizes=(("horizon", "runs"),)):
    """:func:`within_limits` of the notebook's simulations: each policy of ``policies`` on ``instance`` (default: the
    notebook's parameter ``instance``; every Ren et al. instance has 20 arms) at each (horizon, runs) of ``sizes``
    (pairs of parameter names), as the library estimates them (a heterogeneous policy's cost does not depend on the
    users' levels)."""

    def estimate(p):
        from ..instances import make_instance

        inst = make_instance(instance or p["instance"])
        return [c for h, r in sizes for c in simulations(policies, inst, p[h], p[r])]

    names = tuple(dict.fromkeys(n for pair in sizes for n in pair))
    return within_limits(estimate, names, "each simulation")
