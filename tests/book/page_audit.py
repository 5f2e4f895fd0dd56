"""One load of each page of the built book, at 1280 px in headless Chromium, and everything a reader would
see go wrong on it: raw TeX or markdown-table pipes in the body after MathJax has run, list items made out
of what was meant as a formula, tables, text outputs and display formulas wider than their column, words a
markdown table breaks across lines, and
figures whose smallest font shows below 9 CSS px.

Used by ``tests/book/test_book_pages.py`` (each property one test over every page) and runnable by hand
over any build, to see a page's problems before and after a change::

    python tests/book/page_audit.py _build/html [chapters/azize2022/table1.html ...]
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

WIDTH = 1280
#: the smallest font a figure may show, in CSS px (ldpcode.plotting.MIN_FONT_PX)
MIN_FONT_PX = 9.0
#: the PNG text key of the book's figures: their smallest font, in points (ldpcode.plotting.FONT_KEY)
FONT_KEY = "ldp-min-font-pt"
#: the PNG text key of the book's figures: how many markers and texts a legend hides (ldpcode.plotting.HIDDEN_KEY)
HIDDEN_KEY = "ldp-hidden-by-legend"
#: the PNG text key of the book's figures: the largest share of a curve's length under a legend
#: (ldpcode.plotting.COVER_KEY), and the most a figure may hide
COVER_KEY = "ldp-legend-line-cover"
MAX_COVER = 0.10
#: the PNG text key of the book's figures: how many texts show an underscore outside mathtext
#: (ldpcode.plotting.UNDERSCORE_KEY)
UNDERSCORE_KEY = "ldp-raw-underscores"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: pages that are not the book's text: Sphinx's indexes and the highlighted sources of the API appendix
SKIP = ("index.html", "genindex.html", "search.html", "py-modindex.html", "prf-prf.html")  # index.html redirects

# What the page shows after MathJax has typeset it. Text inside rendered math, code, code cells and the
# navigation is not the body's prose; everything else is read as a reader reads it.
AUDIT_JS = r"""
async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) { await MathJax.startup.promise; }
  const art = document.querySelector('article.bd-article');
  if (!art) return null;
  const col = art.getBoundingClientRect();
  const SKIP = 'mjx-container, script, style, code, pre.literal-block, div.cell_input, div.highlight, nav, a.headerlink, .MathJax';
  const TEX = /\$|\\(frac|mathcal|mathrm|mathbb|left|right|sum|big|Big|epsilon|Delta|le|ge|log)(?![a-zA-Z])/;
  const raw = [], lists = [];
  const walker = document.createTreeWalker(art, NodeFilter.SHOW_TEXT);
  let node;
  while ((node = walker.nextNode())) {
    const el = node.parentElement;
    if (!el || el.closest(SKIP)) continue;
    const text = node.textContent;
    if (!TEX.test(text)) continue;
    const where = (el.closest('li') ? lists : raw);
    where.push(text.replace(/\s+/g, ' ').trim().slice(0, 90));
  }
  // a formula MathJax refused (red text: "\\tag not allowed in split environment"), and a cross-reference to a
  // directive without a number ({prf:ref} to a :nonumber: theorem reads "(Definition )")
  art.querySelectorAll('mjx-merror').forEach(e =>
    raw.push('MathJax error: ' + (e.getAttribute('data-mjx-error') || e.textContent).slice(0, 80)));
  art.querySelectorAll('a.reference').forEach(a => {
    const t = a.textContent.trim();
    if (/^(Definition|Algorithm|Theorem|Lemma|Corollary|Proposition|Remark|Example|Assumption|Equation)$/.test(t))
      raw.push(`a reference with no number: "${t}" (${a.getAttribute('href')})`);
  });
  const pipes = [];
  art.querySelectorAll('p').forEach(p => {
    if (p.closest(SKIP)) return;
    const t = p.textContent;
    if (/\|\s*:?-{3,}:?\s*\|/.test(t) || /(^|\n)\s*\|[^\n]*\|\s*(\n|$)/.test(t)) pipes.push(t.replace(/\s+/g, ' ').slice(0, 90));
  });
  const scroller = el => {
    for (let e = el.parentElement; e && e !== art; e = e.parentElement) {
      const o = getComputedStyle(e).overflowX;
      if (o === 'auto' || o === 'scroll') return e;
    }
    return null;
  };
  const tables = [];
  art.querySelectorAll('table').forEach((t, i) => {
    if (t.closest('div.highlight, details:not([open])')) return;
    const r = t.getBoundingClientRect();
    if (r.width === 0) return;
    const s = scroller(t);
    const over = Math.max(r.right - col.right, s ? s.scrollWidth - s.clientWidth : 0);
    if (over > 1) tables.push({index: i, cls: t.className, width: Math.round(r.width), over: Math.round(over),
                               head: (t.querySelector('th') || t).textContent.trim().slice(0, 40)});
  });
  // a word of a markdown table's prose cell split over two lines ("heterogene-ous"): a break at a hyphen, a
  // slash or a soft hyphen is a break a reader expects; code and math are left to their own rules
  const words = [];
  art.querySelectorAll('table.table td, table.table th').forEach(td => {
    const tw = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
    let n;
    while ((n = tw.nextNode())) {
      if (n.parentElement.closest(SKIP)) continue;
      for (const m of n.textContent.matchAll(/[^\s\-\/\u00ad]{2,}/g)) {
        const rg = document.createRange();
        rg.setStart(n, m.index);
        rg.setEnd(n, m.index + m[0].length);
        // (a soft hyphen shown at a line's end lends the next part a sliver of a box on that line: not a break)
        const tops = new Set(Array.from(rg.getClientRects()).filter(r => r.width > 6).map(r => Math.round(r.top)));
        if (tops.size > 1) words.push(m[0].slice(0, 40));
      }
    }
  });
  const outputs = [];
  art.querySelectorAll('div.cell_output pre, div.output pre').forEach(p => {
    const r = p.getBoundingClientRect();
    const over = Math.max(p.scrollWidth - p.clientWidth, r.right - col.right);
    if (over > 1) outputs.push({over: Math.round(over), text: p.textContent.trim().split('\n')[0].slice(0, 80)});
  });
  const formulas = [];
  art.querySelectorAll('mjx-container[display="true"]').forEach(m => {
    const inner = m.querySelector('mjx-math');
    if (!inner) return;
    const box = m.getBoundingClientRect(), r = inner.getBoundingClientRect();
    const over = Math.max(r.width - box.width, r.right - col.right);
    const text = (m.querySelector('mjx-assistive-mml') || m).textContent.replace(/\s+/g, ' ').slice(0, 60);
    if (over > 1) formulas.push({over: Math.round(over), text});
  });
  const images = Array.from(art.querySelectorAll('div.cell_output img')).map(img => ({
    src: img.getAttribute('src'), natural: img.naturalWidth, shown: img.getBoundingClientRect().width}));
  return {column: [Math.round(col.left), Math.round(col.right)], raw, lists, pipes, tables, words, outputs, formulas, images,
          checks: art.querySelectorAll('table.ldp-check').length,
          page_wide: document.documentElement.scrollWidth > window.innerWidth + 1};
}
"""


@dataclass
class PageAudit:
    """What one page shows wrong (each a list of short descriptions; empty when the page is clean)."""

    rel: str
    raw: list = field(default_factory=list)
    lists: list = field(default_factory=list)
    pipes: list = field(default_factory=list)
    tables: list = field(default_factory=list)
    words: list = field(default_factory=list)
    outputs: list = field(default_factory=list)
    formulas: list = field(default_factory=list)
    fonts: list = field(default_factory=list)
    hidden: list = field(default_factory=list)
    underscores: list = field(default_factory=list)
    checks: int = 0
    page_wide: bool = False
    figures: int = 0


def pages(html: Path) -> list:
    """Every page of the book's text in ``html`` (a built ``_build/html``), as paths relative to it."""
    out = []
    for p in sorted(html.rglob("*.html")):
        rel = p.relative_to(html).as_posix()
        if rel.startswith(("_", "chapters/api/_")) or rel in SKIP or "/_modules/" in rel:
            continue
        out.append(rel)
    return out


def figure_font_px(png: Path, shown: float) -> tuple:
    """(smallest font as shown, in CSS px, or None without the book's record; the record) for a figure file
    shown ``shown`` CSS px wide: s points at d dpi are s·d/72 image pixels, scaled by shown/natural."""
    from PIL import Image

    with Image.open(png) as im:
        natural, info = im.width, dict(im.info)
    pt = info.get(FONT_KEY)
    dpi = info.get("dpi", (72, 72))[0]
    if pt is None:
        return None, info
    return float(pt) * dpi / 72 * shown / natural, info


def audit(browser, html: Path, rels=None, shots: dict | None = None) -> dict:
    """Load each page of ``rels`` (default: :func:`pages`) once and return {rel: PageAudit}. ``shots`` maps a rel
    to a screenshot path: that page is also saved whole, as loaded."""
    result = {}
    page = browser.new_page(viewport={"width": WIDTH, "height": 1000})
    for rel in rels or pages(html):
        page.goto((html / rel).as_uri())
        page.wait_for_load_state("load")
        found = page.evaluate(AUDIT_JS)
        a = PageAudit(rel)
        if found is None:
            result[rel] = a
            continue
        a.raw, a.lists, a.pipes = found["raw"], found["lists"], found["pipes"]
        a.tables = [
            f"table {t['index']} ({t['cls'] or 'plain'}, '{t['head']}'): {t['width']} px, {t['over']} px too wide"
            for t in found["tables"]
        ]
        a.words = [f"a markdown table breaks the word {w!r}" for w in found["words"]]
        a.outputs = [f"{o['over']} px too wide: {o['text']!r}" for o in found["outputs"]]
        a.formulas = [f"{m['over']} px too wide: {m['text']!r}" for m in found["formulas"]]
        a.checks, a.page_wide = found["checks"], found["page_wide"]
        for img in found["images"]:
            a.figures += 1
            png = (html / rel).parent / img["src"]
            px, info = figure_font_px(png, img["shown"])
            if info.get(HIDDEN_KEY, "0" if px is None else None) != "0":  # no record: reported once, as a font
                a.hidden.append(
                    f"{Path(img['src']).name[:12]}: {info.get(HIDDEN_KEY, 'no record of')} markers or texts hidden by a legend"
                )
            if float(info.get(COVER_KEY, 0)) > MAX_COVER:
                a.hidden.append(f"{Path(img['src']).name[:12]}: a legend covers {info[COVER_KEY]} of a curve's length")
            if info.get(UNDERSCORE_KEY, "0" if px is None else None) != "0":  # no record: reported once, as a font
                a.underscores.append(
                    f"{Path(img['src']).name[:12]}: {info.get(UNDERSCORE_KEY, 'no record of')} texts show an underscore"
                )
            if px is None:
                a.fonts.append(f"{img['src']}: no {FONT_KEY} record (not shown through ldpcode.plotting.use_theme)")
            elif px < MIN_FONT_PX - 1e-6:
                a.fonts.append(
                    f"{Path(img['src']).name[:12]}: smallest font {info[FONT_KEY]} pt shows at {px:.1f} px "
                    f"({img['natural']} px shown at {img['shown']:.0f})"
                )
        if shots and rel in shots:
            page.screenshot(path=str(shots[rel]), full_page=True)
        result[rel] = a
    page.close()
    return result


def main(argv=None) -> int:
    from playwright.sync_api import sync_playwright
    import shutil

    argv = sys.argv[1:] if argv is None else argv
    html = Path(argv[0]).resolve()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        found = audit(browser, html, argv[1:] or None)
        browser.close()
    bad = 0
    for rel, a in found.items():
        problems = {k: v for k, v in vars(a).items() if isinstance(v, list) and v}
        if problems:
            bad += 1
            print(rel)
            for k, v in problems.items():
                for x in v[:6]:
                    print(f"  {k}: {x}")
                if len(v) > 6:
                    print(f"  {k}: … {len(v) - 6} more")
    print(json.dumps({"pages": len(found), "with problems": bad, "figures": sum(a.figures for a in found.values())}))
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
