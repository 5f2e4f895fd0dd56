"""Re-run one chapter notebook with new parameters and render it to HTML offline, through the book's own build.

``python -m ldpcode rerun chapters/ren2020/figure1.ipynb -p horizon 100000 -p runs 10 --out rerun/`` does three
things, each refusing bad input before any work:

1. checks the new values: every name must be a parameter the notebook declares (its cell tagged ``parameters``,
   :func:`ldpcode.cells.parameter_names`; papermill itself only warns about an unknown name and would run at
   the paper's defaults), and the values, merged with the notebook's defaults, must pass its rules
   (:func:`ldpcode.parameters.check_values`), so a wrong type or an out-of-range value stops here, not after an
   hour of simulation;
2. executes the notebook with papermill (the kernel's working directory is the notebook's folder, as in the book),
   writing ``OUT/<name>.ipynb`` with a note under its title naming the new values; its check cell compares nothing
   with ``data/`` at other parameters and writes nothing there;
   The re-run stores nothing under ``data/`` even with ``LDPCODE_WRITE_CLAIMS=1`` in the environment. It replaces
   only what it wrote itself and what is unchanged since: it lists every file it writes in ``OUT``, with its
   sha256, in ``OUT/.ldpcode-rerun.json`` (:data:`MANIFEST`), and refuses (before any work) an ``OUT`` inside the
   book's own files (``chapters/``, ``data/``, ``_build/``, ``_static/``, ``ldpcode/``, ...: any existing top-level
   entry but a folder of re-runs; a new folder such as ``rerun/`` is fine), an ``OUT`` that exists, is not empty
   and has no such list, an ``OUT/<name>.ipynb`` it did not write or that was edited since, and an ``OUT/book``
   that holds a file or a folder it did not write or a file changed since, or is a symbolic link, or a re-run of
   another notebook in ``OUT`` (:func:`check_out`: a folder per notebook). The notebook is executed into a temporary
   file and renamed over ``OUT/<name>.ipynb`` once whole (a ``--no-render`` run drops the page of the one before);
3. builds a one-page Jupyter Book in ``OUT/book`` from the book's own ``_config.yml``, ``references.bib``,
   ``_static/`` and ``_ext/`` (so MyST, the theorem boxes, the bibliography and the offline MathJax render as in
   the book; the citations link to a bibliography page beside it) and returns ``OUT/book/_build/html/<name>.html``.
   Links to the book's other pages are not part of a one-page build; they render as plain text. A build that fails
   raises :class:`BuildFailed`, one line naming the page and the file that holds the build's log (the command line
   prints it and exits with status 1, as for a notebook that fails); the executed notebook stays in ``OUT``.

Values on the command line are read by :mod:`ldpcode.rerun_values`, as YAML (``-p horizon 100000`` an int,
``-p epsilons "[0.5, 1.0]"`` a list, ``-p policy LDP-UCB-B`` a string); an integer YAML 1.1 would read in another
base (``010``, ``0x100``, ``0b11``, ``1:40``) is refused. Where the notebook's own default is an integer (or a list
of integers), a whole number written as a float is read as that integer: ``-p horizon 1e6`` is ``1000000``;
``-p horizon 1.5`` is refused by the notebook's rules. A value of more than ``MAX_ITEMS`` items (YAML aliases can make a
324-character value describe billions) is refused before anything reads it.

``--tiny`` runs the notebook at its tiny parameters (:attr:`ldpcode.parameters.Notebook.tiny`, the edge values
that run the whole body in seconds) with the ``-p`` values on top. A re-run that changes some parameters and
leaves others at the paper's scale says which (``ratio_horizon stays at 10,000,000``), before it starts.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ._paths import BOOK_FOLDERS, in_book_folders, new_file_mode, repo_root
from .claims import WRITE_ENV
from .claims.store import _write_text_atomic
from .limits import ProgressFileBar
from .rerun_values import as_default_type


def _defaults(notebook: Path) -> dict:
    """The values the notebook's parameters cell assigns (the cell is executed alone, in an empty namespace)."""
    import nbformat

    nb = nbformat.read(notebook, as_version=4)
    cells = [c for c in nb.cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    if len(cells) != 1:
        raise ValueError(f"{notebook} must have exactly one cell tagged 'parameters', it has {len(cells)}")
    namespace: dict = {}
    exec(compile(cells[0].source, f"{notebook}:parameters", "exec"), namespace)  # the book's own cell
    namespace.pop("__builtins__", None)
    return namespace


def check_new_parameters(notebook: str, values: dict) -> dict:
    """Refuse a name ``notebook`` does not declare (ValueError listing its parameters, with the closest name), then
    check the merged values with the notebook's rules. Returns the merged values (whole floats given for an
    integer parameter made integers, :func:`~ldpcode.rerun_values.as_default_type`)."""
    from .cells import parameter_names
    from .parameters import check_values
    from ._validate import close_name

    names = parameter_names(notebook)
    for name in values:
        if name not in names:
            close = close_name(name, names)
            hint = f" (did you mean {close!r}?)" if close else ""
            known = f"its parameters: {', '.join(names)}" if names else "it takes no parameters"
            raise ValueError(f"{notebook} has no parameter {name!r}{hint}; {known}")
    defaults = {k: v for k, v in _defaults(repo_root() / notebook).items() if k in names}
    given = {k: as_default_type(v, defaults.get(k), k) for k, v in values.items()}
    merged = {**defaults, **given}
    check_values(notebook, merged)
    return merged


def paper_scale(notebook: str, values: dict) -> list:
    """The parameters a re-run with ``values`` leaves at a paper-scale default: each numeric default the reader did
    not set that is larger than its tiny value (:attr:`ldpcode.parameters.Notebook.tiny`), as (name, default,
    tiny). Empty when ``values`` is empty (the book's own run)."""
    from .parameters import rules_for

    if not values:
        return []
    tiny = rules_for(notebook).tiny
    out = []
    for name, default in _defaults(repo_root() / notebook).items():
        small = tiny.get(name)
        if name in values or small is None or isinstance(default, bool) or isinstance(small, bool) or "seed" in name:
            continue
        if isinstance(default, (int, float)) and isinstance(small, (int, float)) and default > small:
            out.append((name, default, small))
    return out


def _relative(notebook) -> str:
    """``notebook`` as ``chapters/<chapter>/<name>.ipynb``: an absolute path, or a relative one from the current
    folder or, where none is there, from the book's top folder (the help's ``chapters/ren2020/figure1.ipynb`` was
    refused from a folder outside the book)."""
    root = repo_root()
    path = Path(notebook)
    if not path.is_absolute():
        here = Path.cwd() / path
        if not os.path.lexists(here) and not os.path.lexists(root / path):
            raise ValueError(
                f"notebook {str(notebook)!r} is found neither from the current folder nor from the book's top folder "
                f"{root}; give the path of a chapter notebook, chapters/<chapter>/<name>.ipynb"
            )
        path = here if os.path.lexists(here) else root / path
    path = path.resolve()
    try:
        rel = path.relative_to(root)
    except ValueError:
        raise ValueError(f"notebook must be a chapter notebook under {root}, got {str(notebook)!r}") from None
    if rel.suffix != ".ipynb" or rel.parts[0] != "chapters" or not path.exists():
        raise ValueError(f"notebook must be an existing chapters/<chapter>/<name>.ipynb, got {str(notebook)!r}")
    return rel.as_posix()


def rerun(
    notebook, values: dict, out, *, render: bool = True, progress: bool = False, tiny: bool = False, notes=None
) -> Path:
    """Re-run ``notebook`` (a path to a chapter notebook) with ``values`` (name → value) into the folder ``out``;
    returns the rendered HTML page (``render=True``) or the executed notebook. ``tiny``: start from the notebook's
    tiny parameters instead of its defaults. ``progress``: a bar over cells (papermill's) and one over the runs of
    the simulation running now (:class:`~ldpcode.limits.ProgressFileBar`). ``notes``: a stream (e.g.
    ``sys.stderr``) told, before the run, which parameters stay at the paper's scale. See the module docstring."""
    import papermill

    from .parameters import rules_for

    rel = _relative(notebook)
    if not isinstance(values, dict):
        raise TypeError(f"values must be a dict of parameter names to values, got {type(values).__name__}")
    if tiny:
        values = {**rules_for(rel).tiny, **values}
    merged = check_new_parameters(rel, values)
    values = {k: merged[k] for k in values}  # as checked: 1e6 given for an integer is 1000000
    if notes is not None:
        for name, default, small in paper_scale(rel, values):
            print(
                f"note: {name} stays at the paper's {default:,} (its tiny value is {small:,}); "
                f"set it with -p {name} N, or use --tiny",
                file=notes,
            )
    root = repo_root()
    out = Path(out).resolve()
    name = Path(rel).stem
    executed = out / f"{name}.ipynb"
    check_out(out, name, book=render, source=rel)  # before any work: nothing of the book's or the user's is overwritten
    out.mkdir(parents=True, exist_ok=True)
    # a re-run never stores numbers, whatever the caller's environment says (LDPCODE_WRITE_CLAIMS=1 left set)
    saved = os.environ.pop(WRITE_ENV, None)
    # papermill warns of every parameters-cell line with a comment it does not parse, and then of the parameter on
    # that line as "unknown": noise for a reader, as the names were checked above against the cell itself
    for logger in ("papermill.translators", "papermill"):
        logging.getLogger(logger).setLevel(logging.ERROR)
    # executed into a temporary file beside OUT/<name>.ipynb, renamed over it once whole and noted: an interrupted
    # re-run leaves no half-written, unlisted notebook there (a killed one at worst a hidden .<name>.*.ipynb)
    fd, part = tempfile.mkstemp(prefix=f".{name}.", suffix=".ipynb", dir=out)
    os.close(fd)
    os.chmod(part, new_file_mode())  # mkstemp's 0600: the mode a plain open() would give the notebook
    try:
        # progress: papermill's bar over cells, and below it one over the runs of the simulation running now
        with ProgressFileBar() if progress else contextlib.nullcontext():
            papermill.execute_notebook(
                str(root / rel),
                part,
                parameters=values,
                cwd=str((root / rel).parent),
                kernel_name="python3",
                progress_bar=progress,
                # the kernel's "running over TCP without encryption" warning, and its log of the interrupt papermill
                # sends at shutdown, are noise on a reader's terminal (an error in a cell is reported as its error)
                extra_arguments=["--IPKernelApp.log_level=CRITICAL"],
            )
        _note_parameters(Path(part), values, rel)
        if os.path.lexists(executed):  # again: the reader may have put a file there during the run
            _own(executed, out, _manifest(out) or {})
        os.replace(part, executed)
        _record(out, {executed.name: _sha256(executed)})
    finally:
        if saved is not None:
            os.environ[WRITE_ENV] = saved
        Path(part).unlink(missing_ok=True)
    if not render:
        _drop_stale_build(out, name)  # the page of the run this notebook replaced would sit beside it, out of date
        return executed
    if notes is not None:
        print("rendering the page (a one-page Jupyter Book build, about 15 s) ...", file=notes)
    return render_page(executed, out / "book")


#: the file in ``OUT`` that lists every file ``rerun`` wrote there (its path under ``OUT`` → its sha256): a later
#: re-run replaces a file only if it is listed and unchanged since, and writes into a non-empty ``OUT`` only if it
#: holds this list
MANIFEST = ".ldpcode-rerun.json"
#: the marker of ``OUT/book`` of the versions before :data:`MANIFEST` (it listed nothing: such a build is refused)
OLD_MARKER = ".ldpcode-rerun-build"
#: the metadata key that marks ``OUT/<name>.ipynb`` as written by ``rerun`` (for a reader; ownership is the manifest's)
NB_MARK = "ldpcode_rerun"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _manifest(out: Path) -> dict | None:
    """What ``rerun`` wrote in ``out``, from its :data:`MANIFEST` (path under ``out`` → sha256), or None without one."""
    path = out / MANIFEST
    if not os.path.lexists(path):
        return None
    try:
        if path.is_symlink():
            raise ValueError("a symbolic link")
        files = json.loads(path.read_text(encoding="utf-8"))["files"]
        if not (isinstance(files, dict) and all(isinstance(v, str) for v in files.values())):
            raise ValueError("not a list of files")
    except (OSError, ValueError, KeyError, TypeError):
        raise ValueError(
            f"{path} is not rerun's list of the files it wrote in {out}; move {out} away or choose another --out"
        ) from None
    return files


def _record(out: Path, add: dict, drop: str | None = None) -> None:
    """Update the :data:`MANIFEST` of ``out``: forget every path under ``drop`` (a folder of ``out``, e.g.
    ``"book/"``), then list ``add`` (path → sha256). Written beside it and renamed over it in one step."""
    files = {k: v for k, v in (_manifest(out) or {}).items() if drop is None or not k.startswith(drop)}
    files.update(add)
    text = json.dumps({"written by": "python -m ldpcode rerun", "files": dict(sorted(files.items()))}, indent=1)
    _write_text_atomic(out / MANIFEST, text + "\n")


def _own(path: Path, out: Path, files: dict) -> None:
    """Refuse ``path`` (a file under ``out`` that a re-run would replace) unless ``files`` lists it as written by
    rerun and it is unchanged since (its sha256)."""
    if path.is_symlink():
        raise ValueError(f"{path} is a symbolic link; rerun writes through none: move it away or choose another --out")
    rel = path.relative_to(out).as_posix()
    if rel not in files or not path.is_file():
        raise ValueError(f"{path} exists and was not written by rerun; move it away or choose another --out")
    if _sha256(path) != files[rel]:
        raise ValueError(
            f"{path} was changed since rerun wrote it, so it is yours now and never replaced; "
            "move it away or choose another --out"
        )


def _refuse_book_folder(out: Path) -> None:
    """Refuse an ``out`` that is the book's top folder or inside its own files: :data:`ldpcode._paths.BOOK_FOLDERS`
    (even before they exist), and any existing top-level entry of the book (``_static``, ``ldpcode``, ``tests``,
    ...) except a folder that holds only re-runs (each in a folder with its :data:`MANIFEST`). A new folder of
    the top folder (``rerun/``, the README's example) is accepted."""
    root = repo_root().resolve()
    # the folder to suggest is the top folder's rerun/, wherever the command ran (from chapters/ren2020/, "rerun/"
    # was the very folder refused)
    inside = (
        f"--out {out} is inside the book's own files; choose a new folder such as {root / 'rerun'}/, or one outside "
        "the book"
    )
    if in_book_folders(out):
        raise ValueError(inside + f" (never {', '.join(d + '/' for d in BOOK_FOLDERS)})")
    try:
        top = root / out.relative_to(root).parts[0]
    except ValueError:
        return  # outside the book
    if os.path.lexists(top) and not _only_reruns(top):
        raise ValueError(f"{inside} ({top.name}/ exists and is not a folder of re-runs: the book's, or yours)")


def _only_reruns(folder: Path) -> bool:
    """Whether ``folder`` is a real folder whose files all lie in folders with a :data:`MANIFEST` (re-runs)."""
    if folder.is_symlink() or not folder.is_dir():
        return False
    for here, dirs, names in os.walk(folder):
        if MANIFEST in names:
            dirs[:] = []  # a re-run's own folder: check_out judges its files
            continue
        if names or any(os.path.islink(os.path.join(here, d)) for d in dirs):
            return False
    return True


def check_out(out: Path, name: str, *, book: bool = True, source: str | None = None) -> None:
    """Refuse an output folder where the re-run would write over what it did not write, before any work: a folder
    inside the book's own files (:func:`_refuse_book_folder`), a file, a non-empty folder without rerun's
    :data:`MANIFEST`, an ``OUT/<name>.ipynb`` that rerun did not write or that was changed since, and (``book``, or
    without it the page of ``OUT/<name>.ipynb``'s earlier run, which a ``--no-render`` run removes) an ``OUT/book``
    that holds a file rerun did not write or one changed since, or is a symbolic link; with
    ``source`` (``chapters/ren2020/figure1.ipynb``), a re-run of another notebook there (heldp's ``figure1.ipynb``,
    or another page in ``OUT/book``): a folder holds the re-runs of one notebook, each replacing the last."""
    out = Path(out).resolve()
    _refuse_book_folder(out)
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out {out} is a file, not a folder")
    files = _manifest(out) if out.is_dir() else None
    if files is None and out.is_dir() and any(out.iterdir()):
        raise ValueError(
            f"--out {out} exists and is not empty, and rerun did not write it (it has no {MANIFEST}, the list of "
            "what rerun wrote); choose a new or empty folder"
        )
    executed = out / f"{name}.ipynb"
    if os.path.lexists(executed):
        _own(executed, out, files or {})
        _same_source(executed, source)
    pages = [p for p in (out / "book").glob("*.ipynb") if not p.is_symlink()] if book and source else []
    if book or _stale_build(out, name):  # --no-render removes the page of the run it replaces: checked now too
        _refuse_foreign_build(out / "book")
    for page in pages:  # a build holds one page
        _same_source(page, source, f"{out / 'book'} holds the page of {page.name}" if page.stem != name else "")


def _same_source(executed: Path, source: str | None, other: str = "") -> None:
    """Refuse a re-run of ``source`` over ``executed`` (or, ``other``, beside it), a re-run of another notebook: its
    metadata's :data:`NB_MARK` says which, or for a re-run of a version that recorded none papermill's input path
    (``chapters/...`` in it); with neither, it is taken as the same."""
    import nbformat

    try:
        meta = nbformat.read(executed, as_version=4).metadata
    except Exception:  # not a notebook, yet listed and unchanged: rerun's, with nothing to compare
        return
    mark, path = meta.get(NB_MARK), str((meta.get("papermill") or {}).get("input_path") or "").replace("\\", "/")
    if isinstance(mark, dict):
        before = mark.get("notebook")
    else:  # an earlier version's re-run: papermill's record of its input
        before = path[path.rfind("chapters/") :] if "chapters/" in path else None
    before = before or source
    if source is not None and (other or before != source):
        raise ValueError(
            f"{other + ',' if other else f'{executed} is'} the re-run of {before}; a re-run of {source} would replace "
            "it: choose another --out (a folder per notebook)"
        )


def _stale_build(out: Path, name: str) -> bool:
    """Whether ``OUT/book`` is the page of ``OUT/<name>.ipynb``'s earlier run, which a ``--no-render`` run removes."""
    return (out / "book" / f"{name}.ipynb").is_file() and not (out / "book").is_symlink()


def _drop_stale_build(out: Path, name: str) -> None:
    """Remove ``OUT/book``, rerun's and unchanged, if it is the page of ``OUT/<name>.ipynb``'s earlier run (checked
    before the run too, :func:`check_out`)."""
    if _stale_build(out, name):
        _remove_build(out / "book")  # checked again: the reader may have put a file there during the run


def _remove_build(book: Path) -> None:
    """Remove the build ``book`` and forget its files in the :data:`MANIFEST`, after :func:`_refuse_foreign_build`:
    never a file rerun did not write, nor one changed since."""
    _refuse_foreign_build(book)
    if book.exists():
        shutil.rmtree(book)
        _record(book.parent, {}, drop="book/")


def _refuse_foreign_build(book: Path) -> None:
    """Refuse to replace ``book`` unless every file in it is one rerun wrote (listed in the :data:`MANIFEST` of its
    folder) and unchanged since: a file the reader added or edited there is never deleted, and a symbolic link
    (``book`` itself or inside it) is never followed. A folder is rerun's if it holds a file the manifest lists or is
    listed itself (an empty folder of the build, ``book/x/`` in :func:`_record_book`): an empty folder the reader
    made there was deleted with the build."""
    if not os.path.lexists(book):
        return
    if book.is_symlink() or not book.is_dir():
        kind = "a symbolic link" if book.is_symlink() else "a file"
        raise ValueError(f"{book} is {kind}, not a rerun build; move it away or choose another --out")
    out = book.parent
    files = _manifest(out) or {}
    if not any(k.startswith("book/") for k in files):
        old = " (a build of an earlier rerun, which listed nothing: delete it if nothing in it is yours)"
        raise ValueError(
            f"{book} exists and is not a rerun build{old if (book / OLD_MARKER).exists() else ''}; "
            "move it away or choose another --out"
        )
    folders = {k.rsplit("/", i)[0] for k in files if k.startswith("book/") for i in range(1, k.count("/") + 1)}
    for here, dirs, names in os.walk(book):
        for entry in dirs:
            path = Path(here, entry)
            if not path.is_symlink() and path.relative_to(out).as_posix() not in folders:
                raise ValueError(
                    f"{book} holds the folder {path.relative_to(book)}/, which rerun did not write; it is never "
                    "deleted: move it (or the whole folder) away, or choose another --out"
                )
        for entry in names + [d for d in dirs if os.path.islink(os.path.join(here, d))]:
            path = Path(here, entry)
            rel = path.relative_to(out).as_posix()
            if path.is_symlink() or rel not in files:
                raise ValueError(
                    f"{book} holds {path.relative_to(book)}, which rerun did not write; it is never deleted: move "
                    "it (or the whole folder) away, or choose another --out"
                )
            if _sha256(path) != files[rel]:
                raise ValueError(
                    f"{book} holds {path.relative_to(book)}, changed since rerun wrote it; it is never deleted: "
                    "move it (or the whole folder) away, or choose another --out"
                )


def _record_book(book: Path) -> None:
    """List every file of the build ``book`` in the :data:`MANIFEST` of its folder (its earlier files forgotten), and
    every folder that holds nothing (as ``book/x/`` → ``"folder"``: :func:`_refuse_foreign_build` knows the others
    by the files in them)."""
    out = book.parent
    files = {}
    for here, dirs, names in os.walk(book):
        if not dirs and not names:
            files[Path(here).relative_to(out).as_posix() + "/"] = "folder"
        for entry in names:
            path = Path(here, entry)
            if path.is_file() and not path.is_symlink():
                files[path.relative_to(out).as_posix()] = _sha256(path)
    _record(out, files, drop="book/")


def _note_parameters(executed: Path, values: dict, source: str) -> None:
    """Put a note under the executed notebook's title saying which parameters differ from the book's, so that a
    reader of the rendered page cannot take it for the book's own (stored, checked) page."""
    import nbformat

    nb = nbformat.read(executed, as_version=4)
    shown = ", ".join(f"`{k} = {v!r}`" for k, v in values.items()) or "the book's own parameters"
    prose = (
        " The text between the outputs was written for the book's own parameters: a number it quotes is the book's,"
        " not this run's; this run's numbers are in the outputs and the check."
        if values
        else ""
    )
    text = (
        ":::{note}\n"
        f"This page was re-run with {shown} (`python -m ldpcode rerun`). Its check compares nothing with the book's "
        f"stored numbers unless the parameters are the book's own. At other values its bounds and exact values are "
        f"checked afresh, and a paper's number is shown beside this run's without a verdict: the book's verdicts "
        f"weigh the paper's statements at the book's own settings.{prose}\n"
        ":::"
    )
    nb.metadata[NB_MARK] = {"notebook": source}  # what it re-runs (:func:`_same_source`); the manifest owns it
    first = next((c for c in nb.cells if c.cell_type == "markdown" and c.source.startswith("# ")), None)
    if first is None:  # no title cell: the note opens the page
        nb.cells.insert(0, nbformat.v4.new_markdown_cell(text))
    else:  # right under the title line
        title, _, rest = first.source.partition("\n")
        first.source = f"{title}\n\n{text}\n{rest}"
    nbformat.write(nb, executed)


def render_page(executed: Path, book: Path) -> Path:
    """Build ``executed`` (an executed notebook) as a one-page book in the folder ``book`` with the book's own
    configuration and assets; returns the HTML page. The build is offline (the book's MathJax is bundled)."""
    root = repo_root()
    book = Path(book).absolute()
    _remove_build(book)  # never a file this function did not write, nor one changed since
    book.mkdir(parents=True)
    try:
        page = _build(root, executed, book)
    except BaseException:  # a half build (a failure, Ctrl-C) is removed, not left unlisted to block the next
        shutil.rmtree(book, ignore_errors=True)
        raise
    _record_book(book)
    return page


def _build(root: Path, executed: Path, book: Path) -> Path:
    for item in ("_config.yml", "references.bib"):
        shutil.copy(root / item, book / item)
    for folder in ("_static", "_ext"):
        if (root / folder).is_dir():
            shutil.copytree(root / folder, book / folder, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(executed, book / executed.name)
    shutil.copy(root / "chapters" / "bibliography.md", book / "bibliography.md")  # where the citations point
    toc = f"format: jb-book\nroot: {executed.stem}\nchapters:\n  - file: bibliography\n"
    (book / "_toc.yml").write_text(toc, encoding="utf-8")
    cmd = [sys.executable, "-c", "from jupyter_book.cli.main import main; main()", "build", str(book)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    page = book / "_build" / "html" / f"{executed.stem}.html"
    if done.returncode != 0 or not page.exists():
        fd, log = tempfile.mkstemp(prefix=f"ldpcode-rerun-{executed.stem}-build-", suffix=".log")
        with os.fdopen(fd, "w", encoding="utf-8") as f:  # the system's temporary folder: OUT/book is removed
            f.write(f"$ {' '.join(cmd)}\nexit status {done.returncode}\n\n{done.stdout}\n{done.stderr}")
        how = f"exit status {done.returncode}" if done.returncode != 0 else "no page written"
        raise BuildFailed(
            f"the one-page build of {executed.name} failed (jupyter-book: {how}); its log is {log}, and the "
            f"executed notebook is {executed}"
        )
    return page


class BuildFailed(RuntimeError):
    """The one-page Jupyter Book build of a re-run failed: the message is one line naming the page, the file that
    holds the build's log and the executed notebook (``python -m ldpcode rerun`` prints it and exits with status 1;
    the build printed some 80 lines of traceback before)."""


if __name__ == "__main__":  # the command line is python -m ldpcode rerun: this module alone ran nothing and exited 0
    from ._validate import refuse_module_run

    refuse_module_run("rerun")
