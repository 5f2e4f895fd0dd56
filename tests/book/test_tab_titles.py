"""_ext/tab_titles.py: a title's subscripts reach the browser tab with an underscore."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "_ext"))

import tab_titles  # noqa: E402


def test_a_subscript_becomes_an_underscore_and_the_rest_stays():
    assert tab_titles.plain_subscripts("regret against V<sub>L</sub> and V<sub>B</sub>") == "regret against V_L and V_B"
    assert tab_titles.plain_subscripts("d<sub>inf</sub> &amp; t<sub>inf</sub>") == "d_inf &amp; t_inf"
    assert tab_titles.plain_subscripts("Theorem 3: no subscript") == "Theorem 3: no subscript"


def test_the_page_context_title_is_rewritten_and_nothing_else():
    context = {"title": "Choosing ε<sub>min</sub>", "body": "ε<sub>min</sub>"}
    tab_titles._retitle(None, "p", "page.html", context, None)
    assert context == {"title": "Choosing ε_min", "body": "ε<sub>min</sub>"}
    empty = {}
    tab_titles._retitle(None, "genindex", "genindex.html", empty, None)
    assert empty == {}
