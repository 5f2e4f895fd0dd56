"""The built book as a reader sees it: the book the README's build command made from these very sources (its stamp,
``_ext/build_stamp.py``, says so), or else one built here into a temporary folder, opened in headless Chromium at
1280 px. Every page is loaded once (``page_audit.audit``), and each test reads one property
of all pages from that load: no raw TeX, markdown pipes or formula-made list items in a page body; no
table, text output or display formula wider than the text column; no figure font below 9 px as shown, no legend
over the data, no figure text with an underscore; a check table on every chapter page. Four more pages are opened
for what is theirs alone: the reproduction report (its scorecard on the first screen, its per-paper tables), the
errata, the API appendix, and Figure 1 of Ren et al. (a parameters cell whose wrapped lines hang indented). Titles,
the bibliography and the pages' network use are read from the HTML files.

Needs Chromium (Debian's ``chromium`` package: ``.ci/run`` installs it) and Playwright's Python client
(``requirements.txt``), which drives that Chromium and downloads no browser of its own. Without a
Chromium on the PATH the browser tests skip on a developer's machine and fail under CI (``CI`` set).
Screenshots are kept in ``_build/screenshots/`` for a human to look at.
"""

import importlib.util
import os
import re
import shutil
import subprocess
from pathlib import Path

import page_audit
import pytest

ROOT = Path(__file__).resolve().parents[2]
WIDTH = page_audit.WIDTH
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SHOTS = ROOT / "_build" / "screenshots"
ARGS = page_audit.ARGS


def _stamped_build():
    """The book the README's build command made (``_build/html``), when its stamp says it was built afresh, with no
    warning, from exactly the sources here now, and holds the pages that build wrote (``_ext/build_stamp.py``,
    ``reusable_build``); else ``None``."""
    spec = importlib.util.spec_from_file_location("build_stamp", ROOT / "_ext" / "build_stamp.py")
    stamp = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(stamp)
    return stamp.reusable_build(ROOT, ROOT / "_build" / "html")


@pytest.fixture(scope="module")
def html(tmp_path_factory):
    """The built book: the README's build of these very sources when there is one (no pass over the book paid
    twice), else a build of our own into a temporary folder, with warnings as errors."""
    built = _stamped_build()
    if built is not None:
        return built
    out = tmp_path_factory.mktemp("book")
    proc = subprocess.run(
        ["jupyter-book", "build", "--warningiserror", "--keep-going", "--path-output", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return out / "_build" / "html"


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("CI needs Chromium for the page tests: .ci/run installs Debian's chromium package")
        pytest.skip("no chromium on the PATH (apt-get install chromium); the page tests run in CI")
    sync = pytest.importorskip("playwright.sync_api")
    with sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _page(browser, html, rel):
    page = browser.new_page(viewport={"width": WIDTH, "height": 1000})
    page.goto((html / rel).as_uri())
    page.wait_for_load_state("load")
    return page


def _visible_column(page, table, header):
    """Is the column headed ``header`` of ``table`` fully on screen at this width, not clipped by the
    table's scrolling container or by the page?"""
    heads = [h.strip() for h in table.locator("th").all_inner_texts()]
    assert header in heads, heads
    cell = table.locator("th").nth(heads.index(header))
    box = cell.bounding_box()
    clip = table.evaluate(
        "t => { const s = t.closest('.ldp-scroll') || t.parentElement;"
        " const r = s.getBoundingClientRect(); return [r.left, r.right]; }"
    )
    return box["x"] >= 0 and box["x"] + box["width"] <= min(WIDTH, clip[1] + 0.5), (box, clip)


def test_report_shows_each_papers_verdicts_at_1280px(browser, html):
    page = _page(browser, html, "chapters/report/reproduction_report.html")
    page.set_viewport_size({"width": WIDTH, "height": 800})
    card = page.locator("div.ldp-scorecard table")
    assert card.count() == 1, "the scorecard, once"
    box = card.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 800, f"the scorecard is not on the first screen: {box}"
    fits = card.evaluate(
        "t => [t.parentElement.scrollWidth, t.parentElement.clientWidth, t.getBoundingClientRect().right]"
    )
    assert fits[0] <= fits[1] + 1 and fits[2] <= WIDTH, f"the scorecard is clipped at {WIDTH} px: {fits}"
    # one search field, the sidebar's: pydata-sphinx-theme 0.17 added a header bar with a second one (_config.yml)
    searches = page.locator(".search-button-field").evaluate_all(
        "bs => bs.filter(b => b.getBoundingClientRect().height > 0).length"
    )
    title = page.locator("article h1").first.bounding_box()
    assert searches == 1 and title["y"] < 120, f"{searches} search fields; the title at y = {title['y']:.0f} px"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "reproduction_report-1280x800.png"))
    tables = page.locator("table.ldp-report")
    assert tables.count() == 4, "one table of stated numbers per paper"
    headlines = page.locator("p.ldp-headline").all_inner_texts()
    assert len(headlines) == 4
    for text in headlines:
        assert re.fullmatch(r"\d+ statements \(\d+ numbers\): \d+ [a-z ]+(, \d+ [a-z ]+)*", text), text
        assert not text.startswith("0 "), "every paper has stated numbers"
    # each statement heads its rows with its quote, or, the second time a passage heads a statement, names it
    statements = sum(int(text.split()[0]) for text in headlines)
    assert page.locator("tr.ldp-quote").count() == statements, "one quote row per statement"
    quoted = page.locator("tr.ldp-quote q").count()
    named = page.locator("tr.ldp-quote", has_text="the same passage").count()
    assert quoted + named == statements and quoted >= 30, (quoted, named, statements)
    # a number the paper does not print is shown as the book's reading, greyed, never under the paper's name alone
    readings = page.locator("td.ldp-reading").all_inner_texts()
    assert readings and all(t.startswith("read as ") for t in readings), readings
    style = page.locator("td.ldp-reading").first.evaluate("td => getComputedStyle(td).fontStyle")
    assert style == "italic", "a reading is set apart from the printed numbers"
    for i in range(4):
        table = tables.nth(i)
        ok, where = _visible_column(page, table, "verdict")
        assert ok, f"the verdict column of section {i + 1} is off-screen at {WIDTH} px: {where}"
        ok, where = _visible_column(page, table, "reproduced")
        assert ok, f"the reproduced column of section {i + 1} is off-screen at {WIDTH} px: {where}"
        fits = table.evaluate("t => { const s = t.closest('.ldp-scroll'); return [s.scrollWidth, s.clientWidth]; }")
        assert fits[0] <= fits[1] + 1, f"section {i + 1} needs sideways scrolling at {WIDTH} px: {fits}"
        links = table.locator("a").evaluate_all("as => as.map(a => a.getAttribute('href'))")
        for href in links:
            assert (html / "chapters" / "report" / href).resolve().exists(), href
    assert page.locator("details.ldp-all-claims").count() == 1, "the full claim list, collapsed"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "reproduction_report-1280.png"))
    page.locator("table.ldp-report").first.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "reproduction_report-1280-first-section.png"))
    page.close()


def test_the_errata_render_each_entry(browser, html):
    page = _page(browser, html, "chapters/report/errata.html")
    entries = page.locator("section h3").all_inner_texts()
    assert len(entries) >= 10, entries
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "errata-1280.png"), full_page=True)
    page.close()


def _chapter_pages():
    return sorted(str(p.relative_to(ROOT).with_suffix(".html")) for p in (ROOT / "chapters").glob("*/*.ipynb"))


#: pages kept whole as screenshots of the audit's single load (_build/screenshots/<name>-1280.png)
SHOT_PAGES = [
    "chapters/azize2022/theorems7_8_upper_bounds.html",
    "chapters/azize2022/table1.html",
    "chapters/heldp/theorem10_corollary11.html",
    "chapters/ren2020/figure1.html",
    "chapters/landscape/privacy_landscape.html",
]


@pytest.fixture(scope="module")
def audited(browser, html):
    """Every page of the book loaded once (tests/book/page_audit.py); each test below reads one property."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    shots = {
        rel: SHOTS / (rel.removeprefix("chapters/").removesuffix(".html").replace("/", "-") + "-1280.png")
        for rel in SHOT_PAGES
    }
    found = page_audit.audit(browser, html, shots=shots)
    assert len(found) >= 50, sorted(found)
    return found


def _problems(audited, name):
    return [f"{rel}: {x}" for rel, a in audited.items() for x in getattr(a, name)]


def test_page_bodies_show_no_raw_tex_and_no_markdown_pipes(audited):
    """After MathJax has run, no text of a page body outside rendered math and code carries TeX ($, \\frac,
    \\mathcal, \\left, \\mathrm, ...) or the pipes of a markdown table commonmark did not render."""
    bad = _problems(audited, "raw") + _problems(audited, "pipes")
    assert not bad, "raw TeX or table pipes in page bodies:\n" + "\n".join(bad)


def test_no_list_item_is_made_of_a_formula(audited):
    """A line of a formula that starts with + or - becomes a bullet when the formula is not its own
    paragraph: no list item carries raw TeX."""
    bad = _problems(audited, "lists")
    assert not bad, "list items made of formulas:\n" + "\n".join(bad)


def test_every_table_fits_its_column_at_1280px(audited):
    """Every table of every page (check tables, plain tables, markdown tables) ends inside the text column
    and needs no sideways scroll."""
    bad = _problems(audited, "tables") + [
        f"{rel}: the page scrolls sideways" for rel, a in audited.items() if a.page_wide
    ]
    assert not bad, "tables wider than their column:\n" + "\n".join(bad)


def test_no_markdown_table_breaks_a_word_at_1280px(audited):
    """A prose cell of a markdown table wraps between words: the landscape's table read "heterogene / ous" while
    its other columns had room (CSS overflow-wrap: anywhere lets the table's layout shrink a column below its
    longest word). Breaks at a hyphen or a slash are a reader's breaks; code and math have their own rules."""
    bad = _problems(audited, "words")
    assert not bad, "words broken inside markdown tables:\n" + "\n".join(bad)


def test_every_text_output_fits_its_column_at_1280px(audited):
    bad = _problems(audited, "outputs")
    assert not bad, "text outputs wider than their column:\n" + "\n".join(bad)


def test_every_display_formula_fits_its_column_at_1280px(audited):
    """MathJax does not break lines: a display formula wider than its box is cut off at its edge (or, with the
    book's CSS, scrolls). Long ones are written on two or three lines (aligned)."""
    bad = _problems(audited, "formulas")
    assert not bad, "display formulas wider than their column:\n" + "\n".join(bad)


def test_every_figure_shows_its_smallest_font_at_9px_or_more(audited):
    """From each figure's PNG (its dpi, and the smallest font that ldpcode.plotting.figure_png recorded) and
    its displayed width: s pt at d dpi show at s·d/72·shown/natural CSS px."""
    assert sum(a.figures for a in audited.values()) >= 60
    bad = _problems(audited, "fonts")
    assert not bad, "figures with fonts below 9 px as shown:\n" + "\n".join(bad)


def test_no_legend_hides_a_data_point_or_a_label(audited):
    """No figure's legend covers a marker of its data or a text (ldpcode.plotting.hidden_by_legend, recorded in the PNG
    when the figure was drawn). Found by it: Theorem 1's audit figure hid the broken mechanism's point at the largest
    eps, Lemma 12's figure 4,906 random pairs, the gaps of Corollaries 10-11 24 points, and legends moved below
    their axes covered the x labels. Nor does a legend lie over more than a tenth of a curve's drawn length
    (ldpcode.plotting.legend_line_cover; page_audit.MAX_COVER)."""
    assert not _problems(audited, "hidden"), _problems(audited, "hidden")


def test_no_figure_text_shows_an_underscore(audited):
    """A figure writes ε_min, not eps_min or ε_min with an underscore: ldpcode.plotting.figure_png sets every one-letter
    symbol's subscript as mathtext and records in the PNG how many texts still show an underscore (a name as the
    code spells it), which must be none. Found by it, once the subscripts were set: a legend naming the function
    linear_c_epsilon (Theorems 4-5), three titles naming the attribute max_lower (Lemmas 2 and 5), and an axis
    label R_HeLDP-UCB-BS(t), a policy's name as a subscript (Corollary 13)."""
    assert not _problems(audited, "underscores"), _problems(audited, "underscores")


def test_every_chapter_notebook_shows_a_check_table(audited):
    missing = [rel for rel in _chapter_pages() if "chapters/report/" not in rel and audited[rel].checks < 1]
    assert not missing, missing


def test_titles_carry_no_raw_latex(html):
    for path in html.rglob("*.html"):
        title = re.search(r"<title>(.*?)</title>", path.read_text(), re.S)
        if title:
            assert not re.search(r"\\\(|\\\[|\$|\\[a-zA-Z]+", title.group(1)), f"{path}: {title.group(1)}"
    # a heading's subscripts reach the tab with an underscore (_ext/tab_titles.py), not run into the letter
    tab = re.search(r"<title>(.*?) &#8212;", (html / "chapters/heldp/figure2.html").read_text()).group(1)
    assert tab == "Figure 2: regret against V_L and V_B", tab


def test_pages_load_nothing_from_the_network(html):
    pattern = re.compile(r"""<(script|link|img)[^>]+(src|href)=["'](https?:)?//""")
    for path in html.rglob("*.html"):
        hit = pattern.search(path.read_text())
        assert hit is None, f"{path.relative_to(html)} loads {hit.group(0)}"


def test_bibliography_labels_are_clean(html):
    text = (html / "chapters" / "bibliography.html").read_text()
    labels = re.findall(r'<span class="label"><span class="fn-bracket">\[</span>(.*?)<span', text)
    assert labels, "no bibliography labels found"
    for label in labels:  # the words the text cites with (_ext/bib_labels.py), not a number no citation shows
        assert re.fullmatch(r"[^\W\d][\w.' -]* \d{4}[a-z]?", label), f"garbled label {label!r}"
    assert (
        "Ren et al. 2020a" in labels and "Lattimore and Szepesvári 2020" in labels and len(set(labels)) == len(labels)
    )
    assert "$" not in re.sub(r"<script.*?</script>", "", text, flags=re.S), "raw LaTeX in the bibliography"


def test_api_appendix_goes_from_a_theorem_to_its_code_in_one_click(browser, html):
    """The paper-item index: each paper's table fits the page at 1280 px (its tests column on screen), the
    code names link into the API pages, and an API entry links to its highlighted source."""
    page = _page(browser, html, "chapters/api/index.html")
    tables = page.locator("div.paper-index table")
    assert tables.count() == 5  # the four papers and the book's own chapters
    for i in range(tables.count()):
        ok, where = _visible_column(page, tables.nth(i), "tests")
        assert ok, where
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    link = page.locator("div.paper-index a[href*='bounds.html#ldpcode.bounds.ren2020.ldp_ucb_l_regret_bound']")
    assert link.count() >= 1
    link.first.click()
    page.wait_for_load_state("load")
    assert page.url.endswith("chapters/api/bounds.html#ldpcode.bounds.ren2020.ldp_ucb_l_regret_bound"), page.url
    entry = page.locator("dt#ldpcode\\.bounds\\.ren2020\\.ldp_ucb_l_regret_bound")
    source = entry.locator("a.reference.internal", has_text="[source]")
    assert source.count() == 1
    href = source.get_attribute("href")
    target = (html / "chapters" / "api" / href.split("#")[0]).resolve()
    code = re.sub(r"<[^>]+>", "", target.read_text()) if target.exists() else ""  # the highlighted source
    assert "def ldp_ucb_l_regret_bound(" in code, href
    page.close()


#: the start of every line a browser draws in a ``pre``, as (left edge in px, whether it starts a line of the source);
#: the left edge of the pre's text, and the width of one character (monospace)
_LINE_STARTS = """pre => {
  const text = pre.textContent, out = [];
  const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
  let node, at = 0, top = null, char = 0;
  while ((node = walker.nextNode())) {
    for (let i = 0; i < node.length; i++, at++) {
      const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
      const box = r.getBoundingClientRect();
      if (text[at] === "\\n" || box.width === 0) continue;
      char = char || box.width;
      if (top === null || box.top > top + box.height / 2) {
        top = box.top; out.push([box.left, at === 0 || text[at - 1] === "\\n"]);
      }
    }
  }
  return [out, pre.getBoundingClientRect().left + parseFloat(getComputedStyle(pre).paddingLeft), char];
}"""


def test_a_wrapped_code_line_continues_under_a_hanging_indent(browser, html):
    """At 1280 px the long comments of a parameters cell wrap (_static/ldp.css, pre-wrap). Every line of the source
    starts at the cell's left edge, and every line the browser wraps starts at least 5 characters further right, so
    that a wrapped comment ("state its horizon") does not read as a statement of its own."""
    page = _page(browser, html, "chapters/ren2020/figure1.html")
    pre = page.locator("div.cell.tag_parameters div.cell_input pre").first
    starts, left, char = pre.evaluate(_LINE_STARTS)
    wrapped = [x for x, source in starts if not source]
    assert wrapped, f"no line of the parameters cell wraps at {WIDTH} px: nothing to check"
    assert all(abs(x - left) < 1 for x, source in starts if source), starts
    assert all(x - left >= 5 * char for x in wrapped), (left, starts)
    page.close()
