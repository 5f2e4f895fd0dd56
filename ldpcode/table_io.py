"""The files of a sweep's table: :func:`save_table` writes it whole or not at all, :func:`load_table` reads it back
and refuses a file that is not whole, and :func:`check_table_path` checks an output path before any work.

A table (:data:`ldpcode.sweep.COLUMNS`, one row per policy, instance, ε, run and checkpoint) is written as Parquet
(through pyarrow) or CSV (every float with 17 significant digits, so it reads back bit for bit). The write goes to a
temporary file beside the target, renamed over it in one step; the row count is stored with the table
(:data:`ROWS_KEY`), and the grid's shape (every run of every cell holds every checkpoint) is checked on reading. A
file cut short by a copy, a full disk or a killed process is refused instead of read as a smaller experiment. The
table's ``attrs`` (:func:`provenance`: the engine, every instance's arms, the policies' options) go
with it: in pandas' metadata of a Parquet file, on the third comment line of a CSV file (:data:`ATTRS_KEY`).
"""

from __future__ import annotations

from pathlib import Path

from ._paths import new_file_mode

COLUMNS = ("policy", "instance", "epsilon", "run", "t", "regret")
"""The columns of a sweep's table, in order: the policy's name, the instance's name, the cell's privacy level
(inf for a non-private policy; for ``HeLDP-UCB-*`` the cell's ε, which the sweep's ``heterogeneous`` function maps to
the agent's ε_min and the users' levels, both kept in the table's ``attrs["levels"]``; the command line's ``--levels``
takes the cell's ε as ε_min), the run's index r (its seed is
``SeedSequence(seed).spawn(runs)[r]``), the checkpoint t and the run's pseudo-regret at t."""


def check_table_path(path, *, replace: bool = False) -> Path:
    """The path a sweep's table will be written to, checked before any work: it ends in ``.parquet`` or ``.csv``,
    is not a folder, and its folder exists and is writable. An existing file is refused: with ``replace=True`` a
    sweep table :func:`save_table` wrote, whole (:func:`load_table` accepts it), may be written over (the command line's
    ``--replace``), and any other file never is, nor a symbolic link (dangling or not), so that no file of the
    reader's is lost to a mistyped path. Returns it as a :class:`~pathlib.Path`."""
    import os

    from ._validate import check_bool

    if not isinstance(path, (str, os.PathLike)) or not str(path):
        raise TypeError(f"path must be a file path ending in .parquet or .csv, got {path!r}")
    replace = check_bool("replace", replace)  # replace="no" is truthy, and wrote over the table
    path = Path(path)
    if path.suffix not in (".parquet", ".csv"):
        raise ValueError(f"path must end in .parquet or .csv, got {str(path)!r}")
    if path.is_symlink():  # dangling or not: the file it names, or the link itself, is the reader's
        raise ValueError(f"path {str(path)!r} is a symbolic link; a sweep writes through none: give a plain file name")
    if path.is_dir():
        raise ValueError(f"path {str(path)!r} is a folder; give a file name ending in .parquet or .csv")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise ValueError(f"path {str(path)!r}: its folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK) or not _can_create_in(folder):  # access() says yes to root, and on /proc
        raise ValueError(f"path {str(path)!r}: its folder {str(folder)!r} is not writable")
    if path.exists() and not path.is_file():  # a FIFO, a device: reading its first line would hang or fail
        raise ValueError(f"path {str(path)!r} exists and is not a regular file; choose another name")
    if path.exists():
        why = _not_written_here(path)
        if why:
            raise ValueError(
                f"path {str(path)!r} exists and is not a sweep table written by ldpcode: it is never replaced "
                f"({why}); choose another name"
            )
        if not replace:
            raise ValueError(
                f"path {str(path)!r} exists (a sweep table); choose another name, or pass replace=True (--replace) "
                "to write over it"
            )
    return path


def _can_create_in(folder: Path) -> bool:
    """Whether a file can be created in ``folder`` (and is removed again): as the atomic write will, before the work."""
    import os
    import tempfile

    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".ldpcode-probe-")
    except OSError:
        return False
    os.close(fd)
    os.unlink(probe)
    return True


def _stored_rows(path: Path):
    """The row count :func:`save_table` stored with the table at ``path`` (:data:`ROWS_KEY`: the Parquet schema's
    metadata, or the CSV's first line), as text, or None for a file without it. A file that cannot be read raises
    (OSError, ValueError; pyarrow's ArrowInvalid is a ValueError)."""
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        return (pq.read_schema(path).metadata or {}).get(ROWS_KEY.encode())
    with open(path, encoding="utf-8") as f:
        first = f.readline()
    return first.split(":", 1)[1].strip() if first.startswith(f"# {ROWS_KEY}:") else None


def _not_written_here(path: Path) -> str:
    """Why the file at ``path`` is not a whole table :func:`save_table` wrote, or "" if it is one: its row count is
    stored under :data:`ROWS_KEY` and :func:`load_table` accepts it (its checksum holds, every row there, no hole in
    its grid). A hand-cut subset that kept the first line, or a copy cut short, is not: it may hold the reader's own
    work. The rows are read, and their checksum computed, once (by :func:`load_table`)."""
    try:
        if _stored_rows(path) is None:
            return f"it has no {ROWS_KEY} row count"
        if _stored_digest(path) is None:
            return f"it has no {DIGEST_KEY} checksum of its rows"
    except (OSError, ValueError):  # UnicodeDecodeError is a ValueError
        return "it is not a table ldpcode can read"
    try:
        load_table(path)
    except _ChangedTable:
        return f"it was changed since ldpcode wrote it: its rows do not match their {DIGEST_KEY} checksum"
    except (OSError, ValueError) as err:
        text = " ".join(str(err).split())
        return "load_table refuses it: " + (text if len(text) <= 200 else text[:200] + " ...")
    return ""


class _ChangedTable(ValueError):
    """:func:`load_table`'s refusal of a table whose rows no longer match their :data:`DIGEST_KEY` checksum."""


def _csv_body(table) -> bytes:
    """The rows of a table as its CSV file holds them below its comment lines (every float with 17 significant
    digits): what :data:`DIGEST_KEY` is the SHA-256 of in a Parquet file's metadata, and, after the attrs line
    (:func:`_attrs_line`), in a CSV file (a Parquet file's attrs are pandas' metadata, outside the checksum)."""
    return table.to_csv(index=False, float_format="%.17g", lineterminator="\n").encode("utf-8")


#: the comment line of a CSV table that holds its ``attrs`` as JSON (a Parquet file keeps them in pandas' metadata)
ATTRS_KEY = "ldpcode.attrs"


def _attrs_line(table) -> bytes:
    """The third comment line of a CSV table, ``# ldpcode.attrs: {...}``: the table's ``attrs`` (horizon, seed,
    engine, the instances' arms: :func:`provenance`) as JSON, or nothing for a table without them."""
    import json

    if not table.attrs:
        return b""
    text = json.dumps(table.attrs, default=lambda v: v.item() if hasattr(v, "item") else str(v), ensure_ascii=False)
    return f"# {ATTRS_KEY}: {text}\n".encode()


def _read_attrs(path: Path) -> dict:
    """The ``attrs`` a CSV table's third line holds (:func:`_attrs_line`), or {} for a file without that line."""
    import json

    with open(path, encoding="utf-8") as f:
        lines = [f.readline() for _ in range(3)]
    prefix = f"# {ATTRS_KEY}:"
    return json.loads(lines[2][len(prefix) :]) if lines[2].startswith(prefix) else {}


def _stored_digest(path: Path) -> str | None:
    """The :data:`DIGEST_KEY` checksum stored in a table's file, or None if it has none: a CSV table's second line,
    ``# ldpcode.sha256: <hex>``, or a key of a Parquet table's schema metadata."""
    if path.suffix == ".csv":
        with open(path, "rb") as f:
            f.readline()
            second = f.readline().decode("utf-8")
        prefix = f"# {DIGEST_KEY}:"
        return second[len(prefix) :].strip() if second.startswith(prefix) else None
    import pyarrow.parquet as pq

    stored = (pq.read_schema(path).metadata or {}).get(DIGEST_KEY.encode())
    return None if stored is None else stored.decode("ascii", "replace")


def _digest_holds(path: Path, table) -> bool | None:
    """Whether a table's stored checksum (:func:`_stored_digest`; None: it has none) is the SHA-256 of its rows: in a
    CSV file, of the bytes after its second line; in a Parquet file, of ``table`` (the file's rows, read) written as
    CSV (:func:`_csv_body`). A value the reader edited in place (with sed, or one column scaled and rewritten through
    pyarrow with the schema's metadata kept) keeps the row count, and the file then holds the reader's work."""
    import hashlib

    stored = _stored_digest(path)
    if stored is None:
        return None
    if path.suffix == ".csv":
        with open(path, "rb") as f:
            f.readline()
            f.readline()
            body = f.read()
    else:
        body = _csv_body(table)
    return stored == hashlib.sha256(body).hexdigest()


#: the key of the SHA-256 of a table's rows as :func:`save_table` wrote them (as CSV, :func:`_csv_body`; in a CSV file
#: the attrs line above them too): a CSV table's second line, and a key of a Parquet table's schema metadata
DIGEST_KEY = "ldpcode.sha256"

ROWS_KEY = "ldpcode.rows"
"""The key under which :func:`save_table` stores the table's row count: in a Parquet file's schema metadata,
and in a CSV file's first line, ``# ldpcode.rows: N`` (a comment line, which pandas reads with ``comment="#"``; the
second, :data:`DIGEST_KEY`, holds the rows' checksum)."""


def save_table(table, path, *, replace: bool = False) -> Path:
    """Write a sweep's table to ``path``: Parquet for ``.parquet`` (through pyarrow), CSV for ``.csv`` (every float
    written with enough digits to read back bit for bit). Returns the path. An existing file is refused, unless
    ``replace=True`` and it is a table this function wrote (:func:`check_table_path`).

    The table is written beside ``path`` under a temporary name, then renamed over it in one step: a write that
    is killed half-way leaves the previous file whole (and the temporary one is removed on an error). The row
    count is stored with the table (:data:`ROWS_KEY`), and :func:`load_table` refuses a file that holds fewer."""
    import os

    import tempfile

    import pandas as pd

    from ._validate import one_line

    if not isinstance(table, pd.DataFrame):
        raise TypeError(
            f"table must be a sweep's table, a pandas DataFrame (ldpcode.sweep.sweep), got {type(table).__name__}"
        )
    if tuple(table.columns) != COLUMNS:  # load_table would refuse the file
        raise ValueError(
            f"table must have the columns of a sweep's table, {list(COLUMNS)}, got {one_line(list(table.columns), 120)}"
        )
    path = check_table_path(path, replace=replace)  # which refuses a replace that is not a bool (replace="no")
    _check_whole(table, "table")  # a file load_table would refuse is not written (two sweeps concatenated, a hole)
    # a new file of its own beside the target (O_EXCL, an unpredictable name: no other file is written through)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent if str(path.parent) else ".")
    os.close(fd)
    tmp = Path(name)
    os.chmod(tmp, new_file_mode())  # mkstemp's 0600 would make the table private: as a plain open() would create it
    try:
        if path.suffix == ".parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            import hashlib

            arrow = pa.Table.from_pandas(table, preserve_index=False)
            digest = hashlib.sha256(_csv_body(table)).hexdigest()
            meta = {**(arrow.schema.metadata or {}), ROWS_KEY.encode(): str(len(table)).encode()}
            meta[DIGEST_KEY.encode()] = digest.encode()
            pq.write_table(arrow.replace_schema_metadata(meta), tmp)
        else:
            import hashlib

            body = _attrs_line(table) + _csv_body(table)
            with open(tmp, "wb") as f:
                f.write(f"# {ROWS_KEY}: {len(table)}\n# {DIGEST_KEY}: {hashlib.sha256(body).hexdigest()}\n".encode())
                f.write(body)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def load_table(path):
    """Read a table written by :func:`save_table`, and check that it is whole: the row count stored with it
    (:data:`ROWS_KEY`) is the number of rows read, and every (policy, instance, ε) cell has every checkpoint of
    every run. A truncated or hand-cut file is refused (ValueError) instead of read as a smaller experiment, and so is
    one whose rows no longer match the checksum stored with them (:data:`DIGEST_KEY`: a value edited in place), whose
    numbers are then not a sweep's; a table without a checksum (not written by :func:`save_table`) is read as it is."""
    import pandas as pd

    path = Path(path)
    if path.suffix not in (".parquet", ".csv"):
        raise ValueError(f"path must end in .parquet or .csv, got {str(path)!r}")
    if not path.is_file():
        raise ValueError(f"no table at {str(path)!r}")
    try:
        stored = _stored_rows(path)
        if path.suffix == ".parquet":
            table = pd.read_parquet(path)
        else:
            table = pd.read_csv(path, comment="#", dtype={"policy": "string", "instance": "string"})
            table.attrs.update(_read_attrs(path))
    except (OSError, ValueError) as err:  # pyarrow's ArrowInvalid is a ValueError
        raise ValueError(f"{str(path)!r} is not a readable sweep table: {type(err).__name__}: {err}") from None
    if stored is not None and int(stored) != len(table):
        raise ValueError(
            f"{str(path)!r} holds {len(table):,} rows, but {int(stored):,} were written: the file is incomplete "
            "(a copy or a write cut short); run the sweep again"
        )
    # None: a table without a checksum (not written by save_table), read as it is
    if _digest_holds(path, table) is False:
        raise _ChangedTable(
            f"{str(path)!r} was changed since ldpcode wrote it: its rows do not match their {DIGEST_KEY} checksum, so "
            "its numbers are not a sweep's (if the change is yours, read it with pandas)"
        )
    _check_whole(table, str(path))
    return table


def _check_whole(table, where: str) -> None:
    """Refuse a table (``where``: its file, or "table") whose columns are not :data:`COLUMNS` or whose grid has a
    hole: every run of every cell must hold the same checkpoints once, and the runs of a cell are numbered 0 .. runs - 1."""
    if tuple(table.columns) != COLUMNS:
        raise ValueError(f"{where!r} is not a sweep table: its columns are {list(table.columns)}, not {list(COLUMNS)}")
    if table.empty:
        raise ValueError(f"{where!r} holds no rows")
    n_cp = table["t"].nunique()
    twice = table.duplicated(["policy", "instance", "epsilon", "run", "t"])
    if twice.any():
        p, i, e, r, t = table[["policy", "instance", "epsilon", "run", "t"]].to_numpy()[twice.to_numpy().argmax()]
        raise ValueError(
            f"{where!r} holds run {r} of ({p}, {i}, ε = {e:g}) at t = {t} more than once: a sweep's table holds each run "
            "once (two sweeps concatenated, with another seed, are two experiments: keep them in two tables)"
        )
    per_run = table.groupby(["policy", "instance", "epsilon", "run"], sort=False, dropna=False).size()
    runs = per_run.groupby(level=[0, 1, 2], sort=False, dropna=False).agg(["size"])["size"]
    last = per_run.reset_index().groupby(["policy", "instance", "epsilon"], sort=False, dropna=False)["run"].max()
    if (per_run != n_cp).any() or (last.to_numpy() + 1 != runs.to_numpy()).any():
        bad = per_run[per_run != n_cp]
        at = f" (first: {bad.index[0]}, {bad.iloc[0]} of {n_cp} checkpoints)" if len(bad) else ""
        raise ValueError(f"{where!r} has a hole in its grid{at}: it is incomplete; run the sweep again")


def provenance(tasks: list) -> dict:
    """What the rows of a sweep's table (``tasks``: its :class:`ldpcode.sweep.Task` list) do not say and a reader
    needs to read them (``table.attrs``, kept in the file by :func:`save_table`): the ``engine`` asked for and the
    (policy, instance, ε) cells that ran on the event engine (``event_cells``; ε None for a non-private policy); each
    heterogeneous cell's agent ε_min and users' levels (``levels``: [policy, instance, ε, ε_min, levels], the table's
    ε being the cell's, which ``heterogeneous`` maps to them, as
    :func:`ldpcode.experiments.landscape.same_mean_levels` maps ε to ε/2); each instance's arms, ``[law, p0, p1]``
    with every digit (an instance named by the reader is otherwise only a name); each policy's ``options``; the
    ``heterogeneous`` function's qualified name; and the ``ldpcode`` version."""
    from . import __version__
    from .instances import Family

    arms = {t.instance.name: [[Family(a.family).name.lower(), float(a.p0), float(a.p1)] for a in t.instance.arms]
            for t in tasks}  # fmt: skip
    options = {t.policy: {k: _plain(v) for k, v in t.options} for t in tasks if t.options}
    het, cells = tasks[0].heterogeneous, {(t.policy, t.instance.name, t.epsilon): t for t in tasks}
    func = getattr(het, "func", het)  # a functools.partial: its function (its repr holds a memory address)
    return {
        "engine": tasks[0].engine,
        "event_cells": [
            [p, i, None if e is None else float(e)] for (p, i, e), t in cells.items() if t.engine_used() == "event"
        ],  # fmt: skip
        "levels": [
            [p, i, float(e), *_levels_record(*t.levels())] for (p, i, e), t in cells.items() if p.startswith("HeLDP-")
        ],
        "instances": arms,
        "options": options,
        "heterogeneous": None
        if het is None
        else f"{func.__module__}.{getattr(func, '__qualname__', type(func).__name__)}",
        "ldpcode": __version__,
    }


def _levels_record(epsilon_min, levels) -> list:
    """[ε_min, the users' levels as JSON: their name, and their values and probabilities or Gaussian parameters]."""
    rec = {"name": levels.name}
    if levels.values is not None:
        rec.update(values=levels.values.tolist(), probs=levels.probs.tolist())
    elif levels.gaussian is not None:
        rec["gaussian"] = _plain(levels.gaussian)
    return [float(epsilon_min), rec]


def _plain(value):
    """An option's value as JSON holds it (pandas writes a Parquet file's attrs as JSON and drops them all, with only a
    warning, on one NumPy integer): NumPy scalars as Python numbers, arrays and tuples as lists, others as text."""
    import numpy as np

    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (np.ndarray, tuple, list)):
        return [_plain(v) for v in (value.tolist() if isinstance(value, np.ndarray) else value)]
    return repr(value)
