"""Where the book lives on disk (a leaf module: :mod:`ldpcode.claims` and :mod:`ldpcode.parameters` both
need it, and neither may import the other for it)."""

from __future__ import annotations

import os
from pathlib import Path


def repo_root() -> Path:
    """The book's top folder: ``$LDPCODE_ROOT``, else the nearest parent of the working directory
    holding ``_toc.yml``, else the folder above the installed package."""
    env = os.environ.get("LDPCODE_ROOT")
    if env:
        return Path(env).resolve()
    here = Path.cwd().resolve()
    for d in (here, *here.parents):
        if (d / "_toc.yml").exists():
            return d
    return Path(__file__).resolve().parent.parent
