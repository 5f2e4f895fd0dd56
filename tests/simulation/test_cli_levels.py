"""The sweep command's values: the users' levels HeLDP-UCB-L cannot use, empty list items, repeated discrete levels
and scheduler addresses are refused before any work, in one line with exit status 2 (the audit of the command
line: each was accepted and gave a plausible wrong number, or a cryptic error)."""

from __future__ import annotations

import pytest

import ldpcode as ldp
from ldpcode import sweep as sw
from ldpcode.__main__ import main
from ldpcode.policies import HELDP_L_MAX_EPSILON_MIN

BASE = ["sweep", "--instance", "bernoulli:0.9,0.1", "--runs", "2", "--horizon", "2000", "--epsilons", "0.5"]


def _refused(argv, tmp_path, monkeypatch, capsys) -> str:
    monkeypatch.setattr(sw, "_local", lambda *a, **k: pytest.fail("the grid ran before its arguments were checked"))
    try:
        code = main([*argv, "--out", str(tmp_path / "o.csv")])
    except SystemExit as e:  # argparse's own refusals
        code = e.code
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert not (tmp_path / "o.csv").exists()
    return err


@pytest.mark.parametrize("levels", ["discrete:1e155", "discrete:0.5,1e155", "clipped-gaussian:1,1,0,1e155"])
@pytest.mark.parametrize("policy", ["HeLDP-UCB-L", "HeLDP-UCB-LS"])
def test_users_levels_beyond_what_heldp_l_can_use_are_refused(policy, levels, tmp_path, monkeypatch, capsys):
    """Before: --levels discrete:1e155 ran HeLDP-UCB-L and reported regret 0.0: eps_t^-2 underflows to 0, A_a never
    grows, and the forced pulls chose the first arm (the best) forever."""
    err = _refused([*BASE, "--policies", policy, "--levels", levels], tmp_path, monkeypatch, capsys)
    assert f"the users' levels must be <= {HELDP_L_MAX_EPSILON_MIN:g} for {policy!r}" in err


def test_the_library_refuses_them_too_and_keeps_the_largest_allowed():
    inst = ldp.make_instance("bernoulli", means=[0.9, 0.1])
    agent = ldp.make_policy("HeLDP-UCB-L", epsilon_min=0.5)
    with pytest.raises(ValueError, match="the users' levels must be <="):
        ldp.simulate(agent, inst, 100, 2, privacy_levels=ldp.make_privacy_levels("constant", epsilon=1e155))
    ok = ldp.make_privacy_levels("discrete", values=[0.5, HELDP_L_MAX_EPSILON_MIN])
    agent.check_environment(inst, ok)  # at the bound: accepted
    # a level of probability 0 is never drawn: it is not refused
    agent.check_environment(inst, ldp.make_privacy_levels("discrete", values=[0.5, 1e155], probs=[1.0, 0.0]))
    # HeLDP-UCB-B has no forced pulls: its indexes take such levels' limits
    ldp.make_policy("HeLDP-UCB-B", epsilon_min=0.5).check_environment(
        inst, ldp.make_privacy_levels("constant", epsilon=1e155)
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["--policies", "UCB1", "--instance", "bernoulli:0.9,,0.5"],
        ["--policies", "LDP-UCB-B", "--epsilons", "0.5,,1"],
        ["--policies", "LDP-UCB-B", "--epsilons", "0.5,1,"],
        ["--policies", "UCB1,,LDP-UCB-B"],
    ],
)
def test_an_empty_item_of_a_list_is_refused(argv, tmp_path, monkeypatch, capsys):
    """Before: bernoulli:0.9,,0.5 was a two-armed instance, 0.5,,1 two levels, UCB1,,LDP-UCB-B two policies."""
    assert "with an empty item" in _refused([*BASE, *argv], tmp_path, monkeypatch, capsys)


def test_a_repeated_discrete_level_is_refused(tmp_path, monkeypatch, capsys):
    """Before: discrete:0.5,1.5,1.5 gave the level 1.5 twice the weight of 0.5, without a word."""
    argv = [*BASE, "--policies", "HeLDP-UCB-B", "--levels", "discrete:0.5,1.5,1.5"]
    assert "repeats a level" in _refused(argv, tmp_path, monkeypatch, capsys)


@pytest.mark.parametrize("address", ["inproc://x", "tcp://127.0.0.1", "127.0.0.1:8786", "nonsense"])
def test_a_scheduler_address_without_scheme_host_and_port_is_refused(address, tmp_path, monkeypatch, capsys):
    """Before: --scheduler inproc://x said 'not enough values to unpack (expected 3, got 1)'."""
    argv = [*BASE, "--policies", "UCB1", "--scheduler", address]
    assert "expected 'localcluster' or a Dask scheduler address" in _refused(argv, tmp_path, monkeypatch, capsys)
