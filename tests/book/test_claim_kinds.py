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
            statement="ren2020ldp.fig1a.ratio_B_eps2",
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
        statement="ren2020ldp.fig1a.ratio_B_eps2",
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
    """The report prints ldp.claims.PAPERS[cites], the API appendix paper_index.PAPERS[chapter]: both from
    paper_index.PAPERS_BY_CITES, with the texts they printed before."""
    assert C.PAPERS == {
        "ren2020ldp": "Ren et al. (2020a): ε-local differential privacy",
        "ren2020heldp": "Ren et al. (2020b, extended version): heterogeneous privacy levels",
        "azize2022privacy": "Azize and Basu (2022): ε-global differential privacy",
        "zheng2020locally": "Zheng et al. (2020): (ε, δ)-LDP reductions and contextual bandits",
    }
    assert paper_index.PAPERS == {
        "ren2020": "Ren et al. (2020a): ε-LDP bandits",
        "heldp": "Ren et al. (2020b): heterogeneous LDP",
        "azize2022": "Azize and Basu (2022): ε-global DP",
        "zheng2020": "Zheng et al. (2020): (ε, δ)-LDP reductions and contextual bandits",
        "book": "The book's own chapters",
    }
    for cites, paper in paper_index.PAPERS_BY_CITES.items():
        assert (ROOT / "chapters" / paper.chapter).is_dir() and C.statements.PAPER_FILES[cites]
