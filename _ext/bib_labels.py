"""The bibliography's labels in the words the text cites with: "[Ren et al. 2020a]", not "[29]".

The text cites author-year (``bibtex_reference_style: author_year``: "Ren et al. [2020a]"), and pybtex's plain style
numbers its entries, so a reader who clicked "2020a" landed on an entry labelled [29] (the visual review, M6); the
"alpha" labels mangle accented names and cut 2020a to "0a". The style registered here, ``plain_authoryear``
(``bibtex_default_style`` in ``_config.yml``), is pybtex's plain style with labels made of the authors' last names (one,
"A and B", or "A et al." for three or more) and the year as the bib file writes it (2020a).
"""

from __future__ import annotations

import re

from pybtex.plugin import register_plugin
from pybtex.style.formatting.plain import Style as PlainStyle
from pybtex.style.labels import BaseLabelStyle


def _last_name(person) -> str:
    """A person's last name as printed, without the bib file's protecting braces (the file writes accents in UTF-8)."""
    return re.sub(r"[{}]", "", " ".join(person.prelast_names + person.last_names))


def author_year_label(entry) -> str:
    """``Ren et al. 2020a``, ``Lai and Robbins 1985``, ``Lattimore 2020``: the label of one bib entry."""
    people = entry.persons.get("author") or entry.persons.get("editor") or []
    names = [_last_name(p) for p in people]
    who = names[0] if len(names) == 1 else " and ".join(names) if len(names) == 2 else f"{names[0]} et al."
    year = re.sub(r"[{}]", "", entry.fields.get("year", "n.d."))
    return f"{who} {year}".strip()


class AuthorYearLabels(BaseLabelStyle):
    def format_labels(self, sorted_entries):
        for entry in sorted_entries:
            yield author_year_label(entry)


class PlainAuthorYear(PlainStyle):
    default_label_style = AuthorYearLabels


def setup(app):
    register_plugin("pybtex.style.formatting", "plain_authoryear", PlainAuthorYear)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
