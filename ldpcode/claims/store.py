"""Parameters, paths and files: where a notebook's stored numbers live, and how they are read and written.

:func:`check_parameters` checks a notebook's parameters (the rules are in :mod:`ldpcode.parameters`);
:func:`data_path` maps ``chapters/<chapter>/<name>.ipynb`` to ``data/<chapter>/<name>.json``; :func:`load`
reads that file back; :func:`write_atomic` writes it through a temporary file and a rename. Writing
happens only when asked: :func:`env_flag` reads the environment variable ``WRITE_ENV``
(``LDPCODE_WRITE_CLAIMS``).

:func:`check_stored_params` refuses a notebook whose parameters cell no longer holds the params stored in its
data/ file (a default moved without ``nbrun --write``: the notebook's own check would then compare nothing and
pass); ``tests/book/test_stored_params.py`` runs it on every notebook, and ``python -m ldpcode.nbrun`` (without
``--write``) before any run.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path

from .._paths import new_file_mode, repo_root
from ..parameters import check as _check_parameters
from ..cells import parameter_defaults

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
    """Check a notebook's parameters before any work. The notebooks call it through their contract,
    ``nb = ldp.book.notebook("chapters/<chapter>/<name>.ipynb", globals())`` (:func:`ldpcode.book.notebook`), in
    the cell right after the parameters cell; the tests call it directly.

    The rules (type, range, finiteness, consistency) are the notebook's entry in
    :func:`ldpcode.parameters.notebook_rules`; a bad value raises TypeError or ValueError naming the parameter,
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
    """The stored numbers in ``path``: a JSON object with the ``"notebook"`` (a string) and the ``"claims"`` (a list
    of objects) that :func:`write_atomic` wrote there; anything else is a one-line ValueError naming the file and
    what is wrong (a file holding ``{}`` ended ``python -m ldpcode findings`` in a KeyError traceback)."""
    try:
        payload = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ValueError(
            f"stored numbers {path} are not valid JSON ({e}); restore the file from git or re-run "
            "its notebook with `python -m ldpcode.nbrun --write`"
        ) from e
    wrong = _misshapen(payload)
    if wrong:
        raise ValueError(
            f"stored numbers {path} are not a notebook's stored numbers ({wrong}); restore the file from git or "
            "re-run its notebook with `python -m ldpcode.nbrun --write`"
        )
    return payload


def _misshapen(payload) -> str | None:
    """What keeps ``payload`` from being a file of stored numbers (:func:`_read_json`), or None."""

    def kind(value) -> str:  # in JSON's words
        names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
        return names.get(type(value), "a number")

    if not isinstance(payload, dict):
        return f"it holds {kind(payload)}, not an object with a notebook and its claims"
    if not isinstance(payload.get("notebook"), str):
        return (
            f"its 'notebook' is {'missing' if 'notebook' not in payload else kind(payload['notebook'])}, not a string"
        )
    claims = payload.get("claims")
    if not isinstance(claims, list):
        return f"its 'claims' is {'missing' if 'claims' not in payload else kind(claims)}, not an array"
    bad = next((i for i, claim in enumerate(claims) if not isinstance(claim, dict)), None)
    return None if bad is None else f"its claim {bad} is {kind(claims[bad])}, not an object"


def load(notebook: str, root: Path | None = None) -> dict | None:
    """The stored file of ``notebook`` as a dict (claims as plain dicts), or None if there is none."""
    path = data_path(notebook, root)
    if not path.exists():
        return None
    return _read_json(path)


def _same(a, b) -> bool:
    """``a == b`` with the types JSON keeps: an int is not a float (``1`` is not ``1.0``), a bool not an int; a
    list and a tuple are the same (a tuple comes back from JSON as a list); NaN equals NaN."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if type(a) is not type(b):
        return False
    if isinstance(a, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def _short(value) -> str:
    """A value cut short before it is formatted (a list of 10**6 items is not printed whole): the package's one
    bounded repr, :func:`ldpcode._validate.one_line`, at 80 characters."""
    from .._validate import one_line

    return one_line(value, 80)


def params_differences(notebook: str, cell: dict, stored: dict) -> list[str]:
    """One line per parameter whose value in the notebook's parameters cell (``cell``, as
    :func:`ldpcode.cells.parameter_defaults` reads it) is not the one in its data/ file's ``"params"``
    (``stored``), compared by :func:`_same`; a parameter in one and not the other is a difference too (the
    notebooks store exactly the parameters their cell declares, no derived value). Empty when they agree."""
    where = data_path(notebook, Path(".")).as_posix()  # data/<chapter>/<name>.json
    lines = []
    for name in [*cell, *(n for n in stored if n not in cell)]:
        if name not in stored:
            lines.append(f"parameter {name} is {_short(cell[name])} in the parameters cell, absent from {where}")
        elif name not in cell:
            lines.append(f"parameter {name} is {_short(stored[name])} in {where}, absent from the parameters cell")
        elif not _same(cell[name], stored[name]):
            lines.append(
                f"parameter {name} is {_short(cell[name])} in the parameters cell but {_short(stored[name])} in {where}"
            )
    return lines


def stale_params_message(notebook: str, differences: list[str]) -> str:
    """The refusal for a notebook whose parameters cell and stored params differ (:func:`params_differences`)."""
    return (
        f"the stored numbers of {notebook} describe another experiment than its parameters cell:\n  "
        + "\n  ".join(differences)
        + f"\nre-run `python -m ldpcode.nbrun --write {notebook}` and review the diff of data/"
    )


def check_stored_params(notebook: str, root: Path | None = None) -> None:
    """Refuse (ValueError, :func:`stale_params_message`) a notebook whose parameters cell no longer holds the
    ``"params"`` of its data/ file: a default changed without ``python -m ldpcode.nbrun --write``. The notebook's
    own :func:`~ldpcode.claims.check` cannot see this: at params other than the stored ones it compares nothing
    and passes. A notebook with no data/ file passes here (its check already says to run ``--write``)."""
    stored = load(notebook, root)
    if stored is None:
        return
    differences = params_differences(notebook, parameter_defaults(notebook, root), stored.get("params") or {})
    if differences:
        raise ValueError(stale_params_message(notebook, differences))


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
        mode = new_file_mode()
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:  # a notebook's or a claim's text, whatever the locale
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
