"""The findings table at the front door (README.md, intro.md) is the one data/ gives: a stored verdict that
changes fails here until `python -m ldpcode findings --write` rewrites it."""

from pathlib import Path

import pytest

from ldpcode import claims as C
from ldpcode.claims import findings as R

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", R.FINDINGS_FILES)
def test_the_findings_table_equals_data(name):
    assert R.findings_in(ROOT / name) == R.findings(C.collect(root=ROOT)), (
        f"{name}'s findings table is not the one data/ gives: run `python -m ldpcode findings --write`"
    )


def test_write_findings_rewrites_only_between_the_markers(tmp_path):
    (tmp_path / "data").mkdir()
    for name in R.FINDINGS_FILES:
        (tmp_path / name).write_text(f"before\n{R.FINDINGS_START}\nold table\n{R.FINDINGS_END}\nafter\n")
    changed = R.write_findings(tmp_path)
    assert sorted(p.name for p in changed) == sorted(R.FINDINGS_FILES)
    text = (tmp_path / "README.md").read_text()
    assert text.startswith(f"before\n{R.FINDINGS_START}\n") and text.endswith(f"{R.FINDINGS_END}\nafter\n")
    assert "old table" not in text and "0 statements of the four papers" in text
    assert R.write_findings(tmp_path) == []  # up to date: nothing written
    (tmp_path / "README.md").write_text(f"{R.FINDINGS_START}\nold\n{R.FINDINGS_END}\n")
    (tmp_path / "intro.md").write_text("no markers here\n")
    with pytest.raises(ValueError, match="intro.md has no findings block"):
        R.write_findings(tmp_path)
    assert (tmp_path / "intro.md").read_text() == "no markers here\n"
    assert "old" in (tmp_path / "README.md").read_text()  # nothing written when one file cannot be
