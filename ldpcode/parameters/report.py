"""The parameter rules of the reproduction report's notebook (``chapters/report/reproduction_report.ipynb``)."""

from __future__ import annotations

from .rules import Notebook, Optional, Text, _chapter_exists

NOTEBOOKS: dict[str, Notebook] = {
    # ---------------------------------------------------------------- the reproduction report
    "chapters/report/reproduction_report.ipynb": Notebook(
        dict(chapter=Optional(Text())), (_chapter_exists,), tiny=dict(chapter="appendix")
    ),
}
