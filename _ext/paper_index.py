"""Sphinx directive ``paper-index``: the table of :mod:`ldpcode.paper_index`, rendered.

One table per paper (``:paper: ren2020`` restricts it to one): the item, where it is in the paper, its
notebook (a ``{doc}`` link, so a renamed notebook fails the build under ``-W``) and the code that implements
it, each name a cross-reference to its API entry, where Sphinx's viewcode adds the link to the source. A name
that no longer imports is a build error, not a dead link. The tests column lists the files of ``tests/``
that name one of the item's functions (or, for a policy, its registry name), found at build time, by folder.

The extension also resolves the short names with which a package's docstring names the functions of its rooms
(``:func:`lower_bound_constant``` in ``ldpcode.bounds``, defined in ``ldpcode.bounds.ren2020``), so that the
index tables of the API pages link to their entries.
"""

from __future__ import annotations

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.util import logging
from sphinx.util.nodes import make_refnode
from sphinx.util.docutils import SphinxDirective

from ldpcode import paper_index as P

logger = logging.getLogger(__name__)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _code(name: str) -> str:
    role, where = P.target(name)
    label = name.removeprefix("policy:") if name.startswith("policy:") else name.removeprefix("ldpcode.")
    return f"{{py:{role}}}`{label} <{where}>`"


def _tests(api) -> str:
    """The test files that name ``api``, by folder, in words that wrap: "*bounds*: bounds, lemma12; *robustness*:
    fuzz, numerics". As code chips, one per file, an item's 35 files made a column of 140 px and rows of 2,000."""
    groups: dict[str, list[str]] = {}
    for t in P.tests_calling(api):
        folder, _, name = t.removesuffix(".py").rpartition("/")
        groups.setdefault(folder or "tests", []).append(name.removeprefix("test_"))
    return "; ".join(f"*{folder}*: {', '.join(names)}" for folder, names in groups.items())


def _table(items) -> list[str]:
    """Three columns: the item (a link to its notebook) and where it is in the paper; the code; the tests."""
    rows = ["| paper item (notebook) | code | tests |", "|---|---|---|"]
    for it in items:
        code = ", ".join(_code(n) for n in it.api)
        tests = _tests(it.api)
        where = f" ({_cell(it.where)})" if it.where else ""
        rows.append(f"| {{doc}}`{_cell(it.item)} </{it.notebook}>`{where} | {code} | {tests} |")
    return rows


class PaperIndex(SphinxDirective):
    option_spec = {"paper": directives.unchanged}

    def run(self):
        wanted = self.options.get("paper")
        if wanted is not None and wanted not in P.CHAPTER_TITLES:
            raise self.error(f"paper-index: unknown paper {wanted!r}; known: {', '.join(P.CHAPTER_TITLES)}")
        lines: list[str] = []
        for key, title in P.CHAPTER_TITLES.items():
            if wanted not in (None, key):
                continue
            items = [it for it in P.ITEMS if it.paper == key]
            if wanted is None:
                lines += [f"**{title}**", ""]
            try:
                lines += _table(items) + [""]
            except ImportError as exc:
                raise self.error(str(exc)) from exc
        text = StringList(lines, source="ldpcode/paper_index.py")
        container = nodes.container(classes=["paper-index"])
        self.state.nested_parse(text, self.content_offset, container)
        for dep in ("ldpcode/paper_index.py",):
            self.env.note_dependency(dep)
        return [container]


def _check_links(app, doctree, docname) -> None:
    """Every code name of a paper index must have become a link: a name Sphinx could not resolve (an object
    autodoc does not document) is left as plain code, which this turns into a warning (an error under -W)."""
    for box in doctree.findall(lambda n: isinstance(n, nodes.container) and "paper-index" in n["classes"]):
        for lit in box.findall(nodes.literal):
            if "xref" in lit["classes"] and not isinstance(lit.parent, nodes.reference):
                logger.warning(f"paper-index: {lit.astext()!r} has no API entry to link to", location=docname)


def _by_suffix(app, env, node, contnode):
    """Resolve a Python cross-reference that names an object by its short name from another room of its package
    (the package ``bounds`` documents ``:func:`lower_bound_constant``` of ``bounds.ren2020``): the one object of
    ldpcode whose dotted name ends with it. Ambiguous or unknown names stay unresolved, as Sphinx leaves them."""
    if node.get("refdomain") != "py" or not node.get("reftarget"):
        return None
    target = node["reftarget"].lstrip(".~")
    domain = env.get_domain("py")
    hits = [
        (name, obj)
        for name, obj in domain.objects.items()
        if name.startswith("ldpcode.") and name.endswith("." + target)
    ]
    if len(hits) != 1:
        return None
    name, obj = hits[0]
    return make_refnode(app.builder, node["refdoc"], obj.docname, obj.node_id, contnode, name)


def setup(app):
    app.add_directive("paper-index", PaperIndex)
    app.connect("doctree-resolved", _check_links)
    app.connect("missing-reference", _by_suffix)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
