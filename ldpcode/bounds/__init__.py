r"""Theoretical bounds of the four papers, as plain functions of the instance and of epsilon: the index of the rooms.

``means`` is always the vector of arm means; gaps :math:`\Delta_a = \mu^* - \mu_a` are derived from
it and only suboptimal arms (:math:`\Delta_a > 0`) enter the sums. All logs are natural. Every name below
is importable from ``ldpcode.bounds`` itself (as it was when this package was one module); each lives in
the room named above its table.

:mod:`~ldpcode.bounds.ren2020`: Ren et al. (2020), homogeneous ε-LDP (Theorems 1, 4, 6, Lemmas 3, 12, Fact 13)

==========================================  =========================================================================================
function                                    statement
==========================================  =========================================================================================
:func:`lower_bound_constant`                Theorem 1: :math:`\liminf R(T)/\log T \ge (e^\epsilon-e^{-\epsilon})^{-2}\sum 1/\Delta_a`
:func:`basu2019_lower_bound_constant`       the KL-based local-DP bound of Basu et al. (2019) that Thm 1 improves
:func:`lower_bound_constant_small_epsilon`  Theorem 1's small-ε form :math:`\sum 1/(4\epsilon^2\Delta_a)`
:func:`lower_bound_constant_tightened`      Theorem 1 with Lemma 12's last relaxation removed (4 times larger)
:func:`lai_robbins_constant`                Lai and Robbins (1985), non-private Bernoulli: :math:`\sum \Delta_a/D(\mu_a\|\mu^*)`
:func:`ctb_lai_robbins_constant`            the regret constant KL-UCB attains on CTB responses (achievable)
:func:`lemma12_bound`                       Lemma 12: :math:`D(h_a\|h_b) \le (e^\epsilon-e^{-\epsilon})^2(p-q)^2`
:func:`fact13_bound`                        Fact 13: :math:`D(f_1\|g_1) \le (R-r)^2/(4rR)` when :math:`r \le f_1/g_1 \le R`
:func:`lemma12_fact13_bound`                Fact 13 as applied in the proof of Lemma 12 (before its last relaxation)
:func:`laplace_sum_tail_bound`              Lemma 3: :math:`P\{Y_n > \lambda\} \le \exp(-\lambda^2/(8v^2))`
:func:`ucb1_regret_bound`                   Auer et al. (2002), Thm 1: :math:`\sum 8\log T/\Delta_a + (1+\pi^2/3)\Delta_a`
:func:`ldp_ucb_l_regret_bound`              Theorem 4 (and Corollary 10 with ``c_s``)
:func:`ldp_ucb_b_regret_bound`              Theorem 6 (and Corollary 11 with ``c_s``)
:func:`ldp_ucb_l_pulls_bound`               the bound on :math:`E[N_a(T)]` in the proof of Theorem 4
:func:`ldp_ucb_b_pulls_bound`               the bound on :math:`E[N_a(T)]` in the proof of Theorem 6
:func:`distribution_free_rate`              :math:`\epsilon^{-1}\sqrt{nT\log T}` (Thms 4, 6; constant not given)
==========================================  =========================================================================================

:mod:`~ldpcode.bounds.factors`: the privacy cost factors of Ren et al. and of the HeLDP paper

=======================================  =================================================================================
function                                 statement
=======================================  =================================================================================
:func:`laplace_ratio`                    Ren et al., Theorem 4, Remark i: :math:`(1+4/\epsilon)^2`
:func:`bernoulli_ratio`                  Ren et al., Theorem 6: :math:`((e^\epsilon+1)/(e^\epsilon-1))^2`
:func:`heldp_alpha`, :func:`heldp_beta`  HeLDP paper, Sections 3.1, 3.2: :math:`\alpha(\epsilon)`, :math:`\beta(\epsilon)`
=======================================  =================================================================================

:mod:`~ldpcode.bounds.lemma7`: Ren et al., Lemma 7 (the constant :math:`c_s` of Corollaries 10, 11)

=================================  ==========================================================================
function                           statement
=================================  ==========================================================================
:func:`c_s_subgaussian`            Lemma 7's constant, :math:`0.0765/e`
:func:`c_s_gaussian`               Lemma 7's constant for Gaussian noise, :math:`0.2066/e`
:func:`lemma7_worst_noise`         the best constant Lemma 7 could state over all variance-one noises (an LP)
:func:`lemma7_chebyshev_constant`  a constant for Lemma 7 from Chebyshev's inequality alone
=================================  ==========================================================================

:mod:`~ldpcode.bounds.heldp`: the heterogeneous setting, HeLDP paper (Theorems 7, 10, Corollaries 8, 11, Section 4.2)

=====================================  ==============================================================================================
function                               statement
=====================================  ==============================================================================================
:func:`heldp_quantities`               heterogeneous setting: :math:`p_0, \alpha_0, \beta_0, \epsilon_{\max}, Q_L, Q_B` (Thms 7, 10)
:func:`heldp_ucb_l_regret_bound`       HeLDP paper, Theorem 7 (inf over κ: :func:`heldp_ucb_l_best_kappa`)
:func:`heldp_ucb_b_regret_bound`       HeLDP paper, Theorem 10 (inf over κ: :func:`heldp_ucb_b_best_kappa`)
:func:`heldp_ucb_l_homogeneous_bound`  HeLDP paper, Corollary 8: :math:`\sum 8(1+4/\epsilon)^2\log T/\Delta_a + (3+2\pi^2/3)\Delta_a`
:func:`heldp_ucb_b_homogeneous_bound`  HeLDP paper, Corollary 11: :math:`\sum 8\beta(\epsilon)\log T/\Delta_a + (2+\pi^2/3)\Delta_a`
:func:`v_l`, :func:`v_b`               HeLDP paper, Section 4.2: :math:`V_L`, :math:`V_B`
:func:`choose_epsilon_min`             HeLDP paper, Section 4.2: ε_min minimizing :math:`V_L` or :math:`V_B`
:func:`laplace_mixed_sum_tail_bound`   HeLDP paper, Lemma 6: :math:`P\{Y_m > \lambda\} \le \exp(-\lambda^2/(8\nu^2))`, unequal scales
:func:`unbiased_ctb_variance`          HeLDP paper, Section 3.2: :math:`\mathrm{Var}[g] = (\beta(\epsilon) - (2\mu-1)^2)/4`
=====================================  ==============================================================================================

:mod:`~ldpcode.bounds.azize2022`: Azize and Basu (2022), global DP (Theorems 2, 3, 7, 8, Table 1)

=======================================  =====================================================================================================================
function                                 statement
=======================================  =====================================================================================================================
:func:`gdp_minimax_lower_bound`          Azize-Basu 2022 (global DP), Thm 2: :math:`\max\{\sqrt{T(K-1)}/27, (K-1)/(131\epsilon)\}`
:func:`gdp_minimax_threshold`            Thm 2's crossing :math:`\frac{27}{131}\sqrt{(K-1)/T}` (the paper prints 131/27)
:func:`gdp_lower_bound_constant`         Azize-Basu, Thm 3: :math:`\sum\Delta_a/\min\{d_{\inf}, 6\epsilon t_{\inf}\}` (per arm: :func:`gdp_lower_bound_terms`; laws on [0, 1]: :func:`gdp_lower_bound_terms_bounded`)
:func:`adap_ucb_regret_bound`            Azize-Basu, Thm 7: :math:`\sum 16\alpha\log T/\min\{\Delta_a,\epsilon\} + 3\alpha/(\alpha-3)`
:func:`adap_klucb_regret_bound`          Azize-Basu, Thm 8, with its unknown :math:`C_1(\alpha), C_2` given by the caller
:func:`gdp_minimax_upper_rate`           Azize-Basu, after Thm 8: :math:`\sqrt{KT\log T} + K\log T/\epsilon` (a rate)
:func:`dp_ucb_rate`, :func:`dp_se_rate`  Azize-Basu, Table 1: DP-UCB and DP-SE regret rates (constant 1)
:func:`adap_ucb_rate`                    Azize-Basu, Table 1: :math:`\sum\Delta_a\log T/\min\{\Delta_a^2,\epsilon\Delta_a\}` (a rate)
:func:`adap_klucb_rate`                  Azize-Basu, Table 1: :math:`\sum\Delta_a\log T/\min\{d(\mu_a,\mu^*),\epsilon\Delta_a\}` (a rate)
:func:`adap_releases_bound`              Azize-Basu, Table 1, "# Private Means": :math:`K + K\log_2(T/K)`
=======================================  =====================================================================================================================

:mod:`~ldpcode.bounds.linear`: Azize and Basu (2022), linear bandits (Theorems 4, 5)

==================================  =====================================================================================================================
function                            statement
==================================  =====================================================================================================================
:func:`linear_minimax_lower_bound`  Azize-Basu, Thm 4: :math:`\max\{e^{-2}d\sqrt T/8, e^{-6}d/(4\epsilon)\}` (crossing: :func:`linear_minimax_threshold`)
:func:`linear_c_epsilon`            Azize-Basu, Thm 5: the program :math:`c_\epsilon(\mathcal A,\theta)` (ε = ∞: :func:`linear_graves_lai_constant`)
==================================  =====================================================================================================================

:mod:`~ldpcode.bounds.table2`: Azize and Basu (2022), Table 2 transcribed as printed

===========================================  ==========================================================================================
function                                     statement
===========================================  ==========================================================================================
:func:`table2_stochastic_minimax`            Table 2, stochastic, minimax (as Thm 2)
:func:`table2_linear_minimax`                Table 2, linear, minimax (as Thm 4)
:func:`table2_stochastic_problem_dependent`  Table 2, stochastic, problem dependent: :math:`\Delta_a` where Thm 3 has :math:`t_{\inf}`
:func:`linear_c_epsilon_basis`               Thm 5's :math:`c_\epsilon` in closed form for the standard basis
===========================================  ==========================================================================================

``ldpcode.bounds._common`` holds the private helpers the rooms share (``_gaps``, ``_log_horizon``,
``_regret_bound``, ``_square``, ``_inv_two_sinh_squared``). Submodules import from one another directly,
never from this ``__init__``.
"""

from .azize2022 import (
    GDPLowerBoundTerms,
    adap_klucb_rate,
    adap_klucb_regret_bound,
    adap_releases_bound,
    adap_ucb_rate,
    adap_ucb_regret_bound,
    dp_se_rate,
    dp_ucb_rate,
    gdp_lower_bound_constant,
    gdp_lower_bound_terms,
    gdp_lower_bound_terms_bounded,
    gdp_minimax_lower_bound,
    gdp_minimax_threshold,
    gdp_minimax_upper_rate,
)
from .factors import (
    bernoulli_ratio,
    heldp_alpha,
    heldp_beta,
    laplace_ratio,
)
from .heldp import (
    EpsilonMinChoice,
    HeLDPQuantities,
    choose_epsilon_min,
    heldp_quantities,
    heldp_ucb_b_best_kappa,
    heldp_ucb_b_homogeneous_bound,
    heldp_ucb_b_regret_bound,
    heldp_ucb_l_best_kappa,
    heldp_ucb_l_homogeneous_bound,
    heldp_ucb_l_regret_bound,
    laplace_mixed_sum_tail_bound,
    unbiased_ctb_variance,
    v_b,
    v_l,
)
from .lemma7 import (
    c_s_gaussian,
    c_s_subgaussian,
    lemma7_chebyshev_constant,
    lemma7_gaussian_integral,
    lemma7_subgaussian_objective,
    lemma7_subgaussian_sup,
    lemma7_worst_noise,
)
from .linear import (
    LinearCEpsilon,
    linear_c_epsilon,
    linear_graves_lai_constant,
    linear_minimax_lower_bound,
    linear_minimax_threshold,
)
from .table2 import (
    linear_c_epsilon_basis,
    table2_linear_minimax,
    table2_stochastic_minimax,
    table2_stochastic_problem_dependent,
)
from .ren2020 import (
    basu2019_lower_bound_constant,
    ctb_lai_robbins_constant,
    distribution_free_rate,
    fact13_bound,
    lai_robbins_constant,
    laplace_sum_tail_bound,
    ldp_ucb_b_pulls_bound,
    ldp_ucb_b_regret_bound,
    ldp_ucb_l_pulls_bound,
    ldp_ucb_l_regret_bound,
    lemma12_bound,
    lemma12_fact13_bound,
    lower_bound_constant,
    lower_bound_constant_small_epsilon,
    lower_bound_constant_tightened,
    ucb1_regret_bound,
)

__all__ = [
    # ren2020
    "lower_bound_constant",
    "basu2019_lower_bound_constant",
    "lower_bound_constant_small_epsilon",
    "lower_bound_constant_tightened",
    "lai_robbins_constant",
    "ctb_lai_robbins_constant",
    "lemma12_bound",
    "fact13_bound",
    "lemma12_fact13_bound",
    "laplace_sum_tail_bound",
    "ucb1_regret_bound",
    "ldp_ucb_l_regret_bound",
    "ldp_ucb_b_regret_bound",
    "ldp_ucb_l_pulls_bound",
    "ldp_ucb_b_pulls_bound",
    "distribution_free_rate",
    # factors
    "laplace_ratio",
    "bernoulli_ratio",
    "heldp_alpha",
    "heldp_beta",
    # lemma7
    "lemma7_subgaussian_objective",
    "lemma7_subgaussian_sup",
    "lemma7_gaussian_integral",
    "lemma7_worst_noise",
    "lemma7_chebyshev_constant",
    "c_s_subgaussian",
    "c_s_gaussian",
    # heldp
    "HeLDPQuantities",
    "heldp_quantities",
    "heldp_ucb_l_best_kappa",
    "heldp_ucb_l_regret_bound",
    "heldp_ucb_b_best_kappa",
    "heldp_ucb_b_regret_bound",
    "heldp_ucb_l_homogeneous_bound",
    "heldp_ucb_b_homogeneous_bound",
    "v_l",
    "v_b",
    "EpsilonMinChoice",
    "choose_epsilon_min",
    "laplace_mixed_sum_tail_bound",
    "unbiased_ctb_variance",
    # azize2022
    "gdp_minimax_lower_bound",
    "gdp_minimax_threshold",
    "GDPLowerBoundTerms",
    "gdp_lower_bound_terms",
    "gdp_lower_bound_terms_bounded",
    "gdp_lower_bound_constant",
    "adap_ucb_regret_bound",
    "adap_klucb_regret_bound",
    "gdp_minimax_upper_rate",
    "dp_ucb_rate",
    "dp_se_rate",
    "adap_ucb_rate",
    "adap_klucb_rate",
    "adap_releases_bound",
    # linear
    "linear_minimax_lower_bound",
    "linear_minimax_threshold",
    "LinearCEpsilon",
    "linear_c_epsilon",
    "linear_graves_lai_constant",
    # table2
    "table2_stochastic_minimax",
    "table2_linear_minimax",
    "table2_stochastic_problem_dependent",
    "linear_c_epsilon_basis",
]
