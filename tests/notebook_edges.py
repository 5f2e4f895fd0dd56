"""Shared by tests/book/test_notebook_edges_*.py: run a notebook's whole body at its ``tiny`` parameters.

Every entry of ``ldpcode.parameters.notebook_rules()`` holds ``tiny``: values at the edges its rules accept
(fewest runs, shortest horizon, shortest lists), over the notebook's parameters cell. papermill runs the
notebook there, from the notebook's folder, with the output in ``tmp_path``; every cell must succeed. So a
value the rules let through but the body cannot run (one run where a standard error needs two, a horizon
below a hard-coded checkpoint) fails here rather than in a reader's last cell. At the tiny parameters,
which differ from the stored ones, the check cell compares nothing with ``data/`` and writes nothing:
the test asserts both (the check table's message, and ``data/`` unchanged byte for byte).

The tests are split by chapter into a few files so that pytest-xdist (``--dist loadfile``: one file per
worker) shares them between the two workers of the README's test command.
"""

from __future__ import annotations

import glob
import hashlib
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


def _outputs_text(nb) -> str:
    parts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            parts.append(str(out.get("text", "")))
            parts += [str(v) for k, v in out.get("data", {}).items() if k.startswith("text/")]
    return "\n".join(parts)


def run_tiny(path: str, tmp_path: Path, monkeypatch) -> None:
    """papermill ``path`` at ``notebook_rules()[path].tiny``; fail with the failing cell's error otherwise."""
    papermill = pytest.importorskip("papermill")
    import nbformat

    spec = P.rules_for(path)
    stored = claims.load(path)
    assert stored is None or stored["params"] != _normalise({**stored["params"], **spec.tiny}), (
        f"{path}: tiny must differ from the stored parameters"
    )
    monkeypatch.delenv(claims.WRITE_ENV, raising=False)  # never store numbers from a tiny run
    monkeypatch.setenv("LDPCODE_WORKERS", "1")  # two notebooks at once on two cores
    source = ROOT / path
    out = tmp_path / source.name
    before = _data_digest()
    failure = None
    try:
        papermill.execute_notebook(
            str(source),
            str(out),
            parameters=dict(spec.tiny),
            cwd=str(source.parent),
            kernel_name="python3",
            progress_bar=False,
            log_output=False,
        )
    except papermill.PapermillExecutionError as e:
        failure = (
            f"{path} at its tiny parameters {spec.tiny} (which its rules accept) fails in cell "
            f"{e.cell_index}: {e.ename}: {e.evalue}"
        )
    if failure:
        pytest.fail(failure, pytrace=False)
    assert _data_digest() == before, f"{path}: a run at the tiny parameters changed a file under data/"
    executed = nbformat.read(out, as_version=4)
    if stored is not None and "nb.check(" in "".join(c.source for c in executed.cells):
        assert NOT_COMPARED in _outputs_text(executed), f"{path}: the check cell must say it compared nothing"
