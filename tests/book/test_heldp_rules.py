"""A constant of chapters/heldp/parameters.py that stands for a library computation too slow for a rule."""

import importlib.util
from pathlib import Path

import pytest

from ldpcode.bounds import choose_epsilon_min
from ldpcode.instances import make_privacy_levels

ROOT = Path(__file__).resolve().parents[2]


def _heldp_rules():
    spec = importlib.util.spec_from_file_location("heldp_rules", ROOT / "chapters/heldp/parameters.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_gaussian_heuristic_of_the_rules_is_choose_epsilon_mins():
    """choosing_epsilon_min's rule on bound_grid uses the heuristic's eps_min for the Gaussian law as two stored
    numbers; they must be what ldp.bounds.choose_epsilon_min returns for V_L and V_B."""
    levels = make_privacy_levels("ren-heldp-gaussian")
    got = tuple(choose_epsilon_min(levels, mech).epsilon_min for mech in ("L", "B"))
    assert _heldp_rules().GAUSSIAN_HEURISTIC == pytest.approx(got, rel=1e-12)


def test_the_closed_form_gaussian_share_kept_is_the_laws():
    levels = make_privacy_levels("ren-heldp-gaussian")
    for eps_min in (0.2, 0.5, 1.0, 1.5, 2.0, 4.0, 10.0):
        assert _heldp_rules().gaussian_kept(eps_min) == pytest.approx(levels.p_at_least(eps_min), rel=1e-7, abs=1e-12)


@pytest.mark.parametrize(
    "notebook, name",
    [
        ("chapters/heldp/figure1.ipynb", "epsilons"),
        ("chapters/heldp/figure1.ipynb", "eps_min_discrete"),
        ("chapters/heldp/theorem7_corollary8.ipynb", "constant_epsilons"),
    ],
)
def test_a_level_heldp_ucb_l_refuses_is_refused_before_any_run(notebook, name):
    """HeLDP-UCB-L refuses a level above HELDP_L_MAX_EPSILON_MIN only when it is built, which in Figure 1 comes after
    the long runs of the ratio panel; the notebooks' rules refuse it first, at the library's own constant.
    (choosing_epsilon_min's grids are refused sooner still: such a threshold keeps no user.)"""
    from ldpcode.parameters import check_values
    from ldpcode.policies import HELDP_L_MAX_EPSILON_MIN

    from ldpcode.claims import load

    values = dict(load(notebook)["params"])
    assert HELDP_L_MAX_EPSILON_MIN == 1e150
    values[name] = sorted(set(values[name]) | {1.0e155})  # a level no HeLDP-UCB-L can run at
    with pytest.raises(ValueError, match=rf"{name}.*1e\+150"):
        check_values(notebook, values)
    values[name] = sorted(set(values[name]) - {1.0e155} | {1.0e150})  # the largest it can
    check_values(notebook, values)
