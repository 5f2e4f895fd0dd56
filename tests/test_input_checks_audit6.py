"""The sixth input-checks audit: a malformed data file under ``findings``, nbrun's refusals, its in-place write and
its execution record, abbreviated options, huge values in messages, the closest name in the Python API, a
``--no-render`` re-run over a folder of the reader's, a notebook path from outside the book, a whole float beyond
2**53 for an integer parameter, and an empty ``-p`` value. Each test failed before its fix (a traceback, a message of
several lines or megabytes, an abbreviation that silently won, or a refusal after the work)."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import nbformat
import numpy as np
import pytest

import ldpcode as ldp
from ldpcode import nbrun, vetted
from ldpcode import rerun as rr
from ldpcode import rerun_values as rv
from ldpcode.__main__ import main
from ldpcode.claims import collect, load

ROOT = Path(__file__).resolve().parents[1]
NB = "chapters/ren2020/lemma3_laplace_tail.ipynb"


def _exit(call) -> int:
    try:
        return call()
    except SystemExit as e:
        return e.code


def _err_line(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


# --- 1. findings: a malformed data file is one line naming it ---------------------------------------------------------


@pytest.fixture
def book(tmp_path, monkeypatch):
    """A temporary book (LDPCODE_ROOT) with one real data file."""
    (tmp_path / "_toc.yml").write_text("root: intro\n")
    (tmp_path / "chapters").mkdir()
    (tmp_path / "data" / "ren2020").mkdir(parents=True)
    shutil.copy(ROOT / "data/ren2020/figure1.json", tmp_path / "data/ren2020/figure1.json")
    monkeypatch.setenv("LDPCODE_ROOT", str(tmp_path))
    return tmp_path


@pytest.mark.parametrize(
    ("payload", "what"),
    [
        ({}, "its 'notebook' is missing, not a string"),  # was a KeyError traceback
        ([], "it holds an array, not an object"),  # was "list indices must be integers or slices, not str"
        ({"notebook": "chapters/ren2020/stray.ipynb"}, "its 'claims' is missing, not an array"),
        ({"notebook": "chapters/ren2020/stray.ipynb", "claims": 3}, "its 'claims' is a number, not an array"),
        ({"notebook": "chapters/ren2020/stray.ipynb", "claims": ["x"]}, "its claim 0 is a string, not an object"),
    ],
)
def test_findings_names_a_malformed_data_file_in_one_line(book, capsys, payload, what):
    stray = book / "data/ren2020/stray.json"
    stray.write_text(json.dumps(payload))
    assert main(["findings"]) == 2
    err = _err_line(capsys)
    assert str(stray) in err and what in err
    with pytest.raises(ValueError, match="stray.json are not a notebook's stored numbers"):
        load("chapters/ren2020/stray.ipynb", book)  # the notebooks' own check reads it the same way
    stray.unlink()
    assert len(collect(root=book).claims) > 0  # the real file is read as before


# --- 2. nbrun: one-line refusals, an atomic write, the record checked before any run ----------------------------------


def _chapter_nb(book: Path, name: str, horizon: int, stored: int | None = None) -> Path:
    cell = nbformat.v4.new_code_cell(f"horizon = {horizon}")
    cell.metadata["tags"] = ["parameters"]
    path = book / "chapters" / "x" / f"{name}.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[cell, nbformat.v4.new_code_cell("y = 2")]), path)
    if stored is not None:
        data = book / "data" / "x" / f"{name}.json"
        data.parent.mkdir(parents=True, exist_ok=True)
        notebook = f"chapters/x/{name}.ipynb"
        data.write_text(json.dumps({"notebook": notebook, "params": {"horizon": stored}, "claims": []}))
    return path


def test_nbrun_refuses_stale_notebooks_in_one_line(chapter_book, monkeypatch, capsys):
    """Before: ``ap.error("\\n".join(stale))`` printed the usage and each refusal over several lines."""
    monkeypatch.setattr(nbrun, "run", lambda *a, **k: pytest.fail("ran"))
    a, b = _chapter_nb(chapter_book, "a", 10, stored=20), _chapter_nb(chapter_book, "b", 30, stored=40)
    assert _exit(lambda: nbrun.main([str(a), str(b)])) == 2
    err = _err_line(capsys)
    assert "chapters/x/a.ipynb describe another experiment" in err and "; the stored numbers of chapters/x/b" in err


@pytest.mark.parametrize("text", ["{", "[]", '{"chapters/x/a.ipynb": 3}', '{"chapters/x/a.ipynb": {"paper": 1}}'])
def test_nbrun_refuses_an_unreadable_record_before_any_run(chapter_book, monkeypatch, capsys, text):
    """Before: data/execution.json was read after the run (an hour at the paper's scale), and a corrupt one ended in a
    traceback there."""
    monkeypatch.setattr(nbrun, "run", lambda *a, **k: pytest.fail("ran before the record was checked"))
    (chapter_book / "data").mkdir()
    (chapter_book / "data" / "execution.json").write_text(text)
    assert _exit(lambda: nbrun.main([str(_chapter_nb(chapter_book, "a", 10))])) == 2
    assert "execution record" in _err_line(capsys)


def test_nbrun_refuses_an_abbreviated_option_in_one_line(chapter_book, monkeypatch, capsys):
    """Before: ``--wr`` was ``--write`` (argparse's abbreviations), and a usage line came before the error."""
    monkeypatch.setattr(nbrun, "run", lambda *a, **k: pytest.fail("ran"))
    assert _exit(lambda: nbrun.main(["--wr", str(_chapter_nb(chapter_book, "a", 10))])) == 2
    assert "unrecognized arguments: --wr (options are written in full: --write" in _err_line(capsys)


def test_nbrun_rewrites_the_notebook_through_a_rename(chapter_book, monkeypatch):
    """Before: nbformat.write truncated the chapter notebook and wrote it in place (a killed run left half of it)."""
    import nbclient

    monkeypatch.setattr(nbclient.NotebookClient, "execute", lambda self, **kw: None)
    path = _chapter_nb(chapter_book, "a", 10)
    path.chmod(0o640)
    before = path.read_bytes()

    def refused(src, dst):
        raise OSError("the rename failed")

    monkeypatch.setattr(nbrun.os, "replace", refused)
    with pytest.raises(OSError, match="the rename failed"):
        nbrun.run(path)
    assert path.read_bytes() == before and sorted(p.name for p in path.parent.iterdir()) == ["a.ipynb"]
    monkeypatch.undo()
    monkeypatch.setattr(nbclient.NotebookClient, "execute", lambda self, **kw: None)
    nbrun.run(path)  # the same bytes as nbformat.write gives, and the file's mode kept
    expected = chapter_book / "expected.ipynb"
    nb = nbformat.read(path, as_version=4)
    nbformat.write(nb, expected)
    assert path.read_bytes() == expected.read_bytes() and stat.S_IMODE(path.stat().st_mode) == 0o640


# --- 3. abbreviated options are refused, naming the full one -------------------------------------------------------


SWEEP = ["sweep", "--policies", "UCB1", "--epsilons", "1", "--instance", "bernoulli:0.9,0.5", "--horizon", "100"]


@pytest.mark.parametrize(
    ("extra", "meant"),
    [
        (["--runs", "2", "--run", "3", "--out", "d2.csv"], "--run is not an option: did you mean --runs?"),
        (["--runs", "2", "--out", "d2.csv", "--ou", "d3.csv"], "--ou is not an option: did you mean --out?"),
        (["--runs", "2", "--out=d2.csv", "--ou=d3.csv"], "--ou is not an option: did you mean --out?"),
        (["--runs", "2", "--out", "d2.csv", "--hoizon", "5"], "did you mean --horizon?"),
    ],
)
def test_an_abbreviated_option_is_refused_naming_the_full_one(tmp_path, monkeypatch, capsys, extra, meant):
    """Before: ``--runs 2 --run 3`` ran 3 runs and ``--out d2.csv --ou d3.csv`` wrote d3.csv, past the guard against an
    option given twice."""
    monkeypatch.chdir(tmp_path)
    assert _exit(lambda: main([*SWEEP, *extra])) == 2
    assert meant in _err_line(capsys)
    assert list(tmp_path.iterdir()) == []


def test_findings_refuses_an_abbreviation_too(capsys):
    assert _exit(lambda: main(["findings", "--wr"])) == 2
    assert "did you mean --write?" in _err_line(capsys)


# --- 4. a huge refused value is shown cut, in one short line ---------------------------------------------------------


BIG = "x" * 10**6


@pytest.mark.parametrize(
    "call",
    [
        lambda: ldp.make_policy(BIG, epsilon=1),
        lambda: ldp.make_instance(BIG),
        lambda: ldp.make_curator(BIG, 1.0),
        lambda: vetted.make_curator(BIG, 1.0),
        lambda: vetted.make_curator("CTL", 1.0, source=BIG),
        lambda: vetted.make_curator("CTB", 1.0, grid_bits=[1] * 10**5),
        lambda: ldp.make_privacy_levels(BIG),
        lambda: ldp.make_privacy_levels("discrete", values=[-1.0] + [1.0] * 100000),
        lambda: ldp.make_privacy_levels("sampler", sampler=[1] * 10**5),
        lambda: ldp.make_privacy_levels("ren-heldp-discrete", **{BIG: 1}),
        lambda: ldp.make_instance("ren2020-bernoulli", **{BIG: 1}),
        lambda: ldp.make_policy("AdaP-UCB", epsilon=1, alpha=[0.5] * 10**6),
        lambda: ldp.make_policy("LDP-UCB-B", epsilon=[0.5] * 10**6),
        lambda: ldp.make_policy("HeLDP-UCB-B", epsilon_min=[0.5] * 10**6),
        lambda: ldp.make_policy("DP-SE", epsilon=1, beta=[0.5] * 10**6),
        lambda: ldp.make_policy("UCB1", delta=[0.5] * 10**6),
        lambda: ldp.make_policy([1] * 10**5, epsilon=1),
    ],
)
def test_a_huge_refused_value_is_cut_in_the_message(call):
    """Before: the refused value was shown whole (1,000,000 to 5,000,046 characters)."""
    with pytest.raises((TypeError, ValueError)) as err:
        call()
    text = str(err.value)
    assert len(text) < 600 and "\n" not in text and "..." in text, text[:300]


def test_make_policy_refuses_a_value_that_is_not_a_number_naming_its_type():
    with pytest.raises(TypeError, match=r"^epsilon must be a real number > 0, got np.True_ of type numpy.bool$"):
        ldp.make_policy("LDP-UCB-B", epsilon=np.bool_(True))  # was "of type bool"
    with pytest.raises(TypeError, match=r"^alpha must be a real number, got '3' of type str$"):  # as before
        ldp.make_policy("AdaP-UCB", epsilon=1, alpha="3")
    # numbers of every kind are accepted as before
    assert ldp.make_policy("LDP-UCB-B", epsilon=np.float32(2.0)).epsilon == 2.0
    assert ldp.make_policy("AdaP-UCB", epsilon=np.int64(1), alpha=np.float64(4.0)).alpha == 4.0


# --- 5. the closest name, suggested (never accepted) ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "meant"),
    [
        (lambda: ldp.make_policy("ldp-ucb-b", epsilon=1), "LDP-UCB-B"),
        (lambda: ldp.make_instance("ren2020-bernouli"), "ren2020-bernoulli"),
        (lambda: ldp.make_curator("CTLS", 1.0), "CTL-S"),
        (lambda: vetted.make_curator("ctb_s", 1.0), "CTB-S"),
        (lambda: vetted.make_curator("CTL", 1.0, source="OpenDP"), "opendp"),
        (lambda: ldp.make_privacy_levels("Constant"), "constant"),
    ],
)
def test_an_unknown_name_is_refused_with_the_closest_one(call, meant):
    with pytest.raises(ValueError, match=rf"; known: .*\(did you mean '{meant}'\?\)$"):
        call()


def test_close_name_prefers_case_and_punctuation_then_difflib():
    from ldpcode._validate import close_name

    assert close_name("ldp-ucb-b", ["LDP-UCB-L", "LDP-UCB-B"]) == "LDP-UCB-B"
    assert close_name("REN2020BERNOULLI", ldp.list_instances()) == "ren2020-bernoulli"
    assert close_name("horizn", ["horizon", "runs"]) == "horizon"
    assert close_name("zzz", ["horizon", "runs"]) is None and close_name("x" * 10**6, ["x"]) is None


def test_the_command_line_suggests_as_the_api(tmp_path, capsys):
    """One implementation: the command line found no name for REN2020BERNOULLI (its match was by case only)."""
    argv = [*SWEEP[:5], "--instance", "REN2020BERNOULLI", "--horizon", "100", "--runs", "2", "--out", "x"]
    assert _exit(lambda: main(argv)) == 2
    assert "did you mean 'ren2020-bernoulli'?" in _err_line(capsys)


# --- 6. and 7. rerun: --no-render checks the build first; a path from the book's top folder --------------------------


def test_a_no_render_rerun_refuses_a_file_of_the_readers_in_the_build_before_it_runs(tmp_path, fake_rerun):
    """Before: check_out(book=False) skipped OUT/book, and the run failed at its end, in _drop_stale_build."""
    out = tmp_path / "out"
    rr.rerun(NB, {"samples": 20_000}, out)
    (out / "book" / "my_notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="holds my_notes.txt, which rerun did not write"):
        rr.rerun(NB, {"samples": 20_000}, out, render=False)
    assert len(fake_rerun) == 1 and (out / "book" / "my_notes.txt").read_text() == "mine"


def test_a_notebook_path_is_read_from_the_books_top_folder_too(tmp_path, monkeypatch, fake_rerun, capsys):
    """Before: ``rerun chapters/ren2020/figure1.ipynb`` (the help's own example) was refused outside the book."""
    monkeypatch.chdir(tmp_path)
    executed = rr.rerun(NB, {"samples": 20_000}, tmp_path / "out", render=False)
    assert executed == tmp_path / "out" / "lemma3_laplace_tail.ipynb" and len(fake_rerun) == 1
    with pytest.raises(ValueError, match="found neither from the current folder nor from the book's top folder"):
        rr.rerun("chapters/ren2020/no_such.ipynb", {}, tmp_path / "out")
    (tmp_path / "chapters" / "ren2020").mkdir(parents=True)  # a file of that path here is the one meant
    shutil.copy(ROOT / NB, tmp_path / NB)
    with pytest.raises(ValueError, match="chapter notebook under"):
        rr.rerun(NB, {}, tmp_path / "out")
    with pytest.raises(SystemExit):
        main(["rerun", "--help"])
    assert "from the current folder or from the book's top folder" in " ".join(capsys.readouterr().out.split())


# --- 8. and 9. rerun values: a float beyond 2**53, an empty value -------------------------------------------------


@pytest.mark.parametrize(("value", "default"), [(1e20, 0), (-1e17, 0), ([1e20, 2.0], [1, 2])])
def test_a_whole_float_beyond_2_53_for_an_integer_is_refused_saying_why(value, default):
    """Before: it reached the rules, whose hint was "(write 10**6 or 1000000, not 1e6)"."""
    with pytest.raises(
        TypeError, match=r"^parameter seed must be (an integer|a list of integers): .* is a float beyond"
    ):
        rv.as_default_type(value, default, "seed")
    with pytest.raises(TypeError, match=r"where a double cannot hold every integer exactly .*; write it as an integer"):
        rv.as_default_type(value, default, "seed")
    assert rv.as_default_type(9007199254740992.0, 0, "seed") == 2**53  # at 2**53, an integer as before
    assert rv.as_default_type(1e20, 1.0, "x") == 1e20  # a float parameter keeps its float


def test_the_command_line_says_so_for_seed_1e20(capsys):
    assert main(["rerun", "chapters/ren2020/figure1.ipynb", "-p", "seed", "1e20"]) == 2
    err = _err_line(capsys)
    assert "write it as an integer, e.g. 100000000000000000000" in err and "not 1e6" not in err


def test_an_empty_value_is_named_as_such(capsys):
    """Before: ``-p seed ""`` was refused with "got None", which the reader never typed."""
    assert main(["rerun", "chapters/ren2020/figure1.ipynb", "-p", "seed", ""]) == 2
    assert (
        "parameter seed must be an integer in [0, 2**127] (ldpcode takes seeds up to 2**128, and the body derives more as seed + 1, seed + 2, ...), got an empty value"
        in _err_line(capsys)
    )
    assert main(["rerun", "chapters/ren2020/figure1.ipynb", "-p", "seed", "None"]) == 2
    assert "got None" in _err_line(capsys)  # typed, so named as typed


def test_an_empty_value_stays_none_where_none_is_allowed(monkeypatch):
    seen = {}
    monkeypatch.setattr(rr, "rerun", lambda notebook, values, out, **kw: seen.update(values) or Path(out))
    assert main(["rerun", "chapters/azize2022/figure2.ipynb", "-p", "beta", "", "--out", os.devnull]) == 0
    assert seen == {"beta": None}
