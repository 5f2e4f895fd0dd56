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

**Limits.** Every audit whose work grows with a size argument (``samples``, ``runs``, ``size``, ``bins``,
``points``, ``k``, ``window``, ``count``, ``horizon``) takes ``limits`` (:class:`ldpcode.limits.Limits`, default
``Limits()``: an hour of one core, 4 GiB) and refuses, before any work, a call whose estimated core-seconds or
bytes exceed it, with the one ValueError of :func:`ldpcode.limits.check_limits` (estimate, ceiling, override).
Functions whose work is linear in arrays the caller already holds (:func:`max_log_ratio`,
:func:`transcript_log_ratio`, :func:`laplace_float_output`, ...) take none. The per-unit costs, measured on the
2-core machine of the README with other jobs running (best of two or three, at and around the book's sizes), and
rounded up about twofold so that the estimate stays above the time and memory seen:

* a curator's output, :data:`~ldpcode.audit.ratios.CURATOR_OUTPUT_SECONDS` = 20 µs whatever the curator (an
  output of :func:`curator_audit` cost 0.04-0.3 µs for CTL, CTB and the mechanisms, 0.5-0.8 µs for
  :class:`HeterogeneousCurator`, 1.8-7 µs for the vetted curators); 8 bytes kept an output, the pilot's 24,
  and :data:`~ldpcode.audit.ratios.CURATOR_OUTPUT_BYTES` = 320 bytes of temporaries (the vetted CTL-S: 276);
* binning (:func:`binned_log_ratio`): 60 ns and 40 bytes a sample (measured 26-30 ns, 24.5 bytes), 1 µs and
  160 bytes a bin (0.4 µs, 120 bytes); thresholds (:func:`delta_log_ratio`): 2 ns and 2 bytes a sample x
  threshold (0.5-0.6 ns, 0.5-0.9 bytes); :func:`privacy_loss_matrix` 5 ns a pair of inputs x output (1.8-2.2);
* :func:`random_dp_pair` 60 ns and 64 bytes a point (14-31 ns, 26-40 bytes); Lemma 1's release 50 ns and 32
  bytes a value (21-24 ns, 24 bytes), its audit 250 ns a value (110) and 2 µs a bin; the Laplace mechanism's
  release 40 ns and 24 bytes a value (19-20 ns, 16 bytes), its audit 300 ns and 48 bytes a value (53-82 ns, 32-35
  bytes); a grid point of :func:`laplace_privacy_loss_grid` 20 ns and 48 bytes (6-16 ns, 32-40 bytes) plus 30 µs
  a coordinate (60 µs a grid in :func:`transcript_loss_by_composition`, measured 26-29 µs);
* :func:`follow_the_leader_transcripts` 30 µs a step plus (60 + 5K) ns and 24 bytes a step and run (48-82 ns,
  16.5-21 bytes); :func:`laplace_float_reachable` 50 µs + 30 ns an output an evaluation (20 µs + 11-14 ns),
  53 + 2 ``window`` + 1 evaluations; :func:`consecutive_doubles` 5 ns and 16 bytes a double (0.5-1.8 ns, 8);
* the runs of Algorithm 1 (:func:`action_sequence_audit`, :func:`traced_run`): at most K(floor(log2 T) + 1) + 1
  episodes at (20 + 4K) µs, the episodic policies' cost of :mod:`ldpcode.limits` (measured 41-580 µs a run of
  the audit at T = 12 to 10^5), 4 bytes an action of their strings; :func:`algorithm1_action_sequences` counts
  its sequences first (memoised on the arms' counts) and costs T + 64 bytes and depth x 1 µs + 2 ns x T each;
* 1 ms and 64 KiB more for every call.

The book's largest calls are estimated at 21 core-seconds at most (a curator audit of 9 inputs at 10^5 samples;
they take 0.03-0.35 s) and 0.4 GiB (Lemma 1's audit at 10^6 samples; it takes 0.15 GiB);
tests/audit/test_audit_costs.py checks every one of them against a tenth of the default time and a quarter of its
memory.
"""

from .broken import BROKEN_CURATOR_FLAWS, HalfScaleCTL, LeakyCTL, SwappedCTB, UnclippedCTB, broken_curator
from .curators import (
    AUDIT_INPUTS,
    AUDIT_PROBES,
    CuratorAudit,
    HeterogeneousCurator,
    OutputMeanAudit,
    curator_audit,
    exact_curator_loss,
    gaussian_epsilon_at_delta,
    output_mean_audit,
)
from .floating import consecutive_doubles, ctb_float_probability_one, laplace_float_output, laplace_float_reachable
from .gdp import (
    BROKEN_FLAWS,
    REWARD_MODELS,
    ActionSequenceAudit,
    FixedRewardSampler,
    Lemma1Audit,
    NonForgettingEpisodes,
    ScaledNoiseEpisodes,
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
