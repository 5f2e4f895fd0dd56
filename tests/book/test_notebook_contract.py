"""The notebook contract (ldpcode.book): one call checks a notebook's parameters, keeps them, and prefixes and
collects its claims; nb.check compares them with the stored numbers exactly as ldp.claims.check does."""

import ast
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

import ldpcode as ldp

ROOT = Path(__file__).resolve().parents[2]
REN4 = "chapters/ren2020/theorem4_ldp_ucb_l.ipynb"
REN4_OK = dict(instance="ren2020-bernoulli", horizon=10**6, runs=50, epsilons=[0.5, 1.0, 2.0], seed=2020)


def test_params_are_the_declared_names_in_their_order_and_nothing_else():
    nb = ldp.book.notebook(REN4, {**REN4_OK, "ldp": ldp, "np": object()}, prefix="ren2020.theorem4")
    assert list(nb.params) == ["instance", "horizon", "runs", "epsilons", "seed"]  # the cell's order
    assert nb.params == REN4_OK
    assert nb.prefix == "ren2020.theorem4" and nb.claims == []


def test_default_prefix_is_chapter_dot_name():
    nb = ldp.book.notebook(REN4, dict(REN4_OK))
    assert nb.prefix == "ren2020.theorem4_ldp_ucb_l"


@pytest.mark.parametrize(
    "change, error, words",
    [
        ({"horizon": 1e6}, TypeError, "horizon"),
        ({"runs": 1}, ValueError, "runs"),
        ({"horizn": 10}, ValueError, "did you mean 'horizon'"),
    ],
)
def test_bad_parameters_are_refused_before_any_work(change, error, words):
    namespace = {**REN4_OK, **change}
    if "horizn" in change:  # papermill's injected cell, as IPython's input history holds it
        namespace["_ih"] = ["", "# Parameters\nhorizn = 10\n"]
    with pytest.raises(error, match=re.escape(words) if "did you" in words else words):
        ldp.book.notebook(REN4, namespace)


def test_bad_arguments_are_one_line_errors():
    with pytest.raises(TypeError, match="path must be a string"):
        ldp.book.notebook(None, REN4_OK)
    with pytest.raises(TypeError, match="namespace must be the notebook's globals"):
        ldp.book.notebook(REN4, list(REN4_OK))
    with pytest.raises(ValueError, match="chapters/<chapter>/<name>.ipynb"):
        ldp.book.notebook("notes/x.ipynb", REN4_OK)
    with pytest.raises(ValueError, match="prefix must be a dotted name"):
        ldp.book.notebook(REN4, REN4_OK, prefix="ren2020.")


def _bound(nb, name="pulls", reproduced=1.0):
    return nb.bound(name, "a test bound", reproduced=reproduced, se=0.1, bound=2.0, how="by hand", horizon=10)


def test_claims_are_prefixed_collected_and_returned():
    nb = ldp.book.notebook(REN4, dict(REN4_OK), prefix="ren2020.theorem4")
    assert _bound(nb) is None  # a cell ending with a builder prints nothing
    nb.reproducible("count", "a count", reproduced=3.0)
    assert [c.id for c in nb.claims] == ["ren2020.theorem4.pulls", "ren2020.theorem4.count"]
    assert nb.claims[0].bound == 2.0 and nb.claims[1].kind == "reproducible"
    with pytest.raises(ValueError, match="ren2020.theorem4.count was built twice"):
        nb.reproducible("count", "a count", reproduced=3.0)
    with pytest.raises(ValueError, match="ren2020.theorem4.pulls was built twice"):
        _bound(nb)
    with pytest.raises(ValueError, match="a claim name must be"):
        _bound(nb, name=".pulls")


def test_check_refuses_an_id_outside_the_prefix(tmp_path):
    nb = ldp.book.notebook(REN4, dict(REN4_OK), prefix="ren2020.theorem4")
    nb.claims.append(ldp.claims.reproducible("ren2020.theorem6.count", "a count", reproduced=3.0))  # by hand
    with pytest.raises(ValueError, match="must start with 'ren2020.theorem4.'"):
        nb.check(root=tmp_path)


def test_check_is_claims_check_with_the_notebooks_params(tmp_path):
    """Written under a scratch root, then read back: the stored params are nb.params, and a second check compares."""
    (tmp_path / "data" / "ren2020").mkdir(parents=True)
    nb = ldp.book.notebook(REN4, dict(REN4_OK), prefix="ren2020.theorem4")
    _bound(nb)
    report = nb.check(write=True, root=tmp_path)
    assert report.ok
    stored = json.loads((tmp_path / "data" / "ren2020" / "theorem4_ldp_ucb_l.json").read_text())
    assert stored["params"] == REN4_OK
    again = ldp.book.notebook(REN4, dict(REN4_OK), prefix="ren2020.theorem4")
    _bound(again, reproduced=1.0 + 1.0)  # 10 standard errors away: FAIL
    with pytest.raises(AssertionError):
        again.check(root=tmp_path)


def test_every_notebooks_prefix_covers_its_stored_ids():
    """The prefix each notebook passes (or its default) starts every id of its data/ file."""
    for path in sorted(ROOT.glob("chapters/*/*.ipynb")):
        rel = path.relative_to(ROOT).as_posix()
        source = "".join("".join(c["source"]) for c in json.loads(path.read_text())["cells"])
        m = re.search(r'ldp\.book\.notebook\("([^"]+)",\s*globals\(\)(?:,\s*prefix="([^"]+)")?\)', source)
        assert m and m.group(1) == rel, rel
        prefix = m.group(2) or ".".join(Path(rel).with_suffix("").parts[1:])
        stored = json.loads((ROOT / "data" / Path(rel).parent.name / (path.stem + ".json")).read_text())
        outside = [c["id"] for c in stored["claims"] if not c["id"].startswith(prefix + ".")]
        assert outside == [], f"{rel}: {outside[:3]}"


class _Run:
    """A stand-in for a SimulationResult: per-run regret at two checkpoints."""

    def __init__(self, regret, horizon):
        self.regret, self.horizon = np.asarray(regret, float), horizon

    def final_regret(self):
        return self.regret[:, -1]

    def at(self, t):
        return self.regret[:, {10: 0, 100: 1}[t]]


def test_regret_bound_is_the_mean_at_T_with_its_standard_error():
    nb = ldp.book.notebook(REN4, dict(REN4_OK), prefix="ren2020.theorem4")
    nb.regret_bound("regret", "Theorem 4 at T", _Run([[1, 2], [3, 6]], 100), 10.0, how="by hand", note="n")
    c = nb.claims[0]
    assert (c.reproduced, c.horizon, c.bound, c.note) == (4.0, 100, 10.0, "n")
    assert c.se == pytest.approx(math.sqrt(8) / math.sqrt(2))  # s = sqrt(((2-4)^2 + (6-4)^2) / 1), / sqrt(2)


def test_ratio_is_the_ratio_of_means_with_the_delta_method_se():
    nb = ldp.book.notebook(REN4, dict(REN4_OK), prefix="ren2020.theorem4")
    num, den = _Run([[2, 4], [4, 8]], 100), _Run([[1, 1], [1, 3]], 100)
    nb.ratio("r", "a ratio", num, den, t=100, note="paired")
    c = nb.claims[0]
    assert c.kind == "reproducible" and c.reproduced == 3.0 and c.horizon == 100
    # X = (4, 8), Y = (1, 3): R = 3, s_X^2 = 8, s_Y^2 = 2, s_XY = 4, n = 2: Var = (8/2 - 2*3*4/2 + 9*2/2) / 4 = 0.25
    assert c.se == pytest.approx(0.5)
    with pytest.raises(TypeError, match="statement"):  # a paper number needs its statement: the constructor says so
        nb.ratio("s", "a ratio", num, den, t=100, paper=3.0)


def test_no_code_cell_is_over_30_lines():
    """Issue 24's rule for the book's cells: a cell a reader reads stays short (the check cells were the longest
    code in the book); more belongs in ldpcode or in a cell of its own. Table 2's check cell reached 45 lines
    with the two-point claim before it was split."""
    long = [
        f"{path.relative_to(ROOT)} cell {i}: {n} lines"
        for path in sorted(ROOT.glob("chapters/*/*.ipynb"))
        for i, cell in enumerate(json.loads(path.read_text())["cells"])
        if cell["cell_type"] == "code" and (n := len("".join(cell["source"]).splitlines())) > 30
    ]
    assert not long, "code cells over 30 lines:\n" + "\n".join(long)


def test_no_notebook_rebinds_nb():
    """``nb`` is the contract's name in every notebook: a cell that assigns it again would break the check."""
    for path in sorted(ROOT.glob("chapters/*/*.ipynb")):
        for cell in json.loads(path.read_text())["cells"]:
            source = "".join(cell["source"])
            if cell["cell_type"] != "code" or "ldp.book.notebook(" in source:
                continue
            tree = ast.parse(source)
            stores = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "nb" and
                      isinstance(n.ctx, ast.Store)]  # fmt: skip
            assert stores == [], f"{path.name}: nb assigned at line {stores[0]} of a cell"


def test_observed_reasons_say_so_away_from_the_stored_parameters(monkeypatch):
    """A reason quoting the book's own measurements is printed as it is at the stored parameters (or when storing
    them) and, at a reader's other parameters, says that it was not re-measured."""
    monkeypatch.delenv(ldp.claims.WRITE_ENV, raising=False)
    stored = json.loads((ROOT / "data/ren2020/theorem4_ldp_ucb_l.json").read_text())["params"]
    text = "the slope falls from 0.87 to 0.65"
    assert ldp.book.notebook(REN4, dict(stored)).observed(text) == text
    other = ldp.book.notebook(REN4, {**stored, "runs": stored["runs"] + 1})
    assert not other.at_stored_params()
    assert other.observed(text) == f"at the book's parameters, not re-measured in this run: {text}"
    monkeypatch.setenv(ldp.claims.WRITE_ENV, "1")  # storing: these parameters become the book's
    assert other.observed(text) == text
    for bad in ("", "  ", None, 3):
        with pytest.raises(ValueError, match="reason must be a non-empty string"):
            other.observed(bad)


def test_regret_bound_marks_a_bound_above_t_times_the_largest_gap_as_vacuous():
    """T·Δ_max is the most any policy can lose: a theorem's bound at or above it cannot fail, and nb.regret_bound
    gives it that cap (the claim reads "vacuous"); a bound below it stays an ordinary bound, stored as before."""

    class Result:  # what nb.regret_bound reads of a simulation result
        horizon, gaps = 10**6, np.array([0.0, 0.1, 0.4])

        def final_regret(self):
            return np.array([900.0, 1100.0])

    nb = ldp.book.notebook(REN4, dict(REN4_OK))
    nb.regret_bound("loose", "s", Result(), 1.13e6, how="Theorem 6 at T")
    nb.regret_bound("tight", "s", Result(), 3e5, how="Theorem 6 at T")
    loose, tight = nb.claims[-2:]
    assert loose.cap == 4e5 and loose.verdict() == "vacuous"
    assert tight.cap is None and tight.verdict() == "holds" and "cap" not in tight.to_dict()


def test_pulls_bound_marks_a_bound_at_or_above_the_horizon_as_vacuous():
    """A re-run of Theorem 4 at T = 20,000 read "holds (0.067% of it)" under a bound of 1,627,701 pulls: no arm can
    be pulled more than T times. nb.pulls_bound gives such a bound the cap T; below T it is an ordinary bound with
    the mean pulls and their standard error, stored as before."""
    nb = ldp.book.notebook(REN4, dict(REN4_OK))
    nb.pulls_bound("loose", "s", [100, 300], 1_627_701.0, horizon=20_000, how="App. A.2 at T")
    nb.pulls_bound("tight", "s", [100, 300], 5_000.0, horizon=20_000, how="App. A.2 at T")
    loose, tight = nb.claims[-2:]
    assert loose.cap == 20_000 and loose.verdict() == "vacuous"
    assert (tight.reproduced, tight.se, tight.horizon) == (200.0, 100.0, 20_000)
    assert tight.cap is None and tight.verdict() == "holds" and "cap" not in tight.to_dict()
    with pytest.raises(ValueError, match=r"^horizon must be an integer >= 1"):
        nb.pulls_bound("bad", "s", [1, 2], 5.0, horizon=0, how="x")


def test_glue_gives_the_prose_a_parameters_value_and_refuses_other_names(monkeypatch):
    """``nb.glue`` records each named parameter's value for the prose ({glue:text}`horizon`), undisplayed; a name
    that is not a parameter (a typo the page would render as a missing key) is refused before anything is glued."""
    import myst_nb

    glued = []
    monkeypatch.setattr(myst_nb, "glue", lambda name, value, display=True: glued.append((name, value, display)))
    nb = ldp.book.notebook(REN4, dict(REN4_OK))
    nb.glue("horizon", "runs")
    assert glued == [("horizon", 10**6, False), ("runs", 50, False)]
    with pytest.raises(ValueError, match=r"^glue takes parameters of chapters/ren2020/theorem4_ldp_ucb_l.ipynb"):
        nb.glue("horizon", "horizn")
    with pytest.raises(ValueError, match="got \\[\\]"):
        nb.glue()
    assert len(glued) == 2
