"""Every paper statement the book judges a number against is quoted verbatim: its quote is found in the paper's
text (under ../shared/papers, beside the repository; the book itself never reads it) after whitespace and markup
normalisation, and a printed result's quote contains its printed number."""

import os
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
