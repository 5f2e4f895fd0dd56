"""The eighth input-checks audit (a read-only fuzz of the API and the command lines, /tmp/w23/fuzz): a user's link
replaced by a plain file, masked arrays whose masked entries were used as data, horizons and seeds that were silently
another number than the one given, and notebook parameters that the rules accepted and the body refused after its work.
Each test failed before its fix; no number of the book moves (every fix is a guard outside the book's inputs)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import ldpcode as ldp
from ldpcode import claims as C
from ldpcode._validate import MAX_SEED, check_int, check_seed
from ldpcode.cells import parameter_defaults
from ldpcode.parameters import check_values
from ldpcode.parameters.rules import EPS, Int, Seq

ROOT = Path(__file__).resolve().parents[1]


def _one_line(exc) -> str:
    msg = str(exc.value)
    assert "\n" not in msg and len(msg) < 600, msg
    return msg


# ---- a masked array: np.asarray drops the mask ----------------------------------------------------------------------
MASKED = np.ma.array([0.9, 0.5, 0.3], mask=[False, False, True])


@pytest.mark.parametrize(
    "call",
    [
        lambda: ldp.make_instance("bernoulli", means=MASKED),  # simulated the masked arm
        lambda: ldp.bounds.lai_robbins_constant(MASKED),  # 1.364 where the two arms give 0.783
        lambda: ldp.mean_se(np.ma.array([1.0, 2.0, 100.0], mask=[0, 0, 1])),  # 32.8 where the two give 0.5
        lambda: ldp.linear_fit(np.ma.array([1, 2, 3, 4], mask=[0, 0, 0, 1]), [1, 2, 3, 100]),
        lambda: ldp.make_privacy_levels("discrete", values=np.ma.array([0.5, 1.5, 9.0], mask=[0, 0, 1])),
    ],
)
def test_a_masked_array_is_refused_not_unmasked(call):
    with pytest.raises(TypeError, match="must not be a masked array") as exc:
        call()
    assert "fill or compress it first" in _one_line(exc)


# ---- nbrun writes the path it is given: a link became a plain file ---------------------------------------------------
def test_nbrun_refuses_a_link_and_leaves_it_a_link(tmp_path, monkeypatch, capsys):
    from ldpcode import nbrun

    def must_not_run(*args, **kwargs):  # a regression would run the notebook and write data/execution.json
        raise AssertionError("nbrun ran a notebook given through a link")

    monkeypatch.setattr(nbrun, "_one", must_not_run)
    link = tmp_path / "table1.ipynb"
    link.symlink_to(ROOT / "chapters" / "zheng2020" / "table1.ipynb")
    with pytest.raises(SystemExit) as exc:
        nbrun.main([str(link)])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.strip().count("\n") == 0 and "a symbolic link, not the notebook itself" in err
    assert link.is_symlink()


# ---- horizons: a search over unsorted or repeated checkpoints, and horizons printed as other numbers ---------------
NUM, DEN = np.array([[1.0, 2.0, 3.0]] * 3), np.ones((3, 3))


@pytest.mark.parametrize(
    "checkpoints, words",
    [
        ([2000, 1000, 3000], "strictly increasing"),  # the range searched lost t = 1000
        ([1000, 1000, 3000], "strictly increasing"),  # the match was reported at the wrong t
        ([1000.7, 2000.2, 3000.9], "whole rounds"),  # truncated to 1000..3000
        ([0, 1, 2], r"rounds in \[1, 2\*\*53\]"),
        ([[1000, 2000, 3000]], "1-d"),
    ],
)
def test_consistent_horizons_takes_increasing_whole_checkpoints(checkpoints, words):
    with pytest.raises(ValueError, match=words) as exc:
        C.consistent_horizons(checkpoints, NUM, DEN, 2.0)
    _one_line(exc)
    assert C.consistent_horizons([1000, 2000, 3000], NUM, DEN, 2.0).consistent == (2000, 2000)


def test_consistent_horizons_refuses_a_nan_paper_number():
    with pytest.raises(ValueError, match="paper must be a finite number"):
        C.consistent_horizons([1000, 2000, 3000], NUM, DEN, float("nan"))


@pytest.mark.parametrize("f", [C.format_horizon, C.approx_horizon, C.horizon_tag])
@pytest.mark.parametrize(
    "t, error",
    [(10**6 + 0.5, TypeError), (2.9, TypeError), (float("inf"), TypeError), (True, TypeError), ("12", TypeError)],
)
def test_a_horizon_is_printed_only_as_the_whole_round_it_is(f, t, error):
    """'10⁶' for 10**6 + 0.5, '2' for 2.9, an OverflowError traceback for inf, '1' for True."""
    with pytest.raises(error, match="t must be an integer"):
        f(t)
    assert C.format_horizon(1e6) == "10⁶" and C.approx_horizon(2.0) == "2" and C.horizon_tag(10**6) == "T1e6"
    with pytest.raises(ValueError, match="t must be an integer >= 1"):
        f(0)


# ---- seeds: another seed than the one written -----------------------------------------------------------------------
def test_a_float_seed_beyond_2_53_is_refused_before_any_work():
    inst = ldp.make_instance("bernoulli", means=[0.9, 0.5])
    with pytest.raises(TypeError, match=r"1e\+23 is 99999999999999991611392 as a double") as exc:
        ldp.simulate(ldp.make_policy("UCB1"), inst, 10, 2, 1e23)
    _one_line(exc)
    assert ldp.simulate(ldp.make_policy("UCB1"), inst, 10, 2, 2.0**53).seed == 2**53  # exact: taken


@pytest.mark.parametrize("seed", [MAX_SEED + 1, 10**500], ids=["2**128+1", "10**500"])
def test_a_seed_beyond_2_128_is_refused_everywhere(seed):
    with pytest.raises(ValueError, match=r"seed must be an integer <= 2\*\*128"):
        check_seed("seed", seed)
    with pytest.raises(ValueError, match=r"seed must be an integer <= 2\*\*128"):
        ldp.sweep.sweep(["UCB1"], [1.0], [ldp.make_instance("bernoulli", means=[0.9, 0.5])], 50, 2, seed)
    with pytest.raises(ValueError, match=r"seed must be an integer <= 2\*\*128"):
        ldp.bootstrap_se(np.mean, [1.0, 2.0, 3.0], seed=seed)
    assert check_seed("seed", MAX_SEED) == MAX_SEED


@pytest.mark.parametrize(
    "value", [Fraction(2**53 + 1, 2), np.longdouble(2**53) + np.longdouble(0.5), np.longdouble(2.5), Fraction(5, 2)]
)
def test_a_fraction_or_long_double_that_is_not_whole_is_not_truncated(value):
    with pytest.raises(TypeError, match="must be an integer"):
        check_int("n", value)
    assert check_int("n", Fraction(6, 2)) == 3 and check_int("n", np.longdouble(4.0)) == 4


# ---- notebook rules: values the body refused after its work ----------------------------------------------------------
def test_levels_that_the_claim_ids_print_alike_are_refused_as_the_same():
    """1234567 and 1234568 both print as 1.23457e+06 in a claim id: refused as repeats; an integer list whose ids
    print every digit keeps them apart."""
    nb = "chapters/ren2020/figure1.ipynb"
    values = {**parameter_defaults(nb), "eps_compare": [1234567, 1234568]}
    with pytest.raises(ValueError, match="all different, got"):
        check_values(nb, values)
    Seq(Int(1, 10**9), distinct=True)("n", [1234567, 1234568])  # no error
    with pytest.raises(ValueError, match="all different"):
        Seq(EPS, distinct=True)("eps", [1234567, 1234568.0])


def test_a_setting_given_twice_is_refused():
    nb = "chapters/heldp/corollary13_sigmoid.ipynb"
    twice = [["ren-heldp-discrete", 1.0], ["ren-heldp-gaussian", 1.0], ["ren-heldp-discrete", 1.0]]
    with pytest.raises(ValueError, match="parameter settings must be .*all different"):
        check_values(nb, {**parameter_defaults(nb), "settings": twice})


def test_saha_tewaris_beta_is_capped_as_the_library_caps_it():
    nb = "chapters/zheng2020/corollary4_one_point_bco.ipynb"
    with pytest.raises(ValueError, match=r"parameter st_beta must be a number in \[0.001, 1e\+12\]"):
        check_values(nb, {**parameter_defaults(nb), "st_beta": 1e308})


# ---- a sweep's output path: checked by creating a file there, and never a FIFO ---------------------------------------
def test_a_sweep_table_path_is_refused_where_no_file_can_be_created(tmp_path, monkeypatch):
    from ldpcode import table_io

    monkeypatch.setattr(table_io, "_can_create_in", lambda folder: False)  # as on /proc, where access() says yes
    with pytest.raises(ValueError, match="is not writable") as exc:
        table_io.check_table_path(tmp_path / "x.csv")
    _one_line(exc)


def test_a_sweep_table_path_that_is_a_fifo_is_refused_before_reading_it(tmp_path):
    import os

    from ldpcode import table_io

    import signal

    fifo = tmp_path / "f.csv"
    os.mkfifo(fifo)  # reading its first line, to see whether it is a sweep table, hung

    def hung(*args):
        raise TimeoutError("check_table_path opened the FIFO to read it")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(20)  # a regression fails the test instead of hanging the test command
    try:
        with pytest.raises(ValueError, match="exists and is not a regular file"):
            table_io.check_table_path(fifo, replace=True)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert table_io._can_create_in(tmp_path) and list(tmp_path.iterdir()) == [fifo]  # the probe is removed


def test_theorem_7_at_a_huge_kappa_is_inf_not_an_overflow_error():
    levels = ldp.make_privacy_levels("ren-heldp-discrete")
    assert ldp.bounds.heldp_ucb_l_regret_bound([0.9, 0.5], 1000, levels, 1.0, kappa=1e308) == float("inf")
    assert ldp.bounds.heldp_ucb_l_regret_bound([0.9, 0.5], 1000, levels, 1.0, kappa=1e300) == pytest.approx(
        3.6837677351755936e303, rel=1e-12
    )


# ---- small ones: a duration taken as a number; the modules whose command line is python -m ldpcode <command> -------
def test_a_duration_is_not_a_number():
    with pytest.raises(TypeError, match="epsilon must be a real number"):
        ldp.make_policy("LDP-UCB-B", epsilon=np.timedelta64(1))  # was epsilon 1
    with pytest.raises(TypeError, match="horizon must be an integer"):
        check_int("horizon", np.timedelta64(10))  # was a horizon of 10


@pytest.mark.parametrize("command", ["rerun", "sweep"])
def test_the_command_modules_run_alone_say_how_to_run_them(command):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", f"ldpcode.{command}", "--help"], capture_output=True, text=True)
    assert out.returncode == 2 and out.stdout == ""  # was: nothing printed, exit 0
    assert out.stderr.strip() == (
        f"python -m ldpcode.{command}: error: run it as python -m ldpcode {command} "
        f"(see python -m ldpcode {command} --help)"
    )


def test_a_masked_array_inside_a_list_and_a_duration_in_a_notebook_rule_are_refused():
    with pytest.raises(TypeError, match="must not be a masked array"):
        ldp.mean_se([np.ma.array([1.0, 2.0, 100.0], mask=[0, 0, 1])])
    with pytest.raises(TypeError, match="parameter n must be an integer"):
        Int(1, 100)("n", np.timedelta64(3))
    with pytest.raises(TypeError, match="parameter eps must be"):
        EPS("eps", np.timedelta64(3))


# ---- the API and the command line read repeated levels alike; a label is a string (fuzz L7, L11) ----------------------
def test_repeated_discrete_levels_are_refused_as_the_command_line_refuses_them():
    with pytest.raises(ValueError) as exc:
        ldp.make_privacy_levels("discrete", values=[0.5, 0.5, 1.5])  # was: 0.5 silently weighted twice
    assert _one_line(exc).startswith("privacy levels must be distinct, got 0.5 more than once")
    weighted = ldp.make_privacy_levels("discrete", values=[0.5, 1.5], probs=[2 / 3, 1 / 3])  # the way to weight it
    assert weighted.p_at_least(1.0) == pytest.approx(1 / 3)


@pytest.mark.parametrize("name", [123, "  ", b"x"])
def test_a_levels_label_is_a_non_empty_string(name):
    assert ldp.make_privacy_levels("discrete", values=[1.0]).name == "discrete[1.0]"  # no name: a derived label
    with pytest.raises(TypeError, match="name must be a non-empty string"):
        ldp.make_privacy_levels("discrete", values=[1.0], name=name)  # 123 was the label
    with pytest.raises(TypeError, match="name must be a non-empty string"):
        ldp.make_privacy_levels("sampler", sampler=lambda rng, size: np.ones(size), name=name)


# ---- the command lines' messages name what was typed (fuzz L5) -------------------------------------------------------
@pytest.mark.parametrize("text", ["1e-400", "-1e-400", "1e400"])
def test_a_number_beyond_the_doubles_is_refused_as_typed_not_as_its_double(text):
    import argparse

    from ldpcode.__main__ import _floats, real

    for parse in (real, _floats):
        with pytest.raises(argparse.ArgumentTypeError, match=f"^'{text}' is beyond the doubles"):
            parse(text)  # was 0.0 (or inf), refused by the rules as 'got 0.0'
    assert real("1e-300") == 1e-300 and real("0") == 0.0 and _floats("0.5,2") == [0.5, 2.0]


def test_rerun_says_a_notebook_without_parameters_takes_none():
    from ldpcode.rerun import check_new_parameters

    with pytest.raises(ValueError, match=r"has no parameter 'x'; it takes no parameters$"):
        check_new_parameters("chapters/zheng2020/table1.ipynb", {"x": 1})  # was "its parameters: " and nothing


def test_a_sweeps_warning_is_one_line_and_the_format_is_restored(tmp_path):
    """TieBreakWarning reached stderr as Python's two lines (the message, then the source line that warned)."""
    import subprocess
    import sys
    import warnings

    from ldpcode.__main__ import main

    argv = ["sweep", "--policies", "AdaP-KLUCB", "--instance", "bernoulli:0.5,0.9", "--epsilons", "0.04"]
    argv += ["--horizon", "2000", "--runs", "2", "--out", str(tmp_path / "t.csv")]
    out = subprocess.run([sys.executable, "-m", "ldpcode", *argv], capture_output=True, text=True, cwd=ROOT)
    err = [line for line in out.stderr.splitlines() if line.strip()]
    assert out.returncode == 0 and len(err) == 2 and err[1].startswith("184 rows -> "), out.stderr  # no source line
    assert err[0].startswith("python -m ldpcode sweep: TieBreakWarning: AdaP-KLUCB at epsilon=0.04")
    before = warnings.formatwarning  # main may be called in-process: the format is its own while it runs
    assert main([*argv, "--replace"]) == 0
    assert warnings.formatwarning is before
