"""``python -m ldpcode.nbrun`` (the authors' runner): it runs only the book's own chapter notebooks, says what
``--tiny`` writes, and ends a failing or unreadable notebook in one line (the audit of the command line)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from ldpcode import nbrun

ROOT = Path(__file__).resolve().parents[2]


def _notebook(path: Path, *sources: str) -> Path:
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources]), path)
    return path


def _exit(argv) -> int:
    try:
        return nbrun.main(argv)
    except SystemExit as e:
        return e.code


def test_a_notebook_outside_the_books_chapters_is_refused_before_any_work(
    chapter_book, tmp_path_factory, monkeypatch, capsys
):
    """Before: nbrun ran (and rewrote in place) any notebook anywhere, and recorded it in data/execution.json."""
    elsewhere = _notebook(tmp_path_factory.mktemp("elsewhere") / "mine.ipynb", "x = 1")
    before = elsewhere.read_bytes()
    monkeypatch.setattr(nbrun, "run", lambda *a, **k: pytest.fail("the notebook ran before it was refused"))
    for argv in ([str(elsewhere)], ["--tiny", str(elsewhere)], ["--write", str(elsewhere)]):
        assert _exit(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "not a chapter notebook of the book" in err and str(elsewhere) in err
    top = _notebook(chapter_book / "top.ipynb", "x = 1")  # in the book, but not in chapters/<chapter>/
    assert _exit([str(top)]) == 2 and "not a chapter notebook" in capsys.readouterr().err
    assert elsewhere.read_bytes() == before and not (chapter_book / "data").exists()


def test_invalid_json_is_one_line(chapter_book, monkeypatch, capsys):
    """Before: a notebook file holding invalid JSON ended in a 37-line traceback."""
    bad = chapter_book / "chapters" / "x" / "bad.ipynb"
    bad.write_text('{"cells": [')
    monkeypatch.setattr(nbrun, "run", lambda *a, **k: pytest.fail("ran"))
    assert _exit(["--write", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a readable notebook" in err and "Traceback" not in err


def test_a_failing_notebook_is_one_line_naming_its_cell(chapter_book, capsys):
    """Before: a notebook failing in its kernel ended in nbclient's 37-line traceback. Now one line (exit 1); the
    notebook is not rewritten and nothing is recorded."""
    nb = _notebook(chapter_book / "chapters" / "x" / "fails.ipynb", "x = 1", "raise ValueError('the rule says no')")
    before = nb.read_bytes()
    assert _exit([str(nb)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "fails.ipynb: the notebook stopped in cell 2: ValueError: the rule says no" in err
    assert nb.read_bytes() == before and not (chapter_book / "data" / "execution.json").exists()
    with pytest.raises(Exception, match="the rule says no"):  # --debug: the traceback, as python -m ldpcode
        nbrun.main(["--debug", str(nb)])


def test_the_help_says_what_tiny_writes():
    """Before: --tiny said "(nothing written)", but it writes its time into data/execution.json (intended)."""
    done = subprocess.run([sys.executable, "-m", "ldpcode.nbrun", "--help"], capture_output=True, text=True, cwd=ROOT)
    text = " ".join(done.stdout.split())
    assert "nothing written" not in text and "data/execution.json" in text


def test_tiny_writes_only_its_time(chapter_book, monkeypatch):
    nb = _notebook(chapter_book / "chapters" / "x" / "a.ipynb", "x = 1")
    before = nb.read_bytes()
    monkeypatch.setattr(nbrun, "run_tiny", lambda path: 1.0)
    assert nbrun.main(["--tiny", str(nb)]) == 0
    assert nb.read_bytes() == before
    assert (
        json.loads((chapter_book / "data" / "execution.json").read_text())["chapters/x/a.ipynb"]["tiny"]["seconds"]
        == 1.0
    )
