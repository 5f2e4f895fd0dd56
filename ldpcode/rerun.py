"""Re-run one chapter notebook with new parameters and render it to HTML offline, through the book's own build.

``python -m ldpcode rerun chapters/ren2020/figure1.ipynb -p horizon 100000 -p runs 10 --out rerun/`` does three
things, each refusing bad input before any work:

1. checks the new values: every name must be a parameter the notebook declares (its cell tagged ``parameters``,
   :func:`ldpcode.parameters.parameter_names`; papermill itself only warns about an unknown name and would run at
   the paper's defaults), and the values, merged with the notebook's defaults, must pass its rules
   (:func:`ldpcode.parameters.check_values`), so a wrong type or an out-of-range value stops here, not after an
   hour of simulation;
2. executes the notebook with papermill (the kernel's working directory is the notebook's folder, as in the book),
   writing ``OUT/<name>.ipynb`` with a note under its title naming the new values; its check cell compares nothing
   with ``data/`` at other parameters and writes nothing there;
   The re-run stores nothing under ``data/`` even with ``LDPCODE_WRITE_CLAIMS=1`` in the environment, and it
   refuses (before any work) an ``OUT`` inside the book's ``chapters/``, ``data/`` or ``_build/``, an
   ``OUT/<name>.ipynb`` it did not write, and an ``OUT/book`` that is not its own earlier build
   (:func:`check_out`);
3. builds a one-page Jupyter Book in ``OUT/book`` from the book's own ``_config.yml``, ``references.bib``,
   ``_static/`` and ``_ext/`` (so MyST, the theorem boxes, the bibliography and the offline MathJax render as in
   the book; the citations link to a bibliography page beside it) and returns ``OUT/book/_build/html/<name>.html``.
   Links to the book's other pages are not part of a one-page build; they render as plain text.

Values on the command line are read as YAML (``-p horizon 100000`` an int, ``-p epsilons "[0.5, 1.0]"`` a list,
``-p policy LDP-UCB-B`` a string). Integers are strict, as in the book: ``-p horizon 1e6`` is refused.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from ._paths import repo_root
from .claims import WRITE_ENV


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


def parse_value(text: str):
    """A command-line value read as YAML (safe loader): ``100000`` → int, ``0.5`` → float, ``[0.1, 1]`` → list,
    ``true`` → bool, anything else the string itself."""
    import yaml

    if not isinstance(text, str):
        raise TypeError(f"a parameter value from the command line must be a string, got {text!r}")
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return text


def check_new_parameters(notebook: str, values: dict) -> dict:
    """Refuse a name ``notebook`` does not declare (ValueError listing its parameters, with the closest name), then
    check the merged values with the notebook's rules. Returns the merged values."""
    import difflib

    from .parameters import check_values, parameter_names

    names = parameter_names(notebook)
    for name in values:
        if name not in names:
            close = difflib.get_close_matches(name, names, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ValueError(f"{notebook} has no parameter {name!r}{hint}; its parameters: {', '.join(names)}")
    merged = {**{k: v for k, v in _defaults(repo_root() / notebook).items() if k in names}, **values}
    check_values(notebook, merged)
    return merged


def _relative(notebook) -> str:
    root = repo_root()
    path = Path(notebook)
    path = (Path.cwd() / path).resolve() if not path.is_absolute() else path.resolve()
    try:
        rel = path.relative_to(root)
    except ValueError:
        raise ValueError(f"notebook must be a chapter notebook under {root}, got {str(notebook)!r}") from None
    if rel.suffix != ".ipynb" or rel.parts[0] != "chapters" or not path.exists():
        raise ValueError(f"notebook must be an existing chapters/<chapter>/<name>.ipynb, got {str(notebook)!r}")
    return rel.as_posix()


def rerun(notebook, values: dict, out, *, render: bool = True, progress: bool = False) -> Path:
    """Re-run ``notebook`` (a path to a chapter notebook) with ``values`` (name → value) into the folder ``out``;
    returns the rendered HTML page (``render=True``) or the executed notebook. See the module docstring."""
    import papermill

    rel = _relative(notebook)
    if not isinstance(values, dict):
        raise TypeError(f"values must be a dict of parameter names to values, got {type(values).__name__}")
    check_new_parameters(rel, values)
    root = repo_root()
    out = Path(out).resolve()
    name = Path(rel).stem
    executed = out / f"{name}.ipynb"
    check_out(out, name)  # before any work: nothing of the book's or the user's is overwritten
    out.mkdir(parents=True, exist_ok=True)
    # a re-run never stores numbers, whatever the caller's environment says (LDPCODE_WRITE_CLAIMS=1 left set)
    saved = os.environ.pop(WRITE_ENV, None)
    try:
        papermill.execute_notebook(
            str(root / rel),
            str(executed),
            parameters=values,
            cwd=str((root / rel).parent),
            kernel_name="python3",
            progress_bar=progress,
        )
    finally:
        if saved is not None:
            os.environ[WRITE_ENV] = saved
    _note_parameters(executed, values)
    if not render:
        return executed
    return render_page(executed, out / "book")


#: the file that marks a folder ``OUT/book`` as a one-page build of ``rerun``, which a later re-run may replace
MARKER = ".ldpcode-rerun-build"
#: the metadata key that marks ``OUT/<name>.ipynb`` as written by ``rerun``
NB_MARK = "ldpcode_rerun"


def check_out(out: Path, name: str) -> None:
    """Refuse an output folder where the re-run would overwrite what it did not write: a folder inside the
    book's ``chapters/``, ``data/`` or ``_build/`` (or the book's root), an ``OUT/<name>.ipynb`` that is not
    an earlier re-run's notebook, or an ``OUT/book`` that is not an earlier re-run's build."""
    root = repo_root().resolve()
    out = Path(out).resolve()
    if out == root or any(out == root / d or root / d in out.parents for d in ("chapters", "data", "_build")):
        raise ValueError(
            f"--out {out} is inside the book's own files; choose a folder outside chapters/, data/ and _build/ "
            "(the default is rerun/)"
        )
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out {out} is a file, not a folder")
    executed = out / f"{name}.ipynb"
    if executed.exists() and not _is_rerun_notebook(executed):
        raise ValueError(f"{executed} exists and was not written by rerun; move it away or choose another --out")
    _refuse_foreign_build(out / "book")


def _refuse_foreign_build(book: Path) -> None:
    """A folder ``book`` that exists without rerun's marker is the user's: refuse to replace it."""
    if book.exists() and not (book / MARKER).exists():
        raise ValueError(f"{book} exists and is not a rerun build; move it away or choose another --out")


def _is_rerun_notebook(path: Path) -> bool:
    import json

    try:
        return bool(json.loads(path.read_text(encoding="utf-8")).get("metadata", {}).get(NB_MARK))
    except (OSError, ValueError):
        return False


def _note_parameters(executed: Path, values: dict) -> None:
    """Put a note under the executed notebook's title saying which parameters differ from the book's, so that a
    reader of the rendered page cannot take it for the book's own (stored, checked) page."""
    import nbformat

    nb = nbformat.read(executed, as_version=4)
    shown = ", ".join(f"`{k} = {v!r}`" for k, v in values.items()) or "the book's own parameters"
    text = (
        ":::{note}\n"
        f"This page was re-run with {shown} (`python -m ldpcode rerun`). Its check compares nothing with the book's "
        "stored numbers unless the parameters are the book's own; its verdicts are computed afresh at these values.\n"
        ":::"
    )
    nb.metadata[NB_MARK] = True  # a later re-run into the same folder may replace this notebook
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
    _refuse_foreign_build(book)  # never remove a folder this function did not build
    if book.exists():
        shutil.rmtree(book)
    book.mkdir(parents=True)
    (book / MARKER).write_text("a one-page build of `python -m ldpcode rerun`; a later re-run replaces it\n")
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
        raise RuntimeError(
            f"the one-page build failed ({' '.join(cmd)}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        )
    return page
