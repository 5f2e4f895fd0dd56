"""Execute chapter notebooks in place, for authors: ``python -m ldpcode.nbrun [--write | --tiny] NOTEBOOK...``.

With ``--write`` the notebook runs twice: first with ``LDPCODE_WRITE_CLAIMS=1`` to store its numbers
under ``data/``, then normally, so that the outputs kept in the notebook (which nbval compares on
every CI run) show the check passing against the stored file. Readers who want to re-run a notebook
with their own parameters use papermill instead (see the README).

Without ``--write`` (and without ``--tiny``) a notebook whose parameters cell differs from the params stored in
its ``data/`` file is refused before any run (:func:`ldpcode.claims.check_stored_params`): its own check would
compare nothing with data/ and pass, while data/ describes another experiment.

Each run is timed into ``data/execution.json`` (:data:`RECORD`), the record from which the book's
execution-statistics page is built: the wall time of the last run at the paper's scale (the notebook as
committed), and with ``--tiny`` the wall time at the notebook's ``tiny`` parameters
(``ldpcode.parameters``), run by papermill into a temporary folder so that neither the notebook nor its numbers
under ``data/`` change (``--tiny`` writes only its time, into the record). Each entry carries its date and the
machine's core count. A record that is not one (invalid JSON, another shape) is refused before any run; a notebook
is rewritten through a temporary file and a rename, so a run killed as it writes leaves the notebook whole.

Only the book's own chapter notebooks (``chapters/<chapter>/<name>.ipynb`` under :func:`ldpcode._paths.repo_root`)
are run: any other path is refused before any work, as is a file that is not a readable notebook (one line, exit
status 2). A notebook that fails in its kernel ends the command with one line naming the cell and its error (exit
status 1); ``--debug`` shows the traceback instead.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from ._paths import repo_root

#: the execution record under the book's top folder, one entry per notebook (keys ``paper`` and ``tiny``),
#: written by :func:`record`
RECORD = Path("data") / "execution.json"


def run(path: Path, timeout: int = 3600) -> float:
    import nbclient
    import nbformat

    nb = nbformat.read(path, as_version=4)
    # papermill needs a kernel name in the notebook (jupytext-made notebooks have none)
    nb.metadata.setdefault("kernelspec", {"name": "python3", "display_name": "Python 3", "language": "python"})
    start = time.perf_counter()
    client = nbclient.NotebookClient(
        nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    try:
        client.execute()
    except Exception as err:  # name the cell that failed (nbclient does not): its execution count
        failed = [c for c in nb.cells if any(o.get("output_type") == "error" for o in c.get("outputs", []))]
        if failed:
            err.exec_count = failed[0].get("execution_count")
        raise
    for cell in nb.cells:  # keep the stored notebook free of run-specific metadata
        cell.get("metadata", {}).pop("execution", None)
    _write_atomic(path, nbformat.writes(nb))
    return time.perf_counter() - start


def _write_atomic(path: Path, text: str) -> None:
    """Write ``text`` (ending in a newline, as ``nbformat.write``) to ``path`` through a temporary file in its folder
    and a rename, the file's mode kept (:func:`ldpcode.claims.store._write_text_atomic`, the stored numbers' own): a
    run killed while it wrote left a truncated chapter notebook."""
    from .claims.store import _write_text_atomic

    _write_text_atomic(path, text if text.endswith("\n") else text + "\n")


def run_tiny(path: Path) -> float:
    """Run ``path`` at its ``tiny`` parameters into a temporary folder (never ``data/``, never the notebook)."""
    import papermill

    from . import parameters

    tiny = parameters.rules_for(_key(path)).tiny
    env = os.environ.pop("LDPCODE_WRITE_CLAIMS", None)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            papermill.execute_notebook(
                str(path),
                str(Path(tmp) / path.name),
                parameters=dict(tiny),
                cwd=str(path.parent),
                kernel_name="python3",
                progress_bar=False,
            )
            return time.perf_counter() - start
    finally:
        if env is not None:
            os.environ["LDPCODE_WRITE_CLAIMS"] = env


def _key(path: Path) -> str:
    """``chapters/<chapter>/<name>.ipynb`` for a notebook path given from anywhere."""
    path = path.resolve()
    try:
        return path.relative_to(repo_root()).as_posix()
    except ValueError:
        return path.as_posix()


def _stale_params(path: Path) -> str | None:
    """Why ``path`` must not run without ``--write`` (its parameters cell differs from the params stored in its
    data/ file: the run would compare nothing and pass, :func:`ldpcode.claims.check_stored_params`), or None."""
    from .claims import check_stored_params

    key = _key(path)
    if not (key.startswith("chapters/") and key.count("/") == 2):
        return None  # not a chapter notebook of this book: it has no data/ file
    try:
        check_stored_params(key)
    except ValueError as exc:
        return str(exc)
    return None


def record(path: Path, scale: str, seconds: float, record_file: Path | None = None) -> None:
    """Store ``seconds`` as the wall time of ``path`` at ``scale`` ('paper' or 'tiny') in the record (default:
    :data:`RECORD` in the book's top folder), with today's date and the core count; the file is replaced whole
    (written beside it, then renamed)."""
    if scale not in ("paper", "tiny"):
        raise ValueError(f"scale must be 'paper' or 'tiny', got {scale!r}")
    import fcntl

    record_file = repo_root() / RECORD if record_file is None else record_file
    record_file.parent.mkdir(parents=True, exist_ok=True)
    with open(record_file.with_suffix(".lock"), "w") as lock:  # two nbrun processes at once
        fcntl.flock(lock, fcntl.LOCK_EX)
        data = read_record(record_file)
        entry = data.setdefault(_key(path), {})
        entry[scale] = {
            "seconds": round(seconds, 1),
            "date": datetime.date.today().isoformat(),
            "cores": os.cpu_count(),
        }
        tmp = record_file.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(dict(sorted(data.items())), indent=1, ensure_ascii=False) + "\n")
        tmp.replace(record_file)


def read_record(record_file: Path) -> dict:
    """The execution record ``record_file`` ({} if there is none): a JSON object of notebooks, each an object of
    scales ('paper', 'tiny'), each an object. Anything else is a one-line ValueError naming the file, which
    :func:`main` raises before any run (it was read after the run, an hour of it, and ended in a traceback)."""
    if not record_file.exists():
        return {}
    try:
        data = json.loads(record_file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"the execution record {record_file} cannot be read ({err}); restore it from git") from None
    entries = data.values() if isinstance(data, dict) else ()
    if not isinstance(data, dict) or not all(
        isinstance(entry, dict) and all(k in ("paper", "tiny") and isinstance(v, dict) for k, v in entry.items())
        for entry in entries
    ):
        raise ValueError(
            f"the execution record {record_file} is not an object of notebooks, each with its 'paper' and 'tiny' "
            "times; restore it from git"
        )
    return data


PROG = "python -m ldpcode.nbrun"


def _refuse(message: str) -> None:
    """An ordinary error: one line, exit status 2 (as ``python -m ldpcode``)."""
    print(f"{PROG}: error: {' '.join(message.split())}", file=sys.stderr)
    raise SystemExit(2)


def _outside_chapters(path: Path) -> bool:
    """Whether ``path`` is not a notebook ``chapters/<chapter>/<name>.ipynb`` of the book (:func:`repo_root`)."""
    key = _key(path)
    return not (key.startswith("chapters/") and key.count("/") == 2 and not key.startswith("/"))


def _unreadable(path: Path) -> str | None:
    """Why ``path`` cannot be read as a notebook (invalid JSON, not nbformat 4), or None."""
    import nbformat

    try:
        nbformat.read(path, as_version=4)
    except (OSError, ValueError, KeyError, AttributeError, TypeError) as err:  # NotJSONError is a ValueError
        text = " ".join(str(err).split())
        return f"{path}: not a readable notebook ({type(err).__name__}: {text[:200]})"
    return None


def _failure(nb: Path, err: BaseException) -> str | None:
    """One line for a notebook that failed in its kernel (nbclient's or papermill's error), or None."""
    name = type(err).__name__
    if name not in ("CellExecutionError", "PapermillExecutionError"):
        return None
    where = f" in cell {err.exec_count}" if getattr(err, "exec_count", None) is not None else ""
    evalue = " ".join(str(err.evalue).split())
    return f"{nb}: the notebook stopped{where}: {err.ename}: {evalue[:500]} (--debug shows the traceback)"


class _Parser(argparse.ArgumentParser):
    """argparse with its refusal on one line (:func:`_refuse`) and no abbreviated option (``--wr`` for ``--write``)."""

    def __init__(self, **kwargs):
        super().__init__(allow_abbrev=False, **kwargs)

    def error(self, message):  # noqa: D102 (argparse's hook)
        full = " (options are written in full: --write, --tiny, --debug)" if "unrecognized" in message else ""
        _refuse(f"{message}{full} (see {PROG} --help)")


def main(argv=None) -> int:
    ap = _Parser(prog=PROG, description=__doc__.splitlines()[0])
    ap.add_argument("notebooks", nargs="+", type=Path)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="store the notebook's numbers under data/ first")
    mode.add_argument(
        "--tiny",
        action="store_true",
        help="time the notebook at its tiny parameters, in a temporary folder; only its time is written, into "
        "data/execution.json (the notebook and its numbers under data/ are left as they are)",
    )
    ap.add_argument("--debug", action="store_true", help="show the traceback of a failing notebook")
    args = ap.parse_args(argv)
    missing = [str(nb) for nb in args.notebooks if not nb.is_file() or nb.suffix != ".ipynb"]
    if missing:
        _refuse(f"not a notebook file: {', '.join(missing)}")
    links = [str(nb) for nb in args.notebooks if nb.is_symlink()]
    if links:  # the run rewrites the path it is given: a link would become a plain file, the book's notebook stale
        _refuse(f"a symbolic link, not the notebook itself (give the chapter notebook's own path): {', '.join(links)}")
    outside = [str(nb) for nb in args.notebooks if _outside_chapters(nb)]
    if outside:  # nbrun rewrites a notebook in place and records it: only the book's own chapter notebooks
        _refuse(
            f"not a chapter notebook of the book at {repo_root()} (chapters/<chapter>/<name>.ipynb): "
            f"{', '.join(outside)}"
        )
    unreadable = [message for message in map(_unreadable, args.notebooks) if message]
    if unreadable:
        _refuse("; ".join(unreadable))
    if not args.write and not args.tiny:
        stale = [message for message in map(_stale_params, args.notebooks) if message]
        if stale:
            _refuse("; ".join(stale))
    try:  # before any run: the record is written after each, at the end of what may be an hour
        read_record(repo_root() / RECORD)
    except ValueError as err:
        _refuse(str(err))
    for nb in args.notebooks:
        try:
            _one(nb, args)
        except Exception as err:
            line = None if args.debug else _failure(nb, err)
            if line is None:
                raise
            print(f"{PROG}: error: {line}", file=sys.stderr)
            return 1
    return 0


def _one(nb: Path, args) -> None:
    if args.tiny:
        seconds = run_tiny(nb)
        record(nb, "tiny", seconds)
        print(f"{nb}: at its tiny parameters ({seconds:.1f} s)", file=sys.stderr)
        return
    if args.write:
        os.environ["LDPCODE_WRITE_CLAIMS"] = "1"
        try:
            print(f"{nb}: storing numbers ({run(nb):.1f} s)", file=sys.stderr)
        finally:
            os.environ.pop("LDPCODE_WRITE_CLAIMS", None)
    seconds = run(nb)
    record(nb, "paper", seconds)
    print(f"{nb}: executed ({seconds:.1f} s)", file=sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
