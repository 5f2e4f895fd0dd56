"""``sweep --out`` / ``--replace``: a file is replaced only if it is a whole table the tool wrote; a symbolic link
is never written through; the temporary file is the writer's own (the audit of the command line)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

import ldpcode as ldp
from ldpcode import sweep as sw
from ldpcode.__main__ import main

SWEEP = ["sweep", "--epsilons", "1", "--instance", "ren2020-bernoulli", "--runs", "2", "--policies", "UCB1"]


def _table(runs=3):
    return sw.sweep(["UCB1"], [1.0], "ren2020-bernoulli", 200, runs, checkpoints=ldp.log_checkpoints(200, 4))


def _replace_keeps_the_edit(path, monkeypatch, capsys):
    """The reader's edit of a whole table survives --replace: refused before the grid runs, one line, the file
    unchanged. load_table refuses it too: its numbers are no longer a sweep's."""
    mine = path.read_bytes()
    with pytest.raises(ValueError, match="was changed since ldpcode wrote it"):
        sw.load_table(path)
    monkeypatch.setattr(sw, "sweep", lambda *a, **k: pytest.fail("the grid ran before --out was checked"))
    assert main([*SWEEP, "--horizon", "100", "--out", str(path), "--replace"]) == 2
    assert "it was changed since ldpcode wrote it" in capsys.readouterr().err
    assert path.read_bytes() == mine


def test_the_replace_check_reads_a_parquet_tables_rows_once(tmp_path, monkeypatch):
    """Before: the check of --replace rendered a Parquet table's rows as CSV for its checksum, then load_table did it
    again (seconds at a million rows)."""
    from ldpcode import table_io

    path = sw.save_table(_table(), tmp_path / "t.parquet")
    calls = []
    body = table_io._csv_body
    monkeypatch.setattr(table_io, "_csv_body", lambda t: calls.append(1) or body(t))
    assert table_io._not_written_here(path) == "" and len(calls) == 1


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_replace_keeps_a_subset_cut_from_a_table_by_hand(suffix, tmp_path, monkeypatch, capsys):
    """Before: --replace judged a file by its first line '# ldpcode.rows: N' alone, and overwrote a hand-made subset
    (the header kept, some rows cut) that load_table itself refuses as incomplete."""
    path = sw.save_table(_table(), tmp_path / f"t{suffix}")
    full = sw.load_table(path)
    subset = full[full["run"] < 2]  # the reader's own selection
    if suffix == ".csv":
        lines = path.read_text().splitlines(keepends=True)
        path.write_text("".join(lines[: 3 + len(subset)]))
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        meta = pq.read_schema(path).metadata
        pq.write_table(pa.Table.from_pandas(subset, preserve_index=False).replace_schema_metadata(meta), path)
    mine = path.read_bytes()
    monkeypatch.setattr(sw, "sweep", lambda *a, **k: pytest.fail("the grid ran before --out was checked"))
    assert main([*SWEEP, "--horizon", "100", "--out", str(path), "--replace"]) == 2
    err = capsys.readouterr().err
    assert "is not a sweep table written by ldpcode: it is never replaced (load_table refuses it: " in err
    assert "the file is incomplete" in err and err.count("\n") == 1 and path.read_bytes() == mine


def test_replace_keeps_a_csv_table_with_one_value_edited_by_hand(tmp_path, monkeypatch, capsys):
    """A reader's review: one regret changed with sed kept the row count and the grid, and --replace wrote over the
    reader's edit. The CSV's second line holds the rows' SHA-256 (ldpcode.sha256); an edited row no longer matches."""
    path = sw.save_table(_table(), tmp_path / "t.csv")
    lines = path.read_text().splitlines(keepends=True)
    assert lines[1].startswith("# ldpcode.sha256: ") and len(lines[1].split()[-1]) == 64
    lines[-1] = lines[-1].rsplit(",", 1)[0] + ",12345\n"  # the reader's correction of one value
    path.write_text("".join(lines))
    _replace_keeps_the_edit(path, monkeypatch, capsys)


def test_replace_keeps_a_parquet_table_with_a_column_scaled_through_pyarrow(tmp_path, monkeypatch, capsys):
    """The input review: one column rewritten through pyarrow, the schema's metadata (its row count) kept, was
    written over by --replace, as the CSV was before its checksum. The Parquet metadata now holds the rows' SHA-256."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    path = sw.save_table(_table(), tmp_path / "t.parquet")
    arrow = pq.read_table(path)
    assert len(arrow.schema.metadata[b"ldpcode.sha256"]) == 64
    i = arrow.schema.get_field_index("regret")
    scaled = arrow.set_column(i, "regret", pc.multiply(arrow["regret"], 1000.0))
    pq.write_table(scaled.replace_schema_metadata(arrow.schema.metadata), path)
    _replace_keeps_the_edit(path, monkeypatch, capsys)


def test_a_parquet_table_without_a_checksum_is_never_replaced(tmp_path):
    import pyarrow.parquet as pq

    path = sw.save_table(_table(), tmp_path / "t.parquet")
    arrow = pq.read_table(path)
    meta = {k: v for k, v in arrow.schema.metadata.items() if k != b"ldpcode.sha256"}  # as an older ldpcode wrote it
    pq.write_table(arrow.replace_schema_metadata(meta), path)
    with pytest.raises(ValueError, match="it has no ldpcode.sha256 checksum of its rows"):
        sw.save_table(_table(2), path, replace=True)


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_replace_still_replaces_a_whole_table_it_wrote(suffix, tmp_path):
    path = sw.save_table(_table(2), tmp_path / f"t{suffix}")
    sw.save_table(_table(3), path, replace=True)
    assert sw.load_table(path)["run"].max() == 2


@pytest.mark.parametrize("dangling", [True, False])
def test_an_out_that_is_a_symbolic_link_is_refused(dangling, tmp_path, monkeypatch, capsys):
    """Before: an --out that was a dangling symbolic link was replaced by a regular file."""
    target, table = tmp_path / "elsewhere.csv", _table()
    if not dangling:
        sw.save_table(table, target)  # even a table of the tool's own: the link is the reader's
    link = tmp_path / "t.csv"
    link.symlink_to(target)
    before = target.read_bytes() if target.exists() else None
    monkeypatch.setattr(sw, "sweep", lambda *a, **k: pytest.fail("the grid ran before --out was checked"))
    assert main([*SWEEP, "--horizon", "100", "--out", str(link), "--replace"]) == 2
    assert "is a symbolic link" in capsys.readouterr().err
    assert link.is_symlink() and (target.read_bytes() if target.exists() else None) == before
    with pytest.raises(ValueError, match="is a symbolic link"):
        sw.save_table(table, link, replace=True)


def test_the_temporary_file_is_created_new_with_an_unpredictable_name(tmp_path, monkeypatch):
    """Before: the table went to '.NAME.PID.tmp', opened without O_EXCL: a file (or a link) placed at that
    predictable name beforehand was written through."""
    path = tmp_path / "t.csv"
    trap = tmp_path / f".t.csv.{os.getpid()}.tmp"
    victim = tmp_path / "victim.txt"
    victim.write_text("the reader's")
    trap.symlink_to(victim)
    seen = []
    real = os.replace

    def spy(src, dst):
        seen.append(Path(src))
        real(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    sw.save_table(_table(), path)
    assert victim.read_text() == "the reader's" and trap.is_symlink()
    assert seen and seen[0] != trap and seen[0].parent == tmp_path
    assert len(sw.load_table(path)) > 0
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask  # as a plain open() makes it, not mkstemp's 0600
