"""Claims as one frozen class per kind on the base Claim: every stored claim reads back and writes out as the very
dict data/ holds, each kind is its own class and cannot change once built, a field of another kind is refused,
and the papers' names are one table seen two ways."""

import dataclasses
import json
from pathlib import Path

import pytest

from ldpcode import claims as C
from ldpcode import paper_index
from ldpcode.claims import checking, core, kinds

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "data").glob("*/*.json"))


def _dump(d: dict) -> str:
    """A claim dict as the check writes it (``store.write_atomic``: indent 1, unicode kept, keys in order)."""
    return json.dumps(d, ensure_ascii=False, indent=1)


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_stored_claim_writes_back_as_stored(path):
    """to_dict() gives back each stored dict byte for byte, key order included. A file written before the evidence
    fields existed (19 fields) reads each missing field as its default, and writes it back completed with them,
    as the code before the kinds were classes did."""
    for stored in json.loads(path.read_text())["claims"]:
        claim = C.Claim.from_dict(stored, where=str(path))
        assert type(claim) is core.KIND_CLASSES[stored["kind"]] and isinstance(claim, C.Claim), stored["id"]
        assert claim.kind == stored["kind"]
        # a field of core.STORED_WHEN_SET is stored only when set (files written before it existed lack it)
        full = [f for f in C.FIELDS if f not in core.STORED_WHEN_SET or stored.get(f) is not None]
        if list(stored) == full:
            expected = stored
        else:
            assert [f for f in C.FIELDS if f in stored] == list(stored), f"{stored['id']}: stored fields out of order"
            expected = {name: stored.get(name, type(claim).defaults().get(name)) for name in full}
        assert _dump(claim.to_dict()) == _dump(expected), stored["id"]
        again = C.Claim.from_dict(json.loads(_dump(claim.to_dict())))
        assert again == claim and again.verdict_text() == claim.verdict_text(), stored["id"]
        assert checking.evidence_changes(claim, stored) == [], stored["id"]


def test_each_kind_is_its_own_frozen_class():
    made = {
        "statistical": C.statistical(
            "a",
            "s",
            reproduced=1.7,
            se=0.01,
            paper=1.6,
            statement="ren2020ldp.fig1a.ratios_eps2",
            reason="r",
            horizon=10,
        ),
        "exact": C.exact("a", "s", reproduced=1.0, second=1.0, how="x vs y"),
        "bound": C.bound("a", "s", reproduced=1.0, bound=2.0, how="Thm"),
        "reproducible": C.reproducible("a", "s", reproduced=1.0),
        "prediction": C.prediction(
            "a", "s", reproduced=1.0, se=0.1, predicted=1.0, derived_in="x.ipynb", how="h", reason="r", scale="s"
        ),
    }
    assert set(core.KIND_CLASSES) == set(C.KINDS) == set(made)
    for kind, claim in made.items():
        assert type(claim) is core.KIND_CLASSES[kind] and isinstance(claim, C.Claim) and claim.kind == kind
        unset = [f for f in core.STORED_WHEN_SET if getattr(claim, f) is None]
        assert list(claim.to_dict()) == [f for f in C.FIELDS if f not in unset] and claim.to_dict()["kind"] == kind
        with pytest.raises(dataclasses.FrozenInstanceError):
            claim.reproduced = 2.0
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(claim, "note", "changed")
    assert made["bound"].paper is None and made["reproducible"].how == "" and made["exact"].horizon is None
    assert isinstance(made["statistical"], kinds.PaperClaim) and isinstance(made["exact"], kinds.PaperClaim)
    ranged = C.statistical(
        "a",
        "s",
        reproduced=1.7,
        se=0.01,
        paper=1.6,
        statement="ren2020ldp.fig1a.ratios_eps2",
        reason="r",
        horizon=10,
        horizons=C.HorizonRange((10, 1000), (100, 1000)),
    )
    assert (
        ranged.to_dict()["t_consistent"] == [100, 1000] and ranged.to_dict()["t_consistent"] is not ranged.t_consistent
    )


def test_the_base_alone_is_no_claim():
    with pytest.raises(TypeError, match="Claim is the base of the kinds"):
        C.Claim(id="a", source="s", reproduced=1.0, tolerance=0.0)
    with pytest.raises(TypeError, match="Claim is the base of the kinds"):
        kinds.PaperClaim(id="a", source="s", reproduced=1.0, tolerance=0.0)


def test_a_stored_field_of_another_kind_is_refused_unless_at_its_default():
    base = dict(id="a", kind="reproducible", source="s", reproduced=1.0, tolerance=0.0)
    assert C.Claim.from_dict({**base, "how": "", "bound": None, "margin": 0}).to_dict()["margin"] == 0.0
    with pytest.raises(ValueError, match="reproducible claims have no how, got 'x'"):
        C.Claim.from_dict({**base, "how": "x"})
    with pytest.raises(ValueError, match="only an exact claim has a second computation"):
        C.Claim.from_dict({**base, "kind": "bound", "bound": 2.0, "how": "Thm", "sense": "<=", "second": 1.0})
    with pytest.raises(ValueError, match="only a prediction has predicted and derived_in"):
        C.Claim.from_dict({**base, "derived_in": "x.ipynb"})
    with pytest.raises(ValueError, match="is a reproducible claim, not a BoundClaim"):
        kinds.BoundClaim.from_dict(base)
    assert type(kinds.ReproducibleClaim.from_dict(base)) is kinds.ReproducibleClaim


def test_the_papers_are_one_table_seen_two_ways():
    """The report prints ldp.claims.PAPERS[cites], the API appendix paper_index.CHAPTER_TITLES[chapter]: both from
    paper_index.PAPERS_BY_CITES, with the texts they printed before."""
    assert C.PAPERS == {
        "ren2020ldp": "Ren et al. (2020a): ε-local differential privacy",
        "ren2020heldp": "Ren et al. (2020b, extended version): heterogeneous privacy levels",
        "azize2022privacy": "Azize and Basu (2022): ε-global differential privacy",
        "zheng2020locally": "Zheng et al. (2020): (ε, δ)-LDP reductions and contextual bandits",
    }
    assert paper_index.CHAPTER_TITLES == {
        "ren2020": "Ren et al. (2020a): ε-LDP bandits",
        "heldp": "Ren et al. (2020b): heterogeneous LDP",
        "azize2022": "Azize and Basu (2022): ε-global DP",
        "zheng2020": "Zheng et al. (2020): (ε, δ)-LDP reductions and contextual bandits",
        "book": "The book's own chapters",
    }
    for cites, paper in paper_index.PAPERS_BY_CITES.items():
        assert (ROOT / "chapters" / paper.chapter).is_dir() and C.statements.PAPER_FILES[cites]


def _stored(notebook: str, claim_id: str):
    for d in json.loads((ROOT / "data" / f"{notebook}.json").read_text())["claims"]:
        if d["id"] == claim_id:
            return C.Claim.from_dict(d)
    raise AssertionError(f"{claim_id} is not stored in data/{notebook}.json")


@pytest.mark.parametrize(
    "notebook, claim_id, shown",
    [
        ("ren2020/figure1", "ren2020.figure1.ratio_B_UCB.eps2.T1e7", "1.6"),  # printed: 'is 1.6'
        ("ren2020/figure1", "ren2020.figure1.factor_L.eps2", "9.0"),  # printed '= 9.0': its digits, not '9'
        # '10 times lower': the 10 is printed, the one-sided sense is the book's reading
        ("azize2022/figure2", "azize2022.figure2.ratio_T1e7.dp_ucb_to_adap_ucb", "10 (read as ≥ 10)"),
        ("ren2020/lemma7_sigmoid", "ren2020.lemma7.sup_value", "≥ 0.0765"),  # printed '\\geq 0.0765'
        ("ren2020/lemma7_sigmoid", "ren2020.lemma7.gaussian_integral", "≥ 0.2066 (read as = 0.2066)"),
        ("azize2022/theorem2_minimax", "azize2022.theorem2.example_T1e6_K100", "read as ≤ 1"),  # "any ε ≥ 0.05"
        ("azize2022/theorem2_minimax", "azize2022.theorem2.threshold_T1e6_K100", "read as = 0.04828"),  # a formula
        # the paper prints no such number: the book's reading of the quoted statement
        ("azize2022/figure3", "azize2022.figure3.ratio_eps0.365_to_eps10", "read as = 1"),  # 'does not depend'
        ("azize2022/figure2", "azize2022.figure2.order.adap_ucb_minus_adap_klucb", "read as ≥ 0"),  # an ordering
        (
            "azize2022/theorem1_table2",
            "azize2022.table2.stochastic_pd_gaussian_cell_vs_thm3",
            "read as ≥ 9,210",
        ),  # a formula: the lower bound the cell states, against what Theorem 3 proves
        ("heldp/figure1", "heldp.figure1.worst_eps_min_gap.discrete.HeLDP-UCB-B.T1e6", "read as ≥ 0"),
        ("heldp/unbiasing_map_g", "heldp.map_g.bias_eps1", "read as = 1"),  # an identity: unbiased
        ("zheng2020/theorems7_8_linear", "zheng2020.theorems7_8_linear.exponent_eps1", "read as ≤ 0.75"),  # a rate
    ],
)
def test_a_number_stands_under_the_papers_name_only_where_the_paper_prints_it(notebook, claim_id, shown):
    claim = _stored(notebook, claim_id)
    assert claim.paper_text() == shown
    assert claim.paper_prints() is not shown.startswith("read as")
    assert claim.reference() == ("paper, " if shown.startswith("read as") else "paper ") + shown


def test_what_a_statement_prints():
    from ldpcode.claims.statements import numbers_in, prints, written_as

    assert written_as("printed constant", "(1 + \\frac{4}{\\epsilon})^2 = 9.0", "", 9) == ("9.0", "=")
    assert written_as("printed constant", "\\stackrel{a=0.107}{\\geq} 0.0765.", "", 0.0765) == ("0.0765", ">=")
    assert written_as("printed constant", "x \\leq 1,000 y", "", 1000) == ("1,000", "<=")
    assert written_as("printed result", "achieve 10 times lower regret", "10 times", 10) == ("10", "=")
    assert written_as("identity", "9.0", "9.0", 9) is None  # an identity prints no number
    # the review: a printed constant's quote holds indices, exponents and terms of the notation, which a computed
    # 4, 2 or 1 must not be shown as printing (no row was affected)
    notation = r"step $t_4 = 7$: $r_4 + r_5$, $\sqrt{\frac{(K-1)}{T}}$, $T = 10^7$, $x^2 = 9.0 e^{-1}$"
    assert written_as("printed constant", notation, "", 7) == ("7", "=")
    assert written_as("printed constant", notation, "", 9) == ("9.0", "=")
    for not_printed in (4, 5, 1, 10, 2):
        assert written_as("printed constant", notation, "", not_printed) is None, not_printed
    assert written_as("printed constant", "doubled to 4, and -0.5 or (1 + x)", "", 4) == ("4", "=")
    # the second look: a term, a label, a fraction, a bare decimal point, superscripts, a sign without a space
    for quote, value in [
        ("or (1 + x)", 1),
        ("Table 2 and Lemma 7", 2),
        ("Table 2 and Lemma 7", 7),
        ("(K - 1)", 1),
        ("T^{3/4}", 4),
        ("T^{3/4}", 3),
        ("a .5 share", 5),
        ("T = 10⁷", 107),
        ("T = 10⁷", 7),
    ]:
        assert written_as("printed constant", quote, "", value) is None, (quote, value)
    assert written_as("printed constant", r"$x \geq0.0765$", "", 0.0765) == ("0.0765", ">=")
    assert written_as("printed constant", r"$x \ge 0.0765$", "", 0.0765) == ("0.0765", ">=")
    assert written_as("printed constant", "a large 0.5", "", 0.5) == ("0.5", "=")  # 'large' ends in 'ge': no sign
    assert written_as("printed constant", "x > 3 and y < 2", "", 2) == ("2", "<=")
    assert written_as("printed constant", "a slope of -0.5", "", -0.5) == ("-0.5", "=")
    assert written_as("printed constant", "a slope of -0.5", "", 0.5) is None  # not the printed -0.5

    assert numbers_in("$T = 10^{7}$, over 1,000,000 runs: 9.0 and 0.0765.") == [10, 7, 1e6, 9, 0.0765]
    assert prints("printed result", "ratio is 1.6, and 8.5", "1.6", 1.6)
    assert not prints("printed result", "ratio is 1.6, and 8.5", "1.6", 8.5)  # another statement's number
    assert not prints("printed result", "for eps > 0.3 regret does not depend on eps", "0.3", 1.0)
    assert prints("printed constant", "upper bounded by 441 and 101", "", 101)
    assert not prints("printed constant", "# Private Means ... KT", "", 5e7)
    assert not prints("printed constant", "(1 + 4/eps)^2 = 9.0", "", 9.000001)  # 9.000001 is not printed
    for category in ("identity", "order", "scope"):
        assert not prints(category, "the noise is Lap(1/eps), 1 unit", "1", 1.0)
