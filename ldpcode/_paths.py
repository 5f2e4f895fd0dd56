"""Where the book lives on disk (a leaf module: :mod:`ldpcode.claims` and :mod:`ldpcode.parameters` both
need it, and neither may import the other for it)."""

from __future__ import annotations

import os
from pathlib import Path


def _is_book(folder: Path) -> bool:
    """Whether ``folder`` is a book's top folder: its table of contents and its chapters."""
    return (folder / "_toc.yml").is_file() and (folder / "chapters").is_dir()


def repo_root() -> Path:
    """The book's top folder: ``$LDPCODE_ROOT``, else the repository of the installed package (the folder above
    ``ldpcode/``, an editable install) when it is a book, else the nearest parent of the working directory holding
    ``_toc.yml``, else the folder above the package. The package's own book comes before the working directory, so
    that a command run from inside another book (a re-run's one-page build ``OUT/book`` has a ``_toc.yml``) still
    reads, and guards, this one."""
    env = os.environ.get("LDPCODE_ROOT")
    if env:
        return Path(env).resolve()
    package = Path(__file__).resolve().parent.parent
    if _is_book(package):
        return package
    here = Path.cwd().resolve()
    for d in (here, *here.parents):
        if (d / "_toc.yml").exists():
            return d
    return package


#: the book's own folders (its notebooks, stored numbers, build, code and assets), which the command line never writes
#: into, existing or not: a reader's re-run or sweep table never lands among them (one written into _static/ was
#: copied into the built book)
BOOK_FOLDERS = ("chapters", "data", "_build", "_static", "_ext", "ldpcode", "tests", "benchmarks", ".ci", ".git")


def in_book_folders(path) -> bool:
    """Whether ``path`` (a file or a folder, existing or not) is the book's top folder or lies inside one of
    :data:`BOOK_FOLDERS`: ``rerun --out`` and ``sweep --out`` refuse it, so a reader's outputs never land among,
    or over, the book's own files."""
    root = repo_root().resolve()
    p = Path(path).resolve()
    return p == root or any(p == root / d or root / d in p.parents for d in BOOK_FOLDERS)


def new_file_mode() -> int:
    """The mode a plain ``open()`` gives a new file under the process's umask (``0o666 & ~umask``): for a file made
    by :func:`tempfile.mkstemp`, whose own mode 0600 would make a table or a notebook the reader writes private."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
