"""Parameters, paths and files: where a notebook's stored numbers live, and how they are read and written.

:func:`check_parameters` checks a notebook's parameters (the rules are in :mod:`ldpcode.parameters`);
:func:`data_path` maps ``chapters/<chapter>/<name>.ipynb`` to ``data/<chapter>/<name>.json``; :func:`load`
reads that file back; :func:`write_atomic` writes it through a temporary file and a rename. Writing
happens only when asked: :func:`env_flag` reads the environment variable ``WRITE_ENV``
(``LDPCODE_WRITE_CLAIMS``).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from .._paths import repo_root
from ..parameters import check as _check_parameters

WRITE_ENV = "LDPCODE_WRITE_CLAIMS"
_TRUE, _FALSE = ("1", "true", "yes"), ("", "0", "false", "no")


def env_flag(name: str) -> bool:
    """A boolean environment variable: ``1``, ``true``, ``yes`` (any case) mean yes; unset, empty, ``0``,
    ``false``, ``no`` mean no; anything else is a ValueError naming the variable."""
    raw = os.environ.get(name, "")
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ValueError(
        f"environment variable {name} must be one of 1, true, yes (write) or 0, false, no, empty "
        f"(do not write), got {raw!r}"
    )


def check_parameters(notebook: str, namespace: dict) -> None:
    """Check a notebook's parameters before any work: ``ldp.claims.check_parameters(
    "chapters/<chapter>/<name>.ipynb", globals())`` in the cell right after the parameters cell.

    The rules (type, range, finiteness, consistency) are the notebook's entry in
    :data:`ldpcode.parameters.NOTEBOOKS`; a bad value raises TypeError or ValueError naming the parameter,
    the value and what is allowed, and a name papermill injected that the notebook does not declare (a
    misspelt ``-p horizn 100000``) raises ValueError. Returns None, so the cell prints nothing."""
    _check_parameters(notebook, namespace)


def data_path(notebook: str, root: Path | None = None) -> Path:
    """``chapters/ren2020/figure1.ipynb`` -> ``<root>/data/ren2020/figure1.json``."""
    p = Path(notebook)
    if not str(notebook).endswith(".ipynb") or not p.name:
        raise ValueError(f"notebook must be a path like 'chapters/<chapter>/<name>.ipynb', got {notebook!r}")
    parts = p.with_suffix(".json").parts
    if parts[0] != "chapters" or len(parts) != 3 or ".." in parts:
        raise ValueError(f"notebook must be a path like 'chapters/<chapter>/<name>.ipynb', got {notebook!r}")
    return (root or repo_root()).joinpath("data", *parts[1:])


def _normalise(obj):
    return json.loads(json.dumps(obj, sort_keys=True))


def _read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ValueError(
            f"stored numbers {path} are not valid JSON ({e}); restore the file from git or re-run "
            "its notebook with `python -m ldpcode.nbrun --write`"
        ) from e


def load(notebook: str, root: Path | None = None) -> dict | None:
    """The stored file of ``notebook`` as a dict (claims as plain dicts), or None if there is none."""
    path = data_path(notebook, root)
    if not path.exists():
        return None
    return _read_json(path)


def write_atomic(path: Path, payload: dict) -> None:
    """Write JSON to ``path`` through a temporary file and a rename, so a killed or interrupted run leaves the
    old file (and, but for SIGKILL, no temporary file); the file keeps its mode."""

    def dump(fh):
        json.dump(payload, fh, indent=1, sort_keys=False, ensure_ascii=False)
        fh.write("\n")

    _replace_atomic(path, dump)


def _write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` as :func:`write_atomic` does."""
    _replace_atomic(path, lambda fh: fh.write(text))


def _replace_atomic(path: Path, write) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    try:  # keep the file's mode; a new file gets the usual one (mkstemp's own is 0600)
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
