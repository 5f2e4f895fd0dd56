"""The reproduction report: every stored claim of the book read back, and one section per paper.

:func:`stored_files` lists the stored-number files under ``data/`` (the report's own excluded);
:func:`collect` reads them into a :class:`Summary`; :func:`paper_section` gives a paper's
:class:`PaperSection` (its statements grouped by category, each with its quote, locator and the numbers that
judge it); :func:`scorecard` counts statements per paper, category and verdict (the table on the report's first
screen, in intro.md and in README.md); :class:`Predictions` lists the book's own predictions;
:class:`ClaimList` lists every stored claim.

A statement judged by several numbers (the unbiasedness of g at six levels) counts once, with the least
favourable of its numbers' verdicts (the order of ``SEVERITY``), each as the statement counts it: a number judged
near or disagreeing by its z alone counts as agreeing while that z is within what the largest of the statement's
k numbers reaches by chance as often as one number passes 2 se (:func:`counted_verdict`, :func:`family_z`).
Numbers of one figure whose horizon the paper does not state, read at one horizon, are judged together where no
checkpoint fits them all: by their closest approach, consistent at some t within :func:`family_z`, near within 4 se,
disagreeing beyond (:func:`~ldpcode.claims.horizons.joint_verdict`).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

from .._paths import repo_root
from ..paper_index import PAPERS_BY_CITES
from .core import AGREE_Z, PAPERS, VERDICTS, Claim, _tail, family_z
from .horizons import _approach_text, _common_t, _searched, joint_verdict
from .statements import CATEGORIES, STATEMENTS
from .store import _read_json
from .tables import (
    _VERDICT_CLASS,
    Markup,
    Table,
    format_value,
    format_pm,
    _html_two_line_table,
    _id_html,
    _mathjax,
    _prose,
    _text_table,
    reading_on_its_line,
    span_text,
)

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
            [
                [c.id, c.kind, format_pm(c.reproduced, c.se), c.verdict_text(), c.reference(), c.at()]
                for c in self.claims
            ],
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


#: the least favourable verdict first: a statement takes the first of its numbers' verdicts in this order
SEVERITY = (
    *("disagrees", "near", "underdetermined", "inconclusive", "consistent at some t", "within the rate", "agrees"),
    "not judged",
)
#: short names of the papers for the scorecard (a view of :data:`ldpcode.paper_index.PAPERS_BY_CITES`)
SHORT = {cites: paper.short for cites, paper in PAPERS_BY_CITES.items()}


def _family(group: list) -> list:
    """The numbers of a statement judged by their own z: statistical, at a stated horizon, not about bounds."""
    return [c for c in group if c.kind == "statistical" and c.t_searched is None and c.category != "scope"]


def counted_verdict(claim, group: list) -> str:
    """A number's verdict as its statement counts it: its own, but a statistical number judged near or disagreeing
    by its z alone (no systematic spread) agrees while that z is within :func:`family_z` of the statement's k > 1
    such numbers: the statement is refuted only by a z its true self gives as rarely as one number gives 2 se."""
    v, family = claim.verdict(), _family(group)
    lifted = v in ("near", "disagrees") and len(family) > 1 and claim in family and claim.systematic == 0
    return "agrees" if lifted and claim.z() <= family_z(len(family), claim.sense) else v


def statement_verdict(claims: list) -> str:
    """The verdict of a statement judged by ``claims``: the least favourable of theirs (``SEVERITY``), each as the
    statement counts it (:func:`counted_verdict`), and, for numbers of one figure whose horizon the paper does not
    state, of their :func:`joint_verdict` (Ren et al.'s 1.6 and 8.5 of Figure 1(a), which no common t fits)."""
    verdicts = {counted_verdict(c, claims) for c in claims} | {joint_verdict(claims)} - {None}
    return next(v for v in SEVERITY if v in verdicts)


def statement_summary(group: list) -> str:
    """How the scorecard counts a statement judged by several numbers: once, with the least favourable of their
    verdicts, and how many numbers gave each (and, for a row within the family's z, why it counts as agreeing).
    Empty for a statement judged by one number (its row says it all)."""
    if len(group) < 2:
        return ""
    if len(_searched(group)) == len(group):
        each = "; ".join(f"{c.paper_text()} at {span_text(c.t_consistent, c.t_searched)}" for c in group)
        common, ranges = _common_t(group), {tuple(c.t_searched) for c in group}
        if common:
            together = f"together at most at {span_text(common, ())}"
        else:  # the range searched, when every number was searched over the same one
            together = f"{span_text((), ranges.pop())} fits them all" if len(ranges) == 1 else "no t fits them all"
            together += " within 2 se" + _approach_text(group)
        return (
            f"one statement, numbers of one figure the paper read at one horizon it does not state, counted as "
            f"{statement_verdict(group)}: {together} ({each})"
        )
    counts: dict = {}
    for c in group:
        counts[c.verdict()] = counts.get(c.verdict(), 0) + 1
    verdict = statement_verdict(group)
    if len(counts) == 1:
        every = "both" if len(group) == 2 else f"all {len(group)}"
        return f"one statement, counted as {verdict} ({every} of its numbers)"
    parts = ", ".join(f"{counts[v]} {v}" for v in SEVERITY if v in counts)
    lifted = [c for c in group if counted_verdict(c, group) != c.verdict()]
    if not lifted:
        return f"one statement, counted as {verdict}: the least favourable of its {len(group)} numbers ({parts})"
    k, z = len(_family(group)), max(c.z() for c in lifted)
    rows = f"row (z = {z:.1f}) lies" if len(lifted) == 1 else f"rows (z ≤ {z:.1f}) lie"
    which = " and ".join(v for v in SEVERITY if v in {c.verdict() for c in lifted})
    return (
        f"one statement, counted as {verdict}: its {len(group)} numbers give {parts}, and the {which} "
        f"{rows} within {family_z(k, lifted[0].sense):.2f} se, beyond which the largest of {k} "
        f"numbers of a true statement lies as often as one number beyond {AGREE_Z:g} se (Šidák)"
    )


def statements_of(claims: list) -> dict:
    """Claims grouped by the statement they judge, in first-seen order: statement key -> list of claims."""
    out: dict = {}
    for c in claims:
        out.setdefault(c.statement, []).append(c)
    return out


@dataclass
class Scorecard:
    """Statements per paper and category (rows) and verdict (columns), counted from the stored claims."""

    rows: list  # (paper key, category, {verdict: statements}, numbers)

    def columns(self) -> list:
        used = {v for _, _, counts, _ in self.rows for v, n in counts.items() if n}
        return [v for v in VERDICTS if v in used]

    def table(self) -> Table:
        cols = self.columns()
        body, last = [], None
        for cites, category, counts, numbers in self.rows:
            body.append(
                [SHORT[cites] if cites != last else "", category]
                + [str(counts.get(v, 0) or "·") for v in cols]
                + [str(numbers)]
            )
            last = cites
        return Table(["paper", "class"] + cols + ["numbers"], body, formats=[None, None] + [str] * (len(cols) + 1))

    def markdown(self) -> str:
        """The scorecard as a GitHub-flavoured markdown table (README.md, intro.md); the long verdict names may break
        at a soft hyphen, so that the table fits the book's text column."""
        t = self.table()
        head = [self._BREAKS.get(h, h) for h in t.head]
        lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] * 2 + ["--:"] * (len(t.head) - 2)) + "|"]
        lines += ["| " + " | ".join(r) + " |" for r in t._cells()]
        return "\n".join(lines)

    def totals(self) -> dict:
        out = {v: 0 for v in VERDICTS}
        for _, _, counts, _ in self.rows:
            for v, n in counts.items():
                out[v] += n
        return out

    def __repr__(self) -> str:
        return repr(self.table())

    #: where a verdict's name may break in a narrow header (soft hyphens)
    _BREAKS = {
        "inconclusive": "incon&shy;clusive",
        "underdetermined": "under&shy;determined",
        "consistent at some t": "con&shy;sistent at some t",
        "disagrees": "dis&shy;agrees",
    }

    def _repr_html_(self) -> str:
        """One group of rows per paper (its name across the table), a row per class, a column per verdict: narrow
        enough for the text column at 1280 px."""
        cols = self.columns()
        head = "<th>class</th>" + "".join(f"<th>{self._BREAKS.get(v, html.escape(v))}</th>" for v in cols)
        rows, last = [], None
        for cites, category, counts, numbers in self.rows:
            if cites != last:
                rows.append(
                    f"<tr class='ldp-paper'><th colspan='{len(cols) + 2}'>{html.escape(SHORT[cites])}</th></tr>"
                )
                last = cites
            cells = "".join(
                f"<td class='num{' ' + _VERDICT_CLASS[v] if counts.get(v) else ''}'>{counts.get(v) or '·'}</td>"
                for v in cols
            )
            rows.append(f"<tr><td>{html.escape(category)}</td>{cells}<td class='num'>{numbers}</td></tr>")
        return (
            f"<div class='ldp-scorecard'><table class='ldp-table'><thead><tr>{head}<th>numbers</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>"
        )


def scorecard(summary: Summary) -> Scorecard:
    """The statements of every paper, by category and verdict (see the module docstring)."""
    rows = []
    for cites in PAPERS:
        stated = summary.stated(cites)
        for category in CATEGORIES:
            claims = [c for c in stated if c.category == category]
            if not claims:
                continue
            counts = {v: 0 for v in VERDICTS}
            for group in statements_of(claims).values():
                counts[statement_verdict(group)] += 1
            rows.append((cites, category, counts, len(claims)))
    return Scorecard(rows)


def chance_note(claim, group: list) -> str:
    """For a statistical number judged near or disagreeing by its z, one of k > 1 such numbers of one statement:
    the chance that, with the statement true and the k numbers independent, at least one lies beyond 2 standard
    errors, :math:`1 - (1 - p)^k` with :math:`p = P(\\lvert Z\\rvert > 2) = 0.0455` (:math:`P(Z > 2) = 0.0228`
    one-sided). A family read number by number finds such a row by chance; this says how often. Empty
    otherwise."""
    if claim not in _family(group) or claim.verdict() not in ("near", "disagrees"):
        return ""
    k = len(_family(group))
    if k < 2:
        return ""
    chance = 1 - (1 - _tail(claim.sense)) ** k
    return (
        f"one of {k} numbers of this statement: were it true, at least one of {k} would lie beyond {AGREE_Z:g} se "
        f"by chance with probability {chance:.0%}"
    )


def statement_note(claim) -> str:
    """What a reader should know of the quote ``claim`` judges (its statement's ``note``: what an ellipsis or the
    extraction drops, how the book reads the words), shown under the quote; "" when there is none."""
    st = STATEMENTS.get(claim.statement)
    return st.note.strip() if st is not None else ""


@dataclass
class PaperSection:
    """One paper's statements in the reproduction report, grouped by category: each statement with its quote
    and locator, then one row per number that judges it."""

    cites: str
    claims: list
    notebooks: dict

    def counts(self) -> dict:
        """Statements per verdict (a statement judged by several numbers counts once)."""
        out = {v: 0 for v in VERDICTS}
        for group in statements_of(self.claims).values():
            out[statement_verdict(group)] += 1
        return out

    def headline(self) -> str:
        n = self.counts()
        parts = ", ".join(f"{k} {v}" for v, k in n.items() if k)
        groups = len(statements_of(self.claims))
        return f"{groups} statements ({len(self.claims)} numbers): {parts}"

    HEAD = ["verdict", "stated number", "paper", "reproduced", "at", "why", "notebook"]

    def _ordered(self) -> list:
        """Claims by category (``CATEGORIES``), then passage, then statement (least favourable first, a passage
        ranked by its least favourable statement, so that the statements of one quoted passage stay together),
        then notebook and id."""
        groups = statements_of(self.claims)
        sev = {v: i for i, v in enumerate(SEVERITY)}
        own = {k: sev[statement_verdict(g)] for k, g in groups.items()}
        passage = {k: (g[0].category, g[0].quote) for k, g in groups.items()}  # one quote, maybe two locators
        worst, first = {}, {}
        for k, p in passage.items():
            worst[p], first[p] = min(worst.get(p, own[k]), own[k]), min(first.get(p, k), k)
        keyed = sorted(
            groups.items(),
            key=lambda kv: (
                CATEGORIES.index(kv[1][0].category),
                worst[passage[kv[0]]],
                first[passage[kv[0]]],
                own[kv[0]],
                kv[0],
            ),
        )
        return [c for _, group in keyed for c in sorted(group, key=lambda c: (self.notebooks[c.id], c.id))]

    def _rows(self, html_links: bool):
        body, classes = [], []
        for c in self._ordered():
            nb = self.notebooks[c.id]
            name = nb.removeprefix("chapters/").removesuffix(".ipynb")
            paper = c.paper_text()
            body.append(
                [
                    c.verdict_text(),
                    c.source,
                    paper,
                    format_pm(c.reproduced, c.se),
                    c.at(),
                    c.reason,
                    _link(nb, name) if html_links else name,
                ]
            )
            classes.append([_VERDICT_CLASS[c.verdict()]] + [None] * 6)
        return body, classes

    def __repr__(self) -> str:
        body, _ = self._rows(False)
        out, last = [f"{PAPERS[self.cites]}", self.headline()], None
        ordered = self._ordered()
        groups = statements_of(self.claims)
        for c, row in zip(ordered, body):
            if c.statement != last:
                summary = statement_summary(groups[c.statement])
                out.append(f'\n[{c.category}] {c.locator}: "{c.quote}"' + (f" — {summary}" if summary else ""))
                note = statement_note(c)
                out += [f"  note: {note}"] if note else []
                last = c.statement
            out.append(_text_table(self.HEAD, [row]).splitlines()[-1])
        return "\n".join(out)

    def _repr_html_(self) -> str:
        """Per category a heading; per statement its quote and locator; per number two rows, so that the table fits
        a page beside the book's sidebars: the numbers (verdict, stated number, paper, reproduced, at), then the
        measure, how the number was measured (its note: runs, fit window), the reason and the link to the
        notebook."""
        body, classes = self._rows(True)
        head = "".join(f"<th>{html.escape(h)}</th>" for h in self.HEAD[:5])
        rows, last_cat, last_st, last_passage = [], None, None, None
        groups = statements_of(self.claims)
        for c, r, cls in zip(self._ordered(), body, classes):
            if c.category != last_cat:
                rows.append(f"<tr class='ldp-category'><th colspan='5'>{html.escape(c.category)}</th></tr>")
                last_cat, last_passage = c.category, None
            if c.statement != last_st:
                # a passage that states two numbers heads two statements: the second time it is named, not repeated
                # (its locator follows: a table row quoted for two of its columns names the column)
                passage = c.quote
                quote = (
                    "<span class='ldp-locator'>the same passage</span>"
                    if passage == last_passage
                    else f"<q class='mathjax_process'>{_mathjax(c.quote)}</q>"
                )
                summary = statement_summary(groups[c.statement])
                summary = f"<span class='ldp-statement'>{html.escape(summary)}.</span>" if summary else ""
                if len(groups[c.statement]) > 1:  # the statement's own verdict, which its rows' may not show
                    verdict = statement_verdict(groups[c.statement])
                    summary = (
                        f"<span class='ldp-statement'><span class='ldp-verdict {_VERDICT_CLASS[verdict]}'>statement: "
                        f"{html.escape(verdict)}</span></span>{summary}"
                    )
                note = statement_note(c)
                if note:
                    summary += (
                        f"<span class='ldp-statement'><span class='ldp-why-label'>note:</span> "
                        f"{_prose(note.rstrip('.'))}.</span>"
                    )
                rows.append(
                    f"<tr class='ldp-quote'><td colspan='5'>{quote} "
                    f"<span class='ldp-locator'>({_prose(c.locator)})</span>{summary}</td></tr>"
                )
                last_st, last_passage = c.statement, passage
            _, source, paper, reproduced, at, why, link = r
            paper_class = "" if c.paper_prints() else " class='ldp-reading'"  # not printed: the book's reading
            cells = [
                f"<td class={cls[0]!r}>{html.escape(c.verdict())}</td>",
                f"<td>{_prose(source)}</td>",
                f"<td{paper_class}>{reading_on_its_line(paper)}</td>",
                f"<td>{html.escape(reproduced)}</td>",
                f"<td>{html.escape(at)}</td>",
            ]
            rows.append("<tr class='ldp-main'>" + "".join(cells) + "</tr>")
            measure = c.measure() if c.kind == "statistical" else ""
            chance = chance_note(c, groups[c.statement])
            measure += f"; {chance}" if chance else ""
            measure = f"<span class='ldp-measure'>{html.escape(measure)}.</span> " if measure else ""
            # how the number was measured (runs, fit window, horizon searched): what the verdict holds for
            if c.note:
                measure += f"<span class='ldp-why-label'>measured:</span> {_prose(c.note.rstrip('.'))}. "
            spread = (
                f" <span class='ldp-why-label'>systematic:</span> {_prose(c.systematic_how)}."
                if c.systematic_how
                else ""
            )
            rows.append(
                f"<tr class='ldp-why'><td colspan='5'>{measure}<span class='ldp-why-label'>why:</span> "
                f"{_prose(why.rstrip('.'))}.{spread} <span class='ldp-nb'>(notebook: {link})</span></td></tr>"
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
class Predictions:
    """The book's own predictions (kind ``prediction``): numbers the book derives, each against the notebook that
    derives it, never under a paper's name."""

    summary: Summary

    HEAD = ["verdict", "number", "predicted", "reproduced", "at", "derived in", "measured in"]

    def claims(self) -> list:
        return [c for c in self.summary.claims if c.kind == "prediction"]

    def _rows(self, html_links: bool):
        body, classes = [], []
        for c in self.claims():
            nb = self.summary.notebooks[c.id]
            name = lambda p: p.removeprefix("chapters/").removesuffix(".ipynb")  # noqa: E731
            body.append(
                [
                    c.verdict_text(),
                    Markup(_prose(c.source)) if html_links else c.source,
                    format_value(c.predicted),
                    format_pm(c.reproduced, c.se),
                    c.at(),
                    _link(c.derived_in, name(c.derived_in)) if html_links else name(c.derived_in),
                    _link(nb, name(nb)) if html_links else name(nb),
                ]
            )
            classes.append([_VERDICT_CLASS.get(c.verdict())] + [None] * 6)
        return body, classes

    def __repr__(self) -> str:
        return _text_table(self.HEAD, self._rows(False)[0])

    def _repr_html_(self) -> str:
        body, classes = self._rows(True)
        # the number (prose that wraps) first, then the two values and the verdict; the rest on a second line
        main = [[r[1], r[3], r[2], r[0]] for r in body]
        cls = [[None, None, None, k[0]] for k in classes]
        details = [list(zip(self.HEAD[4:], r[4:])) for r in body]
        head = [self.HEAD[1], self.HEAD[3], self.HEAD[2], self.HEAD[0]]
        return "<div class='ldp-scroll'>" + _html_two_line_table(head, main, details, "ldp-check", cls) + "</div>"


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
                    format_pm(c.reproduced, c.se),
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
            + _html_two_line_table(
                ["claim", "reproduced", "verdict"],
                [[_id_html(r[0]), r[2], r[3]] for r in body],
                [[("kind", r[1]), ("against", r[4]), ("at", r[5]), ("notebook", r[6])] for r in body],
                "ldp-check",
                [[k[0], k[2], k[3]] for k in classes],
            )
            + "</div></details>"
        )
