"""python -m ldpcode sweep / rerun: the command line, and the re-run of a notebook refusing what it cannot run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import ldpcode as ldp
from ldpcode import rerun as rr
from ldpcode import rerun_values as rv
from ldpcode import sweep as sw
from ldpcode.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
NB = "chapters/ren2020/lemma3_laplace_tail.ipynb"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("100000", 100000),
        ("0.5", 0.5),
        ("[0.1, 1]", [0.1, 1]),
        ("true", True),
        ("LDP-UCB-B", "LDP-UCB-B"),
        ("1e6", 1e6),  # YAML 1.1 reads it as a string; a number is meant (made an int where the default is one)
        ("inf", "inf"),
        ("[1e-3, 1]", [0.001, 1]),  # inside a list too (the input review: '1e-3' was refused as a string)
        ("{eps: 2e-1, law: discrete}", {"eps": 0.2, "law": "discrete"}),
        ("[inf, x]", ["inf", "x"]),  # left to the rules, which refuse it by the text typed
        ("None", None),  # as papermill's -p reads it (azize2022 Table 1's beta = None is 1/T)
        ("null", None),
        ("False", False),
        ("yes", "yes"),  # YAML 1.1 read yes/no/on/off as bools: -p seed yes was refused as "got True" (fuzz L5)
        ("off", "off"),
        ("[yes, true]", ["yes", True]),
    ],
)
def test_values_are_read_as_yaml(text, value):
    got = rv.parse_value(text)
    assert got == value and type(got) is type(value)


def test_an_unknown_parameter_is_refused_with_the_closest_name():
    with pytest.raises(ValueError, match=r"no parameter 'sample' \(did you mean 'samples'\?\)"):
        rr.check_new_parameters(NB, {"sample": 10})


def test_values_are_checked_with_the_notebooks_rules_before_any_work():
    with pytest.raises(TypeError, match="samples must be an integer"):
        rr.check_new_parameters(NB, {"samples": "1e6"})
    with pytest.raises(ValueError, match="samples"):
        rr.check_new_parameters(NB, {"samples": 0})
    merged = rr.check_new_parameters(NB, {"samples": 20_000})
    assert merged["samples"] == 20_000 and merged["seed"] == rr._defaults(ROOT / NB)["seed"]


def test_only_chapter_notebooks_are_rerun(tmp_path):
    with pytest.raises(ValueError, match="chapters/<chapter>/<name>.ipynb"):
        rr.rerun("chapters/ren2020/no_such.ipynb", {}, tmp_path)
    with pytest.raises(ValueError, match="chapter notebook under"):
        rr.rerun(tmp_path / "x.ipynb", {}, tmp_path)
    with pytest.raises(TypeError, match="dict"):
        rr.rerun(NB, [("samples", 5)], tmp_path)


def test_the_command_line_refuses_an_unknown_parameter(capsys):
    assert main(["rerun", NB, "-p", "horizn", "5"]) == 2
    assert "no parameter 'horizn'" in capsys.readouterr().err
    assert main(["rerun", NB, "-p", "seed", "1", "-p", "seed", "2"]) == 2
    assert "given twice" in capsys.readouterr().err


def test_the_sweep_command_writes_the_table_of_the_sweep_function(tmp_path, capsys):
    out = tmp_path / "t.csv"
    args = ["sweep", "--policies", "UCB1,LDP-UCB-B", "--epsilons", "0.5,1", "--instance", "ren2020-bernoulli"]
    assert main([*args, "--horizon", "500", "--runs", "3", "--checkpoints", "5", "--seed", "4", "--out", str(out)]) == 0
    table = sw.load_table(out)
    direct = sw.sweep(
        ["UCB1", "LDP-UCB-B"], [0.5, 1.0], "ren2020-bernoulli", 500, 3, 4, checkpoints=ldp.log_checkpoints(500, 5)
    )
    np.testing.assert_array_equal(table["regret"].to_numpy(), direct["regret"].to_numpy())
    assert "mean_regret" in capsys.readouterr().out
    with pytest.raises(SystemExit) as e:  # argparse's own refusal, exit status 2
        main([*args, "--horizon", "500", "--runs", "3", "--out", str(tmp_path / "t.txt"), "--epsilons", "a,b"])
    assert e.value.code == 2


@pytest.mark.slow
def test_rerun_renders_the_page_offline_through_the_books_build(tmp_path):
    """A real re-run at small sizes: the executed notebook holds the new value, the page has the rendered theorem box
    and math, loads no script from the network, and its citations resolve."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "ldpcode", "rerun", NB, "-p", "samples", "20000", "-p", "n_values", "[1, 4]"]
    done = subprocess.run([*cmd, "--out", str(tmp_path)], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    page = Path(done.stdout.strip().splitlines()[-1])
    html = page.read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>", "", html)
    assert "re-run with samples = 20000, n_values = [1, 4]" in text  # the note under the title
    assert "a number it quotes is the book’s, not this run’s" in text  # the prose's numbers (smart quotes)
    assert "prf:lemma" in html or "proof lemma" in html
    assert 'src="http' not in html and "src='http" not in html
    assert "2020a" in html  # the citation of Ren et al. resolved through the bibliography page


def _no_work(monkeypatch):
    """papermill must not start: every refusal below comes before any work."""
    import papermill

    def boom(*a, **k):
        raise AssertionError("the notebook was executed before the refusal")

    monkeypatch.setattr(papermill, "execute_notebook", boom)


@pytest.mark.parametrize("inside", ["chapters/ren2020", "chapters", "data", "_build/x", "."])
def test_rerun_refuses_an_out_folder_inside_the_books_files(inside, monkeypatch):
    _no_work(monkeypatch)
    before = (ROOT / NB).read_bytes()
    with pytest.raises(ValueError, match="inside the book's own files"):
        rr.rerun(NB, {"samples": 20_000}, ROOT / inside, render=False)
    assert (ROOT / NB).read_bytes() == before


def test_rerun_refuses_to_overwrite_files_it_did_not_write(tmp_path, monkeypatch):
    _no_work(monkeypatch)
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "thesis.tex").write_text("years of work")
    with pytest.raises(ValueError, match="exists and is not empty, and rerun did not write it"):
        rr.rerun(NB, {"samples": 20_000}, tmp_path)
    assert (tmp_path / "book" / "thesis.tex").read_text() == "years of work"
    with pytest.raises(ValueError, match="is not a rerun build"):
        rr.render_page(ROOT / NB, tmp_path / "book")  # the builder itself refuses too
    assert (tmp_path / "book" / "thesis.tex").exists()
    other = tmp_path / "other"
    other.mkdir()
    (other / "lemma3_laplace_tail.ipynb").write_text('{"cells": [], "metadata": {}}')
    with pytest.raises(ValueError, match="rerun did not write it"):
        rr.rerun(NB, {"samples": 20_000}, other)
    (other / rr.MANIFEST).write_text('{"files": {}}')  # a folder of rerun's that does not list this notebook
    with pytest.raises(ValueError, match="was not written by rerun"):
        rr.rerun(NB, {"samples": 20_000}, other)
    (tmp_path / "afile").write_text("x")
    with pytest.raises(ValueError, match="is a file, not a folder"):
        rr.rerun(NB, {"samples": 20_000}, tmp_path / "afile")


def test_rerun_may_replace_what_an_earlier_rerun_wrote(tmp_path):
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "page.html").write_text("<p>a page</p>")
    (tmp_path / "lemma3_laplace_tail.ipynb").write_text('{"cells": [], "metadata": {"ldpcode_rerun": true}}')
    rr._record(tmp_path, {"lemma3_laplace_tail.ipynb": rr._sha256(tmp_path / "lemma3_laplace_tail.ipynb")})
    rr._record_book(tmp_path / "book")
    rr.check_out(tmp_path, "lemma3_laplace_tail")  # no error


def test_rerun_never_stores_numbers_even_when_the_environment_asks(tmp_path, monkeypatch):
    import papermill

    seen = {}

    def fake(src, dst, **kw):
        seen["write"] = os.environ.get(ldp.claims.WRITE_ENV)
        Path(dst).write_text(Path(src).read_text())

    monkeypatch.setattr(papermill, "execute_notebook", fake)
    monkeypatch.setenv(ldp.claims.WRITE_ENV, "1")
    out = rr.rerun(NB, {"samples": 20_000}, tmp_path, render=False)
    assert seen == {"write": None}, "the kernel of a re-run must not see LDPCODE_WRITE_CLAIMS"
    assert os.environ[ldp.claims.WRITE_ENV] == "1"  # the caller's environment is given back
    import nbformat

    assert nbformat.read(out, as_version=4).metadata[rr.NB_MARK] == {"notebook": NB}


def _small_table(runs=2, seed=0):
    return sw.sweep(["UCB1"], [1.0], "ren2020-bernoulli", 200, runs, seed, checkpoints=ldp.log_checkpoints(200, 4))


def test_a_table_write_killed_half_way_leaves_the_previous_table_whole(tmp_path, monkeypatch):
    import pandas as pd

    old = _small_table(2)
    path = sw.save_table(old, tmp_path / "t.csv")
    new = _small_table(40)

    real_replace = os.replace

    def dies(src, dst):  # the new table is whole in its temporary file; the process is gone before the rename
        assert Path(src).read_text().count("\n") == len(new) + 4  # 3 comment lines, the header, the rows
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", dies)
    with pytest.raises(KeyboardInterrupt):
        sw.save_table(new, path, replace=True)
    monkeypatch.setattr(os, "replace", real_replace)

    def dies_writing(self, *a, **k):  # killed while the rows are formatted
        raise KeyboardInterrupt

    monkeypatch.setattr(pd.DataFrame, "to_csv", dies_writing)
    with pytest.raises(KeyboardInterrupt):
        sw.save_table(new, path, replace=True)
    monkeypatch.undo()
    back = sw.load_table(path)
    assert len(back) == len(old) and np.array_equal(back["regret"].to_numpy(), old["regret"].to_numpy())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.csv"], "no temporary file left behind"


@pytest.mark.parametrize(
    ("out", "message"),
    [
        ("x.xlsx", "must end in .parquet or .csv"),
        ("nodir/x.csv", "does not exist"),
        ("adir.csv", "is a folder"),
    ],
)
def test_the_sweep_command_refuses_a_bad_out_before_the_grid_runs(out, message, tmp_path, monkeypatch, capsys):
    (tmp_path / "adir.csv").mkdir()
    monkeypatch.setattr(sw, "sweep", lambda *a, **k: pytest.fail("the grid ran before --out was checked"))
    args = ["sweep", "--policies", "UCB1", "--epsilons", "1", "--instance", "ren2020-bernoulli"]
    assert main([*args, "--horizon", "1000", "--runs", "2", "--out", str(tmp_path / out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("python -m ldpcode sweep: error: ") and message in err and err.count("\n") == 1


def test_the_sweep_command_with_one_run_writes_the_table_and_exits_0(tmp_path, capsys):
    args = ["sweep", "--policies", "UCB1", "--epsilons", "1", "--instance", "ren2020-bernoulli"]
    assert main([*args, "--horizon", "1000", "--runs", "1", "--out", str(tmp_path / "t.csv")]) == 0
    assert "no standard error" in capsys.readouterr().err
    assert len(sw.load_table(tmp_path / "t.csv")) > 0
