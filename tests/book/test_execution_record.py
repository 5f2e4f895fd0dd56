"""The execution record (data/execution.json) that ``python -m ldpcode.nbrun`` writes, and the page built from it
(_ext/execution_statistics.py, chapters/report/execution_statistics.md)."""

import datetime
import json
import sys
from pathlib import Path

import pytest

from ldpcode import nbrun

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "_ext"))
import execution_statistics as ES  # noqa: E402


def test_record_adds_an_entry_and_keeps_the_others(tmp_path):
    rec = tmp_path / "execution.json"
    rec.write_text(json.dumps({"chapters/x/a.ipynb": {"paper": {"seconds": 3.0, "date": "2026-01-01", "cores": 2}}}))
    nbrun.record(ROOT / "chapters/x/b.ipynb", "tiny", 1.234, rec)
    nbrun.record(ROOT / "chapters/x/a.ipynb", "tiny", 9.96, rec)
    data = json.loads(rec.read_text())
    assert data["chapters/x/a.ipynb"]["paper"]["seconds"] == 3.0  # untouched
    assert data["chapters/x/a.ipynb"]["tiny"]["seconds"] == 10.0
    entry = data["chapters/x/b.ipynb"]["tiny"]
    assert entry["seconds"] == 1.2 and entry["date"] == datetime.date.today().isoformat() and entry["cores"] >= 1
    assert not (tmp_path / "execution.json.tmp").exists()


def test_record_refuses_an_unknown_scale(tmp_path):
    with pytest.raises(ValueError, match="scale must be 'paper' or 'tiny'"):
        nbrun.record(ROOT / "chapters/x/a.ipynb", "huge", 1.0, tmp_path / "r.json")
    assert not (tmp_path / "r.json").exists()


def test_nbrun_refuses_what_is_not_a_notebook_before_any_work(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        nbrun.main([str(tmp_path / "missing.ipynb"), "README.md"])
    assert e.value.code == 2
    assert "not a notebook file" in capsys.readouterr().err


def test_every_chapter_notebook_has_both_times_in_the_record():
    record = json.loads((ROOT / "data" / "execution.json").read_text())
    notebooks = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "chapters").glob("*/*.ipynb"))
    missing = [nb for nb in notebooks if {"paper", "tiny"} - set(record.get(nb, {}))]
    assert not missing, f"run `python -m ldpcode.nbrun` (and `--tiny`) on: {missing}"
    stale = sorted(set(record) - set(notebooks))
    assert not stale, f"entries for notebooks that no longer exist: {stale}"


@pytest.mark.parametrize(
    "seconds, text", [(0.4, "0 s"), (8.2, "8 s"), (59.6, "1 min 00 s"), (125, "2 min 05 s"), (3720, "1 h 02 min")]
)
def test_durations_read_as_a_reader_says_them(seconds, text):
    assert ES.duration(seconds) == text
