"""Issue 23: the command line checks every argument before any work, says an ordinary error in one line with exit
status 2 (``--debug`` for the traceback), and the files it writes are whole. Each test names the defect it pins."""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
import pytest

import ldpcode as ldp
from ldpcode import limits as lim
from ldpcode import rerun as rr
from ldpcode import rerun_values as rv
from ldpcode import sweep as sw
from ldpcode.__main__ import main, whole

NB = "chapters/ren2020/lemma3_laplace_tail.ipynb"
SWEEP = ["sweep", "--epsilons", "1", "--instance", "ren2020-bernoulli", "--runs", "2"]


def _one_error_line(err: str) -> str:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith("python -m ldpcode "), err
    return err


# --- names, numbers and paths -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--policies", "UCB", "--horizon", "100"], "did you mean 'UCB1'?"),
        (["--policies", "LDP-UCB-b", "--horizon", "100"], "did you mean 'LDP-UCB-B'?"),
        (
            ["--policies", "UCB1", "--horizon", "100", "--instance", "ren2020-bernouli"],
            "did you mean 'ren2020-bernoulli'?",
        ),
        (["--policies", "UCB1", "--horizon", "2.5"], "expected a whole number"),
        (["--policies", "UCB1", "--horizon", "1e400"], "expected a whole number"),
        (["--policies", "UCB1", "--horizon", "100", "--memory", "lots"], "expected a memory size"),
        (["--policies", "UCB1", "--horizon", "100", "--cpu-seconds", "-1"], "core-seconds > 0"),
        (["--policies", "UCB1", "--horizon", "100", "--instance", "bernoulli"], "needs its arm means"),
        (["--policies", "HeLDP-UCB-B", "--horizon", "100"], "needs the users' privacy levels"),
        (["--policies", "UCB1", "--horizon", "100", "--levels", "constant:1"], "--levels is for the HeLDP"),
        (["--policies", "HeLDP-UCB-B", "--horizon", "100", "--levels", "discrete:-1"], "finite and >= 0"),
        (["--policies", "HeLDP-UCB-B", "--horizon", "100", "--levels", "discret:1"], "did you mean 'discrete'?"),
        (["--policies", "UCB1", "--horizon", "100", "--engine", "fast"], "invalid choice: 'fast'"),
        # before: "points must be an integer >= 2", a name the command line does not have
        (["--policies", "UCB1", "--horizon", "100", "--checkpoints", "1"], "--checkpoints must be in [2, "),
        # the input review: --horizon 0 said ">= 1", then 1 said ">= 2", then 19 said ">= 20"
        (["--policies", "UCB1", "--horizon", "0"], "--horizon must be in [20, 2**53] (at least the number of arms"),
        (["--policies", "UCB1", "--horizon", "19"], "--horizon must be in [20, 2**53]"),
        # the input review: OnePoint-UCB was listed, but no flag gave its delta
        (["--policies", "OnePoint-UCB", "--horizon", "100"], "OnePoint-UCB needs --delta"),
        (["--policies", "UCB1", "--horizon", "100", "--delta", "0.1"], "--delta is for OnePoint-UCB"),
    ],
)
def test_an_ordinary_sweep_error_is_one_line_with_exit_status_2(argv, said, tmp_path, monkeypatch, capsys):
    """Before: a misspelt policy or instance was an 18-line traceback (exit 1); 1e6 was refused as an integer."""
    monkeypatch.setattr(sw, "sweep", lambda *a, **k: pytest.fail("the grid ran before its arguments were checked"))
    try:
        code = main([*SWEEP, *argv, "--out", str(tmp_path / "t.csv")])
    except SystemExit as e:  # argparse's own refusals exit through SystemExit, with status 2
        code = e.code
    assert code == 2
    assert said in _one_error_line(capsys.readouterr().err)
    assert not (tmp_path / "t.csv").exists()


def test_the_sweep_command_runs_onepoint_ucb_with_its_delta(tmp_path, capsys):
    out = tmp_path / "t.csv"
    argv = ["--policies", "OnePoint-UCB", "--delta", "1e-6", "--horizon", "100", "--checkpoints", "2"]
    assert main([*SWEEP, *argv, "--out", str(out)]) == 0
    table = sw.load_table(out)
    assert set(table["policy"]) == {"OnePoint-UCB"} and len(table) == 2 * 2


def test_whole_numbers_may_be_written_as_floats():
    assert whole("1e6") == 10**6 and whole("1.5e3") == 1500 and whole("100_000") == 100_000
    assert whole(str(2**62)) == 2**62  # read exactly, not through a float
    for bad in ("2.5", "1e400", "nan", "inf", "ten", ""):
        with pytest.raises(Exception, match="expected a whole number"):
            whole(bad)


def test_the_sweep_command_accepts_1e4_and_runs_heldp_with_levels(tmp_path, capsys):
    """Before: HeLDP-UCB-* were offered but could not run from the command line."""
    out = tmp_path / "t.parquet"
    argv = ["sweep", "--policies", "HeLDP-UCB-B,UCB1", "--epsilons", "0.5", "--levels", "discrete:0.5,1.5"]
    argv += ["--instance", "bernoulli:0.9,0.5", "--horizon", "1e3", "--runs", "3", "--checkpoints", "4"]
    assert main([*argv, "--out", str(out)]) == 0
    table = sw.load_table(out)
    direct = sw.sweep(
        ["HeLDP-UCB-B", "UCB1"],
        [0.5],
        [ldp.make_instance("bernoulli", means=[0.9, 0.5])],
        1000,
        3,
        checkpoints=ldp.log_checkpoints(1000, 4),
        heterogeneous=sw.cli_heterogeneous(("discrete", (0.5, 1.5))),
    )
    np.testing.assert_array_equal(table["regret"].to_numpy(), direct["regret"].to_numpy())


def test_the_sweep_command_runs_the_event_engine_and_refuses_it_where_none_applies(tmp_path, capsys):
    """--engine reaches the sweep: the table is sweep(..., engine="event")'s; LDP-UCB-L has no event engine."""
    out = tmp_path / "t.csv"
    argv = ["sweep", "--policies", "HeLDP-UCB-B,UCB1,KL-UCB", "--epsilons", "0.5", "--levels", "discrete:0.5,1.5"]
    argv += ["--instance", "bernoulli:0.9,0.5", "--horizon", "1e3", "--runs", "3", "--checkpoints", "4"]
    assert main([*argv, "--engine", "event", "--out", str(out)]) == 0
    direct = sw.sweep(
        ["HeLDP-UCB-B", "UCB1", "KL-UCB"],
        [0.5],
        [ldp.make_instance("bernoulli", means=[0.9, 0.5])],
        1000,
        3,
        checkpoints=ldp.log_checkpoints(1000, 4),
        heterogeneous=sw.cli_heterogeneous(("discrete", (0.5, 1.5))),
        engine="event",
    )
    np.testing.assert_array_equal(sw.load_table(out)["regret"].to_numpy(), direct["regret"].to_numpy())
    capsys.readouterr()
    argv = ["sweep", "--policies", "LDP-UCB-L", "--epsilons", "0.5", "--instance", "ren2020-bernoulli"]
    code = main([*argv, "--horizon", "1e3", "--runs", "2", "--engine", "event", "--out", str(tmp_path / "u.csv")])
    assert code == 2 and "engine 'event' runs only" in _one_error_line(capsys.readouterr().err)


def test_debug_shows_the_traceback(tmp_path):
    with pytest.raises(ValueError, match="needs the users' privacy levels"):
        main([*SWEEP, "--policies", "HeLDP-UCB-B", "--horizon", "100", "--out", str(tmp_path / "t.csv"), "--debug"])


def test_help_lists_the_names_and_defaults(capsys):
    with pytest.raises(SystemExit) as e:
        main(["sweep", "--help"])
    assert e.value.code == 0
    text = capsys.readouterr().out
    for name in [*ldp.policies.REGISTRY, *ldp.instances.list_instances(), *sw.LEVEL_FAMILIES]:
        assert name in text, name
    assert "(default 5)" in text and "(default 121)" in text and "(default 3600" in text


def test_the_top_help_says_its_whole_first_sentence(capsys):
    """Before: the description was the docstring's first line, cut mid-sentence at '... and'."""
    with pytest.raises(SystemExit) as e:
        main(["--help"])
    assert e.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "python -m ldpcode findings [--write]." in text and "``" not in text


# --- the cost ceilings from the command line ----------------------------------------------------------------------


def test_a_refusal_names_the_flags_that_raise_the_ceilings(tmp_path, capsys):
    """Before: the advice was limits=ldp.Limits(...), which a command-line user cannot pass."""
    argv = [*SWEEP, "--policies", "LDP-UCB-L", "--horizon", "1e5", "--out", str(tmp_path / "t.csv")]
    assert main([*argv, "--cpu-seconds", "1e-4"]) == 2
    err = _one_error_line(capsys.readouterr().err)
    assert "add --cpu-seconds" in err and "limits=" not in err and "(--cpu-seconds)" in err
    assert main([*argv, "--cpu-seconds", "inf", "--memory", "1KiB"]) == 2
    assert "add --memory" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # given twice: refused, not the last one silently (_checked_args)
        main([*argv, "--cpu-seconds", "1e-4", "--cpu-seconds", "inf"])
    assert "argument --cpu-seconds: given 2 times" in capsys.readouterr().err
    assert lim.CPU_ENV not in os.environ and lim.ADVICE_ENV not in os.environ  # the flags end with the command


def test_limits_read_their_defaults_from_the_environment(monkeypatch):
    assert lim.Limits().cpu_seconds == 3600.0
    monkeypatch.setenv(lim.CPU_ENV, "7200")
    monkeypatch.setenv(lim.MEMORY_ENV, "inf")
    assert lim.Limits().cpu_seconds == 7200.0 and lim.Limits().memory_bytes == float("inf")
    assert lim.Limits(cpu_seconds=5).cpu_seconds == 5.0  # a value given wins
    monkeypatch.setenv(lim.CPU_ENV, "nan")
    with pytest.raises(ValueError, match="LDPCODE_CPU_SECONDS must be a number > 0"):
        lim.Limits()


# --- the sweep function: order, huge grids, clusters ---------------------------------------------------------------


def test_a_set_of_policies_is_refused_because_its_order_depends_on_the_hash_seed():
    with pytest.raises(TypeError, match="not a set"):
        sw.plan({"UCB1", "KL-UCB"}, [1.0], "ren2020-bernoulli", 100, 2)
    with pytest.raises(ValueError, match="did you mean 'KL-UCB'"):
        sw.plan(["KLUCB"], [1.0], "ren2020-bernoulli", 100, 2)


def test_a_huge_grid_is_refused_at_once():
    """Before: a grid of 10^6 ε values took 50 s to be refused."""
    start = time.perf_counter()
    with pytest.raises(ValueError, match="at most 10,000 cells"):
        sw.plan(["LDP-UCB-B"], np.linspace(0.1, 1, 10**6), "ren2020-bernoulli", 10**4, 2)
    with pytest.raises(ValueError, match="blocks"):
        sw.plan(["UCB1"], [1.0], "ren2020-bernoulli", 100, 10**6, block=1)
    assert time.perf_counter() - start < 5.0  # at once (before: 46 s, or never); generous on a loaded CI


def test_a_localcluster_checks_the_whole_grid_before_it_starts(monkeypatch):
    """Before: scheduler='localcluster' checked each block only, so a 4-core-hour grid on this machine ran."""
    monkeypatch.setattr(sw, "_client", lambda s: pytest.fail("the cluster started before the limits were checked"))
    with pytest.raises(ValueError, match="sweep: .* beyond the ceiling"):
        sw.sweep(["UCB1"], [1.0], "ren2020-bernoulli", 10**7, 100, scheduler="localcluster", limits=ldp.Limits(1.0))


def test_a_dead_scheduler_is_refused_within_the_probe(monkeypatch):
    """Before: a dead address waited 30 s before its error."""
    pytest.importorskip("distributed")
    monkeypatch.setattr(sw, "PROBE_SECONDS", 0.5)
    start = time.perf_counter()
    with pytest.raises(ValueError, match="no Dask scheduler answered at tcp://127.0.0.1:9"):
        sw.sweep(["UCB1"], [1.0], "ren2020-bernoulli", 100, 2, scheduler="tcp://127.0.0.1:9")
    assert time.perf_counter() - start < 5.0


# --- tables are whole ---------------------------------------------------------------------------------------------


def _table():
    return sw.sweep(["UCB1", "LDP-UCB-B"], [1.0], "ren2020-bernoulli", 300, 3, checkpoints=ldp.log_checkpoints(300, 5))


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_a_table_reads_back_bit_for_bit_with_its_row_count(suffix, tmp_path):
    table = _table()
    back = sw.load_table(sw.save_table(table, tmp_path / f"t{suffix}"))
    assert len(back) == len(table)
    np.testing.assert_array_equal(back["regret"].to_numpy(), table["regret"].to_numpy())
    assert list(back["policy"]) == list(table["policy"])


def test_a_truncated_csv_is_refused(tmp_path):
    """Before: load_table read back 266,538 of 3,000,000 rows of a cut file without a word."""
    path = sw.save_table(_table(), tmp_path / "t.csv")
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[: len(lines) // 2]))  # cut at a line's end: a valid, smaller CSV
    with pytest.raises(ValueError, match=r"holds \d+ rows, but 30 were written"):
        sw.load_table(path)
    path.write_text("".join(lines[1:16]))  # no row count, and the last run of a cell lacks checkpoints
    with pytest.raises(ValueError, match="has a hole in its grid"):
        sw.load_table(path)


def test_a_truncated_parquet_is_refused(tmp_path):
    path = sw.save_table(_table(), tmp_path / "t.parquet")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="not a readable sweep table"):
        sw.load_table(path)


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_a_table_edited_in_place_is_refused(suffix, tmp_path):
    """Before: one regret changed with sed (6.8 -> 16.8, the row count kept) loaded as ldpcode's own number."""
    path, table = tmp_path / f"t{suffix}", _table()
    sw.save_table(table, path)
    if suffix == ".csv":
        text = path.read_text()
        last = text.rstrip("\n").rsplit(",", 1)
        path.write_text(f"{last[0]},1{last[1]}\n")
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        arrow = pq.read_table(path)  # its schema's metadata (row count, checksum) kept, one regret scaled
        regret = arrow.column("regret").to_numpy().copy()
        regret[-1] += 1.0
        pq.write_table(arrow.set_column(5, "regret", pa.array(regret)), path)
    with pytest.raises(ValueError, match=r"was changed since ldpcode wrote it: its rows do not match"):
        sw.load_table(path)


def test_two_sweeps_concatenated_are_refused_before_writing_by_name(tmp_path):
    """Before: save_table wrote it, and load_table then spoke of 'a hole in its grid (... 10 of 5 checkpoints)'."""
    import pandas as pd

    two = pd.concat([_table(), _table()])
    with pytest.raises(
        ValueError, match=r"^'table' holds run 0 of \(UCB1, ren2020-bernoulli, ε = inf\) at t = \d+ more than once"
    ):
        sw.save_table(two, tmp_path / "two.csv")
    assert not list(tmp_path.iterdir())
    with pytest.raises(ValueError, match="has a hole in its grid"):  # a grid with a hole is not written either
        sw.save_table(_table().iloc[:-1], tmp_path / "hole.csv")


def test_a_heterogeneous_cell_keeps_its_epsilon_min_and_levels():
    """Before: a table said only 'ε = 1' of a cell whose agent ran at ε_min = 0.2 on levels {0.5, 2}."""
    levels = ldp.make_privacy_levels("discrete", values=[0.5, 2.0])
    table = sw.sweep(["HeLDP-UCB-B"], [1.0], "ren2020-bernoulli", 100, 2, heterogeneous=_fixed_levels)
    assert table.attrs["levels"] == [
        ["HeLDP-UCB-B", "ren2020-bernoulli", 1.0, 0.2, {"name": levels.name, "values": [0.5, 2.0], "probs": [0.5, 0.5]}]
    ]
    with pytest.raises(TypeError, match=r"^heterogeneous\(1\) must return \(epsilon_min, PrivacyLevels\), got 5$"):
        sw.sweep(["HeLDP-UCB-B"], [1.0], "ren2020-bernoulli", 100, 2, heterogeneous=lambda e: 5)


def _fixed_levels(epsilon):
    return 0.2, ldp.make_privacy_levels("discrete", values=[0.5, 2.0])


def test_a_long_or_repeated_grid_is_refused_at_once_in_one_line():
    """Before: 100,000 instance names were all built (38 s), then refused with every name in the message (2.1M characters)."""
    with pytest.raises(ValueError, match=r"^instances holds 100,000 instances; a sweep takes at most 10,000 cells$"):
        sw.sweep(["UCB1"], [1.0], ["ren2020-bernoulli"] * 100_000, 100, 2)
    with pytest.raises(ValueError, match=r"^policies must not repeat one, got 'UCB1' twice$"):
        sw.sweep(["UCB1", "LDP-UCB-B", "UCB1"], [1.0], "ren2020-bernoulli", 100, 2)
    with pytest.raises(ValueError, match=r"^epsilons must not repeat one, got 1 twice$"):
        sw.sweep(["LDP-UCB-B"], [1, 0.5, 1.0], "ren2020-bernoulli", 100, 2)
    with pytest.raises(TypeError, match=r"^epsilons must be a list of privacy levels, got an array of shape \(\)$"):
        sw.sweep(["LDP-UCB-B"], np.array(0.5), "ren2020-bernoulli", 100, 2)


# --- rerun --------------------------------------------------------------------------------------------------------


def test_a_yaml_bomb_is_refused_at_once():
    """Before: a 324-character YAML bomb in rerun -p ran past 100 s (the message repr()'d the whole value)."""
    bomb = '[&a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'
    for i in range(1, 9):
        bomb += f",&{chr(97 + i)} [*{chr(96 + i)},*{chr(96 + i)},*{chr(96 + i)},*{chr(96 + i)},*{chr(96 + i)}]"
    bomb += "]"
    start = time.perf_counter()
    with pytest.raises(ValueError, match="expands to more than 100,000 items"):
        rv.parse_value(bomb)
    assert time.perf_counter() - start < 5.0  # at once (before: 46 s, or never); generous on a loaded CI


def test_a_whole_float_is_an_integer_where_the_default_is_one():
    merged = rr.check_new_parameters(NB, {"samples": rv.parse_value("2e4"), "n_values": rv.parse_value("[1, 4.0]")})
    assert merged["samples"] == 20_000 and type(merged["samples"]) is int
    assert merged["n_values"] == [1, 4] and all(type(v) is int for v in merged["n_values"])
    with pytest.raises(TypeError, match="samples must be an integer"):
        rr.check_new_parameters(NB, {"samples": 2.5e4 + 0.5})
    assert rr.check_new_parameters(NB, {"b": 2.0})["b"] == 2.0  # a float parameter stays a float


def _fake_papermill(monkeypatch, seen):
    import papermill

    def fake(src, dst, **kw):
        seen.update(kw)
        Path(dst).write_text(Path(src).read_text())

    monkeypatch.setattr(papermill, "execute_notebook", fake)


def test_rerun_says_what_stays_at_paper_scale_and_runs_tiny(tmp_path, monkeypatch, capsys):
    """Before: -p samples 20000 left grid_points and min_count at the paper's, and nothing said so."""
    seen: dict = {}
    _fake_papermill(monkeypatch, seen)
    assert main(["rerun", NB, "-p", "samples", "2e4", "--no-render", "--out", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "note: grid_points stays at the paper's 200" in err and "--tiny" in err
    assert seen["parameters"] == {"samples": 20_000}
    assert "--IPKernelApp.log_level=CRITICAL" in seen["extra_arguments"]  # no "running over TCP" warning
    assert main(["rerun", NB, "--tiny", "--no-render", "--out", str(tmp_path)]) == 0
    assert "note:" not in capsys.readouterr().err
    assert seen["parameters"] == ldp.parameters.rules_for(NB).tiny


def test_a_notebook_failing_in_its_kernel_is_one_line(tmp_path, monkeypatch, capsys):
    """Before: the cost-limit refusal through rerun was a 99-line papermill traceback."""
    import papermill
    from papermill.exceptions import PapermillExecutionError

    def refuses(src, dst, **kw):
        raise PapermillExecutionError(4, 5, "x", "ValueError", "simulate: beyond the ceiling; add --cpu-seconds 90", [])

    monkeypatch.setattr(papermill, "execute_notebook", refuses)
    assert main(["rerun", NB, "-p", "samples", "20000", "--no-render", "--out", str(tmp_path)]) == 2
    err = _one_error_line(capsys.readouterr().err.splitlines(keepends=True)[-1])  # after the paper-scale notes
    assert "stopped in cell 5: ValueError: simulate: beyond the ceiling; add --cpu-seconds 90" in err


def test_a_rule_cuts_a_huge_value_before_formatting_it():
    """Before: a rule's message called repr() on the whole value; a self-similar list of 2^60 leaves (what a YAML
    alias bomb builds) never finished, and a 10^5-digit integer raised inside the message."""
    bomb = [0.5]
    for _ in range(60):
        bomb = [bomb, bomb]
    start = time.perf_counter()
    with pytest.raises(TypeError, match="n_values"):
        rr.check_new_parameters(NB, {"n_values": bomb})
    with pytest.raises(ValueError, match=r"samples must .* got an integer of about 2\*\*332192"):
        rr.check_new_parameters(NB, {"samples": 10**100_000})
    assert time.perf_counter() - start < 5.0  # at once (before: 46 s, or never); generous on a loaded CI


@pytest.mark.parametrize(
    "inside", ["data/t.csv", "chapters/ren2020/t.csv", "_build/t.parquet", "_static/t.csv", "ldpcode/t.csv"]
)
def test_sweep_refuses_an_out_file_among_the_books_own_files(inside, monkeypatch, capsys):
    """As rerun does: a table written into data/ or chapters/ would sit among (or over) the book's stored numbers
    and notebooks. The argv fuzz found `sweep ... --out <book>/data/t.csv` writing there; a reader's review found
    `--out _static/x.csv` accepted (the book's assets, copied into the built book)."""
    root = Path(__file__).resolve().parents[2]
    monkeypatch.setattr(sw, "sweep", lambda *a, **k: pytest.fail("the grid ran before its arguments were checked"))
    code = main([*SWEEP, "--policies", "UCB1", "--horizon", "100", "--out", str(root / inside)])
    assert code == 2
    assert "inside the book's own files" in _one_error_line(capsys.readouterr().err)
    assert not (root / inside).exists()


@pytest.mark.parametrize("name", ["results.csv", "results.parquet"])
def test_sweep_never_writes_over_a_file_it_did_not_write(name, tmp_path, monkeypatch, capsys):
    """Before: `sweep --out results.csv` replaced whatever file was there (a reader's own results, say) without a
    word. Now a file that is not a sweep table is refused before any work, with --replace or without."""
    mine = tmp_path / name
    mine.write_text("the reader's own numbers\n")
    monkeypatch.setattr(sw, "sweep", lambda *a, **k: pytest.fail("the grid ran before its arguments were checked"))
    for replace in ([], ["--replace"]):
        code = main([*SWEEP, "--policies", "UCB1", "--horizon", "100", "--out", str(mine), *replace])
        assert code == 2
        assert "is not a sweep table written by ldpcode: it is never replaced" in _one_error_line(
            capsys.readouterr().err
        )
    assert mine.read_text() == "the reader's own numbers\n"


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_sweep_writes_over_its_own_table_only_when_asked(suffix, tmp_path, capsys):
    out = tmp_path / f"t{suffix}"
    argv = [*SWEEP, "--policies", "UCB1", "--horizon", "100", "--out", str(out)]
    assert main(argv) == 0
    first = sw.load_table(out)
    capsys.readouterr()
    assert main([*argv, "--seed", "1"]) == 2  # the table exists: refused, and kept
    assert "exists (a sweep table); choose another name, or pass" in _one_error_line(capsys.readouterr().err)
    assert sw.load_table(out).equals(first)
    assert main([*argv, "--seed", "1", "--replace"]) == 0
    assert not sw.load_table(out).equals(first)  # another seed, another table


def test_two_custom_instances_of_one_family_are_compared_on_the_command_line(tmp_path, capsys):
    """Before: 'instances must have distinct names, got ['bernoulli', 'bernoulli']', and the command line had no way
    to name them. Each is named by its text now."""
    out = tmp_path / "two.csv"
    args = ["sweep", "--policies", "UCB1", "--epsilons", "1", "--horizon", "100", "--runs", "2", "--out", str(out)]
    assert main([*args, "--instance", "bernoulli:0.9,0.5", "--instance", "bernoulli:0.8,0.5"]) == 0
    table = sw.load_table(out)
    assert list(table["instance"].unique()) == ["bernoulli:0.9,0.5", "bernoulli:0.8,0.5"]
    assert table.attrs["instances"]["bernoulli:0.8,0.5"] == [["bernoulli", 0.8, 0.0], ["bernoulli", 0.5, 0.0]]
