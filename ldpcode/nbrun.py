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
(``ldpcode.parameters``), run by papermill into a temporary folder so that neither the notebook nor
``data/`` changes. Each entry carries its date and the machine's core count.
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
    client.execute()
    for cell in nb.cells:  # keep the stored notebook free of run-specific metadata
        cell.get("metadata", {}).pop("execution", None)
    nbformat.write(nb, path)
    return time.perf_counter() - start


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
        data = json.loads(record_file.read_text()) if record_file.exists() else {}
        entry = data.setdefault(_key(path), {})
        entry[scale] = {
            "seconds": round(seconds, 1),
            "date": datetime.date.today().isoformat(),
            "cores": os.cpu_count(),
        }
        tmp = record_file.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(dict(sorted(data.items())), indent=1, ensure_ascii=False) + "\n")
        tmp.replace(record_file)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("notebooks", nargs="+", type=Path)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="store the notebook's numbers under data/ first")
    mode.add_argument("--tiny", action="store_true", help="time the notebook at its tiny parameters (nothing written)")
    args = ap.parse_args(argv)
    missing = [str(nb) for nb in args.notebooks if not nb.is_file() or nb.suffix != ".ipynb"]
    if missing:
        ap.error(f"not a notebook file: {', '.join(missing)}")
    if not args.write and not args.tiny:
        stale = [message for message in map(_stale_params, args.notebooks) if message]
        if stale:
            ap.error("\n".join(stale))
    for nb in args.notebooks:
        if args.tiny:
            seconds = run_tiny(nb)
            record(nb, "tiny", seconds)
            print(f"{nb}: at its tiny parameters ({seconds:.1f} s)", file=sys.stderr)
            continue
        if args.write:
            os.environ["LDPCODE_WRITE_CLAIMS"] = "1"
            print(f"{nb}: storing numbers ({run(nb):.1f} s)", file=sys.stderr)
            os.environ.pop("LDPCODE_WRITE_CLAIMS")
        seconds = run(nb)
        record(nb, "paper", seconds)
        print(f"{nb}: executed ({seconds:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
