"""The book the command line reads and guards is the installed package's own, wherever it is run from (the audit
of the command line: from inside a re-run's OUT/book, the nearest _toc.yml was another book's)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ldpcode import _paths
from ldpcode import rerun as rr
from ldpcode.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def inside_another_book(tmp_path, monkeypatch):
    """The working directory is a one-page build such as rerun's OUT/book: a _toc.yml and no data/."""
    monkeypatch.delenv("LDPCODE_ROOT", raising=False)
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: page\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_book_is_the_packages_repository_from_inside_another_book(inside_another_book):
    """Before: repo_root() was OUT/book, so the guard of --out protected that folder instead of the book."""
    assert _paths.repo_root() == ROOT
    with pytest.raises(ValueError, match="inside the book's own files"):
        rr.check_out(ROOT / "chapters", "x")


def test_findings_from_inside_another_book_are_the_books(inside_another_book, capsys):
    """Before: `python -m ldpcode findings` there printed an empty table: '0 statements ... judged by 0 numbers'."""
    assert main(["findings"]) == 0
    import re

    line = capsys.readouterr().out.strip().splitlines()[-1]
    statements, numbers = map(int, re.match(r"(\d+) statements .* judged by (\d+) numbers", line).groups())
    assert statements > 0 and numbers > 0, line


def test_findings_without_stored_claims_is_refused_in_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("LDPCODE_ROOT", str(tmp_path))
    (tmp_path / "_toc.yml").write_text("root: intro\n")
    assert main(["findings"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no stored claims under" in err and "Traceback" not in err
    assert main(["findings", "--write"]) == 2  # nor an empty table written into README.md


def test_the_working_directory_is_searched_only_when_the_package_is_not_in_a_book(inside_another_book, monkeypatch):
    monkeypatch.setattr(_paths, "_is_book", lambda folder: False)  # e.g. a plain (not editable) install
    assert _paths.repo_root() == inside_another_book.resolve()


def test_from_inside_a_chapter_the_refusal_names_a_folder_it_would_accept(monkeypatch):
    """Before: `cd chapters/ren2020 && python -m ldpcode rerun figure1.ipynb` was refused with "choose a new folder
    such as rerun/", the very folder (chapters/ren2020/rerun/) it had just refused."""
    monkeypatch.delenv("LDPCODE_ROOT", raising=False)
    monkeypatch.chdir(ROOT / "chapters" / "ren2020")
    with pytest.raises(ValueError, match="inside the book's own files") as err:
        rr.check_out(Path("rerun"), "figure1")
    suggested = re.search(r"such as (\S+)/,", str(err.value)).group(1)
    assert Path(suggested) == ROOT / "rerun"
    rr.check_out(Path(suggested) / "figure1-small", "figure1")  # accepted: a new folder of the top folder
