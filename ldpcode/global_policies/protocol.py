r"""The engine protocol (:mod:`ldpcode.engine`) shared by every policy of :mod:`ldpcode.global_policies`:
:class:`_GlobalPolicy` gives the label (ε) and refuses what the ε-global DP policies cannot run on (privacy
levels; unbounded rewards, on which the privacy of Theorem 6 and the indexes of eqs. (7)-(8) rest).

No paper item of its own: a room of its own so that the episodic policies
(:mod:`~ldpcode.global_policies.episodes`, :mod:`~ldpcode.global_policies.dp_se`) and the per-step ones
(:mod:`~ldpcode.global_policies.per_step`) share it without importing one another.
"""

from __future__ import annotations

from ..engine import ArmedPolicy, check_bounded, refuse_privacy_levels


class _GlobalPolicy(ArmedPolicy):
    """The engine protocol (:mod:`ldpcode.engine`) of the ε-global DP policies and KL-UCB."""

    @property
    def label(self) -> float:
        return self.epsilon

    def check_environment(self, instance, privacy_levels) -> None:
        refuse_privacy_levels(self, privacy_levels)
        check_bounded(
            self, instance, f" (its privacy or its index rests on it) but instance {instance.name!r} is unbounded"
        )
