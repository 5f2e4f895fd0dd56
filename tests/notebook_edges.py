"""Shared by tests/book/test_notebook_edges_*.py: run a notebook's whole body at its ``tiny`` parameters.

Every entry of ``ldpcode.parameters.notebook_rules()`` holds ``tiny``: values at the edges its rules accept
(fewest runs, shortest horizon, shortest lists), over the notebook's parameters cell. The notebook's code cells
run in order in an IPython shell inside this process, from the notebook's folder, with the tiny values assigned
right after the tagged parameters cell (where papermill injects them) and the inline backend, so every figure
goes through the book's PNG formatter as in a kernel; every cell must succeed. So a value the rules let through
but the body cannot run (one run where a standard error needs two, a horizon below a hard-coded checkpoint)
fails here rather than in a reader's last cell. At the tiny parameters, which differ from the stored ones, the
check cell compares nothing with ``data/`` and writes nothing: the test asserts both (the check table's
message, and ``data/`` unchanged byte for byte).

Why in this process and not through papermill: a kernel's start and its imports took 2.6 of the 4.9 s of a
typical run, 40 times over (about 100 worker-seconds of the test command); nbval still runs every notebook in
its own kernel at its stored parameters. The shell is discarded after each run, and matplotlib's settings and
backend are restored, so no later test in the worker sees it.

The tests are split by chapter into a few files so that pytest-xdist (``--dist loadfile``: one file per
worker) shares them between the two workers of the README's test command.
"""

from __future__ import annotations

import glob
import hashlib
import warnings
from pathlib import Path

import pytest

from ldpcode import claims
from ldpcode import parameters as P
from ldpcode.claims.store import _normalise

ROOT = Path(__file__).resolve().parent.parent
NOT_COMPARED = "parameters differ from the stored ones: nothing compared with data/, nothing overwritten"


def notebooks(*chapters: str) -> list:
    """The notebooks of ``chapters`` that have parameters: a page without any (zheng2020/table1, which reads stored
    numbers) has no edge to run, and its one run is nbval's."""
    return sorted(k for k in P.notebook_rules() if k.split("/")[1] in chapters and P.rules_for(k).names)


def _data_digest() -> dict:
    return {
        p: hashlib.sha256(Path(p).read_bytes()).hexdigest()
        for p in sorted(glob.glob(str(ROOT / "data" / "**" / "*.json"), recursive=True))
    }


def _run_in_shell(source: Path, tiny: dict) -> tuple[str | None, str]:
    """Run ``source``'s code cells in a fresh IPython shell (module docstring). Returns (the first failure as
    "cell i: error", or None; the text of every output)."""
    import matplotlib
    import matplotlib.pyplot as plt
    import nbformat
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    nb = nbformat.read(source, as_version=4)
    backend, failure = matplotlib.get_backend(), None
    # a new shell every time, whatever ran before in this worker: its prompt count starts at Out[0]; a shell some
    # other code made is set aside and put back afterwards
    previous = {k: k._instance for k in InteractiveShell.mro() if "_instance" in vars(k)}
    InteractiveShell.clear_instance()
    shell = InteractiveShell.instance()
    shell.enable_gui = lambda gui=None: None  # the inline backend needs no event loop
    try:
        # warnings go to the outputs, as a kernel's go to the cell's stderr (UniformPlayWarning at tiny horizons)
        with matplotlib.rc_context(), capture_output() as cap, warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            shell.enable_matplotlib("inline")
            for i, cell in enumerate(nb.cells):
                if cell.cell_type != "code":
                    continue
                result = shell.run_cell(cell.source, store_history=False)
                if not result.success:
                    err = result.error_in_exec or result.error_before_exec
                    failure = f"cell {i}: {type(err).__name__}: {err}"
                    break
                if "parameters" in cell.metadata.get("tags", []):
                    shell.user_ns.update(tiny)
            plt.close("all")
    finally:
        InteractiveShell.clear_instance()
        for klass, instance in previous.items():
            klass._instance = instance
        plt.switch_backend(backend)
    texts = [cap.stdout] + [str(v) for o in cap.outputs for k, v in o.data.items() if k.startswith("text/")]
    texts += [f"{w.category.__name__}: {w.message}" for w in caught]
    return failure, "\n".join(texts)


def run_tiny(path: str, tmp_path: Path, monkeypatch) -> None:
    """Run ``path`` at ``notebook_rules()[path].tiny``; fail with the failing cell's error otherwise."""
    spec = P.rules_for(path)
    stored = claims.load(path)
    assert stored is None or stored["params"] != _normalise({**stored["params"], **spec.tiny}), (
        f"{path}: tiny must differ from the stored parameters"
    )
    monkeypatch.delenv(claims.WRITE_ENV, raising=False)  # never store numbers from a tiny run
    monkeypatch.setenv("LDPCODE_WORKERS", "1")  # two notebooks at once on two cores
    source = ROOT / path
    monkeypatch.chdir(source.parent)
    before = _data_digest()
    failure, text = _run_in_shell(source, dict(spec.tiny))
    if failure:
        pytest.fail(
            f"{path} at its tiny parameters {spec.tiny} (which its rules accept) fails in {failure}", pytrace=False
        )
    assert _data_digest() == before, f"{path}: a run at the tiny parameters changed a file under data/"
    if stored is not None and "nb.check(" in source.read_text():
        assert NOT_COMPARED in text, f"{path}: the check cell must say it compared nothing"
