"""Notebooks hold no procedures of their own (issue 13): a function defined in a chapter notebook is one of four
kinds, listed here by name, and anything else belongs in ldpcode. A new ``def`` in a notebook fails this test
until it moves into the package or is listed with its kind; a listed name that is gone fails it too.

* ``second way``: an independent transcription of the paper's formula or definition, the second computation
  of an exact claim; it must not come from ldpcode, or the claim would compare the package with itself;
* ``binding``: a lookup or a closure over this notebook's parameters and results, computing nothing of its own;
* ``claims``: builds this notebook's claims (their ids and sources) from its results;
* ``display``: formats this notebook's tables or plots.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KINDS = {"second way", "binding", "claims", "display"}

ALLOWED = {
    "appendix/privacy_audit": {
        "hockey_stick_delta": "second way",
        "draws_answering_one": "second way",
    },
    "azize2022/figure1_episodes": {"paper_schedule": "second way"},
    "report/errata": {"ranges": "display"},
    "azize2022/table1": {"ours": "display"},
    "azize2022/theorem3_problem_dependent": {
        "_grid": "second way",
        "kl_num": "second way",
        "tv_num": "second way",
        "min_over_log_s": "second way",
        "lai_robbins_sum": "second way",
    },
    "azize2022/theorems4_5_linear": {"closed_form": "second way", "small": "display"},
    "heldp/choosing_epsilon_min": {"heuristic_transcribed": "second way"},
    "heldp/figure2": {"v_transcribed": "second way"},
    "heldp/theorem10_corollary11": {"thm10_bracket": "second way", "thm10_kappa": "second way"},
    "heldp/theorem7_corollary8": {"thm7_bracket": "second way", "thm7_kappa": "second way"},
    "ren2020/lemma3_laplace_tail": {"laplace_sums": "second way", "tail_by_quadrature": "second way"},
    "ren2020/lemma7_sigmoid": {"v_paper": "second way", "objective_paper": "second way", "first_order": "second way"},
    "ren2020/lemmas2_5_curators": {"ctb_p_paper": "second way", "laplace_density_paper": "second way"},
    "ren2020/theorem1_lower_bound": {
        "theorem1_paper": "second way",
        "fact13_over_lemma12_paper": "second way",
        "pinsker_floor": "second way",
    },
    "zheng2020/algorithm1_theorems2_3": {"delta_closed_form": "binding", "delta_quadrature": "second way"},
    "zheng2020/appendix_b_best_arm": {"_tag": "claims"},
    "zheng2020/mab_reduction": {"_key": "claims"},
    "zheng2020/table1": {"measured": "display"},
}


def _defined(path: Path) -> set[str]:
    import nbformat

    nb = nbformat.read(path, as_version=4)
    names = set()
    for cell in nb.cells:
        if cell.cell_type == "code":
            names.update(m.group(2) for m in re.finditer(r"^(def|class) (\w+)", cell.source, re.M))
    return names


NOTEBOOKS = sorted(ROOT.glob("chapters/*/*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_notebook_defines_only_listed_functions(path):
    key = f"{path.parent.name}/{path.stem}"
    listed = ALLOWED.get(key, {})
    found = _defined(path)
    new = sorted(found - set(listed))
    assert not new, (
        f"{key} defines {new}: move the procedure into ldpcode (one implementation, tested), or list it in "
        f"ALLOWED with its kind ({', '.join(sorted(KINDS))}) if it is one"
    )
    gone = sorted(set(listed) - found)
    assert not gone, f"{key} no longer defines {gone}: remove them from ALLOWED"


def test_the_list_names_real_notebooks_and_kinds():
    keys = {f"{p.parent.name}/{p.stem}" for p in NOTEBOOKS}
    assert set(ALLOWED) <= keys, sorted(set(ALLOWED) - keys)
    assert {k for names in ALLOWED.values() for k in names.values()} <= KINDS
