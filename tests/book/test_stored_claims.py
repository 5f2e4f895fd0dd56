"""Every stored number under data/ obeys the book's rules: each claim says its kind, no tolerance is wider
than the quantity it guards unless the claim says why, no number is stored twice, each stated paper number
is judged once, and each file belongs to a notebook of the book."""

import collections
import json
from pathlib import Path

import pytest

from ldpcode import claims as C
from ldpcode.claims.tables import format_value

ROOT = Path(__file__).resolve().parents[2]
FILES = C.stored_files(root=ROOT)
SUMMARY = C.collect(root=ROOT)
TOC = (ROOT / "_toc.yml").read_text()


def test_every_notebook_has_its_stored_numbers():
    notebooks = {p.relative_to(ROOT / "chapters").with_suffix("") for p in (ROOT / "chapters").glob("*/*.ipynb")}
    stored = {p.relative_to(ROOT / "data").with_suffix("") for p in (ROOT / "data").glob("*/*.json")}
    assert notebooks == stored, (
        f"notebooks without numbers: {notebooks - stored}; numbers without notebook: {stored - notebooks}"
    )
    assert len(SUMMARY.claims) >= 300


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT / "data")))
def test_each_file_belongs_to_a_notebook_of_the_book(path):
    payload = json.loads(path.read_text())
    nb = payload["notebook"]
    assert C.data_path(nb, ROOT) == path, f"{path} is stored for {nb}"
    assert (ROOT / nb).exists(), f"{path}: its notebook {nb} does not exist"
    assert nb.removesuffix(".ipynb") in TOC, f"{nb} is not in _toc.yml"
    assert payload["claims"], f"{path} stores no claim"


def test_no_tolerance_is_wider_than_its_quantity_unless_the_claim_says_why():
    wide = [
        f"{c.id}: {format_value(c.reproduced)} ± {format_value(c.tolerance)}"
        for c in SUMMARY.claims
        if c.tolerance > abs(c.reproduced) and not c.tolerance_reason
    ]
    assert not wide, "tolerances wider than the quantity, without a tolerance_reason:\n" + "\n".join(wide)


def test_no_number_is_stored_twice():
    """The same non-integer value under two ids is one number stored twice (integers, such as counts, may
    coincide by chance)."""
    by_value = collections.defaultdict(list)
    for c in SUMMARY.claims:
        if c.reproduced != int(c.reproduced):
            by_value[c.reproduced].append(c.id)
    twice = {v: ids for v, ids in by_value.items() if len(ids) > 1}
    assert not twice, "numbers stored under more than one id:\n" + "\n".join(
        f"{v!r}: {', '.join(ids)}" for v, ids in twice.items()
    )


def test_each_stated_paper_number_is_judged_once():
    seen = collections.Counter((c.cites, c.source) for c in SUMMARY.stated())
    again = [f"{k[0]}: {k[1]}" for k, n in seen.items() if n > 1]
    assert not again, "stated numbers judged by more than one claim (one row per stated number):\n" + "\n".join(again)


def test_every_paper_number_carries_the_evidence_of_its_statement():
    """Quote, locator and category as the registry has them now (a stale copy would fail its notebook's check)."""
    for c in SUMMARY.stated():
        st = C.statements.get(c.statement)
        assert (c.cites, c.category, c.locator, c.quote) == (st.cites, st.category, st.locator, st.quote), c.id
        if st.horizon is not None and c.horizon is not None:
            assert c.horizon == st.horizon, f"{c.id}: judged at T = {c.horizon}, the paper states {st.horizon}"


def test_every_statement_is_judged_by_a_stored_number():
    used = {c.statement for c in SUMMARY.stated()}
    unused = sorted(set(C.statements.STATEMENTS) - used)
    assert not unused, f"statements no stored claim judges (remove them or judge them): {unused}"


def test_no_verdict_stands_far_from_the_paper_without_its_systematic_spread():
    """z > 10 on Monte Carlo noise alone is false precision: such a claim says what else moves the number."""
    bare = [
        f"{c.id}: z = {c.z():.1f}"
        for c in SUMMARY.stated()
        if c.kind == "statistical"
        and c.verdict() != "not judged"
        and c.t_searched is None
        and c.z() > 10
        and not c.systematic_how
    ]
    assert not bare, "verdicts at z > 10 without systematic_how:\n" + "\n".join(bare)


def test_every_paper_has_stated_numbers_in_the_report():
    for key in C.PAPERS:
        assert C.paper_section(SUMMARY, key).claims, f"no stated number of {key} is judged"


def test_the_report_shows_what_a_quote_leaves_out_under_it():
    """A statement's note (what an ellipsis or the extraction drops, how the book reads the words) stands once under
    its quote, in the page and in the text: Zheng et al.'s Theorem 3 as extracted prints only 'O B ln(T/δ)', and the
    note says how the book reads it."""
    from ldpcode.claims.report import statements_of
    from ldpcode.claims.statements import get

    note = get("zheng2020locally.theorem3.utility").note
    sec = C.paper_section(SUMMARY, "zheng2020locally")
    assert f"  note: {note}" in repr(sec).splitlines()
    page = sec._repr_html_()
    assert page.count("The book reads the bound as O(B√ln(T/δ)/ε · Reg<sub>T</sub><sup>A</sup>)") == 1
    noted = [k for k in statements_of(sec.claims) if get(k).note]
    assert page.count("ldp-why-label'>note:</span>") == len(noted) > 10


def test_exact_claims_name_two_different_computations():
    for c in SUMMARY.claims:
        if c.kind == "exact":
            first, second = (s.strip() for s in c.how.split(" vs ", 1))
            assert first and second and first != second, f"{c.id}: how = {c.how!r}"


def test_no_check_fails_on_the_stored_numbers():
    """What the notebooks assert, read back from data/: no bound violated, no two computations apart."""
    bad = [f"{c.id}: {c.problem()}" for c in SUMMARY.claims if c.problem()]
    assert not bad, "\n".join(bad)


def test_every_claim_of_a_chapter_is_under_its_chapter():
    for c in SUMMARY.claims:
        chapter = SUMMARY.notebooks[c.id].split("/")[1]
        assert c.id.split(".")[0] == chapter, f"{c.id} is stored by {SUMMARY.notebooks[c.id]}"


def test_every_stored_file_is_strict_json():
    """data/ is read by other tools too: no NaN or Infinity, which Python's json writes by default (an unbounded
    systematic spread is stored as "unbounded")."""

    def refuse(name):
        raise ValueError(f"non-standard JSON constant {name}")

    bad = []
    for path in sorted((ROOT / "data").rglob("*.json")):
        try:
            json.loads(path.read_text(encoding="utf-8"), parse_constant=refuse)
        except ValueError as exc:
            bad.append(f"{path.relative_to(ROOT)}: {exc}")
    assert bad == []


def test_heldp_figure2s_reason_states_what_figure1_stores():
    """heldp/figure2's reason says where the paper's horizon likely lies from heldp/figure1's ratios ("three of the four
    ... only at t > 4·10⁶"): a re-run of figure1 that moved them would leave that sentence stale, so it is checked here."""
    fig1 = json.loads((ROOT / "data/heldp/figure1.json").read_text())["claims"]
    starts = [c["t_consistent"][0] for c in fig1 if c.get("t_searched") and c["id"].startswith("heldp.figure1.ratio_")]
    fig2 = json.loads((ROOT / "data/heldp/figure2.json").read_text())["claims"]
    reason = next(c["reason"] for c in fig2 if c["id"] == "heldp.figure2.fit_pooled.r2")
    assert "three of the four ratios of Figure 1(c, d) meet the paper's only at t > 4·10⁶" in reason
    assert len(starts) == 4 and sum(t > 4 * 10**6 for t in starts) == 3, starts
