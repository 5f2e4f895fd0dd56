"""Sphinx directive ``execution-statistics``: how long each notebook of the book takes to run.

The table is built from ``data/execution.json``, the record that ``python -m ldpcode.nbrun`` writes each time
it executes a notebook: the wall time at the paper's scale (the notebook as committed, as nbval runs it in the
test command) and, after ``nbrun --tiny``, at the notebook's ``tiny`` parameters; each with its date and the
machine's core count. Nothing here is typed by hand. A chapter notebook with no paper-scale entry is a
warning (an error under ``-W``): run ``python -m ldpcode.nbrun`` on it.
"""

from __future__ import annotations

import json
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)
RECORD = "data/execution.json"


def duration(seconds: float) -> str:
    """Wall time for a reader: '8 s', '2 min 05 s', '1 h 02 min'."""
    s = round(seconds)
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


def _cell(entry: dict | None) -> str:
    return "not measured" if not entry else duration(entry["seconds"])


class ExecutionStatistics(SphinxDirective):
    def run(self):
        root = Path(self.env.srcdir)
        path = root / RECORD
        record = json.loads(path.read_text()) if path.exists() else {}
        self.env.note_dependency(str(path))
        notebooks = sorted(p.relative_to(root).as_posix() for p in (root / "chapters").glob("*/*.ipynb"))
        missing = [nb for nb in notebooks if "paper" not in record.get(nb, {})]
        for nb in missing:
            logger.warning(
                f"execution-statistics: {nb} has no paper-scale time in {RECORD} (run `python -m ldpcode.nbrun {nb}`)",
                location=self.env.docname,
            )
        rows = [
            "| notebook | paper scale | tiny scale | measured | cores |",
            "|---|--:|--:|---|--:|",
        ]
        total = 0.0
        for nb in sorted(notebooks, key=lambda n: -record.get(n, {}).get("paper", {}).get("seconds", 0.0)):
            entry = record.get(nb, {})
            paper, tiny = entry.get("paper"), entry.get("tiny")
            total += paper["seconds"] if paper else 0.0
            dates = sorted({e["date"] for e in (paper, tiny) if e})
            cores = sorted({str(e["cores"]) for e in (paper, tiny) if e})
            name = nb.removeprefix("chapters/").removesuffix(".ipynb")
            rows.append(
                f"| {{doc}}`{name} </{nb.removesuffix('.ipynb')}>` | {_cell(paper)} | {_cell(tiny)} | "
                f"{' / '.join(dates) or '-'} | {' / '.join(cores) or '-'} |"
            )
        rows.append(f"| **all {len(notebooks)} notebooks, one after another** | **{duration(total)}** | | | |")
        container = nodes.container(classes=["execution-statistics"])
        self.state.nested_parse(StringList(rows, source=RECORD), self.content_offset, container)
        return [container]


def setup(app):
    app.add_directive("execution-statistics", ExecutionStatistics)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
