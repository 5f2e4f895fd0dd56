"""Every paper statement the book judges a number against is quoted verbatim: its quote is found in the paper's
text (under ../shared/papers, beside the repository; the book itself never reads it) after whitespace and markup
normalisation, and a printed result's quote contains its printed number."""

import os
import re
from pathlib import Path

import pytest

from ldpcode.claims import statements as S

ROOT = Path(__file__).resolve().parents[2]
PAPERS = ROOT.parent / "shared" / "papers"


def _papers():
    if not PAPERS.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"the paper texts are not at {PAPERS}: CI has shared/ beside the clone")
        pytest.skip(f"the paper texts are not at {PAPERS} (they sit in shared/ beside the repository)")
    return PAPERS


def test_every_quote_is_found_verbatim_in_its_paper():
    assert S.problems(_papers()) == []


@pytest.mark.parametrize("key", sorted(S.STATEMENTS))
def test_a_printed_result_quotes_its_number(key):
    st = S.STATEMENTS[key]
    if st.category == "printed result":
        assert st.printed and S.normalise(st.printed) in S.normalise(st.quote)
    assert len(st.quote) <= 400, f"{key}: quote a sentence, not a page ({len(st.quote)} characters)"


def test_the_statements_cover_every_paper():
    assert {st.cites for st in S.STATEMENTS.values()} == set(S.PAPER_FILES)


def _blockquotes(notebook):
    import nbformat

    nb = nbformat.read(ROOT / notebook, as_version=4)
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        block = []
        for line in cell.source.split("\n") + [""]:
            if line.startswith("> "):
                block.append(line[2:])
            elif block:
                yield " ".join(block)
                block = []


def test_the_errata_quote_the_papers_verbatim():
    texts = [(_papers() / f).read_text() for files in S.PAPER_FILES.values() for f in files]
    quotes = list(_blockquotes("chapters/report/errata.ipynb"))
    assert len(quotes) >= 10
    missing = [q for q in quotes if not any(S.found(q, t) for t in texts)]
    assert not missing, f"errata quotes not found verbatim in the papers: {missing}"


def _in_extraction(quote: str, text: str) -> bool:
    """Whether ``quote`` is in ``text`` as :func:`S.found` compares them, with every space dropped too: two
    extractions of one paper space their TeX differently (``e^\\epsilon + 1`` and ``e^{\\epsilon}+1``)."""
    tight = lambda t: S.normalise(t).replace(" ", "")  # noqa: E731
    hay, at = tight(text), 0
    for piece in (tight(p) for p in re.split(r"\.\.\.|…", quote)):
        if piece and (at := hay.find(piece, at)) < 0:
            return False
        at += len(piece)
    return True


def test_an_erratum_is_printed_in_every_extraction_of_its_paper():
    """An erratum says the paper prints it, so a slip of one extraction is not one: Ren et al.'s Corollary 11 reads
    "we get LDP-UCB-B." in the .md extraction and "we get LDP-UCB-BS." in the other (once an erratum, withdrawn)."""
    texts = {k: [(_papers() / f).read_text() for f in files] for k, files in S.PAPER_FILES.items()}
    quotes = list(_blockquotes("chapters/report/errata.ipynb"))
    partial = []
    for q in quotes:
        hits = [[_in_extraction(q, t) for t in papers] for papers in texts.values()]
        partial += [q[:80] for h in hits if any(h) and not all(h)]
    assert not partial, f"errata quotes found in only some extractions of their paper: {partial}"
    old = "Replacing CTB in LDP-UCB-B by CTB-S, we get LDP-UCB-B."
    assert [_in_extraction(old, t) for t in texts["ren2020ldp"]] == [True, False]  # the check can fail


def test_printed_value_is_the_number_the_statement_prints():
    """What a notebook passes as paper= (no parameter may stand for it: tests/book/test_parameters.py)."""
    assert S.printed_value("ren2020heldp.fig2.r2") == 0.9977
    assert S.printed_value("azize2022privacy.theorem2.threshold_example") == 0.05
    words = next(k for k, st in S.STATEMENTS.items() if st.printed and not st.printed[0].isdigit())
    with pytest.raises(ValueError, match=f"^statement '{words}' prints '.*', not one number$"):
        S.printed_value(words)
    with pytest.raises(
        ValueError, match="no paper statement 'ren2020heldp.fig2.r3' in ldpcode.claims.statements; did you mean"
    ):
        S.printed_value("ren2020heldp.fig2.r3")
    empty = next(k for k, st in S.STATEMENTS.items() if not st.printed)
    with pytest.raises(ValueError, match=f"^statement '{empty}' prints no number"):
        S.printed_value(empty)
