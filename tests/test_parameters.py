"""The notebooks' parameter check (ldpcode/parameters.py): every parameter of every notebook has a rule,
every stored default passes, every notebook runs the check right after its parameters cell, and bad
values are refused with a message naming the parameter, the value and what is allowed."""
import ast
import glob
import json
import math
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

import ldpcode as ldp
from ldpcode import parameters as P

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted(str(Path(p).relative_to(ROOT)) for p in glob.glob(str(ROOT / "chapters" / "**" / "*.ipynb"),
                                                                      recursive=True))


def _parameters_cell(nb):
    cells = [i for i, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", [])]
    assert len(cells) == 1, "a notebook has exactly one cell tagged 'parameters'"
    return cells[0]


def _assigned_names(source):
    names = []
    for node in ast.parse(source).body:
        assert isinstance(node, ast.Assign), f"the parameters cell holds only assignments, got {ast.dump(node)}"
        for target in node.targets:
            names += [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]
    return names


def _defaults(path):
    nb = nbformat.read(ROOT / path, as_version=4)
    namespace = {}
    exec(nb.cells[_parameters_cell(nb)].source, namespace)  # noqa: S102 - our own notebooks
    return nb, {k: v for k, v in namespace.items() if k != "__builtins__"}


def test_every_notebook_has_rules_and_no_rule_is_stale():
    assert NOTEBOOKS, "no notebooks found"
    assert sorted(P.NOTEBOOKS) == NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS)
def test_every_parameter_has_a_rule_and_the_defaults_pass(path):
    nb, values = _defaults(path)
    names = _assigned_names(nb.cells[_parameters_cell(nb)].source)
    spec = P.rules_for(path)
    assert list(spec.names) == names, "NOTEBOOKS lists the parameters in the order of the parameters cell"
    for name in names:
        assert isinstance(spec.rule(name), P.Rule), name
    assert set(spec.rules) <= set(names), f"rules for names the notebook does not have: {set(spec.rules) - set(names)}"
    ldp.claims.check_parameters(path, values)
    stored = json.loads((ROOT / path.replace("chapters/", "data/", 1).replace(".ipynb", ".json")).read_text())
    assert set(stored["params"]) == set(names)
    ldp.claims.check_parameters(path, stored["params"])


@pytest.mark.parametrize("path", NOTEBOOKS)
def test_every_notebook_checks_its_parameters_right_after_the_parameters_cell(path):
    nb = nbformat.read(ROOT / path, as_version=4)
    cell = nb.cells[_parameters_cell(nb) + 1]
    assert cell.cell_type == "code"
    assert f'ldp.claims.check_parameters("{path}", globals())' in cell.source
    assert cell.outputs == [], "the check prints nothing"


# --- the rules, on hand-picked values ---------------------------------------------------------------------

REN4 = "chapters/ren2020/theorem4_ldp_ucb_l.ipynb"
REN4_OK = dict(instance="ren2020-bernoulli", horizon=10**6, runs=50, epsilons=[0.5, 1.0, 2.0], seed=2020)


@pytest.mark.parametrize("name,value,exc,message", [
    ("horizon", 1, ValueError, "parameter horizon must be an integer in [2, 4611686018427387904], got 1"),
    ("horizon", 1e6, TypeError, "parameter horizon must be an integer in [2, 4611686018427387904] (write 10**6, not 1e6), got 1000000.0"),
    ("horizon", True, TypeError, "parameter horizon must be an integer"),
    ("horizon", 19, ValueError, "parameter horizon must be an integer >= the number of arms 20, got 19"),
    ("runs", 0, ValueError, "parameter runs must be an integer in [1, 1000000], got 0"),
    ("seed", -1, ValueError, "parameter seed must be an integer in [0, "),
    ("epsilons", [], ValueError, "parameter epsilons must be a list of 1 to 10000 items"),
    ("epsilons", 0.5, TypeError, "parameter epsilons must be a list"),
    ("epsilons", [0.5, math.nan], ValueError, "parameter epsilons[1] must be a finite number > 0, got nan"),
    ("epsilons", [0.5, "1"], TypeError, "parameter epsilons[1] must be a finite number > 0, got '1'"),
    ("epsilons", [0.5, -1], ValueError, "parameter epsilons[1] must be a finite number > 0, got -1"),
    ("instance", "bernoulli", ValueError, "parameter instance must be one of 'ren2020-bernoulli', "),
    ("instance", None, TypeError, "parameter instance must be one of"),
])
def test_messages_name_the_parameter_the_value_and_what_is_allowed(name, value, exc, message):
    with pytest.raises(exc) as info:
        ldp.claims.check_parameters(REN4, {**REN4_OK, name: value})
    assert str(info.value).startswith(message), str(info.value)


def test_consistency_checks():
    nb = "chapters/azize2022/figure3.ipynb"
    _, ok = _defaults(nb)
    with pytest.raises(ValueError, match=r"parameter eps_min must be < eps_max = 0.05, got eps_min = 10.0"):
        ldp.claims.check_parameters(nb, {**ok, "eps_min": 10.0, "eps_max": 0.05})
    with pytest.raises(ValueError, match=r"horizon must be an integer >= the number of arms len\(means\) = 5, got 4"):
        ldp.claims.check_parameters(nb, {**ok, "horizon": 4})
    nb = "chapters/zheng2020/theorems7_8_linear.ipynb"
    _, ok = _defaults(nb)
    with pytest.raises(ValueError, match="parameter horizons must be a list of 2 to 10000 items, each an integer"):
        ldp.claims.check_parameters(nb, {**ok, "horizons": [1000, 1000]})   # not strictly increasing
    nb = "chapters/ren2020/lemma3_laplace_tail.ipynb"
    _, ok = _defaults(nb)
    with pytest.raises(ValueError, match=r"thm4_cases must hold pairs \(k, t\) with k > 4 log t"):
        ldp.claims.check_parameters(nb, {**ok, "thm4_cases": [[4, 3]]})    # 4 < 4 log 3 = 4.39
    with pytest.raises(ValueError, match=r"parameter thm4_cases\[0\]\[1\] \(t\) must be an integer"):
        ldp.claims.check_parameters(nb, {**ok, "thm4_cases": [[4, 1]]})
    nb = "chapters/heldp/corollary13_sigmoid.ipynb"
    _, ok = _defaults(nb)
    with pytest.raises(ValueError, match=r"parameter settings\[1\]\[0\] \(law\) must be one of 'ren-heldp-discrete'"):
        ldp.claims.check_parameters(nb, {**ok, "settings": [("ren-heldp-discrete", 1.0), ("uniform", 1.0)]})
    nb = "chapters/report/reproduction_report.ipynb"
    for bad in ("no-such-chapter", "/etc", "../data", "ren2020/../..", ".."):
        with pytest.raises(ValueError, match="parameter chapter must name a folder under data/"):
            ldp.claims.check_parameters(nb, {"chapter": bad})
    ldp.claims.check_parameters(nb, {"chapter": "ren2020"})
    ldp.claims.check_parameters(nb, {"chapter": None})


def test_missing_parameter_and_unknown_notebook():
    with pytest.raises(ValueError, match="parameter seed of chapters/ren2020/theorem4_ldp_ucb_l.ipynb is not defined"):
        ldp.claims.check_parameters(REN4, {k: v for k, v in REN4_OK.items() if k != "seed"})
    with pytest.raises(ValueError, match="has no parameter rules; add an entry to NOTEBOOKS"):
        ldp.claims.check_parameters("chapters/ren2020/new.ipynb", REN4_OK)
    with pytest.raises(TypeError, match="notebook must be a path string"):
        ldp.claims.check_parameters(None, REN4_OK)


def _papermill(tmp_path, *args):
    out = tmp_path / "out.ipynb"
    nb = "chapters/report/reproduction_report.ipynb"
    proc = subprocess.run([sys.executable, "-m", "papermill", nb, str(out), *args, "--cwd",
                           str(ROOT / "chapters" / "report")],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    return proc, nbformat.read(out, as_version=4)


def _failed_cell(executed):
    code = [c for c in executed.cells if c.cell_type == "code"]
    failed = [i for i, c in enumerate(code) if any(o.get("output_type") == "error" for o in c.get("outputs", []))]
    assert failed and "check_parameters" in code[failed[0]].source, "the check cell fails"
    assert "injected-parameters" in code[failed[0] - 1].metadata.get("tags", []), "right after the injection"


def test_papermill_stops_a_bad_parameter_before_any_work(tmp_path):
    """End to end: papermill injects a bad value; the check cell (the one after the injected cell) fails."""
    pytest.importorskip("papermill")
    proc, executed = _papermill(tmp_path, "-p", "chapter", "/etc")
    assert proc.returncode != 0
    assert "ValueError: parameter chapter must name a folder under data/ (such as 'ren2020'), got '/etc'" in (
        proc.stderr + proc.stdout)
    _failed_cell(executed)


def test_papermill_refuses_a_misspelt_parameter(tmp_path):
    """papermill only warns about a name the notebook does not declare, then runs at the defaults; the check
    reads papermill's injected cell from IPython's history and refuses it."""
    pytest.importorskip("papermill")
    proc, executed = _papermill(tmp_path, "-p", "chaptr", "ren2020")
    assert proc.returncode != 0
    assert ("ValueError: parameter chaptr is not a parameter of chapters/report/reproduction_report.ipynb "
            "(did you mean 'chapter'?)") in proc.stderr + proc.stdout
    _failed_cell(executed)


def test_injected_names_are_read_from_the_history():
    ns = {"_ih": ["", "chapter = None", "# Parameters\nchaptr = 'ren2020'\nchapter = 'x'\n", "print(1)"]}
    assert P.injected_names(ns) == ["chaptr", "chapter"]
    assert P.injected_names({}) == [] and P.injected_names({"_ih": "not a list"}) == []
    with pytest.raises(ValueError, match="parameter chaptr is not a parameter of"):
        ldp.claims.check_parameters("chapters/report/reproduction_report.ipynb", {"chapter": None, **ns})
