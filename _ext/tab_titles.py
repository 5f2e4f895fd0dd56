"""A page's title in the browser tab keeps its subscripts, written with an underscore.

Sphinx strips the HTML of a title for the ``<title>`` element, so the heading "V{sub}`L`" (V<sub>L</sub>) reached the
tab as "VL", and ε{sub}`min` as "εmin". On the ``html-page-context`` event a subscript becomes "_L" before
the strip; the page's heading, the sidebar and the links keep their typeset subscripts.
"""

from __future__ import annotations

import re

_SUB = re.compile(r"<sub>(.*?)</sub>", re.S)


def plain_subscripts(title: str) -> str:
    """``V<sub>L</sub> and d<sub>inf</sub>`` -> ``V_L and d_inf``: the tab's text for a title with subscripts."""
    return _SUB.sub(r"_\1", title)


def _retitle(app, pagename, templatename, context, doctree):
    if isinstance(context.get("title"), str):
        context["title"] = plain_subscripts(context["title"])


def setup(app):
    app.connect("html-page-context", _retitle)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
