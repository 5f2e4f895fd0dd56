"""Audit 9, finding M2: values the notebooks' rules accepted and a later cell refused or asserted against, after the
work (found by ``python -m ldpcode rerun <notebook> [--tiny] -p NAME VALUE``). Each is now refused by the parameter
check, before any work, in one line that names the parameter; the notebook's defaults, and its tiny set, still pass.

Each value is tried over the notebook's defaults (the parameters cell, :func:`ldpcode.cells.parameter_defaults`) and,
where the fuzz found it there, over its tiny set (``Notebook.tiny``, the set ``rerun --tiny`` runs)."""

import copy

import pytest

from ldpcode.cells import parameter_defaults
from ldpcode.parameters import check_values, rules_for

A, R, Z = "chapters/azize2022/", "chapters/ren2020/", "chapters/zheng2020/"
THEOREM3 = A + "theorem3_problem_dependent.ipynb"
CURATORS = R + "lemmas2_5_curators.ipynb"
TABLE2 = A + "theorem1_table2.ipynb"
ERRATA = "chapters/report/errata.ipynb"
UPPER = A + "theorems7_8_upper_bounds.ipynb"
LEMMA3 = R + "lemma3_laplace_tail.ipynb"
REDUCTION = Z + "mab_reduction.ipynb"
COROLLARY4 = Z + "corollary4_one_point_bco.ipynb"
NOTEBOOKS = (THEOREM3, CURATORS, TABLE2, ERRATA, UPPER, LEMMA3, REDUCTION, COROLLARY4)

TINY = 5e-324  # the smallest double (subnormal)


def defaults(path: str) -> dict:
    return parameter_defaults(path)


def tiny(path: str) -> dict:
    return {**parameter_defaults(path), **copy.deepcopy(rules_for(path).tiny)}


# (notebook, the values it was found over, parameter, value, the start of the refusal; what failed after the work)
FOUND = [
    # cell 13: min over log s on a grid that stops short of the minimiser, at Delta / sigma = 3 (log s = 1.15)
    (
        THEOREM3,
        defaults,
        "log_s_grid",
        [-1.0, 1.0, 2],
        r"^parameter log_s_grid must hold, for every ratio r of gauss_check_ratios, the minimiser",
    ),
    # cell 12, assert with no message: Simpson's rule multiplies two grid spacings, which over- or underflow
    (THEOREM3, defaults, "sigma", 1e308, r"^parameter sigma must be a number in \[1e-150, 1e\+150\] \("),
    (THEOREM3, defaults, "sigma", TINY, r"^parameter sigma must be a number in \[1e-150, 1e\+150\] \("),
    # cell 14: se must be a finite number, got nan (no output of CTL(1) in the left tail)
    (CURATORS, tiny, "audit_epsilons", [100.0], r"^parameter audit_epsilons must leave, at audit_samples outputs"),
    (CURATORS, defaults, "audit_epsilons", [100.0], r"^parameter audit_epsilons must leave, at audit_samples outputs"),
    # cell 7: every row of table must have some positive entry (CTL's density underflows on the x grid)
    (CURATORS, tiny, "audit_epsilons", [1000.0], r"^parameter audit_epsilons must leave, at audit_samples outputs"),
    # cell 9: d must be ... > 0, got array([0.]) (Delta^2 / (2 sigma^2) underflows)
    (TABLE2, tiny, "gaussian_sigma", 1e308, r"^parameter gaussian_sigma must be .*\(ldp\.bounds\."),
    (TABLE2, defaults, "gaussian_sigma", 1e308, r"^parameter gaussian_sigma must be .*\(ldp\.bounds\."),
    # cell 13 (errata): d must be ... > 0, got array([inf, ...]) (Delta^2 / (2 sigma^2) overflows)
    (ERRATA, tiny, "gaussian_sigma", TINY, r"^parameter gaussian_sigma must be .*\(ldp\.bounds\."),
    (ERRATA, defaults, "gaussian_sigma", TINY, r"^parameter gaussian_sigma must be .*\(ldp\.bounds\."),
    # cell 5: c1 must be a finite number > 0, got inf (the body draws Theorem 8 at 2 c1_shape)
    (UPPER, tiny, "c1_shape", 1e308, r"^parameter c1_shape must be .*\(ldp\.bounds\.adap_klucb_regret_bound"),
    (UPPER, defaults, "c1_shape", 1e308, r"^parameter c1_shape must be .*\(ldp\.bounds\.adap_klucb_regret_bound"),
    # cell 5: bound must contain only finite numbers (the lambda grid of a subnormal b)
    (LEMMA3, tiny, "b", TINY, r"^parameter b must be .*\(ldp\.bounds\.laplace_sum_tail_bound"),
    (LEMMA3, defaults, "b", TINY, r"^parameter b must be .*\(ldp\.bounds\.laplace_sum_tail_bound"),
    # cell 5: sensitivity must be a finite number, got inf (the Laplace reduction's sensitivity 2B)
    (REDUCTION, tiny, "loss_bound", 1e308, r"^parameter loss_bound must be .*\(ldp\.reductions\.make_agent"),
    (REDUCTION, defaults, "loss_bound", 1e308, r"^parameter loss_bound must be .*\(ldp\.reductions\.make_agent"),
    # cell 8: beta must be a number in (0, 1e12] (ldp.bco's cap)
    (COROLLARY4, tiny, "st_beta", 1e308, r"^parameter st_beta must be a number in \[0\.001, 1e\+12\] \("),
    (COROLLARY4, defaults, "st_beta", 1e308, r"^parameter st_beta must be a number in \[0\.001, 1e\+12\] \("),
]


def _id(case) -> str:
    path, base, name, value, _ = case
    return f"{path.split('/', 1)[1].removesuffix('.ipynb')}:{base.__name__}:{name}={value}"


@pytest.mark.parametrize("path", NOTEBOOKS)
def test_defaults_and_tiny_set_pass(path):
    check_values(path, defaults(path))
    check_values(path, tiny(path))


@pytest.mark.parametrize("path,base,name,value,message", FOUND, ids=[_id(c) for c in FOUND])
def test_refused_in_one_line_before_any_work(path, base, name, value, message):
    values = base(path)
    check_values(path, values)  # the set passes: the refusal is the value's doing
    with pytest.raises(ValueError, match=message) as info:
        check_values(path, {**values, name: value})
    assert "\n" not in str(info.value), str(info.value)


# --- the edges of the new rules: what the body computes passes, what it cannot is refused ----------------------


def test_theorem3_log_s_grid_edges():
    """The Kullback-Leibler minimiser over log(s / sigma) is log(1 + r^2) / 2: 1.151 at the default ratio 3."""
    values = defaults(THEOREM3)
    check_values(THEOREM3, {**values, "log_s_grid": [-1.0, 1.2, 2]})
    check_values(THEOREM3, {**values, "log_s_grid": [-7.0, 7.0, 2]})
    with pytest.raises(ValueError, match=r"^parameter log_s_grid must hold"):
        check_values(THEOREM3, {**values, "log_s_grid": [0.5, 7.0, 25]})  # the minimiser at r = 0.1 is 0.005
    with pytest.raises(ValueError, match=r"^parameter log_s_grid\[1\] \(max\) must be a number in \[-7, 7\] \("):
        check_values(THEOREM3, {**values, "log_s_grid": [-3.0, 9.0, 25]})  # the quadrature's TV is above 1 there


def test_theorem3_sigma_and_ratio_edges():
    values = defaults(THEOREM3)
    for sigma in (1e-150, 1e150):
        check_values(THEOREM3, {**values, "sigma": sigma})
    check_values(THEOREM3, {**values, "gauss_check_ratios": [1e-9, 10.0]})
    with pytest.raises(ValueError, match=r"^parameter gauss_check_ratios\[0\] must be a number in \(0, 10\] \("):
        check_values(THEOREM3, {**values, "gauss_check_ratios": [12.0]})


def test_curators_audit_bins_edges():
    """At the tiny set (1,000 outputs, bins of 0.1 from -1 to 2) the sparsest bin expects 5 outputs at eps = 1.33."""
    values = tiny(CURATORS)
    check_values(CURATORS, {**values, "audit_epsilons": [1.3]})
    with pytest.raises(ValueError, match=r"^parameter audit_epsilons must leave"):
        check_values(CURATORS, {**values, "audit_epsilons": [1.0, 2.0]})
    wide = {**values, "x_min": -100.0, "x_max": 100.0, "audit_edges": [-0.5, 1.5, 2.0], "audit_samples": 10**9}
    check_values(CURATORS, {**wide, "audit_epsilons": [5.0]})
    with pytest.raises(ValueError, match=r"^parameter audit_epsilons\[0\] and audit_epsilons\[-1\] must keep"):
        check_values(CURATORS, {**wide, "audit_epsilons": [8.0]})  # eps |x - r| = 808: CTL's density is 0


def test_table2_gaussian_sigma_edges():
    """The notebook writes t_inf = 2 Phi(Delta / 2 sigma) - 1 out: it cancels to 0 once Delta / 2 sigma < 1.1e-16."""
    values = tiny(TABLE2)
    for sigma in (1e-150, 1e14):
        check_values(TABLE2, {**values, "gaussian_sigma": sigma})
    for sigma in (1e-160, 1e15):
        with pytest.raises(ValueError, match=r"^parameter gaussian_sigma must"):
            check_values(TABLE2, {**values, "gaussian_sigma": sigma})


def test_upper_bounds_c1_c2_edges():
    values = defaults(UPPER)
    for c1 in (1e-6, 1e300):
        check_values(UPPER, {**values, "c1_shape": c1})
    with pytest.raises(ValueError, match=r"^parameter c1_shape must be"):
        check_values(UPPER, {**values, "c1_shape": 1e-20})  # 2 c1 and c1 give one bound at t = 2: no step
    with pytest.raises(ValueError, match=r"^parameter c2_shape must be"):
        check_values(UPPER, {**values, "c2_shape": TINY})


def test_reduction_loss_bound_edges():
    """Algorithm 1's Gaussian mechanism (the tighter of the two) needs a noise variance among the doubles: at eps = 1 and
    delta = 1e-6 its sensitivity 2B must be <= 2.53e153."""
    values = tiny(REDUCTION)
    check_values(REDUCTION, {**values, "loss_bound": 1.2e153})
    with pytest.raises(ValueError, match=r"^parameter loss_bound must be .*sensitivity must be <= 2\.53e\+153"):
        check_values(REDUCTION, {**values, "loss_bound": 1.3e153})
