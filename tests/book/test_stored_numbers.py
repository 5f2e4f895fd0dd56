"""The stored-number check can fail: a stored value moved beyond its tolerance makes both the notebook's
own check cell and nbval fail (issue 6). A minimal notebook of the book's shape (parameters cell, a
computation, a check cell ending with ``ldp.claims.check``) is stored and executed in a temporary book
folder (``LDPCODE_ROOT``): its check passes; then the stored number is moved beyond its tolerance and
nbval, run as CI runs it, fails on the check cell's AssertionError."""

import json
import os
import subprocess
import sys

import nbformat
import numpy as np
import pytest

from ldpcode import claims as C

NB = "chapters/demo/demo.ipynb"
CELLS = [
    ("markdown", "# A demonstration notebook"),
    ("code", "runs = 400  # parameters\nseed = 3"),
    (
        "code",
        "import numpy as np\nimport ldpcode as ldp\n"
        "x = np.random.default_rng(seed).standard_normal(runs)\nprint(f'mean {x.mean():.4f}')",
    ),
    (
        "code",
        "claims = [ldp.claims.reproducible('demo.mean', 'a test', reproduced=float(x.mean()),\n"
        "                                   se=float(x.std(ddof=1) / np.sqrt(runs)))]\n"
        f"ldp.claims.check({NB!r}, dict(runs=runs, seed=seed), claims)",
    ),
]


def _run(cmd, root, **env):
    return subprocess.run(
        cmd, cwd=root, capture_output=True, text=True, timeout=300, env={**os.environ, "LDPCODE_ROOT": str(root), **env}
    )


@pytest.mark.slow
def test_a_perturbed_stored_number_fails_the_check_and_nbval(tmp_path):
    root = tmp_path
    (root / "_toc.yml").write_text("root: intro\n")
    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell(src) if kind == "markdown" else nbformat.v4.new_code_cell(src)
            for kind, src in CELLS
        ]
    )
    nb.cells[1].metadata["tags"] = ["parameters"]
    (root / NB).parent.mkdir(parents=True)
    nbformat.write(nb, root / NB)
    # store the notebook's number (the same draws as its cell 2), then execute it: the kept outputs show the
    # check passing against the stored file, as after `python -m ldpcode.nbrun --write`
    x = np.random.default_rng(3).standard_normal(400)
    C.check(
        NB,
        dict(runs=400, seed=3),
        [C.reproducible("demo.mean", "a test", reproduced=float(x.mean()), se=float(x.std(ddof=1) / np.sqrt(400)))],
        write=True,
        root=root,
    )
    r = _run(
        [sys.executable, "-c", f"from pathlib import Path; from ldpcode.nbrun import run; run(Path({NB!r}))"], root
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert "FAIL" not in json.dumps(nbformat.read(root / NB, as_version=4).cells[-1].outputs)

    data = root / "data/demo/demo.json"
    stored = json.loads(data.read_text())
    stored["claims"][0]["reproduced"] += 1.5 * stored["claims"][0]["tolerance"]  # beyond the tolerance
    data.write_text(json.dumps(stored))
    r = _run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--nbval",
            "-p",
            "no:cacheprovider",
            "-q",
            "-o",
            "addopts=",
            "-o",
            "testpaths=",
            NB,
        ],
        root,
    )
    assert r.returncode != 0
    # the check cell itself raised (not merely an output that differs): nbval reports its AssertionError
    assert "AssertionError" in r.stdout and "FAIL" in r.stdout and "demo.mean" in r.stdout, r.stdout[-3000:]
