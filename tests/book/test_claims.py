"""Stored numbers: claim kinds and their verdicts, the check's failure modes, safe writes, the report."""

import json
import os
import subprocess
import sys

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ldpcode import claims as C

NB = "chapters/demo/demo.ipynb"


def _stat(x=1.0, se=0.1, paper=1.2, **kw):
    return C.statistical(
        "demo.x",
        "Fig. 1",
        reproduced=x,
        se=se,
        paper=paper,
        statement="ren2020ldp.test",
        reason="a test",
        horizon=10,
        **kw,
    )


def _claims(x=1.0):
    return [_stat(x)]


@pytest.fixture(autouse=True)
def test_statements(monkeypatch):
    """Two statements for the tests, in the registry for the test's duration."""
    for cites in ("ren2020ldp", "ren2020heldp"):
        st_ = C.statements.Statement(
            f"{cites}.test", cites, "Section 0", "a sentence the paper prints", "printed constant"
        )
        monkeypatch.setitem(C.statements.STATEMENTS, st_.key, st_)


@pytest.fixture
def root(tmp_path, monkeypatch):
    monkeypatch.delenv(C.WRITE_ENV, raising=False)
    return tmp_path


# --- kinds and verdicts, against hand-computed values ---------------------------------------------------


def test_paper_unit_is_the_last_printed_digit():
    assert C.paper_unit(1.6) == pytest.approx(0.1)
    assert C.paper_unit(0.9977) == pytest.approx(1e-4)
    assert C.paper_unit(16.0) == 1.0 and C.paper_unit(210.0) == 1.0
    assert C.paper_unit(3.663127e-05) == pytest.approx(1e-11)
    assert C.paper_unit(0.05) == pytest.approx(0.01)


def test_statistical_verdict_counts_standard_errors_beyond_the_papers_rounding():
    # paper 1.6 stands for [1.55, 1.65]; 1.691 +- 0.012 is (1.691 - 1.65) / 0.012 = 3.42 SE away: near
    c = C.statistical(
        "a", "s", reproduced=1.691, se=0.012, paper=1.6, statement="ren2020ldp.test", reason="r", horizon=10**6
    )
    assert c.z() == pytest.approx(3.4167, abs=1e-3) and c.verdict() == "near"
    assert c.tolerance == pytest.approx(4 * 0.012)
    # R^2 0.898 +- 0.0017 against 0.9977 (unit 1e-4): (0.0997 - 0.00005) / 0.0017 = 58.6 SE: disagrees
    r2 = C.statistical(
        "b", "s", reproduced=0.898, se=0.0017, paper=0.9977, statement="ren2020heldp.test", reason="r", horizon=10**6
    )
    assert r2.z() == pytest.approx(58.62, abs=0.01) and r2.verdict() == "disagrees"
    # within the paper's rounding (z = 0), but 2 SE = 0.2 cannot resolve the paper's +-0.05: inconclusive
    assert _stat(1.16, 0.1, paper=1.2).verdict() == "inconclusive"
    assert _stat(1.16, 0.02, paper=1.2).verdict() == "agrees"  # 2 SE = 0.04 resolves it
    assert _stat(1.16, 0.1, paper=1.2).z() == 0.0
    assert _stat(1.0, 0.1, paper=1.2).z() == pytest.approx(1.5)  # (0.2 - 0.05) / 0.1


def test_an_implied_zero_or_one_states_its_unit():
    with pytest.raises(ValueError, match="state paper_unit for paper = 0"):
        _stat(5.0, 1.0, paper=0.0, sense=">=")
    # a ratio of 0.63 +- 0.02 against an implied exact 1 is 18.5 standard errors away, not "within rounding"
    ratio = _stat(0.63, 0.02, paper=1.0, paper_unit=0.0)
    assert ratio.z() == pytest.approx(18.5) and ratio.verdict() == "disagrees"
    assert _stat(0.63, 0.02, paper=1.0, paper_unit=1.0).verdict() == "agrees"  # what a printed "1" would allow
    assert _stat(-0.01, 0.02, paper=0.0, paper_unit=0.0, sense=">=").verdict() == "agrees"


def test_statistical_one_sided_senses():
    # the paper states an order T^(3/4): a slope of 0.5 is within it, 0.91 +- 0.007 is far above
    below = _stat(0.5, 0.01, paper=0.75, sense="<=")
    above = _stat(0.91, 0.007, paper=0.75, sense="<=")
    assert below.z() == 0 and below.verdict() == "agrees"
    assert above.z() == pytest.approx((0.16 - 0.005) / 0.007) and above.verdict() == "disagrees"
    assert _stat(0.5, 0.01, paper=0.75, sense=">=").verdict() == "disagrees"


def test_exact_claims_need_two_ways_and_judge_the_papers_digits():
    c = C.exact(
        "a",
        "Lemma 7",
        reproduced=0.10582,
        second=0.105820000001,
        how="closed form vs quadrature",
        paper=0.107,
        statement="ren2020ldp.test",
        reason="r",
    )
    # |0.10582 - 0.107| = 0.00118: beyond half a unit (0.0005), within two units: near
    assert c.verdict() == "near" and c.problem() is None
    assert (
        C.exact(
            "a",
            "s",
            reproduced=0.0766,
            second=0.0766,
            how="x vs y",
            paper=0.0766,
            statement="ren2020ldp.test",
            reason="r",
        ).verdict()
        == "agrees"
    )
    assert (
        C.exact(
            "a", "s", reproduced=0.2, second=0.2, how="x vs y", paper=0.107, statement="ren2020ldp.test", reason="r"
        ).verdict()
        == "disagrees"
    )
    assert C.exact("a", "s", reproduced=2.0, second=2.0 + 1e-12, how="x vs y").verdict() == "two ways agree"
    apart = C.exact("a", "s", reproduced=2.0, second=2.1, how="x vs y")
    assert apart.verdict() == "TWO WAYS DIFFER" and "differ" in apart.problem()
    with pytest.raises(ValueError, match="second, independent computation"):
        C.Claim.from_dict(dict(id="a", kind="exact", source="s", reproduced=1.0, tolerance=0.0, how="x vs y"))
    with pytest.raises(ValueError, match="second, independent computation"):
        C.exact("a", "s", reproduced=1.0, second=1.0, how="the formula")  # no "<one> vs <other>"


def test_bound_claims_hold_within_noise_or_fail():
    holds = C.bound("a", "s", reproduced=10.0, bound=40.0, how="Theorem 4", se=1.0, horizon=10)
    assert holds.verdict() == "holds" and holds.verdict_text() == "holds (25% of it)"
    assert C.bound("a", "s", reproduced=1.0, bound=1.0, how="Lemma 2").verdict_text() == "holds (100% of it)"
    assert C.bound("a", "s", reproduced=0.035, bound=1.0, how="x").verdict_text() == "holds (3.5% of it)"
    assert C.bound("a", "s", reproduced=0.0, bound=1e-6, how="x").verdict_text() == "holds"  # not "(0% of it)"
    noise = C.bound("a", "s", reproduced=41.5, bound=40.0, how="Theorem 4", se=1.0, horizon=10)
    assert noise.verdict() == "holds within noise" and noise.problem() is None
    broken = C.bound("a", "s", reproduced=42.5, bound=40.0, how="Theorem 4", se=1.0, horizon=10)
    assert broken.verdict() == "VIOLATED" and "2.5 standard errors" in broken.problem()
    lower = C.bound("a", "s", reproduced=3.0, bound=2.0, how="Theorem 1", sense=">=")
    assert lower.verdict() == "holds"
    assert C.bound("a", "s", reproduced=1.0, bound=2.0, how="Theorem 1", sense=">=").verdict() == "VIOLATED"
    assert C.bound("a", "s", reproduced=5.0, bound=float("inf"), how="vacuous").verdict() == "holds"
    with pytest.raises(ValueError, match="inequality"):
        C.bound("a", "s", reproduced=1.0, bound=2.0, how="x", sense="=")


def test_a_statistical_claim_whose_runs_all_agree_is_judged_by_the_rounding_alone():
    """se = 0 (every run gave the same value): no Monte Carlo noise, so within half a unit of the paper's
    last digit it agrees (z = 0) and beyond it disagrees (z infinite), however small the gap."""
    assert _stat(x=1.0, se=0.0, paper=1.0, paper_unit=0.0).verdict() == "agrees"
    assert _stat(x=1.24, se=0.0, paper=1.2).z() == 0.0  # 1.2 printed: [1.15, 1.25]
    far = _stat(x=1.26, se=0.0, paper=1.2)
    assert far.z() == float("inf") and far.verdict() == "disagrees"
    assert far.verdict_text() == "disagrees (z = ∞: every run gave the same value)"
    assert far.tolerance == 0.0  # and it must come back exactly


def test_tolerances_are_derived():
    assert _stat(se=0.25).tolerance == 1.0
    assert _stat(se=0.25, k=2).tolerance == 0.5
    assert C.reproducible("a", "s", reproduced=1e6).tolerance == pytest.approx(1e-3)
    assert C.reproducible("a", "s", reproduced=5.0, se=0.5).tolerance == 2.0
    with pytest.raises(ValueError, match="not k x se"):
        C.Claim.from_dict(dict(id="a", kind="reproducible", source="s", reproduced=1.0, se=0.1, k=4, tolerance=1.0))
    with pytest.raises(ValueError, match=r"k \(standard errors of tolerance\) must be in \[1, 10\]"):
        _stat(se=0.1, k=40)


def test_claim_validation_names_what_is_wrong():
    with pytest.raises(ValueError, match="kind must be one of"):
        C.Claim.from_dict(dict(id="a", kind="guess", source="s", reproduced=1.0, tolerance=0.0))
    with pytest.raises(ValueError, match="finite"):
        C.reproducible("a", "s", reproduced=float("nan"))
    with pytest.raises(ValueError, match="without one it is reproducible"):
        C.Claim.from_dict(dict(id="a", kind="statistical", source="s", reproduced=1.0, se=0.1, k=4, tolerance=0.4))
    with pytest.raises(ValueError, match="se must be >= 0"):
        _stat(se=-0.1)
    with pytest.raises(ValueError, match="horizon"):
        C.statistical("a", "s", reproduced=1.0, se=0.1, paper=1.5, statement="ren2020ldp.test", reason="r")
    with pytest.raises(ValueError, match="names the statement"):
        C.statistical("a", "s", reproduced=1.0, se=0.1, paper=1.5, statement="", reason="r", horizon=5)
    with pytest.raises(
        ValueError,
        match="no paper statement 'ren2020ldp.tset' in ldpcode.claims.statements; did you mean ren2020ldp.test",
    ):
        C.statistical("a", "s", reproduced=1.0, se=0.1, paper=1.5, statement="ren2020ldp.tset", reason="r", horizon=5)
    with pytest.raises(ValueError, match="is not the paper of statement"):
        C.statistical(
            "a",
            "s",
            reproduced=1.0,
            se=0.1,
            paper=1.5,
            statement="ren2020ldp.test",
            cites="ren2020heldp",
            reason="r",
            horizon=5,
        )
    with pytest.raises(ValueError, match="names the statement it is judged against"):
        C.Claim.from_dict(
            dict(
                id="a",
                kind="exact",
                source="s",
                reproduced=1.0,
                tolerance=0.0,
                second=1.0,
                how="a vs b",
                paper=1.0,
                paper_unit=1.0,
                cites="ren2020ldp",
                reason="r",
            )
        )
    with pytest.raises(ValueError, match="only a claim with a paper number names"):
        C.Claim.from_dict(
            dict(id="a", kind="reproducible", source="s", reproduced=1.0, tolerance=0.0, statement="ren2020ldp.test")
        )
    with pytest.raises(ValueError, match="systematic_how"):
        _stat(systematic=0.1)
    with pytest.raises(ValueError, match="margin and systematic must be >= 0"):
        _stat(margin=-0.1)
    with pytest.raises(ValueError, match="runs must be a positive integer"):
        _stat(runs=0)
    with pytest.raises(ValueError, match="one-line reason"):
        C.statistical("a", "s", reproduced=1.0, se=0.1, paper=1.5, statement="ren2020ldp.test", reason="", horizon=5)
    with pytest.raises(ValueError, match="only statistical and exact"):
        C.Claim.from_dict(dict(id="a", kind="reproducible", source="s", reproduced=1.0, tolerance=0.0, paper=1.5))
    with pytest.raises(ValueError, match="without spaces"):
        C.reproducible("a b", "s", reproduced=1.0)
    with pytest.raises(ValueError, match="source"):
        C.reproducible("a", "", reproduced=1.0)
    with pytest.raises(ValueError, match="one line"):
        C.statistical(
            "a", "s", reproduced=1.0, se=0.1, paper=1.5, statement="ren2020ldp.test", reason="x\ny", horizon=5
        )


@given(
    x=st.floats(-1e6, 1e6),
    se=st.floats(1e-3, 1e3),
    paper=st.floats(-1e6, 1e6).filter(lambda p: p == 0 or abs(p) > 1e-9),
)
def test_statistical_verdict_is_monotone_in_z(x, se, paper):
    c = C.statistical(
        "a",
        "s",
        reproduced=x,
        se=se,
        paper=paper,
        statement="ren2020ldp.test",
        reason="r",
        horizon=5,
        paper_unit=0.0 if paper in (0.0, 1.0) else None,
    )
    z = c.z()
    assert z >= 0
    low = "inconclusive" if 2 * se > c.paper_unit / 2 and c.paper_unit > 0 else "agrees"
    assert c.verdict() == (low if z <= 2 else "near" if z <= 4 else "disagrees")
    # the stored dict round-trips to the same claim and verdict
    assert C.Claim.from_dict(json.loads(json.dumps(c.to_dict()))).verdict() == c.verdict()


# --- the check ----------------------------------------------------------------------------------------------


def test_write_then_check_then_fail(root):
    C.check(NB, {"T": 10}, _claims(1.0), write=True, root=root)
    stored = json.loads((root / "data/demo/demo.json").read_text())
    assert stored["params"] == {"T": 10} and stored["claims"][0]["reproduced"] == 1.0
    assert stored["claims"][0]["kind"] == "statistical"
    rep = C.check(NB, {"T": 10}, _claims(1.3), root=root)  # within 4 x 0.1
    assert rep.ok and "ok" in repr(rep) and "<table" in rep._repr_html_()
    head = repr(rep).splitlines()[0].split()
    assert head[:5] == ["claim", "reproduced", "stored", "re-run", "verdict"]
    with pytest.raises(AssertionError, match="FAIL"):
        C.check(NB, {"T": 10}, _claims(1.5), root=root)  # beyond the tolerance of 0.4


def test_other_params_are_not_compared_nor_written(root):
    C.check(NB, {"T": 10}, _claims(1.0), write=True, root=root)
    before = (root / "data/demo/demo.json").read_bytes()
    rep = C.check(NB, {"T": 99}, _claims(5.0), root=root)
    assert not rep.compared and "not compared" in repr(rep)
    assert (root / "data/demo/demo.json").read_bytes() == before


def test_at_other_params_a_papers_number_is_shown_but_not_judged(root):
    """A re-run at T = 10⁴ said "disagrees" with a ratio the paper read off a run to 10⁷, and "agrees" at an ε the
    paper never used: the book's verdicts weigh a statement at its own settings. At other parameters the paper's
    number stays beside the run's, without a verdict; a bound is still judged (it holds at every T)."""
    bound = C.bound("demo.b", "s", reproduced=1.0, bound=2.0, how="Thm")
    C.check(NB, {"T": 10}, [_stat(5.0), bound], write=True, root=root)
    here = C.check(NB, {"T": 10}, [_stat(5.0), bound], root=root)
    assert "disagrees" in repr(here) and C.checking.NOT_JUDGED not in repr(here)
    rerun = C.check(NB, {"T": 99}, [_stat(5.0), bound], root=root)
    rows = {line.split()[0]: line for line in repr(rerun).splitlines()[2:4]}
    assert C.checking.NOT_JUDGED in rows["demo.x"] and "= 1.2" in rows["demo.x"]
    assert "disagrees" not in repr(rerun) and "holds" in rows["demo.b"]
    assert "disagrees" not in rerun._repr_html_() and C.checking.NOT_JUDGED in rerun._repr_html_()


def test_a_violated_bound_fails_at_any_parameters(root):
    C.check(NB, {"T": 10}, [C.bound("demo.b", "s", reproduced=1.0, bound=2.0, how="Thm")], write=True, root=root)
    with pytest.raises(AssertionError, match="bound is violated"):
        C.check(NB, {"T": 99}, [C.bound("demo.b", "s", reproduced=3.0, bound=2.0, how="Thm")], root=root)
    with pytest.raises(AssertionError, match="differ by"):
        C.check(NB, {"T": 99}, [C.exact("demo.e", "s", reproduced=3.0, second=2.0, how="a vs b")], root=root)
    before = (root / "data/demo/demo.json").read_bytes()
    with pytest.raises(AssertionError, match="bound is violated"):  # never stored, even when asked to write
        C.check(NB, {"T": 10}, [C.bound("demo.b", "s", reproduced=3.0, bound=2.0, how="Thm")], write=True, root=root)
    assert (root / "data/demo/demo.json").read_bytes() == before


def test_missing_or_unproduced_claims_fail(root):
    with pytest.raises(AssertionError, match="MISSING"):
        C.check(NB, {"T": 10}, _claims(), root=root)
    C.check(NB, {"T": 10}, _claims(), write=True, root=root)
    extra = _claims() + [C.reproducible("demo.y", "s", reproduced=0.0)]
    with pytest.raises(AssertionError, match="MISSING"):
        C.check(NB, {"T": 10}, extra, root=root)
    C.check(NB, {"T": 10}, extra, write=True, root=root)
    with pytest.raises(AssertionError, match="NOT PRODUCED"):  # a stored claim the notebook no longer makes
        C.check(NB, {"T": 10}, _claims(), root=root)
    with pytest.raises(ValueError, match="produced no claim"):
        C.check(NB, {"T": 10}, [], root=root)
    with pytest.raises(ValueError, match="unique"):
        C.check(NB, {}, _claims() + _claims(), write=True, root=root)


@pytest.mark.parametrize(
    "value, writes",
    [("1", True), ("true", True), ("YES", True), ("", False), ("0", False), ("false", False), ("no", False)],
)
def test_write_flag_parses_yes_and_no_only(root, monkeypatch, value, writes):
    monkeypatch.setenv(C.WRITE_ENV, value)
    rep = C.check(NB, {"T": 1}, _claims(), root=root) if writes else None
    if writes:
        assert "written" in repr(rep) and (root / "data/demo/demo.json").exists()
    else:
        with pytest.raises(AssertionError, match="MISSING"):
            C.check(NB, {"T": 1}, _claims(), root=root)
        assert not (root / "data/demo/demo.json").exists()


@pytest.mark.parametrize("value", ["false-ish", "2", "on", "y"])
def test_write_flag_refuses_anything_else(root, monkeypatch, value):
    monkeypatch.setenv(C.WRITE_ENV, value)
    with pytest.raises(ValueError, match=f"{C.WRITE_ENV} must be one of"):
        C.check(NB, {"T": 1}, _claims(), root=root)


def test_paths_and_corrupt_files_are_named(root):
    with pytest.raises(ValueError, match="chapters/<chapter>/<name>.ipynb"):
        C.data_path("figure1.ipynb")
    with pytest.raises(ValueError, match="chapters/<chapter>/<name>.ipynb"):
        C.data_path("chapters/../../etc/x.ipynb")
    (root / "data/demo").mkdir(parents=True)
    (root / "data/demo/demo.json").write_text("{not json")
    with pytest.raises(ValueError, match=r"demo\.json are not valid JSON"):
        C.check(NB, {"T": 10}, _claims(), root=root)


def test_writes_keep_the_file_mode(root):
    C.check(NB, {"T": 10}, _claims(1.0), write=True, root=root)
    path = root / "data/demo/demo.json"
    assert path.stat().st_mode & 0o777 == 0o666 & ~_umask()
    path.chmod(0o640)
    C.check(NB, {"T": 10}, _claims(1.1), write=True, root=root)
    assert path.stat().st_mode & 0o777 == 0o640


def _umask():
    u = os.umask(0)
    os.umask(u)
    return u


def test_an_interrupted_writer_leaves_no_temporary_file(root, monkeypatch):
    C.check(NB, {"T": 10}, _claims(1.0), write=True, root=root)
    path = root / "data/demo/demo.json"
    before = path.read_bytes()

    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(C.store.json, "dump", interrupted)  # write_atomic lives in ldpcode.claims.store
    with pytest.raises(KeyboardInterrupt):
        C.write_atomic(path, {"new": 1})
    assert path.read_bytes() == before and not list(path.parent.glob("*.tmp"))


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


# --- reading back: the report -------------------------------------------------------------------------------


def test_collect_sections_and_claim_list(root):
    C.check(NB, {"T": 10}, _claims(1.0), write=True, root=root)
    other = [
        C.statistical(
            "o.far",
            "Fig. 2",
            reproduced=3.0,
            se=0.1,
            paper=2.0,
            statement="ren2020ldp.test",
            reason="why",
            horizon=10**6,
        ),
        C.exact("o.e", "Lemma 1", reproduced=0.5, second=0.5, how="a vs b"),
        C.reproducible("o.r", "s", reproduced=7.0),
    ]
    C.check("chapters/demo/other.ipynb", {}, other, write=True, root=root)
    s = C.collect(root=root)
    assert [c.id for c in s.claims] == ["demo.x", "o.far", "o.e", "o.r"]
    assert s.counts() == {"statistical": 2, "exact": 1, "reproducible": 1}
    assert s.counts("verdict") == {"inconclusive": 1, "disagrees": 1, "two ways agree": 1, "reproducible": 1}
    sec = C.paper_section(s, "ren2020ldp")
    # one statement judged by two numbers counts once, with the least favourable verdict
    assert sec.counts()["disagrees"] == 1 and sum(sec.counts().values()) == 1
    text = repr(sec)
    assert "1 statements (2 numbers): 1 disagrees" in text
    assert '[printed constant] Section 0: "a sentence the paper prints"' in text
    page = sec._repr_html_()
    assert "href='../demo/other.html'" in page and "class='disagree'" in page
    assert "a sentence the paper prints</q>" in page and "ldp-category" in page
    # the statement line says how the scorecard counts a statement judged by two numbers, and why
    line = "one statement, counted as disagrees: the least favourable of its 2 numbers (1 disagrees, 1 inconclusive)"
    assert f"<span class='ldp-statement'>{line}.</span>" in page and f'prints" — {line}' in text
    # and its own verdict stands in colour under the quote, where its rows show two (one amber, one red)
    badge = "<span class='ldp-statement'><span class='ldp-verdict disagree'>statement: disagrees</span></span>"
    assert page.count(badge) == 1 and page.index(badge) < page.index(line)
    # how the number was measured stands beside its verdict; a claim without a note shows no empty label
    with_note = C.statistical(
        "o.far", "Fig. 2", reproduced=3.0, se=0.1, paper=2.0, statement="ren2020ldp.test", reason="why",
        horizon=10**6, note="log-log slope on t in [1e5, 1e6], 12 runs",
    )  # fmt: skip
    noted = C.PaperSection("ren2020ldp", [with_note], {"o.far": "chapters/demo/other.ipynb"})._repr_html_()
    assert "measured:</span> log-log slope on t in [10⁵, 10⁶], 12 runs. " in noted  # powers of ten written one way
    assert "measured:" not in page
    assert sum(C.paper_section(s, "azize2022privacy").counts().values()) == 0
    card = C.scorecard(s)
    assert card.rows == [("ren2020ldp", "printed constant", {**dict.fromkeys(C.VERDICTS, 0), "disagrees": 1}, 2)]
    assert card.markdown().splitlines()[2] == "| Ren et al. 2020a (ε-LDP) | printed constant | 1 | 2 |"
    with pytest.raises(ValueError, match="cites must be one of"):
        C.paper_section(s, "nobody2020")
    full = C.ClaimList(s)._repr_html_()
    assert full.startswith("<details") and "All 4 stored claims" in full
    assert s.get("o.r").reproduced == 7.0
    with pytest.raises(ValueError, match="no stored claim"):
        s.get("nope")


def test_the_statement_line_and_a_passage_that_heads_two_statements(monkeypatch):
    def stat(id, x, statement):
        return C.statistical(
            id, "Fig. 2", reproduced=x, se=0.1, paper=2.0, statement=statement, reason="why", horizon=10**6
        )

    one, two = stat("o.a", 2.0, "ren2020ldp.test"), stat("o.b", 2.01, "ren2020ldp.test")
    assert C.statement_summary([one]) == ""  # one number: its own row says it all
    assert C.statement_summary([one, two]) == "one statement, counted as agrees (both of its numbers)"
    assert C.statement_summary([one, two, stat("o.c", 1.99, "ren2020ldp.test")]).endswith("(all 3 of its numbers)")
    # the severity order decides: near is less favourable than agrees, whichever comes first
    near = stat("o.n", 2.85, "ren2020ldp.test")  # (0.85 - 0.5) / 0.1 = 3.5 se beyond the rounding
    assert near.verdict() == "near" and C.statement_verdict([one, near]) == C.statement_verdict([near, one]) == "near"
    # a second statement quoting the same passage names it instead of printing it again
    twin = C.statements.Statement("ren2020ldp.twin", "ren2020ldp", "Section 0", "a sentence the paper prints",
                                  "printed constant")  # fmt: skip
    monkeypatch.setitem(C.statements.STATEMENTS, twin.key, twin)
    other = stat("o.t", 2.0, "ren2020ldp.twin")
    nbs = dict.fromkeys(["o.a", "o.t"], "chapters/demo/other.ipynb")
    page = C.PaperSection("ren2020ldp", [one, other], nbs)._repr_html_()
    assert page.count("a sentence the paper prints</q>") == 1 and page.count("ldp-quote") == 2
    assert "<span class='ldp-locator'>the same passage</span>" in page
    assert "ldp-statement" not in page  # each statement has one number
    # the passage stays together although another statement's verdict ranks between its two: its near twin and
    # an unrelated near statement both outrank its agreeing one, and ordering by verdict alone would put the
    # unrelated one in between (and quote the passage twice)
    apart = C.statements.Statement(
        "ren2020ldp.u", "ren2020ldp", "Section 9", "an unrelated sentence", "printed constant"
    )
    monkeypatch.setitem(C.statements.STATEMENTS, apart.key, apart)
    twin_near, unrelated = stat("o.t", 2.85, "ren2020ldp.twin"), stat("o.u", 2.85, "ren2020ldp.u")
    nbs = dict.fromkeys(["o.a", "o.t", "o.u"], "chapters/demo/other.ipynb")
    section = C.PaperSection("ren2020ldp", [unrelated, one, twin_near], nbs)
    assert [c.id for c in section._ordered()] == ["o.t", "o.a", "o.u"]
    page = section._repr_html_()
    assert page.count("a sentence the paper prints</q>") == 1 and page.count("the same passage") == 1
    # a table row quoted for two of its columns: one quote, two locators; named the second time, with its locator
    column = C.statements.Statement(
        "ren2020ldp.twin", "ren2020ldp", "Section 0, column 2", "a sentence the paper prints", "printed constant"
    )
    monkeypatch.setitem(C.statements.STATEMENTS, column.key, column)
    page = C.PaperSection("ren2020ldp", [unrelated, one, stat("o.t", 2.85, "ren2020ldp.twin")], nbs)._repr_html_()
    assert page.count("a sentence the paper prints</q>") == 1
    # the near column comes first, quoted, with its locator; the agreeing one is named, with its own locator
    assert "prints</q> <span class='ldp-locator'>(Section 0, column 2)</span>" in page
    assert "the same passage</span> <span class='ldp-locator'>(Section 0)</span>" in page


def test_a_stored_file_with_unknown_fields_is_refused(root):
    C.check(NB, {"T": 10}, _claims(1.0), write=True, root=root)
    path = root / "data/demo/demo.json"
    d = json.loads(path.read_text())
    d["claims"][0]["theory"] = 1.0
    path.write_text(json.dumps(d))
    with pytest.raises(ValueError, match="unknown fields"):
        C.collect(root=root)


@pytest.mark.parametrize(
    "x, text",
    [
        (0, "0"),
        (2605.0, "2,605"),
        (2605.3, "2,605"),
        (12.0, "12"),
        (115812.3, "115,812"),
        (1.6912, "1.691"),
        (3.66e-05, "3.66·10⁻⁵"),
        (float("inf"), "inf"),
        (1e12 + 0.5, "10¹²"),
    ],
)
def test_numbers_are_formatted_for_reading(x, text):
    from ldpcode.claims.tables import format_value

    assert format_value(x) == text


@pytest.mark.parametrize("x, text", [(0.3879, "0.39"), (12.34, "12"), (320.4, "320"), (107.9, "110"), (99.5, "100")])
def test_two_significant_digits_never_print_an_exponent_below_1000(x, text):
    from ldpcode.claims.tables import format_value

    assert format_value(x, 2) == text  # not "3.2e+02"


@pytest.mark.parametrize(
    "t, text", [(10**6, "10⁶"), (2 * 10**5, "2·10⁵"), (10**10, "10¹⁰"), (16000, "16,000"), (300, "300")]
)
def test_horizons_are_formatted(t, text):
    assert C.format_horizon(t) == text


def test_table_without_formats_prints_cells_as_they_are():
    t = C.Table(["a", "b"], [["x", 1.5], ["yy", 10]])
    assert repr(t) == "a   b\n--  ---\nx   1.5\nyy  10"
    assert "<td class='nb'>x</td>" in t._repr_html_() and "num" not in t._repr_html_()  # one short word
    assert "<td class='nb'>1.5</td>" in t._repr_html_()  # one number: never broken inside (the class nb)


def test_a_number_column_keeps_the_standard_error_with_its_sign():
    # a narrow cell breaks "21.68" over "± 0.28", never "21.68 ±" over "0.28"; a text column and the text are as before
    t = C.Table(["what", "R(T)"], [["a ± b", (21.68, 0.28)]], formats=[None, ".4g"])
    page = t._repr_html_()
    assert "<td class='num'>21.68 ±&nbsp;0.28</td>" in page and "a ± b" in page
    assert "21.68 ± 0.28" in repr(t) and "&nbsp;" not in repr(t)


def test_table_formats_number_columns_and_right_aligns_them():
    import numpy as np

    t = C.Table(
        ["name", "R(T)", "ratio", "pm", "f"],
        [["a", np.float64(12345.6), 0.12345, (1.23456, 0.0456), 2], ["bb", 7.0, None, (-0.5, 0.01), 30]],
        formats=[None, ",.0f", ".3g", ("+.3f", ".2f"), lambda x: f"<{x}>"],
    )
    lines = repr(t).splitlines()
    assert lines[0] == "name    R(T)  ratio              pm     f"
    # a (value, se) pair is written by the book's one rule, digits matched to the standard error
    assert lines[2] == "a     12,346  0.123  +1.235 ± 0.046   <2>"
    assert lines[3] == "bb         7      -  -0.500 ± 0.010  <30>"
    h = t._repr_html_()
    assert (
        "<td class='num'>12,346</td>" in h
        and "<td class='nb'>a</td>" in h
        and "<td class='num'>+1.235 ±&nbsp;0.046</td>" in h
    )
    # each number column's header is set over its numbers (right-aligned, as they are), a text column's is not
    assert "<th>name</th><th class='num'>R(T)</th><th class='num'>ratio</th><th class='num'>pm</th>" in h
    assert "<th class='num'>" not in C.Table(t.head, [], formats=t.formats)._repr_html_()
    with pytest.raises(ValueError, match="formats has 1 entries for 5 columns"):
        C.Table(t.head, t.body, formats=[None])


def test_policy_tag():
    from ldpcode.claims import policy_tag

    assert policy_tag("AdaP-KLUCB") == "adap_klucb"
    assert policy_tag("DP-SE") == "dp_se"
    with pytest.raises(TypeError, match="name must be a non-empty policy name"):
        policy_tag(None)


# --- evidence, resolution, systematic spread, horizons, predictions (issue 21) ------------------------------


def test_the_papers_own_runs_widen_the_standard_error_and_runs_needed_is_solved(monkeypatch):
    # Ren et al. average 50 trials; with ours 50 too, the difference has se * sqrt(2)
    st_ = C.statements.Statement(
        "ren2020ldp.fifty", "ren2020ldp", "Fig. 1", "is 1.6, and", "printed result", printed="1.6", runs=50
    )
    monkeypatch.setitem(C.statements.STATEMENTS, st_.key, st_)  # removed again after the test
    c = C.statistical(
        "r",
        "s",
        reproduced=1.71,
        se=0.0113,
        paper=1.6,
        statement="ren2020ldp.fifty",
        reason="r",
        horizon=10,
        runs=50,
    )
    assert c.total_se() == pytest.approx(0.0113 * 2**0.5)
    assert c.z() == pytest.approx((0.11 - 0.05) / (0.0113 * 2**0.5))  # 3.75: near, where se alone says 5.3
    assert c.verdict() == "near" and "+6.9%" in c.verdict_text()
    # the row shows our ± (0.011); the z counts 0.016, and the row says so, or a reader's 0.06 / 0.0113 = 5.3
    # disagrees with it
    assert "z = 3.8 (se of the difference ±0.016, with the paper's own 50 runs)" in c.verdict_text()
    ten = C.statistical(
        "r",
        "s",
        reproduced=1.63,
        se=0.0253,
        paper=1.6,
        statement="ren2020ldp.fifty",
        reason="r",
        horizon=10,
        runs=10,
    )
    # 2 * 0.0253 * sqrt(1 + 10/50) = 0.0554 > 0.05: inconclusive; per-run variance 0.0253^2 * 10 = 0.0064;
    # room = 0.025^2 - 0.0064/50 = 0.000497; N >= 0.0064 / 0.000497 = 12.9 -> 13
    assert ten.verdict() == "inconclusive" and ten.runs_needed() == 13
    assert "needs ≥ 13 runs" in ten.verdict_text()
    coarse = C.statistical(
        "r", "s", reproduced=1.6, se=0.1, paper=1.6, statement="ren2020ldp.fifty", reason="r", horizon=10, runs=50
    )
    assert coarse.runs_needed() == 0 and "no number of runs suffices" in coarse.verdict_text()


def test_a_number_the_paper_does_not_print_carries_no_error_of_the_papers_runs(monkeypatch):
    """An ordering read as a difference >= 0, or "does not depend on ε" read as a ratio of 1, is the book's exact
    reading of a statement, not an estimate from the paper's runs: the paper's 50 runs widened its se by sqrt(2)
    all the same (Azize and Basu's Figure 3 showed z = 16.0 where the runs give 22.6)."""
    st_ = C.statements.Statement(
        "azize2022privacy.flat",
        "azize2022privacy",
        "Fig. 3",
        "for eps > 0.3 it does not depend on eps",
        "printed result",
        printed="0.3",
        runs=50,
    )
    monkeypatch.setitem(C.statements.STATEMENTS, st_.key, st_)  # removed again after the test
    c = C.statistical(
        "r",
        "s",
        reproduced=7.19,
        se=0.274,
        paper=1.0,
        paper_unit=0,
        statement=st_.key,
        reason="r",
        horizon=10,
        runs=50,
    )
    assert not c.paper_prints() and c.paper_text() == "read as = 1"
    assert c.total_se() == 0.274 and c.z() == pytest.approx(6.19 / 0.274)
    assert "paper's own" not in c.verdict_text()


def test_a_systematic_spread_that_covers_the_gap_is_underdetermined():
    far = _stat(0.94, 0.004, paper=0.75, sense="<=")
    assert far.verdict() == "disagrees"
    wide = _stat(0.94, 0.004, paper=0.75, sense="<=", systematic=0.2, systematic_how="fit window")
    assert wide.verdict() == "underdetermined"
    # the gap, the spread and the noise, and no z: against the noise alone a z would say nothing of the paper
    assert wide.measure() == (
        "gap 0.19, +25.3%: within the systematic spread (±0.2), beyond the Monte Carlo noise (se of the difference "
        "0.004); what the paper leaves open decides it"
    )
    narrow = _stat(0.94, 0.004, paper=0.75, sense="<=", systematic=0.1, systematic_how="fit window")
    assert narrow.verdict() == "disagrees"  # 0.185 > 0.1 + 2 * 0.004
    # how far beyond the spread, in standard errors: (0.185 - 0.1) / 0.004
    assert "21.2 se beyond the systematic spread ±0.1" in narrow.measure()
    assert _stat(0.5, 0.01, paper=0.75, sense="<=").inside() == pytest.approx(25.0)
    # on its side a z of 0 says nothing: the row gives the distance and how many se it is, and no z
    assert _stat(0.5, 0.01, paper=0.75, sense="<=").verdict_text() == (
        "agrees (on the stated side: 0.25 below 0.75, 25.0 se)"
    )
    assert (
        _stat(3.2, 0.1, paper=0.0, sense=">=", paper_unit=0).verdict_text()
        == "agrees (on the stated side: 3.2 above 0, 32.0 se)"
    )
    assert (
        _stat(0.765, 0.01, paper=0.75, sense="<=").verdict_text() == "agrees (z = 1.0, +2.0%)"
    )  # wrong side, in noise


def test_a_rate_is_tested_by_no_slope_on_either_side(monkeypatch):
    """An order statement (a rate with unstated constants and log factors) is not refuted by a local exponent above
    it at finite horizons: the verdict is underdetermined, and the measure gives the gap, not a z (which would
    measure the Monte Carlo noise only). Below it, or within noise of it, it is *within the rate*, never *agrees*:
    since no slope could have refuted it, no slope confirms it, and no count of standard errors is given (Zheng's
    exponent of 1/eps, 0.76 below 1, was shown as "agrees ... 4,427 se"). Where even the cap of the experiment
    stays within noise it is inconclusive, as any claim that could not have failed. A two-sided order claim, and
    a one-sided claim that is no order, are judged by their z as any other."""
    st_ = C.statements.Statement("ren2020ldp.rate", "ren2020ldp", "Table 1", "O(T^3/4)", "order")
    monkeypatch.setitem(C.statements.STATEMENTS, st_.key, st_)

    def rate(x, se, sense="<="):
        return C.statistical(
            "s", "s", reproduced=x, se=se, paper=0.75, sense=sense, statement=st_.key, reason="r", horizon=10**6
        )

    far = rate(0.858, 0.0007)
    assert far.z() > 100 and far.verdict() == "underdetermined"
    assert far.verdict_text() == (
        "underdetermined (0.11 above the stated 0.75, se 0.0007; beyond noise, but a rate, with its constants and log "
        "factors unstated, is not refuted by a slope over a finite range)"
    )
    assert "z =" not in far.verdict_text()
    assert rate(0.752, 0.003).verdict_text() == (
        "within the rate (0.002 above the stated 0.75, within noise, se 0.003; consistent with the rate and no test of "
        "it: no slope over a finite range refutes a rate whose constants and log factors are unstated)"
    )
    below = rate(0.5, 0.01)
    assert below.verdict() == "within the rate" and below.z() == 0
    assert below.verdict_text().startswith("within the rate (0.25 below the stated 0.75, se 0.01; consistent")
    assert not re.search(r"\d se\b|z =|could have failed", below.verdict_text())  # no count of standard errors
    assert rate(0.5, 0.01, sense=">=").verdict() == "underdetermined"  # a lower rate, measured below it
    assert rate(0.9, 0.01, sense=">=").verdict() == "within the rate"
    capped = C.statistical(
        "s", "s", reproduced=0.5, se=0.01, paper=0.75, sense="<=", statement=st_.key, reason="r", horizon=10**6,
        reachable=0.76,
    )  # fmt: skip
    assert capped.cannot_fail() and capped.verdict() == "inconclusive"
    assert C.report.statement_verdict([below, _stat(1.16, 0.02, paper=1.2)]) == "within the rate"
    assert C.report.statement_verdict([below, far]) == "underdetermined"
    assert rate(0.858, 0.0007, sense="=").verdict() == "disagrees"
    assert _stat(0.94, 0.004, paper=0.75, sense="<=").verdict() == "disagrees"  # not an order: judged by its z


def test_a_scope_statement_is_never_judged(monkeypatch):
    st_ = C.statements.Statement("ren2020ldp.scope", "ren2020ldp", "Thm 6", "the bound scales as", "scope")
    monkeypatch.setitem(C.statements.STATEMENTS, st_.key, st_)
    c = C.statistical("s", "s", reproduced=-1.93, se=0.017, paper=-2.0, statement=st_.key, reason="r", horizon=10)
    assert c.verdict() == "not judged" and "not an empirical number" in c.verdict_text()


def test_consistent_horizons_reads_the_range_of_t_within_the_printed_interval():
    import numpy as np

    t = np.array([10**2, 10**3, 10**4, 10**5, 10**6])
    den = np.ones((4, 5))
    num = np.array([[1.0, 1.4, 1.6, 1.62, 1.9]] * 4) + np.array([[0.0], [0.001], [-0.001], [0.0]])
    r = C.consistent_horizons(t, num, den, 1.6)
    assert r.searched == (10**3, 10**6) and r.consistent == (10**4, 10**5)
    assert r.t.tolist() == [10**3, 10**4, 10**5, 10**6] and r.inside.tolist() == [False, True, True, False]
    assert C.consistent_horizons(t, num * 10, den, 1.6).consistent == ()
    c = _stat(1.9, 0.01, paper=1.2, horizons=r)
    assert c.verdict() == "consistent at some t" and "t ≈ 10⁴–10⁵ only" in c.verdict_text()
    coarse = _stat(1.9, 0.05, paper=1.2, horizons=r)  # 2 se = 0.1 cannot resolve the paper's +-0.05
    assert coarse.verdict() == "inconclusive" and "resolution ±0.1 against the paper's ±0.05" in coarse.verdict_text()
    none = _stat(1.9, 0.01, paper=1.2, horizons=C.consistent_horizons(t, num * 10, den, 1.6))
    assert none.verdict() == "disagrees" and "no horizon in [10³, 10⁶] reaches it" in none.verdict_text()
    with pytest.raises(ValueError, match="no checkpoint at or after"):
        C.consistent_horizons(t, num, den, 1.6, t_min=10**7)
    with pytest.raises(ValueError, match="must match"):
        C.consistent_horizons(t[:3], num, den, 1.6)
    with pytest.raises(ValueError, match="paper_runs must be a positive integer"):
        C.consistent_horizons(t, num, den, 1.6, paper_runs=0)
    # the paper's own runs widen the band: 1.62 +- 0.02 misses [1.55, 1.65] + 2 se alone at 2.0, not with 1 paper run
    noisy = np.array([[1.7], [1.7], [1.66], [1.66]]) + np.zeros((4, 5))
    assert C.consistent_horizons(t, noisy, den, 1.6).consistent == ()
    assert C.consistent_horizons(t, noisy, den, 1.6, paper_runs=1).consistent == (10**3, 10**6)
    with pytest.raises(TypeError, match="consistent_horizons"):
        _stat(horizons=(10, 20))
    assert r.text() == "t ≈ 10⁴–10⁵" and C.consistent_horizons(t, num * 10, den, 1.6).text() == "no t in [10³, 10⁶]"
    assert C.fits_at_each_t(r, r).tolist() == [0, 2, 2, 0]
    assert C.fits_at_each_t(r, C.consistent_horizons(t, num * 10, den, 1.6)).tolist() == [0, 1, 1, 0]
    with pytest.raises(ValueError, match="the same checkpoints"):
        C.fits_at_each_t(r, C.consistent_horizons(t[1:], num[:, 1:], den[:, 1:], 1.6, t_min=10**4))
    with pytest.raises(TypeError, match="HorizonRange objects from consistent_horizons"):
        C.fits_at_each_t(C.HorizonRange((1, 2), ()))
    late = C.HorizonRange((10**3, 10**6), (10**5, 10**6))
    assert C.joint_horizons(r, late) == (10**5, 10**5)
    assert C.joint_horizons(r, C.HorizonRange((10**3, 10**6), (5 * 10**5, 10**6))) == ()
    with pytest.raises(TypeError, match="HorizonRange"):
        C.joint_horizons((1, 2))


def test_a_horizon_range_says_which_printed_numbers_it_would_have_accepted():
    """The referee: 'consistent at some t' can hardly fail on a curve that still rises (LDP-UCB-LS's check would have
    accepted about 1 to 19). The range now says so: the numbers printed to the paper's digit that some t accepts."""
    import numpy as np

    t = np.array([10**3, 10**4, 10**5, 10**6])
    den = np.ones((4, 4))
    num = np.array([[1.0, 1.4, 1.6, 1.9]] * 4) + np.array([[0.0], [0.004], [-0.004], [0.0]])
    r = C.consistent_horizons(t, num, den, 1.6)
    # se 0.0016 at 1.4 and 1.6, 0 at 1.0 and 1.9: each point accepts its own value +- 0.05 (+ 2 se); the printed
    # numbers 1.0, 1.4, 1.6 and 1.9 fit some t, and the six others from 1.1 to 1.8 none
    assert r.accepts == (1.0, 1.9, 6)
    c = _stat(1.9, 0.01, paper=1.6, horizons=r)
    assert c.t_accepts == [1.0, 1.9, 6] and c.verdict() == "consistent at some t"
    assert c.verdict_text().endswith("; to its last digit, any number in [1, 1.9] but 6 fits some t in [10³, 10⁶])")
    assert C.Claim.from_dict(c.to_dict()) == c  # stored and read back
    old = c.to_dict()
    del old["t_accepts"]  # a claim stored before the field: read, and its measure as before
    assert "fits some t" not in C.Claim.from_dict(old).verdict_text()
    for bad in ([2.0, 1.0, 0], [1.0, 2.0], [1.0, 2.0, -1], [1.0, 2.0, 0.5]):
        with pytest.raises(ValueError, match=r"t_accepts must be \[low, high, missing\]"):
            C.Claim.from_dict({**c.to_dict(), "t_accepts": bad})
    with pytest.raises(ValueError, match="a horizon range belongs to a statistical claim"):
        C.Claim.from_dict(
            {**C.exact("e", "s", reproduced=1.0, second=1.0, how="a vs b").to_dict(), "t_accepts": [1, 2, 0]}
        )
    smooth = np.array([np.linspace(1.0, 1.9, 4)] * 4) + np.array([[0.0], [0.004], [-0.004], [0.0]])
    assert (
        C.consistent_horizons(np.arange(1000, 1004), smooth, den, 1.6).accepts[2] == 6
    )  # 0.3 apart: 2 skipped, 3 times
    dense = np.array([np.linspace(1.0, 1.9, 50)] * 4)
    assert C.consistent_horizons(np.arange(1000, 1050), dense, np.ones((4, 50)), 1.6).accepts == (1.0, 1.9, 0)


def test_printed_numbers_accepted_by_hand():
    import numpy as np

    from ldpcode.claims.horizons import printed_numbers_accepted as acc

    assert acc(np.array([15.0, 19.0]), np.array([0.5, 0.5]), 1.0) == (15.0, 19.0, 3)  # 16, 17, 18 fit no point
    assert acc(np.array([15.0, 16.0]), np.array([0.5, 0.5]), 1.0) == (15.0, 16.0, 0)
    assert acc(np.array([1.64, 1.66]), np.array([0.004, 0.004]), 0.1) == (
        1.64 - 0.004,
        1.66 + 0.004,
        0,
    )  # no 1.6 or 1.7
    assert acc(np.array([1.0]), np.array([0.1]), 0.0) == (0.9, 1.1, 0)  # an exact number: the band's hull


@pytest.mark.parametrize(
    "t, text",
    [(999, "999"), (1000, "10³"), (31022, "3.1·10⁴"), (455337, "4.6·10⁵"), (9_960_000, "10⁷"), (6_700_000, "6.7·10⁶")],
)
def test_approximate_horizons_read_at_two_digits(t, text):
    assert C.approx_horizon(t) == text


def test_a_prediction_is_the_books_own_and_never_a_papers():
    p = C.prediction(
        "p",
        "samples ratio",
        reproduced=4.357,
        se=0.0331,
        predicted=4.3723,
        derived_in="chapters/zheng2020/appendix_b_best_arm.ipynb",
        how="(1/4 + s^2) log ratio",
        reason="r",
        scale="1000 runs",
    )
    assert p.paper is None and p.cites is None and p.verdict() == "agrees"
    assert p.reference() == "book's prediction 4.372"
    with pytest.raises(ValueError, match="derived_in"):
        C.prediction("p", "s", reproduced=1.0, se=0.1, predicted=1.0, derived_in="", how="x", reason="r", scale="s")


def test_check_guards_every_field_that_decides_a_verdict(root, monkeypatch):
    C.check(NB, {"T": 10}, _claims(1.0), write=True, root=root)
    path = root / "data/demo/demo.json"
    original = path.read_text()
    for field, value in [
        ("paper", 1.3),
        ("sense", "<="),
        ("se", 0.5),
        ("quote", "else"),
        ("category", "order"),
        ("paper_unit", 0.5),
        ("statement", "ren2020heldp.test"),
        ("runs", 7),
    ]:
        d = json.loads(original)
        d["claims"][0][field] = value
        path.write_text(json.dumps(d))
        with pytest.raises(AssertionError, match=f"CHANGED: .*{field}"):
            C.check(NB, {"T": 10}, _claims(1.0), root=root)
    path.write_text(original)
    assert C.check(NB, {"T": 10}, _claims(1.0), root=root).ok
    # a changed statement in the registry fails too: the fresh claim carries the new quote
    st_ = C.statements.Statement("ren2020ldp.test", "ren2020ldp", "Section 0", "another sentence", "printed constant")
    monkeypatch.setitem(C.statements.STATEMENTS, st_.key, st_)
    with pytest.raises(AssertionError, match="CHANGED: quote"):
        C.check(NB, {"T": 10}, _claims(1.0), root=root)


def test_statements_validate_and_quotes_are_found_through_markup():
    S = C.statements
    assert S.found("The ratio ... is 1.6", "the *ratio* of the regrets\n of LDP-UCB-B is  $1.6$ here")
    assert not S.found("is 1.6 ... the ratio", "the ratio of the regrets is 1.6")  # pieces in order
    with pytest.raises(ValueError, match="does not contain the printed number"):
        S.Statement("ren2020ldp.x", "ren2020ldp", "Fig. 1", "the ratio is 1.7", "printed result", printed="1.6")
    with pytest.raises(ValueError, match="gives the number as printed"):
        S.Statement("ren2020ldp.x", "ren2020ldp", "Fig. 1", "the ratio is 1.7", "printed result")
    with pytest.raises(ValueError, match="category must be one of"):
        S.Statement("ren2020ldp.x", "ren2020ldp", "Fig. 1", "the ratio", "guess")
    with pytest.raises(ValueError, match="prefix the key"):
        S.Statement("azize2022privacy.x", "ren2020ldp", "Fig. 1", "the ratio", "order")


def test_quotes_reach_mathjax_with_its_output_delimiters():
    from ldpcode.claims.report import _mathjax

    assert _mathjax("fix  $\\epsilon = 2.0$ , a < b; $$x^2$$") == "fix  \\(\\epsilon = 2.0\\) , a &lt; b; \\[x^2\\]"
    assert _mathjax("no math, 20% of users") == "no math, 20% of users"


@pytest.mark.parametrize(
    "text, html",
    [
        ("the value is ours at T = 1e+07, the verdict", "the value is ours at T = 10⁷, the verdict"),
        ("(3.28 at 10^6, 10.2 at 10^7)", "(3.28 at 10⁶, 10.2 at 10⁷)"),  # the plain-text power, as the report's own
        ("slopes 0.393 from 1e+03, 0.426 from 3.2e+03.", "slopes 0.393 from 10³, 0.426 from 3.2·10³."),
        ("the bound is 3.517e+08; δ = 1e-06", "the bound is 3.517·10⁸; δ = 10⁻⁶"),  # digits kept as written
        ("rtol 1e-7 and 10^{-3}", "rtol 10⁻⁷ and 10⁻³"),
        ("ratio.T1e6, x1e6 and 2e+07.5", "ratio.T1e6, x1e6 and 2e+07.5"),  # inside a name or a number: untouched
        # a rate's exponent on T, a bracketed one and a whole one are superscripts; 10^1/2 could end in two places
        (
            "O~(T^1/2/ε²), 10^{3/4}, 10^1/2, x^2 < 1",
            "\u00d5(T<sup>1/2</sup>/ε²), 10<sup>3/4</sup>, 10^1/2, x<sup>2</sup> &lt; 1",
        ),
        ("R^2 < 1, R^2_adj", "R² &lt; 1, R^2_adj"),  # but the coefficient of determination, a name of its own
    ],
)
def test_claim_text_writes_its_powers_of_ten_one_way(text, html):
    """The report's rows (source, note, reason) write 1e+07 and 10^7 as 10⁷, like its horizons ("T = 10⁷"): three
    spellings of one number on a row read as three numbers. A rate's caret (T^1/2) is not a power of ten: it is a
    superscript 1/2 (_carets)."""
    from ldpcode.claims.tables import _prose

    assert _prose(text) == html


@pytest.mark.parametrize(
    "text, html",
    [
        (
            "Theorem 1, eps = 2: (e^eps - e^-eps)^-2 sum 1/Delta_a",
            "Theorem 1, ε = 2: (e<sup>ε</sup> - e<sup>−ε</sup>)<sup>−2</sup> sum 1/Δ<sub>a</sub>",
        ),
        (
            "c_s x with c_s = 0.2066/e (x = mu_a,eps - mu_b,eps)",
            "c<sub>s</sub> x with c<sub>s</sub> = 0.2066/e (x = μ<sub>a</sub>,ε - μ<sub>b</sub>,ε)",
        ),
        ("P{Y_k > sqrt(32 k log t)}, lambda = 2.8", "P{Y<sub>k</sub> &gt; √(32 k log t)}, λ = 2.8"),
        (
            "as eps -> inf, sigma -> 0; eps_i >= 0.5, a != a*, 95% CI +- 79.9",
            "as ε → ∞, σ → 0; ε<sub>i</sub> ≥ 0.5, a ≠ a*, 95% CI ± 79.9",
        ),
        ("10x earlier or sqrt(10)x either way, 20 runs x 5 arms", "10× earlier or √(10)× either way, 20 runs × 5 arms"),
        ("2 x AdaP-KLUCB on a 51x51 grid", "2 × AdaP-KLUCB on a 51×51 grid"),
        (
            "N_a(T), max_a t_a, M_L(1), exact delta(eps) at (eps, delta)",
            "N<sub>a</sub>(T), max<sub>a</sub> t<sub>a</sub>, M<sub>L</sub>(1), exact δ(ε) at (ε, δ)",
        ),
        # a whole number of five or more digits as the tables write it; a fraction, a name's digits and a year stay
        (
            "slope on t in [10000, 1000000] / [89125, 1000000], R^2 = 0.9991 at eps = 10000",
            "slope on t in [10⁴, 10⁶] / [89,125, 10⁶], R² = 0.9991 at ε = 10⁴",
        ),
        (
            "10000.5, 12345.678, 0.000012345, T1e6, ratio_100000, 2020",
            "10,000.5, 12,345.678, 0.000012345, T1e6, ratio_100000, 2020",
        ),
        # min, max and inf as the subscript of a one-letter symbol; a longer name or a longer word stays
        (
            "eps_min = 1, d_inf, T_max; heldp_min, x_mine, ldp.x_min",
            "ε<sub>min</sub> = 1, d<sub>inf</sub>, T<sub>max</sub>; heldp_min, x_mine, ldp.x_min",
        ),
        # names, ids and code stay as written: a dotted name, an id's eps2, a function, the delta method, a variable x
        (
            "ratio.eps2.T1e6, epsmin1, heldp_beta, ldp.bounds.eps_x, ratio_B_UCB",
            "ratio.eps2.T1e6, epsmin1, heldp_beta, ldp.bounds.eps_x, ratio_B_UCB",
        ),
        (
            "delta-method se; se: delta method; x + ρu; Gamma(n, b)",
            "delta-method se; se: delta method; x + ρu; Gamma(n, b)",
        ),
    ],
)
def test_claim_text_writes_its_ascii_math_as_the_pages_do(text, html):
    """The report wrote "eps = 0.2", "Delta_a" and "sqrt(10)x" beside the quotes' ε, Δ and the pages' ×: one symbol,
    two spellings on a row. Claim texts stay ASCII where they are typed and read in a terminal; the HTML writes them
    as math, and leaves names and code alone."""
    from ldpcode.claims.tables import _prose

    assert _prose(text) == html


@pytest.mark.parametrize(
    "value, se, text",
    [
        (34480.3, 212.0, "34,480 ± 210"),  # the standard error to 2 digits, the value to the same place
        (4405.2, 26.0, "4,405 ± 26"),
        (0.95873, 0.0123, "0.959 ± 0.012"),
        (-0.0123, 0.0031, "-0.0123 ± 0.0031"),
        (12.0, 0.0004, "12.00000 ± 0.00040"),
        (1.6e-5, 2e-7, "(1.600 ± 0.020)·10⁻⁵"),  # below 10^-3: one power of ten for both
        (2.5e9, 3.1e7, "(2.500 ± 0.031)·10⁹"),
        (1.1706742, 2.3e-6, "1.1706742 ± 0.0000023"),  # a unit value with a tiny se: no "·10⁰"
        (0.43101564, 8.5e-6, "0.4310156 ± 0.0000085"),
        (0.5, 0.0, "0.5"),  # no standard error: the number alone
        (3.0, float("nan"), "3 ± nan"),  # shown, never hidden
    ],
)
def test_value_and_se_have_matching_digits(value, se, text):
    from ldpcode.claims.tables import format_pm

    assert format_pm(value, se) == text


def test_a_g_format_is_the_books_number_format():
    """No exponent between 10^-3 and 10^9, thousands separators: '.4g' of 34480 is '34,480', not '3.448e+04'."""
    from ldpcode.claims.tables import _format_cell

    assert _format_cell(34480.0, ".4g") == "34,480"
    assert _format_cell(0.12345, ".3g") == "0.123"
    assert _format_cell(0.5, "+.3g") == "+0.5"
    assert _format_cell(1.2e-5, ".3g") == "1.2·10⁻⁵"
    assert _format_cell(7, "d") == "7"  # other specs as Python writes them
    import numpy as np

    assert _format_cell(np.int64(79433), ".2g") == "79,433"  # NumPy's scalars are numbers too
    assert _format_cell((np.float64(4405.2), np.float64(26.0)), ".4g") == "4,405 ± 26"


def test_claim_ids_break_only_after_a_dot():
    from ldpcode.claims.tables import _id_html

    h = _id_html("ren2020.figure1.ratio_B_UCB.eps2.T1e6")
    assert h == "ren2020.<wbr>figure1.<wbr>ratio_B_UCB.<wbr>eps2.<wbr>T1e6"
    assert _id_html("plain") == "plain"
    assert _id_html("ren2020.theorem4.pulls_gap0.1_eps0.5") == "ren2020.<wbr>theorem4.<wbr>pulls_gap0.1_eps0.5"
    assert _id_html("a<b.c") == "a&lt;b.<wbr>c"


def test_check_table_html_is_claim_reproduced_check_verdict_then_a_line_of_the_rest(tmp_path):
    c = C.reproducible("demo.x", "a test", reproduced=1.0, se=0.1, horizon=1000)
    report = C.CheckReport("chapters/demo/demo.ipynb", [(c, None, "written")])
    h = report._repr_html_()
    heads = re.findall(r"<th>(.*?)</th>", h)
    assert heads == ["claim", "reproduced", "re-run", "verdict"]
    assert h.count("<tr class='ldp-main'>") == 1 and h.count("<tr class='ldp-sub'><td colspan='4'>") == 1
    sub = h.split("<tr class='ldp-sub'>")[1]
    for label in ("stored", "at", "kind"):
        assert f"<span class='ldp-label'>{label}</span>" in sub
    assert "demo.<wbr>x" in h
    assert "written" in repr(report) and "against" in repr(report)  # the text form keeps every column


def test_a_bound_row_of_the_check_table_names_its_bound_and_no_other_row_has_the_field():
    """ "holds (35% of it)" says of what: the second line of a bound row names the bound, its ASCII math as prose."""
    b = C.bound("demo.b", "a test", reproduced=10.0, bound=40.0, how="Theorem 4 at T: 8 log T / Delta^2", horizon=10)
    r = C.reproducible("demo.r", "a test", reproduced=1.0, horizon=10)
    h = C.CheckReport("chapters/demo/demo.ipynb", [(b, None, "written"), (r, None, "written")])._repr_html_()
    bound_line, other_line = h.split("<tr class='ldp-sub'>")[1:]
    assert "<span class='ldp-label'>bound</span> Theorem 4 at T: 8 log T / Δ<sup>2</sup></span>" in bound_line
    assert "ldp-label'>bound<" not in other_line
    assert "Theorem 4" not in repr(C.CheckReport("x.ipynb", [(b, None, "written")]))  # the text form is as it was


def test_a_table_with_math_is_typeset_by_mathjax():
    t = C.Table(["a", "$x$"], [["$\\frac{1}{2}$", "<b>"]], math=True)
    h = t._repr_html_()
    assert h.startswith("<div class='mathjax_process'>")
    assert "<th>\\(x\\)</th>" in h and "<td>\\(\\frac{1}{2}\\)</td>" in h and "&lt;b&gt;" in h
    assert "$" not in h


def test_an_unbounded_systematic_spread_is_underdetermined_and_stored_as_strict_json():
    """A number that an unstated constant scales without a bound the book can give (azize2022/figure2's '10 times',
    proportional to the baseline's noise bound B) carries systematic=inf: underdetermined however large z is, shown
    as 'unbounded', and stored as the string "unbounded", since data/ is strict JSON."""
    import json
    import math

    c = _stat(3.3, 0.09, paper=10.0, sense=">=", systematic=math.inf, systematic_how="unbounded: B is unstated")
    assert c.z() > 40 and c.verdict() == "underdetermined" and "systematic spread (unbounded)" in c.verdict_text()
    assert "z =" not in c.verdict_text()
    stored = c.to_dict()
    assert stored["systematic"] == "unbounded"
    text = json.dumps(stored, allow_nan=False)  # strict JSON: no Infinity
    back = C.Claim.from_dict(json.loads(text))
    assert back.systematic == math.inf and back.verdict() == "underdetermined"
    assert _stat(3.3, 0.09, paper=10.0, sense=">=").verdict() == "disagrees"  # without it: judged by z
    with pytest.raises(ValueError, match="systematic must be a number"):
        _stat(3.3, 0.09, paper=10.0, sense=">=", systematic=math.nan, systematic_how="x")


def test_an_exact_identity_agrees_to_the_resolution_of_its_runs():
    """An identity with no rounding and no margin (the map g's unbiasedness) agrees within 2 se whatever the se: the
    row says what the runs resolve (2 se of the difference), so a wide one reads as what it is."""
    exact = _stat(0.9993, 0.0035, paper=1.0, paper_unit=0.0)
    assert exact.verdict_text() == "agrees (z = 0.2, -0.07%, resolution ±0.007)"
    assert "resolution" not in _stat(1.04, 0.01, paper=1.0, paper_unit=0.1).verdict_text()  # printed 1.0: digits set it
    assert "resolution" not in _stat(1.2, 0.05, paper=1.0, paper_unit=0.0).verdict_text()  # beyond: a z says it


def test_an_agreement_that_could_not_have_failed_is_inconclusive():
    """An exponent of 1/ε below the stated 1, where a regret capped by the loss range allows at most 0.75 over the ε
    grid: the claim could not have failed, so it does not agree, it is inconclusive; with room above 1 it agrees.
    reachable is stored only when set, and read back."""
    import json

    vacuous = _stat(0.22, 0.03, paper=1.0, paper_unit=1e-9, sense="<=", reachable=0.75)
    assert vacuous.cannot_fail() and vacuous.verdict() == "inconclusive"
    assert vacuous.verdict_text() == (
        "inconclusive (could not have failed: the experiment allows at most 0.75 against the stated 1; "
        "measured 0.22 ± 0.03)"
    )
    assert _stat(0.22, 0.03, paper=1.0, paper_unit=1e-9, sense="<=", reachable=1.22).verdict() == "agrees"
    assert _stat(0.22, 0.03, paper=1.0, paper_unit=1e-9, sense="<=").verdict() == "agrees"
    assert _stat(1.5, 0.03, paper=1.0, paper_unit=1e-9, sense=">=", reachable=1.2).verdict() == "inconclusive"
    # beyond the paper's number, but within noise of it: even at the cap the number would agree, so it could not
    # have failed either (Zheng's two-point exponent of 1/eps: at most 2.047 against 2, se 0.0245, 1.9 se)
    close = _stat(0.962, 0.0245, paper=2.0, paper_unit=1e-9, sense="<=", reachable=2.047)
    assert close.cannot_fail() and close.verdict() == "inconclusive"
    assert close.verdict_text() == (
        "inconclusive (could not have failed: the experiment allows at most 2.05 against the stated 2, within noise "
        "of it (1.9 se beyond); measured 0.96 ± 0.025)"
    )
    # just past 2 se at the cap it could have failed: it agrees, and says by how much it could have failed
    power = _stat(0.962, 0.0245, paper=2.0, paper_unit=1e-9, sense="<=", reachable=2.05)
    assert not power.cannot_fail() and power.verdict() == "agrees"
    assert power.verdict_text() == (
        "agrees (on the stated side: 1 below 2, 42.4 se; it could have failed: the experiment allows at most 2.05, "
        "2.0 se beyond)"
    )
    assert (
        vacuous.to_dict()["reachable"] == 0.75
        and "reachable" not in _stat(0.22, 0.03, paper=1.0, paper_unit=1e-9).to_dict()
    )
    assert C.Claim.from_dict(json.loads(json.dumps(vacuous.to_dict()))) == vacuous
    uncapped = _stat(0.22, 0.03, paper=1.0, paper_unit=1e-9, sense="<=", reachable=float("inf"))
    assert uncapped.reachable is None and uncapped.verdict() == "agrees"  # no cap: as if none were given
    with pytest.raises(ValueError, match="needs sense <= or >="):
        _stat(0.22, 0.03, paper=1.0, paper_unit=1e-9, reachable=0.75)
    with pytest.raises(ValueError, match="reachable must be a finite number"):
        _stat(0.22, 0.03, paper=1.0, paper_unit=1e-9, sense="<=", reachable=float("nan"))


def test_a_row_beyond_2_se_says_how_often_its_family_would_give_one_by_chance():
    """One of six numbers of one statement at z = 2.5 is what a true statement gives in 24% of such families
    (1 - (1 - 0.0455)^6); one-sided, 13%. A lone number, or one within 2 se, gets no note."""
    from ldpcode.claims.report import chance_note

    family = [_stat(1.0, 0.1, paper=1.0, paper_unit=0) for _ in range(5)] + [_stat(1.25, 0.1, paper=1.0, paper_unit=0)]
    far = family[-1]
    assert far.verdict() == "near"
    assert chance_note(far, family) == (
        "one of 6 numbers of this statement: were it true, at least one of 6 would lie beyond 2 se by chance with "
        "probability 24%"
    )
    assert chance_note(family[0], family) == "" and chance_note(far, [far]) == ""
    one_sided = [_stat(0.75, 0.1, paper=1.0, paper_unit=0, sense=">=") for _ in range(6)]
    assert one_sided[0].verdict() == "near" and "probability 13%" in chance_note(one_sided[0], one_sided)


@pytest.mark.parametrize(
    "quote, html_",
    [
        ("When ϵ_{min} is too small", "When ϵ<sub>min</sub> is too small"),
        ("the terms α_0 and β_0 may", "the terms α<sub>0</sub> and β<sub>0</sub> may"),
        ("the R^2 -value is 0.9977", "the R<sup>2</sup> -value is 0.9977"),
        ("$\\epsilon_{min}=0.2$ and t_4", "\\(\\epsilon_{min}=0.2\\) and t<sub>4</sub>"),  # TeX stays TeX
        ("a snake_case word, 3 < 4", "a snake_case word, 3 &lt; 4"),  # a subscript is one letter or braced
    ],
)
def test_a_quotes_text_subscripts_render_as_html_and_its_tex_as_mathjax(quote, html_):
    from ldpcode.claims.tables import _mathjax

    assert _mathjax(quote) == html_


@pytest.mark.parametrize(
    "x, text",
    [
        (1e-4, "10⁻⁴"),
        (0.01, "10⁻²"),
        (1.0, "1"),
        (100.0, "10²"),
        (1e7, "10⁷"),
        (2e5, "2·10⁵"),
        (0.5, "5·10⁻¹"),
        (25, "2·10¹"),
    ],
)
def test_a_decade_grid_is_written_in_powers_of_ten(x, text):
    """azize2022/theorem2_minimax's ε column read 1e-04, 1e-02, 1e+00 and theorems7_8's t column 1e+02 ... 1e+07
    (format ".0e"); the same rounding, written as the book writes powers of ten."""
    from ldpcode.claims.tables import power_of_ten

    assert power_of_ten(x) == text


def test_table_headers_write_their_ascii_math_as_the_prose_does():
    """Tables headed "eps", "p_0" and "E[N_a(T)]" sat under prose that writes ε, p₀ and E[N_a(T)] as math; the HTML
    header now writes them so, leaves inline math and HTML as they are, and the text table keeps the ASCII."""
    from ldpcode.claims.tables import Markup, Table

    t = Table(
        ["eps", "p_0", "E[N_a(T)]", "regret at \\(T = 10^7\\)", Markup("<i>x</i>"), "Thm 1's"], [[1, 2, 3, 4, 5, 6]]
    )
    heads = re.findall(r"<th>(.*?)</th>", t._repr_html_())
    assert heads == ["ε", "p<sub>0</sub>", "E[N<sub>a</sub>(T)]", "regret at \\(T = 10^7\\)", "<i>x</i>", "Thm 1's"]
    assert repr(t).splitlines()[0].split() == [
        "eps",
        "p_0",
        "E[N_a(T)]",
        "regret",
        "at",
        "\\(T",
        "=",
        "10^7\\)",
        "<i>x</i>",
        "Thm",
        "1's",
    ]


def test_a_text_cell_that_is_one_number_never_breaks_inside_it():
    """A table of text cells (no formats) let the browser break 1,000,000 as "1,000,0 / 00" in the appendix's
    audit: a cell that is one number gets the class nb (no break, _static/ldp.css), a cell of words none, and a
    formatted column keeps num."""
    from ldpcode.claims import Table

    html = Table(["a", "b"], [["1,000,000", "a mechanism (claims ε = 1)"], ["3.2·10⁻⁵", "(0, 1)"], ["inf", "-0.25"]])
    cells = re.findall(r"<td(?: class='(\w+)')?>([^<]*)</td>", html._repr_html_())
    assert [k for k, _ in cells] == ["nb", "", "nb", "", "nb", "nb"]
    assert "class" not in Table(["a"], [["two words"]])._repr_html_().split("<tbody>")[1]
    assert "class='num'" in Table(["a", "b"], [["x", 1234.5]], formats=[None, ".1f"])._repr_html_()


def test_a_text_cell_that_is_one_short_word_never_breaks_inside_it():
    """Lemma 1 and Theorem 6's audit table broke its verdict "VIOLATION" as "VIOLATIO / N" in a narrow column: a
    cell of one word of at most 12 characters gets the class nb; a longer name may still break (a notebook's file
    name must not overflow its column)."""
    from ldpcode.claims import Table

    html = Table(["verdict"], [["VIOLATION"], ["AdaP-KLUCB"], ["within ε"], ["ren2020-bernoulli"]])._repr_html_()
    cells = re.findall(r"<td(?: class='(\w+)')?>([^<]*)</td>", html)
    assert cells == [("nb", "VIOLATION"), ("nb", "AdaP-KLUCB"), ("", "within ε"), ("", "ren2020-bernoulli")]


def test_a_text_cell_writes_the_min_of_a_symbol_as_a_subscript():
    """A plain table's text cell "discrete, ε_min = 1" reads as the title and the prose write it, ε with a subscript
    min, and so do a short symbol's one-letter subscripts (ε_t, p_0, c_ε: the appendix's audit table, heldp's Figure 2
    table and Theorems 4-5 showed the underscore); a name keeps its underscores, with a break opportunity after each
    (Table 1 of Zheng et al. broke "corollary4_one_poi / nt_bco" inside a word), and a Markup cell is left alone."""
    from ldpcode.claims import Table
    from ldpcode.claims.tables import Markup

    html = Table(
        ["setting", "id"],
        [["discrete, ε_min = 1, d_inf", Markup("<code>x_min</code>")], ["heldp_min", "ε_t, p_0, c_ε"]],
    )
    body = html._repr_html_().split("<tbody>")[1]
    assert "ε<sub>min</sub> = 1, d<sub>inf</sub>" in body and "<code>x_min</code>" in body
    assert "heldp_<wbr>min" in body and "ε<sub>t</sub>, p<sub>0</sub>, c<sub>ε</sub>" in body
    assert "corollary4_<wbr>one_<wbr>point_<wbr>bco" in Table(["nb"], [["corollary4_one_point_bco"]])._repr_html_()
    assert "heldp_min" in repr(html)  # the text form shows the cell as typed


def test_a_statement_of_k_numbers_is_refuted_only_beyond_the_largest_z_of_k():
    """Six numbers of one true statement put one beyond 2 se in 24% of families: the statement counts a row at
    z = 2.5 as agreeing (within family_z(6) = 2.66, Šidák), a row at z = 2.8 as near; one number alone at z = 2.5
    stays near, and a row with a systematic spread keeps its own verdict."""
    import math

    from ldpcode.claims.report import counted_verdict, family_z

    assert family_z(1) == pytest.approx(2.0) and family_z(1, ">=") == pytest.approx(2.0)
    assert family_z(6) == pytest.approx(2.664, abs=1e-3) and family_z(2) == pytest.approx(2.273, abs=1e-3)
    # P(largest of k beyond family_z(k)) = P(one beyond 2): the Šidák identity, two- and one-sided
    for k in (2, 6, 20):
        assert 1 - (1 - math.erfc(family_z(k) / math.sqrt(2))) ** k == pytest.approx(math.erfc(math.sqrt(2)))
        one_sided = 1 - (1 - math.erfc(family_z(k, ">=") / math.sqrt(2)) / 2) ** k
        assert one_sided == pytest.approx(math.erfc(math.sqrt(2)) / 2)
    five = [_stat(1.0, 0.1, paper=1.0, paper_unit=0) for _ in range(5)]
    mild, far = _stat(1.25, 0.1, paper=1.0, paper_unit=0), _stat(1.28, 0.1, paper=1.0, paper_unit=0)
    assert mild.verdict() == far.verdict() == "near"
    assert counted_verdict(mild, [*five, mild]) == "agrees" and C.statement_verdict([*five, mild]) == "agrees"
    assert C.statement_verdict([*five, far]) == "near"
    assert C.statement_verdict([mild]) == "near"  # one number: 2 se is its own family's threshold
    summary = C.statement_summary([*five, mild])
    assert summary.startswith("one statement, counted as agrees: its 6 numbers give 1 near, 5 agrees")
    assert "the near row (z = 2.5) lies within 2.66 se" in summary
    spread = _stat(1.25, 0.1, paper=1.0, paper_unit=0, systematic=0.01, systematic_how="a window")
    assert spread.verdict() == "near" and C.statement_verdict([*five, spread]) == "near"


def test_a_failure_asserted_the_other_way_round_reads_failure_shown_not_holds():
    """A theorem's bound above what a policy reaches is a failure the notebook finds: its row reads "failure shown"
    (red: a paper's statement fails), never a green "holds"; where it does not hold the check fails as any bound's;
    the flag is stored only when set, and only a bound carries it."""
    shown = C.bound("a.b", "s", reproduced=0.053, bound=1.0, how="Theorem 2 FAILS here", shows_failure=True)
    assert shown.verdict() == "failure shown" and shown.verdict_text() == "failure shown (5.3% of it)"
    assert C.tables._VERDICT_CLASS[shown.verdict()] == "disagree"
    assert C.Claim.from_dict(shown.to_dict()) == shown and shown.to_dict()["shows_failure"] is True
    plain = C.bound("a.b", "s", reproduced=0.053, bound=1.0, how="a bound")
    assert plain.verdict() == "holds" and "shows_failure" not in plain.to_dict()
    missed = C.bound("a.b", "s", reproduced=2.0, bound=1.0, how="the audit must refute it", shows_failure=True)
    assert missed.verdict() == "VIOLATED" and missed.problem()
    with pytest.raises(TypeError, match="shows_failure must be True or False"):
        C.bound("a.b", "s", reproduced=0.5, bound=1.0, how="h", shows_failure="yes")
    stored = C.exact("a.b", "s", reproduced=1.0, second=1.0, how="a vs b").to_dict() | {"shows_failure": True}
    with pytest.raises(ValueError, match="only a bound claim shows a failure"):
        C.Claim.from_dict(stored)


def test_a_control_broken_on_purpose_reads_caught_as_intended_not_a_papers_failure():
    """A mechanism broken on purpose (half its noise) whose audit refutes its claim is the check doing its work:
    "caught, as intended" (green), not the red "failure shown" of a paper's bound that fails; ``control`` implies
    ``shows_failure``, is stored only when set, and a stored control without the failure flag is refused."""
    caught = C.bound("a.b", "s", reproduced=1.95, bound=1.0, sense=">=", how="the audit must refute it", control=True)
    assert caught.verdict() == "caught, as intended" and caught.verdict_text() == "caught, as intended (1.95× it)"
    assert C.tables._VERDICT_CLASS[caught.verdict()] == "agree"
    d = caught.to_dict()
    assert d["control"] is True and d["shows_failure"] is True and C.Claim.from_dict(d) == caught
    assert "control" not in C.bound("a.b", "s", reproduced=0.5, bound=1.0, how="h").to_dict()
    missed = C.bound("a.b", "s", reproduced=0.5, bound=1.0, sense=">=", how="must refute", control=True)
    assert missed.verdict() == "VIOLATED"  # a control the audit did not catch fails the check
    with pytest.raises(TypeError, match="control must be True or False"):
        C.bound("a.b", "s", reproduced=2.0, bound=1.0, sense=">=", how="h", control=1)
    with pytest.raises(ValueError, match="control is True .with shows_failure True"):
        C.Claim.from_dict({k: v for k, v in d.items() if k != "shows_failure"})
    with pytest.raises(ValueError, match="only a bound claim is a control"):
        C.Claim.from_dict(C.exact("a.b", "s", reproduced=1.0, second=1.0, how="a vs b").to_dict() | {"control": True})


@pytest.mark.parametrize(
    "text, html",
    [
        ("private regret O~(T^3/4/ε)", "private regret \u00d5(T<sup>3/4</sup>/ε)"),  # the horizon's fraction: a rate
        ("E[e^-Z/(1+e^-Z)^2]", "E[e<sup>−Z</sup>/(1+e<sup>−Z</sup>)<sup>2</sup>]"),
        ("t^(-1/3) and e^(eps - L)", "t<sup>−1/3</sup> and e<sup>ε − L</sup>"),  # bracketed: it says where it ends
        ("a (ln T)^0.2, 2^-53, min{4, e^2eps}", "a (ln T)<sup>0.2</sup>, 2<sup>−53</sup>, min{4, e<sup>2ε</sup>}"),
        ("tuned for B_tilde = 70, G~ = sqrt(G² + σ²)", "tuned for B\u0303 = 70, G\u0303 = √(G² + σ²)"),
        ("exp(-v_a^2/2), pi^2/3", "exp(-v<sub>a</sub>^2/2), π^2/3"),  # v²/2 or v^(2/2)? it stays a caret
        ("G_1, G_2 ~ Gamma(n, b); x ~ 1; the ^ sign", "G<sub>1</sub>, G<sub>2</sub> ~ Gamma(n, b); x ~ 1; the ^ sign"),
    ],
)
def test_claim_text_sets_only_the_exponents_that_say_where_they_end(text, html):
    """The report's rows wrote O~(T^3/4/ε), e^-Z and B_tilde as typed. An exponent that says where it ends is a
    superscript, a capital's tilde a tilde over it; one that could end in two places stays a caret, and a tilde
    between spaces (distributed as, about) stays."""
    from ldpcode.claims.tables import _prose

    assert _prose(text) == html


def test_an_upper_bound_above_the_largest_possible_value_reads_vacuous_not_holds():
    """Theorem 6's bound at T = 10^6, ε = 0.2 is 1.13·10^6, 2.83 times T·Δ_max = 4·10^5, the most any policy can
    lose: 'holds (0.03% of it)' could not have failed. With cap, such a bound reads 'vacuous' (amber); a cap above
    the bound, or on a lower bound, is refused (nb.regret_bound sets it: tests/book/test_notebook_contract.py)."""
    b = C.bound("a.b", "s", reproduced=1000.0, bound=1.13e6, how="Theorem 6 at T", horizon=10**6, cap=4e5)
    assert b.verdict() == "vacuous" and b.verdict_text() == "vacuous (2.83× the largest possible value, 400,000)"
    assert C.tables._VERDICT_CLASS["vacuous"] == "near" and C.Claim.from_dict(b.to_dict()) == b
    assert "cap" not in C.bound("a.b", "s", reproduced=1.0, bound=2.0, how="h").to_dict()
    with pytest.raises(ValueError, match="marks an upper bound at or above it"):
        C.bound("a.b", "s", reproduced=1.0, bound=1e5, how="h", cap=4e5)
    with pytest.raises(ValueError, match="marks an upper bound at or above it"):
        C.bound("a.b", "s", reproduced=1.0, bound=1e6, how="h", sense=">=", cap=4e5)
    violated = C.bound("a.b", "s", reproduced=2e6, bound=1.13e6, how="h", cap=4e5)
    assert violated.verdict() == "VIOLATED"


def test_a_printed_number_keeps_the_books_reading_on_a_line_of_its_own():
    """The report's paper column does not wrap: '≥ 0.2066 (read as = 0.2066)' on one line made the first paper's
    table 46 px too wide at 1280 px. The reading goes under the printed number, escaped like it."""
    from ldpcode.claims.tables import reading_on_its_line

    assert reading_on_its_line("10 (read as ≥ 10)") == "10<span class='ldp-reading'>(read as ≥ 10)</span>"
    assert reading_on_its_line("9.0") == "9.0" and reading_on_its_line("a<b") == "a&lt;b"


def test_numbers_of_one_figure_stored_without_their_approach_disagree_where_no_common_t_fits():
    """A read-only review of the report: Ren et al.'s 1.6 (LDP-UCB-B / UCB) and 8.5 (LDP-UCB-L / UCB) of Figure 1(a)
    were each 'consistent at some t', at t = 3.1·10⁴-4.6·10⁵ and 3.0·10⁶-10⁷; one panel is read at one horizon, so
    the statement holding both disagrees. Ranges that meet keep the numbers' own verdicts."""
    import numpy as np

    t = np.array([10**3, 10**4, 10**5, 10**6])
    den = np.ones((4, 4))
    wobble = np.array([[0.0], [0.001], [-0.001], [0.0]])
    b = np.array([[1.2, 1.6, 1.9, 2.2]] * 4) + wobble  # 1.6 at t = 10⁴ only
    l_late = np.array([[5.0, 6.0, 7.0, 8.5]] * 4) + wobble  # 8.5 at t = 10⁶ only
    l_early = np.array([[7.0, 8.5, 8.5, 9.5]] * 4) + wobble  # 8.5 at t = 10⁴-10⁵
    key = "ren2020ldp.fig1a.ratios_eps2"

    def ratio(name, curve, paper):
        r = C.consistent_horizons(t, curve, den, paper)
        return C.statistical(
            name,
            "Fig. 1(a)",
            reproduced=float(curve[0, -1]),
            se=0.001,
            paper=paper,
            statement=key,
            reason="r",
            horizon=10**6,
            horizons=r,
        )

    one, late, early = ratio("o.b", b, 1.6), ratio("o.l", l_late, 8.5), ratio("o.e", l_early, 8.5)
    assert {one.verdict(), late.verdict(), early.verdict()} == {"consistent at some t"}
    assert C.statement_verdict([one, late]) == "disagrees"
    assert C.statement_summary([one, late]) == (
        "one statement, numbers of one figure the paper read at one horizon it does not state, counted as disagrees: "
        "no t in [10³, 10⁶] fits them all within 2 se (1.6 at t ≈ 10⁴; 8.5 at t ≈ 10⁶)"
    )  # ranges without their closest approach (with_joint): disagrees, as a file written before it reads
    assert C.statement_verdict([one, early]) == "consistent at some t"
    assert "together at most at t ≈ 10⁴ (1.6 at t ≈ 10⁴; 8.5 at t ≈ 10⁴–10⁵)" in C.statement_summary([one, early])


def test_a_number_at_a_stated_horizon_does_not_hide_a_pair_that_fits_no_common_t():
    """The second look: a third number, judged at a stated horizon, turned the pair's 'disagrees' into its own
    verdict (the joint rule asked every number to be searched over t)."""
    import numpy as np

    t, den = np.array([10**3, 10**4, 10**5, 10**6]), np.ones((4, 4))
    wobble = np.array([[0.0], [0.001], [-0.001], [0.0]])
    key = "ren2020ldp.fig1a.ratios_eps2"

    def ratio(name, curve, paper):
        r = C.consistent_horizons(t, curve, den, paper)
        return C.statistical(name, "Fig. 1(a)", reproduced=float(curve[0, -1]), se=0.001, paper=paper, statement=key,
                             reason="r", horizon=10**6, horizons=r)  # fmt: skip

    early = ratio("o.b", np.array([[1.2, 1.6, 1.9, 2.2]] * 4) + wobble, 1.6)
    late = ratio("o.l", np.array([[5.0, 6.0, 7.0, 8.5]] * 4) + wobble, 8.5)
    stated = C.statistical("o.s", "s", reproduced=2.0, se=0.1, paper=2.0, statement=key, reason="r", horizon=10**6)
    assert C.statement_verdict([early, late, stated]) == "disagrees"
    assert C.statement_verdict([early, stated]) == "consistent at some t"


def test_the_closest_approach_is_where_the_farthest_number_is_nearest_its_interval():
    """consistent_horizons' z: 0 within the printed number's rounding, else the distance beyond it in the curve's
    standard errors (so inside <=> z <= 2); closest_approach: the t minimising the larger of two numbers' z, by hand."""
    import numpy as np

    t = np.array([10**3, 10**4, 10**5])
    den = np.ones((4, 3))
    wobble = np.array([[0.0], [0.01], [-0.01], [0.0]])
    num = np.array([[1.60, 1.70, 1.80]] * 4) + wobble
    r = C.consistent_horizons(t, num, den, 1.6)
    from ldpcode.stats import ratio_of_means_se

    se = ratio_of_means_se(num, den)
    want = np.maximum(np.abs(num.mean(axis=0) - 1.6) - 0.05, 0) / se
    np.testing.assert_allclose(r.z, want, rtol=1e-12)
    assert r.z[0] == 0.0 and (r.inside == (r.z <= 2)).all()
    a = C.HorizonRange((1, 3), (), t=np.array([1, 2, 3]), inside=np.zeros(3, bool), z=np.array([5.0, 3.0, 2.5]))
    b = C.HorizonRange((1, 3), (), t=np.array([1, 2, 3]), inside=np.zeros(3, bool), z=np.array([2.1, 2.9, 4.0]))
    assert C.closest_approach(a, b) == (2, 3.0)  # max per t: 5, 3, 4
    joined = C.with_joint({"a": a, "b": b})
    assert joined["a"].joint == joined["b"].joint == (2, 3.0) and a.joint == ()
    with pytest.raises(TypeError, match="closest_approach takes HorizonRange objects from consistent_horizons"):
        C.closest_approach(C.HorizonRange((1, 3), (), t=np.array([1, 2, 3]), inside=np.zeros(3, bool)), a)
    with pytest.raises(ValueError, match="the same checkpoints"):
        C.closest_approach(a, C.HorizonRange((1, 2), (), t=np.array([1, 2]), inside=np.zeros(2, bool), z=np.ones(2)))


def test_numbers_of_one_figure_that_meet_at_no_t_are_judged_by_their_closest_approach():
    """Two numbers read at one unstated horizon, consistent each at a t of its own and at no common one: the pair is
    consistent at some t within Šidák's 2.27 se for two, near within 4, disagrees beyond (and disagrees when a stored
    claim lacks the approach, as files written before it). The summary line gives t and z."""
    import dataclasses

    import numpy as np

    key = "ren2020ldp.fig1a.ratios_eps2"
    t = np.array([10**3, 10**4, 10**5, 10**6])
    ranges = {
        "b": C.HorizonRange((10**3, 10**6), (10**4, 10**4), t=t, inside=t == 10**4, z=np.array([9, 0, 2.2, 9.0])),
        "l": C.HorizonRange((10**3, 10**6), (10**6, 10**6), t=t, inside=t == 10**6, z=np.array([9, 9, 2.2, 0.0])),
    }

    def pair(z):  # the same ranges, their closest approach at t = 10^5 set to z
        out = []
        for name, r in ranges.items():
            r = dataclasses.replace(r, joint=(10**5, z) if z is not None else ())
            out.append(C.statistical(f"o.{name}", "Fig. 1(a)", reproduced=1.0, se=0.01, paper=1.6 if name == "b" else 8.5,
                                     statement=key, reason="r", horizon=10**6, horizons=r))  # fmt: skip
        return out

    assert C.closest_approach(*ranges.values()) == (10**5, 2.2)
    assert [c.t_joint for c in pair(2.2)] == [[10**5, 2.2]] * 2
    assert {c.verdict() for c in pair(2.2)} == {"consistent at some t"}
    for z, verdict in [(2.2, "consistent at some t"), (2.28, "near"), (4.0, "near"), (4.01, "disagrees")]:
        assert C.report.joint_verdict(pair(z)) == verdict and C.statement_verdict(pair(z)) == verdict, z
    assert C.statement_verdict(pair(None)) == "disagrees" and pair(None)[0].t_joint is None
    assert C.statement_summary(pair(3.14)) == (
        "one statement, numbers of one figure the paper read at one horizon it does not state, counted as near: "
        "no t in [10³, 10⁶] fits them all within 2 se; closest at t ≈ 10⁵, where the farther of the 2 is 3.14 se "
        "beyond its interval (the farther of 2 numbers of a true figure lies beyond 2.27 se as often as one number "
        "beyond 2 se, Šidák; near within 4) (1.6 at t ≈ 10⁴; 8.5 at t ≈ 10⁶)"
    )
    assert C.report.joint_verdict(pair(3.0)[:1]) is None  # one number: no joint question


@pytest.mark.parametrize(
    "fields, words",
    [
        (dict(t_joint=[10, 1.0]), "t_accepts and t_joint only with them"),
        (dict(t_searched=[10, 100], t_consistent=[], t_joint=[5, 1.0]), "t_joint must be"),
        (dict(t_searched=[10, 100], t_consistent=[], t_joint=[50, -1.0]), "t_joint must be"),
        (dict(t_searched=[10, 100], t_consistent=[], t_joint=[50]), "t_joint must be"),
        (dict(t_searched=[10, 100], t_consistent=[], t_joint=[50, float("inf")]), "t_joint must be"),
        (dict(t_searched=[10, 100], t_consistent=[], t_joint=["50", 1.0]), "t_joint must be"),
    ],
)
def test_a_stored_closest_approach_is_checked(fields, words):
    d = _stat(1.9, 0.01, paper=1.2).to_dict() | dict(t_consistent=None, t_searched=None) | fields
    with pytest.raises(ValueError, match=words):
        C.Claim.from_dict(d)


def test_ranges_that_overlap_without_a_checkpoint_fitting_both_are_judged_by_their_closest_approach():
    """The review's case: 1.6 fits at 10⁴ and 10⁶ (first and last visit), 8.5 at 10⁵ only, so the ranges overlap from
    first to last visit, yet no checkpoint fits both. With the approach stored the pair is judged by it; a file
    without it keeps the overlap test."""
    import dataclasses

    import numpy as np

    t = np.array([10**3, 10**4, 10**5, 10**6])
    b = C.HorizonRange(
        (10**3, 10**6), (10**4, 10**6), t=t, inside=np.array([0, 1, 0, 1], bool), z=np.array([9, 0, 5.0, 0])
    )
    l = C.HorizonRange(
        (10**3, 10**6), (10**5, 10**5), t=t, inside=np.array([0, 0, 1, 0], bool), z=np.array([9, 9, 0, 6.0])
    )
    assert C.joint_horizons(b, l) == (10**5, 10**5) and C.closest_approach(b, l) == (10**5, 5.0)

    def claims(joined):
        return [C.statistical(f"o.{n}", "Fig. 1(a)", reproduced=1.0, se=0.01, paper=p, statement="ren2020ldp.fig1a.ratios_eps2",
                              reason="r", horizon=10**6, horizons=r)
                for n, p, r in (("b", 1.6, joined["b"]), ("l", 8.5, joined["l"]))]  # fmt: skip

    with_approach = claims(C.with_joint({"b": b, "l": l}))
    assert C.report.joint_verdict(with_approach) == "disagrees" and C.statement_verdict(with_approach) == "disagrees"
    without = claims({"b": dataclasses.replace(b), "l": dataclasses.replace(l)})
    assert C.report.joint_verdict(without) is None  # an older file: the ranges meet, each number's own verdict


def test_a_stored_closest_approach_names_a_checkpoint():
    d = _stat(1.9, 0.01, paper=1.2).to_dict() | dict(t_searched=[10, 100], t_consistent=[], t_joint=[50.5, 1.0])
    with pytest.raises(ValueError, match="t_joint must be"):
        C.Claim.from_dict(d)
