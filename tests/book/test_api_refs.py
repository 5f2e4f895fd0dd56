"""_ext/api_refs.py: a reference to a name where ldpcode re-exports it resolves where autodoc documents it."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "_ext"))

import api_refs  # noqa: E402


class _Domain:
    """The Python domain as the handler uses it: knows only the names autodoc documented."""

    documented = {"ldpcode.bounds.heldp.v_l", "ldpcode.mechanisms.curators.CTB", "ldpcode.parameters.rules.Notebook"}

    def __init__(self):
        self.asked = []

    def resolve_xref(self, env, refdoc, builder, role, target, node, contnode):
        self.asked.append(target)
        return f"link to {target}" if target in self.documented else None


class _Env:
    def __init__(self):
        self.domain = _Domain()

    def get_domain(self, name):
        assert name == "py"
        return self.domain


class _App:
    builder = None


def _node(target, module=None, domain="py"):
    return {"refdomain": domain, "reftarget": target, "py:module": module, "refdoc": "chapters/api/x"}


def test_a_re_exported_name_resolves_where_it_is_defined():
    env = _Env()
    assert api_refs.resolve(_App, env, _node("ldpcode.bounds.v_l"), None) == "link to ldpcode.bounds.heldp.v_l"
    assert api_refs.resolve(_App, env, _node("CTB", module="ldpcode.mechanisms"), None) == (
        "link to ldpcode.mechanisms.curators.CTB"
    )
    relative = _node(".rules.Notebook", module="ldpcode.parameters")
    assert api_refs.resolve(_App, env, relative, None) == "link to ldpcode.parameters.rules.Notebook"


def test_what_it_cannot_place_stays_as_sphinx_wrote_it():
    env = _Env()
    assert api_refs.resolve(_App, env, _node("ldpcode.no_such_name"), None) is None
    assert api_refs.resolve(_App, env, _node("math.sqrt"), None) is None  # not ldpcode's
    assert api_refs.resolve(_App, env, _node("ldpcode.bounds.v_l", domain="std"), None) is None
    assert env.domain.asked == []  # none of these reached the domain
    assert api_refs.resolve(_App, env, _node("ldpcode.limits.MAX_HORIZON"), None) is None  # an int: no __qualname__


def test_a_namedtuple_field_alias_is_skipped_and_nothing_else():
    from typing import NamedTuple

    class Pair(NamedTuple):
        left: int
        right: int

    assert api_refs.skip_field_aliases(None, "class", "left", Pair.left, False, {}) is True
    assert api_refs.skip_field_aliases(None, "method", "f", len, False, {}) is None  # Sphinx decides
    Pair.right.__doc__ = "The right end."  # a field with a docstring of its own is documented
    assert api_refs.skip_field_aliases(None, "class", "right", Pair.right, False, {}) is None
