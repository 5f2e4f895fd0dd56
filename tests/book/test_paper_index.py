"""The paper-item index (ldpcode.paper_index): every notebook of the book is in it, every notebook it names
exists, every name in it imports, every module of ldpcode has a page in the API appendix, and the helpers
that render it find what they should."""

import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import ldpcode
from ldpcode import paper_index as P

ROOT = Path(__file__).resolve().parents[2]


def test_every_notebook_is_indexed_and_every_indexed_notebook_exists():
    notebooks = {str(p.relative_to(ROOT).with_suffix("")) for p in (ROOT / "chapters").rglob("*.ipynb")}
    indexed = {it.notebook for it in P.ITEMS}
    assert notebooks - indexed == set(), "notebooks missing from ldpcode.paper_index.ITEMS"
    assert indexed - notebooks == set(), "ldpcode.paper_index.ITEMS names notebooks that do not exist"
    assert {it.paper for it in P.ITEMS} <= set(P.CHAPTER_TITLES)


@pytest.mark.parametrize("item", P.ITEMS, ids=lambda it: it.notebook.rpartition("/")[2])
def test_every_name_resolves_to_code_of_ldpcode(item):
    assert item.api, f"{item.item}: no code named"
    for name in item.api:
        role, where = P.target(name)
        assert role in ("mod", "class", "func")
        assert where.startswith("ldpcode."), (name, where)


def test_target_follows_the_code_to_where_it_is_defined():
    assert P.target("ldpcode.make_policy") == ("func", "ldpcode.policies.make_policy")
    assert P.target("ldpcode.mechanisms") == ("mod", "ldpcode.mechanisms")
    assert P.target("ldpcode.mechanisms.CTL") == ("class", "ldpcode.mechanisms.curators.CTL")
    assert P.target("policy:LDP-UCB-L") == ("class", "ldpcode.policies.index.IndexPolicy")
    assert P.target("policy:HeLDP-UCB-B") == ("class", "ldpcode.policies.heterogeneous.HeterogeneousPolicy")
    assert P.target("policy:AdaP-UCB") == ("class", "ldpcode.global_policies.episodes.AdaptiveEpisodes")


@pytest.mark.parametrize("name", ["ldpcode.bounds.no_such_bound", "ldpcode.nomodule.f", "policy:LDP-UCB-Q"])
def test_a_name_that_does_not_exist_is_an_error_naming_it(name):
    with pytest.raises(ImportError, match=re.escape(repr(name.removeprefix("policy:")))):
        P.resolve(name)


def test_tests_calling_finds_the_tests_of_a_function_and_only_those():
    assert "mechanisms/test_lemma3.py" in P.tests_calling(["ldpcode.bounds.laplace_sum_tail_bound"])
    assert "zheng2020/test_zheng_bco.py" not in P.tests_calling(["ldpcode.bounds.laplace_sum_tail_bound"])
    assert "policies/test_heterogeneous.py" in P.tests_calling(["policy:HeLDP-UCB-B"])
    assert P.tests_calling(["ldpcode.bounds.no_function_has_this_name"]) == []


def _public_modules():
    return [
        m.name
        for m in pkgutil.walk_packages(ldpcode.__path__, "ldpcode.")
        if not any(part.startswith("_") for part in m.name.split("."))
    ]


def test_every_module_of_ldpcode_has_a_page_in_the_api_appendix():
    pages = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "chapters" / "api").glob("*.md"))
    documented = set(re.findall(r"^\.\. automodule:: (\S+)$", pages, flags=re.M))
    modules = set(_public_modules())
    assert "ldpcode.paper_index" in modules
    assert modules - documented == set(), "modules without an API page (chapters/api/*.md)"
    assert documented - modules == set(), "API pages document modules that do not exist"
    for m in modules:
        assert importlib.import_module(m).__doc__, f"{m} has no docstring for its API page"
