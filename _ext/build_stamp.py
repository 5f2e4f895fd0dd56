"""A stamp in the built book saying which sources it was built from, so that the page tests
(``tests/book/test_book_pages.py``) can open the book the README's build command made instead of building it a
second time.

The stamp, ``<outdir>/.build-stamp.json``, is written only when the build started from an output folder without
pages (no page left from an earlier build, which Sphinx would not delete), read every page afresh (none taken over
from an earlier build's doctrees, whose warnings Sphinx would not repeat), gave no warning and raised nothing: a
build that would have passed ``--warningiserror``. A build over an earlier one writes none; the page tests then
build their own. It records :func:`source_digest` of the project taken when the
build started. Any older stamp is removed first, so a failed or partial build leaves none. A reader of the stamp
trusts it only when the digest of the sources now is the same.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

STAMP = ".build-stamp.json"


def source_digest(root: Path) -> str | None:
    """SHA-256 over the path and content of every file of ``root`` git tracks or would track (``git ls-files
    --cached --others --exclude-standard``): any edited, added or removed source changes it. ``None`` outside a git
    work tree, where there is no list of sources to trust."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=root, capture_output=True, check=True, timeout=60,
        ).stdout  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    h = hashlib.sha256()
    for name in sorted(set(out.decode().split("\0")) - {""}):
        path = Path(root, name)
        h.update(name.encode() + b"\0")
        h.update(path.read_bytes() if path.is_file() else b"<absent>")
        h.update(b"\0")
    return h.hexdigest()


def read_stamp(outdir: Path) -> dict | None:
    """The stamp of a built book's ``outdir`` (``_build/html``), or ``None`` when there is none or it is unreadable."""
    try:
        return json.loads((Path(outdir) / STAMP).read_text())
    except (OSError, ValueError):
        return None


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
        stamp = {"sources": digest, "pages": len(app.env.found_docs), "builder": app.builder.name}
        (Path(app.outdir) / STAMP).write_text(json.dumps(stamp, indent=1) + "\n")


def setup(app):
    app.connect("builder-inited", _start)
    app.connect("env-before-read-docs", _read)
    app.connect("build-finished", _finish)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
