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
