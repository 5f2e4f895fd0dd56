"""The findings table of README.md and intro.md: the report's scorecard and its totals, written between two marker
lines from data/ (``python -m ldpcode findings --write``), never by hand."""

from __future__ import annotations

from pathlib import Path

from .._paths import repo_root
from . import report

FINDINGS_START = "<!-- findings: written by `python -m ldpcode findings --write` from data/; not by hand -->"
FINDINGS_END = "<!-- /findings -->"
#: the files whose findings table is written from data/ (paths from the repository root)
FINDINGS_FILES = ("README.md", "intro.md")


def findings(summary: report.Summary | None = None) -> str:
    """The findings table: the :func:`~ldpcode.claims.report.scorecard` as markdown, and one line of totals."""
    card = report.scorecard(summary if summary is not None else report.collect())
    n = card.totals()
    total = sum(n.values())
    numbers = sum(r[3] for r in card.rows)
    line = ", ".join(f"{k} {v}" for v, k in n.items() if k)
    return f"{card.markdown()}\n\n{total} statements of the four papers, judged by {numbers} numbers: {line}."


def _block_span(text: str, where) -> tuple:
    """Where the findings block of ``text`` starts (after its opening marker) and ends (at its closing marker)."""
    start, end = text.find(FINDINGS_START), text.find(FINDINGS_END)
    if start < 0 or end < start:
        raise ValueError(f"{where} has no findings block: the lines {FINDINGS_START!r} and {FINDINGS_END!r}")
    return start + len(FINDINGS_START), end


def _replace_block(text: str, block: str, where: str) -> str:
    start, end = _block_span(text, where)
    return text[:start] + "\n" + block + "\n" + text[end:]


def findings_in(path: Path) -> str:
    """The findings block as it stands in ``path`` (between the two marker lines)."""
    text = path.read_text()
    start, end = _block_span(text, path)
    return text[start:end].strip("\n")


def check_findings_files(root: Path | None = None) -> None:
    """Refuse a findings file that is a symbolic link, before any work: the atomic rewrite would put a plain file in
    its place (as ``sweep`` refuses its ``--out``, :func:`ldpcode.table_io.check_table_path`)."""
    for name in FINDINGS_FILES:
        path = (root or repo_root()) / name
        if path.is_symlink():
            raise ValueError(
                f"{path} is a symbolic link; findings --write writes through none (it would replace the link "
                "with a plain file): make it a plain file, or run findings without --write"
            )


def write_findings(root: Path | None = None) -> list[Path]:
    """Rewrite the findings block of README.md and intro.md from data/ (only between the markers, atomically);
    returns the files that changed. A file that is a symbolic link is refused first (:func:`check_findings_files`)."""
    from .store import _write_text_atomic

    root = root or repo_root()
    check_findings_files(root)
    block = findings(report.collect(root=root))
    texts = {root / name: (root / name).read_text() for name in FINDINGS_FILES}
    new = {path: _replace_block(text, block, str(path)) for path, text in texts.items()}  # all checked first
    changed = [path for path in texts if new[path] != texts[path]]
    for path in changed:
        _write_text_atomic(path, new[path])
    return changed
