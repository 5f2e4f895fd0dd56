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
   The re-run stores nothing under ``data/`` even with ``LDPCODE_WRITE_CLAIMS=1`` in the environment, and it
   refuses (before any work) an ``OUT`` inside the book's ``chapters/``, ``data/`` or ``_build/``, an
   ``OUT/<name>.ipynb`` it did not write, and an ``OUT/book`` that is not its own earlier build
   (:func:`check_out`);
3. builds a one-page Jupyter Book in ``OUT/book`` from the book's own ``_config.yml``, ``references.bib``,
   ``_static/`` and ``_ext/`` (so MyST, the theorem boxes, the bibliography and the offline MathJax render as in
   the book; the citations link to a bibliography page beside it) and returns ``OUT/book/_build/html/<name>.html``.
   Links to the book's other pages are not part of a one-page build; they render as plain text.

Values on the command line are read as YAML (``-p horizon 100000`` an int, ``-p epsilons "[0.5, 1.0]"`` a list,
``-p policy LDP-UCB-B`` a string). Where the notebook's own default is an integer (or a list of integers), a whole
number written as a float is read as that integer: ``-p horizon 1e6`` is ``1000000``; ``-p horizon 1.5`` is
refused by the notebook's rules. A value of more than :data:`MAX_ITEMS` items (YAML aliases can make a
324-character value describe billions) is refused before anything reads it.

``--tiny`` runs the notebook at its tiny parameters (:attr:`ldpcode.parameters.Notebook.tiny`, the edge values
that run the whole body in seconds) with the ``-p`` values on top. A re-run that changes some parameters and
leaves others at the paper's scale says which (``ratio_horizon stays at 10,000,000``), before it starts.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

from ._paths import in_book_folders, repo_root
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


MAX_ITEMS = 10**5
"""The most numbers, strings and containers one command-line value may hold, counted as its text would be
expanded (YAML's aliases repeat a node without repeating its text)."""


def parse_value(text: str):
    """A command-line value read as YAML (safe loader): ``100000`` → int, ``0.5`` → float, ``[0.1, 1]`` → list,
    ``true`` → bool, ``1e6`` (which YAML 1.1 reads as a string) → 1e6 the float, anything else the string
    itself. A value of more than :data:`MAX_ITEMS` items is refused (ValueError) before it is formatted."""
    import yaml

    if not isinstance(text, str):
        raise TypeError(f"a parameter value from the command line must be a string, got {type(text).__name__}")
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return value
        return number if value.strip().lower() not in ("inf", "nan", "infinity", "-inf") else value
    _count_items(value, text)
    return value


def _count_items(value, text: str) -> None:
    """Refuse a value whose expansion holds more than :data:`MAX_ITEMS` items; stops counting at the limit."""
    stack, seen = [value], 0
    while stack:
        item = stack.pop()
        seen += 1
        if seen > MAX_ITEMS:
            raise ValueError(
                f"the value {text[:40]!r}{'...' if len(text) > 40 else ''} expands to more than {MAX_ITEMS:,} items; "
                "a notebook parameter is a number, a string or a short list"
            )
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)


def _as_default_type(value, default):
    """``value`` with its whole floats made integers where the notebook's ``default`` is an integer (or a list of
    them): ``1e6`` for a horizon is 1000000. Anything else is returned unchanged, for the rules to judge."""

    def is_int(x):
        return isinstance(x, int) and not isinstance(x, bool)

    def whole(x):
        return isinstance(x, float) and x.is_integer() and abs(x) <= 2**63

    if is_int(default) and whole(value):
        return int(value)
    if isinstance(default, (list, tuple)) and default and all(is_int(d) for d in default):
        if isinstance(value, (list, tuple)) and all(is_int(v) or whole(v) for v in value):
            return type(value)(int(v) if whole(v) else v for v in value)
    return value


def check_new_parameters(notebook: str, values: dict) -> dict:
    """Refuse a name ``notebook`` does not declare (ValueError listing its parameters, with the closest name), then
    check the merged values with the notebook's rules. Returns the merged values (whole floats given for an
    integer parameter made integers, :func:`_as_default_type`)."""
    import difflib

    from .cells import parameter_names
    from .parameters import check_values

    names = parameter_names(notebook)
    for name in values:
        if name not in names:
            close = difflib.get_close_matches(name, names, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ValueError(f"{notebook} has no parameter {name!r}{hint}; its parameters: {', '.join(names)}")
    defaults = {k: v for k, v in _defaults(repo_root() / notebook).items() if k in names}
    given = {k: _as_default_type(v, defaults.get(k)) for k, v in values.items()}
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


def rerun(
    notebook, values: dict, out, *, render: bool = True, progress: bool = False, tiny: bool = False, notes=None
) -> Path:
    """Re-run ``notebook`` (a path to a chapter notebook) with ``values`` (name → value) into the folder ``out``;
    returns the rendered HTML page (``render=True``) or the executed notebook. ``tiny``: start from the notebook's
    tiny parameters instead of its defaults. ``progress``: a bar over cells (papermill's). ``notes``: a stream
    (e.g. ``sys.stderr``) told, before the run, which parameters stay at the paper's scale. See the module
    docstring."""
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
    check_out(out, name)  # before any work: nothing of the book's or the user's is overwritten
    out.mkdir(parents=True, exist_ok=True)
    # a re-run never stores numbers, whatever the caller's environment says (LDPCODE_WRITE_CLAIMS=1 left set)
    saved = os.environ.pop(WRITE_ENV, None)
    # papermill warns of every parameters-cell line with a comment it does not parse, and then of the parameter on
    # that line as "unknown": noise for a reader, as the names were checked above against the cell itself
    for logger in ("papermill.translators", "papermill"):
        logging.getLogger(logger).setLevel(logging.ERROR)
    try:
        papermill.execute_notebook(
            str(root / rel),
            str(executed),
            parameters=values,
            cwd=str((root / rel).parent),
            kernel_name="python3",
            progress_bar=progress,
            # the kernel's "running over TCP without encryption" warning, and its log of the interrupt papermill sends
            # at shutdown, are noise on a reader's terminal (an error in a cell is reported as the cell's error)
            extra_arguments=["--IPKernelApp.log_level=CRITICAL"],
        )
    finally:
        if saved is not None:
            os.environ[WRITE_ENV] = saved
    _note_parameters(executed, values)
    if not render:
        return executed
    if notes is not None:
        print("rendering the page (a one-page Jupyter Book build, about 15 s) ...", file=notes)
    return render_page(executed, out / "book")


#: the file that marks a folder ``OUT/book`` as a one-page build of ``rerun``, which a later re-run may replace
MARKER = ".ldpcode-rerun-build"
#: the metadata key that marks ``OUT/<name>.ipynb`` as written by ``rerun``
NB_MARK = "ldpcode_rerun"


def check_out(out: Path, name: str) -> None:
    """Refuse an output folder where the re-run would overwrite what it did not write: a folder inside the
    book's ``chapters/``, ``data/`` or ``_build/`` (or the book's root), an ``OUT/<name>.ipynb`` that is not
    an earlier re-run's notebook, or an ``OUT/book`` that is not an earlier re-run's build."""
    out = Path(out).resolve()
    if in_book_folders(out):
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
    prose = (
        " The text between the outputs was written for the book's own parameters: a number it quotes is the book's,"
        " not this run's; this run's numbers are in the outputs and the check."
        if values
        else ""
    )
    text = (
        ":::{note}\n"
        f"This page was re-run with {shown} (`python -m ldpcode rerun`). Its check compares nothing with the book's "
        f"stored numbers unless the parameters are the book's own; its verdicts are computed afresh at these values.{prose}\n"
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
