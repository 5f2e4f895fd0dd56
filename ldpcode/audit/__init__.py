r"""Empirical privacy checks: generators of ε-DP output distributions and checks of the privacy ratio.

A randomized mapping M is ε-DP on the reward set (Definition 1 of Ren et al. 2020) when every pair of
inputs r, r' gives output distributions f = law(M(r)), g = law(M(r')) with
:math:`\sup_x |\log(f(x)/g(x))| \le \epsilon`. On a finite output set such a pair is just two probability
vectors whose ratio stays in :math:`[e^{-\epsilon}, e^\epsilon]`; :func:`random_dp_pair` draws them, so that
statements quantified over *every* ε-DP mechanism (Lemma 12, Theorem 1) can be probed on many of them.

For a given mechanism, :func:`privacy_loss_matrix` computes the privacy level exactly from its output
probabilities (or densities on a grid), and :func:`binned_log_ratio` estimates it from samples of the
private outputs alone, with confidence bounds (Lemmas 2 and 5 of Ren et al. 2020).

The rooms (every name below is re-exported here, so ``ldpcode.audit.X`` and ``from ldpcode.audit import X``
work as before the split):

=================================  ===================================================================
:mod:`ldpcode.audit.ratios`        ε-DP pairs (:func:`random_dp_pair`, Lemma 12 and Theorem 1 of Ren et
                                   al. 2020), exact loss (:func:`privacy_loss_matrix`,
                                   :func:`max_log_ratio`), lower confidence bounds from samples
                                   (:func:`binned_log_ratio`, :func:`delta_log_ratio`, Clopper-Pearson),
                                   the shared checks of seeds and samples
:mod:`ldpcode.audit.gdp`           ε-global DP of Algorithm 1 (Azize and Basu 2022): Lemma 1's release
                                   and loss, :func:`lemma1_audit`, :class:`FixedRewardSampler`, the
                                   action sequences of Theorem 6 (:func:`action_sequence_audit`,
                                   :func:`first_decision_log_ratio`), broken AdaP policies
:mod:`ldpcode.audit.tracing`       one run's episodes, releases and decisions (Figure 1, Example 2 of
                                   Azize and Basu): :func:`traced_run`, :func:`decision_table`,
                                   :func:`doubling_violations`, :func:`algorithm1_episode_bound`
:mod:`ldpcode.audit.curators`      the black-box audit of any curator (:func:`curator_audit`, issue 6),
                                   :func:`exact_curator_loss`, :func:`gaussian_epsilon_at_delta`,
                                   :class:`HeterogeneousCurator`, :func:`output_mean_audit`
:mod:`ldpcode.audit.laplace`       the Laplace mechanism on vectors (Theorem 1 of Azize and Basu 2022):
                                   exact loss two ways (:func:`laplace_privacy_loss`,
                                   :func:`laplace_privacy_loss_grid`), :func:`laplace_mechanism_audit`
:mod:`ldpcode.audit.transcripts`   LDP implies DP on streams (Theorem 1 of Zheng et al. 2020): whole
                                   transcripts (:func:`follow_the_leader_transcripts`,
                                   :func:`transcript_log_ratio`, :func:`transcript_loss_by_composition`)
:mod:`ldpcode.audit.broken`        deliberately broken curators (:class:`HalfScaleCTL`,
                                   :class:`SwappedCTB`, :class:`UnclippedCTB`, :class:`LeakyCTL`,
                                   :func:`broken_curator`)
:mod:`ldpcode.audit.floating`      floating-point Laplace and coin sampling (Mironov 2012):
                                   :func:`laplace_float_output`, :func:`laplace_float_reachable`,
                                   :func:`ctb_float_probability_one`, :func:`consecutive_doubles`
=================================  ===================================================================
"""

# The private helpers are re-exported as well (``X as X``, outside __all__): ldpcode.audit._clopper_pearson
# and the others stay where they were.
from .broken import BROKEN_CURATOR_FLAWS, HalfScaleCTL, LeakyCTL, SwappedCTB, UnclippedCTB, broken_curator
from .curators import (
    AUDIT_INPUTS,
    AUDIT_PROBES,
    CuratorAudit,
    HeterogeneousCurator,
    OutputMeanAudit,
    _audit_edges as _audit_edges,
    _check_outputs as _check_outputs,
    _ctb_exact as _ctb_exact,
    _ctb_rows as _ctb_rows,
    _curator_name as _curator_name,
    curator_audit,
    exact_curator_loss,
    gaussian_epsilon_at_delta,
    output_mean_audit,
)
from .floating import (
    _FLOAT_UNIFORM_STEP as _FLOAT_UNIFORM_STEP,
    consecutive_doubles,
    ctb_float_probability_one,
    laplace_float_output,
    laplace_float_reachable,
)
from .gdp import (
    BROKEN_FLAWS,
    REWARD_MODELS,
    ActionSequenceAudit,
    FixedRewardSampler,
    Lemma1Audit,
    NonForgettingEpisodes,
    ScaledNoiseEpisodes,
    _check_rewards as _check_rewards,
    _episode_bounds as _episode_bounds,
    _episode_means as _episode_means,
    _neighbour_sums as _neighbour_sums,
    _RunningMeanSampler as _RunningMeanSampler,
    _ScaledLaplace as _ScaledLaplace,
    action_sequence,
    action_sequence_audit,
    algorithm1_action_sequences,
    broken_policy,
    first_decision_log_ratio,
    lemma1_audit,
    lemma1_log_density_ratio,
    lemma1_privacy_loss,
    lemma1_release,
)
from .laplace import (
    ATOM_RTOL,
    LaplaceAudit,
    atom_edges,
    laplace_log_density_ratio,
    laplace_mechanism_audit,
    laplace_privacy_loss,
    laplace_privacy_loss_grid,
    laplace_release,
)
from .ratios import (
    PAIR_MODES,
    RANDOM_DP_PAIR_MAX_EPSILON,
    BinnedLogRatio,
    DeltaLogRatio,
    _bin_counts as _bin_counts,
    _check_rng as _check_rng,
    _check_samples as _check_samples,
    _clopper_pearson as _clopper_pearson,
    _finite as _finite,
    _positive_dirichlet as _positive_dirichlet,
    _seed_sequence as _seed_sequence,
    binned_log_ratio,
    delta_log_ratio,
    max_log_ratio,
    privacy_loss_matrix,
    random_dp_pair,
)
from .transcripts import (
    follow_the_leader_transcripts,
    transcript_log_ratio,
    transcript_loss_by_composition,
)
from .tracing import (
    TracedRun,
    _RecordingLaplace as _RecordingLaplace,
    _RecordingSampler as _RecordingSampler,
    algorithm1_episode_bound,
    arm_episode_lengths,
    decision_table,
    doubling_violations,
    traced_run,
)

__all__ = [
    # ratios
    "PAIR_MODES",
    "RANDOM_DP_PAIR_MAX_EPSILON",
    "BinnedLogRatio",
    "DeltaLogRatio",
    "binned_log_ratio",
    "delta_log_ratio",
    "max_log_ratio",
    "privacy_loss_matrix",
    "random_dp_pair",
    # gdp
    "BROKEN_FLAWS",
    "REWARD_MODELS",
    "ActionSequenceAudit",
    "FixedRewardSampler",
    "Lemma1Audit",
    "NonForgettingEpisodes",
    "ScaledNoiseEpisodes",
    "action_sequence",
    "action_sequence_audit",
    "algorithm1_action_sequences",
    "broken_policy",
    "first_decision_log_ratio",
    "lemma1_audit",
    "lemma1_log_density_ratio",
    "lemma1_privacy_loss",
    "lemma1_release",
    # tracing
    "TracedRun",
    "algorithm1_episode_bound",
    "arm_episode_lengths",
    "decision_table",
    "doubling_violations",
    "traced_run",
    # curators
    "AUDIT_INPUTS",
    "AUDIT_PROBES",
    "CuratorAudit",
    "HeterogeneousCurator",
    "OutputMeanAudit",
    "curator_audit",
    "exact_curator_loss",
    "gaussian_epsilon_at_delta",
    "output_mean_audit",
    # laplace
    "ATOM_RTOL",
    "LaplaceAudit",
    "atom_edges",
    "laplace_log_density_ratio",
    "laplace_mechanism_audit",
    "laplace_privacy_loss",
    "laplace_privacy_loss_grid",
    "laplace_release",
    # transcripts
    "follow_the_leader_transcripts",
    "transcript_log_ratio",
    "transcript_loss_by_composition",
    # broken
    "BROKEN_CURATOR_FLAWS",
    "HalfScaleCTL",
    "LeakyCTL",
    "SwappedCTB",
    "UnclippedCTB",
    "broken_curator",
    # floating
    "consecutive_doubles",
    "ctb_float_probability_one",
    "laplace_float_output",
    "laplace_float_reachable",
]
