"""Execute chapter notebooks in place, for authors: ``python -m ldpcode.nbrun [--write] NOTEBOOK...``.

With ``--write`` the notebook runs twice: first with ``LDPCODE_WRITE_CLAIMS=1`` to store its numbers
under ``data/``, then normally, so that the outputs kept in the notebook (which nbval compares on
every CI run) show the check passing against the stored file. Readers who want to re-run a notebook
with their own parameters use papermill instead (see the README).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path


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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("notebooks", nargs="+", type=Path)
    ap.add_argument("--write", action="store_true", help="store the notebook's numbers under data/ first")
    args = ap.parse_args(argv)
    for nb in args.notebooks:
        if args.write:
            os.environ["LDPCODE_WRITE_CLAIMS"] = "1"
            print(f"{nb}: storing numbers ({run(nb):.1f} s)", file=sys.stderr)
            os.environ.pop("LDPCODE_WRITE_CLAIMS")
        print(f"{nb}: executed ({run(nb):.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
