"""The engines a K-armed policy runs on, and the choice between them (``simulate(..., engine=...)`` and
``sweep(..., engine=...)``).

* ``"per-pull"``, the default and the reference: each policy's compiled kernel, one pull at a time, on the two
  streams of :func:`ldpcode.rng.run_streams` (rewards, curator noise). Policies simulated with one seed share
  their reward draws: common random numbers, on which the book's paired comparisons rest.
* ``"event"``: an exact event-driven engine, where one exists. Between two changes of leader an index policy
  pulls the same arm; a block of pulls is accepted when the leader keeps its lead whatever the block's responses,
  and the block's response sum is drawn at once. The counts have the per-pull engine's law at every checkpoint,
  from another random stream (so no common random numbers with any other run). Engines: UCB1 and LDP-UCB-B
  (:mod:`ldpcode.policies.event`), KL-UCB (:mod:`ldpcode.global_policies.klucb_event`), HeLDP-UCB-B with
  discrete users' levels (:mod:`ldpcode.policies.event_heldp`), all on Bernoulli arms. Elsewhere ``"event"`` is
  a ValueError, before any work.
* ``"auto"``: the event engine where one applies, the per-pull one elsewhere.
"""

from __future__ import annotations

from .._validate import check_choice
from ..engine import BanditPolicy

#: the engines of :func:`on_engine`
ENGINES = ("auto", "per-pull", "event")


def _event_engines() -> list:
    """(applies(policy, instance, levels), the policy on its engine) of every event-driven engine."""
    from ..global_policies import klucb_event
    from . import event, event_heldp

    return [
        (lambda p, i, lv: lv is None and event.event_driven_applies(p, i), lambda p, i, lv: event.event_driven(p, i)),
        (
            lambda p, i, lv: lv is None and klucb_event.klucb_event_applies(p, i),
            lambda p, i, lv: klucb_event.klucb_event_driven(p, i),
        ),
        (event_heldp.heldp_event_applies, event_heldp.heldp_event_driven),
    ]


EVENT_SCOPE = "UCB1, LDP-UCB-B and KL-UCB, and HeLDP-UCB-B with discrete users' levels, on Bernoulli arms"


def on_engine(policy, instance, engine: str = "per-pull", privacy_levels=None):
    """``policy`` as it runs on ``engine`` (one of :data:`ENGINES`) on ``instance`` with the users' levels
    ``privacy_levels``: itself on the per-pull engine, or its event-driven twin (same name, repr and result).
    An unknown engine, or ``"event"`` where no event engine applies, is a one-line ValueError; a policy or an
    instance of the wrong type is returned as it is, for the engine's own TypeError (:func:`ldpcode.engine.prepare`).
    """
    check_choice("engine", engine, ENGINES)
    wrong_type = not isinstance(policy, BanditPolicy) or not isinstance(instance, policy.environment_type)
    if engine == "per-pull" or wrong_type:
        return policy
    for applies, twin in _event_engines():
        if applies(policy, instance, privacy_levels):
            return twin(policy, instance, privacy_levels)
    if engine == "event":
        raise ValueError(
            f"engine 'event' runs only {EVENT_SCOPE}, got {policy!r} on {getattr(instance, 'name', instance)!r}; "
            "use engine='per-pull' (or 'auto': the event engine where it applies)"
        )
    return policy
