"""``rerun`` replaces only what it wrote itself and what is unchanged since (the audit of the command line: "nothing
the user owns is ever overwritten or deleted"), and reads no integer in another base than the reader wrote.

Each test names the defect it pins. The notebook's kernel and the one-page build are fakes (the real ones are
tested in test_cli.py); the checks, the manifest and the replacing are the real ones."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from ldpcode import rerun as rr
from ldpcode import rerun_values as rv
from ldpcode.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
NB = "chapters/ren2020/lemma3_laplace_tail.ipynb"
NAME = "lemma3_laplace_tail"


def _rerun(out, **kw):
    return rr.rerun(NB, {"samples": 20_000}, out, **kw)


def test_a_second_rerun_replaces_its_own_unchanged_build_and_notebook(tmp_path, fake_rerun):
    out = tmp_path / "out"
    page = _rerun(out)
    assert page.exists() and len(fake_rerun) == 1
    files = json.loads((out / rr.MANIFEST).read_text())["files"]
    assert f"{NAME}.ipynb" in files and "book/_config.yml" in files and f"book/_build/html/{NAME}.html" in files
    assert _rerun(out).exists() and len(fake_rerun) == 2  # its own files, unchanged: replaced
    assert sorted(p.name for p in out.iterdir()) == sorted([rr.MANIFEST, f"{NAME}.ipynb", "book"])
    mask = os.umask(0)
    os.umask(mask)
    for path in (out / f"{NAME}.ipynb", out / rr.MANIFEST):  # as a plain open() makes them, not mkstemp's 0600
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask, path


@pytest.mark.parametrize("added", ["my_notes.md", "_build/html/mine/keep.txt"])
def test_a_file_the_reader_added_to_the_build_is_never_deleted(tmp_path, fake_rerun, added):
    """Before: rerun rmtree'd OUT/book whenever its marker was there, with OUT/book/my_notes.md in it."""
    out = tmp_path / "out"
    _rerun(out)
    mine = out / "book" / added
    mine.parent.mkdir(parents=True, exist_ok=True)
    mine.write_text("the reader's")
    with pytest.raises(ValueError, match="which rerun did not write; it is never deleted"):
        _rerun(out)
    assert mine.read_text() == "the reader's" and len(fake_rerun) == 1  # refused before the notebook ran


def test_a_build_file_the_reader_edited_is_never_deleted(tmp_path, fake_rerun):
    out = tmp_path / "out"
    _rerun(out)
    (out / "book" / "_config.yml").write_text("title: mine\n")
    with pytest.raises(ValueError, match="changed since rerun wrote it"):
        _rerun(out)
    assert (out / "book" / "_config.yml").read_text() == "title: mine\n" and len(fake_rerun) == 1


OTHER = "chapters/heldp/lemma6_laplace_tail.ipynb"  # another chapter's notebook


def _as_if_from(out, name, source, metadata=None):
    """OUT/<name>.ipynb as a re-run of ``source`` wrote it (a same-named notebook of another chapter), listed;
    ``metadata`` instead of the mark rerun writes now (an earlier version's)."""
    import nbformat

    nb = nbformat.v4.new_notebook(metadata=metadata or {rr.NB_MARK: {"notebook": source}})
    nbformat.write(nb, out / f"{name}.ipynb")
    files = json.loads((out / rr.MANIFEST).read_text())["files"]
    files[f"{name}.ipynb"] = rr._sha256(out / f"{name}.ipynb")
    (out / rr.MANIFEST).write_text(json.dumps({"files": files}))


def test_a_rerun_of_another_notebook_of_the_same_name_never_replaces_it(tmp_path, fake_rerun):
    """Before: re-running ren2020/figure1 and then heldp/figure1 into one OUT left only heldp's figure1.ipynb."""
    out = tmp_path / "out"
    _rerun(out, render=False)
    _as_if_from(out, NAME, "chapters/heldp/" + NAME + ".ipynb")
    kept = (out / f"{NAME}.ipynb").read_text()
    with pytest.raises(ValueError, match=f"is the re-run of chapters/heldp/{NAME}.ipynb; a re-run of {NB} would"):
        _rerun(out, render=False)
    assert (out / f"{NAME}.ipynb").read_text() == kept and len(fake_rerun) == 1  # refused before the notebook ran


def test_a_rerun_of_an_earlier_version_is_known_by_papermills_input_path(tmp_path, fake_rerun):
    """The second look: a re-run written before the source was recorded (ldpcode_rerun: True) was taken as the same
    notebook, and replaced; papermill's own metadata names its input."""
    out = tmp_path / "out"
    _rerun(out, render=False)
    old = lambda path: {rr.NB_MARK: True, "papermill": {"input_path": path}}  # noqa: E731
    _as_if_from(out, NAME, None, old(f"/elsewhere/chapters/heldp/{NAME}.ipynb"))
    with pytest.raises(ValueError, match=f"is the re-run of chapters/heldp/{NAME}.ipynb; a re-run of {NB} would"):
        _rerun(out, render=False)
    _as_if_from(out, NAME, None, old(f"/elsewhere/{NB}"))  # the same notebook: replaced, as before
    assert _rerun(out, render=False).exists() and len(fake_rerun) == 2


def test_a_rerun_of_another_notebook_never_deletes_the_page_in_out(tmp_path, fake_rerun):
    """Before: the second notebook's build replaced OUT/book, and the first one's page was gone."""
    out = tmp_path / "out"
    page = rr.rerun(OTHER, {}, out)
    with pytest.raises(
        ValueError, match=f"holds the page of lemma6_laplace_tail.ipynb, the re-run of {OTHER}; a re-run of {NB} would"
    ):
        _rerun(out)
    assert page.exists() and len(fake_rerun) == 1
    assert _rerun(out, render=False).exists() and page.exists()  # no page of its own to drop: allowed


def test_a_rerun_without_a_page_drops_the_page_of_the_run_it_replaces(tmp_path, fake_rerun):
    """Before: OUT/book kept the page of the earlier run beside the new notebook, out of date."""
    out = tmp_path / "out"
    page = _rerun(out)
    _rerun(out, render=False)
    assert not page.exists() and not (out / "book").exists()
    assert not any(k.startswith("book/") for k in json.loads((out / rr.MANIFEST).read_text())["files"])


def test_a_notebook_the_reader_edited_is_never_overwritten(tmp_path, fake_rerun):
    """Before: OUT/NAME.ipynb kept its ldpcode_rerun metadata through the reader's edits, and was overwritten."""
    out = tmp_path / "out"
    _rerun(out, render=False)
    nb = out / f"{NAME}.ipynb"
    data = json.loads(nb.read_text())
    data["cells"].append({"cell_type": "markdown", "id": "mine", "metadata": {}, "source": "my notes"})
    nb.write_text(json.dumps(data))
    assert data["metadata"][rr.NB_MARK] == {"notebook": NB}  # the mark survived the edit: it cannot be the test
    with pytest.raises(ValueError, match="was changed since rerun wrote it"):
        _rerun(out, render=False)
    assert "my notes" in nb.read_text() and len(fake_rerun) == 1


@pytest.mark.parametrize("top", ["_static", "_ext", "ldpcode", "tests", "benchmarks", "chapters", ".git"])
def test_an_out_among_the_books_top_level_folders_is_refused(top, fake_rerun, monkeypatch):
    """Before: --out _static was accepted, copied _static into itself and ended in a RecursionError."""
    monkeypatch.chdir(ROOT)
    assert main(["rerun", NB, "--tiny", "--out", top]) == 2
    assert fake_rerun == []
    with pytest.raises(ValueError, match="inside the book's own files"):
        rr.check_out(ROOT / top / "sub", NAME)


def test_a_new_folder_of_the_top_folder_is_accepted_as_in_the_readme():
    """``--out rerun/`` from the top folder (the README's example) creates rerun/: the check accepts a new folder."""
    new = ROOT / "rerun-of-a-test-never-created"
    assert not new.exists()
    rr.check_out(new, NAME)  # no error, nothing created
    rr.check_out(new / "ren2020", NAME)
    assert not new.exists()


def test_a_folder_of_reruns_in_the_top_folder_is_accepted(tmp_path, monkeypatch):
    """A top-level folder holding only re-runs (each with its manifest) is not the book's."""
    monkeypatch.setenv("LDPCODE_ROOT", str(tmp_path))
    (tmp_path / "_toc.yml").write_text("root: intro\n")
    (tmp_path / "rerun" / "a").mkdir(parents=True)
    (tmp_path / "rerun" / "a" / rr.MANIFEST).write_text('{"files": {}}')
    rr._refuse_book_folder(tmp_path / "rerun" / "b")
    (tmp_path / "rerun" / "notes.txt").write_text("mine")  # now it holds a file of its own: the book's (or yours)
    with pytest.raises(ValueError, match="inside the book's own files"):
        rr._refuse_book_folder(tmp_path / "rerun" / "b")


def test_a_non_empty_folder_rerun_did_not_write_is_refused(tmp_path, fake_rerun):
    (tmp_path / "data.csv").write_text("the reader's")
    with pytest.raises(ValueError, match="exists and is not empty, and rerun did not write it"):
        _rerun(tmp_path)
    assert fake_rerun == [] and sorted(p.name for p in tmp_path.iterdir()) == ["data.csv"]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert _rerun(empty, render=False).exists()  # an empty folder is fine


@pytest.mark.parametrize("target", ["a folder of the reader's", "nothing (dangling)"])
def test_a_book_that_is_a_symbolic_link_is_refused_before_any_work(tmp_path, fake_rerun, target):
    out = tmp_path / "out"
    _rerun(out)
    elsewhere = tmp_path / "elsewhere"
    if target.startswith("a folder"):
        elsewhere.mkdir()
        (elsewhere / "thesis.tex").write_text("years of work")
    rr.shutil.rmtree(out / "book")
    (out / "book").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(ValueError, match="is a symbolic link, not a rerun build"):
        _rerun(out)
    assert len(fake_rerun) == 1 and (out / "book").is_symlink()
    if elsewhere.exists():
        assert (elsewhere / "thesis.tex").read_text() == "years of work"


def test_an_interrupted_rerun_leaves_no_notebook_behind(tmp_path, monkeypatch):
    """Before: papermill wrote OUT/NAME.ipynb cell by cell; Ctrl-C left a half notebook, unmarked, that the next
    re-run refused (and the reader could take for a result)."""
    import papermill

    def interrupted(src, dst, **kw):
        Path(dst).write_text('{"cells": [')  # half a notebook
        raise KeyboardInterrupt

    monkeypatch.setattr(papermill, "execute_notebook", interrupted)
    out = tmp_path / "out"
    with pytest.raises(KeyboardInterrupt):
        _rerun(out, render=False)
    assert list(out.iterdir()) == []


def test_an_interrupted_rerun_keeps_the_earlier_notebook_whole(tmp_path, fake_rerun, monkeypatch):
    import papermill

    out = tmp_path / "out"
    before = _rerun(out, render=False).read_bytes()

    def interrupted(src, dst, **kw):
        Path(dst).write_text('{"cells": [')
        raise KeyboardInterrupt

    monkeypatch.setattr(papermill, "execute_notebook", interrupted)
    with pytest.raises(KeyboardInterrupt):
        _rerun(out, render=False)
    assert (out / f"{NAME}.ipynb").read_bytes() == before
    assert sorted(p.name for p in out.iterdir()) == sorted([rr.MANIFEST, f"{NAME}.ipynb"])


def test_a_failed_build_is_removed_not_left_to_block_the_next(tmp_path, fake_rerun, monkeypatch):
    out = tmp_path / "out"
    _rerun(out)

    def fails(root, executed, book):
        (book / "half.html").write_text("")
        raise RuntimeError("the one-page build failed")

    monkeypatch.setattr(rr, "_build", fails)
    with pytest.raises(RuntimeError):
        _rerun(out)
    assert not os.path.lexists(out / "book")
    assert not any(k.startswith("book/") for k in json.loads((out / rr.MANIFEST).read_text())["files"])


@pytest.mark.parametrize(("text", "read_as"), [("010", 8), ("0x100", 256), ("0b11", 3), ("1:40", 100), ("[1, 00]", 0)])
def test_an_integer_yaml_1_1_reads_in_another_base_is_refused(text, read_as, capsys):
    """Before: -p samples 010 ran with 8 samples, 0x100 with 256, 1:40 with 100 (YAML 1.1's octal, hex, base 60)."""
    import yaml

    assert read_as in (lambda v: v if isinstance(v, list) else [v])(yaml.safe_load(text))
    with pytest.raises(ValueError, match="parameter 'samples'.* is not a decimal number"):
        rv.parse_value(text, "samples")
    assert main(["rerun", NB, "-p", "samples", text, "--no-render"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "parameter 'samples'" in err and "Traceback" not in err


def test_decimal_numbers_are_read_as_before():
    assert rv.parse_value("100000") == 100000 and rv.parse_value("0") == 0 and rv.parse_value("-3") == -3
    assert rv.parse_value("[0, 1_000]") == [0, 1000] and rv.parse_value("0.05") == 0.05
    assert rv.parse_value("1e6") == 1e6 and rv.parse_value("0o17") == "0o17"  # YAML 1.1: a string, as before


@pytest.mark.parametrize(
    "text",
    [
        "2.0000000000000001",
        "4503599627370496.5",
        "9007199254740993.0",
        "[1, 2.0000000000000001]",
        "1.00000000000000001e3",
    ],
)
def test_a_number_a_double_cannot_hold_is_refused_where_an_integer_would_take_it(text):
    """Before: -p seed 2.0000000000000001 ran with seed 2 (the double), as sweep, reading the text, refuses it. A real
    parameter takes the double (the second look: -p delta 0.99999999999999999 was refused as 'write an integer')."""
    default = [1, 2] if text.startswith("[") else 3
    with pytest.raises(ValueError, match=r"^parameter 'seed': '.*' is not exactly a number a double holds"):
        rv.as_default_type(rv.parse_value(text, "seed"), default, "seed")
    real = rv.as_default_type(rv.parse_value(text, "delta"), 0.5, "delta")  # a float default: the double
    assert real == rv.parse_value(text) and repr(real) == repr(eval(repr(real)))  # papermill writes it as a float


@pytest.mark.parametrize("text, reads", [("1e-400", "0.0"), ("[0.5, 1e400]", "inf"), ("-1e400", "-inf")])
def test_a_number_beyond_the_doubles_is_refused_by_the_text_typed(text, reads):
    """The second input review: -p epsilons [1e-400] was refused as "got 0.0", a value the reader never typed."""
    with pytest.raises(
        ValueError, match=rf"^parameter 'epsilons': '.*e.?400' is beyond the doubles \(it reads as {reads}\)$"
    ):
        rv.parse_value(text, "epsilons")


def test_a_number_a_double_holds_exactly_or_with_a_fraction_is_read_as_before():
    assert rv.parse_value("1e16", "horizon") == 1e16 and rv.parse_value("9007199254740992.0") == 2.0**53
    assert rv.parse_value("0.1") == 0.1 and rv.parse_value("[0.3, 1e-3]") == [0.3, 0.001]  # fractions round
