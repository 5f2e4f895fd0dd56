"""ruff, lint and format, over the package, the tests, the benchmarks, the book's Sphinx extension (_ext) and the
chapters' parameter rules (chapters/*/parameters.py), and lint over the notebooks; settings in pyproject.toml's
[tool.ruff]. Run here so that the
README's test command, and CI with it, checks them. To fix:
``ruff check --fix ldpcode tests benchmarks _ext chapters/*/parameters.py`` and ``ruff format`` over the same."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PATHS = [
    "ldpcode",
    "tests",
    "benchmarks",
    "_ext",
    *sorted(str(p.relative_to(ROOT)) for p in Path(ROOT).glob("chapters/*/parameters.py")),
]


def _ruff(*args):
    exe = shutil.which("ruff") or pytest.fail("ruff is not installed: pip install -r requirements.txt")
    return subprocess.run([exe, *args, *PATHS], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_ruff_lint():
    out = _ruff("check", "--output-format", "concise")
    assert out.returncode == 0, out.stdout + out.stderr


def test_ruff_lint_of_the_notebooks():
    """The notebooks' code, which a reader reads (lint only: their cells keep the layout the book shows)."""
    exe = shutil.which("ruff") or pytest.fail("ruff is not installed: pip install -r requirements.txt")
    out = subprocess.run([exe, "check", "--output-format", "concise", "chapters"], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr


def test_ruff_format():
    out = _ruff("format", "--check")
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_style_tests_can_fail(tmp_path):
    """A badly formatted, unused import: both ruff commands reject it (so the two tests above check something)."""
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nx=1\n")
    exe = shutil.which("ruff") or pytest.fail("ruff is not installed")
    lint = subprocess.run([exe, "check", "--no-cache", str(bad)], capture_output=True, text=True)
    fmt = subprocess.run([exe, "format", "--check", "--no-cache", str(bad)], capture_output=True, text=True)
    assert lint.returncode != 0 and "F401" in lint.stdout
    assert fmt.returncode != 0
