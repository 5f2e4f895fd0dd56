"""A stamp in the built book saying which sources it was built from, so that the page tests
(``tests/book/test_book_pages.py``) can open the book the README's build command made instead of building it a
second time.

The stamp, ``<outdir>/.build-stamp.json``, is written only when the build started from an output folder without
pages (no page left from an earlier build, which Sphinx would not delete), read every page afresh (none taken over
from an earlier build's doctrees, whose warnings Sphinx would not repeat), gave no warning and raised nothing: a
build that would have passed ``--warningiserror``. A build over an earlier one writes none; the page tests then
build their own. It records :func:`source_digest` of the project taken when the build started, and
:func:`output_digest` of the pages it wrote, so that a later build without this extension, or an edited page, voids
it. Any older stamp is removed first, so a failed or partial build leaves none. :func:`reusable_build` trusts a
stamp only when both digests are those of the files now.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path

STAMP = ".build-stamp.json"


def _digest(root: Path, names) -> str | None:
    """SHA-256 over the path and content of each file of ``names`` (bytes, relative to ``root``); ``None`` when one
    cannot be read."""
    h = hashlib.sha256()
    try:
        for name in sorted(set(names) - {b""}):
            path = Path(root, os.fsdecode(name))
            h.update(name + b"\0" + (path.read_bytes() if path.is_file() else b"<absent>") + b"\0")
    except OSError:
        return None
    return h.hexdigest()


def source_digest(root: Path) -> str | None:
    """SHA-256 over the path and content of every file of ``root`` git tracks or would track (``git ls-files
    --cached --others --exclude-standard``): any edited, added or removed source changes it. ``None`` outside a git
    work tree, where there is no list of sources to trust, or when a file cannot be read."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=root, capture_output=True, check=True, timeout=60,
        ).stdout  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    return _digest(Path(root), out.split(b"\0"))


def output_digest(outdir: Path) -> str | None:
    """SHA-256 over the path and content of every file of a built book's ``outdir`` but the stamp: whatever
    rewrites a page after the stamp was written changes it."""
    outdir = Path(outdir)
    names = [os.fsencode(p.relative_to(outdir)) for p in outdir.rglob("*") if p.is_file() and p.name != STAMP]
    return _digest(outdir, names)


def read_stamp(outdir: Path) -> dict | None:
    """The stamp of a built book's ``outdir`` (``_build/html``), or ``None`` when there is none or it is unreadable."""
    try:
        found = json.loads((Path(outdir) / STAMP).read_text())
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def reusable_build(root: Path, outdir: Path) -> Path | None:
    """``outdir``, a book built from ``root``, when its stamp says it was built afresh and without a warning from
    exactly the sources of ``root`` now, and it holds the pages that build wrote; else ``None`` (build again)."""
    found = read_stamp(outdir)
    if not found or not found.get("sources") or not found.get("output"):
        return None
    if found["sources"] != source_digest(root) or found["output"] != output_digest(outdir):
        return None
    return Path(outdir)


def _start(app):
    (Path(app.outdir) / STAMP).unlink(missing_ok=True)
    fresh = not any(Path(app.outdir).rglob("*.html"))
    app._stamp_digest = source_digest(Path(app.srcdir)) if fresh else None
    app._stamp_read = set()


def _read(app, env, docnames):
    app._stamp_read.update(docnames)


def _finish(app, exception):
    digest = getattr(app, "_stamp_digest", None)
    full = app._stamp_read >= set(app.env.found_docs)
    if exception is None and digest and full and app.builder.name == "html" and app._warncount == 0:
        out = output_digest(Path(app.outdir))
        stamp = {"sources": digest, "output": out, "pages": len(app.env.found_docs), "builder": app.builder.name}
        if out:
            (Path(app.outdir) / STAMP).write_text(json.dumps(stamp, indent=1) + "\n")


def setup(app):
    app.connect("builder-inited", _start)
    app.connect("env-before-read-docs", _read)
    app.connect("build-finished", _finish, priority=900)  # after the theme's own end-of-build handlers
    return {"parallel_read_safe": True, "parallel_write_safe": True}
