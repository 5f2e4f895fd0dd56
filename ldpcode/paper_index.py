"""The paper-item index: every theorem, lemma, algorithm, table and figure of the four papers, with the
notebook that restates and checks it and the functions of ``ldpcode`` that implement it.

This table is the single source of the book's API appendix (``chapters/api/index.md`` renders it with the
``paper-index`` directive of ``_ext/paper_index.py``: each function links to its documentation and from there,
through Sphinx's viewcode, to its highlighted source), and of the tests that keep it true
(``tests/book/test_paper_index.py``: every notebook of the book appears here, every notebook named here exists,
every function named here imports). The tests column of the appendix is not stored: it is the test files
that name one of the item's functions, found when the book is built (:func:`tests_calling`).

The four papers themselves are one table, :data:`PAPERS_BY_CITES` (bibliography key -> :class:`Paper`: its
chapter and the name each page gives it); :data:`CHAPTER_TITLES` (this index's groups, by chapter) and
:data:`ldpcode.claims.PAPERS` (the report's names, by bibliography key) are views of it.

Names are the public paths a reader types (``ldpcode.bounds.ldp_ucb_l_regret_bound``), not the module a
function is defined in: the appendix resolves each to where it lives, so moving code between modules
does not touch this table.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from pathlib import Path

from ._paths import repo_root


@dataclass(frozen=True)
class Paper:
    """One of the four papers the book reproduces, under each name the book gives it: its ``chapter``
    (``chapters/<chapter>/``, and its key in this index), its ``title`` in the API appendix, its ``report_title``
    in the reproduction report (:data:`ldpcode.claims.PAPERS`) and its ``short`` name in the scorecard."""

    chapter: str
    title: str
    report_title: str
    short: str


#: the one table of the papers, by bibliography key (the ``cites`` of a claim); the views below derive from it
PAPERS_BY_CITES = {
    "ren2020ldp": Paper(
        "ren2020",
        "Ren et al. (2020a): ε-LDP bandits",
        "Ren et al. (2020a): ε-local differential privacy",
        "Ren et al. 2020a (ε-LDP)",
    ),
    "ren2020heldp": Paper(
        "heldp",
        "Ren et al. (2020b): heterogeneous LDP",
        "Ren et al. (2020b, extended version): heterogeneous privacy levels",
        "Ren et al. 2020b (heterogeneous)",
    ),
    "azize2022privacy": Paper(
        "azize2022",
        "Azize and Basu (2022): ε-global DP",
        "Azize and Basu (2022): ε-global differential privacy",
        "Azize and Basu 2022 (global DP)",
    ),
    "zheng2020locally": Paper(
        "zheng2020",
        "Zheng et al. (2020): (ε, δ)-LDP reductions and contextual bandits",
        "Zheng et al. (2020): (ε, δ)-LDP reductions and contextual bandits",
        "Zheng et al. 2020 ((ε, δ)-LDP)",
    ),
}
#: the index's groups: each paper's chapter -> its title, then the book's own chapters
CHAPTER_TITLES = {p.chapter: p.title for p in PAPERS_BY_CITES.values()} | {"book": "The book's own chapters"}


@dataclass(frozen=True)
class Item:
    """One row: ``item`` as the paper numbers it, ``where`` in the paper, the ``notebook`` (path from the
    repository root, without ``.ipynb``) and ``api``, the public names of the functions and classes that
    implement it (the policies by their registry name, e.g. ``policy:LDP-UCB-L``)."""

    paper: str
    item: str
    where: str
    notebook: str
    api: tuple


def _i(paper, item, where, notebook, *api) -> Item:
    return Item(paper, item, where, notebook, tuple(api))


R, H, A, Z = "chapters/ren2020/", "chapters/heldp/", "chapters/azize2022/", "chapters/zheng2020/"
B = "ldpcode.bounds."

ITEMS = (
    # ------------------------------------------------------------------ Ren et al. (2020a)
    _i(
        "ren2020",
        "Theorem 1 (lower bound), Lemma 12 (KL divergence between mixtures)",
        "Section 2; Appendix A.1, A.8",
        R + "theorem1_lower_bound",
        B + "lower_bound_constant",
        B + "lower_bound_constant_small_epsilon",
        B + "lower_bound_constant_tightened",
        B + "basu2019_lower_bound_constant",
        B + "lemma12_bound",
        B + "fact13_bound",
        "ldpcode.divergences.kl_mixture",
        "ldpcode.audit.random_dp_pair",
    ),
    _i(
        "ren2020",
        "Lemmas 2 and 5, Curators 1 and 3: CTL and CTB are ε-DP; CTB's response mean",
        "Sections 3.1.1, 3.1.2; Appendix A.3",
        R + "lemmas2_5_curators",
        "ldpcode.mechanisms.CTL",
        "ldpcode.mechanisms.CTB",
        "ldpcode.mechanisms.ctb_output_mean",
        "ldpcode.audit.privacy_loss_matrix",
    ),
    _i(
        "ren2020",
        "Lemma 3: the tail of a sum of Laplace variables",
        "Section 3.1.1",
        R + "lemma3_laplace_tail",
        B + "laplace_sum_tail_bound",
        "ldpcode.mechanisms.laplace_sum_sf",
    ),
    _i(
        "ren2020",
        "Theorem 4, Agent 2: LDP-UCB-L",
        "Section 3.1.1; Appendix A.2",
        R + "theorem4_ldp_ucb_l",
        "policy:LDP-UCB-L",
        B + "ldp_ucb_l_regret_bound",
        B + "ldp_ucb_l_pulls_bound",
        B + "distribution_free_rate",
        "ldpcode.experiments.bounds_along_run",
        "ldpcode.experiments.last_decade_slopes",
    ),
    _i(
        "ren2020",
        "Theorem 6, Agent 4: LDP-UCB-B",
        "Section 3.1.2; Appendix A.4",
        R + "theorem6_ldp_ucb_b",
        "policy:LDP-UCB-B",
        B + "ldp_ucb_b_regret_bound",
        B + "ldp_ucb_b_pulls_bound",
        B + "ucb1_regret_bound",
        B + "distribution_free_rate",
        "ldpcode.experiments.bounds_along_run",
        "ldpcode.experiments.gap_group_pulls",
        "ldpcode.experiments.last_decade_slopes",
    ),
    _i(
        "ren2020",
        "Lemma 7: the Sigmoid keeps the gaps of sub-Gaussian arms",
        "Section 3.2; Appendix A.5",
        R + "lemma7_sigmoid",
        B + "c_s_subgaussian",
        B + "c_s_gaussian",
        B + "lemma7_worst_noise",
        B + "lemma7_chebyshev_constant",
        "ldpcode.mechanisms.gaussian_sigmoid_mean",
    ),
    _i(
        "ren2020",
        "Lemmas 8, 9, Corollaries 10, 11, Curators 5, 6: CTL-S, CTB-S, LDP-UCB-LS, LDP-UCB-BS",
        "Section 3.2; Appendix A.6, A.7",
        R + "corollaries10_11_sigmoid",
        "ldpcode.mechanisms.CTLS",
        "ldpcode.mechanisms.CTBS",
        "policy:LDP-UCB-LS",
        "policy:LDP-UCB-BS",
    ),
    _i(
        "ren2020",
        "Figure 1 (a)-(f): UCB1, LDP-UCB-L and LDP-UCB-B on twenty arms",
        "Section 4",
        R + "figure1",
        "policy:UCB1",
        "policy:LDP-UCB-L",
        "policy:LDP-UCB-B",
        B + "laplace_ratio",
        B + "bernoulli_ratio",
    ),
    _i(
        "ren2020",
        "Supplement Figure 2 (a)-(c): the Sigmoid algorithms on Gaussian arms",
        "Appendix B",
        R + "supplement_figure2",
        "policy:LDP-UCB-LS",
        "policy:LDP-UCB-BS",
        B + "c_s_gaussian",
    ),
    # ------------------------------------------------------------------ Ren et al. (2020b), heterogeneous
    _i(
        "heldp",
        "Lemma 6: the tail of a sum of Laplace variables with unequal scales",
        "Section 3.1",
        H + "lemma6_laplace_tail",
        B + "laplace_mixed_sum_tail_bound",
        "ldpcode.laplace_tails.laplace_mixed_sum_sf",
        "ldpcode.laplace_tails.laplace_mixed_sum_sf_inversion",
        "ldpcode.laplace_tails.kept_scales",
    ),
    _i(
        "heldp",
        "Theorem 7, Corollary 8: HeLDP-UCB-L and its homogeneous case",
        "Section 3.1",
        H + "theorem7_corollary8",
        "policy:HeLDP-UCB-L",
        "ldpcode.instances.PrivacyLevels",
        B + "heldp_quantities",
        B + "heldp_ucb_l_regret_bound",
        B + "heldp_ucb_l_best_kappa",
        B + "heldp_ucb_l_homogeneous_bound",
        "ldpcode.experiments.heterogeneous_against_bound",
        "ldpcode.experiments.constant_levels_pairs",
        "ldpcode.experiments.sup_ratio",
    ),
    _i(
        "heldp",
        "Theorem 10, Corollary 11: HeLDP-UCB-B and its homogeneous case",
        "Section 3.2",
        H + "theorem10_corollary11",
        "policy:HeLDP-UCB-B",
        B + "heldp_ucb_b_regret_bound",
        B + "heldp_ucb_b_best_kappa",
        B + "heldp_ucb_b_homogeneous_bound",
        "ldpcode.experiments.heterogeneous_against_bound",
        "ldpcode.experiments.constant_levels_pairs",
        "ldpcode.experiments.sup_ratio",
    ),
    _i(
        "heldp",
        "Section 3.2: the unbiasing map g of HeLDP-UCB-B",
        "Section 3.2",
        H + "unbiasing_map_g",
        "ldpcode.mechanisms.CTB.unbias",
        "ldpcode.unbiasing.ctb_unbiased_values",
        B + "unbiased_ctb_variance",
        B + "heldp_beta",
    ),
    _i(
        "heldp",
        "Lemma 12, Corollary 13: HeLDP-UCB-LS and HeLDP-UCB-BS",
        "Section 3.3",
        H + "corollary13_sigmoid",
        "policy:HeLDP-UCB-LS",
        "policy:HeLDP-UCB-BS",
        B + "c_s_subgaussian",
    ),
    _i(
        "heldp",
        "Figure 1 (a)-(h): constant and heterogeneous levels",
        "Section 4",
        H + "figure1",
        "policy:HeLDP-UCB-L",
        "policy:HeLDP-UCB-B",
        "ldpcode.instances.PrivacyLevels",
    ),
    _i(
        "heldp",
        "Figure 2: regret against V_L and V_B",
        "Section 4.2",
        H + "figure2",
        B + "v_l",
        B + "v_b",
        "ldpcode.linear_fit",
    ),
    _i(
        "heldp",
        "Section 4.2: choosing ε_min",
        "Section 4.2",
        H + "choosing_epsilon_min",
        B + "choose_epsilon_min",
        B + "v_l",
        B + "v_b",
    ),
    # ------------------------------------------------------------------ Azize and Basu (2022)
    _i(
        "azize2022",
        "Theorem 1 (the Laplace mechanism is ε-DP) and Table 2 (the lower bounds, cell by cell)",
        "Sections 2 and 3",
        A + "theorem1_table2",
        "ldpcode.audit.laplace_privacy_loss",
        "ldpcode.audit.laplace_privacy_loss_grid",
        "ldpcode.audit.laplace_mechanism_audit",
        B + "table2_stochastic_minimax",
        B + "table2_stochastic_problem_dependent",
        B + "table2_linear_minimax",
        B + "linear_c_epsilon_basis",
    ),
    _i(
        "azize2022",
        "Theorem 2: minimax lower bound under ε-global DP",
        "Section 3",
        A + "theorem2_minimax",
        B + "gdp_minimax_lower_bound",
        B + "gdp_minimax_threshold",
        "ldpcode.experiments.epsilon_free_crossing",
    ),
    _i(
        "azize2022",
        "Theorem 3: problem-dependent lower bound (d_inf, t_inf)",
        "Section 3",
        A + "theorem3_problem_dependent",
        B + "gdp_lower_bound_constant",
        B + "gdp_lower_bound_terms",
        "ldpcode.divergences.d_inf_bernoulli",
        "ldpcode.divergences.t_inf_bernoulli",
        "ldpcode.divergences.d_inf_gaussian",
        "ldpcode.divergences.t_inf_gaussian",
    ),
    _i(
        "azize2022",
        "Theorems 4 and 5: linear bandits",
        "Section 3",
        A + "theorems4_5_linear",
        B + "linear_minimax_lower_bound",
        B + "linear_minimax_threshold",
        B + "linear_c_epsilon",
        B + "linear_graves_lai_constant",
        "ldpcode.experiments.epsilon_free_crossing",
    ),
    _i(
        "azize2022",
        "Algorithm 1, Lemma 1, Theorem 6: the privacy of adaptive episodes",
        "Section 4",
        A + "lemma1_theorem6_privacy",
        "ldpcode.global_policies.AdaptiveEpisodes",
        "ldpcode.audit.lemma1_audit",
        "ldpcode.audit.lemma1_privacy_loss",
        "ldpcode.audit.action_sequence_audit",
        "ldpcode.audit.broken_policy",
    ),
    _i(
        "azize2022",
        "Figure 1, Example 2: adaptive episodes with per-arm doubling",
        "Section 4",
        A + "figure1_episodes",
        "ldpcode.audit.traced_run",
        "ldpcode.audit.decision_table",
        "ldpcode.audit.doubling_violations",
        "ldpcode.audit.algorithm1_episode_bound",
    ),
    _i(
        "azize2022",
        "Theorems 7 and 8: AdaP-UCB and AdaP-KLUCB upper bounds",
        "Section 4",
        A + "theorems7_8_upper_bounds",
        "policy:AdaP-UCB",
        "policy:AdaP-KLUCB",
        B + "adap_ucb_regret_bound",
        B + "adap_klucb_regret_bound",
        B + "lai_robbins_constant",
    ),
    _i(
        "azize2022",
        "Table 1: four ε-global DP algorithms",
        "Section 5",
        A + "table1",
        "policy:DP-SE",
        "policy:DP-UCB",
        B + "adap_releases_bound",
        B + "dp_ucb_rate",
        B + "dp_se_rate",
    ),
    _i(
        "azize2022",
        "Figure 2: regret over time of four ε-global DP algorithms",
        "Section 5",
        A + "figure2",
        "policy:AdaP-UCB",
        "policy:AdaP-KLUCB",
        "policy:DP-SE",
        "policy:DP-UCB",
    ),
    _i(
        "azize2022",
        "Figure 3: AdaP-KLUCB against ε, the regime change",
        "Section 5",
        A + "figure3",
        "ldpcode.hinge_fit",
        "ldpcode.hinge_bootstrap",
        B + "gdp_lower_bound_terms",
    ),
    # ------------------------------------------------------------------ Zheng et al. (2020)
    _i(
        "zheng2020",
        "Theorem 1: LDP implies DP in the streaming setting",
        "Section 3 (proof: Appendix A, not in the extraction)",
        Z + "theorem1_ldp_implies_dp",
        "ldpcode.audit.follow_the_leader_transcripts",
        "ldpcode.audit.transcript_log_ratio",
        "ldpcode.audit.transcript_loss_by_composition",
        "ldpcode.mechanisms.LaplaceMechanism",
    ),
    _i(
        "zheng2020",
        "Algorithm 1, Theorems 2 and 3: the one-point reduction",
        "Section 3",
        Z + "algorithm1_theorems2_3",
        "ldpcode.reductions.OnePointReduction",
        "ldpcode.reductions.algorithm1_mechanism",
        "ldpcode.reductions.simulate_mab",
        "ldpcode.reductions.gaussian_exact_delta",
        "ldpcode.mechanisms.GaussianMechanism",
    ),
    _i(
        "zheng2020",
        "Appendix B: the MAB instance of the reduction",
        "Appendix B",
        Z + "mab_reduction",
        "ldpcode.reductions.make_agent",
        "ldpcode.reductions.bernoulli_losses",
        "ldpcode.reductions.ucb_adversary",
    ),
    _i(
        "zheng2020",
        "Appendix B: the best-arm identification instance of the reduction (successive elimination)",
        "Section 3.1; Appendix B (not in the extraction)",
        Z + "appendix_b_best_arm",
        "ldpcode.reductions.successive_elimination",
        "ldpcode.reductions.successive_elimination_reference",
        "ldpcode.reductions.elimination_radius",
        "ldpcode.reductions.elimination_samples_prediction",
        "ldpcode.reductions.algorithm1_mechanism",
    ),
    _i(
        "zheng2020",
        "Corollary 4: one-point BCO",
        "Section 3",
        Z + "corollary4_one_point_bco",
        "ldpcode.bco.simulate_one_point",
        "ldpcode.bco.one_point_sigma",
        "ldpcode.bco.sphere_gradient_estimate",
    ),
    _i(
        "zheng2020",
        "Algorithm 2: two-point BCO",
        "Section 3",
        Z + "algorithm2_two_point_bco",
        "ldpcode.bco.simulate_two_point",
        "ldpcode.bco.two_point_sigma",
        "ldpcode.bco.two_point_release",
    ),
    _i(
        "zheng2020",
        "Theorems 7 and 8: LDP LinUCB",
        "Section 4",
        Z + "theorems7_8_linear",
        "ldpcode.contextual.simulate_contextual",
        "ldpcode.contextual.linucb_mechanisms",
        "ldpcode.contextual.horizon_sweep",
    ),
    _i(
        "zheng2020",
        "Algorithm 3, Theorems 9 and 10: LDP generalized linear bandits",
        "Section 5",
        Z + "algorithm3_theorems9_10_glm",
        "ldpcode.contextual.gloc_mechanisms",
        "ldpcode.contextual.upsilon",
        "ldpcode.contextual.logistic",
    ),
    _i(
        "zheng2020",
        "Table 1: every stated rate beside a measured exponent",
        "Section 1",
        Z + "table1",
        "ldpcode.loglog_slope",
        "ldpcode.ratio_exponent",
    ),
    # ------------------------------------------------------------------ the book's own
    _i(
        "book",
        "Appendix: auditing every mechanism of the book",
        "",
        "chapters/appendix/privacy_audit",
        "ldpcode.audit.curator_audit",
        "ldpcode.audit.exact_curator_loss",
        "ldpcode.vetted.make_curator",
        "ldpcode.audit.laplace_float_reachable",
    ),
    _i(
        "book",
        "The privacy landscape: every trust model on one instance, against the lower bounds",
        "Ren et al. Theorem 1; Azize and Basu Theorem 3",
        "chapters/landscape/privacy_landscape",
        "ldpcode.sweep.sweep",
        "ldpcode.experiments.landscape.lower_bounds",
        "ldpcode.experiments.landscape.price_of_trust",
        "ldpcode.experiments.landscape.crossover_bootstrap",
        "ldpcode.experiments.landscape.bound_crossover",
        "ldpcode.experiments.landscape.excess_slope",
        "policy:OnePoint-UCB",
        "policy:HeLDP-UCB-B",
    ),
    _i(
        "book",
        "The reproduction report",
        "",
        "chapters/report/reproduction_report",
        "ldpcode.claims.collect",
        "ldpcode.claims.statistical",
        "ldpcode.claims.check",
        "ldpcode.claims.scorecard",
        "ldpcode.claims.statements.get",
        "ldpcode.claims.consistent_horizons",
    ),
    _i(
        "book",
        "Errata",
        "",
        "chapters/report/errata",
        "ldpcode.bounds.gdp_minimax_threshold",
        "ldpcode.bounds.table2_stochastic_problem_dependent",
        "ldpcode.claims.joint_horizons",
    ),
)


def _policy(name: str):
    """``make_policy(name)`` with whichever privacy argument the policy takes (its class is what is linked)."""
    from .policies import make_policy

    errors = []
    for kwargs in ({}, {"epsilon": 1.0}, {"epsilon_min": 1.0}, {"epsilon": 1.0, "delta": 1e-6}):
        try:
            return make_policy(name, **kwargs)
        except ValueError as exc:
            errors.append(str(exc))
    raise ImportError(f"the paper index names the policy {name!r}, which make_policy refuses: {errors[-1]}")


def resolve(name: str):
    """The object a public name of :data:`ITEMS` names: ``policy:NAME`` is the class of
    ``make_policy(NAME, ...)``; ``ldpcode.a.b`` is the attribute ``b`` of ``ldpcode.a`` (or a module), and
    ``ldpcode.a.C.m`` the method ``m`` of the class ``C`` of ``ldpcode.a`` (``ldpcode.mechanisms.CTB.unbias``).
    Raises ImportError naming the item when it does not exist."""
    if name.startswith("policy:"):
        return type(_policy(name.removeprefix("policy:")))
    try:
        return importlib.import_module(name)
    except ImportError:
        pass
    module, _, attr = name.rpartition(".")
    try:
        return getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as exc:
        owner, _, cls = module.rpartition(".")
        try:  # a method of a class
            klass = getattr(importlib.import_module(owner), cls)
            if isinstance(klass, type):
                return getattr(klass, attr)
        except (ImportError, AttributeError, ValueError):  # ValueError: import_module("") of a one-part name
            pass
        raise ImportError(f"the paper index names {name!r}, which does not exist") from exc


def target(name: str) -> tuple[str, str]:
    """(role, dotted path where it is defined) of a public name, for a cross-reference: ('mod', 'ldpcode.x')
    for a module, ('class', ...) or ('func', ...) otherwise."""
    obj = resolve(name)
    if isinstance(obj, type(importlib)):
        return "mod", obj.__name__
    kind = "class" if isinstance(obj, type) else "func"
    return kind, f"{obj.__module__}.{obj.__qualname__}"


def tests_calling(names, root: Path | None = None) -> list[str]:
    """The files under ``tests/`` (as ``room/test_x.py``) that use one of ``names`` (by its last component, as an attribute or a call;
    a policy by its registry name in quotes), except tests/book/test_paper_index.py, which names them all."""
    root = repo_root() if root is None else root
    pats = []
    for n in names:
        if n.startswith("policy:"):
            pats.append(re.escape('"' + n.removeprefix("policy:") + '"'))
        else:
            pats.append(r"\b" + re.escape(n.rpartition(".")[2]) + r"\b")
    rx = re.compile("|".join(pats))
    files = [p for p in (root / "tests").rglob("test_*.py") if p.name != "test_paper_index.py"]
    return sorted(p.relative_to(root / "tests").as_posix() for p in files if rx.search(p.read_text(encoding="utf-8")))
