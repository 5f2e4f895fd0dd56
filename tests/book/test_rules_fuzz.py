"""The cheap part of the fuzz of every notebook's rules against its tiny body (tests/book/rules_fuzz.py; issue 23,
part 6).

The rule side needs no body: for every notebook, hypothesis draws values for one or two of its parameters around
and beyond the edges of their rules (rules_fuzz.draws: integers at and past the bounds, floats with inf, nan, huge,
tiny and negative, lists of every short length, wrong types), with the other parameters at the tiny set. Every draw
is either accepted or refused with a one-line TypeError or ValueError that starts ``parameter`` and names a drawn
parameter, never another exception, in less than a second (RULE_SECONDS). The body side (an accepted value must run the tiny body) runs
the notebooks' code and costs seconds a draw: ``python tests/book/rules_fuzz.py`` runs it; here, a few bodies only,
marked slow."""

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ldpcode import parameters as P

import rules_fuzz as F

NOTEBOOKS = sorted(
    p for p in P.notebook_rules() if P.rules_for(p).names
)  # a page without parameters has nothing to draw
EXAMPLES = 12  # draws per notebook: 39 notebooks, under 10 s in all


@pytest.fixture(scope="module", autouse=True)
def _warm():
    """Every notebook's rules once at its tiny set: the imports behind a check (scipy, the bounds) are not timed."""
    for path in NOTEBOOKS:
        assert F.check_rules(path, F.tiny_values(path)) is None, path


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.split("/", 1)[1] for p in NOTEBOOKS])
@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_every_draw_is_accepted_or_refused_by_name_in_one_line(path, data):
    drawn = data.draw(F.draws(path), label="drawn")
    values = {**F.tiny_values(path), **drawn}
    problem = F.rule_problem(path, drawn, values)
    if problem and "the rules took" in problem:  # a timing on a shared machine: measured once more
        problem = F.rule_problem(path, drawn, values)
    assert problem is None, problem


def test_the_rule_side_property_catches_what_it_should():
    """rule_problem itself: an escaping exception type, a message without the parameter, a slow check."""
    path = "chapters/ren2020/theorem4_ldp_ucb_l.ipynb"
    ok = F.tiny_values(path)
    assert F.rule_problem(path, {"runs": 1}, {**ok, "runs": 1}) is None  # refused by name
    assert F.rule_problem(path, {"runs": 3}, {**ok, "runs": 3}) is None  # accepted
    spec = P.notebook_rules()[path]
    slow = P.Notebook(spec.rules, (lambda p: time.sleep(F.RULE_SECONDS + 0.1),), spec.tiny)
    broken = P.Notebook(spec.rules, (lambda p: 1 / 0,), spec.tiny)
    nameless = P.Notebook(spec.rules, (lambda p: (_ for _ in ()).throw(ValueError("bad")),), spec.tiny)
    try:
        P.notebook_rules()[path] = slow
        assert "the rules took" in F.rule_problem(path, {"runs": 3}, {**ok, "runs": 3})
        P.notebook_rules()[path] = broken
        assert "ZeroDivisionError" in F.rule_problem(path, {"runs": 3}, {**ok, "runs": 3})
        P.notebook_rules()[path] = nameless
        assert "does not name" in F.rule_problem(path, {"runs": 3}, {**ok, "runs": 3})
    finally:
        P.notebook_rules()[path] = spec


# --- a few bodies (slow): accepted values at the new edges run the whole tiny body, in process -----------------------

BODIES = [
    ("chapters/azize2022/figure2.ipynb", {"alpha": 3.000001, "means": [0.5, 0.5, 0.25]}),  # just inside both rules
    ("chapters/ren2020/corollaries10_11_sigmoid.ipynb", {"samples": 100, "epsilons": [0.5, 2.0]}),
    ("chapters/ren2020/lemma3_laplace_tail.ipynb", {"samples": 2_000}),
]


@pytest.mark.slow
@pytest.mark.parametrize("path,values", BODIES, ids=[p.split("/", 1)[1] for p, _ in BODIES])
def test_accepted_edge_values_run_the_tiny_body(path, values, monkeypatch):
    monkeypatch.delenv("LDPCODE_WRITE_CLAIMS", raising=False)
    full = {**F.tiny_values(path), **values}
    assert F.check_rules(path, full) is None
    kind, cell, error = F.run_body(path, full, timeout=120)
    assert kind == "ran", f"{path} {values}: code cell {cell}: {error}"
