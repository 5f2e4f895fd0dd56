"""The reproduction report: every stored claim of the book read back, and one section per paper.

:func:`stored_files` lists the stored-number files under ``data/`` (the report's own excluded);
:func:`collect` reads them into a :class:`Summary`; :func:`paper_section` gives a paper's
:class:`PaperSection` (one row per number it states); :class:`ClaimList` lists every stored claim.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

from .._paths import repo_root
from .core import PAPERS, VERDICTS, Claim
from .store import _read_json
from .tables import _SENSE_TEXT, _VERDICT_CLASS, Markup, Table, _fmt, _fmt_pm, _html_table, _text_table

REPORT_CHAPTER = "report"


def stored_files(chapter: str | None = None, root: Path | None = None) -> list[Path]:
    """The stored-number files under ``data/`` (or ``data/<chapter>/``), the report's own excluded."""
    base = (root or repo_root()) / "data"
    files = sorted((base / chapter).glob("*.json") if chapter else base.glob("*/*.json"))
    return [f for f in files if f.parent.name != REPORT_CHAPTER]


@dataclass
class Summary:
    """Every stored claim of the book (or of one chapter), as :class:`Claim` objects with their notebook."""

    claims: list  # Claim objects
    notebooks: dict  # claim id -> "chapters/<chapter>/<name>.ipynb"

    def get(self, claim_id: str) -> Claim:
        """The stored claim ``claim_id``."""
        for c in self.claims:
            if c.id == claim_id:
                return c
        raise ValueError(f"no stored claim {claim_id!r} under data/ (run its notebook with --write first)")

    def counts(self, by: str = "kind") -> dict:
        """How many claims of each kind (``by="kind"``) or verdict (``by="verdict"``)."""
        out: dict = {}
        for c in self.claims:
            key = c.kind if by == "kind" else c.verdict()
            out[key] = out.get(key, 0) + 1
        return out

    def stated(self, cites: str | None = None) -> list[Claim]:
        """The claims that judge a paper number (one per stated number), optionally of one paper."""
        return [c for c in self.claims if c.paper is not None and (cites is None or c.cites == cites)]

    def table(self) -> Table:
        head = ["claim", "kind", "reproduced", "verdict", "against", "at"]
        return Table(
            head,
            [[c.id, c.kind, _fmt_pm(c.reproduced, c.se), c.verdict_text(), c.reference(), c.at()] for c in self.claims],
        )

    def __repr__(self) -> str:
        return repr(self.table())

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()


def collect(chapter: str | None = None, root: Path | None = None) -> Summary:
    """All stored claims under ``data/`` (or ``data/<chapter>/``), in file and claim order."""
    claims, notebooks = [], {}
    for f in stored_files(chapter, root):
        payload = _read_json(f)
        for d in payload["claims"]:
            c = Claim.from_dict(d, where=str(f))
            claims.append(c)
            notebooks[c.id] = payload["notebook"]
    return Summary(claims, notebooks)


def _link(notebook: str, text: str, base: str = "..") -> Markup:
    """A link from a page of ``chapters/<x>/`` to the rendered page of ``notebook``."""
    rel = notebook.removeprefix("chapters/").removesuffix(".ipynb") + ".html"
    return Markup(f"<a href='{html.escape(base + '/' + rel)}'>{html.escape(text)}</a>")


@dataclass
class PaperSection:
    """One paper's stated numbers in the reproduction report: one row per stated number."""

    cites: str
    claims: list
    notebooks: dict

    def counts(self) -> dict:
        out = {v: 0 for v in VERDICTS}
        for c in self.claims:
            out[c.verdict()] += 1
        return out

    def headline(self) -> str:
        n = self.counts()
        return f"{len(self.claims)} stated numbers: {n['agrees']} agree, {n['near']} near, {n['disagrees']} disagree"

    HEAD = ["verdict", "stated number", "paper", "reproduced", "at", "why", "notebook"]

    def _rows(self, html_links: bool):
        order = {"disagrees": 0, "near": 1, "agrees": 2}
        body, classes = [], []
        for c in sorted(self.claims, key=lambda c: (order[c.verdict()], self.notebooks[c.id], c.id)):
            nb = self.notebooks[c.id]
            name = nb.removeprefix("chapters/").removesuffix(".ipynb")
            paper = _SENSE_TEXT[c.sense] + _fmt(c.paper)
            body.append(
                [
                    c.verdict_text(),
                    c.source,
                    paper,
                    _fmt_pm(c.reproduced, c.se),
                    c.at(),
                    c.reason,
                    _link(nb, name) if html_links else name,
                ]
            )
            classes.append([_VERDICT_CLASS[c.verdict()]] + [None] * 6)
        return body, classes

    def __repr__(self) -> str:
        body, _ = self._rows(False)
        return f"{PAPERS[self.cites]}\n{self.headline()}\n" + _text_table(self.HEAD, body)

    def _repr_html_(self) -> str:
        """Two rows per stated number, so that the table fits a page beside the book's sidebars: the numbers
        (verdict, stated number, paper, reproduced, at), then the reason and the link to the notebook."""
        body, classes = self._rows(True)
        head = "".join(f"<th>{html.escape(h)}</th>" for h in self.HEAD[:5])
        rows = []
        for r, cls in zip(body, classes):
            verdict, source, paper, reproduced, at, why, link = r
            cells = [f"<td class={cls[0]!r}>{html.escape(verdict)}</td>"] + [
                f"<td>{html.escape(str(x))}</td>" for x in (source, paper, reproduced, at)
            ]
            rows.append("<tr class='ldp-main'>" + "".join(cells) + "</tr>")
            rows.append(
                f"<tr class='ldp-why'><td colspan='5'><span class='ldp-why-label'>why:</span> "
                f"{html.escape(why)} <span class='ldp-nb'>(notebook: {link})</span></td></tr>"
            )
        return (
            f"<p class='ldp-headline'>{html.escape(self.headline())}</p><div class='ldp-scroll'>"
            f"<table class='ldp-report'><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
            "</div>"
        )


def paper_section(summary: Summary, cites: str) -> PaperSection:
    """The report's section for the paper ``cites`` (a key of :data:`PAPERS`)."""
    if cites not in PAPERS:
        raise ValueError(f"cites must be one of {', '.join(PAPERS)}, got {cites!r}")
    return PaperSection(cites, summary.stated(cites), summary.notebooks)


@dataclass
class ClaimList:
    """Every stored claim, collapsed under a summary line in the rendered book."""

    summary: Summary

    HEAD = ["claim", "kind", "reproduced", "verdict", "against", "at", "notebook"]

    def _rows(self, html_links: bool):
        body, classes = [], []
        for c in self.summary.claims:
            nb = self.summary.notebooks[c.id]
            name = nb.removeprefix("chapters/").removesuffix(".ipynb")
            body.append(
                [
                    c.id,
                    c.kind,
                    _fmt_pm(c.reproduced, c.se),
                    c.verdict_text(),
                    c.reference(),
                    c.at(),
                    _link(nb, name) if html_links else name,
                ]
            )
            classes.append([None, None, None, _VERDICT_CLASS.get(c.verdict()), None, None, None])
        return body, classes

    def __repr__(self) -> str:
        return _text_table(self.HEAD, self._rows(False)[0])

    def _repr_html_(self) -> str:
        body, classes = self._rows(True)
        counts = ", ".join(f"{n} {k}" for k, n in sorted(self.summary.counts().items()))
        return (
            f"<details class='ldp-all-claims'><summary>All {len(body)} stored claims ({counts}): "
            f"click to open</summary><div class='ldp-scroll'>"
            + _html_table(self.HEAD, body, "ldp-check", classes)
            + "</div></details>"
        )
