"""Stored numbers: the check can fail, re-runs at other params never overwrite, writes are atomic."""
import json
import os
import subprocess
import sys

import pytest

from ldpcode import claims as C

NB = "chapters/demo/demo.ipynb"


def _claims(x=1.0):
    return [C.Claim(id="demo.x", source="a test", reproduced=x, tolerance=0.1, paper=1.2, theory=None)]


@pytest.fixture
def root(tmp_path, monkeypatch):
    monkeypatch.delenv(C.WRITE_ENV, raising=False)
    return tmp_path


def test_write_then_check_then_fail(root):
    C.check(NB, {"T": 10}, _claims(1.0), write=True, root=root)
    stored = json.loads((root / "data/demo/demo.json").read_text())
    assert stored["params"] == {"T": 10} and stored["claims"][0]["reproduced"] == 1.0
    rep = C.check(NB, {"T": 10}, _claims(1.05), root=root)
    assert rep.ok and "ok" in repr(rep) and "<table" in rep._repr_html_()
    with pytest.raises(AssertionError, match="FAIL"):
        C.check(NB, {"T": 10}, _claims(1.2), root=root)  # beyond the tolerance of 0.1


def test_other_params_are_not_compared_nor_written(root):
    C.check(NB, {"T": 10}, _claims(1.0), write=True, root=root)
    before = (root / "data/demo/demo.json").read_bytes()
    rep = C.check(NB, {"T": 99}, _claims(5.0), root=root)
    assert not rep.compared and "not compared" in repr(rep)
    assert (root / "data/demo/demo.json").read_bytes() == before


def test_missing_file_or_claim_fails(root):
    with pytest.raises(AssertionError, match="MISSING"):
        C.check(NB, {"T": 10}, _claims(), root=root)
    C.check(NB, {"T": 10}, _claims(), write=True, root=root)
    extra = _claims() + [C.Claim(id="demo.y", source="s", reproduced=0.0, tolerance=0.0)]
    with pytest.raises(AssertionError, match="MISSING"):
        C.check(NB, {"T": 10}, extra, root=root)


def test_env_variable_asks_for_writing(root, monkeypatch):
    monkeypatch.setenv(C.WRITE_ENV, "1")
    rep = C.check(NB, {"T": 1}, _claims(), root=root)
    assert "written" in repr(rep) and (root / "data/demo/demo.json").exists()


def test_claim_validation():
    with pytest.raises(ValueError, match="tolerance must be >= 0"):
        C.Claim(id="a", source="s", reproduced=1.0, tolerance=-1)
    with pytest.raises(ValueError, match="finite"):
        C.Claim(id="a", source="s", reproduced=float("nan"), tolerance=1)
    with pytest.raises(ValueError, match="unique"):
        C.check(NB, {}, _claims() + _claims(), write=True)
    with pytest.raises(ValueError, match="chapters/<chapter>/<name>.ipynb"):
        C.data_path("figure1.ipynb")


def test_killed_writer_leaves_the_previous_file(root):
    """A writer killed in the middle of writing leaves the stored file as it was."""
    C.check(NB, {"T": 10}, _claims(1.0), write=True, root=root)
    path = root / "data/demo/demo.json"
    before = path.read_bytes()
    code = f"""
import os, signal, json
from pathlib import Path
from ldpcode import claims as C
real_dump = json.dump
def dump_then_die(obj, fh, **kw):
    fh.write('{{"half": ')
    fh.flush()
    os.kill(os.getpid(), signal.SIGKILL)
json.dump = dump_then_die
C.write_atomic(Path({str(path)!r}), {{"new": 1}})
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True)
    assert proc.returncode != 0
    assert path.read_bytes() == before
    json.loads(path.read_text())
    leftovers = [p for p in os.listdir(path.parent) if p.endswith(".tmp")]
    assert len(leftovers) <= 1  # a SIGKILL leaves the temporary file, never a torn stored file


def test_collect_and_verdict(root):
    C.check(NB, {"T": 10}, _claims(1.0), write=True, root=root)
    C.check("chapters/demo/other.ipynb", {}, [C.Claim(id="o", source="s", reproduced=3.0, tolerance=0)],
            write=True, root=root)
    s = C.collect(root=root)
    assert [r["id"] for r in s.rows] == ["demo.x", "o"]
    assert s.counts() == {"no": 1, "no number in paper": 1}  # 1.0 vs the paper's 1.2 is 17% off
    assert C.verdict(1.2, 1.1) == "yes" and C.verdict(None, 1.0) == "no number in paper"
    assert "demo.x" in repr(s) and "<table" in s._repr_html_()
